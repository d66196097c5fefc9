"""`ismcts` on the Splendor core: the shared search (`sanssim.compiled.ismcts`) over this
core's determinisation, option ranking and heuristic rollouts (`lookahead`).

The context is (the game's tables, an unwritten log, heuristic scores and work space,
an option order, `determinize`'s scratch). A world's decks are its only chance, fixed
by `determinize`, so a world needs no stream of its own; the rollouts' uniform draws
come from the player's stream. The hooks are kernels, as the search requires.
"""

from __future__ import annotations

import numpy as np

from sanssim.compiled.ismcts import I_DEPTH, PARAMS, searcher
from sanssim.compiled.kernel import kernel
from sanssim.compiled.lowered import arange, empty, zeros
from sanssim.games.splendor.core import layout as L
from sanssim.games.splendor.core.lookahead import (
    determinize,
    determinize_work,
    ranked,
)
from sanssim.games.splendor.core.position import new_work
from sanssim.games.splendor.core.rollout import play_on
from sanssim.games.splendor.core.rules import apply
from sanssim.games.splendor.core.state import copy, jit, random_choice, ranks_of, seat
from sanssim.games.splendor.record import RECORD_WIDTH


@jit
def _determinize(ctx, root, world, g) -> None:  # type: ignore[no-untyped-def]
    determinize(root, ctx[0], ctx[1], root[L.H_CURRENT], g, world, ctx[7], ctx[8])


@jit
def _options(ctx, world, width, out) -> int:  # type: ignore[no-untyped-def]
    n = world[L.H_N_LEGAL]
    if width < 1 or n <= width:
        copy(out, 0, world, L.LEGAL, n)
        return n
    order = ctx[6]
    ranked(world, ctx[0], ctx[1], ctx[2], ctx[4], ctx[5], width, order)
    for i in range(width):
        out[i] = world[L.LEGAL + order[i]]
    return width


@jit
def _play(ctx, world, action) -> None:  # type: ignore[no-untyped-def]
    apply(world, ctx[0], ctx[1], ctx[2], ctx[3], action)


@jit
def _over(world) -> bool:  # type: ignore[no-untyped-def]
    return world[L.H_N_LEGAL] == 0


@jit
def _mover(world) -> int:  # type: ignore[no-untyped-def]
    return world[L.H_CURRENT]


@jit
def _roll(ctx, world, g, uniform) -> None:  # type: ignore[no-untyped-def]
    """One decision of `lookahead.play_out`; with no depth cut (`ctx[9]`), a heuristic
    rollout's every decision to the end, as the search would go on calling for them
    (`rollout.play_on`: one call a rollout, not one a decision)."""
    if uniform:
        action = random_choice(world, g)
        apply(world, ctx[0], ctx[1], ctx[2], ctx[3], action)
    else:
        decisions = -1 if ctx[9] else 1
        play_on(world, ctx[0], ctx[1], ctx[2], ctx[3], ctx[4], ctx[5], decisions)


@jit
def _outcome(ctx, world, ranks, totals) -> None:  # type: ignore[no-untyped-def]
    n = ranks.shape[0]
    ranks_of(world, n, ctx[0][L.C_TIES_LATER], ranks)
    for p in range(n):
        totals[p] = world[seat(p) + L.P_POINTS]


_search = searcher(_determinize, _options, _play, _over, _mover, _roll, _outcome)


@kernel(allocates=True)
def ismcts(S: np.ndarray, cfg: np.ndarray, cards: np.ndarray, nobles: np.ndarray,
           params: np.ndarray, g: np.ndarray, visits: np.ndarray,
           means: np.ndarray) -> int:  # fmt: skip
    """`IsmctsStrategy.choose` for the current seat (its `terms` in `visits` and `means`,
    one per legal choice); `params`: the search's (`sanssim.compiled.ismcts.parameters`)."""
    hidden, pool = determinize_work(cfg)
    ctx = (
        cfg,
        cards,
        nobles,
        zeros((1, RECORD_WIDTH), np.int32),  # never written: no record
        empty(L.MAX_LEGAL, np.float64),
        new_work(),
        empty(L.MAX_LEGAL, np.int64),
        hidden,
        pool,
        params[I_DEPTH] < 1,  # no depth cut: `_roll` plays a rollout to the end
    )
    legal = S[L.LEGAL : L.LEGAL + S[L.H_N_LEGAL]].copy()
    sides = arange(cfg[L.C_N])
    return _search(ctx, S, legal, g, params[:PARAMS], sides, L.MAX_LEGAL, visits, means)
