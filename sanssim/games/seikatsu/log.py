"""Seikatsu's own log columns, on the shared log layer (`sanssim.games.logs`).

Columns and dtypes follow `docs/run-format.md`. They are built column-wise: the
turn records are transposed in one `zip`, and codes, spaces and teams are mapped
by polars, so the per-turn Python work is a tuple read and a hand padding. The
compiled core builds the same columns from its arrays through the same functions.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import Any

import numpy as np
import polars as pl

from sanssim.games.columns import fixed_lists
from sanssim.games.logs import OwnColumns
from sanssim.games.seikatsu.engine import EMPTY, Game, State, TurnRecord

RESULT_COLUMNS: dict[str, pl.DataType] = {
    "tournament": pl.Boolean(),
    "team": pl.Int8(),
    "pagoda": pl.String(),
    "start_tiles": pl.List(pl.String()),
    "koi_dealt": pl.Int8(),
    "bird_points": pl.Int16(),
    "own_bird_points": pl.Int16(),
    "flower_points": pl.Int16(),
    "row_points": pl.List(pl.Int8()),
    "koi_played": pl.Int8(),
}
RESULT_ORDER = (
    "run_id", "game", "game_id", "game_seed", "n_players", "tournament", "seat", "team",
    "pagoda", "strategy", "start_tiles", "koi_dealt", "bird_points", "own_bird_points",
    "flower_points", "row_points", "total", "rank", "winner", "koi_played",
)  # fmt: skip
TURN_COLUMNS: dict[str, pl.DataType] = {
    "team": pl.Int8(),
    "hand": pl.List(pl.String()),
    "koi_held": pl.Int8(),
    "tile": pl.String(),
    "q": pl.Int8(),
    "r": pl.Int8(),
    "koi_bird": pl.String(),
    "bird_points": pl.Int8(),
    "drawn": pl.String(),
    "bag_left": pl.Int16(),
}
TURN_ORDER = (
    "run_id", "game_id", "turn", "round", "seat", "team", "hand", "koi_held", "tile", "q",
    "r", "koi_bird", "bird_points", "drawn", "score", "bag_left",
)  # fmt: skip
TURN_FIELDS = tuple(f for f in TurnRecord._fields if f != "hand")
_HAND = TurnRecord._fields.index("hand")


def result_columns(game: Game, finished: list[tuple[int, int, State]]) -> dict[str, Any]:
    """The own results columns of finished (game_id, game_seed, final state)."""
    names = game.kind_names
    cols: dict[str, list[Any]] = {
        name: []
        for name in (
            "start_tiles", "bird_points", "own_bird_points", "flower_points", "row_points",
            "koi_played",
        )
    }  # fmt: skip
    side = game.side
    seats = range(game.n_players)
    for _, _, state in finished:
        side_rows = state.side_rows()
        flowers = [sum(rows) for rows in side_rows]
        cols["start_tiles"] += [names[k] for k in state.start_tiles] * game.n_players
        cols["bird_points"] += [state.side_score[side[s]] for s in seats]
        cols["own_bird_points"] += state.own_points
        cols["flower_points"] += [flowers[side[s]] for s in seats]
        cols["row_points"] += [points for s in seats for points in side_rows[side[s]]]
        cols["koi_played"] += state.koi_played
    return seat_columns(game, len(finished), cols)


def seat_columns(game: Game, games: int, cols: dict[str, Any]) -> dict[str, Any]:
    """The own results columns from each game's scores (one entry per (game, seat), the
    start tiles and row points flat) and the configuration's; shared with the compiled
    core, which gives arrays."""
    comps = game.components
    n = game.n_players
    teams = game.n_sides < n
    cols = dict(cols)
    cols["tournament"] = [game.config.tournament] * n * games
    cols["team"] = [game.side[s] if teams else None for s in range(n)] * games
    cols["pagoda"] = [comps.pagodas[p].name for p in game.seat_pagoda] * games
    cols["koi_dealt"] = list(game.koi_dealt) * games
    cols["start_tiles"] = fixed_lists(cols["start_tiles"], len(game.starts), pl.String())
    cols["row_points"] = fixed_lists(cols["row_points"], len(game.rows[0]), pl.Int8())
    return cols


def turn_columns(game: Game, games: list[tuple[int, State]]) -> dict[str, Any]:
    """Each turn's columns from the states' logs (recorded games), built column-wise."""
    records: list[TurnRecord] = []
    game_ids: list[int] = []
    for game_id, state in games:
        records.extend(state.log)
        game_ids.extend([game_id] * len(state.log))
    if not records:
        return {name: [] for name in ("game_id", *TURN_ORDER)}
    columns = list(zip(*records, strict=True))
    hands = columns.pop(_HAND)
    width = max(map(len, hands)) or 1
    pads = [(EMPTY,) * k for k in range(width + 1)]
    flat = list(chain.from_iterable(h + pads[width - len(h)] for h in hands))
    raw = pl.DataFrame(
        {
            name: pl.Series(name, col, dtype=pl.Int16)
            for name, col in zip(TURN_FIELDS, columns, strict=True)
        }
    )
    return named_turn_columns(game, raw, game_ids, flat, width)


def named_turn_columns(
    game: Game,
    raw: pl.DataFrame,
    game_ids: Sequence[int] | np.ndarray,
    hands: Sequence[int] | np.ndarray,
    width: int,
) -> dict[str, Any]:
    """The turn columns from the records' int columns (`TURN_FIELDS`, Int16), each row's
    game id and its hand in `width` slots, the empty ones at the end, -1; shared with the
    compiled core."""
    kinds = list(game.kind_names)
    n = game.n_players
    slots = np.asarray(hands, dtype=np.int16).reshape(-1, width)
    held = pl.DataFrame(
        {
            "hand": _named(pl.Series(slots.ravel()), kinds, pl.String()).reshape((-1, width)),
            "size": (slots >= 0).sum(axis=1),
        }
    )
    hand = held.select(pl.col("hand").cast(pl.List(pl.String)).list.head(pl.col("size")))
    if game.n_sides < n:
        team = raw["seat"].replace_strict(range(n), list(game.side), return_dtype=pl.Int8)
    else:
        team = pl.Series([None] * raw.height, dtype=pl.Int8)
    return {
        "game_id": game_ids,
        **{name: raw[name] for name in ("turn", "seat", "koi_held", "bird_points", "score")},
        "bag_left": raw["bag_left"],
        "team": team,
        "hand": hand["hand"],
        "tile": _named(raw["tile"], kinds, pl.String()),
        "q": _named(raw["cell"], [q for q, _ in game.cells], pl.Int8()),
        "r": _named(raw["cell"], [r for _, r in game.cells], pl.Int8()),
        "koi_bird": _named(raw["koi_bird"], list(game.components.birds), pl.String()),
        "drawn": _named(raw["drawn"], kinds, pl.String()),
    }


def _named(codes: pl.Series, values: list[Any], dtype: pl.DataType) -> pl.Series:
    """`values[code]` for each code, null for -1 (a gather: several times a replace's speed)."""
    lookup = pl.Series([*values, None], dtype=dtype)
    index = codes.to_numpy()
    return lookup.gather(np.where(index < 0, len(values), index).astype(np.uint32))


COLUMNS = OwnColumns(
    RESULT_COLUMNS, TURN_COLUMNS, result_columns, turn_columns, RESULT_ORDER, TURN_ORDER
)
