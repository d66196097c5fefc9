"""Speed figures for the README: engine rates per strategy (Python, and compiled for a game
with a core), full runs, executors, memory, compile times.

    .venv/bin/python scripts/bench.py            # every game; full-size runs
    .venv/bin/python scripts/bench.py --quick    # smaller numbers, a few minutes
    .venv/bin/python scripts/bench.py --game seikatsu --game splendor
    .venv/bin/python scripts/bench.py --only local_1_worker --only local_2_workers

Each measurement is a named entry in MEASUREMENTS; later ones may read earlier
figures (ratios). Figures are printed as they come, then as a Markdown table,
and written to JSON. Wall-clock rates suffer on a busy machine, so CPU-second
rates (this process and every process it started, Ray's included) come too.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import resource
import time
from pathlib import Path
from typing import Any

from bench_common import Measure, Settings, prefix, timed_run
from bench_compiled import compile_times, compiled_rate, compiled_run

from sanssim.compiled import PYTHON
from sanssim.games import DEFAULT_GAME, game_names, get_game
from sanssim.runner.batch import MAX_CHUNK, chunk_size_for
from sanssim.runner.executor import LocalExecutor, default_workers
from sanssim.runner.play import game_seed, play_game
from sanssim.runner.ray_executor import executor_for
from sanssim.strategies import StrategySpec, resolve

REPO = Path(__file__).resolve().parent.parent
# Engine-only games per measurement (full, quick), by strategy: about a second each,
# except look-ahead, whose seconds per decision matter more than its games per second.
ENGINE_GAMES = {"random": (3000, 300), "greedy": (600, 60), "heuristic": (300, 30)}
ENGINE_GAMES_DEFAULT = (2, 1)
STRATEGIES = ("random", "greedy", "heuristic", "lookahead")
# `sanssim run` of random games per game: player count and games (full, quick). Sanssouci's
# issue measured four-player runs; Seikatsu's and Splendor's targets are two-player.
RUNS = {"sanssouci": (4, 100_000, 5_000), "seikatsu": (2, 100_000, 5_000)}
RUNS_DEFAULT = (2, 50_000, 5_000)
# Targets from the issue: 2-worker scaling, Ray's overhead on one machine, flat memory.
MIN_SCALING = 1.8
MAX_RAY_OVERHEAD = 0.15
MAX_RSS_GROWTH = 1.1
# A 1-minute load average above this (other processes running) makes wall-clock ratios noise.
BUSY_LOAD = 0.5


def engine_rate(name: str, strategy: str, players: int) -> Measure:
    """Games (and turns) per second of one strategy in every seat on one core: no logging,
    no files."""

    def measure(settings: Settings, figures: dict[str, Any]) -> dict[str, Any]:
        game_type = get_game(name)
        game = game_type.new_game(players, {}, game_type.load_components())
        decisions = [0]
        specs = [_counted(resolve(strategy, name), decisions)] * players
        games = settings.games(*ENGINE_GAMES.get(strategy, ENGINE_GAMES_DEFAULT))
        turns = 0
        start, cpu = time.perf_counter(), time.process_time()
        for i in range(games):
            turns += play_game(game_type, game, specs, game_seed(1, i)).turn
        seconds = time.perf_counter() - start
        cpu = time.process_time() - cpu
        return {
            "games": games,
            "seconds": seconds,
            "games_per_s": games / seconds,
            "games_per_cpu_s": games / cpu,
            "workers": 1,
            "turns_per_s": turns / seconds,
            "decisions_per_game": decisions[0] / games,
            "ms_per_decision": 1000 * cpu / decisions[0],
        }

    return measure


def _counted(spec: StrategySpec, decisions: list[int]) -> StrategySpec:
    """The same strategy, counting the decisions it is asked (about 0.1 us each)."""
    base = spec.cls

    def choose(self: Any, view: Any, legal: list[int]) -> int:
        decisions[0] += 1
        return base.choose(self, view, legal)

    counted = type(base.__name__, (base,), {"choose": choose})
    return StrategySpec(spec.name, counted, spec.params, spec.game)


def full_run(name: str, turn_log: bool) -> Measure:
    """`sanssim run` of random games (RUNS) on all workers, Parquet parts included."""

    def measure(settings: Settings, figures: dict[str, Any]) -> dict[str, Any]:
        players, full, quick = RUNS.get(name, RUNS_DEFAULT)
        games = settings.games(full, quick)
        executor = LocalExecutor(settings.workers)
        executor.engine = PYTHON
        result = timed_run(executor, games, turn_log, game=name, players=players)
        no_log = figures.get(f"{prefix(name)}run_{players}p_no_turn_log")
        if turn_log and no_log:
            result["fraction_of_no_turn_log"] = result["games_per_s"] / no_log["games_per_s"]
        engine = figures.get(f"{prefix(name)}engine_random_{players}p")
        if engine:
            ideal = engine["games_per_s"] * settings.workers
            result["fraction_of_engine_x_workers"] = result["games_per_s"] / ideal
            # The same comparison per CPU second: meaningful even on a busy machine.
            result["cpu_fraction_of_engine"] = result["games_per_cpu_s"] / engine["games_per_cpu_s"]
        return result

    return measure


def executor_run(name: str, workers: int) -> Measure:
    """The same work (four-player random games with turn logs, the same chunks) on
    `local` or `ray` with `workers` CPUs; ratios against the local runs before it."""

    def measure(settings: Settings, figures: dict[str, Any]) -> dict[str, Any]:
        games = settings.games(40_000, 4_000)
        chunk = chunk_size_for(games, 2)  # the same chunks for every executor and count
        start = time.perf_counter()
        executor = executor_for(name, workers)
        executor.engine = PYTHON
        started = time.perf_counter() - start
        result = timed_run(executor, games, True, chunk)
        one = figures.get("local_1_worker")
        local = figures.get(f"local_{workers}_workers")
        if name == "ray":
            result["start_s"] = started
            if local:
                result["overhead_vs_local"] = local["games_per_s"] / result["games_per_s"] - 1
                result["cpu_overhead_vs_local"] = (
                    local["games_per_cpu_s"] / result["games_per_cpu_s"] - 1
                )
        elif one and workers > 1:
            result["scaling_vs_1_worker"] = result["games_per_s"] / one["games_per_s"]
            result["cpu_efficiency_vs_1_worker"] = (
                result["games_per_cpu_s"] / one["games_per_cpu_s"]
            )
        return result

    return measure


def memory(small: tuple[int, int], large: tuple[int, int]) -> Measure:
    """Peak RSS of a run's driver (and of its largest worker) at two game counts, each in a
    fresh process, with the same (largest) chunks: flat memory means the same peaks."""

    def measure(settings: Settings, figures: dict[str, Any]) -> dict[str, Any]:
        counts = (settings.games(*small), settings.games(*large))
        peaks = [_peak_rss(games, settings.workers) for games in counts]
        result: dict[str, Any] = {"games": list(counts), "workers": settings.workers}
        for games, (driver, worker) in zip(counts, peaks, strict=True):
            result[f"driver_rss_mb_{games}"] = driver
            result[f"worker_rss_mb_{games}"] = worker
        result["driver_rss_growth"] = peaks[1][0] / peaks[0][0]
        result["worker_rss_growth"] = peaks[1][1] / peaks[0][1]
        return result

    return measure


def _peak_rss(games: int, workers: int) -> tuple[float, float]:
    context = multiprocessing.get_context("spawn")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_rss_child, args=(games, workers, send))
    child.start()
    send.close()
    peaks = receive.recv()
    child.join()
    return peaks


def _rss_child(games: int, workers: int, send: Any) -> None:
    timed_run(LocalExecutor(workers), games, turn_log=True, chunk_size=MAX_CHUNK)
    # ru_maxrss would count the parent's pages from before exec; VmHWM starts afresh.
    status = Path("/proc/self/status").read_text()
    driver = int(status.split("VmHWM:")[1].split()[0]) / 1e3
    worker = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1e3
    send.send((driver, worker))


def measurements(name: str) -> list[tuple[str, Measure]]:
    """One game's measurements; executors and memory are measured on Sanssouci only (the
    runner is the same for every game)."""
    pre = prefix(name)
    players = RUNS.get(name, RUNS_DEFAULT)[0]
    found: list[tuple[str, Measure]] = [
        (f"{pre}engine_{strategy}_{n}p", engine_rate(name, strategy, n))
        for strategy in STRATEGIES
        for n in (2, 3, 4)
    ]
    found += [
        (f"{pre}run_{players}p_no_turn_log", full_run(name, turn_log=False)),
        (f"{pre}run_{players}p_turn_log", full_run(name, turn_log=True)),
    ]
    if get_game(name).core() is not None:
        found += [
            (f"{pre}compiled_engine_{strategy}_{n}p", compiled_rate(name, strategy, n))
            for strategy in STRATEGIES
            for n in (2, 3, 4)
        ]
        found += [
            (f"{pre}compiled_run_{players}p_heuristic_turn_log", compiled_run(name, players)),
            (f"{pre}compile", compile_times(name)),
        ]
    if name == DEFAULT_GAME:
        found += [
            ("local_1_worker", executor_run("local", 1)),
            ("local_2_workers", executor_run("local", 2)),
            ("ray_2_workers", executor_run("ray", 2)),
            ("memory", memory((10_000, 2_000), (100_000, 10_000))),
        ]
    return found


TARGETS = (
    ("local_2_workers", "scaling_vs_1_worker", MIN_SCALING, True),
    ("ray_2_workers", "overhead_vs_local", MAX_RAY_OVERHEAD, False),
    ("memory", "driver_rss_growth", MAX_RSS_GROWTH, False),
    ("memory", "worker_rss_growth", MAX_RSS_GROWTH, False),
    ("engine_random_4p", "games_per_s", 1500, True),
    ("engine_heuristic_4p", "games_per_s", 200, True),
    ("run_4p_no_turn_log", "fraction_of_engine_x_workers", 0.75, True),
    ("compiled_engine_random_4p", "games_per_s", 100_000, True),
    ("compiled_engine_heuristic_4p", "games_per_s", 10_000, True),
    ("compiled_engine_lookahead_4p", "ms_per_decision", 2, False),
    ("compiled_run_4p_heuristic_turn_log", "games_per_s", 5_000, True),
    ("compile", "cold_s", 10, False),
    ("compile", "warm_s", 1, False),
    ("compile", "cold_heuristic_s", 10, False),
    ("compile", "warm_heuristic_s", 1, False),
    ("seikatsu_engine_random_2p", "games_per_s", 6000, True),
    ("seikatsu_engine_heuristic_2p", "games_per_s", 300, True),
    ("seikatsu_run_2p_turn_log", "games_per_s", 2500, True),
    ("seikatsu_run_2p_no_turn_log", "fraction_of_engine_x_workers", 0.75, True),
    ("splendor_engine_random_2p", "turns_per_s", 100_000, True),
    ("splendor_engine_heuristic_2p", "games_per_s", 150, True),
    ("splendor_run_2p_no_turn_log", "fraction_of_engine_x_workers", 0.75, True),
    ("splendor_run_2p_turn_log", "fraction_of_engine_x_workers", 0.5, True),
)


def targets(figures: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The issues' targets against the figures measured (absent ones are left out)."""
    found = {}
    for name, key, limit, at_least in TARGETS:
        value = figures.get(name, {}).get(key)
        if value is not None:
            met = value >= limit if at_least else value <= limit
            target = f"{'>=' if at_least else '<='} {limit}"
            found[f"{name} {key}"] = {"value": value, "target": target, "met": met}
    return found


COLUMNS = ("games", "workers", "seconds", "games_per_s", "games_per_cpu_s")


def markdown(figures: dict[str, Any]) -> str:
    """One row per measurement: the common columns, then whatever else it measured."""
    lines = [
        "| measurement | games | workers | s | games/s | games/CPU-s | other |",
        "|---|--:|--:|--:|--:|--:|---|",
    ]
    for name, values in figures.items():
        cells = [_cell(values.get(key)) for key in COLUMNS]
        other = ", ".join(f"{k} {_cell(v)}" for k, v in values.items() if k not in COLUMNS)
        lines.append(f"| {name} | {' | '.join(cells)} | {other} |")
    return "\n".join(lines)


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:,.3g}" if abs(value) < 100 else f"{value:,.0f}"
    if isinstance(value, list):
        return "/".join(_cell(v) for v in value)
    return f"{value:,}" if isinstance(value, int) else str(value)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the games or less")
    parser.add_argument("--workers", type=int, default=default_workers())
    parser.add_argument("--only", action="append", help="run only these measurements")
    parser.add_argument(
        "--game", action="append", choices=game_names(), help="only these games (default: all)"
    )
    parser.add_argument(
        "--json", type=Path, default=REPO / "reports" / "bench.json", help="figures file"
    )
    args = parser.parse_args()
    chosen = [m for game in args.game or game_names() for m in measurements(game)]
    known = [name for name, _ in chosen]
    unknown = sorted(set(args.only or ()) - set(known))
    if unknown:
        parser.error(f"unknown measurement {unknown[0]!r} (known: {', '.join(known)})")
    settings = Settings(args.quick, args.workers)
    load_before = os.getloadavg()
    figures: dict[str, Any] = {}
    for name, measure in chosen:
        if args.only and name not in args.only:
            continue
        figures[name] = measure(settings, figures)
        print(f"{name:<22} " + ", ".join(f"{k} {_cell(v)}" for k, v in figures[name].items()))
    report = {
        "machine": {
            "python": platform.python_version(),
            "cpus": default_workers(),
            "load_average_before": load_before,
            "load_average_after": os.getloadavg(),
        },
        "quick": args.quick,
        "figures": figures,
        "targets": targets(figures),
    }
    print()
    print(markdown(figures))
    for key, check in report["targets"].items():
        verdict = "met" if check["met"] else "NOT met"
        print(f"target {key} {check['target']}: {_cell(check['value'])} ({verdict})")
    load_after = report["machine"]["load_average_after"][0]
    print(f"load average (1 min) before/after: {load_before[0]:.2f} / {load_after:.2f}")
    if max(load_before[0], load_after) > BUSY_LOAD:
        print("the machine was busy: wall-clock rates and ratios are unreliable, CPU ones less so")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, indent=2) + "\n")
    print(f"figures written to {args.json}")


if __name__ == "__main__":
    main()
