"""The protocol check of a game's first finished games: a plug-in that breaks the
`GameType` contract stops the run with one line naming the game, the column or member and
what was expected, rather than failing every game or leaving a polars traceback."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import polars as pl

from sanssim.errors import SanssimError
from sanssim.runformat import RESULTS, TURNS

if TYPE_CHECKING:
    from sanssim.games.base import Engine, GameState, GameType

MAX_ACTION = 2**31 - 1  # the turns table's `actions` are int32


class ContractError(SanssimError):
    """A game's plug-in does not keep the protocol of `sanssim.games.base`."""


def checked_frames(
    game_type: GameType,
    run_id: str,
    game: Engine,
    strategies: Sequence[str],
    finished: list[tuple[int, int, GameState]],
    turn_log: bool,
) -> dict[str, pl.DataFrame]:
    """The results (and turns) frames of finished games, each checked against its schema,
    after the finished states are checked against the protocol."""
    name = game_type.name
    n = game.n_players
    for _, _, state in finished:
        for member in ("returns", "ranks"):
            values = getattr(state, member)()
            if not isinstance(values, list) or len(values) != n:
                raise ContractError(f"game {name}: state.{member}() must be a list of {n} values")
        if not isinstance(state.legal, list):
            raise ContractError(f"game {name}: state.legal must be a list of action ids")
        if turn_log and not all(type(a) is int and 0 <= a <= MAX_ACTION for _, a in state.actions):
            raise ContractError(f"game {name}: actions must be ints 0..{MAX_ACTION}")
    frames = {RESULTS: (game_type.result_frame, (run_id, game, strategies, finished))}
    schemas = {RESULTS: game_type.result_schema}
    if turn_log:
        recorded = [(game_id, state) for game_id, _, state in finished]
        frames[TURNS] = (game_type.turn_frame, (run_id, game, recorded))  # type: ignore[assignment]
        schemas[TURNS] = game_type.turn_schema
    out = {}
    for table, (make, args) in frames.items():
        try:
            frame = make(*args)  # type: ignore[operator]
        except (pl.exceptions.PolarsError, TypeError, ValueError, KeyError) as exc:
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise ContractError(
                f"game {name}: its {table} frame cannot be built: {first}"
            ) from None
        _check_schema(name, table, frame, schemas[table])
        out[table] = frame
    return out


def _check_schema(name: str, table: str, frame: pl.DataFrame, schema: object) -> None:
    want = dict(schema)  # type: ignore[call-overload]
    got = dict(frame.schema)
    for column, dtype in want.items():
        if column not in got:
            raise ContractError(f"game {name}: {table} column {column!r} is missing ({dtype})")
        if got[column] != dtype:
            raise ContractError(
                f"game {name}: {table} column {column!r} is {got[column]}, expected {dtype}"
            )
    extra = [c for c in got if c not in want]
    if extra:
        raise ContractError(f"game {name}: {table} column {extra[0]!r} is not in its schema")
