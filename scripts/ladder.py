"""The strength ladder: each built-in strategy must beat the one below it.

The games are played by the runner (`sanssim run`'s machinery), so they run on the game's
compiled core where it has one (`--engine auto`, the default) and the same games on the
Python engine otherwise; each step is an experiment directory under `--out` (one arm per
seating, all on the same seeds), which `sanssim show` and `sanssim report` read and which
resumes when a step is run again with the same settings.

Two-player steps play every seed twice, once in each seating, so the first player's
advantage cancels. A win counts 1, a shared win 0.5; the 95% interval is Wilson's on the
win rate. The 4-player step (`ismcts-4p`) seats the strong strategy against three of the
weak one, in each of the four seats in turn (rotations) on the same seeds; its win rate is
the strong seat's share of its meetings with the seats it plays against (1 for finishing
ahead, 0.5 for a tie), so a fair step scores 50% as at 2 players, and its interval is the
t interval over deals (a deal's four seatings averaged: one cluster). In a game played in
teams (Seikatsu at 4 players: seats 0 and 2 against 1 and 3) the strong seat's teammate
is a weak one and a meeting is its team's result against the other team: the step asks
whether one strong player lifts a team. A step passes when the interval's lower bound is
above 55%. An ismcts step that fails at its budget is played again at each of
`--escalate`'s iteration counts in turn until one passes (`budgets` in the JSON).

    .venv/bin/python scripts/ladder.py --games 2000 --lookahead-games 500
    .venv/bin/python scripts/ladder.py --game seikatsu --json reports/ladder-seikatsu.json
    .venv/bin/python scripts/ladder.py --speed 300   # speed and cost only (Python engine)
    .venv/bin/python scripts/ladder.py --steps ismcts-lookahead,ismcts-4p --ismcts-games 600
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import re
import shlex
import statistics
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from sanssim.analysis.load import open_run
from sanssim.analysis.stats import t_quantile
from sanssim.compiled import AUTO, ENGINES
from sanssim.games import DEFAULT_GAME, GameType, game_names, get_game
from sanssim.runner.config import Arm, build_config
from sanssim.runner.executor import LocalExecutor
from sanssim.runner.lock import holding
from sanssim.runner.play import game_seed, play_game, strategy_rng
from sanssim.runner.run import execute, plan
from sanssim.strategies import resolve

THRESHOLD = 0.55
Z95 = 1.959964
COLUMNS = ["game_id", "seat", "rank", "total"]


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
    players: int = 2
    interval: str = "Wilson"
    # The same step at larger ismcts budgets, in order, up to the first that passes.
    budgets: list[dict[str, Any]] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return self.ci_low > THRESHOLD


@dataclass(frozen=True, slots=True)
class Settings:
    game: str
    seed: int
    workers: int
    engine: str
    out: Path


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


def seatings(strong: str, weak: str, players: int) -> list[tuple[str, ...]]:
    """`strong` in each seat in turn, `weak` in every other seat."""
    return [tuple(strong if s == k else weak for s in range(players)) for k in range(players)]


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_")


def play_step(
    settings: Settings, strong: str, weak: str, games: int, players: int
) -> tuple[Path, list[int]]:
    """Play (or resume) the step's seatings, `games // players` seeds each; returns the
    experiment directory and the strong seat of each arm."""
    seeds = max(1, games // players)
    seated = seatings(strong, weak, players)
    arms = [
        Arm(
            f"{k:02d}-seat{k}",
            build_config(
                game=settings.game,
                n_players=players,
                games=seeds,
                seed=settings.seed,
                strategies=list(seats),
                turn_log=False,
            ),
        )
        for k, seats in enumerate(seated)
    ]
    out = settings.out / settings.game / _slug(f"{strong}-vs-{weak}-p{players}-{seeds}")
    run_plan = plan(out, arms, force=False)
    executor = LocalExecutor(settings.workers)
    executor.engine = settings.engine
    command = [sys.executable, *sys.argv]
    with holding(run_plan.out, run_plan.clear), executor:
        execute(run_plan, executor, command)
    return out, list(range(players))


def _points(rows: pl.DataFrame, seat: int) -> tuple[float, float]:
    """The seat's mean meeting points against the seats not on its team, and its total
    minus theirs on average, in one game's results rows."""
    me = rows.filter(pl.col("seat") == seat).row(0, named=True)
    others = rows.filter(pl.col("seat") != seat)
    if "team" in rows.columns and me["team"] is not None:
        others = others.filter(pl.col("team") != me["team"])
    ranks, totals = others["rank"].to_list(), others["total"].to_list()
    points = [1.0 if me["rank"] < r else 0.5 if me["rank"] == r else 0.0 for r in ranks]
    return statistics.fmean(points), me["total"] - statistics.fmean(totals)


def score_step(out: Path, strong_seats: list[int]) -> dict[int, list[tuple[float, float]]]:
    """Per deal (game id), the strong seat's (points, margin) in every seating."""
    by_deal: dict[int, list[tuple[float, float]]] = {}
    for k, seat in enumerate(strong_seats):
        run = open_run(out / f"{k:02d}-seat{k}", COLUMNS)
        names = run.results.collect_schema().names()
        results = run.results.select(*COLUMNS, *(["team"] if "team" in names else [])).collect()
        for (game_id,), rows in results.group_by("game_id"):
            by_deal.setdefault(game_id, []).append(_points(rows, seat))
    return by_deal


def run_step(
    settings: Settings, strong: str, weak: str, games: int, players: int = 2
) -> StepResult:
    start = time.perf_counter()
    out, strong_seats = play_step(settings, strong, weak, games, players)
    by_deal = score_step(out, strong_seats)
    played = [pm for deal in by_deal.values() for pm in deal]
    n = len(played)
    rate = sum(p for p, _ in played) / n
    if players == 2:
        (low, high), interval = wilson(sum(p for p, _ in played), n), "Wilson"
    else:
        deals = [statistics.fmean(p for p, _ in deal) for deal in by_deal.values()]
        half = t_quantile(0.975, len(deals) - 1) * statistics.stdev(deals) / math.sqrt(len(deals))
        low, high, interval = rate - half, rate + half, "t over deals (seatings clustered)"
    return StepResult(
        step=f"{strong.split(':')[0]} vs {weak.split(':')[0]}" + (f", {players}p" * (players > 2)),
        strong=strong,
        weak=weak,
        games=n,
        win_rate=rate,
        ci_low=low,
        ci_high=high,
        mean_margin=sum(m for _, m in played) / n,
        seconds=time.perf_counter() - start,
        players=players,
        interval=interval,
    )


def with_iterations(spec: str, iterations: int) -> str:
    """`spec` at another budget (an `iterations` it names is replaced: a repeated key is an
    error)."""
    name, _, params = spec.partition(":")
    kept = [p for p in params.split(",") if p and not p.startswith("iterations=")]
    return f"{name}:{','.join([*kept, f'iterations={iterations}'])}"


def escalated(
    settings: Settings, result: StepResult, escalate: list[int], games: int
) -> StepResult:
    """A failed ismcts step with the same step at each larger budget until one passes."""
    tried: list[dict[str, Any]] = []
    for iterations in escalate:
        if result.passed or tried and tried[-1]["passed"]:
            break
        strong = with_iterations(result.strong, iterations)
        again = run_step(settings, strong, result.weak, games, result.players)
        tried.append(_row(again))
        print(markdown([again]).splitlines()[-1], file=sys.stderr, flush=True)
    return StepResult(**{**_fields(result), "budgets": tried})


def _fields(r: StepResult) -> dict[str, Any]:
    return {name: getattr(r, name) for name in StepResult.__slots__}


def _row(r: StepResult) -> dict[str, Any]:
    return asdict(r) | {"passed": r.passed}


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
        rows = [_row(r), *r.budgets]
        for row in rows:
            name = row["step"] if row is rows[0] else f"… {row['strong']}"
            lines.append(
                f"| {name} | {row['games']} | {row['win_rate']:.1%} | {row['ci_low']:.1%} - "
                f"{row['ci_high']:.1%} | {row['mean_margin']:+.1f} | "
                f"{'pass' if row['passed'] else 'FAIL'} |"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default=DEFAULT_GAME, choices=game_names(), help="the game")
    parser.add_argument("--games", type=int, default=2000, help="games per step (all seatings)")
    parser.add_argument("--lookahead-games", type=int, default=500, help="games for lookahead")
    parser.add_argument("--budget", type=int, default=None, help="lookahead rollouts per decision")
    parser.add_argument("--ismcts", default="ismcts", help="the ismcts spec of the ismcts steps")
    parser.add_argument("--ismcts-games", type=int, default=600, help="games per ismcts step")
    parser.add_argument(
        "--escalate", default="200,400,800", help="ismcts iterations tried, in turn, after a fail"
    )
    parser.add_argument("--seed", type=int, default=2026, help="master seed")
    parser.add_argument("--workers", type=int, default=2, help="worker processes")
    parser.add_argument("--engine", default=AUTO, choices=ENGINES, help="how games are played")
    parser.add_argument("--out", default="runs/ladder", help="where the steps' games go")
    parser.add_argument(
        "--steps",
        default="greedy,heuristic,lookahead,ismcts-lookahead,ismcts-4p",
        help="which steps (the stronger side; ismcts-lookahead: ismcts against lookahead; "
        "ismcts-4p: ismcts against three heuristic seats)",
    )
    parser.add_argument("--json", default="reports/ladder.json", help="where to write the table")
    parser.add_argument(
        "--speed", type=int, default=0, metavar="GAMES",
        help="only measure, on the Python engine: heuristic 4-player games per CPU second and "
        "lookahead's and ismcts's cost per decision (over GAMES and GAMES // 10 games)",
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
    settings = Settings(args.game, args.seed, args.workers, args.engine, Path(args.out))
    escalate = [int(x) for x in args.escalate.split(",") if x]
    ladder = {
        "greedy": ("greedy", "random", args.games, 2),
        "heuristic": ("heuristic", "greedy", args.games, 2),
        "lookahead": (lookahead, "heuristic", args.lookahead_games, 2),
        "ismcts": (args.ismcts, "heuristic", args.ismcts_games, 2),
        "ismcts-lookahead": (args.ismcts, lookahead, args.ismcts_games, 2),
        "ismcts-4p": (args.ismcts, "heuristic", args.ismcts_games, 4),
    }
    results = []
    for name in args.steps.split(","):
        strong, weak, games, players = ladder[name]
        result = run_step(settings, strong, weak, games, players)
        print(markdown([result]).splitlines()[-1], file=sys.stderr, flush=True)
        if name.startswith("ismcts"):
            result = escalated(settings, result, escalate, games)
        results.append(result)
    command = shlex.join([".venv/bin/python", "scripts/ladder.py", *sys.argv[1:]])
    print(markdown(results))
    print(f"\nCommand: `{command}`")
    with open(args.json, "w") as out:
        json.dump(
            {
                "command": command,
                "game": args.game,
                "threshold": THRESHOLD,
                "steps": [_row(r) for r in results],
            },
            out,
            indent=2,
        )
    return 0 if all(r.passed or any(b["passed"] for b in r.budgets) for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
