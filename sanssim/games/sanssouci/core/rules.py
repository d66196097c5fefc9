"""The Sanssouci rules in compiled code, step for step and draw for draw as `engine.State`.

Every function mutates a state array `st` (see `layout`) given the packed game `gp`.
The Python engine chains forced decisions by tail calls (`_start_turn` applies a
single take, `_start_noble` with nothing to move ends the turn, ...); here `apply`
runs the same chain as a loop, so the order of every step and every draw is the same.
A finished turn's record is copied into row `pos[0]` of `log` when recording.
"""

from __future__ import annotations

import numpy as np

from sanssim.compiled import rng as mt
from sanssim.compiled.bits import bit_length, low_bit
from sanssim.compiled.kernel import kernel
from sanssim.games.sanssouci import engine
from sanssim.games.sanssouci.actions import (
    ALL_SLOTS,
    CARD_SYMBOL,
    DISCARD,
    END,
    HAND_SIZE,
    N_SLOTS,
    NOBLE,
    PASS,
    PLACE,
    ROUNDS,
    TAKE,
)
from sanssim.games.sanssouci.components import N_COLS
from sanssim.games.sanssouci.core.choices import set_choices, side_choices, start_turn, step
from sanssim.games.sanssouci.core.layout import (
    CHOICES,
    CURRENT,
    DECK,
    DECK_LEN,
    DECKS,
    DISPLAY,
    EXP_SIDE,
    EXPANSION_POINTS,
    FILLED,
    G_CARD_KIND,
    G_CARD_SYMBOL,
    G_MARKS,
    G_N_EXP,
    G_RESHUFFLE,
    G_TARGET,
    GARDEN,
    GARDENERS,
    HAND_LEN,
    HANDS,
    LEGAL_LEN,
    N_GARDENERS,
    N_SYMBOLS,
    NOBLE_POINTS,
    NOBLE_ROWS,
    NOBLE_ZONE,
    OCCUPIED,
    PENDING_TARGET,
    PENDING_TILE,
    PHASE,
    R_CARD,
    R_CARD_WILD,
    R_EXPANSION_POINTS,
    R_GARDENER,
    R_NOBLE_COL,
    R_NOBLE_FROM,
    R_NOBLE_POINTS,
    R_NOBLE_TO,
    R_PLACED,
    R_RESHUFFLES,
    R_SCORE,
    R_SLOT,
    R_SUPPLY_LEFT,
    R_TARGET,
    R_TILE,
    REACH,
    REC,
    RECORD,
    RECORD_WIDTH,
    RESHUFFLES,
    SCORE,
    SLOT_OF_SYMBOL,
    SUPPLY,
    SUPPLY_LEN,
    TURN,
    N,
)
from sanssim.games.sanssouci.garden import COL_MASK as _COL_MASK
from sanssim.games.sanssouci.garden import FULL, N_SQUARES
from sanssim.games.sanssouci.garden import NEIGHBOURS as _NEIGHBOURS
from sanssim.games.sanssouci.garden import NOBLE_ZONE as _NOBLE_ZONE
from sanssim.games.sanssouci.garden import ROW_MASK as _ROW_MASK

ENDING = END + 1  # internal: the turn's moves are done, `end_turn` is due
ROW_MASK = np.array(_ROW_MASK, dtype=np.int64)
COL_MASK = np.array(_COL_MASK, dtype=np.int64)
NEIGHBOURS = np.array(_NEIGHBOURS, dtype=np.int64)
ZONE = np.array(_NOBLE_ZONE, dtype=np.int64)  # [col, row]
SQUARES_PER_MARKS = 2 * N_SQUARES
# What a placed tile shows, as non-literal booleans: numba compiles a function called with
# a literal True and False twice.
LANDSCAPE, GARDENER = np.bool_(False), np.bool_(True)
flood = kernel(engine.flood)  # the engine's own flood fill, compiled as it is


@kernel(forceinline=True)
def put_tile(st: np.ndarray, slot: int, symbol: np.int64) -> None:
    st[DISPLAY + slot] = symbol
    st[SLOT_OF_SYMBOL + symbol] |= np.int64(1) << slot
    st[FILLED] |= np.int64(1) << slot


@kernel(forceinline=True)
def _take(st: np.ndarray, slot: int) -> np.int64:
    symbol = st[DISPLAY + slot]
    st[DISPLAY + slot] = -1
    st[SLOT_OF_SYMBOL + symbol] &= ~(np.int64(1) << slot)
    st[FILLED] &= ~(np.int64(1) << slot)
    return symbol


@kernel(forceinline=True)
def pop_supply(st: np.ndarray) -> np.int64:
    st[SUPPLY_LEN] -= 1
    return st[SUPPLY + st[SUPPLY_LEN]]


@kernel
def reshuffle(st: np.ndarray, g: np.ndarray, slot: int) -> int:
    """House rule: while both squares of a colour match, redraw this one."""
    first = slot & ~1
    other = first + 1 if slot == first else first
    count = 0
    while st[DISPLAY + slot] != -1 and st[DISPLAY + slot] == st[DISPLAY + other]:
        symbol = st[DISPLAY + slot]
        size = st[SUPPLY_LEN]
        same = True
        for i in range(size):
            if st[SUPPLY + i] != symbol:
                same = False
                break
        if same:
            break
        _take(st, slot)
        at = mt.randrange(g, 0, size + 1)
        for i in range(size, at, -1):
            st[SUPPLY + i] = st[SUPPLY + i - 1]
        st[SUPPLY + at] = symbol
        st[SUPPLY_LEN] = size + 1
        put_tile(st, slot, pop_supply(st))
        count += 1
    return count


@kernel(forceinline=True)
def _play_card(st: np.ndarray, p: np.int64, index: np.int64) -> np.int64:
    """Pop the hand's card at `index` (a hand of at most two)."""
    base = HANDS + HAND_SIZE * p
    card = st[base + index]
    if index == 0:
        st[base] = st[base + 1]
    st[HAND_LEN + p] -= 1
    st[REC + R_CARD] = card
    return card


DISCARDED, GARDENER_PENDING = -1, -2  # what `_apply_take` leaves instead of a square


@step
def _apply_take(st: np.ndarray, gp: np.ndarray, action: np.int64) -> np.int64:
    """Play the card and take the tile: the square the tile lands on as a landscape, or
    DISCARDED, or GARDENER_PENDING (the PLACE decision set up)."""
    p = st[CURRENT]
    if action >= DISCARD:
        _play_card(st, p, action - DISCARD)
        return DISCARDED
    card = _play_card(st, p, action // 10)
    slot = action % 10
    symbol = _take(st, slot)
    target = gp[gp[G_TARGET] + st[GARDEN + p] * N_SLOTS * N_SYMBOLS + slot * N_SYMBOLS + symbol]
    wild = gp[G_CARD_KIND + card] == CARD_SYMBOL and gp[G_CARD_SYMBOL + card] != symbol
    st[REC + R_CARD_WILD] = wild
    st[REC + R_SLOT] = slot
    st[REC + R_TILE] = symbol
    st[REC + R_TARGET] = target
    occupied = st[OCCUPIED + p]
    if not (occupied >> target) & 1:
        return target
    free = ~occupied & FULL
    spots = free & (ROW_MASK[target // N_COLS + 1] | COL_MASK[target % N_COLS])
    if spots == 0:
        spots = free
    st[PENDING_TILE] = symbol
    st[PENDING_TARGET] = target
    st[PHASE] = PLACE
    set_choices(st, spots)
    return GARDENER_PENDING


@kernel
def expansion_mark(st: np.ndarray, gp: np.ndarray, p: np.int64, sq: np.int64, gardener: bool):
    """Points a tile placed on `sq` pays at once (0 without an expansion side)."""
    side = st[EXP_SIDE + p]
    if side < 0:
        return np.int64(0)
    base = gp[G_MARKS] + (st[GARDEN + p] * gp[G_N_EXP] + side) * SQUARES_PER_MARKS
    return gp[base + N_SQUARES * gardener + sq]


@step
def _place(st: np.ndarray, gp: np.ndarray, sq: np.int64, gardener: bool) -> None:
    p = st[CURRENT]
    bit = np.int64(1) << sq
    occupied = st[OCCUPIED + p] | bit
    st[OCCUPIED + p] = occupied
    if gardener:
        st[GARDENERS + p] |= bit
        st[N_GARDENERS + p] += 1
    points = expansion_mark(st, gp, p, sq, gardener)
    if points:
        st[SCORE + p] += points
        st[EXPANSION_POINTS + p] += points
    if NEIGHBOURS[sq] & st[REACH + p]:
        st[REACH + p] = flood(st[REACH + p] | bit, occupied)
    st[PENDING_TILE] = -1
    st[PENDING_TARGET] = -1
    st[REC + R_PLACED] = sq
    st[REC + R_GARDENER] = gardener
    st[REC + R_EXPANSION_POINTS] = points


@step
def _start_noble(st: np.ndarray) -> None:
    p = st[CURRENT]
    ends = st[REACH + p] & ~st[GARDENERS + p] & st[NOBLE_ZONE + p]
    if not ends:
        st[PHASE] = ENDING
        return
    set_choices(st, ends | (np.int64(1) << PASS))  # the pass last, as its action is
    st[PHASE] = NOBLE


@step
def _move_noble(st: np.ndarray, sq: np.int64) -> None:
    if sq == PASS:
        return
    p = st[CURRENT]
    col = sq % N_COLS
    row = sq // N_COLS + 1
    st[REC + R_NOBLE_COL] = col
    st[REC + R_NOBLE_FROM] = st[NOBLE_ROWS + 9 * p + col]
    st[REC + R_NOBLE_TO] = row
    st[REC + R_NOBLE_POINTS] = row
    st[NOBLE_ROWS + 9 * p + col] = row
    st[NOBLE_ZONE + p] = (st[NOBLE_ZONE + p] & ~COL_MASK[col]) | ZONE[col, row]
    st[SCORE + p] += row
    st[NOBLE_POINTS + p] += row


@step
def _end_turn(
    st: np.ndarray, gp: np.ndarray, g: np.ndarray, log: np.ndarray, pos: np.ndarray
) -> None:
    p = st[CURRENT]
    reshuffles = 0
    filled = st[FILLED]
    if filled != ALL_SLOTS and st[SUPPLY_LEN]:
        slot = bit_length(~filled & ALL_SLOTS) - 1
        put_tile(st, slot, pop_supply(st))
        if gp[G_RESHUFFLE]:
            reshuffles = reshuffle(st, g, slot)
            st[RESHUFFLES] += reshuffles
    if st[DECK_LEN + p]:
        st[DECK_LEN + p] -= 1
        st[HANDS + HAND_SIZE * p + st[HAND_LEN + p]] = st[DECKS + DECK * p + st[DECK_LEN + p]]
        st[HAND_LEN + p] += 1
    st[REC + R_SCORE] = st[SCORE + p]
    st[REC + R_RESHUFFLES] = reshuffles
    st[REC + R_SUPPLY_LEFT] = st[SUPPLY_LEN]
    if st[RECORD]:
        row = pos[0]
        for i in range(RECORD_WIDTH):
            log[row, i] = st[REC + i]
        pos[0] = row + 1
    st[TURN] += 1
    if st[TURN] == ROUNDS * st[N]:
        st[PHASE] = END
        st[LEGAL_LEN] = 0
        return
    st[CURRENT] = p + 1 if p + 1 < st[N] else 0  # the turn modulo the seats, without a division
    start_turn(st, gp)


@step
def apply_step(
    st: np.ndarray,
    gp: np.ndarray,
    g: np.ndarray,
    action: np.int64,
    log: np.ndarray,
    pos: np.ndarray,
) -> None:
    """Apply a legal choice, then any forced follow-ups (engine.State.apply_action): a
    finished turn is ended, and a take or placement with a single choice is applied, until
    a decision with two or more choices, or the end. Each step has one copy here; `apply`
    calls it, and the loop that plays a simple seats' game inlines it (and plays a dealt
    game's forced first take)."""
    while True:
        phase = st[PHASE]
        if phase == TAKE or phase == PLACE:  # noqa: SIM109 - two compares, no tuple
            sq = _apply_take(st, gp, action) if phase == TAKE else action
            if sq >= 0:  # a landscape taken, or the gardener placed
                _place(st, gp, sq, phase == PLACE)
            if sq != GARDENER_PENDING:
                _start_noble(st)
        elif phase == NOBLE:
            _move_noble(st, action)
            st[PHASE] = ENDING
        else:
            p = st[CURRENT]
            st[EXP_SIDE + p] = action
            if p + 1 < st[N]:
                st[CURRENT] = p + 1
                side_choices(st, gp)
            else:
                st[CURRENT] = 0
                start_turn(st, gp)
        if st[PHASE] == ENDING:
            _end_turn(st, gp, g, log, pos)
        phase = st[PHASE]
        if st[LEGAL_LEN] != 1 or (phase != TAKE and phase != PLACE):
            return
        action = low_bit(st[CHOICES])


@kernel
def apply(
    st: np.ndarray,
    gp: np.ndarray,
    g: np.ndarray,
    action: np.int64,
    log: np.ndarray,
    pos: np.ndarray,
) -> None:
    """`apply_step`, called: a search applies choices from many places."""
    apply_step(st, gp, g, action, log, pos)
