"""The Splendor rules in compiled code, step for step as `sanssim.games.splendor.engine`.

The Python engine chains its steps by calls (a forced choice applies itself and goes on);
here each step returns what comes next (`NEXT_*`) and `advance` runs the chain until a
decision with two or more choices, or the end. Legal choices are the engine's action
ids in the engine's order. A recording game writes each finished turn's record as row
`turn` of `log` (RECORD_WIDTH ints, exactly `State.log`'s layout).
"""

from __future__ import annotations

import numpy as np

from sanssim.compiled.lowered import larger
from sanssim.games.splendor.actions import (
    A_BLIND,
    A_BUY,
    A_RESERVE,
    A_TAKE2,
    A_TAKE3,
    BUY,
    BUY_RESERVED,
    EMPTY,
    END,
    FROM_DECK,
    FROM_DISPLAY,
    FROM_RESERVE,
    GOLD,
    MAIN,
    MAX_RESERVED,
    N_GEMS,
    N_LEVELS,
    NOBLE,
    NOBLE_CHOICE,
    PASS,
    RESERVE,
    RESERVE_BLIND,
    RETURN,
    RETURNING,
    SLOTS_PER_LEVEL,
    TAKE2,
)
from sanssim.games.splendor.core import layout as L
from sanssim.games.splendor.core.state import copy, inline, jit, pop_deck, push, seat
from sanssim.games.splendor.core.turn import start_turn, start_unlisted
from sanssim.games.splendor.record import (
    PACK_BITS,
    R_ACTION,
    R_BONUSES,
    R_CARD,
    R_DECK_LEFT,
    R_DRAWN,
    R_NOBLE,
    R_PAYMENT,
    R_POINTS,
    R_RESERVED,
    R_RETURNED,
    R_SLOT,
    R_SOURCE,
    R_SUPPLY,
    R_TAKEN,
    R_TOKENS,
)

NEXT_START, NEXT_RETURN, NEXT_NOBLES, NEXT_END_TURN, NEXT_DECIDE = range(5)


@jit
def _leave_display(S: np.ndarray, cfg: np.ndarray, slot: int) -> int:
    card = S[L.DISPLAY + slot]
    drawn = pop_deck(S, cfg, slot // SLOTS_PER_LEVEL)
    S[L.DISPLAY + slot] = drawn
    if drawn >= 0 and S[L.H_RECORD]:
        S[L.RECORD + R_DRAWN] = drawn
    return card


# A reservation's blind flag, as non-literal integers: `_reserve` called with a literal 0 and
# 1 would compile twice.
OPEN, BLIND = np.int64(0), np.int64(1)


@jit
def _reserve(S: np.ndarray, base: int, card: int, blind: int) -> None:
    i = S[base + L.P_N_RESERVED]
    S[base + L.P_RESERVED + i] = card
    S[base + L.P_BLIND + i] = blind
    S[base + L.P_N_RESERVED] = i + 1


@jit
def _unreserve(S: np.ndarray, base: int, index: int) -> int:
    """Take reservation `index` out, the later ones moving up; its card."""
    card = S[base + L.P_RESERVED + index]
    last = S[base + L.P_N_RESERVED] - 1
    for i in range(index, last):
        S[base + L.P_RESERVED + i] = S[base + L.P_RESERVED + i + 1]
        S[base + L.P_BLIND + i] = S[base + L.P_BLIND + i + 1]
    S[base + L.P_RESERVED + last] = EMPTY
    S[base + L.P_BLIND + last] = 0
    S[base + L.P_N_RESERVED] = last
    return card


@jit
def _pay(S: np.ndarray, cards: np.ndarray, base: int, card: int) -> None:
    """The fewest-gold payment: tokens of each colour first, gold for the rest."""
    packed = 0
    gold = 0
    for c in range(N_GEMS):
        need = cards[card, L.K_COST + c] - S[base + L.P_BONUS + c]
        if need > 0:
            have = S[base + L.P_TOKENS + c]
            paid = need if have >= need else have
            gold += need - paid
            S[base + L.P_TOKENS + c] -= paid
            S[L.SUPPLY + c] += paid
            packed |= paid << PACK_BITS * c
    S[base + L.P_TOKENS + GOLD] -= gold
    S[L.SUPPLY + GOLD] += gold
    if S[L.H_RECORD]:
        S[L.RECORD + R_PAYMENT] = packed | gold << PACK_BITS * GOLD


@jit
def act(S: np.ndarray, cfg: np.ndarray, cards: np.ndarray, action: int) -> int:
    """A main-phase choice (`State._act`); what comes next."""
    p = S[L.H_CURRENT]
    base = seat(p)
    rec = S[L.H_RECORD]
    if action < TAKE2:
        packed = 0
        for i in range(L.TAKE_SIZES[action]):
            c = L.TAKE_COLOURS[action, i]
            S[L.SUPPLY + c] -= 1
            S[base + L.P_TOKENS + c] += 1
            packed += 1 << PACK_BITS * c
        if rec:
            S[L.RECORD + R_ACTION] = A_TAKE3
            S[L.RECORD + R_TAKEN] = packed
    elif action < RESERVE:
        c = action - TAKE2
        S[L.SUPPLY + c] -= 2
        S[base + L.P_TOKENS + c] += 2
        if rec:
            S[L.RECORD + R_ACTION] = A_TAKE2
            S[L.RECORD + R_TAKEN] = 2 << PACK_BITS * c
    elif action < BUY:
        if action < RESERVE_BLIND:
            slot = action - RESERVE
            card = _leave_display(S, cfg, slot)
            _reserve(S, base, card, OPEN)
            if rec:
                S[L.RECORD + R_ACTION] = A_RESERVE
                S[L.RECORD + R_SOURCE] = FROM_DISPLAY
                S[L.RECORD + R_SLOT] = slot
        else:
            level = action - RESERVE_BLIND
            card = pop_deck(S, cfg, level)
            _reserve(S, base, card, BLIND)
            if rec:
                S[L.RECORD + R_ACTION] = A_BLIND
                S[L.RECORD + R_SOURCE] = FROM_DECK + level
        if S[L.SUPPLY + GOLD]:
            S[L.SUPPLY + GOLD] -= 1
            S[base + L.P_TOKENS + GOLD] += 1
            if rec:
                S[L.RECORD + R_TAKEN] = 1 << PACK_BITS * GOLD
        if rec:
            S[L.RECORD + R_CARD] = card
    elif action < PASS:
        if action < BUY_RESERVED:
            slot = action - BUY
            card = _leave_display(S, cfg, slot)
            if rec:
                S[L.RECORD + R_SOURCE] = FROM_DISPLAY
                S[L.RECORD + R_SLOT] = slot
        else:
            card = _unreserve(S, base, action - BUY_RESERVED)
            if rec:
                S[L.RECORD + R_SOURCE] = FROM_RESERVE
        _pay(S, cards, base, card)
        S[base + L.P_BONUS + cards[card, L.K_BONUS]] += 1
        S[base + L.P_POINTS] += cards[card, L.K_POINTS]
        S[base + L.P_CARDS] += 1
        S[L.H_BOUGHT] = 1
        if rec:
            S[L.RECORD + R_ACTION] = A_BUY
            S[L.RECORD + R_CARD] = card
        return NEXT_NOBLES
    else:
        S[base + L.P_PASSES] += 1
        S[L.H_ROUND_PASSES] += 1
        return NEXT_NOBLES
    held = 0
    for c in range(N_GEMS + 1):
        held += S[base + L.P_TOKENS + c]
    over = held - cfg[L.C_LIMIT + p]
    if over > 0:
        S[L.H_EXCESS] = over
        return NEXT_RETURN
    return NEXT_NOBLES


@jit
def _ask_return(S: np.ndarray) -> None:
    base = seat(S[L.H_CURRENT])
    S[L.H_PHASE] = RETURNING
    S[L.H_N_LEGAL] = 0
    for c in range(N_GEMS + 1):
        if S[base + L.P_TOKENS + c]:
            push(S, RETURN + c)


@jit
def give_back(S: np.ndarray, action: int) -> int:
    """One token handed back (`State._return`); what comes next."""
    c = action - RETURN
    S[seat(S[L.H_CURRENT]) + L.P_TOKENS + c] -= 1
    S[L.SUPPLY + c] += 1
    if S[L.H_RECORD]:
        S[L.RECORD + R_RETURNED] += 1 << PACK_BITS * c
    S[L.H_EXCESS] -= 1
    return NEXT_RETURN if S[L.H_EXCESS] else NEXT_NOBLES


@jit
def _nobles_step(S: np.ndarray, nobles: np.ndarray) -> int:
    """At most one noble a turn (`State._nobles_step`); what comes next."""
    p = S[L.H_CURRENT]
    base = seat(p)
    if not (S[L.H_BOUGHT] or S[base + L.P_NOBLE_AGAIN]) or S[L.H_N_TABLE] == 0:
        return NEXT_END_TURN
    S[L.H_N_LEGAL] = 0
    for i in range(S[L.H_N_TABLE]):
        k = S[L.TABLE + i]
        ok = True
        for c in range(N_GEMS):
            if S[base + L.P_BONUS + c] < nobles[k, L.N_REQUIREMENT + c]:
                ok = False
        if ok:
            push(S, NOBLE + k)
    qualify = S[L.H_N_LEGAL]
    S[base + L.P_NOBLE_AGAIN] = 1 if qualify > 1 else 0
    if qualify == 0:
        return NEXT_END_TURN
    if qualify == 1:
        visit(S, nobles, S[L.LEGAL] - NOBLE)
        return NEXT_END_TURN
    S[L.H_PHASE] = NOBLE_CHOICE
    return NEXT_DECIDE


@jit
def visit(S: np.ndarray, nobles: np.ndarray, noble: int) -> None:
    base = seat(S[L.H_CURRENT])
    left = S[L.H_N_TABLE] - 1
    gone = False
    for i in range(left):
        gone = gone or S[L.TABLE + i] == noble
        if gone:
            S[L.TABLE + i] = S[L.TABLE + i + 1]
    S[L.H_N_TABLE] = left
    S[base + L.P_NOBLES] += 1
    S[base + L.P_NOBLE_POINTS] += nobles[noble, L.N_POINTS]
    S[base + L.P_POINTS] += nobles[noble, L.N_POINTS]
    S[L.H_ROUND_VISITS] += 1
    if S[L.H_RECORD]:
        S[L.RECORD + R_NOBLE] = noble


@jit
def _end_turn(S: np.ndarray, cfg: np.ndarray, log: np.ndarray) -> bool:
    """Log the turn, pass play on or end the game (`State._end_turn`); True when over."""
    p = S[L.H_CURRENT]
    base = seat(p)
    turn = S[L.H_TURN]
    if S[L.H_RECORD]:
        row = log[turn]
        copy(row, 0, S, L.RECORD, R_POINTS)
        k = R_POINTS
        row[k] = S[base + L.P_POINTS]
        copy(row, R_TOKENS, S, base + L.P_TOKENS, N_GEMS + 1)
        copy(row, R_BONUSES, S, base + L.P_BONUS, N_GEMS)
        copy(row, R_DECK_LEFT, S, L.H_DECK_LEFT, N_LEVELS)
        copy(row, R_SUPPLY, S, L.SUPPLY, N_GEMS + 1)
        copy(row, R_RESERVED, S, base + L.P_RESERVED, MAX_RESERVED)
    S[L.H_TURN] = turn + 1
    n = cfg[L.C_N]
    if p == n - 1:
        best = 0
        for q in range(n):
            best = larger(best, S[seat(q) + L.P_POINTS])
        if best >= cfg[L.C_TARGET]:
            S[L.H_END_REASON] = 0
        elif S[L.H_ROUND_PASSES] == n and not S[L.H_ROUND_VISITS]:
            S[L.H_END_REASON] = 1
        elif (turn + 1) // n >= cfg[L.C_MAX_ROUNDS]:
            S[L.H_END_REASON] = 2
        if S[L.H_END_REASON] != EMPTY:
            S[L.H_PHASE] = END
            S[L.H_N_LEGAL] = 0
            return True
        S[L.H_ROUND_PASSES] = 0
        S[L.H_ROUND_VISITS] = 0
        S[L.H_CURRENT] = 0
    else:
        S[L.H_CURRENT] = p + 1
    return False


@inline
def advance(
    S: np.ndarray,
    cfg: np.ndarray,
    cards: np.ndarray,
    nobles: np.ndarray,
    log: np.ndarray,
    step: int,
    listed: bool,
) -> None:
    """Run the forced steps from `step` until a real decision or the end (a turn's
    choices left unlisted where `turn.start_unlisted` may, unless `listed`)."""
    while True:
        if step == NEXT_RETURN:
            _ask_return(S)
            if S[L.H_N_LEGAL] > 1:
                return
            step = give_back(S, S[L.LEGAL])
        elif step == NEXT_NOBLES:
            step = _nobles_step(S, nobles)
            if step == NEXT_DECIDE:
                return
        elif step == NEXT_END_TURN:
            if _end_turn(S, cfg, log):
                return
            step = NEXT_START
        else:
            if listed:
                start_turn(S, cfg, cards)
            else:
                start_unlisted(S, cfg, cards)
            if S[L.H_N_LEGAL] > 1:
                return
            step = act(S, cfg, cards, S[L.LEGAL])


@inline
def _apply(
    S: np.ndarray,
    cfg: np.ndarray,
    cards: np.ndarray,
    nobles: np.ndarray,
    log: np.ndarray,
    action: int,
    listed: bool,
) -> None:
    phase = S[L.H_PHASE]
    if phase == MAIN:
        step = act(S, cfg, cards, action)
    elif phase == RETURNING:
        step = give_back(S, action)
    else:
        visit(S, nobles, action - NOBLE)
        step = NEXT_END_TURN
    advance(S, cfg, cards, nobles, log, step, listed)


@jit
def apply(
    S: np.ndarray,
    cfg: np.ndarray,
    cards: np.ndarray,
    nobles: np.ndarray,
    log: np.ndarray,
    action: int,
) -> None:
    """Apply a legal choice and every forced follow-up (`State.apply_action`)."""
    _apply(S, cfg, cards, nobles, log, action, True)


@inline
def apply_unlisted(
    S: np.ndarray,
    cfg: np.ndarray,
    cards: np.ndarray,
    nobles: np.ndarray,
    log: np.ndarray,
    action: int,
) -> None:
    """`apply` in a heuristic rollout: the next turn's choices may be left unlisted
    (`turn.start_unlisted`), for `rollout.rollout_choice` only."""
    _apply(S, cfg, cards, nobles, log, action, False)


@inline
def settle(
    S: np.ndarray, cfg: np.ndarray, cards: np.ndarray, nobles: np.ndarray, log: np.ndarray
) -> None:
    """After `deal`: a first decision with a single choice is taken, as the engine does."""
    if S[L.H_N_LEGAL] == 1:
        apply(S, cfg, cards, nobles, log, S[L.LEGAL])
