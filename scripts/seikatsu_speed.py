"""Seikatsu engine speed: random and heuristic games per second on one core.

Rates are per CPU second of this process (`time.process_time`), so other
load on the machine does not count against the engine; wall-clock rates are
shown next to them. Each figure is the best of `--repeat` runs.

PYTHONPATH=. .venv/bin/python scripts/seikatsu_speed.py --games 20000 --heuristic-games 500
"""

from __future__ import annotations

import argparse
import io
import random
import time
from collections.abc import Callable
from functools import partial

from sanssim.games.seikatsu import Game, GameConfig, State
from sanssim.games.seikatsu.log import result_frame, turn_frame
from sanssim.games.seikatsu.strategies import HeuristicStrategy
from sanssim.games.seikatsu.view import PlayerView


def timed(run: Callable[[], None], games: int, repeat: int) -> tuple[float, float]:
    """Best (CPU, wall) games per second over `repeat` runs."""
    cpu = wall = 0.0
    for _ in range(repeat):
        c, w = time.process_time(), time.perf_counter()
        run()
        cpu = max(cpu, games / (time.process_time() - c))
        wall = max(wall, games / (time.perf_counter() - w))
    return cpu, wall


def random_games(game: Game, games: int, seed: int) -> None:
    """Engine only: uniform choices, final returns and ranks."""
    rng = random.Random(seed)
    for g in range(games):
        state = game.new_state(g)
        while state.legal:
            legal = state.legal
            state.apply_action(legal[int(rng.random() * len(legal))])
        state.returns()
        state.ranks()


def recorded_games(game: Game, games: int, seed: int) -> list[tuple[int, int, State]]:
    rng = random.Random(seed)
    finished = []
    for g in range(games):
        state = game.new_state(g, record=True)
        while state.legal:
            legal = state.legal
            state.apply_action(legal[int(rng.random() * len(legal))])
        finished.append((g, g, state))
    return finished


def frames(game: Game, finished: list[tuple[int, int, State]]) -> None:
    """Both tables of a chunk, written to parquet in memory as a worker does."""
    strategies = ["random"] * game.n_players
    for df in (
        result_frame("speed", game, strategies, finished),
        turn_frame("speed", game, [(g, state) for g, _, state in finished]),
    ):
        df.write_parquet(io.BytesIO())


def logged_games(game: Game, games: int, seed: int) -> None:
    """Random games with turn logs, end to end: play, build both frames, write parquet."""
    frames(game, recorded_games(game, games, seed))


def heuristic_games(game: Game, games: int, seed: int) -> None:
    """The `heuristic` strategy in every seat."""
    for g in range(games):
        state = game.new_state(g)
        players = [HeuristicStrategy(random.Random(seed + g * 7 + s)) for s in range(state.n)]
        views = [PlayerView(state, s) for s in range(state.n)]
        while state.legal:
            p = state.current
            state.apply_action(players[p].choose(views[p], list(state.legal)))
        state.returns()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--heuristic-games", type=int, default=500)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--tournament", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--frame-games", type=int, default=1000)
    args = parser.parse_args()
    game = Game(GameConfig(args.players, args.tournament))
    random_games(game, min(args.games, 500), args.seed)  # warm-up
    runs = [
        ("random", random_games, args.games),
        ("heuristic", heuristic_games, args.heuristic_games),
    ]
    runs.append(("logged", logged_games, args.games // 4))
    for label, run, games in runs:
        if games:
            cpu, wall = timed(partial(run, game, games, args.seed), games, args.repeat)
            print(
                f"{label:<9} {args.players}p: {cpu:7.0f} games/s per CPU second ({wall:.0f} wall)"
            )
    finished = recorded_games(game, args.frame_games, args.seed)
    cpu, wall = timed(partial(frames, game, finished), args.frame_games, args.repeat)
    print(
        f"frames: {1000 / cpu * 1000:.1f} ms CPU per 1,000 games "
        f"(both tables built and written to parquet; {1000 / wall * 1000:.1f} ms wall)"
    )


if __name__ == "__main__":
    main()
