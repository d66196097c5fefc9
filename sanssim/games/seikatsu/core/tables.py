"""A Seikatsu `Game` as one flat int64 table, and the layout of a state array.

The compiled engine reads every fixed fact of a game (sizes, masks, the deal, the
seat and side maps) from one table `t`: a header of sizes and offsets at fixed
indices (the constants below), then the per-cell, per-row and per-seat lists the
offsets point to. A state is one int64 array `s` whose layout the header gives too,
so cloning a state is `s.copy()`. Masks are int64 bit sets over the cells, so a
board of at most `MAX_CELLS` spaces has a compiled form.
"""

from __future__ import annotations

import numpy as np

from sanssim.games.seikatsu.engine import EMPTY, HAND_SIZE, Game, State

MAX_CELLS = 62  # masks are int64; one spare bit keeps every shift positive

# header: sizes
N_CELLS, N_KINDS, KOI_KIND, N_BIRDS, N_FLOWERS, N_PLAYERS, N_SIDES, N_PAGODAS = range(8)
N_ROWS, TURNS, N_STARTS, N_GARDEN, KOI_COUNT, TOURNAMENT, LATER, HMAX = range(8, 16)
N_POINTS, BAG_CAP, TEAMS, MAX_LEGAL, PER_PLAYER = range(16, 21)
# header: offsets of the lists in `t`
T_KIND_BIRD, T_KIND_FLOWER, T_NEIGH, T_ROWS, T_ROW_OF, T_SEAT_PAGODA, T_SIDE = range(24, 31)
T_SIDE_PAGODA, T_LAST_SEAT, T_POINTS, T_STARTS, T_GARDEN, T_KOI_DEALT, T_ROW_LEN = range(31, 38)
# header: offsets of the state's lists in `s`, and its size
S_SIZE, S_BIRDS, S_FLOWERS, S_BOARD, S_BAG, S_HANDS, S_HAND_LEN = range(40, 47)
S_KOI_HELD, S_SIDE_SCORE, S_OWN, S_KOI_PLAYED, S_START, S_LEGAL = range(47, 53)
HEADER = 56

# the state's scalars, at the front of `s`
PHASE, TURN, CURRENT, OCCUPIED, FRONTIER, KOI, BAG_LEN, N_LEGAL = range(8)
SCALARS = 8


def compiled_form(game: Game) -> bool:
    """Whether the compiled engine can play `game` (its masks fit an int64)."""
    return game.n_cells <= MAX_CELLS


def game_table(game: Game) -> np.ndarray:
    """The table of `game` (see the module docstring)."""
    comps = game.components
    n = game.n_players
    n_pagodas = len(game.rows)
    n_rows = len(game.rows[0])
    n_kinds = game.koi_kind + 1
    koi_dealt = list(game.koi_dealt)
    hmax = HAND_SIZE + (max(koi_dealt) if game.config.tournament else 0)
    header = [0] * HEADER
    header[N_CELLS] = game.n_cells
    header[N_KINDS] = n_kinds
    header[KOI_KIND] = game.koi_kind
    header[N_BIRDS] = len(comps.birds)
    header[N_FLOWERS] = game.n_flowers
    header[N_PLAYERS] = n
    header[N_SIDES] = game.n_sides
    header[N_PAGODAS] = n_pagodas
    header[N_ROWS] = n_rows
    header[TURNS] = game.turns
    header[N_STARTS] = len(game.starts)
    header[N_GARDEN] = len(game.garden_tiles)
    header[KOI_COUNT] = comps.koi_count
    header[TOURNAMENT] = int(game.config.tournament)
    header[LATER] = int(game.tie_break == "later_in_turn_order")
    header[HMAX] = hmax
    header[N_POINTS] = len(game.set_points)
    header[BAG_CAP] = len(game.garden_tiles) + comps.koi_count
    header[TEAMS] = int(game.n_sides < n)
    header[MAX_LEGAL] = (hmax + 1) * game.n_cells
    header[PER_PLAYER] = game.turns // n
    lists = [
        (T_KIND_BIRD, game.kind_bird),
        (T_KIND_FLOWER, game.kind_flower),
        (T_NEIGH, game.neighbour_mask),
        (T_ROWS, [mask for rows in game.rows for mask in rows]),
        (T_ROW_OF, [k for rows in game.row_of for k in rows]),
        (T_SEAT_PAGODA, game.seat_pagoda),
        (T_SIDE, game.side),
        (T_SIDE_PAGODA, game.side_pagoda),
        (T_LAST_SEAT, game.last_seat),
        (T_POINTS, game.set_points),
        (T_STARTS, game.starts),
        (T_GARDEN, game.garden_tiles),
        (T_KOI_DEALT, koi_dealt),
        (T_ROW_LEN, [mask.bit_count() for rows in game.rows for mask in rows]),
    ]
    body: list[int] = []
    for slot, values in lists:
        header[slot] = HEADER + len(body)
        body += list(values)
    sizes = [
        (S_BIRDS, header[N_BIRDS]),
        (S_FLOWERS, game.n_flowers),
        (S_BOARD, game.n_cells),
        (S_BAG, header[BAG_CAP]),
        (S_HANDS, n * hmax),
        (S_HAND_LEN, n),
        (S_KOI_HELD, n),
        (S_SIDE_SCORE, game.n_sides),
        (S_OWN, n),
        (S_KOI_PLAYED, n),
        (S_START, len(game.starts)),
        (S_LEGAL, header[MAX_LEGAL]),
    ]
    offset = SCALARS
    for slot, size in sizes:
        header[slot] = offset
        offset += size
    header[S_SIZE] = offset
    return np.array(header + body, dtype=np.int64)


def state_array(game: Game, state: State) -> np.ndarray:
    """A Python `State` as a compiled state (for single decisions and their tests)."""
    t = game_table(game)
    s = np.zeros(t[S_SIZE], dtype=np.int64)
    s[PHASE], s[TURN], s[CURRENT] = state.phase, state.turn, state.current
    s[OCCUPIED], s[FRONTIER], s[KOI] = state.occupied, state.frontier, state.koi
    s[BAG_LEN], s[N_LEGAL] = len(state.bag), len(state.legal)
    hmax = t[HMAX]
    for slot, values in (
        (S_BIRDS, state.birds),
        (S_FLOWERS, state.flowers),
        (S_BOARD, state.board),
        (S_BAG, state.bag),
        (S_HANDS, [k for h in state.hands for k in h + [EMPTY] * (hmax - len(h))]),
        (S_HAND_LEN, [len(h) for h in state.hands]),
        (S_KOI_HELD, state.koi_held),
        (S_SIDE_SCORE, state.side_score),
        (S_OWN, state.own_points),
        (S_KOI_PLAYED, state.koi_played),
        (S_START, state.start_tiles),
        (S_LEGAL, state.legal),
    ):
        s[t[slot] : t[slot] + len(values)] = values
    return s
