"""A strategy that kills the Ray worker playing it: `tests.crashing_strategy:KillsItsWorker`.

The first Ray worker to seat it a third time (the second game of a 2-player
chunk) adds its pid to the `marker` file and dies by SIGKILL mid-chunk, as if
its node had run out of memory; every later game, the retry's included, plays
normally. With `always=true` every Ray worker dies so, and no chunk finishes.
It never kills a process that is not running a Ray task, so a local run with
the same spec is safe.
"""

from __future__ import annotations

import os
import signal
import sys
from collections import Counter
from typing import ClassVar

from sanssim.games.sanssouci.view import PlayerView
from sanssim.strategies import Param, Strategy

KILL_AT = 3  # players seated in this process for this marker (Ray reuses processes)


class KillsItsWorker(Strategy):
    name = "kills-its-worker"
    params = (
        Param("marker", "", "file listing the pid of each worker killed"),
        Param("always", False, "kill every Ray worker that seats it a third time, not one"),
    )
    seated: ClassVar[Counter[str]] = Counter()

    def __init__(self, rng, **params) -> None:  # noqa: ANN001, ANN003
        super().__init__(rng, **params)
        self.seated[self.marker] += 1
        last = self.seated[self.marker] == KILL_AT and _in_ray_task()
        if last and _claim(self.marker, self.always):
            os.kill(os.getpid(), signal.SIGKILL)

    def choose(self, view: PlayerView, legal: list[int]) -> int:
        return self.rng.choice(legal)


def _in_ray_task() -> bool:
    ray = sys.modules.get("ray")
    return bool(ray and ray.is_initialized() and ray.get_runtime_context().get_task_id())


def _claim(marker: str, always: bool) -> bool:
    """Add this process's pid to the marker; False if a worker died already and not `always`."""
    flags = os.O_CREAT | os.O_WRONLY | (os.O_APPEND if always else os.O_EXCL)
    try:
        fd = os.open(marker, flags)
    except FileExistsError:
        return False
    os.write(fd, f"{os.getpid()}\n".encode())
    os.close(fd)
    return True
