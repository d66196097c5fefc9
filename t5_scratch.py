import time, numpy as np, numba as nb
from sanssim.games import get_game
from sanssim.strategies import resolve
from sanssim.runner.play import game_seed
from sanssim.seeding import strategy_seed
from sanssim.games.sanssouci.core.layout import pack_game, SUPPLY, G_N_TILES, PHASE, CURRENT
from sanssim.games.sanssouci.core.play import play_games, result_arrays, choose
from sanssim.games.sanssouci.core.rules import deal, settle, apply
from sanssim.games.sanssouci.core import seat_weights
from sanssim.compiled import rng as mt
from sanssim.compiled import prepare
from sanssim.games.sanssouci.core import SanssouciCore
t=time.time(); prepare(SanssouciCore()); print("prepare", time.time()-t)
gt = get_game("sanssouci")
game = gt.new_game(4, {}, gt.load_components())
count=20000
ids=np.array([(i, game_seed(7,i)) for i in range(count)]); ss=np.array([[strategy_seed(int(s),p) for p in range(4)] for s in ids[:,1]])
gp=pack_game(game)
@nb.njit
def deal_only(gp, seeds):
    st=np.zeros(SUPPLY+gp[G_N_TILES]+1, np.int64); g=np.zeros(625,np.uint32)
    for k in range(seeds.shape[0]):
        deal(st,gp,g,seeds[k],False)
@nb.njit
def seed_only(seeds):
    g=np.zeros(625,np.uint32)
    for k in range(seeds.shape[0]):
        mt.seed(g, seeds[k])
@nb.njit
def word_only(n):
    g=np.zeros(625,np.uint32); mt.seed(g, 5); s=0
    for k in range(n):
        s+=mt.word(g)
    return s
seeds=ids[:,1].copy()
deal_only(gp, seeds[:2]); seed_only(seeds[:2]); word_only(10)
for rep in range(2):
    t=time.process_time(); seed_only(seeds); print("seed", (time.process_time()-t)/count*1e6, "us")
    t=time.process_time(); word_only(1000000); print("word", (time.process_time()-t), "us")
    t=time.process_time(); deal_only(gp, seeds); print("deal (incl seed)", (time.process_time()-t)/count*1e6, "us")
    for strat in ("random","heuristic"):
        w=np.stack([seat_weights(resolve(strat))]*4); kinds=np.array([0 if strat=="random" else 2]*4)
        res,log=result_arrays(count,4,72,False)
        t=time.process_time(); play_games(gp, seeds, ss, kinds, w, False, res, log); print(strat, "game", (time.process_time()-t)/count*1e6, "us")
