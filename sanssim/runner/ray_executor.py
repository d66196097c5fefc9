"""Chunks on a Ray cluster: the same chunk function, results handed back to the driver.

The driver writes every part, exactly as with the local executor, so a run is
identical whichever executor played it and its files land on the driver's
filesystem. A task whose worker process or node is lost is retried by Ray
(`max_retries`); a chunk's games depend only on their seeds, so the retry
reproduces them and the run loses nothing but the time of that chunk.
"""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from sanssim.errors import SanssimError
from sanssim.runner.config import RunError
from sanssim.runner.executor import (
    QUEUE_PER_WORKER,
    Chunk,
    Executor,
    LocalExecutor,
    WorkerLost,
    default_workers,
)

R = TypeVar("R")
# Retries of a chunk whose worker process or node was lost, before the run stops.
MAX_RETRIES = 3
# Seconds to reach a cluster's address before calling it wrong (Ray itself waits minutes).
CONNECT_TIMEOUT = 5.0
CLIENT_SCHEME = "ray://"
LOCAL = "local"
AUTO = "auto"


def _call(fn: Callable[[int, int], Any], start: int, stop: int) -> Any:
    return fn(start, stop)


def check_reachable(address: str) -> None:
    """Fail fast on a `host:port` nobody answers on; `auto` and `local` are left to Ray."""
    if address in (AUTO, LOCAL):
        return
    host, _, port = address.removeprefix(CLIENT_SCHEME).rpartition(":")
    if not port.isdigit() or not host:
        raise RunError(f"Ray address {address!r} is not host:port, ray://host:port or auto")
    try:
        socket.create_connection((host.strip("[]"), int(port)), CONNECT_TIMEOUT).close()
    except OSError as exc:
        raise RunError(f"cannot reach Ray at {address}: {exc.strerror or exc}") from None


def _games(start: int, stop: int) -> str:
    return f"game {start}" if stop - start == 1 else f"games {start}-{stop - 1}"


class RayExecutor(Executor):
    """Connects to `address` (`host:port` of a head node, `ray://host:10001`, `auto`), or
    starts a local Ray of `workers` CPUs. A Ray already initialised in this process is used
    as it is, and left running on close."""

    def __init__(self, address: str | None = None, workers: int | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise RunError("the ray executor needs Ray: pip install 'sanssim[ray]'") from None
        if address is not None:
            check_reachable(address)
        self._ray = ray
        self._owns = not ray.is_initialized()
        local = address is None or address == LOCAL
        if self._owns and local and workers is not None and workers > default_workers():
            self.capped = (workers, default_workers())
            workers = default_workers()
        if self._owns:
            try:
                ray.init(
                    # "local" always starts a new instance; None would join any `ray start`.
                    address=LOCAL if local else address,
                    num_cpus=(workers or default_workers()) if local else None,
                    include_dashboard=False,
                    log_to_driver=False,
                    configure_logging=False,
                )
            except (ConnectionError, ValueError, RuntimeError) as exc:
                raise RunError(
                    f"cannot start or reach Ray at {address or LOCAL}: {exc}".splitlines()[0]
                ) from None
        # --workers with a cluster sizes chunks and caps chunks in flight: at most its CPUs
        # (more would only queue), and by default all of them.
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        if workers is not None and workers > cpus:
            self.capped = (workers, cpus)
        self.workers = min(workers or cpus, cpus)
        self._task = ray.remote(max_retries=MAX_RETRIES)(_call)
        self._pending: dict[Any, Chunk] = {}

    def map_chunks(
        self, fn: Callable[[int, int], R], chunks: Iterable[Chunk], here: bool = False
    ) -> Iterator[R]:
        ray = self._ray  # a cluster plays every chunk, however few
        fn_ref = ray.put(fn)
        todo = iter(chunks)
        limit = self.workers * QUEUE_PER_WORKER
        while True:
            for start, stop in todo:
                self._pending[self._task.remote(fn_ref, start, stop)] = (start, stop)
                if len(self._pending) >= limit:
                    break
            if not self._pending:
                return
            (ref,), _ = ray.wait(list(self._pending), num_returns=1)
            start, stop = self._pending.pop(ref)
            try:
                result = ray.get(ref)
            except (
                ray.exceptions.WorkerCrashedError,
                ray.exceptions.NodeDiedError,
                ray.exceptions.OutOfMemoryError,
            ) as exc:
                raise WorkerLost(
                    f"{_games(start, stop)} lost their Ray worker {MAX_RETRIES + 1} times "
                    f"({type(exc).__name__})"
                ) from None
            except ray.exceptions.RayTaskError as exc:
                if not isinstance(exc.cause, SanssimError):
                    raise
                # Typically a node without sanssim or the strategies' modules installed.
                raise RunError(
                    f"a Ray worker cannot play {_games(start, stop)}: {exc.cause}"
                ) from None
            except ray.exceptions.ObjectLostError as exc:
                raise WorkerLost(
                    f"the result of {_games(start, stop)} was lost ({type(exc).__name__})"
                ) from None
            yield result

    def close(self) -> None:
        """Cancel chunks in flight (their workers are stopped); shut down a Ray we started."""
        for ref in self._pending:
            self._ray.cancel(ref, force=True)
        self._pending = {}
        if self._owns and self._ray.is_initialized():
            self._ray.shutdown()


def executor_for(
    name: str,
    workers: int | None = None,
    address: str | None = None,
    decision_timeout: float | None = None,
) -> Executor:
    """What `--executor NAME` means: this machine's process pool, or Ray (imported only
    then). `address` is Ray's alone; the local executor ignores it (it may come from
    $RAY_ADDRESS)."""
    executor = LocalExecutor(workers) if name == "local" else RayExecutor(address, workers)
    executor.decision_timeout = decision_timeout
    return executor
