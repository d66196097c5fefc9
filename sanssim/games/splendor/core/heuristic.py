"""The compiled `heuristic` (`strategies.HeuristicStrategy`): the same colour values, card
values, token wants and denials, every score summed term by term in the Python order
from 0.0, so each float is the one Python computes."""

from __future__ import annotations

import numpy as np

from sanssim.games.splendor.actions import (
    BUY,
    BUY_RESERVED,
    GOLD,
    N_GEMS,
    N_SLOTS,
    NOBLE,
    NOBLE_CHOICE,
    PASS,
    RESERVE,
    RESERVE_BLIND,
    RETURN,
    RETURNING,
    TAKE2,
)
from sanssim.games.splendor.core import layout as L
from sanssim.games.splendor.core.position import (
    MAX_CARDS,
    SHORT_SUM,
    TAKE_GAINS,
    first_best,
    position,
    spent,
)
from sanssim.games.splendor.core.rules import affords, holdings
from sanssim.games.splendor.core.state import inline, jit, seat

# parameter columns, in `HeuristicStrategy.params` order
(
    W_POINTS,
    W_BONUS,
    W_DEMAND,
    W_LEVEL3,
    W_NOBLE,
    W_GEM,
    W_GOLD,
    W_PROGRESS,
    W_SPREAD,
    W_RESERVE,
    W_REACH,
    W_GOLD_GAIN,
    W_SLOT,
    W_OVERFLOW,
    W_DENY,
) = range(15)
# the floats of the scratch (`position.new_work`)
F_COLOUR_VALUE = 0
F_VALUE = F_COLOUR_VALUE + N_GEMS
F_WANT = F_VALUE + MAX_CARDS
F_WANT2 = F_WANT + N_GEMS
F_DENIED = F_WANT2 + N_GEMS
F_MISSING = F_DENIED + N_SLOTS  # each noble on the table's pull
F_PULL = F_MISSING + L.MAX_TABLE  # each card's pull on the tokens it needs


@jit
def _larger(a: float, b: float) -> float:
    """Python's `max(a, b)`: `a` unless `b` is greater."""
    return b if b > a else a


@jit
def _largest(values: np.ndarray) -> float:
    """Python's `max(values)`: the first of the greatest."""
    top = values[0]
    for i in range(1, values.shape[0]):
        top = _larger(top, values[i])
    return top


@inline
def _colour_values(
    S: np.ndarray, cards: np.ndarray, nobles: np.ndarray, w: np.ndarray, base: int,
    ids: np.ndarray, count: int, missing: np.ndarray, out: np.ndarray,
) -> None:  # fmt: skip
    """What a bonus of each colour is worth: base, demand of visible cards, nobles' pull
    (each noble's pull, 3 over one more than its bonuses missing, found once in
    `missing`)."""
    bonus = (
        S[base + L.P_BONUS],
        S[base + L.P_BONUS + 1],
        S[base + L.P_BONUS + 2],
        S[base + L.P_BONUS + 3],
        S[base + L.P_BONUS + 4],
    )  # in registers: the stores below would otherwise reload them
    for t in range(S[L.H_N_TABLE]):
        noble = S[L.TABLE + t]
        short = 0
        for x in range(N_GEMS):
            short += max(0, nobles[noble, L.N_REQUIREMENT + x] - bonus[x])
        missing[t] = 3.0 / (1 + short)
    for c in range(N_GEMS):
        out[c] = 0.0
    for i in range(count):  # each colour's demand in `out`, summed in card order
        card = ids[i]
        weight = w[W_LEVEL3] if cards[card, L.K_LEVEL] == 3 else 1.0
        for c in range(N_GEMS):  # a select, not a branch
            more = out[c] + weight
            out[c] = more if cards[card, L.K_COST + c] > bonus[c] else out[c]
    for c in range(N_GEMS):
        have = bonus[c]
        demand = out[c]
        pull = 0.0
        for t in range(S[L.H_N_TABLE]):
            more = pull + missing[t]
            pull = more if nobles[S[L.TABLE + t], L.N_REQUIREMENT + c] > have else pull
        out[c] = w[W_BONUS] + w[W_DEMAND] * demand + w[W_NOBLE] * pull


@inline
def _denied(S: np.ndarray, cfg: np.ndarray, cards: np.ndarray, p: int, slot: int,
            rivals: np.ndarray) -> float:  # fmt: skip
    """The points an opponent could take with a display slot's card next turn: the
    card's, if any opponent can afford it (bonuses, tokens, gold for the rest; `rivals`:
    each seat's `holdings`)."""
    card = S[L.DISPLAY + slot]
    if card < 0 or not cards[card, L.K_POINTS]:
        return 0.0
    cost = cards[card, L.K_PACKED]
    width = cfg[L.C_WIDTH]
    for q in range(cfg[L.C_N]):
        if q != p and affords(rivals[q], cost, S[seat(q) + L.P_TOKENS + GOLD], width):
            return float(cards[card, L.K_POINTS])
    return 0.0


@inline
def _denied_at(S: np.ndarray, cfg: np.ndarray, cards: np.ndarray, p: int, slot: int,
               denied: np.ndarray, rivals: np.ndarray) -> float:  # fmt: skip
    """`_denied`, each slot's computed once a call (`denied`: -1 where not yet)."""
    if denied[slot] < 0.0:
        denied[slot] = _denied(S, cfg, cards, p, slot, rivals)
    return denied[slot]


@inline
def _noble_scores(S: np.ndarray, cfg: np.ndarray, nobles: np.ndarray, p: int,
                  out: np.ndarray) -> None:  # fmt: skip
    """A noble choice's scores: minus a tenth of the fewest bonuses any opponent lacks."""
    for j in range(S[L.H_N_LEGAL]):
        noble = S[L.LEGAL + j] - NOBLE
        closest = -1
        for q in range(cfg[L.C_N]):
            if q != p:
                missing = 0
                for c in range(N_GEMS):
                    need = nobles[noble, L.N_REQUIREMENT + c]
                    missing += max(0, need - S[seat(q) + L.P_BONUS + c])
                if closest < 0 or missing < closest:
                    closest = missing
        score = 0.0
        score += -0.1 * closest
        out[j] = score


@jit
def heuristic_scores(S: np.ndarray, cfg: np.ndarray, cards: np.ndarray, nobles: np.ndarray,
                     w: np.ndarray, out: np.ndarray, work: tuple) -> int:  # fmt: skip
    """`HeuristicStrategy.terms`, summed, for each legal choice (`work`: scratch); where
    the first of the highest is (`position.best`'s choice, found as the scores are: a
    rollout needs no second pass). What a phase's options do not read is not computed
    (a noble choice reads only the nobles; a return, no denials; a denial is found only
    for a slot an option uses)."""
    p = S[L.H_CURRENT]
    phase = S[L.H_PHASE]
    if phase == NOBLE_CHOICE:
        _noble_scores(S, cfg, nobles, p, out)
        return first_best(out, S[L.H_N_LEGAL])
    base = seat(p)
    count = position(S, cards, base, work)
    at, ids, shorts, floats, rivals = work
    gold = S[base + L.P_TOKENS + GOLD]
    colour_value = floats[F_COLOUR_VALUE : F_COLOUR_VALUE + N_GEMS]
    missing = floats[F_MISSING : F_MISSING + L.MAX_TABLE]
    _colour_values(S, cards, nobles, w, base, ids, count, missing, colour_value)
    value = floats[F_VALUE : F_VALUE + MAX_CARDS]
    want = floats[F_WANT : F_WANT + N_GEMS]
    want2 = floats[F_WANT2 : F_WANT2 + N_GEMS]
    pulls = floats[F_PULL : F_PULL + MAX_CARDS]
    for i in range(count):
        value[i] = w[W_POINTS] * cards[ids[i], L.K_POINTS] + colour_value[cards[ids[i], L.K_BONUS]]
        missing = max(0, shorts[i, SHORT_SUM] - gold)
        pulls[i] = w[W_PROGRESS] * value[i] / (missing + 1)
    for c in range(N_GEMS):  # colour by colour, card order within: each want a register
        one = 0.0
        two = 0.0
        for i in range(count):  # selects, not branches: shorts are unpredictable
            pull = pulls[i]
            spread = w[W_SPREAD] * pull
            helped = _larger(one, pull) + spread
            one = helped if shorts[i, c] > 0 else one
            helped = _larger(two, pull) + spread
            two = helped if shorts[i, c] > 1 else two
        want[c] = one
        want2[c] = two
    if phase == RETURNING:
        for j in range(S[L.H_N_LEGAL]):
            c = S[L.LEGAL + j] - RETURN
            score = 0.0
            if c == GOLD:
                score += -10.0
            else:
                score += -want[c]
                score += 0.01 * S[base + L.P_TOKENS + c]
            out[j] = score
        return first_best(out, S[L.H_N_LEGAL])
    held = 0
    for c in range(N_GEMS + 1):
        held += S[base + L.P_TOKENS + c]
    limit = cfg[L.C_LIMIT + p]
    denied = floats[F_DENIED : F_DENIED + N_SLOTS]
    for slot in range(N_SLOTS):
        denied[slot] = -1.0
    for q in range(cfg[L.C_N]):
        if q != p:
            rivals[q] = holdings(S, seat(q), cfg[L.C_WIDTH])
    # what every reservation scores before its card's terms, summed once
    reserving = 0.0
    reserving += -w[W_SLOT] * S[base + L.P_N_RESERVED]
    if S[L.SUPPLY + GOLD]:
        reserving += w[W_GOLD_GAIN] + _largest(want)
        reserving += -w[W_OVERFLOW] * max(0, held + 1 - limit)
    top = 0
    top_score = 0.0
    for j in range(S[L.H_N_LEGAL]):
        a = S[L.LEGAL + j]
        score = 0.0
        if a < RESERVE:
            gains = 0
            progress = 0.0
            if a >= TAKE2:
                c = TAKE_GAINS[a, 0]
                progress = want[c] + want2[c]
                gains = 2
            else:
                for k in range(3):
                    if TAKE_GAINS[a, k] >= 0:
                        progress += want[TAKE_GAINS[a, k]]
                        gains += 1
            score += progress
            score += -w[W_OVERFLOW] * max(0, held + gains - limit)
        elif a < BUY:
            score = reserving
            if a < RESERVE_BLIND:
                slot = a - RESERVE
                i = at[slot]
                missing = max(0, shorts[i, SHORT_SUM] - gold - 1)
                reached = score + w[W_RESERVE] * value[i] / (missing + 1)
                score = reached if missing <= w[W_REACH] else score  # a select
                score += w[W_DENY] * _denied_at(S, cfg, cards, p, slot, denied, rivals)
        elif a < PASS:
            card = ids[at[a - BUY]]
            score += w[W_POINTS] * cards[card, L.K_POINTS]
            score += colour_value[cards[card, L.K_BONUS]]
            gems, paid_gold = spent(S, cards, base, card)
            score += -w[W_GEM] * gems - w[W_GOLD] * paid_gold
            if a < BUY_RESERVED:
                score += w[W_DENY] * _denied_at(S, cfg, cards, p, a - BUY, denied, rivals)
        out[j] = score
        better = score > top_score or j == 0
        top = j if better else top
        top_score = score if better else top_score
    return top
