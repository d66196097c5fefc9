"""Engine speed: random 2-player Splendor, engine only, one core.

    PYTHONPATH=. .venv/bin/python scripts/splendor_speed.py --games 2000
    PYTHONPATH=. .venv/bin/python scripts/splendor_speed.py --strategy heuristic --games 500
    PYTHONPATH=. .venv/bin/python scripts/splendor_speed.py --strategy heuristic --log --games 1000

The random loop chooses `legal[int(rng.random() * len(legal))]` at every decision; with
`--strategy` every seat plays that strategy through its PlayerView instead. `--log`
records the games and times building the results and turns frames (per 1,000 games).
"""

from __future__ import annotations

import argparse
import random
import time

from sanssim.games.splendor.engine import Game, GameConfig, State
from sanssim.games.splendor.log import result_frame, turn_frame
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


def strategy_games(
    game: Game, name: str, games: int, seed: int, finished: list[tuple[int, int, State]] | None
) -> int:
    turns = 0
    for g in range(games):
        game_seed = derive_seed(seed, g)
        state = game.new_state(game_seed, record=finished is not None)
        players = [STRATEGIES[name](random.Random(derive_seed(seed, g, s))) for s in range(state.n)]
        views = [PlayerView(state, s) for s in range(state.n)]
        while state.legal:
            p = state.current
            state.apply_action(players[p].choose(views[p], state.legal))
        turns += state.turn
        if finished is not None:
            finished.append((g, game_seed, state))
    return turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--strategy", default=None, help="greedy or heuristic (default: random)")
    parser.add_argument("--log", action="store_true", help="record and time the log frames")
    args = parser.parse_args()
    game = Game(GameConfig(n_players=args.players))
    finished: list[tuple[int, int, State]] | None = [] if args.log else None
    start = time.perf_counter()
    if args.strategy is None:
        turns = random_games(game, args.games, args.seed)
    else:
        turns = strategy_games(game, args.strategy, args.games, args.seed, finished)
    seconds = time.perf_counter() - start
    who = args.strategy or "random"
    print(
        f"{who} {args.players}p: {args.games} games, {turns} turns in {seconds:.2f} s: "
        f"{args.games / seconds:,.0f} games/s, {turns / seconds:,.0f} turns/s"
    )
    if finished:
        start = time.perf_counter()
        results = result_frame("speed", game, [who] * args.players, finished)
        rows = turn_frame("speed", game, [(g, state) for g, _, state in finished])
        frames = time.perf_counter() - start
        per_1000 = frames * 1000 / args.games
        print(
            f"frames: {results.height} result rows, {rows.height} turn rows in {frames:.3f} s "
            f"({per_1000:.3f} s per 1,000 games); "
            f"with frames {args.games / (seconds + frames):,.0f} games/s"
        )


if __name__ == "__main__":
    main()
