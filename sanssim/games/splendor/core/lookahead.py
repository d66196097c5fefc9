"""`lookahead` on the compiled core (`sanssim.strategies.lookahead`): the default
`heuristic` ranks the options, the `width` best are tried on the same determinised
worlds (`PlayerView.determinize`: per level the unseen cards, in id order, shuffled by
the seat's stream and dealt to other seats' blind reservations, then to the deck), and
every seat plays on by the default `heuristic` to the end."""

from __future__ import annotations

import numpy as np

from sanssim.compiled import rng
from sanssim.compiled.ismcts import best_first
from sanssim.compiled.kernel import kernel
from sanssim.compiled.lowered import empty, larger, zeros
from sanssim.games.splendor.actions import N_LEVELS
from sanssim.games.splendor.core import layout as L
from sanssim.games.splendor.core.heuristic import heuristic_scores
from sanssim.games.splendor.core.rollout import ROLLOUT_PARAMS, play_on
from sanssim.games.splendor.core.rules import apply
from sanssim.games.splendor.core.state import copy, inline, jit, random_choice, seat
from sanssim.games.splendor.record import RECORD_WIDTH

W_ROLLOUTS, W_WIDTH = 0, 1


@jit
def determinize(S: np.ndarray, cfg: np.ndarray, cards: np.ndarray, me: int, g: np.ndarray,
                out: np.ndarray, hidden: np.ndarray, pool: np.ndarray) -> None:  # fmt: skip
    """`out`: a full state consistent with what seat `me` sees of `S`, unknowns from `g`
    (scratch: `hidden`, a flag a card, and `pool`, room for a level's cards)."""
    copy(out, 0, S, 0, len(S))
    out[L.H_RECORD] = 0
    for card in range(cfg[L.C_N_CARDS]):
        hidden[card] = False
    for q in range(cfg[L.C_N]):
        if q != me:
            base = seat(q)
            for i in range(S[base + L.P_N_RESERVED]):
                if S[base + L.P_BLIND + i]:
                    hidden[S[base + L.P_RESERVED + i]] = True
    for level in range(N_LEVELS):
        start = cfg[L.C_LEVEL_START + level]
        deck = L.DECKS + start
        for i in range(S[L.H_DECK_LEFT + level]):
            hidden[S[deck + i]] = True
        size = np.int64(0)  # not the literal 0: `shuffle` would compile for it too
        for i in range(cfg[L.C_LEVEL_COUNT + level]):
            card = cfg[L.C_LEVEL_CARDS + start + i]
            if hidden[card]:
                pool[size] = card
                size += 1
        rng.shuffle(g, pool, size)
        for q in range(cfg[L.C_N]):
            if q == me:
                continue
            base = seat(q)
            for i in range(S[base + L.P_N_RESERVED]):
                held = out[base + L.P_RESERVED + i]
                if S[base + L.P_BLIND + i] and cards[held, L.K_LEVEL] == level + 1:
                    size -= 1
                    out[base + L.P_RESERVED + i] = pool[size]
        copy(out, deck, pool, 0, size)


@kernel(allocates=True)
def determinize_work(cfg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`determinize`'s scratch, allocated once a decision."""
    n_cards = cfg[L.C_N_CARDS]
    return zeros(n_cards, np.bool_), empty(n_cards, np.int64)


@jit
def play_out(S: np.ndarray, cfg: np.ndarray, cards: np.ndarray, nobles: np.ndarray,
             log: np.ndarray, scores: np.ndarray, work: tuple, g: np.ndarray,
             uniform: bool) -> None:  # fmt: skip
    """Every seat plays on by the default heuristic (`rollout.play_on`), or uniformly at
    random from `g`."""
    if not uniform:
        play_on(S, cfg, cards, nobles, log, scores, work, np.int64(-1))  # not a literal -1
        return
    while S[L.H_N_LEGAL] > 0:
        action = random_choice(S, g)
        apply(S, cfg, cards, nobles, log, action)


@jit
def _rollout(S: np.ndarray, cfg: np.ndarray, cards: np.ndarray, nobles: np.ndarray, me: int,
             log: np.ndarray, scores: np.ndarray, work: tuple, g: np.ndarray) -> int:  # fmt: skip
    """Play on by the default heuristic; seat `me`'s final margin over the best other."""
    play_out(S, cfg, cards, nobles, log, scores, work, g, False)
    others = -(1 << 30)
    for q in range(cfg[L.C_N]):
        if q != me:
            others = larger(others, S[seat(q) + L.P_POINTS])
    return S[seat(me) + L.P_POINTS] - others


@jit
def ranked(S: np.ndarray, cfg: np.ndarray, cards: np.ndarray, nobles: np.ndarray,
           scores: np.ndarray, work: tuple, k: int, order: np.ndarray) -> int:  # fmt: skip
    """`order[:k]`: the indices of the `k` legal choices the default heuristic's `explain`
    ranks first, best score first, equal scores in legal order; how many (`k` at most)."""
    heuristic_scores(S, cfg, cards, nobles, ROLLOUT_PARAMS, scores, work)
    return best_first(scores, S[L.H_N_LEGAL], k, order)


@inline
def lookahead_choose(S: np.ndarray, cfg: np.ndarray, cards: np.ndarray, nobles: np.ndarray,
                     params: np.ndarray, g: np.ndarray, work: tuple,
                     scores: np.ndarray) -> int:  # fmt: skip
    """`LookaheadStrategy.choose`: the option of the best mean final margin."""
    order = empty(L.MAX_LEGAL, np.int64)
    tried = ranked(S, cfg, cards, nobles, scores, work, larger(1, np.int64(params[W_WIDTH])), order)
    if tried == 1:
        return S[L.LEGAL + order[0]]
    worlds = larger(1, np.int64(params[W_ROLLOUTS]) // tried)
    totals = zeros(tried, np.float64)
    world = S.copy()  # for `determinize` and `copy` to fill: cheaper to compile than
    state = S.copy()  # np.empty_like, which the shared search does not compile
    log = zeros((1, RECORD_WIDTH), np.int32)  # never written: no record
    me = S[L.H_CURRENT]
    hidden, pool = determinize_work(cfg)
    for _ in range(worlds):
        determinize(S, cfg, cards, me, g, world, hidden, pool)
        for i in range(tried):
            copy(state, 0, world, 0, len(world))
            apply(state, cfg, cards, nobles, log, S[L.LEGAL + order[i]])
            totals[i] += _rollout(state, cfg, cards, nobles, me, log, scores, work, g)
    top = 0
    for i in range(1, tried):
        if totals[i] / worlds > totals[top] / worlds:
            top = i
    return S[L.LEGAL + order[top]]
