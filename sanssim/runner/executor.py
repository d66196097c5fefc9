"""Where chunks run: behind a small interface so a cluster executor can replace the local one.

An executor only maps a picklable function over chunks and hands back finished
results in any order; it never writes files, so every executor gives the same run.
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

from sanssim.runner.pool import Chunk, Pool, WorkerLost

__all__ = ["Chunk", "Executor", "LocalExecutor", "WorkerLost", "default_workers"]

R = TypeVar("R")
# Chunks queued per worker (Ray): enough to keep workers busy, few enough to keep memory flat.
QUEUE_PER_WORKER = 2
DEFAULT_DECISION_TIMEOUT = 60.0  # seconds a strategy may take for one decision; 0: no limit


def default_workers() -> int:
    """Cores this process may use (all of them unless restricted)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


class Executor(ABC):
    workers: int
    # (asked, allowed): --workers beyond the CPUs there are, cut down to them.
    capped: tuple[int, int] | None = None
    # The engine every arm is played on (`auto`, `compiled`, `python`), when a command says;
    # None: each arm's own (`RunConfig.engine`). It changes how games are played, never which.
    engine: str | None = None
    # Seconds a decision may take in every arm, when a command says; None: each arm's own
    # (`RunConfig.decision_timeout`), else DEFAULT_DECISION_TIMEOUT.
    decision_timeout: float | None = None

    @property
    def lost(self) -> list[Chunk]:
        """Chunks whose worker died, played again on a fresh one."""
        return []

    @abstractmethod
    def map_chunks(
        self, fn: Callable[[int, int], R], chunks: Iterable[Chunk], here: bool = False
    ) -> Iterator[R]:
        """Results of `fn(start, stop)` for every chunk, as they finish. `here`: the whole
        run is a few cheap chunks (`runner.run.in_driver`), which a local executor plays in
        this process rather than start workers for them (workers an earlier run of the
        same executor started, as a tune's first round does, play them)."""

    @abstractmethod
    def close(self) -> None:
        """Stop workers; chunks in flight are lost, finished ones were already handed back."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class LocalExecutor(Executor):
    """One worker plays in this process; more are processes on this machine (`Pool`)."""

    def __init__(self, workers: int | None = None) -> None:
        cores = default_workers()
        if workers is not None and workers > cores:  # more would only slow the run down
            self.capped = (workers, cores)
        self.workers = min(workers or cores, cores)
        self._pool: Pool | None = None
        self._lost: list[Chunk] = []

    def map_chunks(
        self, fn: Callable[[int, int], R], chunks: Iterable[Chunk], here: bool = False
    ) -> Iterator[R]:
        if self.workers == 1 or (here and self._pool is None):
            for start, stop in chunks:
                yield fn(start, stop)
            return
        if self._pool is None:
            self._pool = Pool(self.workers)
        yield from self._pool.map(fn, chunks)

    @property
    def lost(self) -> list[Chunk]:
        return self._lost + (self._pool.lost if self._pool is not None else [])

    def close(self) -> None:
        if self._pool is not None:
            self._lost += self._pool.lost
            self._pool.close()
            self._pool = None
