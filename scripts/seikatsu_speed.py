"""Seikatsu engine speed: random and heuristic games per second on one core.

PYTHONPATH=. .venv/bin/python scripts/seikatsu_speed.py --games 20000 --heuristic-games 500
"""

from __future__ import annotations

import argparse
import random
import time

from sanssim.games.seikatsu import Game, GameConfig


def random_games(game: Game, games: int, seed: int) -> float:
    """Games per second, engine only: uniform choices, final returns and ranks."""
    rng = random.Random(seed)
    start = time.perf_counter()
    for g in range(games):
        state = game.new_state(g)
        while state.legal:
            legal = state.legal
            state.apply_action(legal[int(rng.random() * len(legal))])
        state.returns()
        state.ranks()
    return games / (time.perf_counter() - start)


def heuristic_games(game: Game, games: int, seed: int) -> float:
    """Games per second with the `heuristic` strategy in every seat."""
    from sanssim.games.seikatsu.strategies import HeuristicStrategy
    from sanssim.games.seikatsu.view import PlayerView

    start = time.perf_counter()
    for g in range(games):
        state = game.new_state(g)
        players = [HeuristicStrategy(random.Random(seed + g * 7 + s)) for s in range(state.n)]
        views = [PlayerView(state, s) for s in range(state.n)]
        while state.legal:
            p = state.current
            state.apply_action(players[p].choose(views[p], list(state.legal)))
        state.returns()
    return games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--heuristic-games", type=int, default=500)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--tournament", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = Game(GameConfig(args.players, args.tournament))
    random_games(game, min(args.games, 500), args.seed)  # warm-up
    print(f"random    {args.players}p: {random_games(game, args.games, args.seed):8.0f} games/s")
    if args.heuristic_games:
        rate = heuristic_games(game, args.heuristic_games, args.seed)
        print(f"heuristic {args.players}p: {rate:8.0f} games/s")


if __name__ == "__main__":
    main()
