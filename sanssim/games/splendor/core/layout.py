"""Where each part of a compiled Splendor game lives in its flat integer arrays.

A game in play is one int64 row (`State`): a header, six supply counts, a block per seat,
the display, the nobles on the table, the legal choices, the turn record in progress and
the three decks, so a clone is a copy. The fixed parameters are `cfg` (the rule options
and each level's cards), `cards` (level, bonus, points, cost per card) and `nobles`
(points, requirement per noble), built once from the engine's `Game` by `tables`.
"""

from __future__ import annotations

import numpy as np

from sanssim.games.splendor.actions import (
    EMPTY,
    MAX_RESERVED,
    N_GEMS,
    N_LEVELS,
    N_SLOTS,
    TAKE_DIFF_BY_AVAIL,
    TAKE_SETS,
)
from sanssim.games.splendor.config import MAX_PLAYERS
from sanssim.games.splendor.engine import Game, State
from sanssim.games.splendor.record import RECORD_WIDTH

# header
H_PHASE, H_TURN, H_CURRENT, H_ROUND_PASSES, H_ROUND_VISITS, H_BOUGHT = range(6)
H_EXCESS, H_END_REASON, H_N_LEGAL, H_N_TABLE, H_RECORD = range(6, 11)
H_DECK_LEFT = 11  # three counts
SUPPLY = H_DECK_LEFT + N_LEVELS  # six counts, gold last
SEATS = SUPPLY + N_GEMS + 1
# a seat's block, from SEATS + SEAT_WIDTH * seat
P_TOKENS = 0  # six counts
P_BONUS = P_TOKENS + N_GEMS + 1  # five counts
P_POINTS = P_BONUS + N_GEMS
P_CARDS = P_POINTS + 1
P_N_RESERVED = P_CARDS + 1
P_RESERVED = P_N_RESERVED + 1  # card ids in the order reserved
P_BLIND = P_RESERVED + MAX_RESERVED  # 1 where that reservation was blind
P_NOBLE_AGAIN = P_BLIND + MAX_RESERVED
P_PASSES = P_NOBLE_AGAIN + 1
P_NOBLES = P_PASSES + 1
P_NOBLE_POINTS = P_NOBLES + 1
SEAT_WIDTH = P_NOBLE_POINTS + 1
DISPLAY = SEATS + SEAT_WIDTH * MAX_PLAYERS
MAX_TABLE = 10
TABLE = DISPLAY + N_SLOTS  # noble ids still on the table, in reveal order
IN_PLAY = TABLE + MAX_TABLE  # the nobles revealed at the start
MAX_LEGAL = 64
LEGAL = IN_PLAY + MAX_TABLE
RECORD = LEGAL + MAX_LEGAL  # the turn record in progress (engine.RECORD_WIDTH ints)
DECKS = RECORD + RECORD_WIDTH  # each level's deck from DECKS + cfg[C_LEVEL_START + level]

# cfg
C_N, C_TARGET, C_MAX_ROUNDS, C_GEMS, C_GOLD, C_NOBLES = range(6)
C_LATER_GOLD, C_LATER_GEMS, C_TIES_LATER, C_FIRST_TURN_GEMS = range(6, 10)
C_LIMIT = 10  # the token limit of each seat
C_N_CARDS = C_LIMIT + MAX_PLAYERS
C_N_ALL_NOBLES = C_N_CARDS + 1
C_WIDTH = C_N_ALL_NOBLES + 1  # bits of a colour's field in packed counts (`Game.width`)
C_LEVEL_START = C_WIDTH + 1  # three offsets into the level cards
C_LEVEL_COUNT = C_LEVEL_START + N_LEVELS
C_LEVEL_CARDS = C_LEVEL_COUNT + N_LEVELS  # each level's card ids in id order

# cards and nobles columns
K_LEVEL, K_BONUS, K_POINTS, K_COST = 0, 1, 2, 3
K_PACKED = K_COST + N_GEMS  # the cost packed as `Game.packed_cost`
N_POINTS, N_REQUIREMENT = 0, 1

TAKE_MASKS = np.array([sum(1 << c for c in combo) for combo in TAKE_SETS], dtype=np.int64)
TAKE_SIZES = np.array([len(combo) for combo in TAKE_SETS], dtype=np.int64)
TAKE_COLOURS = np.array([(*combo, -1, -1)[:3] for combo in TAKE_SETS], dtype=np.int64)
# the legal take-different actions by the mask of colours in the supply, in legal order
# (`engine.TAKE_DIFF_BY_AVAIL`): their count, then the actions
TAKES_BY_AVAIL = np.array(
    [[len(takes), *takes, *[-1] * (len(TAKE_SETS) - len(takes))] for takes in TAKE_DIFF_BY_AVAIL],
    dtype=np.int64,
)


def state_size(game: Game) -> int:
    return DECKS + len(game.components.cards)


def tables(game: Game) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`cfg`, `cards` and `nobles` of `game`, as the compiled functions read them."""
    c = game.config
    comps = game.components
    levels = game.level_cards
    head = [
        c.n_players,
        c.target_points,
        c.max_rounds,
        c.resolved_gem_tokens,
        c.gold_tokens,
        c.resolved_nobles,
        c.later_seat_gold,
        c.later_seat_gems,
        int(c.ties_to_later_seat),
        c.first_turn_gems,
        *(game.token_limit[p] if p < c.n_players else 0 for p in range(MAX_PLAYERS)),
        len(comps.cards),
        len(comps.nobles),
        game.width,
    ]
    starts = np.cumsum([0] + [len(cards) for cards in levels])[:N_LEVELS]
    cfg = [*head, *starts, *(len(cards) for cards in levels), *(k for ids in levels for k in ids)]
    cards = [
        (k.level, k.bonus, k.points, *k.cost, packed)
        for k, packed in zip(comps.cards, game.packed_cost, strict=True)
    ]
    nobles = [(x.points, *x.requirement) for x in comps.nobles]
    as_array = np.array
    return (
        as_array(cfg, dtype=np.int64),
        as_array(cards, dtype=np.int64),
        as_array(nobles, dtype=np.int64),
    )


def state_array(state: State) -> np.ndarray:
    """The flat row of a Python engine `State` (not recording), for playing on from any
    position in compiled code: hand-built positions, a determinised world, tests."""
    game = state.game
    cfg, _, _ = tables(game)
    S = np.zeros(state_size(game), dtype=np.int64)
    header = (state.phase, state.turn, state.current, state.round_passes, state.round_visits)
    S[H_PHASE : H_ROUND_VISITS + 1] = header
    S[H_BOUGHT], S[H_EXCESS], S[H_END_REASON] = int(state.bought), state.excess, state.end_reason
    S[H_N_LEGAL], S[H_N_TABLE] = len(state.legal), len(state.table)
    S[LEGAL : LEGAL + len(state.legal)] = state.legal
    S[TABLE : TABLE + len(state.table)] = state.table
    S[IN_PLAY : IN_PLAY + len(state.nobles_in_play)] = state.nobles_in_play
    S[SUPPLY : SUPPLY + N_GEMS + 1] = state.supply
    S[DISPLAY : DISPLAY + N_SLOTS] = state.display
    for level, deck in enumerate(state.decks):
        S[H_DECK_LEFT + level] = len(deck)
        start = DECKS + cfg[C_LEVEL_START + level]
        S[start : start + len(deck)] = deck
    for p in range(state.n):
        base = SEATS + SEAT_WIDTH * p
        reserved = state.reserved[p]
        S[base + P_TOKENS : base + P_TOKENS + N_GEMS + 1] = state.tokens[p]
        S[base + P_BONUS : base + P_BONUS + N_GEMS] = state.bonus[p]
        S[base + P_POINTS], S[base + P_CARDS] = state.points[p], state.cards_bought[p]
        S[base + P_N_RESERVED] = len(reserved)
        S[base + P_RESERVED : base + P_RESERVED + MAX_RESERVED] = EMPTY
        S[base + P_RESERVED : base + P_RESERVED + len(reserved)] = reserved
        S[base + P_BLIND : base + P_BLIND + len(reserved)] = [c in state.blind[p] for c in reserved]
        S[base + P_NOBLE_AGAIN], S[base + P_PASSES] = state.noble_again[p], state.passes[p]
        S[base + P_NOBLES] = len(state.nobles[p])
        S[base + P_NOBLE_POINTS] = sum(game.noble_points[k] for k in state.nobles[p])
    return S
