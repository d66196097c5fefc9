"""A garden as a 54-bit mask, and the few operations the rules do on it.

Square index ``(row - 1) * 9 + col``. Nobles always stand in their own column, so a
noble is just a row per column. The occupied group connected to row 1 (`reach`) only
ever grows, so it is updated by one flood fill when a placed tile touches it; every
noble stands in it, and a noble's legal destinations are `reach` minus gardeners in its
column below it (`NOBLE_ZONE`). Kept apart from the engine because the strategies and
the compiled core read the same masks.
"""

from __future__ import annotations

from sanssim.games.sanssouci.components import N_COLS, N_ROWS

N_SQUARES = N_ROWS * N_COLS


def square(row: int, col: int) -> int:
    return (row - 1) * N_COLS + col


def row_of(sq: int) -> int:
    return sq // N_COLS + 1


def col_of(sq: int) -> int:
    return sq % N_COLS


ROW_MASK = [0] + [((1 << N_COLS) - 1) << ((r - 1) * N_COLS) for r in range(1, N_ROWS + 1)]
COL_MASK = [sum(1 << square(r, c) for r in range(1, N_ROWS + 1)) for c in range(N_COLS)]
FULL = (1 << N_SQUARES) - 1
NOT_LAST_COL = FULL & ~COL_MASK[N_COLS - 1]
NOT_FIRST_COL = FULL & ~COL_MASK[0]
# BELOW[r]: squares in rows strictly below row r (r = 0 is the terrace).
BELOW = [sum(ROW_MASK[r2] for r2 in range(r + 1, N_ROWS + 1)) for r in range(N_ROWS + 1)]
NEIGHBOURS = [
    ((1 << (s + N_COLS)) if s + N_COLS < N_SQUARES else 0)
    | ((1 << (s - N_COLS)) if s >= N_COLS else 0)
    | ((1 << (s + 1)) if col_of(s) < N_COLS - 1 else 0)
    | ((1 << (s - 1)) if col_of(s) > 0 else 0)
    for s in range(N_SQUARES)
]
# NOBLE_ZONE[c][r]: where the noble of column c standing in row r may end.
NOBLE_ZONE = [[COL_MASK[c] & BELOW[r] for r in range(N_ROWS + 1)] for c in range(N_COLS)]


def flood(seed: int, occupied: int) -> int:
    """Grow `seed` through orthogonally adjacent squares of `occupied`."""
    while True:
        grown = (
            seed
            | (seed << N_COLS)
            | (seed >> N_COLS)
            | ((seed & NOT_LAST_COL) << 1)
            | ((seed & NOT_FIRST_COL) >> 1)
        ) & occupied
        if grown == seed:
            return seed
        seed = grown


def bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
