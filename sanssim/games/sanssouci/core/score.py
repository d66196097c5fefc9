"""Final scoring in compiled code: each seat's breakdown and rank (log.result_frame's values).

A results row holds `log.RESULT_VALUES`, then the nine noble rows.
"""

from __future__ import annotations

import numpy as np

from sanssim.compiled.kernel import kernel
from sanssim.games.sanssouci.components import N_COLS, N_ROWS
from sanssim.games.sanssouci.core.layout import (
    EXP_SIDE,
    EXPANSION_POINTS,
    G_COLUMN_BONUS,
    G_MISSION_POINTS,
    G_N,
    G_ROW_POINTS,
    G_SEAT_BONUS,
    G_SYMBOL_COLUMN,
    GARDEN,
    MISSIONS,
    N_GARDENERS,
    N_SYMBOLS,
    NOBLE_POINTS,
    NOBLE_ROWS,
    OCCUPIED,
    RESHUFFLES,
)
from sanssim.games.sanssouci.core.rules import COL_MASK, ROW_MASK
from sanssim.games.sanssouci.log import NOBLE_ROWS_AT, RESULT_VALUES

# The results row of one (game, seat): log.RESULT_VALUES, then the noble rows.
_AT = {name: i for i, name in enumerate(RESULT_VALUES)}
V_GARDEN, V_EXPANSION_SIDE = _AT["garden_side"], _AT["expansion_side"]
V_MISSION_A, V_MISSION_B = _AT["mission_a"], _AT["mission_b"]
V_NOBLE_POINTS, V_EXPANSION_POINTS = _AT["noble_points"], _AT["expansion_points"]
V_ROW_BONUS, V_COLUMN_BONUS = _AT["row_bonus"], _AT["column_bonus"]
V_MISSION_POINTS, V_TOTAL, V_GARDENERS = _AT["mission_points"], _AT["total"], _AT["gardeners"]
V_ROWS, V_COLUMNS = _AT["rows_completed"], _AT["columns_completed"]
V_RANK, V_RESHUFFLES, V_HANDICAP = _AT["rank"], _AT["reshuffles"], _AT["handicap_points"]
V_NOBLE_ROWS = NOBLE_ROWS_AT
RESULT_WIDTH = V_NOBLE_ROWS + N_COLS


@kernel
def score_game(st: np.ndarray, gp: np.ndarray, out: np.ndarray) -> None:
    """`out[seat]`: the seat's breakdown, rank and the game's reshuffles (log.result_frame)."""
    n = gp[G_N]
    for p in range(n):
        row = out[p]
        occupied = st[OCCUPIED + p]
        rows_done = 0
        row_bonus = 0
        for r in range(2, N_ROWS + 1):
            if occupied & ROW_MASK[r] == ROW_MASK[r]:
                rows_done += 1
                row_bonus += gp[G_ROW_POINTS + r]
        cols_done = 0
        for c in range(N_COLS):
            if occupied & COL_MASK[c] == COL_MASK[c]:
                cols_done += 1
        columns = gp[G_SYMBOL_COLUMN] + st[GARDEN + p] * N_SYMBOLS
        missions = 0
        for k in range(2):
            col = gp[columns + st[MISSIONS + 2 * p + k]]
            missions += gp[G_MISSION_POINTS + st[NOBLE_ROWS + 9 * p + col]]
        for c in range(N_COLS):
            row[V_NOBLE_ROWS + c] = st[NOBLE_ROWS + 9 * p + c]
        row[V_GARDEN] = st[GARDEN + p]
        row[V_EXPANSION_SIDE] = st[EXP_SIDE + p]
        row[V_MISSION_A] = st[MISSIONS + 2 * p]
        row[V_MISSION_B] = st[MISSIONS + 2 * p + 1]
        row[V_NOBLE_POINTS] = st[NOBLE_POINTS + p]
        row[V_EXPANSION_POINTS] = st[EXPANSION_POINTS + p]
        row[V_ROW_BONUS] = row_bonus
        row[V_COLUMN_BONUS] = gp[G_COLUMN_BONUS] * cols_done
        row[V_MISSION_POINTS] = missions
        row[V_GARDENERS] = st[N_GARDENERS + p]
        row[V_ROWS] = rows_done
        row[V_COLUMNS] = cols_done
        row[V_HANDICAP] = p * gp[G_SEAT_BONUS]
        row[V_RESHUFFLES] = st[RESHUFFLES]
        row[V_TOTAL] = (
            row[V_NOBLE_POINTS]
            + row[V_EXPANSION_POINTS]
            + row_bonus
            + row[V_COLUMN_BONUS]
            + missions
            + row[V_HANDICAP]
        )
    for p in range(n):
        better = 0
        for q in range(n):
            if out[q, V_TOTAL] > out[p, V_TOTAL] or (
                out[q, V_TOTAL] == out[p, V_TOTAL] and out[q, V_GARDENERS] > out[p, V_GARDENERS]
            ):
                better += 1
        out[p, V_RANK] = 1 + better
