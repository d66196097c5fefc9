"""One arm's games as chunks of Parquet parts, for any game, through its declared protocol."""

from __future__ import annotations

import contextlib
import io
import signal
import threading
import traceback
from collections.abc import Iterator, Mapping
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass, replace
from types import FrameType
from typing import Any

from sanssim.compiled import COMPILED, ChunkRefused, Core, core_for
from sanssim.errors import UserInterrupt
from sanssim.games.contract import checked_frames
from sanssim.rundir import parquet_bytes
from sanssim.runformat import RESULTS, TURNS
from sanssim.runner.batch import Part
from sanssim.runner.config import RunConfig
from sanssim.runner.play import (
    INTERNAL,
    KILLED,
    GameFailure,
    game_seed,
    play_game,
)
from sanssim.runner.pool import playing

_last_game: tuple[tuple[str, RunConfig], Any] | None = None  # GameJob._game's


@dataclass(frozen=True)
class GameJob:
    """What a worker needs to play any chunk of one arm; pickled to each worker."""

    config: RunConfig
    run_id: str
    decision_timeout: float = 0.0  # seconds a decision may take (0: no limit)
    # Games that killed their worker process twice: failed with this error, never played again.
    killed: tuple[tuple[int, str], ...] = ()

    @property
    def games(self) -> int:
        return self.config.games

    @property
    def tables(self) -> tuple[str, ...]:
        return (RESULTS, TURNS) if self.config.turn_log else (RESULTS,)

    def skipping(self, killed: Mapping[int, str]) -> GameJob:
        """This job with `killed` games (id: error) recorded as failed instead of played."""
        return replace(self, killed=tuple(sorted(killed.items())))

    def play_chunk(self, start: int, stop: int) -> Part:
        """Play games `start..stop-1`; failed games give no rows, only a failure entry."""
        config = self.config
        game_type = config.game_type
        game = self._game()
        specs = config.specs()
        core = core_for(game_type, specs, config.engine)
        dead = dict(self.killed)
        if core is not None and not any(start <= game_id < stop for game_id in dead):
            with contextlib.suppress(ChunkRefused):  # the Python path records the failure
                return self._compiled_chunk(core, game, specs, start, stop)
        finished: list[tuple[int, int, Any]] = []
        failures = []
        output = io.StringIO()  # what strategies print goes to errors.log, not the terminal
        with _interruptible(), redirect_stdout(output), redirect_stderr(output):
            for game_id in range(start, stop):
                seed = game_seed(config.seed, game_id)
                if game_id in dead:
                    failures.append(_killed(game_id, seed, dead[game_id]))
                    continue
                playing(game_id)
                try:
                    state = play_game(
                        game_type, game, specs, seed, config.turn_log, None, self.decision_timeout
                    )
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
            tables={name: parquet_bytes(df) for name, df in frames.items()},
            rows={name: df.height for name, df in frames.items()},
            failures=tuple(failures),
            output=output.getvalue(),
        )

    def _game(self) -> Any:
        """The arm's game, built once for its chunks in this process (a game is only read
        while played; building one derives its tables from the component data)."""
        global _last_game
        key = (self.run_id, self.config)
        if _last_game is None or _last_game[0] != key:
            _last_game = (key, self.config.game())
        return _last_game[1]

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
            tables={name: parquet_bytes(df) for name, df in frames.items()},
            rows={name: df.height for name, df in frames.items()},
            failures=(),
            engine=COMPILED,
        )


def _killed(game_id: int, seed: int, error: str) -> dict[str, Any]:
    """A game that killed its worker process (os._exit, a signal, memory): who is to blame
    cannot be read from a frame."""
    return {
        "game_id": game_id,
        "game_seed": seed,
        "seat": None,
        "strategy": None,
        "turn": None,
        "kind": KILLED,
        "error": error,
        "traceback": "",
    }


def _failure(game_id: int, seed: int, exc: Exception) -> dict[str, Any]:
    """A failed game for the manifest: a strategy's fault, or ours (an engine or log bug)."""
    cause = exc.__cause__ or exc
    failed = exc if isinstance(exc, GameFailure) else None
    return {
        "game_id": game_id,
        "game_seed": seed,
        "seat": failed.seat if failed else None,
        "strategy": failed.strategy if failed else None,
        "turn": failed.turn if failed else None,
        "kind": failed.kind if failed else INTERNAL,
        "error": failed.error if failed else f"{type(exc).__name__}: {exc}",
        "traceback": "".join(traceback.format_exception(cause)),
    }


@contextlib.contextmanager
def _interruptible() -> Iterator[None]:
    """In the driver's own process, Ctrl-C raises UserInterrupt, which stops the run,
    while a KeyboardInterrupt a strategy raises fails only its game (workers ignore
    Ctrl-C: the driver stops them)."""
    if threading.current_thread() is not threading.main_thread() or (
        signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield
        return

    def interrupted(signum: int, frame: FrameType | None) -> None:
        raise UserInterrupt

    signal.signal(signal.SIGINT, interrupted)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
