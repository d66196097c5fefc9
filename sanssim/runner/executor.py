"""Where chunks run: behind a small interface so a cluster executor can replace the local one.

An executor only maps a picklable function over chunks and hands back finished
results in any order; it never writes files, so every executor gives the same run.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from sanssim.runner.config import RunError

R = TypeVar("R")
Chunk = tuple[int, int]
# Chunks queued per worker: enough to keep workers busy, few enough to keep memory flat.
QUEUE_PER_WORKER = 2
LOST = "a worker process died before finishing its games"
PARENT_POLL = 1.0  # seconds between a worker's checks that its driver is alive
DEFAULT_DECISION_TIMEOUT = 60.0  # seconds a strategy may take for one decision; 0: no limit


class WorkerLost(RunError):
    """A worker process died (killed, out of memory); chunks it held are lost, not wrong."""


def default_workers() -> int:
    """Cores this process may use (all of them unless restricted)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


class Executor(ABC):
    workers: int
    # The engine every arm is played on (`auto`, `compiled`, `python`), when a command says;
    # None: each arm's own (`RunConfig.engine`). It changes how games are played, never which.
    engine: str | None = None
    decision_timeout: float = DEFAULT_DECISION_TIMEOUT  # what the games it plays may take

    @abstractmethod
    def map_chunks(self, fn: Callable[[int, int], R], chunks: Iterable[Chunk]) -> Iterator[R]:
        """Results of `fn(start, stop)` for every chunk, as they finish."""

    @abstractmethod
    def close(self) -> None:
        """Stop workers; chunks in flight are lost, finished ones were already handed back."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class LocalExecutor(Executor):
    """One worker plays in this process; more use a process pool on this machine."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or default_workers()
        self._pool: ProcessPoolExecutor | None = None
        self._pending: set[Future] = set()

    def map_chunks(self, fn: Callable[[int, int], R], chunks: Iterable[Chunk]) -> Iterator[R]:
        if self.workers == 1:
            for start, stop in chunks:
                yield fn(start, stop)
            return
        if self._pool is None:
            # spawn, not fork: polars' thread pool does not survive a fork safely.
            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_worker_start,
                initargs=(os.getpid(),),
            )
        todo = iter(chunks)
        limit = self.workers * QUEUE_PER_WORKER
        while True:
            for start, stop in todo:
                try:
                    self._pending.add(self._pool.submit(fn, start, stop))
                except BrokenProcessPool:  # a worker died while results were being written
                    raise WorkerLost(LOST) from None
                if len(self._pending) >= limit:
                    break
            if not self._pending:
                return
            done, self._pending = wait(self._pending, return_when=FIRST_COMPLETED)
            for future in done:
                try:
                    result = future.result()
                except BrokenProcessPool:
                    raise WorkerLost(LOST) from None
                yield result

    def close(self) -> None:
        if self._pool is None:
            return
        if self._pending:
            # Interrupted: chunks in flight are abandoned rather than waited for.
            for process in list((getattr(self._pool, "_processes", None) or {}).values()):
                process.terminate()
        self._pool.shutdown(wait=True, cancel_futures=True)
        self._pool = None
        self._pending = set()


def _worker_start(driver: int) -> None:
    """Workers leave Ctrl-C to the driver, which stops them and keeps finished parts, and
    exit soon after the driver is gone (killed with SIGKILL, it cannot stop them)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch_parent, args=(driver,), daemon=True).start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_POLL)
    os._exit(1)
