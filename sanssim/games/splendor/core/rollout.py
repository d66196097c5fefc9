"""The default `heuristic`'s choice in the compiled rollouts (`lookahead`, `ismcts`),
played by `rules.apply_unlisted`: where a turn's choices are not listed
(`turn.UNLISTED`), its options are gone through in the listed order and scored as
`heuristic.heuristic_scores` scores them, with no list written or read."""

from __future__ import annotations

import numpy as np

from sanssim.games.splendor.actions import (
    BUY,
    BUY_RESERVED,
    MAX_RESERVED,
    N_GEMS,
    N_LEVELS,
    N_SLOTS,
    RESERVE,
    RESERVE_BLIND,
    TAKE2,
)
from sanssim.games.splendor.core import layout as L
from sanssim.games.splendor.core.heuristic import (
    RESERVED,
    buy_score,
    heuristic_scores,
    kept,
    main_terms,
    reserve_score,
    take_score,
    wants,
)
from sanssim.games.splendor.core.position import SHORT_SUM
from sanssim.games.splendor.core.rules import apply_unlisted
from sanssim.games.splendor.core.state import inline, jit, seat
from sanssim.games.splendor.core.turn import UNLISTED, supply_masks
from sanssim.games.splendor.strategies import HeuristicStrategy

ROLLOUT_PARAMS = np.array([float(p.default) for p in HeuristicStrategy.params])


@inline
def rollout_choice(S: np.ndarray, cfg: np.ndarray, cards: np.ndarray, nobles: np.ndarray,
                   w: np.ndarray, out: np.ndarray, work: tuple) -> int:  # fmt: skip
    """The legal choice at `heuristic_scores`' first best; at an unlisted turn, the same
    choice, the options gone through in `turn.start_turn`'s order (takes, first of all;
    reservations; affordable buys), no score kept (`out` untouched)."""
    if S[L.H_N_LEGAL] != UNLISTED:
        return S[L.LEGAL + heuristic_scores(S, cfg, cards, nobles, w, out, work)]
    p = S[L.H_CURRENT]
    base = seat(p)
    _, gold = wants(S, cards, nobles, w, base, work)
    at, ids, shorts, floats = work[0], work[1], work[2], work[3]
    held, limit, reserving, guards = main_terms(S, cfg, w, p, base, work)
    avail, big, _ = supply_masks(S)
    top = -1
    top_score = 0.0
    for k in range(L.TAKES_BY_AVAIL[avail, 0]):  # one at least: an unlisted turn's first
        a = L.TAKES_BY_AVAIL[avail, 1 + k]
        score = take_score(a, w, floats, held, limit)
        top, top_score = kept(top, top_score, a, score, top < 0)
    for c in range(N_GEMS):
        if big >> c & 1:
            score = take_score(TAKE2 + c, w, floats, held, limit)
            top, top_score = kept(top, top_score, TAKE2 + c, score, False)
    n_reserved = S[base + L.P_N_RESERVED]
    if n_reserved < MAX_RESERVED:
        for slot in range(N_SLOTS):
            if S[L.DISPLAY + slot] >= 0:
                score = reserve_score(S, cfg, cards, w, p, slot, gold, reserving, guards, work)
                top, top_score = kept(top, top_score, RESERVE + slot, score, False)
        for level in range(N_LEVELS):
            if S[L.H_DECK_LEFT + level] > 0:
                top, top_score = kept(top, top_score, RESERVE_BLIND + level, reserving, False)
    for slot in range(N_SLOTS):  # affordable as `turn.affords` finds: no gems short past gold
        card = S[L.DISPLAY + slot]
        if card >= 0 and shorts[at[slot], SHORT_SUM] <= gold:
            score = buy_score(S, cfg, cards, w, p, base, card, slot, guards, work)
            top, top_score = kept(top, top_score, BUY + slot, score, False)
    for r in range(n_reserved):
        i = at[BUY_RESERVED - BUY + r]
        if shorts[i, SHORT_SUM] <= gold:
            score = buy_score(S, cfg, cards, w, p, base, ids[i], RESERVED, guards, work)
            top, top_score = kept(top, top_score, BUY_RESERVED + r, score, False)
    return top


@jit
def play_on(S: np.ndarray, cfg: np.ndarray, cards: np.ndarray, nobles: np.ndarray,
            log: np.ndarray, out: np.ndarray, work: tuple, decisions: int) -> None:  # fmt: skip
    """`decisions` decisions of a heuristic rollout, or (negative) every one to the end:
    each `rollout_choice` by the default weights (constants here, `ROLLOUT_PARAMS`),
    played by `rules.apply_unlisted`, both inlined (no call a decision)."""
    while S[L.H_N_LEGAL] > 0 and decisions != 0:
        action = rollout_choice(S, cfg, cards, nobles, ROLLOUT_PARAMS, out, work)
        apply_unlisted(S, cfg, cards, nobles, log, action)
        decisions -= 1
