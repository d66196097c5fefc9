"""Splendor component data: the 90 development cards and 10 nobles, validated once on load.

Data format (the packaged default and a user's own copy alike): a DIRECTORY holding two
CSV files with a header row,

- ``cards.csv``: ``id,level,bonus,points,white,blue,green,red,black`` -- one row per
  card, ids 0, 1, 2, ... in row order, level 1-3, bonus one of the five gem colours,
  points >= 0, and the cost in gems of each colour (>= 0, at least one gem in all);
- ``nobles.csv``: ``id,points,white,blue,green,red,black`` -- one row per noble, ids in
  row order, points >= 0 and the bonuses required of each colour (>= 0, at least one).

`load_components()` returns the packaged default, which must also satisfy every
invariant of the rules file's section 1 (`standard_violations`). A user's directory is
checked for well-formed rows only: it may change the card and noble counts and values
(a variant deck), but it must keep three levels with at least one card each and at
least one noble; the run config's `nobles` option is checked against the noble count.
"""

from __future__ import annotations

import csv
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from sanssim.errors import ComponentError
from sanssim.games.components import read_component_file

COLOURS: tuple[str, ...] = ("white", "blue", "green", "red", "black")
TOKEN_NAMES: tuple[str, ...] = (*COLOURS, "gold")
LEVELS: tuple[int, ...] = (1, 2, 3)
# Bounds on component data (the printed game stays far below them): larger values are
# no game the rules can play, and the engine's lookup tables grow with them.
MAX_COST = 30  # gems of one colour a card may cost
MAX_POINTS = 99  # prestige points of a card or a noble
MAX_REQUIREMENT = 90  # bonuses of one colour a noble may need (there are 90 cards)
CARD_FIELDS: tuple[str, ...] = ("id", "level", "bonus", "points", *COLOURS)
NOBLE_FIELDS: tuple[str, ...] = ("id", "points", *COLOURS)
CARDS_FILE, NOBLES_FILE = "cards.csv", "nobles.csv"


@dataclass(frozen=True, slots=True)
class Card:
    """A development card; `bonus` is a colour index, `cost` five gem counts."""

    id: int
    level: int
    bonus: int
    points: int
    cost: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Noble:
    """A noble: visits a player whose bonuses reach `requirement` in every colour."""

    id: int
    points: int
    requirement: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Components:
    cards: tuple[Card, ...]
    nobles: tuple[Noble, ...]

    def to_dict(self) -> dict[str, Any]:
        """The manifest `components` layout of the run-format spec."""
        return {
            "colours": list(COLOURS),
            "cards": [
                {
                    "id": c.id,
                    "level": c.level,
                    "bonus": COLOURS[c.bonus],
                    "points": c.points,
                    "cost": dict(zip(COLOURS, c.cost, strict=True)),
                }
                for c in self.cards
            ],
            "nobles": [
                {
                    "id": n.id,
                    "points": n.points,
                    "requirement": dict(zip(COLOURS, n.requirement, strict=True)),
                }
                for n in self.nobles
            ],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Components:
        """Rebuild from `to_dict` output (a run's manifest), validated like a data file."""
        if not isinstance(data, dict):
            raise ComponentError("component data must be an object")
        if data.get("colours") != list(COLOURS):
            raise ComponentError(f"components: colours must be {list(COLOURS)}")
        cards, nobles = data.get("cards"), data.get("nobles")
        if not isinstance(cards, list) or not isinstance(nobles, list):
            raise ComponentError("components: need lists 'cards' and 'nobles'")
        card_rows = [_flatten(f"card #{i}", c, "cost") for i, c in enumerate(cards)]
        noble_rows = [_flatten(f"noble #{i}", n, "requirement") for i, n in enumerate(nobles)]
        return _build(card_rows, noble_rows, "manifest")

    from_manifest = from_dict

    def level_cards(self, level: int) -> tuple[int, ...]:
        return tuple(c.id for c in self.cards if c.level == level)


def _flatten(where: str, raw: Any, vector: str) -> dict[str, Any]:
    if not isinstance(raw, dict) or not isinstance(raw.get(vector), dict):
        raise ComponentError(f"components {where}: must be an object with a '{vector}' object")
    flat = {k: v for k, v in raw.items() if k != vector}
    flat.update(raw[vector])
    return flat


def _int(where: str, row: dict[str, Any], field: str, low: int, high: int | None = None) -> int:
    value = row.get(field)
    if isinstance(value, str):
        value = value.strip()
        value = int(value) if value.lstrip("-").isdigit() else value
    if (
        not isinstance(value, int)
        or isinstance(value, bool)
        or value < low
        or (high is not None and value > high)
    ):
        bound = f"{low}-{high}" if high is not None else f">= {low}"
        raise ComponentError(f"{where}: field '{field}' must be an integer {bound}, got {value!r}")
    return value


def _build(
    card_rows: list[dict[str, Any]], noble_rows: list[dict[str, Any]], source: str
) -> Components:
    cards = []
    for i, row in enumerate(card_rows):
        where = f"{source} {CARDS_FILE} row {i + 1}"
        if _int(where, row, "id", 0) != i:
            raise ComponentError(f"{where}: field 'id' must be {i} (ids follow the row order)")
        level = _int(where, row, "level", 1, 3)
        bonus = row.get("bonus")
        bonus = bonus.strip() if isinstance(bonus, str) else bonus
        if bonus not in COLOURS:
            raise ComponentError(
                f"{where}: field 'bonus' must be one of {', '.join(COLOURS)}, got {bonus!r}"
            )
        points = _int(where, row, "points", 0, MAX_POINTS)
        cost = tuple(_int(where, row, c, 0, MAX_COST) for c in COLOURS)
        if not any(cost):
            raise ComponentError(f"{where}: the cost must be at least one gem")
        cards.append(Card(i, level, COLOURS.index(bonus), points, cost))
    nobles = []
    for i, row in enumerate(noble_rows):
        where = f"{source} {NOBLES_FILE} row {i + 1}"
        if _int(where, row, "id", 0) != i:
            raise ComponentError(f"{where}: field 'id' must be {i} (ids follow the row order)")
        points = _int(where, row, "points", 0, MAX_POINTS)
        requirement = tuple(_int(where, row, c, 0, MAX_REQUIREMENT) for c in COLOURS)
        if not any(requirement):
            raise ComponentError(f"{where}: the requirement must be at least one bonus")
        nobles.append(Noble(i, points, requirement))
    for level in LEVELS:
        if not any(c.level == level for c in cards):
            raise ComponentError(f"{source} {CARDS_FILE}: no card of level {level}")
    if not nobles:
        raise ComponentError(f"{source} {NOBLES_FILE}: no noble")
    return Components(tuple(cards), tuple(nobles))


def _read_csv(path: Path, fields: tuple[str, ...]) -> list[dict[str, Any]]:
    reader = csv.reader(read_component_file(path).splitlines())
    header = next(reader, None)
    if header is None or tuple(h.strip() for h in header) != fields:
        raise ComponentError(f"{path}: header must be {','.join(fields)}, got {header!r}")
    rows = []
    for n, values in enumerate(reader, start=1):
        if len(values) != len(fields):
            raise ComponentError(
                f"{path} row {n}: expected {len(fields)} fields, got {len(values)}"
            )
        rows.append(dict(zip(fields, values, strict=True)))
    return rows


def read_directory(path: str | Path) -> Components:
    """A directory holding cards.csv and nobles.csv, validated (row and field in errors)."""
    root = Path(path)
    if not root.is_dir():
        raise ComponentError(
            f"component data {root} must be a directory with {CARDS_FILE} and {NOBLES_FILE}"
        )
    return _build(
        _read_csv(root / CARDS_FILE, CARD_FIELDS),
        _read_csv(root / NOBLES_FILE, NOBLE_FIELDS),
        str(root),
    )


def load_components(path: str | Path | None = None) -> Components:
    """The packaged default (cached, checked against the rules' invariants) or a user's data."""
    if path is None:
        return default_components()
    return read_directory(path)


@lru_cache(maxsize=1)
def default_components() -> Components:
    comps = read_directory(Path(__file__).parent)
    problems = standard_violations(comps)
    if problems:
        raise ComponentError(f"packaged Splendor data: {problems[0]}")
    return comps


def standard_violations(comps: Components) -> list[str]:
    """Every way `comps` departs from the printed game (rules file, section 1)."""
    out = []
    expect_counts = {1: 40, 2: 30, 3: 20}
    expect_points = {1: {0: 35, 1: 5}, 2: {1: 10, 2: 15, 3: 5}, 3: {3: 5, 4: 10, 5: 5}}
    expect_need = {1: (20, 33), 2: (13, 41), 3: (10, 43)}
    for level in LEVELS:
        cards = [c for c in comps.cards if c.level == level]
        if len(cards) != expect_counts[level]:
            out.append(f"level {level} has {len(cards)} cards, expected {expect_counts[level]}")
        per_colour = expect_counts[level] // len(COLOURS)
        for b, name in enumerate(COLOURS):
            mine = [c for c in cards if c.bonus == b]
            if len(mine) != per_colour:
                out.append(f"level {level} has {len(mine)} {name} cards, expected {per_colour}")
            pattern = {p: k // len(COLOURS) for p, k in expect_points[level].items()}
            got = dict(Counter(c.points for c in mine))
            if got != pattern:
                out.append(f"level {level} {name} cards have points {got}, expected {pattern}")
            needing = sum(1 for c in cards if c.cost[b])
            gems = sum(c.cost[b] for c in cards)
            if (needing, gems) != expect_need[level]:
                out.append(
                    f"level {level}: {needing} cards need {name} for {gems} gems, "
                    f"expected {expect_need[level][0]} for {expect_need[level][1]}"
                )
    if len(comps.nobles) != 10:
        out.append(f"{len(comps.nobles)} nobles, expected 10")
    shapes = Counter(tuple(sorted(v for v in n.requirement if v)) for n in comps.nobles)
    if shapes != Counter({(4, 4): 5, (3, 3, 3): 5}):
        out.append(f"noble requirements {dict(shapes)}, expected 5 of 4+4 and 5 of 3+3+3")
    for n in comps.nobles:
        if n.points != 3:
            out.append(f"noble {n.id} is worth {n.points}, expected 3")
    for b, name in enumerate(COLOURS):
        fours = sum(1 for n in comps.nobles if n.requirement[b] == 4)
        threes = sum(1 for n in comps.nobles if n.requirement[b] == 3)
        if (fours, threes) != (2, 3):
            out.append(f"{name} is in {fours} 4+4 nobles and {threes} 3+3+3, expected 2 and 3")
    return out
