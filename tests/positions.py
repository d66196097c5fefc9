"""Helpers to hand-build Sanssouci positions and component files for the tests.

A test deals a real game with `deal`, then overwrites the fields the rule
under test is about with `set_position`, which recomputes every derived field
(reach, noble zones, display indexes, gardener counts) and the legal choices,
so the engine sees a position it could have reached by play.
"""

from __future__ import annotations

import copy
import json
import tomllib
from collections.abc import Iterable, Sequence
from importlib import resources
from typing import Any

from sanssim.games.sanssouci import SYMBOLS, Components, Game, GameConfig, State
from sanssim.games.sanssouci.actions import EMPTY
from sanssim.games.sanssouci.components import N_COLS
from sanssim.games.sanssouci.data import parse_components
from sanssim.games.sanssouci.garden import BELOW, COL_MASK, ROW_MASK, flood, square

COLOUR_SLOT = {"white": 0, "gray": 2, "orange": 4, "fuchsia": 6, "turquoise": 8}


def sym(name: str) -> int:
    """Symbol index of a symbol name."""
    return SYMBOLS.index(name)


def mask(squares: Iterable[tuple[int, int]]) -> int:
    """Bit mask of (row, col) squares."""
    return sum(1 << square(r, c) for r, c in set(squares))


def row_squares(row: int) -> list[tuple[int, int]]:
    return [(row, c) for c in range(N_COLS)]


def col_squares(col: int, rows: Iterable[int]) -> list[tuple[int, int]]:
    return [(r, col) for r in rows]


def deal(
    n_players: int = 2,
    seed: int = 0,
    components: Components | None = None,
    record: bool = False,
    **config: Any,
) -> State:
    """A freshly dealt state; by default every seat plays garden side 1A."""
    config.setdefault("garden_sides", ("1A",))
    game = Game(GameConfig(n_players=n_players, **config), components)
    return game.new_state(seed, record)


def card(state: State, code: str) -> int:
    """Card id of a card code such as 'pair:white+gray' or 'symbol:statue'."""
    return [c.code for c in state.game.components.deck].index(code)


def set_position(
    state: State,
    *,
    display: Sequence[int | str | None] | None = None,
    supply: Sequence[int] | None = None,
    hands: dict[int, Sequence[str]] | None = None,
    tiles: dict[int, Iterable[tuple[int, int]]] | None = None,
    gardeners: dict[int, Iterable[tuple[int, int]]] | None = None,
    nobles: dict[int, dict[int, int]] | None = None,
    missions: dict[int, tuple[str, str]] | None = None,
) -> State:
    """Overwrite parts of a state at the start of a turn and make it consistent.

    `display` gives 10 symbols (names, ints, or None for an empty square);
    `hands` card codes per seat (the rest of the unplayed cards become the deck);
    `tiles`/`gardeners` the squares placed in a seat's garden besides its
    pre-printed ones; `nobles` {column: row} per seat; `missions` symbol names.
    """
    if display is not None:
        state.display = [
            EMPTY if s is None else sym(s) if isinstance(s, str) else s for s in display
        ]
    if supply is not None:
        state.supply = list(supply)
    for seat, codes in (hands or {}).items():
        ids = [card(state, c) for c in codes]
        rest = [c for c in state.decks[seat] + state.hands[seat] if c not in ids]
        state.hands[seat] = ids
        state.decks[seat] = [c for c in rest if c not in state.played[seat]]
    if tiles is not None or gardeners is not None:
        for seat in range(state.n):
            land = mask((tiles or {}).get(seat, ()))
            gard = mask((gardeners or {}).get(seat, ()))
            state.occupied[seat] = state.setup[seat].preprinted | land | gard
            state.gardeners[seat] = gard
            state.n_gardeners[seat] = gard.bit_count()
    for seat, rows in (nobles or {}).items():
        for col, row in rows.items():
            state.noble_rows[seat][col] = row
    for seat, pair in (missions or {}).items():
        missions_now = list(state.missions)
        missions_now[seat] = (sym(pair[0]), sym(pair[1]))
        state.missions = missions_now
    refresh(state)
    return state


def refresh(state: State) -> None:
    """Recompute derived fields from the primary ones and restart the turn."""
    state.slot_of_symbol = [0] * len(SYMBOLS)
    state.filled = 0
    for slot, symbol in enumerate(state.display):
        if symbol != EMPTY:
            state.slot_of_symbol[symbol] |= 1 << slot
            state.filled |= 1 << slot
    state.reach = [flood(ROW_MASK[1], occ) for occ in state.occupied]
    state.noble_zone = [
        sum(COL_MASK[c] & BELOW[rows[c]] for c in range(N_COLS)) for rows in state.noble_rows
    ]
    state._start_turn()


def default_data() -> dict[str, Any]:
    """The packaged component file as a fresh, mutable dict."""
    text = resources.files("sanssim.games.sanssouci").joinpath("components.toml").read_text("utf-8")
    return copy.deepcopy(tomllib.loads(text))


def _value(v: Any) -> str:
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return json.dumps(v)
    return str(v)


def dump_toml(data: dict[str, Any]) -> str:
    """TOML text for component data (scalars, tables, arrays of tables)."""
    lines = [f"{k} = {_value(v)}" for k, v in data.items() if not isinstance(v, dict | list)]
    lines += [
        f"{k} = {_value(v)}" for k, v in data.items() if isinstance(v, list) and not _tables(v)
    ]
    for key, value in data.items():
        if isinstance(value, dict):
            lines.append(f"[{key}]")
            lines += [f"{k} = {_value(v)}" for k, v in value.items()]
        elif isinstance(value, list) and _tables(value):
            for table in value:
                lines.append(f"[[{key}]]")
                lines += [f"{k} = {_value(v)}" for k, v in table.items()]
    return "\n".join(lines) + "\n"


def _tables(value: list[Any]) -> bool:
    return bool(value) and all(isinstance(v, dict) for v in value)


def components_with(**sides: dict[str, Any]) -> Components:
    """Default components with some garden sides' fields replaced, e.g.
    ``components_with(**{"1A": {"columns": [...]}})``."""
    data = default_data()
    for side in data["garden_side"]:
        side.update(sides.get(side["id"], {}))
    return parse_components(dump_toml(data), "test components")


def snapshot(state: State) -> tuple[Any, ...]:
    """Everything a state holds, chance included, as a comparable value."""
    return tuple(
        state.rng.getstate() if name == "rng" else copy.deepcopy(getattr(state, name))
        for name in State.__slots__
        if name != "game"
    )
