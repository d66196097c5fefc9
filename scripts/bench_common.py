"""What every bench measurement shares: its settings, its name, and a timed `sanssim run`."""

from __future__ import annotations

import os
import resource
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sanssim.games import DEFAULT_GAME
from sanssim.runner.config import sweep
from sanssim.runner.executor import Executor
from sanssim.runner.run import execute, plan

Measure = Callable[["Settings", dict[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class Settings:
    quick: bool
    workers: int

    def games(self, full: int, quick: int) -> int:
        return quick if self.quick else full


def prefix(game: str) -> str:
    """Measurement names: Sanssouci's as before other games existed, the others' prefixed."""
    return "" if game == DEFAULT_GAME else f"{game}_"


def timed_run(
    executor: Executor,
    games: int,
    turn_log: bool,
    chunk_size: int | None = None,
    game: str = DEFAULT_GAME,
    players: int = 4,
    strategy: str = "random",
) -> dict[str, Any]:
    """One run into a temporary directory (Sanssouci four-player random games unless said)
    on the executor's engine; CPU counts every process."""
    arms = sweep(
        [players], game=game, games=games, seed=1, strategies=[strategy], turn_log=turn_log
    )
    with tempfile.TemporaryDirectory() as tmp, executor:
        out = Path(tmp) / "run"
        start, cpu = time.perf_counter(), _tree_cpu_seconds()
        execute(plan(out, arms, force=False), executor, ["bench"], chunk_size)
        seconds = time.perf_counter() - start
        cpu = _tree_cpu_seconds() - cpu  # before close: Ray's start-up and shutdown excluded
        size = sum(f.stat().st_size for f in out.rglob("*.parquet"))
    return {
        "games": games,
        "workers": executor.workers,
        "seconds": seconds,
        "games_per_s": games / seconds,
        "games_per_cpu_s": games / cpu,
        "parquet_mb": size / 1e6,
    }


def _tree_cpu_seconds() -> float:
    """CPU time of this process, its finished children, and every live descendant (pool
    workers, Ray's raylet, GCS and workers) with the children each of them has reaped."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    reaped = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = own.ru_utime + own.ru_stime + reaped.ru_utime + reaped.ru_stime
    parents: dict[int, int] = {}
    ticks: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(stat.parent.name)
        parents[pid] = int(fields[1])
        ticks[pid] = sum(int(f) for f in fields[11:15])  # utime stime cutime cstime
    mine = {os.getpid()}
    grew = True
    while grew:
        found = {pid for pid, parent in parents.items() if parent in mine} - mine
        grew = bool(found)
        mine |= found
    mine.discard(os.getpid())
    return total + sum(ticks[pid] for pid in mine) / os.sysconf("SC_CLK_TCK")
