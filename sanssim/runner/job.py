"""One arm's games as chunks of Parquet parts, for any game, through its declared protocol."""

from __future__ import annotations

import contextlib
import io
import traceback
from dataclasses import dataclass
from typing import Any

import polars as pl

from sanssim.compiled import COMPILED, ChunkRefused, Core, core_for
from sanssim.errors import IllegalActionError
from sanssim.games.contract import checked_frames
from sanssim.runformat import RESULTS, TURNS
from sanssim.runner.batch import Part
from sanssim.runner.config import RunConfig
from sanssim.runner.play import GameFailure, game_seed, play_game


@dataclass(frozen=True)
class GameJob:
    """What a worker needs to play any chunk of one arm; pickled to each worker."""

    config: RunConfig
    run_id: str

    @property
    def games(self) -> int:
        return self.config.games

    @property
    def tables(self) -> tuple[str, ...]:
        return (RESULTS, TURNS) if self.config.turn_log else (RESULTS,)

    def play_chunk(self, start: int, stop: int) -> Part:
        """Play games `start..stop-1`; failed games give no rows, only a failure entry."""
        config = self.config
        game_type = config.game_type
        game = config.game()
        specs = config.specs()
        core = core_for(game_type, specs, config.engine)
        if core is not None:
            with contextlib.suppress(ChunkRefused):  # the Python path records the failure
                return self._compiled_chunk(core, game, specs, start, stop)
        finished: list[tuple[int, int, Any]] = []
        failures = []
        for game_id in range(start, stop):
            seed = game_seed(config.seed, game_id)
            try:
                state = play_game(game_type, game, specs, seed, config.turn_log)
            except Exception as exc:  # keep the run going, keep the evidence
                failures.append(_failure(game_id, seed, exc))
                continue
            finished.append((game_id, seed, state))
        frames = checked_frames(
            game_type, self.run_id, game, config.strategies, finished, config.turn_log
        )
        return Part(
            start=start,
            stop=stop,
            tables={name: _parquet(df) for name, df in frames.items()},
            rows={name: df.height for name, df in frames.items()},
            failures=tuple(failures),
        )

    def _compiled_chunk(self, core: Core, game: Any, specs: list, start: int, stop: int) -> Part:
        """The chunk on the game's compiled core: the same games, rows and frames."""
        config = self.config
        ids = [(game_id, game_seed(config.seed, game_id)) for game_id in range(start, stop)]
        chunk = core.play_chunk(game, specs, self.run_id, config.strategies, ids, config.turn_log)
        frames = {RESULTS: chunk.results}
        if chunk.turns is not None:
            frames[TURNS] = chunk.turns
        return Part(
            start=start,
            stop=stop,
            tables={name: _parquet(df) for name, df in frames.items()},
            rows={name: df.height for name, df in frames.items()},
            failures=(),
            engine=COMPILED,
        )


def _failure(game_id: int, seed: int, exc: Exception) -> dict[str, Any]:
    """A failed game for the manifest: a strategy's fault, or ours (an engine or log bug)."""
    cause = exc.__cause__ or exc
    where = traceback.extract_tb(cause.__traceback__)[-1].filename if cause.__traceback__ else ""
    in_engine = "sanssim/games/" in where and "strateg" not in where
    ours = not isinstance(exc, GameFailure) or (
        not isinstance(cause, IllegalActionError) and in_engine
    )
    failed = exc if isinstance(exc, GameFailure) else None
    return {
        "game_id": game_id,
        "game_seed": seed,
        "seat": failed.seat if failed else None,
        "strategy": failed.strategy if failed else None,
        "turn": failed.turn if failed else None,
        "kind": "internal" if ours else "strategy",
        "error": failed.error if failed else f"{type(exc).__name__}: {exc}",
        "traceback": "".join(traceback.format_exception(cause)),
    }


def _parquet(df: pl.DataFrame) -> bytes:
    buffer = io.BytesIO()
    df.write_parquet(buffer)
    return buffer.getvalue()
