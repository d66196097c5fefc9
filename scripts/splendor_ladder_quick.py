"""Quick Splendor strength ladder: greedy vs random and heuristic vs greedy, 2 players.

Every seed is played in both seatings, so the first player's advantage cancels; a win
counts 1, a shared win 0.5. Each step passes when the Wilson 95% lower bound of the win
rate is above 55%. Also prints the first seat's win rate in heuristic-vs-heuristic.

    PYTHONPATH=. .venv/bin/python scripts/splendor_ladder_quick.py --seeds 500
"""

from __future__ import annotations

import argparse
import math
import random
import time

from sanssim.games.splendor.engine import Game, GameConfig, State
from sanssim.games.splendor.strategies import STRATEGIES
from sanssim.games.splendor.view import PlayerView
from sanssim.seeding import derive_seed
from sanssim.strategies.base import Strategy

Z95 = 1.959964
THRESHOLD = 0.55


class Uniform(Strategy):
    name = "random"

    def choose(self, view: PlayerView, legal: list[int]) -> int:
        return legal[int(self.rng.random() * len(legal))]


KINDS: dict[str, type[Strategy]] = {"random": Uniform, **STRATEGIES}


def wilson(points: float, n: int, z: float = Z95) -> tuple[float, float]:
    p = points / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def play(game: Game, seats: list[str], seed: int) -> State:
    state = game.new_state(seed)
    players = [KINDS[name](random.Random(derive_seed(seed, s, 1))) for s, name in enumerate(seats)]
    views = [PlayerView(state, s) for s in range(state.n)]
    while state.legal:
        p = state.current
        state.apply_action(players[p].choose(views[p], state.legal))
    return state


def win_points(state: State, seat: int) -> float:
    ranks = state.ranks()
    if ranks[seat] != 1:
        return 0.0
    return 1.0 / ranks.count(1)


def step(game: Game, strong: str, weak: str, seeds: int, master: int) -> None:
    points = 0.0
    capped = 0
    start = time.perf_counter()
    for i in range(seeds):
        seed = derive_seed(master, i)
        for strong_seat in (0, 1):
            seats = [weak, weak]
            seats[strong_seat] = strong
            state = play(game, seats, seed)
            points += win_points(state, strong_seat)
            capped += state.end_reason == 2
    n = 2 * seeds
    low, high = wilson(points, n)
    verdict = "PASS" if low > THRESHOLD else "FAIL"
    print(
        f"{strong} vs {weak}: {n} games, win rate {points / n:.3f} "
        f"[{low:.3f}, {high:.3f}] {verdict}; round-cap games {capped}; "
        f"{time.perf_counter() - start:.1f} s"
    )


def first_seat(game: Game, name: str, seeds: int, master: int) -> None:
    points = sum(
        win_points(play(game, [name, name], derive_seed(master, i)), 0) for i in range(seeds)
    )
    low, high = wilson(points, seeds)
    print(
        f"{name} vs {name}: first seat wins {points / seeds:.3f} [{low:.3f}, {high:.3f}] of {seeds}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=500, help="seeds per step (2 games each)")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    game = Game(GameConfig(n_players=2))
    step(game, "greedy", "random", args.seeds, args.seed)
    step(game, "heuristic", "greedy", args.seeds, args.seed + 1)
    first_seat(game, "heuristic", 2 * args.seeds, args.seed + 2)


if __name__ == "__main__":
    main()
