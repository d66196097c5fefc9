"""Speed figures for the README: engine-only rates and full `run` batches with and without logs.

    .venv/bin/python scripts/bench.py            # full: 100,000 four-player games per run
    .venv/bin/python scripts/bench.py --quick    # smaller numbers, a few seconds

Each measurement is a named entry in MEASUREMENTS, so later ones (strategies,
executor scaling, Ray) slot in beside these. Figures go to stdout and to JSON.
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sanssim.engine import Game, GameConfig
from sanssim.runner.config import sweep
from sanssim.runner.executor import LocalExecutor, default_workers
from sanssim.runner.play import game_seed, play_game
from sanssim.runner.run import execute, plan
from sanssim.strategies import resolve


@dataclass(frozen=True)
class Settings:
    quick: bool
    workers: int

    def games(self, full: int, quick: int) -> int:
        return quick if self.quick else full


def engine_rate(players: int) -> Callable[[Settings, dict[str, Any]], dict[str, Any]]:
    """Random games per second on one core, no logging, no files."""

    def measure(settings: Settings, figures: dict[str, Any]) -> dict[str, Any]:
        game = Game(GameConfig(n_players=players))
        specs = [resolve("random")] * players
        games = settings.games(3000, 300)
        start, cpu = time.perf_counter(), time.process_time()
        for i in range(games):
            play_game(game, specs, game_seed(1, i))
        seconds = time.perf_counter() - start
        cpu = time.process_time() - cpu
        return {
            "games": games,
            "seconds": seconds,
            "games_per_s": games / seconds,
            "games_per_cpu_s": games / cpu,
        }

    return measure


def full_run(turn_log: bool) -> Callable[[Settings, dict[str, Any]], dict[str, Any]]:
    """`sanssim run` of four-player random games on all workers, Parquet parts included."""

    def measure(settings: Settings, figures: dict[str, Any]) -> dict[str, Any]:
        games = settings.games(100_000, 5_000)
        arms = sweep([4], games=games, seed=1, turn_log=turn_log)
        with tempfile.TemporaryDirectory() as tmp, LocalExecutor(settings.workers) as executor:
            out = Path(tmp) / "run"
            start, cpu = time.perf_counter(), _cpu_seconds()
            execute(plan(out, arms, force=False), executor, ["bench"])
            seconds = time.perf_counter() - start
            size = sum(f.stat().st_size for f in out.rglob("*.parquet"))
        cpu = _cpu_seconds() - cpu  # workers are reaped once the executor closes
        result = {
            "games": games,
            "workers": settings.workers,
            "seconds": seconds,
            "games_per_s": games / seconds,
            "games_per_cpu_s": games / cpu,
            "parquet_mb": size / 1e6,
            "driver_max_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3,
        }
        engine = figures.get("engine_random_4p")
        if engine:
            ideal = engine["games_per_s"] * settings.workers
            result["fraction_of_engine_x_workers"] = result["games_per_s"] / ideal
            # The same comparison per CPU second: meaningful even on a busy machine.
            result["cpu_fraction_of_engine"] = result["games_per_cpu_s"] / engine["games_per_cpu_s"]
        return result

    return measure


def _cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the pool's workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


MEASUREMENTS: list[tuple[str, Callable[[Settings, dict[str, Any]], dict[str, Any]]]] = [
    ("engine_random_2p", engine_rate(2)),
    ("engine_random_3p", engine_rate(3)),
    ("engine_random_4p", engine_rate(4)),
    ("run_4p_turn_log", full_run(turn_log=True)),
    ("run_4p_no_turn_log", full_run(turn_log=False)),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small numbers, a few seconds")
    parser.add_argument("--workers", type=int, default=default_workers())
    parser.add_argument("--only", action="append", help="run only these measurements")
    parser.add_argument("--json", type=Path, default=Path("bench.json"), help="figures file")
    args = parser.parse_args()
    settings = Settings(args.quick, args.workers)
    figures: dict[str, Any] = {}
    for name, measure in MEASUREMENTS:
        if args.only and name not in args.only:
            continue
        figures[name] = measure(settings, figures)
        shown = ", ".join(
            f"{k} {v:,.2f}" if isinstance(v, float) else f"{k} {v:,}"
            for k, v in figures[name].items()
        )
        print(f"{name:<20} {shown}", flush=True)
    report = {
        "machine": {"python": platform.python_version(), "cpus": default_workers()},
        "quick": args.quick,
        "figures": figures,
    }
    args.json.write_text(json.dumps(report, indent=2) + "\n")
    print(f"figures written to {args.json}")


if __name__ == "__main__":
    main()
