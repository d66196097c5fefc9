"""The log tables every game shares, derived from the action history.

Every turn row ends with `actions`, the choices made on that turn in order (forced
choices the engine takes itself are not in it). The results columns every game has
come from the final states' `returns()` and `ranks()`; a game adds its own columns
through `GameType.result_columns` and `GameType.turn_columns`. A logged game is
replayed by re-applying its actions to a fresh deal, every row checked against the log.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import polars as pl

from sanssim.errors import IllegalActionError, SanssimError

if TYPE_CHECKING:
    from sanssim.games.base import Engine, GameState

ACTIONS = "actions"
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


def common_results(
    run_id: str,
    name: str,
    game: Engine,
    strategies: Sequence[str],
    finished: list[tuple[int, int, GameState]],
) -> dict[str, list[Any]]:
    """The results columns every game has, one row per (game, seat)."""
    n = game.n_players
    cols: dict[str, list[Any]] = {c: [] for c in COMMON_RESULTS}
    for game_id, seed, state in finished:
        cols["game_id"] += [game_id] * n
        cols["game_seed"] += [seed] * n
        cols["total"] += state.returns()
        cols["rank"] += state.ranks()
    rows = n * len(finished)
    cols["run_id"] = [run_id] * rows
    cols["game"] = [name] * rows
    cols["n_players"] = [n] * rows
    cols["seat"] = list(range(n)) * len(finished)
    cols["strategy"] = list(strategies) * len(finished)
    cols["winner"] = [rank == 1 for rank in cols["rank"]]
    return cols


def turn_rows(
    run_id: str, game: Engine, games: list[tuple[int, GameState]], schema: Mapping[str, Any]
) -> pl.DataFrame:
    """The turns of a game without a log module, from its engine's turn records (one dict
    a turn: `turn`, `seat`, `score` and the game's own columns)."""
    n = game.n_players
    rows = [
        {"run_id": run_id, "game_id": game_id, "round": r["turn"] // n + 1, **r}
        for game_id, state in games
        for r in state.log  # type: ignore[attr-defined]
    ]
    return pl.DataFrame(rows, schema=dict(schema), orient="row")


def with_actions(frame: pl.DataFrame, games: list[tuple[int, GameState]]) -> pl.DataFrame:
    """Turn rows (with `game_id` and `turn`) with each turn's chosen actions at the end."""
    ids = [game_id for game_id, state in games for _ in state.actions]
    pairs = [pair for _, state in games for pair in state.actions]
    chosen = (
        pl.DataFrame(
            {"game_id": ids, "turn": [t for t, _ in pairs], ACTIONS: [a for _, a in pairs]},
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
) -> GameState:
    """The logged actions re-applied to a fresh deal, every turn row checked against the
    log (`turn_frame` makes the replay's rows); a one-line SanssimError at the first
    disagreement, an illegal action, a log that stops early or one with extra turns."""
    logged = turns.sort("turn")
    if ACTIONS not in logged.columns:
        raise SanssimError(f"game {game_id}: the turn log has no {ACTIONS} column to replay")
    state = game.new_state(seed, record=True)
    for turn, actions in logged.select("turn", ACTIONS).iter_rows():
        for action in actions or ():
            try:
                state.apply_action(action)
            except IllegalActionError as exc:
                raise SanssimError(
                    f"game {game_id} turn {turn}: the log is not a legal game ({exc})"
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


def frame(columns: Mapping[str, list[Any]], schema: Mapping[str, pl.DataType]) -> pl.DataFrame:
    """Columns as a frame in the schema's order and types."""
    return pl.DataFrame({name: columns[name] for name in schema}, schema=dict(schema))
