"""Splendor's own log columns, on the shared log layer (`sanssim.games.logs`).

Columns and dtypes follow `docs/run-format.md`. They are built column-wise: one
attribute read per turn, then whole-column polars work, so logging costs a small
fraction of playing. The compiled core builds the same columns from its arrays through
the same functions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import polars as pl

from sanssim.games.columns import block_lists, fixed_lists
from sanssim.games.logs import OwnColumns
from sanssim.games.splendor.actions import (
    ACTION_NAMES,
    END_REASONS,
    GOLD,
    MAX_RESERVED,
    N_GEMS,
    N_LEVELS,
    N_SLOTS,
    SOURCE_NAMES,
)
from sanssim.games.splendor.engine import Game, State
from sanssim.games.splendor.record import (
    PACK_BITS,
    R_ACTION,
    R_BONUSES,
    R_CARD,
    R_DECK_LEFT,
    R_DISPLAY,
    R_DRAWN,
    R_NOBLE,
    R_PAYMENT,
    R_POINTS,
    R_RESERVED,
    R_RETURNED,
    R_SLOT,
    R_SOURCE,
    R_SUPPLY,
    R_TAKEN,
    R_TOKENS,
    RECORD_WIDTH,
)

I8, I16 = pl.Int8(), pl.Int16()

RESULT_COLUMNS: dict[str, pl.DataType] = {
    "target_points": I16,
    "max_rounds": I16,
    "gem_tokens": I8,
    "gold_tokens": I8,
    "nobles_in_play": pl.List(I8),
    "points": I16,
    "card_points": I16,
    "noble_points": I16,
    "cards_bought": I8,
    "nobles": I8,
    "bonuses": pl.List(I8),
    "tokens": pl.List(I8),
    "reserved_left": I8,
    "rounds": I16,
    "turns_taken": I16,
    "passes": I16,
    "end_reason": pl.String(),
    "hit_round_cap": pl.Boolean(),
}
RESULT_ORDER = (
    "run_id", "game", "game_id", "game_seed", "n_players", "target_points", "max_rounds",
    "gem_tokens", "gold_tokens", "nobles_in_play", "seat", "strategy", "points", "total",
    "card_points", "noble_points", "cards_bought", "nobles", "bonuses", "tokens",
    "reserved_left", "rounds", "turns_taken", "passes", "rank", "winner", "end_reason",
    "hit_round_cap",
)  # fmt: skip
TURN_COLUMNS: dict[str, pl.DataType] = {
    "round": I16,  # wider than the common int8: Splendor's files have always had int16
    "action": pl.String(),
    "gems_taken": pl.List(I8),
    "gold_taken": I8,
    "card_id": I16,
    "card_from": pl.String(),
    "slot": I8,
    "payment": pl.List(I8),
    "gems_returned": pl.List(I8),
    "noble_id": I8,
    "points": I16,
    "tokens": pl.List(I8),
    "bonuses": pl.List(I8),
    "reserved": pl.List(I16),
    "display": pl.List(I16),
    "drawn_card_id": I16,
    "deck_left": pl.List(I8),
    "supply": pl.List(I8),
}
TURN_ORDER = (
    "run_id", "game_id", "turn", "round", "seat", "action", "gems_taken", "gold_taken",
    "card_id", "card_from", "slot", "payment", "gems_returned", "noble_id", "points", "score",
    "tokens", "bonuses", "reserved", "display", "drawn_card_id", "deck_left", "supply",
)  # fmt: skip


def result_columns(game: Game, finished: list[tuple[int, int, State]]) -> dict[str, Any]:
    """The own results columns of finished (game_id, game_seed, final state)."""
    noble_value = game.noble_points
    cols: dict[str, list[Any]] = {
        name: []
        for name in (
            "nobles_in_play", "points", "card_points", "noble_points", "cards_bought",
            "nobles", "bonuses", "tokens", "reserved_left", "rounds", "passes", "end_reason",
        )
    }  # fmt: skip
    for _, _, state in finished:
        n = state.n
        cols["nobles_in_play"] += state.nobles_in_play * n
        cols["points"] += state.points
        noble_points = [sum(noble_value[x] for x in ns) for ns in state.nobles]
        cols["card_points"] += [p - q for p, q in zip(state.points, noble_points, strict=True)]
        cols["noble_points"] += noble_points
        cols["cards_bought"] += state.cards_bought
        cols["nobles"] += [len(ns) for ns in state.nobles]
        for bonus, tokens in zip(state.bonus, state.tokens, strict=True):
            cols["bonuses"] += bonus
            cols["tokens"] += tokens
        cols["reserved_left"] += [len(r) for r in state.reserved]
        cols["rounds"] += [state.round] * n
        cols["passes"] += state.passes
        cols["end_reason"] += [END_REASONS[state.end_reason]] * n
    return seat_columns(game, cols)


def seat_columns(game: Game, cols: dict[str, Any]) -> dict[str, Any]:
    """The own results columns from their per-row values (lists or numpy arrays; list
    columns flat, row after row), the constant and derived ones added here; shared with
    the compiled core."""
    cfg = game.config
    cols = dict(cols)
    rows = len(cols["points"])
    constants = {
        "target_points": cfg.target_points,
        "max_rounds": cfg.max_rounds,
        "gem_tokens": cfg.resolved_gem_tokens,
        "gold_tokens": cfg.gold_tokens,
    }
    for name, value in constants.items():
        cols[name] = np.full(rows, value)
    cols["turns_taken"] = cols["rounds"]
    cols["hit_round_cap"] = [r == "round_cap" for r in cols["end_reason"]]
    widths = {"nobles_in_play": cfg.resolved_nobles, "bonuses": N_GEMS, "tokens": N_GEMS + 1}
    for name, width in widths.items():
        cols[name] = fixed_lists(cols[name], width, I8)
    return cols


def turn_columns(game: Game, games: list[tuple[int, State]]) -> dict[str, Any]:
    """Each turn's columns: every game's flat record (`RECORD_WIDTH` ints a turn) becomes
    one int matrix, and each column a slice of it; no Python work per turn."""
    flat: list[int] = []
    game_ids = []
    turns = []
    for game_id, state in games:
        flat += state.log
        game_ids.append(game_id)
        turns.append(len(state.log) // RECORD_WIDTH)
    # polars converts a list of ints fastest; numpy then slices the matrix for free
    table = pl.Series(flat, dtype=pl.Int32).to_numpy().reshape(-1, RECORD_WIDTH)
    return table_columns(game, game_ids, turns, table)


def table_columns(
    game: Game, game_ids: Sequence[int], turns: Sequence[int], table: np.ndarray
) -> dict[str, Any]:
    """The turn columns from the games' records as one int32 matrix (a row a turn, games
    in order, `turns[i]` rows for game `game_ids[i]`); the compiled core's path too."""
    starts = np.cumsum(turns) - turns
    turn_numbers = np.arange(len(table)) - np.repeat(starts, turns)
    n = game.n_players

    def column(k: int, dtype: pl.DataType, nulls: bool = False) -> pl.Series:
        """-1 means 'none' in the records: null in the table."""
        s = pl.Series(table[:, k])
        return (s.set(s < 0, None) if nulls else s).cast(dtype)  # type: ignore[arg-type]

    def lists(k: int, width: int, dtype: pl.DataType, nulls: bool = False) -> pl.Series:
        return block_lists(table[:, k : k + width], dtype, nulls)

    def counts(k: int) -> np.ndarray:
        """Six token counts unpacked from the record's packed int."""
        shifts = np.arange(N_GEMS + 1) * PACK_BITS
        return table[:, k, None] >> shifts & (1 << PACK_BITS) - 1

    def names(k: int, table_names: tuple[str, ...]) -> pl.Series:
        return pl.Series(table[:, k]).replace_strict(
            range(len(table_names)), list(table_names), default=None, return_dtype=pl.String
        )

    taken = counts(R_TAKEN)
    held = table[:, R_RESERVED : R_RESERVED + MAX_RESERVED]  # ids first, EMPTY padding last
    reserved = pl.select(
        pl.lit(block_lists(held, I16)).list.head(pl.lit(pl.Series((held >= 0).sum(axis=1))))
    ).to_series()
    points = column(R_POINTS, I16)
    return {
        "game_id": pl.Series(np.repeat(np.array(game_ids, dtype=np.int64), turns)),
        "turn": pl.Series(turn_numbers, dtype=I16),
        "seat": pl.Series(turn_numbers % n, dtype=I8),
        "action": names(R_ACTION, ACTION_NAMES),
        "gems_taken": block_lists(taken, I8),
        "gold_taken": pl.Series(taken[:, GOLD], dtype=I8),
        "card_id": column(R_CARD, I16, nulls=True),
        "card_from": names(R_SOURCE, SOURCE_NAMES),
        "slot": column(R_SLOT, I8, nulls=True),
        "payment": block_lists(counts(R_PAYMENT), I8),
        "gems_returned": block_lists(counts(R_RETURNED), I8),
        "noble_id": column(R_NOBLE, I8, nulls=True),
        "points": points,
        "score": points,
        "tokens": lists(R_TOKENS, N_GEMS + 1, I8),
        "bonuses": lists(R_BONUSES, N_GEMS, I8),
        "reserved": reserved,
        "display": lists(R_DISPLAY, N_SLOTS, I16, nulls=True),
        "drawn_card_id": column(R_DRAWN, I16, nulls=True),
        "deck_left": lists(R_DECK_LEFT, N_LEVELS, I8),
        "supply": lists(R_SUPPLY, N_GEMS + 1, I8),
    }


COLUMNS = OwnColumns(
    RESULT_COLUMNS, TURN_COLUMNS, result_columns, turn_columns, RESULT_ORDER, TURN_ORDER
)
