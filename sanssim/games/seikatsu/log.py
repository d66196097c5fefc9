"""Seikatsu logs: finished games to the results and turns tables, and back to games.

Columns and dtypes follow `docs/run-format.md`. Frames
are built column-wise: the turn records are transposed in one `zip`, and
codes, spaces and teams are mapped by polars, so the per-turn Python work is
a tuple read and a hand padding.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import Any

import numpy as np
import polars as pl

from sanssim.errors import SanssimError
from sanssim.games.columns import fixed_lists
from sanssim.games.logs import check_turn_rows
from sanssim.games.seikatsu.engine import EMPTY, Game, State, TurnRecord

GAME = "seikatsu"

RESULT_SCHEMA: dict[str, pl.DataType] = {
    "run_id": pl.String(),
    "game": pl.String(),
    "game_id": pl.Int64(),
    "game_seed": pl.Int64(),
    "n_players": pl.Int8(),
    "tournament": pl.Boolean(),
    "seat": pl.Int8(),
    "team": pl.Int8(),
    "pagoda": pl.String(),
    "strategy": pl.String(),
    "start_tiles": pl.List(pl.String()),
    "koi_dealt": pl.Int8(),
    "bird_points": pl.Int16(),
    "own_bird_points": pl.Int16(),
    "flower_points": pl.Int16(),
    "row_points": pl.List(pl.Int8()),
    "total": pl.Int16(),
    "rank": pl.Int8(),
    "winner": pl.Boolean(),
    "koi_played": pl.Int8(),
}

TURN_SCHEMA: dict[str, pl.DataType] = {
    "run_id": pl.String(),
    "game_id": pl.Int64(),
    "turn": pl.Int16(),
    "round": pl.Int8(),
    "seat": pl.Int8(),
    "team": pl.Int8(),
    "hand": pl.List(pl.String()),
    "koi_held": pl.Int8(),
    "tile": pl.String(),
    "q": pl.Int8(),
    "r": pl.Int8(),
    "koi_bird": pl.String(),
    "bird_points": pl.Int8(),
    "drawn": pl.String(),
    "score": pl.Int16(),
    "bag_left": pl.Int16(),
}

# What each game contributes to the results frame; the rest is the configuration's.
SCORE_COLUMNS = (
    "game_id", "game_seed", "start_tiles", "bird_points", "own_bird_points", "flower_points",
    "row_points", "total", "rank", "koi_played",
)  # fmt: skip
TURN_FIELDS = tuple(f for f in TurnRecord._fields if f != "hand")
_HAND = TurnRecord._fields.index("hand")


def result_frame(
    run_id: str,
    game: Game,
    strategies: Sequence[str],
    finished: list[tuple[int, int, State]],
) -> pl.DataFrame:
    """One row per (game, seat); `finished` holds (game_id, game_seed, final state)."""
    n = game.n_players
    names = game.kind_names
    cols: dict[str, list[Any]] = {name: [] for name in SCORE_COLUMNS}
    side = game.side
    seats = range(n)
    for game_id, seed, state in finished:
        side_rows = state.side_rows()
        flowers = [sum(rows) for rows in side_rows]
        birds = state.side_score
        totals = [b + f for b, f in zip(birds, flowers, strict=True)]
        cols["game_id"] += [game_id] * n
        cols["game_seed"] += [seed] * n
        cols["start_tiles"] += [names[k] for k in state.start_tiles] * n
        cols["bird_points"] += [birds[side[s]] for s in seats]
        cols["own_bird_points"] += state.own_points
        cols["flower_points"] += [flowers[side[s]] for s in seats]
        cols["row_points"] += [points for s in seats for points in side_rows[side[s]]]
        cols["total"] += [totals[side[s]] for s in seats]
        cols["rank"] += game.ranks_of(totals)
        cols["koi_played"] += state.koi_played
    return scored_result_frame(run_id, game, strategies, len(finished), cols)


def scored_result_frame(
    run_id: str,
    game: Game,
    strategies: Sequence[str],
    games: int,
    cols: dict[str, Any],
) -> pl.DataFrame:
    """The results frame from each game's `SCORE_COLUMNS` (one entry per (game, seat), the
    start tiles and row points flat); shared with the compiled core, which gives arrays."""
    comps = game.components
    n = game.n_players
    teams = game.n_sides < n
    pagodas = [comps.pagodas[p].name for p in game.seat_pagoda]
    side = game.side
    seats = range(n)
    cols = dict(cols)
    rows = n * games
    cols["run_id"] = [run_id] * rows
    cols["game"] = [GAME] * rows
    cols["n_players"] = [n] * rows
    cols["tournament"] = [game.config.tournament] * rows
    cols["seat"] = list(seats) * games
    cols["team"] = [side[s] if teams else None for s in seats] * games
    cols["pagoda"] = pagodas * games
    cols["strategy"] = list(strategies) * games
    cols["koi_dealt"] = list(game.koi_dealt) * games
    lists = {
        "start_tiles": fixed_lists(cols.pop("start_tiles"), len(game.starts), pl.String()),
        "row_points": fixed_lists(cols.pop("row_points"), len(game.rows[0]), pl.Int8()),
    }
    plain = {k: v for k, v in RESULT_SCHEMA.items() if k not in lists and k != "winner"}
    return (
        pl.DataFrame({k: cols[k] for k in plain}, schema=plain)
        .with_columns(winner=pl.col("rank") == 1, **lists)
        .select(list(RESULT_SCHEMA))
    )


def turn_frame(run_id: str, game: Game, games: list[tuple[int, State]]) -> pl.DataFrame:
    """One row per turn from the states' logs (recorded games), built column-wise."""
    records: list[TurnRecord] = []
    game_ids: list[int] = []
    for game_id, state in games:
        records.extend(state.log)
        game_ids.extend([game_id] * len(state.log))
    if not records:
        return pl.DataFrame(schema=TURN_SCHEMA)
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
    return named_turn_frame(run_id, game, raw, game_ids, flat, width)


def named_turn_frame(
    run_id: str,
    game: Game,
    raw: pl.DataFrame,
    game_ids: Sequence[int] | np.ndarray,
    hands: Sequence[int] | np.ndarray,
    width: int,
) -> pl.DataFrame:
    """The turns frame from the records' int columns (`TURN_FIELDS`, Int16), each row's
    game id and its hand in `width` slots, the empty ones at the end, -1; shared with the
    compiled core."""
    kinds = list(game.kind_names)
    qs = [q for q, _ in game.cells]
    rs = [r for _, r in game.cells]
    birds = list(game.components.birds)
    n = game.n_players
    slots = np.asarray(hands, dtype=np.int16).reshape(-1, width)
    held = pl.DataFrame(
        {
            "hand": _named(pl.Series(slots.ravel()), kinds, pl.String()).reshape((-1, width)),
            "size": (slots >= 0).sum(axis=1),
        }
    )
    hand = held.select(pl.col("hand").cast(pl.List(pl.String)).list.head(pl.col("size")))
    team = (
        pl.col("seat").replace_strict(range(n), list(game.side), return_dtype=pl.Int8)
        if game.n_sides < n
        else pl.lit(None, dtype=pl.Int8)
    )

    def named(column: str, values: list[Any], dtype: pl.DataType) -> pl.Series:
        return _named(raw[column], values, dtype).alias(column)

    df = raw.select(
        pl.lit(run_id).alias("run_id"),
        pl.Series("game_id", game_ids, dtype=pl.Int64),
        pl.col("turn"),
        (pl.col("turn") // n + 1).alias("round"),
        pl.col("seat"),
        team.alias("team"),
        hand["hand"],
        pl.col("koi_held"),
        named("tile", kinds, pl.String()),
        named("cell", qs, pl.Int8()).alias("q"),
        named("cell", rs, pl.Int8()).alias("r"),
        named("koi_bird", birds, pl.String()),
        pl.col("bird_points"),
        named("drawn", kinds, pl.String()),
        pl.col("score"),
        pl.col("bag_left"),
    )
    return df.cast(TURN_SCHEMA)  # type: ignore[arg-type]


def _named(codes: pl.Series, values: list[Any], dtype: pl.DataType) -> pl.Series:
    """`values[code]` for each code, null for -1 (a gather: several times a replace's speed)."""
    lookup = pl.Series([*values, None], dtype=dtype)
    index = codes.to_numpy()
    return lookup.gather(np.where(index < 0, len(values), index).astype(np.uint32))


def replay_turn(state: State, row: dict[str, Any]) -> None:
    """Apply one logged turn's play (raises ValueError when it cannot be applied)."""
    turn = row["turn"]
    if state.turn > turn:
        return  # a forced turn the engine already played; checked with the columns
    if state.is_terminal() or state.turn < turn:
        raise ValueError(f"the log has turn {turn}, the engine expects turn {state.turn}")
    try:
        action = state.game.action(row["tile"], row["q"], row["r"])
    except (ValueError, KeyError, TypeError):
        raise ValueError(
            f"unknown tile or space {row['tile']!r} on ({row['q']}, {row['r']})"
        ) from None
    if action not in state.legal:
        raise ValueError(f"{state.describe(action)} is not a legal play here")
    state.apply_action(action)


def _same(column: str, mine: Any, logged: Any) -> bool:
    """A hand is a multiset: its order in the log is not the engine's."""
    return sorted(mine) == sorted(logged or []) if column == "hand" else mine == logged


def replay(game: Game, game_id: int, seed: int, turns: pl.DataFrame) -> State:
    """Re-apply a logged game's choices to a fresh deal, checking every logged turn.

    Raises SanssimError (one line) at the first turn where the log and the
    engine disagree: an illegal or unknown choice, a missing or extra turn, or
    any column the engine computes differently, or a log that stops early.
    """
    logged = turns.sort("turn")
    state = game.new_state(seed, record=True)
    for row in logged.iter_rows(named=True):
        try:
            replay_turn(state, row)
        except ValueError as exc:
            raise SanssimError(f"game {game_id} turn {row['turn']}: {exc}") from None
    run_id = logged["run_id"][0] if logged.height else ""
    replayed = turn_frame(run_id, game, [(game_id, state)])
    check_turn_rows(game_id, replayed, logged, _same)
    if not state.is_terminal():
        raise SanssimError(
            f"game {game_id}: the log has {logged.height} turns, the game has {game.turns}"
        )
    if replayed.height != logged.height:
        raise SanssimError(
            f"game {game_id}: the log has {logged.height} turns, the engine {replayed.height}"
        )
    return state
