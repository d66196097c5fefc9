"""What a compiled strategy needs about the deciding seat (`strategies._Position`): the
cards it could buy, display first and then its reservations, where the card each buy
action buys sits in those lists, and the gems each is short of after bonuses and tokens
(and their sum, `SHORT_SUM`)."""

from __future__ import annotations

import numpy as np

from sanssim.compiled.kernel import kernel
from sanssim.compiled.lowered import empty, larger, smaller
from sanssim.games.splendor.actions import BUY, BUY_RESERVED, MAX_RESERVED, N_GEMS, N_SLOTS
from sanssim.games.splendor.config import MAX_PLAYERS
from sanssim.games.splendor.core import layout as L
from sanssim.games.splendor.core.state import jit, step
from sanssim.games.splendor.strategies import TAKE_GAINS as _GAINS

MAX_CARDS = N_SLOTS + MAX_RESERVED
SHORT_SUM = N_GEMS  # the column of `shorts` that holds a card's gems short in all
# colours each take action gains, one entry a token, padded with -1
TAKE_GAINS = np.array([(*gains, -1, -1)[:3] for gains in _GAINS], dtype=np.int64)


# a strategy's scratch arrays (`new_work`), allocated once a chunk, not once a decision:
# where each buy action's card sits (by `action - BUY`), the cards and shorts, then floats
# and each seat's packed holdings (see `heuristic`)
FLOATS = 80


@kernel(allocates=True)
def new_work() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    return (
        empty(MAX_CARDS, np.int64),
        empty(MAX_CARDS, np.int64),
        empty((MAX_CARDS, N_GEMS + 1), np.int64),
        empty(FLOATS, np.float64),
        empty(MAX_PLAYERS, np.int64),
    )


@step
def position(S: np.ndarray, cards: np.ndarray, base: int, work: tuple) -> int:
    """How many cards the seat at `base` could buy; in `work`, where the card each buy
    action buys sits (`at[action - BUY]`, so no search for it), each card and its gems
    short by colour."""
    at, ids, shorts = work[0], work[1], work[2]
    count = 0
    for slot in range(N_SLOTS):
        card = S[L.DISPLAY + slot]
        at[slot] = count
        if card >= 0:
            ids[count] = card
            count += 1
    for i in range(S[base + L.P_N_RESERVED]):
        at[BUY_RESERVED - BUY + i] = count
        ids[count] = S[base + L.P_RESERVED + i]
        count += 1
    have = (
        S[base + L.P_BONUS] + S[base + L.P_TOKENS],
        S[base + L.P_BONUS + 1] + S[base + L.P_TOKENS + 1],
        S[base + L.P_BONUS + 2] + S[base + L.P_TOKENS + 2],
        S[base + L.P_BONUS + 3] + S[base + L.P_TOKENS + 3],
        S[base + L.P_BONUS + 4] + S[base + L.P_TOKENS + 4],
    )  # in registers: the stores below would otherwise reload them
    for i in range(count):
        card = ids[i]
        total = 0
        for c in range(N_GEMS):
            short = larger(0, cards[card, L.K_COST + c] - have[c])
            shorts[i, c] = short
            total += short
        shorts[i, SHORT_SUM] = total
    return count


@jit
def spent(S: np.ndarray, cards: np.ndarray, base: int, card: int) -> tuple[int, int]:
    """Gem tokens and gold the fewest-gold payment for `card` uses."""
    gems = 0
    need_total = 0
    for c in range(N_GEMS):
        need = larger(0, cards[card, L.K_COST + c] - S[base + L.P_BONUS + c])
        gems += smaller(need, S[base + L.P_TOKENS + c])
        need_total += need
    return gems, need_total - gems


@jit
def first_best(scores: np.ndarray, n: int) -> int:
    """Where the first of the highest of `scores[:n]` is."""
    top = 0
    for j in range(1, n):
        if scores[j] > scores[top]:
            top = j
    return top


@jit
def best(S: np.ndarray, scores: np.ndarray) -> int:
    """The first legal choice of the highest score."""
    return S[L.LEGAL + first_best(scores, S[L.H_N_LEGAL])]
