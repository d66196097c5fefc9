"""Dealing a new game in compiled code, draw for draw as `engine.State.__init__`."""

from __future__ import annotations

import numpy as np

from sanssim.compiled import rng as mt
from sanssim.compiled.kernel import kernel
from sanssim.games.sanssouci.actions import HAND_SIZE, N_SLOTS, SIDE
from sanssim.games.sanssouci.core.choices import side_choices, start_turn
from sanssim.games.sanssouci.core.layout import (
    DECK,
    DECK_LEN,
    DECKS,
    DISPLAY,
    EXP_BOARD,
    EXP_SIDE,
    G_BOARD_SIDES,
    G_EXPANSION,
    G_FIXED_SIDES,
    G_N,
    G_N_BOARDS,
    G_N_EXP_BOARDS,
    G_N_TILES,
    G_PREPRINTED,
    G_RESHUFFLE,
    G_SEAT_BONUS,
    G_SIDES,
    G_TILES,
    GARDEN,
    HAND_LEN,
    HANDS,
    LEGAL,
    MISSIONS,
    N_SYMBOLS,
    NOBLE_ZONE,
    OCCUPIED,
    PENDING_TARGET,
    PENDING_TILE,
    PHASE,
    REACH,
    RECORD,
    RESHUFFLES,
    SCORE,
    SIDES_PER_BOARD,
    SUPPLY,
    SUPPLY_LEN,
    N,
)
from sanssim.games.sanssouci.core.rules import (
    ROW_MASK,
    flood,
    pop_supply,
    put_tile,
    reshuffle,
)
from sanssim.games.sanssouci.garden import FULL


@kernel
def deal(st: np.ndarray, gp: np.ndarray, g: np.ndarray, record: bool) -> None:
    """A new game in `st` as `State(game, seed, record)` deals it, `g` its rng, seeded
    from `seed`. The first decision may be forced: `play_simple` applies it unasked.
    A kernel, so that its views of `st` cost nothing; the legal choices' room, written
    last, is the boards' sampling pool."""
    st[:] = 0
    n = gp[G_N]
    st[N] = n
    st[RECORD] = record
    st[PENDING_TILE] = -1
    st[PENDING_TARGET] = -1
    if gp[G_FIXED_SIDES]:
        for p in range(n):
            st[GARDEN + p] = gp[G_SIDES + p]
    else:
        mt.sample_indices(g, gp[G_N_BOARDS], n, st[GARDEN : GARDEN + n], st[LEGAL:])  # boards
        for p in range(n):
            k = mt.randbelow(g, np.int64(SIDES_PER_BOARD))
            st[GARDEN + p] = gp[gp[G_BOARD_SIDES] + st[GARDEN + p] * SIDES_PER_BOARD + k]
    tiles = gp[G_N_TILES]
    for i in range(tiles):
        st[SUPPLY + i] = gp[gp[G_TILES] + i]
    st[SUPPLY_LEN] = tiles
    mt.shuffle(g, st[SUPPLY : SUPPLY + tiles], tiles)
    for slot in range(N_SLOTS):
        st[DISPLAY + slot] = -1
    for slot in range(N_SLOTS):
        if st[SUPPLY_LEN]:
            put_tile(st, slot, pop_supply(st))
    if gp[G_RESHUFFLE]:
        for colour in range(N_SLOTS // 2):
            st[RESHUFFLES] += reshuffle(st, g, 2 * colour)
    for p in range(n):  # each deck shuffled where it lives, the hand dealt off its top
        deck = DECKS + DECK * p
        for i in range(DECK):
            st[deck + i] = i
        mt.shuffle(g, st[deck : deck + DECK], np.int64(DECK))
        for i in range(HAND_SIZE):
            st[HANDS + HAND_SIZE * p + i] = st[deck + DECK - 1 - i]
            st[deck + DECK - 1 - i] = 0
        st[HAND_LEN + p] = HAND_SIZE
        st[DECK_LEN + p] = DECK - HAND_SIZE
    for i in range(N_SYMBOLS):  # shuffled in the missions' room (two a seat, four seats)
        st[MISSIONS + i] = i
    mt.shuffle(g, st[MISSIONS : MISSIONS + N_SYMBOLS], np.int64(N_SYMBOLS))
    for i in range(2 * n, N_SYMBOLS):
        st[MISSIONS + i] = 0
    for p in range(n):
        occupied = gp[gp[G_PREPRINTED] + st[GARDEN + p]]
        st[OCCUPIED + p] = occupied
        st[REACH + p] = flood(ROW_MASK[1], occupied)
        st[NOBLE_ZONE + p] = FULL
        st[SCORE + p] = p * gp[G_SEAT_BONUS]
        st[EXP_SIDE + p] = -1
        st[EXP_BOARD + p] = -1
    if gp[G_EXPANSION]:
        mt.sample_indices(g, gp[G_N_EXP_BOARDS], n, st[EXP_BOARD : EXP_BOARD + n], st[LEGAL:])
        st[PHASE] = SIDE
        side_choices(st, gp)
    else:
        start_turn(st, gp)
