"""Seikatsu strength ladder, quick: greedy vs random and heuristic vs greedy, 2 players.

Every seed is played in both seatings so the first player's advantage cancels.
A win counts 1 (Seikatsu has no shared wins; ranks are never shared); the 95%
interval is Wilson's on the win rate. A step passes when its lower bound is
above 55%.

    PYTHONPATH=. .venv/bin/python scripts/seikatsu_ladder_quick.py --games 1000 --workers 2
"""

from __future__ import annotations

import argparse
import math
import random
import time
from multiprocessing import Pool

from sanssim.games.seikatsu import Game, GameConfig
from sanssim.games.seikatsu.strategies import GreedyStrategy, HeuristicStrategy
from sanssim.games.seikatsu.view import PlayerView
from sanssim.seeding import derive_seed
from sanssim.strategies.base import Strategy

THRESHOLD = 0.55
Z95 = 1.959964


class UniformRandom(Strategy):
    """The ladder's baseline: uniform over the legal choices."""

    name = "random"

    def choose(self, view: PlayerView, legal: list[int]) -> int:
        return legal[int(self.rng.random() * len(legal))]


STRATEGIES: dict[str, type[Strategy]] = {
    "random": UniformRandom,
    "greedy": GreedyStrategy,
    "heuristic": HeuristicStrategy,
}
STEPS = (("greedy", "random"), ("heuristic", "greedy"))


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def play(game: Game, names: tuple[str, str], seed: int) -> list[int]:
    """Final ranks of one game, strategies seeded from the game seed and seat."""
    state = game.new_state(seed)
    players = [
        STRATEGIES[name](random.Random(derive_seed(seed, seat, 1)))
        for seat, name in enumerate(names)
    ]
    views = [PlayerView(state, seat) for seat in range(2)]
    while state.legal:
        seat = state.current
        state.apply_action(players[seat].choose(views[seat], list(state.legal)))
    return state.ranks()


def both_seatings(job: tuple[str, str, int, bool]) -> int:
    """Wins of `strong` over the two games of one seed (0, 1 or 2)."""
    strong, weak, seed, tournament = job
    game = Game(GameConfig(2, tournament))
    first = play(game, (strong, weak), seed)
    second = play(game, (weak, strong), seed)
    return (first[0] == 1) + (second[1] == 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="seeds per step (x2 games)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--tournament", action="store_true")
    args = parser.parse_args()
    with Pool(args.workers) as pool:
        for strong, weak in STEPS:
            start = time.perf_counter()
            jobs = [
                (strong, weak, derive_seed(args.seed, i), args.tournament)
                for i in range(args.games)
            ]
            wins = sum(pool.map(both_seatings, jobs, chunksize=25))
            n = 2 * args.games
            low, high = wilson(wins, n)
            verdict = "PASS" if low > THRESHOLD else "FAIL"
            print(
                f"{strong} vs {weak}: {wins}/{n} = {wins / n:.3f} "
                f"(95% {low:.3f}-{high:.3f}) {verdict}  {time.perf_counter() - start:.1f}s"
            )


if __name__ == "__main__":
    main()
