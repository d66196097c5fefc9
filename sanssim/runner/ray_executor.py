"""Chunks on a Ray cluster: the same chunk function, results handed back to the driver.

The driver writes every part, exactly as with the local executor, so a run is
identical whichever executor played it. A task whose worker dies is retried by
Ray (`max_retries`); a chunk's games depend only on their seeds, so the retry
reproduces them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from sanssim.runner.config import RunError
from sanssim.runner.executor import QUEUE_PER_WORKER, Chunk, Executor

R = TypeVar("R")
# Retries of a chunk whose worker process or node was lost.
MAX_RETRIES = 3


def _call(fn: Callable[[int, int], Any], start: int, stop: int) -> Any:
    return fn(start, stop)


class RayExecutor(Executor):
    """Connects to `address` (e.g. `ray://head:10001` or `auto`), or starts a local Ray."""

    def __init__(self, address: str | None = None, workers: int | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise RunError("the ray executor needs Ray: pip install 'sanssim[ray]'") from None
        self._ray = ray
        self._owns = not ray.is_initialized()
        if self._owns:
            try:
                ray.init(
                    address=address,
                    num_cpus=workers if address is None else None,
                    include_dashboard=False,
                    log_to_driver=False,
                    configure_logging=False,
                )
            except (ConnectionError, ValueError, RuntimeError) as exc:
                raise RunError(
                    f"cannot start or reach Ray at {address or 'local'}: {exc}"
                ) from None
        self.workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self._task = ray.remote(max_retries=MAX_RETRIES)(_call)
        self._pending: dict[Any, Chunk] = {}

    def map_chunks(self, fn: Callable[[int, int], R], chunks: Iterable[Chunk]) -> Iterator[R]:
        ray = self._ray
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
            done, _ = ray.wait(list(self._pending), num_returns=1)
            for ref in done:
                del self._pending[ref]
                yield ray.get(ref)

    def close(self) -> None:
        for ref in self._pending:
            self._ray.cancel(ref, force=True)
        self._pending = {}
        if self._owns and self._ray.is_initialized():
            self._ray.shutdown()
