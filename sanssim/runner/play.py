"""Playing one game between strategies, with every seed derived from the game's."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from sanssim.games.base import Engine, GameState, GameType, View
from sanssim.seeding import derive_seed, strategy_seed
from sanssim.strategies.base import Strategy, StrategySpec


def game_seed(master_seed: int, game_index: int) -> int:
    return derive_seed(master_seed, game_index)


def strategy_rng(seed: int, seat: int) -> random.Random:
    return random.Random(strategy_seed(seed, seat))


class GameFailure(Exception):
    """A strategy raised or chose illegally; carries what is needed to replay it."""

    def __init__(self, seed: int, seat: int, turn: int, strategy: str, error: str) -> None:
        super().__init__(f"game seed {seed}, seat {seat} ({strategy}), turn {turn}: {error}")
        self.seed = seed
        self.seat = seat
        self.turn = turn
        self.strategy = strategy
        self.error = error


Observer = Callable[[GameState, Strategy, View], None]


def play_game(
    game_type: GameType,
    game: Engine,
    specs: Sequence[StrategySpec],
    seed: int,
    record: bool = False,
    observe: Observer | None = None,
) -> GameState:
    """Play a whole game of `game_type` and return its final state; raises GameFailure if
    a strategy fails. `observe` sees each decision (state, the deciding strategy, its
    view) before the strategy chooses."""
    state = game.new_state(seed, record)
    players = [spec.make(strategy_rng(seed, seat)) for seat, spec in enumerate(specs)]
    views = [game_type.view(state, seat) for seat in range(game.n_players)]
    while state.legal:
        seat = state.current
        if observe is not None:
            observe(state, players[seat], views[seat])
        try:
            action = players[seat].choose(views[seat], list(state.legal))
            state.apply_action(action)
        except Exception as exc:
            raise GameFailure(
                seed, seat, state.turn, specs[seat].text, f"{type(exc).__name__}: {exc}"
            ) from exc
    return state
