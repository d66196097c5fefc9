"""Engine speed: random 2-player Splendor, engine only, one core.

    PYTHONPATH=. .venv/bin/python scripts/splendor_speed.py --games 2000
    PYTHONPATH=. .venv/bin/python scripts/splendor_speed.py --strategy heuristic --games 500

The random loop chooses `legal[int(rng.random() * len(legal))]` at every decision; with
`--strategy` every seat plays that strategy through its PlayerView instead.
"""

from __future__ import annotations

import argparse
import random
import time

from sanssim.games.splendor.engine import Game, GameConfig
from sanssim.games.splendor.strategies import STRATEGIES
from sanssim.games.splendor.view import PlayerView
from sanssim.seeding import derive_seed


def random_games(game: Game, games: int, seed: int) -> int:
    """Play `games` uniformly random games; the number of turns played."""
    rng = random.Random(seed)
    turns = 0
    for g in range(games):
        state = game.new_state(derive_seed(seed, g))
        legal = state.legal
        while legal:
            state.apply_action(legal[int(rng.random() * len(legal))])
            legal = state.legal
        turns += state.turn
    return turns


def strategy_games(game: Game, name: str, games: int, seed: int) -> int:
    turns = 0
    for g in range(games):
        state = game.new_state(derive_seed(seed, g))
        players = [STRATEGIES[name](random.Random(derive_seed(seed, g, s))) for s in range(state.n)]
        views = [PlayerView(state, s) for s in range(state.n)]
        while state.legal:
            p = state.current
            state.apply_action(players[p].choose(views[p], state.legal))
        turns += state.turn
    return turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--strategy", default=None, help="greedy or heuristic (default: random)")
    args = parser.parse_args()
    game = Game(GameConfig(n_players=args.players))
    start = time.perf_counter()
    if args.strategy is None:
        turns = random_games(game, args.games, args.seed)
    else:
        turns = strategy_games(game, args.strategy, args.games, args.seed)
    seconds = time.perf_counter() - start
    who = args.strategy or "random"
    print(
        f"{who} {args.players}p: {args.games} games, {turns} turns in {seconds:.2f} s: "
        f"{args.games / seconds:,.0f} games/s, {turns / seconds:,.0f} turns/s"
    )


if __name__ == "__main__":
    main()
