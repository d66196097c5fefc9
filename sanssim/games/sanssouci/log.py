"""Sanssouci's own log columns, on the shared log layer (`sanssim.games.logs`).

The columns are the run format of `docs/run-format.md`, built column-wise: the
per-turn Python work is one tuple read. The compiled core builds the same columns
from its arrays through the same functions.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from operator import attrgetter
from typing import Any

import numpy as np
import polars as pl

from sanssim.compiled.frames import coded, coded_lists, lists
from sanssim.games.logs import OwnColumns
from sanssim.games.sanssouci import SYMBOLS, State
from sanssim.games.sanssouci.actions import EMPTY, N_SLOTS
from sanssim.games.sanssouci.components import N_COLS
from sanssim.games.sanssouci.engine import Game

# The results columns that add up to `total`.
SOURCES = ("noble_points", "expansion_points", "row_bonus", "column_bonus", "mission_points")

RESULT_COLUMNS: dict[str, pl.DataType] = {
    "expansion": pl.Boolean(),
    "duplicate_reshuffle": pl.Boolean(),
    "tile_set": pl.String(),
    "garden_side": pl.String(),
    "expansion_side": pl.String(),
    "mission_a": pl.String(),
    "mission_b": pl.String(),
    "noble_points": pl.Int16(),
    "expansion_points": pl.Int16(),
    "row_bonus": pl.Int16(),
    "column_bonus": pl.Int16(),
    "mission_points": pl.Int16(),
    "gardeners": pl.Int8(),
    "rows_completed": pl.Int8(),
    "columns_completed": pl.Int8(),
    "noble_rows": pl.List(pl.Int8()),
    "reshuffles": pl.Int16(),
    "handicap_points": pl.Int16(),
}
RESULT_ORDER = (
    "run_id", "game", "game_id", "game_seed", "n_players", "expansion", "duplicate_reshuffle",
    "tile_set", "seat", "strategy", "garden_side", "expansion_side", "mission_a", "mission_b",
    "noble_points", "expansion_points", "row_bonus", "column_bonus", "mission_points", "total",
    "gardeners", "rows_completed", "columns_completed", "noble_rows", "rank", "winner",
    "reshuffles", "handicap_points",
)  # fmt: skip
TURN_COLUMNS: dict[str, pl.DataType] = {
    "hand": pl.List(pl.String()),
    "card": pl.String(),
    "card_wild": pl.Boolean(),
    "display": pl.List(pl.String()),
    "slot": pl.Int8(),
    "tile": pl.String(),
    "target_row": pl.Int8(),
    "target_col": pl.Int8(),
    "placed_row": pl.Int8(),
    "placed_col": pl.Int8(),
    "gardener": pl.Boolean(),
    "expansion_points": pl.Int8(),
    "noble_col": pl.Int8(),
    "noble_from": pl.Int8(),
    "noble_to": pl.Int8(),
    "noble_points": pl.Int8(),
    "reshuffles": pl.Int8(),
    "supply_left": pl.Int16(),
}
TURN_ORDER = (
    "run_id", "game_id", "turn", "round", "seat", "hand", "card", "card_wild", "display",
    "slot", "tile", "target_row", "target_col", "placed_row", "placed_col", "gardener",
    "expansion_points", "noble_col", "noble_from", "noble_to", "noble_points", "score",
    "reshuffles", "supply_left",
)  # fmt: skip

# TurnRecord fields read in one C-level call per turn; -1 means "none" in each.
_RECORD_FIELDS = (
    "turn",
    "seat",
    "card",
    "card_wild",
    "slot",
    "tile",
    "target",
    "placed",
    "gardener",
    "expansion_points",
    "noble_col",
    "noble_from",
    "noble_to",
    "noble_points",
    "score",
    "reshuffles",
    "supply_left",
)
_READ_FIELDS = (*_RECORD_FIELDS, "hand", "display")
_read_record = attrgetter(*_READ_FIELDS)
_HAND_WIDTH = 2


# A results row's integer values, as the compiled core also gives them: the garden side,
# expansion side (-1: none) and missions by index, the breakdown, then the nine noble rows.
RESULT_VALUES = (
    "garden_side",
    "expansion_side",
    "mission_a",
    "mission_b",
    "noble_points",
    "expansion_points",
    "row_bonus",
    "column_bonus",
    "mission_points",
    "total",
    "gardeners",
    "rows_completed",
    "columns_completed",
    "rank",
    "reshuffles",
    "handicap_points",
)
NOBLE_ROWS_AT = len(RESULT_VALUES)


def result_columns(game: Game, finished: list[tuple[int, int, State]]) -> dict[str, Any]:
    """The own results columns of finished (game_id, game_seed, final state)."""
    values = []
    for _game_id, _seed, state in finished:
        ranks = state.ranks()
        for seat in range(state.n):
            b = state.breakdown(seat)
            values.append(
                (
                    state.setup[seat].garden,
                    state.exp_side[seat],
                    *state.missions[seat],
                    b.noble_points,
                    b.expansion_points,
                    b.row_bonus,
                    b.column_bonus,
                    b.mission_points,
                    b.total,
                    b.gardeners,
                    b.rows_completed,
                    b.columns_completed,
                    ranks[seat],
                    state.reshuffles,
                    b.handicap_points,
                    *b.noble_rows,
                )
            )
    table = np.array(values, dtype=np.int64).reshape(-1, NOBLE_ROWS_AT + N_COLS)
    own = seat_columns(game, table)
    del own["total"], own["rank"]  # the shared layer's, from `returns()` and `ranks()`
    return own


def seat_columns(game: Game, values: np.ndarray) -> dict[str, Any]:
    """The own results columns, with `total` and `rank`, from their `values` (one row per
    (game, seat), the columns of `RESULT_VALUES` then the noble rows); shared with the
    compiled core."""
    config = game.config
    comps = game.components
    rows = values.shape[0]
    column = {name: values[:, i] for i, name in enumerate(RESULT_VALUES)}
    sides = [s.id for s in comps.garden_sides]
    expansions = [e.id for e in comps.expansion_sides]
    series = {
        "expansion": np.full(rows, config.expansion),
        "duplicate_reshuffle": np.full(rows, config.duplicate_reshuffle),
        "tile_set": pl.repeat(config.resolved_tile_set, rows, dtype=pl.String, eager=True),
        "garden_side": coded(column["garden_side"], sides),
        "expansion_side": coded(column["expansion_side"], expansions),
        "mission_a": coded(column["mission_a"], SYMBOLS),
        "mission_b": coded(column["mission_b"], SYMBOLS),
        "noble_rows": lists(values[:, NOBLE_ROWS_AT:], pl.Int8()),
    }
    for name in RESULT_VALUES[4:]:
        series.setdefault(name, column[name])
    return series


def turn_columns(game: Game, games: list[tuple[int, State]]) -> dict[str, Any]:
    """Each turn's columns, built column-wise: per-turn Python work is one tuple read."""
    records = []
    game_ids: list[int] = []
    for game_id, state in games:
        records.extend(map(_read_record, state.log))
        game_ids.extend([game_id] * len(state.log))
    columns = list(zip(*records, strict=True)) if records else [[] for _ in _READ_FIELDS]
    *columns, hand_col, display_col = columns
    hands = list(chain.from_iterable(h if len(h) == _HAND_WIDTH else (*h, EMPTY) for h in hand_col))
    displays = list(chain.from_iterable(display_col))
    return record_columns(game, game_ids, columns, hands, displays)


def record_columns(
    game: Game,
    game_ids: Sequence[int] | np.ndarray,
    columns: Sequence[Sequence[int] | np.ndarray],
    hands: Sequence[int] | np.ndarray,
    displays: Sequence[int] | np.ndarray,
) -> dict[str, Any]:
    """The turn columns from per-turn record values: `columns` in the order of the record
    fields (-1: none), each turn's hand padded to two cards and its display, flattened;
    shared with the compiled core."""
    raw = pl.DataFrame(
        {
            name: pl.Series(name, col, dtype=pl.Int16)
            for name, col in zip(_RECORD_FIELDS, columns, strict=True)
        }
    )
    codes = [card.code for card in game.components.deck]
    hand = coded_lists(pl.Series(hands, dtype=pl.Int16), _HAND_WIDTH, codes)
    display = coded_lists(pl.Series(displays, dtype=pl.Int16), N_SLOTS, SYMBOLS)

    def opt(name: str) -> pl.Expr:
        return pl.when(pl.col(name) >= 0).then(pl.col(name))

    def row(name: str) -> pl.Expr:
        return opt(name) // N_COLS + 1

    def col(name: str) -> pl.Expr:
        return opt(name) % N_COLS

    df = raw.select(
        pl.col("turn"),
        pl.col("seat"),
        hand.list.drop_nulls().alias("hand"),
        pl.col("card").replace_strict(range(len(codes)), codes, return_dtype=pl.String),
        pl.col("card_wild") == 1,
        display.alias("display"),
        opt("slot").alias("slot"),
        _symbol_expr(opt("tile")).alias("tile"),
        row("target").alias("target_row"),
        col("target").alias("target_col"),
        row("placed").alias("placed_row"),
        col("placed").alias("placed_col"),
        pl.col("gardener") == 1,
        pl.col("expansion_points"),
        opt("noble_col").alias("noble_col"),
        opt("noble_from").alias("noble_from"),
        opt("noble_to").alias("noble_to"),
        pl.col("noble_points"),
        pl.col("score"),
        pl.col("reshuffles"),
        pl.col("supply_left"),
    )
    return {"game_id": pl.Series(game_ids, dtype=pl.Int64), **df.to_dict()}


def _symbol_expr(expr: pl.Expr) -> pl.Expr:
    return expr.replace_strict(
        range(len(SYMBOLS)), list(SYMBOLS), default=None, return_dtype=pl.String
    )


COLUMNS = OwnColumns(
    RESULT_COLUMNS, TURN_COLUMNS, result_columns, turn_columns, RESULT_ORDER, TURN_ORDER
)
