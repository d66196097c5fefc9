"""The log tables every game shares, derived from the action history.

Every turn row ends with `actions`, the choices made on that turn in order (forced
choices the engine takes itself are not in it). The results columns every game has
come from the final states' `returns()` and `ranks()`; a game adds its own columns
through `GameType.result_columns` and `GameType.turn_columns`. A logged game is
replayed by re-applying its actions to a fresh deal, every row checked against the log.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import polars as pl

from sanssim.errors import IllegalActionError, SanssimError
from sanssim.runformat import ACTIONS

if TYPE_CHECKING:
    from sanssim.games.protocol import Engine, GameState

ACTIONS_TYPE = pl.List(pl.Int32())

COMMON_RESULTS: dict[str, pl.DataType] = {
    "run_id": pl.String(),
    "game": pl.String(),
    "game_id": pl.Int64(),
    "game_seed": pl.Int64(),
    "n_players": pl.Int8(),
    "seat": pl.Int8(),
    "strategy": pl.String(),
    "total": pl.Int16(),
    "rank": pl.Int8(),
    "winner": pl.Boolean(),
}
COMMON_TURNS: dict[str, pl.DataType] = {
    "run_id": pl.String(),
    "game_id": pl.Int64(),
    "turn": pl.Int16(),
    "round": pl.Int8(),
    "seat": pl.Int8(),
    "score": pl.Int16(),
}


@dataclass(frozen=True, slots=True)
class OwnColumns:
    """A game's own results and turns columns, after the common ones: their types (a common
    column named here takes this type: a game whose files always had it), the functions
    that fill them and the columns' order in the game's files when it is not the common
    columns first (`actions` stays last).

    `results(game, finished)` gives one value per (game, seat) of finished (game_id,
    game_seed, state); `turns(game, games)` each turn's `game_id`, `turn`, `seat`, `score`
    and the turn columns of recorded (game_id, state), by default from the engine's turn
    records (`state.log`, one dict a turn with those keys)."""

    result_types: Mapping[str, pl.DataType] = field(default_factory=dict)
    turn_types: Mapping[str, pl.DataType] = field(default_factory=dict)
    results: Callable[[Any, list[Any]], Mapping[str, Any]] | None = None
    turns: Callable[[Any, list[Any]], Mapping[str, Any]] | None = None
    result_order: tuple[str, ...] = ()
    turn_order: tuple[str, ...] = ()


def scores(finished: list[tuple[int, int, GameState]]) -> dict[str, list[Any]]:
    """Each (game, seat)'s `game_id`, `game_seed`, `total` and `rank`, from the final
    states' `returns()` and `ranks()`."""
    cols: dict[str, list[Any]] = {"game_id": [], "game_seed": [], "total": [], "rank": []}
    for game_id, seed, state in finished:
        totals = state.returns()
        cols["game_id"] += [game_id] * len(totals)
        cols["game_seed"] += [seed] * len(totals)
        cols["total"] += totals
        cols["rank"] += state.ranks()
    return cols


def results_frame(
    run_id: str,
    name: str,
    n_players: int,
    strategies: Sequence[str],
    scored: Mapping[str, Any],
    schema: Mapping[str, pl.DataType],
) -> pl.DataFrame:
    """The results frame from each (game, seat)'s `game_id`, `game_seed`, `total`, `rank`
    and the game's own columns (lists, arrays or Series, games in order, seats within);
    the other common columns filled in. The Python path and the compiled cores share it."""
    n = n_players
    built = pl.DataFrame({c: scored[c] for c in schema if c in scored})
    seat = pl.int_range(pl.len(), dtype=pl.Int64) % n
    return (
        built.with_columns(
            run_id=pl.lit(run_id, pl.String),
            game=pl.lit(name, pl.String),
            n_players=pl.lit(n),
            seat=seat,
            strategy=pl.lit(pl.Series(strategies[:n], dtype=pl.String)).gather(seat),
            winner=pl.col("rank") == 1,
        )
        .select(list(schema))
        .cast(dict(schema))
    )


def turns_frame(
    run_id: str, n_players: int, columns: Mapping[str, Any], schema: Mapping[str, pl.DataType]
) -> pl.DataFrame:
    """The turns frame (without `actions`) from each turn's `game_id`, `turn`, `seat`,
    `score` and the game's own columns (lists, arrays or Series); `run_id` and `round`
    filled in. The Python path and the compiled cores share it."""
    names = [c for c in schema if c not in ("run_id", "round", ACTIONS)]
    built = pl.DataFrame({c: columns[c] for c in names})
    if built.height == 0:
        return pl.DataFrame(schema={c: t for c, t in schema.items() if c != ACTIONS})
    filled = built.with_columns(
        run_id=pl.lit(run_id), round=pl.col("turn").cast(pl.Int64) // n_players + 1
    )
    return filled.select([c for c in schema if c != ACTIONS]).cast(
        {c: t for c, t in schema.items() if c != ACTIONS}
    )


def record_columns(
    games: list[tuple[int, GameState]], names: Sequence[str]
) -> dict[str, list[Any]]:
    """Turn columns from the engines' turn records (`state.log`, one dict a turn)."""
    records = [(game_id, r) for game_id, state in games for r in state.log]  # type: ignore[attr-defined]
    cols = {name: [r[name] for _, r in records] for name in names}
    return {"game_id": [game_id for game_id, _ in records], **cols}


def with_actions(frame: pl.DataFrame, games: list[tuple[int, GameState]]) -> pl.DataFrame:
    """Turn rows (with `game_id` and `turn`) with each turn's chosen actions at the end."""
    ids = [game_id for game_id, state in games for _ in state.actions]
    pairs = [pair for _, state in games for pair in state.actions]
    return with_chosen(frame, ids, [t for t, _ in pairs], [a for _, a in pairs])


def with_chosen(
    frame: pl.DataFrame, game_ids: Sequence[int], turns: Sequence[int], actions: Sequence[int]
) -> pl.DataFrame:
    """Turn rows (with `game_id` and `turn`) with `actions` at the end, from every choice
    made in order as its game, turn and action (lists or arrays); a compiled core's path
    too."""
    chosen = (
        pl.DataFrame(
            {"game_id": game_ids, "turn": turns, ACTIONS: actions},
            schema={"game_id": pl.Int64, "turn": frame.schema["turn"], ACTIONS: pl.Int32},
        )
        .group_by("game_id", "turn", maintain_order=True)
        .agg(pl.col(ACTIONS))
    )
    joined = frame.join(chosen, on=["game_id", "turn"], how="left", maintain_order="left")
    return joined.with_columns(pl.col(ACTIONS).fill_null(pl.lit([], dtype=ACTIONS_TYPE)))


def check_turn_rows(
    game_id: int,
    replayed: pl.DataFrame,
    logged: pl.DataFrame,
    same: Callable[[str, Any, Any], bool] = lambda column, mine, theirs: mine == theirs,
) -> None:
    """A replay's own turn rows against the logged ones, column by column in the replayed
    frame's order: a one-line SanssimError at the first disagreement. `same(column, engine's,
    log's)` says when two values agree (a game may compare some column as a multiset)."""
    columns = replayed.columns
    rows = zip(
        replayed.iter_rows(named=True), logged.select(columns).iter_rows(named=True), strict=False
    )
    for got, want in rows:
        for column in columns:
            if not same(column, got[column], want[column]):
                raise SanssimError(
                    f"game {game_id} turn {want['turn']}: the log says "
                    f"{column}={want[column]!r}, the engine gives {got[column]!r}"
                )


def replay_actions(
    game: Engine,
    game_id: int,
    seed: int,
    turns: pl.DataFrame,
    turn_frame: Callable[[str, Engine, list[tuple[int, GameState]]], pl.DataFrame],
    same: Callable[[str, Any, Any], bool],
    apply: Callable[[GameState, int, dict[str, Any]], None],
) -> GameState:
    """The logged actions re-applied to a fresh deal (`apply(state, action, row)`), every
    turn row checked against the log (`turn_frame` makes the replay's rows); a one-line
    SanssimError at the first disagreement, an illegal action, a log that stops early or
    one with extra turns."""
    logged = turns.sort("turn")
    if ACTIONS not in logged.columns:
        raise SanssimError(f"game {game_id}: the turn log has no {ACTIONS} column to replay")
    state = game.new_state(seed, record=True)
    for row in logged.iter_rows(named=True):
        for action in row[ACTIONS] or ():
            try:
                apply(state, action, row)
            except IllegalActionError as exc:
                raise SanssimError(
                    f"game {game_id} turn {row['turn']}: the log is not a legal game ({exc})"
                ) from None
    if not state.is_terminal():
        raise SanssimError(f"game {game_id}: the log stops at turn {state.turn}, the game goes on")
    run_id = logged["run_id"][0] if logged.height else ""
    replayed = turn_frame(run_id, game, [(game_id, state)])
    check_turn_rows(game_id, replayed, logged, same)
    if replayed.height != logged.height:
        raise SanssimError(
            f"game {game_id}: the log has {logged.height} turns, the engine {replayed.height}"
        )
    return state
