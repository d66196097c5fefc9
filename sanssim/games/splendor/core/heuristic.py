"""The compiled `heuristic` (`strategies.HeuristicStrategy`): the same colour values, card
values, token wants and denials, every score summed term by term in the Python order
from 0.0, so each float is the one Python computes."""

from __future__ import annotations

import numpy as np

from sanssim.compiled.lowered import larger
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
from sanssim.games.splendor.core.state import inline, jit, seat, step
from sanssim.games.splendor.core.turn import affords, holdings

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
# A reserved card's `slot` for `buy_score`: not the literal -1, for which numba would type
# and compile `buy_score` (and `_denied_at` in it) a second time.
RESERVED = np.int64(-1)
# the floats of the scratch (`position.new_work`)
F_COLOUR_VALUE = 0
F_VALUE = F_COLOUR_VALUE + N_GEMS
F_WANT = F_VALUE + MAX_CARDS
F_WANT2 = F_WANT + N_GEMS
F_DENIED = F_WANT2 + N_GEMS
F_MISSING = F_DENIED + N_SLOTS  # each noble on the table's pull


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
            short += larger(0, nobles[noble, L.N_REQUIREMENT + x] - bonus[x])
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
            rivals: np.ndarray, guards: int) -> float:  # fmt: skip
    """The points an opponent could take with a display slot's card next turn: the
    card's, if any opponent can afford it (bonuses, tokens, gold for the rest; `rivals`:
    each seat's `holdings`). An opponent short of nothing keeps every field's guard bit
    (`guards`) after the subtraction; one with no gold cannot cover being short: most
    are found so, without summing what they are short of (`affords`)."""
    card = S[L.DISPLAY + slot]
    if card < 0 or not cards[card, L.K_POINTS]:
        return 0.0
    cost = cards[card, L.K_PACKED]
    width = cfg[L.C_WIDTH]
    for q in range(cfg[L.C_N]):
        if q != p:
            gold = S[seat(q) + L.P_TOKENS + GOLD]
            if (rivals[q] - cost) & guards == guards or (
                gold > 0 and affords(rivals[q], cost, gold, width)
            ):
                return float(cards[card, L.K_POINTS])
    return 0.0


@step
def _denied_at(S: np.ndarray, cfg: np.ndarray, cards: np.ndarray, p: int, slot: int,
               denied: np.ndarray, rivals: np.ndarray, guards: int) -> float:  # fmt: skip
    """`_denied`, each slot's computed once a call (`denied`: -1 where not yet)."""
    if denied[slot] < 0.0:
        denied[slot] = _denied(S, cfg, cards, p, slot, rivals, guards)
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
                    missing += larger(0, need - S[seat(q) + L.P_BONUS + c])
                if closest < 0 or missing < closest:
                    closest = missing
        score = 0.0
        score += -0.1 * closest
        out[j] = score


@step
def _helped(one: float, two: float, pull: float, spread: float,
            short: int) -> tuple[float, float]:  # fmt: skip
    """A colour's wants of one token and of two after a card `short` gems of it: the
    larger of each and the card's pull, plus its spread, where the card needs that many
    (selects, not branches: shorts are unpredictable)."""
    helped = _larger(one, pull) + spread
    helped2 = _larger(two, pull) + spread
    return (helped if short > 0 else one), (helped2 if short > 1 else two)


@jit
def wants(S: np.ndarray, cards: np.ndarray, nobles: np.ndarray, w: np.ndarray, base: int,
          work: tuple) -> tuple[int, int]:  # fmt: skip
    """The seat's `position`, colour values, card values and token wants, in `work`;
    how many cards it could buy, and its gold."""
    count = position(S, cards, base, work)
    ids, shorts, floats = work[1], work[2], work[3]
    gold = S[base + L.P_TOKENS + GOLD]
    colour_value = floats[F_COLOUR_VALUE : F_COLOUR_VALUE + N_GEMS]
    missing = floats[F_MISSING : F_MISSING + L.MAX_TABLE]
    _colour_values(S, cards, nobles, w, base, ids, count, missing, colour_value)
    value = floats[F_VALUE : F_VALUE + MAX_CARDS]
    # each colour's two wants a register, all ten updated card by card in card order:
    # ten independent chains of dependent adds, not one colour's after another's
    one0 = one1 = one2 = one3 = one4 = 0.0
    two0 = two1 = two2 = two3 = two4 = 0.0
    for i in range(count):
        value[i] = w[W_POINTS] * cards[ids[i], L.K_POINTS] + colour_value[cards[ids[i], L.K_BONUS]]
        missing = larger(0, shorts[i, SHORT_SUM] - gold)
        pull = w[W_PROGRESS] * value[i] / (missing + 1)
        spread = w[W_SPREAD] * pull
        one0, two0 = _helped(one0, two0, pull, spread, shorts[i, 0])
        one1, two1 = _helped(one1, two1, pull, spread, shorts[i, 1])
        one2, two2 = _helped(one2, two2, pull, spread, shorts[i, 2])
        one3, two3 = _helped(one3, two3, pull, spread, shorts[i, 3])
        one4, two4 = _helped(one4, two4, pull, spread, shorts[i, 4])
    ones = (one0, one1, one2, one3, one4)
    twos = (two0, two1, two2, two3, two4)
    for c in range(N_GEMS):
        floats[F_WANT + c] = ones[c]
        floats[F_WANT2 + c] = twos[c]
    return count, gold


@step
def main_terms(S: np.ndarray, cfg: np.ndarray, w: np.ndarray, p: int, base: int,
               work: tuple) -> tuple[int, int, float, int]:  # fmt: skip
    """A main-phase turn's shared terms: the seat's tokens held, its limit, what every
    reservation scores before its card's terms (summed once), and the guard bits of
    packed holdings (`_denied`); no denial found yet, each opponent's `holdings`
    priced."""
    floats, rivals = work[3], work[4]
    held = 0
    for c in range(N_GEMS + 1):
        held += S[base + L.P_TOKENS + c]
    limit = cfg[L.C_LIMIT + p]
    for slot in range(N_SLOTS):
        floats[F_DENIED + slot] = -1.0
    width = cfg[L.C_WIDTH]
    for q in range(cfg[L.C_N]):
        if q != p:
            rivals[q] = holdings(S, seat(q), width)
    guards = 0
    for c in range(N_GEMS):
        guards |= 1 << (width * c + width - 1)
    reserving = 0.0
    reserving += -w[W_SLOT] * S[base + L.P_N_RESERVED]
    if S[L.SUPPLY + GOLD]:
        reserving += w[W_GOLD_GAIN] + _largest(floats[F_WANT : F_WANT + N_GEMS])
        reserving += -w[W_OVERFLOW] * larger(0, held + 1 - limit)
    return held, limit, reserving, guards


@step
def take_score(a: int, w: np.ndarray, floats: np.ndarray, held: int, limit: int) -> float:
    """A take's score: the wants of the tokens it gains, less their overflow."""
    score = 0.0
    gains = 0
    progress = 0.0
    if a >= TAKE2:
        c = TAKE_GAINS[a, 0]
        progress = floats[F_WANT + c] + floats[F_WANT2 + c]
        gains = 2
    else:
        for k in range(3):
            if TAKE_GAINS[a, k] >= 0:
                progress += floats[F_WANT + TAKE_GAINS[a, k]]
                gains += 1
    score += progress
    score += -w[W_OVERFLOW] * larger(0, held + gains - limit)
    return score


@step
def reserve_score(S: np.ndarray, cfg: np.ndarray, cards: np.ndarray, w: np.ndarray, p: int,
                  slot: int, gold: int, reserving: float, guards: int,
                  work: tuple) -> float:  # fmt: skip
    """A display reservation's score."""
    at, shorts, floats = work[0], work[2], work[3]
    i = at[slot]
    score = reserving
    missing = larger(0, shorts[i, SHORT_SUM] - gold - 1)
    reached = score + w[W_RESERVE] * floats[F_VALUE + i] / (missing + 1)
    score = reached if missing <= w[W_REACH] else score  # a select
    denied = floats[F_DENIED : F_DENIED + N_SLOTS]
    score += w[W_DENY] * _denied_at(S, cfg, cards, p, slot, denied, work[4], guards)
    return score


@step
def buy_score(S: np.ndarray, cfg: np.ndarray, cards: np.ndarray, w: np.ndarray, p: int,
              base: int, card: int, slot: int, guards: int, work: tuple) -> float:  # fmt: skip
    """A buy's score: the card's points and colour value, less the spending; a display
    card's (`slot`; -1 for a reserved one) denial."""
    floats = work[3]
    score = 0.0
    score += w[W_POINTS] * cards[card, L.K_POINTS]
    score += floats[F_COLOUR_VALUE + cards[card, L.K_BONUS]]
    gems, paid_gold = spent(S, cards, base, card)
    score += -w[W_GEM] * gems - w[W_GOLD] * paid_gold
    if slot >= 0:
        denied = floats[F_DENIED : F_DENIED + N_SLOTS]
        score += w[W_DENY] * _denied_at(S, cfg, cards, p, slot, denied, work[4], guards)
    return score


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
    _, gold = wants(S, cards, nobles, w, base, work)
    at, ids, floats = work[0], work[1], work[3]
    if phase == RETURNING:
        for j in range(S[L.H_N_LEGAL]):
            c = S[L.LEGAL + j] - RETURN
            score = 0.0
            if c == GOLD:
                score += -10.0
            else:
                score += -floats[F_WANT + c]
                score += 0.01 * S[base + L.P_TOKENS + c]
            out[j] = score
        return first_best(out, S[L.H_N_LEGAL])
    held, limit, reserving, guards = main_terms(S, cfg, w, p, base, work)
    top = 0
    top_score = 0.0
    for j in range(S[L.H_N_LEGAL]):
        a = S[L.LEGAL + j]
        score = 0.0
        if a < RESERVE:
            score = take_score(a, w, floats, held, limit)
        elif a < RESERVE_BLIND:
            score = reserve_score(S, cfg, cards, w, p, a - RESERVE, gold, reserving, guards, work)
        elif a < BUY:
            score = reserving
        elif a < BUY_RESERVED:
            score = buy_score(S, cfg, cards, w, p, base, ids[at[a - BUY]], a - BUY, guards, work)
        elif a < PASS:
            score = buy_score(S, cfg, cards, w, p, base, ids[at[a - BUY]], RESERVED, guards, work)
        out[j] = score
        top, top_score = kept(top, top_score, j, score, j == 0)
    return top


@step
def kept(top: int, top_score: float, option: int, score: float, first: bool) -> tuple:
    """The first best so far: `option` and its `score` in place of `top` when it scores
    higher, or is the `first` (selects, not a branch: which option is best is
    unpredictable)."""
    better = score > top_score or first
    return (option if better else top), (score if better else top_score)
