"""`greedy` in compiled code: GreedyStrategy's score of each legal choice, float for float."""

from __future__ import annotations

import numpy as np

from sanssim.compiled.bits import low_bit
from sanssim.compiled.kernel import kernel
from sanssim.compiled.lowered import larger
from sanssim.games.sanssouci.actions import DISCARD, PASS, PLACE, SIDE, TAKE
from sanssim.games.sanssouci.components import N_COLS
from sanssim.games.sanssouci.core.layout import (
    CURRENT,
    G_SIDE_MARKS,
    GARDENERS,
    NOBLE_ZONE,
    OCCUPIED,
    PHASE,
    REACH,
)
from sanssim.games.sanssouci.core.rules import (
    GARDENER,
    LANDSCAPE,
    NEIGHBOURS,
    expansion_mark,
    flood,
)
from sanssim.games.sanssouci.core.tactics import (
    deepest_row,
    gardener_spots,
    mission_columns,
    row_sum,
    target_of,
)
from sanssim.games.sanssouci.strategies.greedy import TIE


@kernel
def _greedy_place(st: np.ndarray, gp: np.ndarray, sq: np.int64, gardener: bool) -> float:
    p = st[CURRENT]
    reach = st[REACH + p]
    gardeners = st[GARDENERS + p]
    zone = st[NOBLE_ZONE + p]
    bit = np.int64(1) << sq
    new = np.int64(0)
    if NEIGHBOURS[sq] & reach:
        new = flood(reach | bit, st[OCCUPIED + p] | bit) & ~reach
    options = (reach & ~gardeners & zone) | (new & zone & ~gardeners)
    if gardener:
        options &= ~bit
    points = expansion_mark(st, gp, p, sq, gardener) + deepest_row(options)
    return points + TIE * row_sum(new)


@kernel
def greedy_score(st: np.ndarray, gp: np.ndarray, action: np.int64) -> float:
    """GreedyStrategy's score of one legal choice."""
    phase = st[PHASE]
    p = st[CURRENT]
    if phase == SIDE:
        return TIE * gp[gp[G_SIDE_MARKS] + action]
    if phase == TAKE:
        if action >= DISCARD:
            return float(deepest_row(st[REACH + p] & ~st[GARDENERS + p] & st[NOBLE_ZONE + p]))
        slot = action % 10
        target = target_of(st, gp, p, slot)
        occupied = st[OCCUPIED + p]
        if not (occupied >> target) & 1:
            return _greedy_place(st, gp, target, LANDSCAPE)
        best = -np.inf
        spots = gardener_spots(occupied, target)
        while spots:
            best = larger(best, _greedy_place(st, gp, low_bit(spots), GARDENER))
            spots &= spots - 1
        return best
    if phase == PLACE:
        return _greedy_place(st, gp, action, GARDENER)
    if action == PASS:
        return 0.0
    in_mission = (mission_columns(st, gp, p) >> action) & 1
    return action // N_COLS + 1 + TIE * in_mission
