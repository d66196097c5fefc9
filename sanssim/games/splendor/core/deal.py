"""Dealing a compiled Splendor game (`State.__init__`): supply, seat compensations, the
decks and nobles shuffled by their own streams, the display, the first turn's choices."""

from __future__ import annotations

import numpy as np

from sanssim.compiled import rng
from sanssim.compiled.kernel import kernel
from sanssim.compiled.lowered import arange, empty, smaller
from sanssim.games.splendor.actions import (
    EMPTY,
    GOLD,
    MAX_RESERVED,
    N_GEMS,
    N_LEVELS,
    N_SLOTS,
    RESERVE,
    SLOTS_PER_LEVEL,
    TAKE_DIFF_GEMS,
)
from sanssim.games.splendor.core import layout as L
from sanssim.games.splendor.core.state import copy, inline, pop_deck, push, seat
from sanssim.games.splendor.core.turn import N_TAKE_SETS, start_turn


@kernel(allocates=True)
def deal(
    S: np.ndarray, cfg: np.ndarray, cards: np.ndarray, record: int, gens: np.ndarray, base: int
) -> None:
    """A new game in `S` (`State.__init__`): `gens[base + level - 1]` is the stream of the
    level's deck, `gens[base + N_LEVELS]` the nobles' stream, each seeded."""
    for i in range(len(S)):
        S[i] = 0
    n = cfg[L.C_N]
    S[L.H_END_REASON] = EMPTY
    S[L.H_RECORD] = record
    for c in range(N_GEMS + 1):
        later = cfg[L.C_LATER_GOLD] if c == GOLD else (1 if c < cfg[L.C_LATER_GEMS] else 0)
        total = cfg[L.C_GOLD] if c == GOLD else cfg[L.C_GEMS]
        S[L.SUPPLY + c] = total - (n - 1) * later
        for p in range(1, n):
            S[seat(p) + L.P_TOKENS + c] = later
    for p in range(n):
        for i in range(MAX_RESERVED):
            S[seat(p) + L.P_RESERVED + i] = EMPTY
    for level in range(N_LEVELS):
        start = L.DECKS + cfg[L.C_LEVEL_START + level]
        count = cfg[L.C_LEVEL_COUNT + level]
        for i in range(count):
            S[start + i] = cfg[L.C_LEVEL_CARDS + cfg[L.C_LEVEL_START + level] + i]
        rng.shuffle(gens[base + level], S[start : start + count], count)
        S[L.H_DECK_LEFT + level] = count
    for slot in range(N_SLOTS):
        S[L.DISPLAY + slot] = pop_deck(S, cfg, slot // SLOTS_PER_LEVEL)
    order = arange(cfg[L.C_N_ALL_NOBLES])
    rng.shuffle(gens[base + N_LEVELS], order, len(order))
    S[L.H_N_TABLE] = cfg[L.C_NOBLES]
    for i in range(cfg[L.C_NOBLES]):
        S[L.TABLE + i] = order[i]
        S[L.IN_PLAY + i] = order[i]
    start_turn(S, cfg, cards)
    if cfg[L.C_FIRST_TURN_GEMS] < TAKE_DIFF_GEMS:
        _limit_first_turn(S, cfg[L.C_FIRST_TURN_GEMS])


@inline
def _limit_first_turn(S: np.ndarray, gems: int) -> None:
    have = 0
    avail = 0
    for c in range(N_GEMS):
        if S[L.SUPPLY + c]:
            have += 1
            avail |= 1 << c
    size = smaller(gems, have)
    kept = empty(S[L.H_N_LEGAL], np.int64)
    copy(kept, 0, S, L.LEGAL, len(kept))
    S[L.H_N_LEGAL] = 0
    for k in range(N_TAKE_SETS):
        if L.TAKE_SIZES[k] == size and L.TAKE_MASKS[k] & avail == L.TAKE_MASKS[k]:
            push(S, k)
    for a in kept:
        if a >= RESERVE:
            push(S, a)
