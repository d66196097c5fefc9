"""`heuristic` in compiled code, valuing what `HeuristicStrategy` values: the same float
operations in the same order, read from the state as the seat's `PlayerView` would show it
(its own hand and missions, public facts otherwise).

A seat's weights are its float64 weight row `w` (`weights.weights`); a decision's scores
and values go into a work space (`weights.work_array`).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from sanssim.compiled.bits import bit_count, bit_length, low_bit
from sanssim.compiled.kernel import kernel
from sanssim.compiled.lowered import larger
from sanssim.games.sanssouci.actions import (
    CARD_JOKER,
    CARD_PAIR,
    DISCARD,
    HAND_SIZE,
    NOBLE,
    PASS,
    PLACE,
    ROUNDS,
    SIDE,
)
from sanssim.games.sanssouci.components import N_COLS
from sanssim.games.sanssouci.core.choices import legal_list
from sanssim.games.sanssouci.core.layout import (
    CHOICES,
    CURRENT,
    EXP_SIDE,
    G_CARD_KIND,
    G_CARD_SYMBOL,
    G_COLUMN_BONUS,
    G_MISSION_POINTS,
    G_N,
    G_ROW_POINTS,
    GARDENERS,
    HAND_LEN,
    HANDS,
    LEGAL,
    LEGAL_LEN,
    NOBLE_ROWS,
    NOBLE_ZONE,
    OCCUPIED,
    PHASE,
    REACH,
    SLOT_OF_SYMBOL,
    TURN,
)
from sanssim.games.sanssouci.core.rules import (
    COL_MASK,
    GARDENER,
    LANDSCAPE,
    NEIGHBOURS,
    ROW_MASK,
    expansion_mark,
    flood,
)
from sanssim.games.sanssouci.core.tactics import (
    BELOW,
    gardener_spots,
    mission_columns,
    paid_sum,
    row_sum,
    target_of,
)
from sanssim.games.sanssouci.core.weights import (
    PLACED,
    TILES,
    W_BLOCK,
    W_COLUMN,
    W_CREDIT,
    W_JOKER,
    W_LATENT,
    W_MISSION,
    W_MISSION_MOVE,
    W_OPTION,
    W_PAIR,
    W_PATH,
    W_ROW,
    W_SKIP,
    W_SYMBOL,
)
from sanssim.games.sanssouci.garden import N_SQUARES


@kernel(forceinline=True)
def first_best(st: np.ndarray, scores: np.ndarray) -> np.int64:
    """The first legal choice of the highest of `scores`."""
    best = st[LEGAL]
    best_score = -np.inf
    for i in range(st[LEGAL_LEN]):
        if scores[i] > best_score:
            best, best_score = st[LEGAL + i], scores[i]
    return best


@nb.njit(cache=True, inline="always")
def heuristic_placement(st: np.ndarray, work: np.ndarray) -> np.int64:
    """`heuristic`'s PLACE choice when `work` holds what `heuristic_scores` valued at this
    turn's TAKE decision: that valued every gardener spot of every legal take's tile, and
    taking the tile changes nothing a placement's value reads (the seat's garden, nobles
    and missions, the turn), so the spots' values are the ones a PLACE scoring computes."""
    legal_list(st)
    scores = work[:TILES]
    _placement_scores(st, scores, work)
    return first_best(st, scores)


@kernel(forceinline=True)
def _placement_scores(st: np.ndarray, out: np.ndarray, work: np.ndarray) -> None:
    for i in range(st[LEGAL_LEN]):
        out[i] = work[PLACED + N_SQUARES + st[LEGAL + i]]


@nb.njit(cache=True, inline="always")
def _options(st: np.ndarray, p: np.int64) -> np.int64:
    return st[REACH + p] & ~st[GARDENERS + p] & st[NOBLE_ZONE + p]


@kernel(forceinline=True)
def _move_value(
    st: np.ndarray,
    gp: np.ndarray,
    w: np.ndarray,
    sq: np.int64,
    missions: np.int64,
    p: np.int64,
    moves: np.int64,
) -> float:
    """_Turn.move_value for seat `p`, its noble's moves `moves` (`_options`, read once by
    the caller's loop)."""
    if sq == PASS:
        return 0.0
    row = sq // N_COLS + 1
    col = sq % N_COLS
    value = float(row)
    if (missions >> sq) & 1:
        paid = gp[G_MISSION_POINTS + row] - gp[G_MISSION_POINTS + st[NOBLE_ROWS + 9 * p + col]]
        value += w[W_MISSION_MOVE] * paid
    skipped = moves & COL_MASK[col] & ~BELOW[row - 1]
    if skipped:
        value -= w[W_SKIP] * row_sum(skipped)
    return value


@nb.njit(cache=True, inline="always")
def _best_move(st: np.ndarray, gp: np.ndarray, w: np.ndarray, missions: np.int64) -> float:
    best = 0.0
    p = st[CURRENT]
    moves = _options(st, p)
    options = moves
    while options:
        best = larger(best, _move_value(st, gp, w, low_bit(options), missions, p, moves))
        options &= options - 1
    return best


@nb.njit(cache=True, inline="always")
def _turns_left(st: np.ndarray, gp: np.ndarray, seat: np.int64) -> np.int64:
    """tactics.turns_left: the rounds less those begun before the seat's next turn (one
    division gives the turn's round and seat both)."""
    n = gp[G_N]
    turn = st[TURN]
    begun = turn // n + (seat < turn % n)
    return larger(0, ROUNDS - begun)


@nb.njit(cache=True, inline="always")
def _place_value(
    st: np.ndarray,
    gp: np.ndarray,
    w: np.ndarray,
    sq: np.int64,
    gardener: bool,
    missions: np.int64,
    best_move: float,
    left: np.int64,
    garden: tuple[np.int64, np.int64, np.int64, np.int64, np.int64],
    expansion: bool,
) -> float:
    """_Turn.place_value; `left`: the tiles to place after this one (_Turn.left); `garden`:
    the seat, its reach, gardeners, noble zone and occupied squares."""
    p, reach, gardeners, zone, occupied = garden
    bit = np.int64(1) << sq
    row = sq // N_COLS + 1
    value = best_move
    if expansion:
        value += expansion_mark(st, gp, p, sq, gardener)
    occupied |= bit
    new = np.int64(0)
    moves = reach & ~gardeners & zone  # `_options`
    if NEIGHBOURS[sq] & reach:
        new = flood(reach | bit, occupied) & ~reach
    if new:
        depth = (bit_length(reach) - 1) // N_COLS + 1
        deeper = (bit_length(new) - 1) // N_COLS + 1 - depth
        if deeper > 0:
            value += w[W_PATH] * deeper
        opened = new & zone & ~((gardeners | bit) if gardener else gardeners)
        if opened:
            mission = paid_sum(opened & missions, gp)
            value += w[W_OPTION] * (row_sum(opened) + w[W_MISSION] * mission)
            best = -np.inf
            squares = opened
            while squares:
                best = larger(best, _move_value(st, gp, w, low_bit(squares), missions, p, moves))
                squares &= squares - 1
            if best > best_move:
                value += best - best_move
    if bit & zone:
        if gardener:
            value -= w[W_BLOCK] * row
        elif not new:
            value += w[W_LATENT] * row
    missing = 9 - bit_count(occupied & ROW_MASK[row])
    if row > 1 and missing <= left:
        value += w[W_ROW] * gp[G_ROW_POINTS + row] * w[W_CREDIT + missing]
    missing = 6 - bit_count(occupied & COL_MASK[sq % N_COLS])
    if missing <= left:
        value += w[W_COLUMN] * gp[G_COLUMN_BONUS] * w[W_CREDIT + missing]
    return value


@kernel
def _place_values(
    st: np.ndarray,
    gp: np.ndarray,
    w: np.ndarray,
    squares: np.int64,
    gardener: bool,
    missions: np.int64,
    best: float,
    left: np.int64,
    work: np.ndarray,
) -> None:
    """`_place_value` of each square of `squares`, into `work`. A call per kind of tile
    or PLACE decision, not per square; `_place_value`, the heuristic's largest part, is
    inlined here only: one copy to compile."""
    at = PLACED + N_SQUARES * gardener
    p = st[CURRENT]  # the seat's garden, read once: a store into `work` has it read again
    garden = (p, st[REACH + p], st[GARDENERS + p], st[NOBLE_ZONE + p], st[OCCUPIED + p])
    expansion = st[EXP_SIDE + p] >= 0
    while squares:
        sq = low_bit(squares)
        work[at + sq] = _place_value(
            st, gp, w, sq, gardener, missions, best, left, garden, expansion
        )
        squares &= squares - 1


@nb.njit(cache=True, inline="always")
def _tile_values(
    st: np.ndarray,
    gp: np.ndarray,
    w: np.ndarray,
    missions: np.int64,
    best: float,
    left: np.int64,
    work: np.ndarray,
) -> None:
    """Each legal take's slot its tile's placement value in `work`: on its target as a
    landscape, else the best gardener spot's. Every square a tile may land on is valued
    once (several slots' tiles may share one: the same double either way), landscapes
    then gardeners, before any slot reads them."""
    p = st[CURRENT]
    occupied = st[OCCUPIED + p]
    slots = np.int64(0)
    for i in range(st[LEGAL_LEN]):
        action = st[LEGAL + i]
        if action < DISCARD:
            slots |= np.int64(1) << (action % 10)
    landscapes = np.int64(0)
    gardeners = np.int64(0)
    each = slots
    while each:
        target = target_of(st, gp, p, low_bit(each))
        if (occupied >> target) & 1:
            gardeners |= gardener_spots(occupied, target)
        else:
            landscapes |= np.int64(1) << target
        each &= each - 1
    _place_values(st, gp, w, landscapes, LANDSCAPE, missions, best, left, work)
    _place_values(st, gp, w, gardeners, GARDENER, missions, best, left, work)
    while slots:
        slot = low_bit(slots)
        target = target_of(st, gp, p, slot)
        if (occupied >> target) & 1:
            spots = gardener_spots(occupied, target)
            value = -np.inf
            while spots:
                value = larger(value, work[PLACED + N_SQUARES + low_bit(spots)])
                spots &= spots - 1
        else:
            value = work[PLACED + target]
        work[TILES + slot] = value
        slots &= slots - 1


@nb.njit(cache=True, inline="always")
def _keep_value(st: np.ndarray, gp: np.ndarray, w: np.ndarray, kept: np.int64, slot: np.int64):
    """What keeping card `kept` in hand is worth (_Turn.take_value's second part): a
    symbol card, whether its symbol shows in a slot other than the one taken."""
    kind = gp[G_CARD_KIND + kept]
    if kind == CARD_JOKER:
        return w[W_JOKER]
    if kind == CARD_PAIR:
        return w[W_PAIR]
    shown = st[SLOT_OF_SYMBOL + gp[G_CARD_SYMBOL + kept]]  # the slots showing its symbol
    if slot >= 0:
        shown &= ~(np.int64(1) << slot)
    return w[W_SYMBOL] if shown else w[W_JOKER]


@kernel
def heuristic_scores(
    st: np.ndarray, gp: np.ndarray, w: np.ndarray, out: np.ndarray, work: np.ndarray
) -> None:
    """`out[i]`: HeuristicStrategy's score of legal choice i; what every option shares (the
    mission columns, the best noble move, each slot's tile value) computed once, as _Turn
    does (`work`: a `work_array`, its scores part may be `out`); lists the choices."""
    legal_list(st)
    phase = st[PHASE]
    p = st[CURRENT]
    n_legal = st[LEGAL_LEN]
    if phase == SIDE:
        for i in range(n_legal):
            out[i] = _side_value(st, gp, w, st[LEGAL + i])
        return
    missions = mission_columns(st, gp, p)
    if phase == NOBLE:
        moves = _options(st, p)
        for i in range(n_legal):
            out[i] = _move_value(st, gp, w, st[LEGAL + i], missions, p, moves)
        return
    best = _best_move(st, gp, w, missions)
    left = _turns_left(st, gp, p) - 1
    if phase == PLACE:  # the choices' mask is the squares
        _place_values(st, gp, w, st[CHOICES], GARDENER, missions, best, left, work)
        _placement_scores(st, out, work)
        return
    _tile_values(st, gp, w, missions, best, left, work)
    hand = HANDS + HAND_SIZE * p if st[HAND_LEN + p] == HAND_SIZE else -1
    for i in range(n_legal):
        out[i] = _take_value(st, gp, w, st[LEGAL + i], best, work, hand)


@nb.njit(cache=True, inline="always")
def _take_value(
    st: np.ndarray,
    gp: np.ndarray,
    w: np.ndarray,
    action: np.int64,
    best: float,
    work: np.ndarray,
    hand: np.int64,
) -> float:
    """_Turn.take_value; `work`: each slot's tile value (`_tile_values`); `hand`: where the
    seat's full hand starts, or -1 when the card kept counts nothing (read once per
    decision)."""
    if action >= DISCARD:
        slot = np.int64(-1)
        played = action - DISCARD
        value = best
    else:
        slot = action % 10
        played = action // 10
        value = work[TILES + slot]
    if hand < 0:
        return value
    kept = st[hand + 1 - played]
    return value + _keep_value(st, gp, w, kept, slot)


@kernel
def _side_value(st: np.ndarray, gp: np.ndarray, w: np.ndarray, side: np.int64) -> float:
    """HeuristicStrategy._side_value: marks in full, in mission columns `mission` x more."""
    p = st[CURRENT]
    missions = mission_columns(st, gp, p)
    saved = st[EXP_SIDE + p]
    st[EXP_SIDE + p] = side
    total = 0.0
    for sq in range(N_SQUARES):
        mark = expansion_mark(st, gp, p, sq, LANDSCAPE)
        if mark == 0:
            mark = expansion_mark(st, gp, p, sq, GARDENER)
        total += mark * (1 + w[W_MISSION] * ((missions >> sq) & 1))
    st[EXP_SIDE + p] = saved
    return total
