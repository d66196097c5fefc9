"""The strength ladder: each built-in strategy must beat the one below it in 2-player games.

Every game seed is played twice, once in each seating, so the first player's
advantage cancels. A win counts 1, a shared win 0.5; the 95% interval is
Wilson's on the win rate. A step passes when the interval's lower bound is
above 55%.

    .venv/bin/python scripts/ladder.py --games 2000 --lookahead-games 500
    .venv/bin/python scripts/ladder.py --game seikatsu --json reports/ladder-seikatsu.json
    .venv/bin/python scripts/ladder.py --speed 300   # speed and cost only
    .venv/bin/python scripts/ladder.py --steps ismcts,ismcts-lookahead --ismcts-games 100
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import shlex
import sys
import time
from dataclasses import asdict, dataclass
from multiprocessing import Pool
from typing import Any

from sanssim.games import DEFAULT_GAME, GameType, game_names, get_game
from sanssim.runner.play import game_seed, play_game, strategy_rng
from sanssim.strategies import resolve

THRESHOLD = 0.55
Z95 = 1.959964


@dataclass(frozen=True, slots=True)
class StepResult:
    step: str
    strong: str
    weak: str
    games: int
    win_rate: float
    ci_low: float
    ci_high: float
    mean_margin: float
    seconds: float

    @property
    def passed(self) -> bool:
        return self.ci_low > THRESHOLD


def wilson(points: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a rate of `points` successes in `n` trials."""
    if n == 0:
        return 0.0, 1.0
    p = points / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def new_game(name: str, players: int) -> tuple[GameType, Any]:
    """The game type and its default game (packaged components, default options)."""
    game_type = get_game(name)
    return game_type, game_type.new_game(players, {}, game_type.load_components())


def play_both_seatings(job: tuple[str, str, str, int, int]) -> tuple[float, int]:
    """Win points and total score margin of `strong` over the two games of one seed."""
    name, strong, weak, master, index = job
    specs = (resolve(strong, name), resolve(weak, name))
    game_type, game = new_game(name, 2)
    seed = game_seed(master, index)
    points, margin = 0.0, 0
    for seat in (0, 1):
        players = [specs[0], specs[1]] if seat == 0 else [specs[1], specs[0]]
        state = play_game(game_type, game, players, seed)
        ranks = state.ranks()
        totals = state.returns()
        mine, theirs = ranks[seat], ranks[1 - seat]
        points += 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
        margin += totals[seat] - totals[1 - seat]
    return points, margin


def run_step(
    name: str, strong: str, weak: str, games: int, master: int, workers: int
) -> StepResult:
    seeds = max(1, games // 2)
    jobs = [(name, strong, weak, master, i) for i in range(seeds)]
    start = time.perf_counter()
    if workers > 1:
        with Pool(workers) as pool:
            results = pool.map(play_both_seatings, jobs, chunksize=max(1, seeds // (8 * workers)))
    else:
        results = [play_both_seatings(job) for job in jobs]
    n = 2 * seeds
    points = sum(p for p, _ in results)
    low, high = wilson(points, n)
    return StepResult(
        step=f"{strong.split(':')[0]} vs {weak.split(':')[0]}",
        strong=strong,
        weak=weak,
        games=n,
        win_rate=points / n,
        ci_low=low,
        ci_high=high,
        mean_margin=sum(m for _, m in results) / n,
        seconds=time.perf_counter() - start,
    )


def heuristic_speed(name: str, games: int, players: int = 4) -> float:
    """Games per CPU second of `heuristic` in every seat (one process, one core)."""
    game_type, game = new_game(name, players)
    specs = [resolve("heuristic", name)] * players
    start = time.process_time()
    for i in range(games):
        play_game(game_type, game, specs, game_seed(1, i))
    return games / (time.process_time() - start)


def search_cost(name: str, spec: str, games: int, players: int) -> tuple[float, float]:
    """(CPU ms per decision, decisions per game) of `spec` in seat 0 against `heuristic`."""
    game_type, game = new_game(name, players)
    opponent = resolve("heuristic", name)
    searcher = resolve(spec, name)
    seconds, decisions = 0.0, 0
    for i in range(games):
        seed = game_seed(2, i)
        state = game.new_state(seed)
        seats = [searcher.make(strategy_rng(seed, 0))]
        seats += [opponent.make(strategy_rng(seed, p)) for p in range(1, players)]
        views = [game_type.view(state, p) for p in range(players)]
        while state.legal:
            seat = state.current
            start = time.process_time()
            action = seats[seat].choose(views[seat], list(state.legal))
            if seat == 0:
                seconds += time.process_time() - start
                decisions += 1
            state.apply_action(action)
    return 1000 * seconds / decisions, decisions / games


def markdown(results: list[StepResult]) -> str:
    lines = [
        "| step | games | win rate | 95% CI | mean margin | result (lower bound > 55%) |",
        "|---|---|---|---|---|---|",
    ]
    for r in results:
        lines.append(
            f"| {r.step} | {r.games} | {r.win_rate:.1%} | {r.ci_low:.1%} - {r.ci_high:.1%} | "
            f"{r.mean_margin:+.1f} | {'pass' if r.passed else 'FAIL'} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default=DEFAULT_GAME, choices=game_names(), help="the game")
    parser.add_argument("--games", type=int, default=2000, help="games per step (both seatings)")
    parser.add_argument("--lookahead-games", type=int, default=500, help="games for lookahead")
    parser.add_argument("--budget", type=int, default=None, help="lookahead rollouts per decision")
    parser.add_argument("--ismcts", default="ismcts", help="the ismcts spec of the ismcts steps")
    parser.add_argument("--ismcts-games", type=int, default=100, help="games for each ismcts step")
    parser.add_argument("--seed", type=int, default=2026, help="master seed")
    parser.add_argument("--workers", type=int, default=2, help="worker processes")
    parser.add_argument(
        "--steps",
        default="greedy,heuristic,lookahead",
        help="which steps (the stronger side; ismcts-lookahead: ismcts against lookahead)",
    )
    parser.add_argument("--json", default="reports/ladder.json", help="where to write the table")
    parser.add_argument(
        "--speed", type=int, default=0, metavar="GAMES",
        help="only measure: heuristic 4-player games per CPU second and lookahead's and "
        "ismcts's cost per decision (over GAMES and GAMES // 10 games)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    lookahead = "lookahead" if args.budget is None else f"lookahead:rollouts={args.budget}"
    if args.speed:
        speed = heuristic_speed(args.game, args.speed)
        print(f"{args.game} heuristic, 4 players: {speed:.0f} games per CPU second")
        for spec, players in itertools.product((lookahead, args.ismcts), (2, 4)):
            ms, per_game = search_cost(args.game, spec, max(1, args.speed // 10), players)
            print(
                f"{resolve(spec, args.game).text}, {players} players: "
                f"{ms:.1f} ms CPU per decision, "
                f"{per_game:.0f} decisions per game"
            )
        return 0
    ladder = {
        "greedy": ("greedy", "random", args.games),
        "heuristic": ("heuristic", "greedy", args.games),
        "lookahead": (lookahead, "heuristic", args.lookahead_games),
        "ismcts": (args.ismcts, "heuristic", args.ismcts_games),
        "ismcts-lookahead": (args.ismcts, lookahead, args.ismcts_games),
    }
    results = []
    for name in args.steps.split(","):
        strong, weak, games = ladder[name]
        results.append(run_step(args.game, strong, weak, games, args.seed, args.workers))
        print(markdown(results[-1:]).splitlines()[-1], file=sys.stderr, flush=True)
    command = shlex.join([".venv/bin/python", "scripts/ladder.py", *sys.argv[1:]])
    print(markdown(results))
    print(f"\nCommand: `{command}`")
    with open(args.json, "w") as out:
        json.dump(
            {
                "command": command,
                "game": args.game,
                "threshold": THRESHOLD,
                "steps": [asdict(r) | {"passed": r.passed} for r in results],
            },
            out,
            indent=2,
        )
    return 0 if all(r.passed for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
