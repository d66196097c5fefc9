"""One arm's games as chunks of Parquet parts, for any game, through its declared protocol."""

from __future__ import annotations

import traceback
from dataclasses import dataclass
from typing import Any

from sanssim.errors import IllegalActionError
from sanssim.rundir import parquet_bytes
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
        frames = {RESULTS: game_type.result_frame(self.run_id, game, config.strategies, finished)}
        if config.turn_log:
            recorded = [(game_id, state) for game_id, _, state in finished]
            frames[TURNS] = game_type.turn_frame(self.run_id, game, recorded)
        return Part(
            start=start,
            stop=stop,
            tables={name: parquet_bytes(df) for name, df in frames.items()},
            rows={name: df.height for name, df in frames.items()},
            failures=tuple(failures),
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
