import time, os, sys
os.environ["NUMBA_CACHE_DIR"]="/tmp/cs/nbcache_"+sys.argv[1]
t0=time.process_time(); w0=time.time()
from sanssim.games.sanssouci.core import SanssouciCore
import sanssim.games.sanssouci.core.play as play, sanssim.games.sanssouci.core.rules as rules, sanssim.games.sanssouci.core.strategies as strat, sanssim.games.sanssouci.core.lookahead as la, sanssim.games.sanssouci.core.score as sc
import sanssim.compiled.rng as rng, sanssim.compiled.bits as bits
SanssouciCore().compile()
print("cpu", time.process_time()-t0, "wall", time.time()-w0)
for m in (play, rules, strat, la, sc, rng, bits):
    for k,v in vars(m).items():
        if hasattr(v, "signatures") and v.signatures:
            print(m.__name__.split('.')[-1], k, len(v.signatures))
for f in (strat._place_value, rules._place, rules.expansion_mark, strat.best_by_score, rng.shuffle, rng.getrandbits, rng.randbelow, rng.bit_length, strat._greedy_place):
    print(f.__name__, f.signatures)
