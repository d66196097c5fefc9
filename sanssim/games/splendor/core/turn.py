"""A compiled Splendor turn's start (`State._start_turn` without its forced follow-up):
its legal choices, in the engine's order, or (in a heuristic rollout) none listed when
its takes alone make it a real decision; and the packed affordability test the start
and the heuristic's denials share."""

from __future__ import annotations

import numpy as np

from sanssim.compiled.lowered import larger, smaller
from sanssim.games.splendor.actions import (
    A_PASS,
    BUY,
    BUY_RESERVED,
    EMPTY,
    GOLD,
    MAIN,
    MAX_RESERVED,
    N_GEMS,
    N_LEVELS,
    N_SLOTS,
    PASS,
    RESERVE,
    RESERVE_BLIND,
    TAKE2,
    TAKE2_MIN,
)
from sanssim.games.splendor.core import layout as L
from sanssim.games.splendor.core.state import jit, seat, step
from sanssim.games.splendor.record import R_ACTION, R_DISPLAY, R_PAYMENT, R_RETURNED, R_TAKEN

N_TAKE_SETS = len(L.TAKE_MASKS)
# `H_N_LEGAL` of a main-phase turn whose choices are not listed (`start_unlisted`): more
# than any count, so a decision's tests (`> 1`, `> 0`, `== 0`) hold as for a listed one
UNLISTED = L.MAX_LEGAL + 1


@jit
def supply_masks(S: np.ndarray) -> tuple[int, int, int]:
    """The colours the supply has tokens of, those it has `TAKE2_MIN` of, and how many
    of the latter."""
    avail = 0
    big = 0
    n_big = 0
    for c in range(N_GEMS):
        if S[L.SUPPLY + c] > 0:
            avail |= 1 << c
        if S[L.SUPPLY + c] >= TAKE2_MIN:
            big |= 1 << c
            n_big += 1
    return avail, big, n_big


@step
def _open(S: np.ndarray) -> None:
    """The turn's record opened, no buy yet, the main phase."""
    if S[L.H_RECORD]:
        for k in range(R_DISPLAY):
            S[L.RECORD + k] = EMPTY
        S[L.RECORD + R_ACTION] = A_PASS
        S[L.RECORD + R_TAKEN] = 0
        S[L.RECORD + R_PAYMENT] = 0
        S[L.RECORD + R_RETURNED] = 0
        for slot in range(N_SLOTS):
            S[L.RECORD + R_DISPLAY + slot] = S[L.DISPLAY + slot]
    S[L.H_BOUGHT] = 0
    S[L.H_PHASE] = MAIN


@step
def _list(S: np.ndarray, cfg: np.ndarray, cards: np.ndarray, avail: int, big: int) -> None:
    """The legal choices: the takes from a table by the colours in the supply,
    affordability by one subtraction on packed counts (`holdings`); the count kept in a
    local, written once."""
    base = seat(S[L.H_CURRENT])
    count = L.TAKES_BY_AVAIL[avail, 0]
    for k in range(count):
        S[L.LEGAL + k] = L.TAKES_BY_AVAIL[avail, 1 + k]
    for c in range(N_GEMS):
        if big >> c & 1:
            S[L.LEGAL + count] = TAKE2 + c
            count += 1
    held = S[base + L.P_N_RESERVED]
    if held < MAX_RESERVED:
        for slot in range(N_SLOTS):
            if S[L.DISPLAY + slot] >= 0:
                S[L.LEGAL + count] = RESERVE + slot
                count += 1
        for level in range(N_LEVELS):
            if S[L.H_DECK_LEFT + level] > 0:
                S[L.LEGAL + count] = RESERVE_BLIND + level
                count += 1
    width = cfg[L.C_WIDTH]
    power = holdings(S, base, width)
    gold = S[base + L.P_TOKENS + GOLD]
    for slot in range(N_SLOTS):  # each buy written, and kept by a select when affordable
        card = S[L.DISPLAY + slot]
        if card >= 0:
            S[L.LEGAL + count] = BUY + slot
            count += 1 if affords(power, cards[card, L.K_PACKED], gold, width) else 0
    for i in range(held):
        S[L.LEGAL + count] = BUY_RESERVED + i
        cost = cards[S[base + L.P_RESERVED + i], L.K_PACKED]
        count += 1 if affords(power, cost, gold, width) else 0
    if count == 0:
        S[L.LEGAL] = PASS
        count = 1
    S[L.H_N_LEGAL] = count


@jit
def start_turn(S: np.ndarray, cfg: np.ndarray, cards: np.ndarray) -> None:
    """A turn's legal choices (`State._start_turn` without its forced follow-up)."""
    _open(S)
    avail, big, _ = supply_masks(S)
    _list(S, cfg, cards, avail, big)


@jit
def start_unlisted(S: np.ndarray, cfg: np.ndarray, cards: np.ndarray) -> None:
    """`start_turn` for a heuristic rollout: when the takes alone are two or more
    choices, none is listed (`UNLISTED`) and the rollout's heuristic goes through them
    in the listed order itself (`rollout.rollout_choice`); else they are listed."""
    _open(S)
    avail, big, n_big = supply_masks(S)
    if L.TAKES_BY_AVAIL[avail, 0] + n_big > 1:
        S[L.H_N_LEGAL] = UNLISTED
    else:
        _list(S, cfg, cards, avail, big)


@jit
def holdings(S: np.ndarray, base: int, width: int) -> np.int64:
    """The tokens plus bonuses of each colour of the seat at `base`, packed as `engine`
    packs them (fields of `width` bits, each capped below its guard bit, which is set),
    so that affording a card is one subtraction (`affords`)."""
    guard = np.int64(1) << (width - 1)
    power = np.int64(0)
    for c in range(N_GEMS):
        have = smaller(S[base + L.P_TOKENS + c] + S[base + L.P_BONUS + c], guard - 1)
        power |= (guard + have) << (width * c)
    return power


@jit
def affords(power: np.int64, cost: np.int64, gold: int, width: int) -> bool:
    """Whether packed `holdings` and `gold` pay a packed `cost`: after the subtraction a
    field below its guard bit is short by the difference, and gold covers the sum (no
    branch: whether a card is affordable is unpredictable)."""
    guard = np.int64(1) << (width - 1)
    field = (guard << 1) - 1
    x = power - cost
    short = 0
    for c in range(N_GEMS):
        short += larger(0, guard - ((x >> (width * c)) & field))
    return short <= gold
