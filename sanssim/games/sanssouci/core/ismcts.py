"""`ismcts` on the Sanssouci core: the shared search (`sanssim.compiled.ismcts`) over this
core's determinisation, option ranking and heuristic rollouts (`lookahead`).

The context is (game tables, the seat's weight row, the world's own stream, an empty
log and its position, a results block, the heuristic's work array, an option order,
the turn whose take the rollout scored last or -1, `_roll`): a
world draws its game's chance (reshuffles) from its own stream, seeded by
`determinize`, as `PlayerView.determinize` gives the world a `random.Random` of its
own; the rollouts' uniform draws come from the player's stream. The hooks but
`determinize` are kernels, as the search requires; those called at every decision of a
rollout are inlined into it (`choices.step`): a call would pass the context's nine arrays,
seven words each: 8-13% of a 4-player decision's time.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from sanssim.compiled import rng as mt
from sanssim.compiled.ismcts import best_first, searcher
from sanssim.compiled.kernel import kernel
from sanssim.compiled.lowered import arange, empty, zeros
from sanssim.games.sanssouci.actions import END, PLACE, TAKE
from sanssim.games.sanssouci.core.choices import legal_list, step
from sanssim.games.sanssouci.core.heuristic import heuristic_placement, heuristic_scores
from sanssim.games.sanssouci.core.layout import (
    CURRENT,
    G_N,
    LEGAL,
    LEGAL_LEN,
    LEGAL_ROOM,
    PHASE,
    RECORD_WIDTH,
    TURN,
)
from sanssim.games.sanssouci.core.lookahead import determinize
from sanssim.games.sanssouci.core.rules import apply
from sanssim.games.sanssouci.core.score import RESULT_WIDTH, V_RANK, V_TOTAL, score_game
from sanssim.games.sanssouci.core.strategies import HEURISTIC, best_by_score, random_pick
from sanssim.games.sanssouci.core.weights import TILES, W_SEARCH, WORK


@nb.njit(cache=True, inline="always")
def _determinize(ctx, root, world, g) -> None:  # type: ignore[no-untyped-def]
    determinize(root, ctx[0], world, ctx[2], g, root[CURRENT])
    ctx[8][0] = -1  # no rollout take scored in this world yet


@kernel
def _options(ctx, world, width, out) -> np.int64:  # type: ignore[no-untyped-def]
    """`lookahead.ranked`'s options, without its allocations."""
    n = world[LEGAL_LEN]
    if width < 1 or n <= width:
        legal_list(world)  # else `heuristic_scores` lists them
        for i in range(n):
            out[i] = world[LEGAL + i]
        return n
    work = ctx[6]
    scores = work[:TILES]
    heuristic_scores(world, ctx[0], ctx[1], scores, work)
    order = ctx[7]
    best_first(scores, n, width, order)
    for i in range(width):
        out[i] = world[LEGAL + order[i]]
    return width


@step
def _play(ctx, world, action) -> None:  # type: ignore[no-untyped-def]
    apply(world, ctx[0], ctx[2], action, ctx[3], ctx[4])


@step
def _over(world) -> bool:  # type: ignore[no-untyped-def]
    return world[PHASE] == END


@step
def _mover(world) -> np.int64:  # type: ignore[no-untyped-def]
    return world[CURRENT]


@step
def _roll(ctx, world, g, uniform) -> None:  # type: ignore[no-untyped-def]
    """One decision of `lookahead.play_out`; a gardener's placement after the rollout's
    own take of the turn, from the spots' values that take's scoring left."""
    taken = ctx[8]
    phase = world[PHASE]
    if uniform:
        action = random_pick(world, mt.random(g))
    elif phase == PLACE and taken[0] == world[TURN]:
        action = heuristic_placement(world, ctx[6])
    else:
        action = best_by_score(world, ctx[0], np.int64(HEURISTIC), ctx[1], ctx[6])
    taken[0] = world[TURN] if phase == TAKE and not uniform else -1
    apply(world, ctx[0], ctx[2], action, ctx[3], ctx[4])


@kernel
def _outcome(ctx, world, ranks, totals) -> None:  # type: ignore[no-untyped-def]
    results = ctx[5]
    score_game(world, ctx[0], results)
    for p in range(ranks.shape[0]):
        ranks[p] = results[p, V_RANK]
        totals[p] = results[p, V_TOTAL]


_search = searcher(_determinize, _options, _play, _over, _mover, _roll, _outcome)


@nb.njit(cache=True, inline="always")
def ismcts(
    st: np.ndarray,
    gp: np.ndarray,
    w: np.ndarray,
    g: np.ndarray,
    visits: np.ndarray,
    means: np.ndarray,
) -> np.int64:
    """IsmctsStrategy.choose for the current seat (its `terms` in `visits` and `means`, one
    per legal choice); `w`: the default heuristic's weights, then the search's parameters."""
    n = gp[G_N]
    wg = zeros(mt.STATE, np.uint32)
    pos = empty(1, np.int64)
    taken = empty(1, np.int64)
    sides = arange(n)
    pos[0], taken[0] = 0, -1
    ctx = (
        gp,
        w,
        wg,
        empty((0, RECORD_WIDTH), np.int16),
        pos,
        empty((n, RESULT_WIDTH), np.int64),  # score_game's: every row written
        empty(WORK, np.float64),
        empty(LEGAL_ROOM, np.int64),
        taken,
    )
    legal_list(st)
    legal = st[LEGAL : LEGAL + st[LEGAL_LEN]].copy()
    return _search(ctx, st, legal, g, w[W_SEARCH:], sides, LEGAL_ROOM, visits, means)
