"""Bench measurements of a game's compiled core (`GameType.core()`): engine rates per
strategy, a `sanssim run` of heuristic games with turn logs on it, compile times."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from typing import Any

from bench_common import Measure, Settings, prefix, timed_run

from sanssim.compiled import COMPILED, prepare
from sanssim.games import get_game
from sanssim.runner.executor import LocalExecutor
from sanssim.runner.play import game_seed
from sanssim.strategies import resolve

# A game's compiled core (its `GameType.core()`), engine only: games per measurement (full,
# quick) by strategy; and the `sanssim run` of heuristic games with turn logs on it.
COMPILED_GAMES = {
    "random": (200_000, 20_000),
    "greedy": (50_000, 5_000),
    "heuristic": (20_000, 2_000),
    "lookahead": (40, 4),
}
COMPILED_RUN = (200_000, 20_000)


def compiled_rate(name: str, strategy: str, players: int) -> Measure:
    """Games per second of one strategy in every seat on the game's compiled core, one
    core, in one call per measurement (as a worker plays a chunk), no turn log; ms per
    decision from the Python engine's count of decisions per game (the same games)."""

    def measure(settings: Settings, figures: dict[str, Any]) -> dict[str, Any]:
        game_type = get_game(name)
        core = game_type.core()
        game = game_type.new_game(players, {}, game_type.load_components())
        specs = [resolve(strategy, name)] * players
        prepare(core, specs)  # these seats' family: else it compiled in the timed chunk
        games = settings.games(*COMPILED_GAMES[strategy])
        ids = [(i, game_seed(1, i)) for i in range(games)]
        start, cpu = time.perf_counter(), time.process_time()
        core.play_chunk(game, specs, "bench", [s.text for s in specs], ids, False)
        seconds = time.perf_counter() - start
        cpu = time.process_time() - cpu
        result = {
            "games": games,
            "seconds": seconds,
            "games_per_s": games / seconds,
            "games_per_cpu_s": games / cpu,
            "workers": 1,
        }
        python = figures.get(f"{prefix(name)}engine_{strategy}_{players}p")
        if python:
            result["ms_per_decision"] = 1000 * cpu / (games * python["decisions_per_game"])
            result["speedup_cpu"] = result["games_per_cpu_s"] / python["games_per_cpu_s"]
        return result

    return measure


def compiled_run(name: str, players: int) -> Measure:
    """`sanssim run` of heuristic games with turn logs on the compiled core, all workers."""

    def measure(settings: Settings, figures: dict[str, Any]) -> dict[str, Any]:
        executor = LocalExecutor(settings.workers)
        executor.engine = COMPILED
        games = settings.games(*COMPILED_RUN)
        return timed_run(executor, games, True, None, name, players, "heuristic")

    return measure


def compile_times(name: str) -> Measure:
    """Seconds (wall and CPU) to compile the game's core into an empty cache (cold), then to
    load it from that cache (warm), each in a fresh process, imports included, as a run's
    driver does: for every strategy (`cold_s`, `warm_s`: the whole core, lookahead and
    ismcts included), and in another empty cache for `heuristic` only (what the default
    `sanssim run` compiles)."""

    def measure(settings: Settings, figures: dict[str, Any]) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for label, specs in (("", "None"), ("_heuristic", f"[resolve('heuristic', {name!r})]")):
            code = (
                "import time; t, c = time.perf_counter(), time.process_time(); "
                "from sanssim.compiled import prepare; from sanssim.games import get_game; "
                "from sanssim.strategies import resolve; "
                f"prepare(get_game({name!r}).core(), {specs}); "
                "print(time.perf_counter() - t, time.process_time() - c)"
            )
            with tempfile.TemporaryDirectory() as cache:
                env = {**os.environ, "NUMBA_CACHE_DIR": cache}
                for state in ("cold", "warm"):
                    out = subprocess.run(
                        [sys.executable, "-c", code], env=env, capture_output=True, text=True
                    ).stdout.split()
                    result[f"{state}{label}_s"] = float(out[0])
                    result[f"{state}{label}_cpu_s"] = float(out[1])
        return result

    return measure
