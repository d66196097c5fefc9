"""Sanssouci's log tables: finished games to rows, rows back to games.

The columns are the run format of `docs/run-format.md`; `replay` re-applies a
logged game's choices through the engine for `show` and checks every turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from operator import attrgetter
from typing import Any

import numpy as np
import polars as pl

from sanssim.compiled.frames import coded, coded_lists, lists
from sanssim.errors import SanssimError
from sanssim.games.logs import check_turn_rows
from sanssim.games.sanssouci import (
    DISCARD,
    PASS,
    PLACE,
    SIDE,
    SYMBOLS,
    TAKE,
    IllegalActionError,
    State,
)
from sanssim.games.sanssouci.engine import EMPTY, N_COLS, N_SLOTS, Game, square

GAME = "sanssouci"
# The results columns that add up to `total`.
SOURCES = ("noble_points", "expansion_points", "row_bonus", "column_bonus", "mission_points")

RESULT_SCHEMA: dict[str, pl.DataType] = {
    "run_id": pl.String(),
    "game": pl.String(),
    "game_id": pl.Int64(),
    "game_seed": pl.Int64(),
    "n_players": pl.Int8(),
    "expansion": pl.Boolean(),
    "duplicate_reshuffle": pl.Boolean(),
    "tile_set": pl.String(),
    "seat": pl.Int8(),
    "strategy": pl.String(),
    "garden_side": pl.String(),
    "expansion_side": pl.String(),
    "mission_a": pl.String(),
    "mission_b": pl.String(),
    "noble_points": pl.Int16(),
    "expansion_points": pl.Int16(),
    "row_bonus": pl.Int16(),
    "column_bonus": pl.Int16(),
    "mission_points": pl.Int16(),
    "total": pl.Int16(),
    "gardeners": pl.Int8(),
    "rows_completed": pl.Int8(),
    "columns_completed": pl.Int8(),
    "noble_rows": pl.List(pl.Int8()),
    "rank": pl.Int8(),
    "winner": pl.Boolean(),
    "reshuffles": pl.Int16(),
    "handicap_points": pl.Int16(),
}

TURN_SCHEMA: dict[str, pl.DataType] = {
    "run_id": pl.String(),
    "game_id": pl.Int64(),
    "turn": pl.Int16(),
    "round": pl.Int8(),
    "seat": pl.Int8(),
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
    "score": pl.Int16(),
    "reshuffles": pl.Int8(),
    "supply_left": pl.Int16(),
}

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


def result_frame(
    run_id: str, game: Game, strategies: Sequence[str], finished: list[tuple[int, int, State]]
) -> pl.DataFrame:
    """One row per (game, seat)."""
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
    ids = np.array([(game_id, seed) for game_id, seed, _ in finished], dtype=np.int64)
    return result_frame_from_values(run_id, game, strategies, ids.reshape(-1, 2), table)


def result_frame_from_values(
    run_id: str, game: Game, strategies: Sequence[str], ids: np.ndarray, values: np.ndarray
) -> pl.DataFrame:
    """The results frame of games `ids` ((game_id, game_seed) rows) from their `values`
    (one row per (game, seat), the columns of `RESULT_VALUES` then the noble rows)."""
    config = game.config
    comps = game.components
    n = game.n_players
    rows = values.shape[0]
    column = {name: values[:, i] for i, name in enumerate(RESULT_VALUES)}
    sides = [s.id for s in comps.garden_sides]
    expansions = [e.id for e in comps.expansion_sides]
    series = {
        "run_id": pl.repeat(run_id, rows, dtype=pl.String, eager=True),
        "game": pl.repeat(GAME, rows, dtype=pl.String, eager=True),
        "game_id": np.repeat(ids[:, 0], n),
        "game_seed": np.repeat(ids[:, 1], n),
        "n_players": pl.repeat(n, rows, dtype=pl.Int8, eager=True),
        "expansion": pl.repeat(config.expansion, rows, dtype=pl.Boolean, eager=True),
        "duplicate_reshuffle": pl.repeat(
            config.duplicate_reshuffle, rows, dtype=pl.Boolean, eager=True
        ),
        "tile_set": pl.repeat(config.resolved_tile_set, rows, dtype=pl.String, eager=True),
        "seat": np.tile(np.arange(n), rows // n if n else 0),
        "strategy": pl.Series(list(strategies) * (rows // n), dtype=pl.String),
        "garden_side": coded(column["garden_side"], sides),
        "expansion_side": coded(column["expansion_side"], expansions),
        "mission_a": coded(column["mission_a"], SYMBOLS),
        "mission_b": coded(column["mission_b"], SYMBOLS),
        "noble_rows": lists(values[:, NOBLE_ROWS_AT:], pl.Int8()),
        "winner": column["rank"] == 1,
    }
    for name in RESULT_VALUES[4:]:
        series.setdefault(name, column[name])
    return pl.DataFrame(
        {name: pl.Series(name, series[name]).cast(dtype) for name, dtype in RESULT_SCHEMA.items()}
    )


def turn_frame(run_id: str, game: Game, games: list[tuple[int, State]]) -> pl.DataFrame:
    """One row per turn, built column-wise: per-turn Python work is one tuple read."""
    records = []
    game_ids: list[int] = []
    for game_id, state in games:
        records.extend(map(_read_record, state.log))
        game_ids.extend([game_id] * len(state.log))
    columns = list(zip(*records, strict=True)) if records else [[] for _ in _READ_FIELDS]
    *columns, hand_col, display_col = columns
    hands = list(chain.from_iterable(h if len(h) == _HAND_WIDTH else (*h, EMPTY) for h in hand_col))
    displays = list(chain.from_iterable(display_col))
    return turn_frame_from_records(run_id, game, game_ids, columns, hands, displays)


def turn_frame_from_records(
    run_id: str,
    game: Game,
    game_ids: Sequence[int] | np.ndarray,
    columns: Sequence[Sequence[int] | np.ndarray],
    hands: Sequence[int] | np.ndarray,
    displays: Sequence[int] | np.ndarray,
) -> pl.DataFrame:
    """The turns frame from per-turn record values: `columns` in the order of the record
    fields (-1: none), each turn's hand padded to two cards and its display, flattened."""
    raw = pl.DataFrame(
        {
            name: pl.Series(name, col, dtype=pl.Int16)
            for name, col in zip(_RECORD_FIELDS, columns, strict=True)
        }
    )
    codes = [card.code for card in game.components.deck]
    hand = coded_lists(pl.Series(hands, dtype=pl.Int16), _HAND_WIDTH, codes)
    display = coded_lists(pl.Series(displays, dtype=pl.Int16), N_SLOTS, SYMBOLS)
    n = game.n_players

    def opt(name: str) -> pl.Expr:
        return pl.when(pl.col(name) >= 0).then(pl.col(name))

    def row(name: str) -> pl.Expr:
        return opt(name) // N_COLS + 1

    def col(name: str) -> pl.Expr:
        return opt(name) % N_COLS

    df = raw.select(
        pl.lit(run_id).alias("run_id"),
        pl.Series("game_id", game_ids, dtype=pl.Int64),
        pl.col("turn"),
        (pl.col("turn") // n + 1).alias("round"),
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
    return df.cast(TURN_SCHEMA)  # type: ignore[arg-type]


def _symbol_expr(expr: pl.Expr) -> pl.Expr:
    return expr.replace_strict(
        range(len(SYMBOLS)), list(SYMBOLS), default=None, return_dtype=pl.String
    )


def replay(
    game: Game, game_id: int, seed: int, expansion_sides: list[str | None], turns: pl.DataFrame
) -> State:
    """Re-apply a logged game's choices to a fresh deal and check every turn against the log.

    Raises SanssimError at the first turn where the engine and the log disagree.
    """
    comps = game.components
    state = game.new_state(seed, record=True)
    side_ids = [e.id for e in comps.expansion_sides]
    codes = [c.code for c in comps.deck]
    try:
        for side in expansion_sides:
            if state.phase == SIDE and side is not None:
                state.apply_action(side_ids.index(side))
        for logged in turns.sort("turn").iter_rows(named=True):
            while state.turn == logged["turn"] and not state.is_terminal():
                state.apply_action(_logged_choice(state, logged, codes))
    except (IllegalActionError, ValueError) as exc:
        raise SanssimError(f"game {game_id}: the log is not a legal game ({exc})") from None
    replayed = turn_frame(turns["run_id"][0], game, [(game_id, state)])
    check_turn_rows(game_id, replayed, turns.sort("turn"))
    if replayed.height != turns.height:
        raise SanssimError(
            f"game {game_id}: the log has {turns.height} turns, the engine {replayed.height}"
        )
    return state


def _logged_choice(state: State, logged: dict[str, Any], codes: list[str]) -> int:
    phase = state.phase
    if phase == TAKE:
        hand_index = [codes[c] for c in state.hands[state.current]].index(logged["card"])
        if logged["slot"] is None:
            return DISCARD + hand_index
        return hand_index * 10 + logged["slot"]
    if phase == PLACE:
        return square(logged["placed_row"], logged["placed_col"])
    if logged["noble_col"] is None:
        return PASS
    return square(logged["noble_to"], logged["noble_col"])
