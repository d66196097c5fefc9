"""Strategy cost guide: what `heuristic` and `lookahead` at several budgets cost per decision
and per game, and how many games an hour each affords on a 2-core machine; and what the
compiled `ismcts` costs.

    PYTHONPATH=. .venv/bin/python scripts/costs.py --game sanssouci
    PYTHONPATH=. .venv/bin/python scripts/costs.py --game splendor --players 2 --budgets 8,32
    PYTHONPATH=. .venv/bin/python scripts/costs.py --game seikatsu --budgets '' --seconds 20

Every seat plays the measured strategy (a campaign of that strategy against itself), engine
only: no logs, no files. Each cell (strategy x player count) plays seeded games on one core
until it has used --seconds of CPU time (at least --min-games, at most --games), and --workers
cells run at once (default 2, this machine's cores), so the rates are those of a busy 2-core
machine. Games per hour = games per CPU-second x 3600 x workers: what a `sanssim run` on all
cores plays, before the runner's few percent of overhead (logs, Parquet). Only real decisions
count (the engines play a decision with one legal choice themselves).

A --compiled strategy is timed on the game's compiled core: its compiled choice (the core's
`decide`, one call a decision) at every real decision of seeded `heuristic` self-play
games, less the CPU time of the same calls by the compiled `heuristic`, which is what a call
costs around the strategy (turning the Python state into the core's arrays; a compiled run
does not pay it). Its games and games per hour are those of games of that many decisions.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing import Pool
from typing import Any

from sanssim.compiled import prepare
from sanssim.games import game_names, get_game
from sanssim.runner.play import game_seed, play_game, strategy_rng
from sanssim.strategies import resolve

HEURISTIC = "heuristic"


@dataclass(frozen=True)
class Cell:
    game: str
    strategy: str
    players: int
    compiled: bool = False


@dataclass(frozen=True)
class Cost:
    """What one cell measured: games and decisions played in `cpu` seconds of one core."""

    cell: Cell
    games: int
    decisions: int
    cpu: float

    @property
    def decisions_per_s(self) -> float:
        return self.decisions / self.cpu

    @property
    def games_per_s(self) -> float:
        return self.games / self.cpu


def measure(cell: Cell, seed: int, seconds: float, min_games: int, max_games: int) -> Cost:
    """Play the cell's games until `seconds` of CPU are used (at least `min_games`)."""
    if cell.compiled:
        return measure_compiled(cell, seed, seconds, min_games, max_games)
    game_type = get_game(cell.game)
    game = game_type.new_game(cell.players, {}, game_type.load_components())
    specs = [resolve(cell.strategy, cell.game)] * cell.players
    decisions = [0]

    def count(*_: object) -> None:
        decisions[0] += 1

    start = time.process_time()
    games = 0
    while games < max_games and (games < min_games or time.process_time() - start < seconds):
        play_game(game_type, game, specs, game_seed(seed, games), observe=count)
        games += 1
    return Cost(cell, games, decisions[0], time.process_time() - start)


def measure_compiled(cell: Cell, seed: int, seconds: float, min_games: int, max_games: int) -> Cost:
    """Time the cell's compiled strategy at every real decision of `heuristic` games until
    `seconds` of CPU are used (at least `min_games`), less the compiled heuristic's calls."""
    from sanssim.compiled import rng

    game_type = get_game(cell.game)
    core = game_type.core()
    if core is None:
        raise SystemExit(f"{cell.game} has no compiled engine")
    game = game_type.new_game(cell.players, {}, game_type.load_components())
    spec = resolve(cell.strategy, cell.game)
    base = resolve(HEURISTIC, cell.game)
    prepare(core, [spec, base])
    games = decisions = 0
    cpu = 0.0
    begun = time.process_time()  # the budget counts all CPU used: the net `cpu` may be below 0
    while games < max_games and (games < min_games or time.process_time() - begun < seconds):
        states = _decisions(game_type, game, [base] * cell.players, game_seed(seed, games))
        stream = rng.from_python(strategy_rng(game_seed(seed, games), 0))
        core.decide(states[0], spec, stream.copy())  # loaded before the clock starts
        times = []
        for timed in (spec, base):
            start = time.process_time()
            for state in states:
                core.decide(state, timed, stream)
            times.append(time.process_time() - start)
        cpu += times[0] - times[1]
        games += 1
        decisions += len(states)
    return Cost(cell, games, decisions, cpu)


def _decisions(game_type: Any, game: Any, specs: list, seed: int) -> list:
    """A copy of the state at every real decision of the seeded game."""
    states: list = []
    play_game(game_type, game, specs, seed, observe=lambda state, *_: states.append(state.clone()))
    return states


def _measure(job: tuple[Cell, int, float, int, int]) -> Cost:
    return measure(*job)


def cells(
    game: str,
    players: Sequence[int],
    budgets: Sequence[int],
    width: int,
    compiled: Sequence[str] = (),
) -> list[Cell]:
    strategies = [HEURISTIC, *(f"lookahead:rollouts={b},width={width}" for b in budgets)]
    python = [Cell(game, s, n) for s in strategies for n in players]
    return python + [Cell(game, s, n, compiled=True) for s in compiled for n in players]


def table(costs: Sequence[Cost], workers: int) -> str:
    """The costs as a Markdown table, in the order given."""
    lines = [
        f"| strategy | players | games | decisions per game | ms per decision | decisions/s "
        f"(1 core) | games/s (1 core) | games per hour ({workers} core{'s' * (workers != 1)}) |",
        "|---|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for c in costs:
        lines.append(
            f"| `{c.cell.strategy}`{' (compiled)' * c.cell.compiled} | {c.cell.players} | "
            f"{c.games} | "
            f"{c.decisions / c.games:.0f} | {1000 / c.decisions_per_s:.3g} | "
            f"{c.decisions_per_s:,.0f} | {_rate(c.games_per_s)} | "
            f"{_rate(c.games_per_s * 3600 * workers)} |"
        )
    return "\n".join(lines)


def _rate(value: float) -> str:
    """Three significant figures, thousands separated."""
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:.3g}"


def _ints(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x.strip()]


def _specs(text: str) -> list[str]:
    """Comma-separated strategy specs, a `key=value` item joining the spec before it."""
    specs: list[str] = []
    for item in filter(None, (piece.strip() for piece in text.split(","))):
        if specs and "=" in item and ":" not in item:
            specs[-1] += "," + item
        else:
            specs.append(item)
    return specs


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=game_names(), required=True)
    parser.add_argument("--players", type=_ints, help="player counts (default: all the game's)")
    parser.add_argument("--budgets", type=_ints, default=[8, 32, 128], help="lookahead rollouts")
    parser.add_argument("--width", type=int, default=4, help="lookahead width")
    parser.add_argument(
        "--compiled",
        type=_specs,
        default=["ismcts"],
        help="strategies timed on the compiled core, comma-separated ('' for none; a spec's "
        "own key=value items stay with it: ismcts:iterations=200,depth=8,heuristic)",
    )
    parser.add_argument("--seconds", type=float, default=10.0, help="CPU seconds per cell")
    parser.add_argument("--min-games", type=int, default=3, help="fewest games per cell")
    parser.add_argument("--games", type=int, default=5000, help="most games per cell")
    parser.add_argument("--workers", type=int, default=2, help="cells measured at once")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    game_type = get_game(args.game)
    players = args.players or list(range(game_type.min_players, game_type.max_players + 1))
    for n in players:
        game_type.check_players(n)
    todo = cells(args.game, players, args.budgets, args.width, args.compiled)
    jobs = [(cell, args.seed, args.seconds, args.min_games, args.games) for cell in todo]
    start = time.perf_counter()
    # The dearest cells first, so that the workers finish together.
    dearest = sorted(
        range(len(jobs)), key=lambda i: (todo[i].strategy != HEURISTIC, i), reverse=True
    )
    with Pool(args.workers) as pool:
        costs = pool.map(_measure, [jobs[i] for i in dearest], 1)
    measured = dict(zip(dearest, costs, strict=True))
    costs = [measured[i] for i in range(len(jobs))]
    print(f"{game_type.title}: every seat plays the strategy; seed {args.seed}")
    print()
    print(table(costs, args.workers))
    print()
    print(f"measured in {time.perf_counter() - start:.0f} s with {args.workers} workers")


if __name__ == "__main__":
    main()
