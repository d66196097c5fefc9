"""Seikatsu component data: the garden, pagodas, tiles and every rules assumption.

The data file has exactly the layout of the run manifest's `components` object
(`docs/run-format.md`), so one parser reads both. Each
malformed field is reported by a one-line `ComponentError` naming the field.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from sanssim.errors import ComponentError
from sanssim.games.components import packaged_text, parse_component_text, read_component_file

DEFAULT_FILE = "components.toml"
KOI = "koi"
AXES = ("q", "r", "s")
TIE_BREAKS = ("later_in_turn_order", "earlier_in_turn_order")
NEIGHBOUR_STEPS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

# Bounds on component data (the printed game stays far below them): a larger garden, more
# players or bigger scores are no game the engine's tables and the log's columns hold.
MAX_RADIUS = 6  # hexes from the centre to an edge (the printed garden: 3)
MAX_PLAYER_COUNT = 8
MAX_SET_POINTS = 99  # points for one row's set (the log keeps a row's points in a byte)

Cell = tuple[int, int]


def coordinate(cell: Cell, axis: str) -> int:
    """The value of `axis` (q, r or s = -q - r) at `cell`."""
    q, r = cell
    return q if axis == "q" else r if axis == "r" else -q - r


@dataclass(frozen=True, slots=True)
class Pagoda:
    """A pagoda: its rows are the lines of constant `axis`, numbered by that value."""

    name: str
    axis: str
    corner: Cell
    flower_space: Cell


@dataclass(frozen=True, slots=True)
class Components:
    """The fixed facts of the printed game; player counts are int keys."""

    radius: int
    pond: Cell
    cells: tuple[Cell, ...]
    pagodas: tuple[Pagoda, ...]
    start_spaces: dict[int, tuple[Cell, ...]]
    seat_pagodas: dict[int, tuple[str, ...]]
    teams: dict[int, tuple[int, ...]]
    birds: tuple[str, ...]
    flowers: tuple[str, ...]
    tiles: tuple[str, ...]
    set_points: tuple[int, ...]
    tournament_koi: dict[int, tuple[int, ...]]
    tie_break: str

    @property
    def player_counts(self) -> tuple[int, ...]:
        return tuple(sorted(self.start_spaces))

    @property
    def koi_count(self) -> int:
        return self.tiles.count(KOI)

    def pagoda(self, name: str) -> Pagoda:
        return next(p for p in self.pagodas if p.name == name)

    def to_dict(self) -> dict[str, Any]:
        """The manifest layout of the run-format spec."""
        return {
            "board": {
                "radius": self.radius,
                "pond": list(self.pond),
                "cells": [list(c) for c in self.cells],
            },
            "pagodas": {
                p.name: {
                    "axis": p.axis,
                    "corner": list(p.corner),
                    "flower_space": list(p.flower_space),
                }
                for p in self.pagodas
            },
            "start_spaces": {str(n): [list(c) for c in s] for n, s in self.start_spaces.items()},
            "seat_pagodas": {str(n): list(s) for n, s in self.seat_pagodas.items()},
            "teams": {str(n): list(t) for n, t in self.teams.items()},
            "birds": list(self.birds),
            "flowers": list(self.flowers),
            "tiles": list(self.tiles),
            "set_points": list(self.set_points),
            "tournament_koi": {str(n): list(k) for n, k in self.tournament_koi.items()},
            "tie_break": self.tie_break,
        }

    @classmethod
    def from_dict(cls, data: Any) -> Components:
        """Build and validate from the manifest layout (a data file or a manifest)."""
        if not isinstance(data, dict):
            raise ComponentError("component data must be a table")
        radius, pond, cells = _board(data.get("board"))
        pagodas = _pagodas(data.get("pagodas"), radius, pond, set(cells))
        starts = _per_count(data, "start_spaces", lambda n, v: _start_spaces(n, v, set(cells)))
        counts = set(starts)
        names = [p.name for p in pagodas]
        seat_pagodas = _per_count(data, "seat_pagodas", lambda n, v: _seat_pagodas(n, v, names))
        _same_counts("seat_pagodas", seat_pagodas, counts)
        teams = _per_count(data, "teams", _teams, allow_empty=True)
        if not set(teams) <= counts:
            raise ComponentError(f"teams: player counts {sorted(set(teams) - counts)} unknown")
        for n in sorted(counts):
            _check_sides(n, seat_pagodas[n], teams.get(n))
        birds = _names(data, "birds")
        flowers = _names(data, "flowers")
        tiles = _tiles(data.get("tiles"), birds, flowers, len(cells))
        koi = tiles.count(KOI)
        longest = max(max(Counter(coordinate(c, axis) for c in cells).values()) for axis in AXES)
        set_points = _set_points(data.get("set_points"), longest)
        tournament = _per_count(data, "tournament_koi", lambda n, v: _tournament(n, v, koi))
        _same_counts("tournament_koi", tournament, counts)
        for n in sorted(counts):
            _check_playable(n, len(cells), len(starts[n]), len(tiles) - koi, koi, tournament[n])
        tie_break = data.get("tie_break")
        if tie_break not in TIE_BREAKS:
            raise ComponentError(
                f"tie_break must be one of {', '.join(TIE_BREAKS)}, got {tie_break!r}"
            )
        return cls(
            radius, pond, cells, pagodas, starts, seat_pagodas, teams, birds, flowers, tiles,
            set_points, tournament, tie_break,
        )  # fmt: skip

    @classmethod
    def from_manifest(cls, data: Any) -> Components:
        """A run manifest's `components` object uses the data file's layout."""
        return cls.from_dict(data)


def load_components(path: str | Path | None = None) -> Components:
    """Read and validate a component data file (TOML, or JSON in the manifest layout);
    None means the packaged default."""
    if path is None:
        return default_components()
    return parse_components(read_component_file(path), str(path))


def parse_components(text: str, source: str = "<string>") -> Components:
    return parse_component_text(text, source, Components.from_dict, json_too=True)


@lru_cache(maxsize=1)
def default_components() -> Components:
    return parse_components(packaged_text(__package__, DEFAULT_FILE), DEFAULT_FILE)


# ---------------------------------------------------------------- field parsers


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _cell(value: Any, where: str) -> Cell:
    if not (isinstance(value, list | tuple) and len(value) == 2 and all(map(_is_int, value))):
        raise ComponentError(f"{where}: expected a [q, r] pair of integers, got {value!r}")
    return (value[0], value[1])


def _board(raw: Any) -> tuple[int, Cell, tuple[Cell, ...]]:
    if not isinstance(raw, dict):
        raise ComponentError("missing [board] table")
    radius = raw.get("radius")
    if not _is_int(radius) or not 1 <= radius <= MAX_RADIUS:
        raise ComponentError(f"board.radius must be an integer 1-{MAX_RADIUS}, got {radius!r}")
    pond = _cell(raw.get("pond"), "board.pond")
    if max(abs(pond[0]), abs(pond[1]), abs(pond[0] + pond[1])) >= radius:
        raise ComponentError(f"board.pond {list(pond)} must lie inside the board, off its edge")
    cells_raw = raw.get("cells")
    if not isinstance(cells_raw, list):
        raise ComponentError("board.cells must be a list of [q, r] pairs")
    cells = tuple(_cell(c, "board.cells") for c in cells_raw)
    dupes = [list(c) for c, k in Counter(cells).items() if k > 1]
    if dupes:
        raise ComponentError(f"board.cells lists {dupes[0]} twice")
    expected = {
        (q, r)
        for q in range(-radius, radius + 1)
        for r in range(-radius, radius + 1)
        if abs(q + r) <= radius
    } - {pond}
    if set(cells) != expected:
        wrong = sorted(set(cells) ^ expected)[0]
        what = "is not a space" if wrong in set(cells) else "is missing"
        raise ComponentError(
            f"board.cells must be every hex within radius {radius} except the pond: "
            f"{list(wrong)} {what}"
        )
    return radius, pond, cells


def _pagodas(raw: Any, radius: int, pond: Cell, cells: set[Cell]) -> tuple[Pagoda, ...]:
    if not isinstance(raw, dict) or not raw:
        raise ComponentError("missing [pagodas] table")
    out = []
    for name, spec in raw.items():
        where = f"pagodas.{name}"
        if not isinstance(spec, dict):
            raise ComponentError(f"{where} must be a table")
        axis = spec.get("axis")
        if axis not in AXES:
            raise ComponentError(f"{where}.axis must be one of q, r, s, got {axis!r}")
        middle = coordinate(pond, axis)
        corner = _cell(spec.get("corner"), f"{where}.corner")
        q, r = corner
        if (
            sorted(map(abs, (q, r, -q - r))) != [0, radius, radius]
            or coordinate(corner, axis) != middle
        ):
            raise ComponentError(
                f"{where}.corner {list(corner)} must be a board corner on the pagoda's middle row"
            )
        space = _cell(spec.get("flower_space"), f"{where}.flower_space")
        near_pond = {(pond[0] + dq, pond[1] + dr) for dq, dr in NEIGHBOUR_STEPS}
        if space not in near_pond or coordinate(space, axis) != middle or space not in cells:
            raise ComponentError(
                f"{where}.flower_space {list(space)} must be next to the pond on the "
                "pagoda's middle row"
            )
        out.append(Pagoda(str(name), axis, corner, space))
    axes = [p.axis for p in out]
    if len(set(axes)) != len(axes):
        raise ComponentError(f"pagodas must each have their own axis, got {axes}")
    return tuple(out)


def _per_count(
    data: dict[str, Any], key: str, parse: Any, allow_empty: bool = False
) -> dict[int, Any]:
    raw = data.get(key)
    if not isinstance(raw, dict) or (not raw and not allow_empty):
        raise ComponentError(f"missing [{key}] table (one entry per player count)")
    out = {}
    for text, value in raw.items():
        if not str(text).isdigit() or not 2 <= int(text) <= MAX_PLAYER_COUNT:
            raise ComponentError(
                f"{key}: player count must be an integer 2-{MAX_PLAYER_COUNT}, got {text!r}"
            )
        n = int(text)
        if not isinstance(value, list) or (len(value) != n and key != "start_spaces"):
            raise ComponentError(f"{key}.{n} must be a list of {n} entries, got {value!r}")
        out[n] = parse(n, value)
    return dict(sorted(out.items()))


def _same_counts(key: str, table: dict[int, Any], counts: set[int]) -> None:
    if set(table) != counts:
        raise ComponentError(
            f"{key} must give the player counts of start_spaces {sorted(counts)}, "
            f"got {sorted(table)}"
        )


def _start_spaces(n: int, value: list[Any], cells: set[Cell]) -> tuple[Cell, ...]:
    spaces = tuple(_cell(c, f"start_spaces.{n}") for c in value)
    if not spaces:
        raise ComponentError(f"start_spaces.{n} must list at least one space")
    for c in spaces:
        if c not in cells:
            raise ComponentError(f"start_spaces.{n}: {list(c)} is not a space of the board")
    if len(set(spaces)) != len(spaces):
        raise ComponentError(f"start_spaces.{n} lists a space twice")
    return spaces


def _seat_pagodas(n: int, value: list[Any], names: list[str]) -> tuple[str, ...]:
    for name in value:
        if name not in names:
            raise ComponentError(
                f"seat_pagodas.{n}: unknown pagoda {name!r} (known: {', '.join(names)})"
            )
    return tuple(value)


def _teams(n: int, value: list[Any]) -> tuple[int, ...]:
    if not all(_is_int(t) and 0 <= t < n for t in value):
        raise ComponentError(f"teams.{n} must give each seat a team number 0..{n - 1}")
    if sorted(set(value)) != list(range(len(set(value)))) or len(set(value)) < 2:
        raise ComponentError(f"teams.{n} must number at least two teams 0, 1, ... without gaps")
    return tuple(value)


def _check_sides(n: int, pagodas: tuple[str, ...], teams: tuple[int, ...] | None) -> None:
    """A side (a seat, or a team) scores from one pagoda that no other side uses."""
    sides = teams or tuple(range(n))
    owner: dict[str, int] = {}
    side_pagoda: dict[int, str] = {}
    for side, pagoda in zip(sides, pagodas, strict=True):
        if owner.setdefault(pagoda, side) != side or side_pagoda.setdefault(side, pagoda) != pagoda:
            raise ComponentError(
                f"seat_pagodas.{n}: each {'team' if teams else 'seat'} needs its own pagoda, "
                f"got {list(pagodas)}"
            )


def _names(data: dict[str, Any], key: str) -> tuple[str, ...]:
    raw = data.get(key)
    if (
        not isinstance(raw, list)
        or not raw
        or not all(isinstance(x, str) and x and ":" not in x and x != KOI for x in raw)
    ):
        raise ComponentError(f"{key} must be a non-empty list of names (no ':', not 'koi')")
    if len(set(raw)) != len(raw):
        raise ComponentError(f"{key} lists a name twice: {raw}")
    return tuple(raw)


def _tiles(
    raw: Any, birds: tuple[str, ...], flowers: tuple[str, ...], spaces: int
) -> tuple[str, ...]:
    if not isinstance(raw, list) or not all(isinstance(t, str) for t in raw):
        raise ComponentError("tiles must be a list of tile codes")
    for code in raw:
        bird, sep, flower = code.partition(":")
        if code != KOI and not (sep and bird in birds and flower in flowers):
            raise ComponentError(f"tiles: bad code {code!r} (expected '<bird>:<flower>' or 'koi')")
    if len(raw) != spaces:
        raise ComponentError(f"tiles must hold one tile per space ({spaces}), got {len(raw)}")
    return tuple(raw)


def _set_points(raw: Any, longest_row: int) -> tuple[int, ...]:
    size = longest_row + 1
    if (
        not isinstance(raw, list)
        or len(raw) != size
        or not all(_is_int(p) and 0 <= p <= MAX_SET_POINTS for p in raw)
    ):
        raise ComponentError(
            f"set_points must be {size} integers 0-{MAX_SET_POINTS} "
            f"(points for sets of 0..{longest_row}), got {_short(raw)}"
        )
    return tuple(raw)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _tournament(n: int, value: list[Any], koi: int) -> tuple[int, ...]:
    if not all(_is_int(k) and k >= 0 for k in value) or sum(value) != koi:
        raise ComponentError(
            f"tournament_koi.{n} must deal all {koi} koi as non-negative counts, got {value!r}"
        )
    return tuple(value)


def _check_playable(
    n: int, spaces: int, starts: int, garden: int, koi: int, dealt: tuple[int, ...]
) -> None:
    """Every seat holds a tile on each of its turns, in both modes, and the board fills.

    Counts only: seat s receives 2 tiles, its face-up koi, and a draw after
    each of its plays while the bag lasts (rules sections 2, 3 and 7).
    """
    turns = spaces - starts
    if turns % n:
        raise ComponentError(
            f"start_spaces.{n}: {turns} turns left after {starts} start tiles do not split "
            f"evenly among {n} players"
        )
    if garden - starts < 2 * n:
        raise ComponentError(f"start_spaces.{n}: too few garden tiles left to deal {n} hands")
    for mode, extra, bag in (
        ("standard", (0,) * n, garden - starts + koi - 2 * n),
        ("tournament", dealt, garden - starts - 2 * n),
    ):
        held = [2 + k for k in extra]
        for turn in range(turns):
            seat = turn % n
            if not held[seat]:
                raise ComponentError(
                    f"start_spaces.{n}: in the {mode} game seat {seat} has no tile on turn {turn}"
                )
            held[seat] += (turn < bag) - 1
