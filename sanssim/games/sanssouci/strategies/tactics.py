"""Garden arithmetic shared by the built-in strategies, on the engine's bit masks.

Everything here reads a `PlayerView` only. A TAKE decision is judged by its
consequence: where the tile lands (its free target, or the squares a gardener
may go to), computed here without cloning the state.
"""

from __future__ import annotations

from sanssim.games.sanssouci.actions import DISCARD, ROUNDS
from sanssim.games.sanssouci.components import N_COLS
from sanssim.games.sanssouci.garden import (
    COL_MASK,
    FULL,
    N_SQUARES,
    NEIGHBOURS,
    NOBLE_ZONE,
    ROW_MASK,
    flood,
)
from sanssim.games.sanssouci.view import PlayerView

ROW_OF = tuple(sq // N_COLS + 1 for sq in range(N_SQUARES))
COL_OF = tuple(sq % N_COLS for sq in range(N_SQUARES))
ROW_LINE = tuple(ROW_MASK[ROW_OF[sq]] for sq in range(N_SQUARES))
COL_LINE = tuple(COL_MASK[COL_OF[sq]] for sq in range(N_SQUARES))


def row_sum(mask: int, points: tuple[int, ...] | None = None) -> int:
    """Sum of the row values of the squares in `mask` (what nobles would score there), or of
    `points[row]` (what a mission would pay there, by the game's mission table)."""
    total = 0
    while mask:
        low = mask & -mask
        row = ROW_OF[low.bit_length() - 1]
        total += row if points is None else points[row]
        mask ^= low
    return total


def deepest_row(mask: int) -> int:
    """Row of the lowest square in `mask` (0 for an empty mask)."""
    return ROW_OF[mask.bit_length() - 1] if mask else 0


def noble_zone(rows: tuple[int, ...]) -> int:
    """Squares where some noble could still end a move (below it, in its column)."""
    zone = 0
    for col, row in enumerate(rows):
        zone |= NOBLE_ZONE[col][row]
    return zone


class Garden:
    """One seat's garden as masks, plus the lookups a placement needs.

    Built once per decision from the view; `landing` and `new_reach` answer
    "where does this tile go" and "what does it connect to row 1" in a few
    integer operations each.
    """

    __slots__ = ("occupied", "gardeners", "reach", "rows", "zone", "land", "gard", "seat", "view")

    def __init__(self, view: PlayerView, seat: int) -> None:
        self.view = view
        self.seat = seat
        self.occupied = view.occupied(seat)
        self.gardeners = view.gardeners(seat)
        self.reach = view.reach(seat)
        self.rows = view.noble_rows(seat)
        self.zone = noble_zone(self.rows)
        self.land, self.gard = view.expansion_marks(seat)

    def options(self) -> int:
        """Squares a noble may move to now: reachable, no gardener, below it in its column."""
        return self.reach & ~self.gardeners & self.zone

    def landing(self, slot: int, symbol: int) -> tuple[int, int]:
        """(square, gardener spots): the free target and 0, or -1 and where a gardener may go."""
        target = self.view.target(self.seat, slot, symbol)
        if not self.occupied >> target & 1:
            return target, 0
        free = ~self.occupied & FULL
        return -1, free & (ROW_LINE[target] | COL_LINE[target]) or free

    def marks(self, sq: int, gardener: bool) -> int:
        """Expansion points paid at once for a tile placed on `sq`."""
        marks = self.gard if gardener else self.land
        return marks[sq] if marks is not None else 0

    def new_reach(self, sq: int) -> int:
        """Squares that join the group connected to row 1 when `sq` is filled."""
        if not NEIGHBOURS[sq] & self.reach:
            return 0
        bit = 1 << sq
        return flood(self.reach | bit, self.occupied | bit) & ~self.reach


def take_slot(action: int) -> int:
    """Display slot a TAKE action takes from (-1 for a discard)."""
    return -1 if action >= DISCARD else action % 10


def turns_left(view: PlayerView) -> int:
    """Turns the view's seat still starts, the current one included if it is its own."""
    n = view.n_players
    first = view.turn + (view.seat - view.turn) % n
    total = ROUNDS * n
    return 0 if first >= total else (total - 1 - first) // n + 1
