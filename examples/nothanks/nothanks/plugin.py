"""No Thanks!'s declaration: its options, strategies, extra log columns and picture."""

from __future__ import annotations

import polars as pl

from nothanks.engine import Config, Game, State
from nothanks.strategies import HeuristicStrategy
from nothanks.view import PlayerView
from sanssim.games.base import GameType, Option, OwnColumns


def _results(game: Game, finished: list) -> dict[str, list]:
    states = [state for _, _, state in finished]
    return {
        "cards": [sorted(s.cards[p]) for s in states for p in range(s.n)],
        "chips": [s.chips[p] for s in states for p in range(s.n)],
    }


class NoThanks(GameType):
    name, title = "nothanks", "No Thanks!"
    min_players, max_players = 3, 7
    options = (
        Option("removed", int, 9, "cards removed face down at the start"),
        Option("chips", int, 11, "chips each player starts with"),
    )
    lowest_wins = True
    view_class = PlayerView
    own_strategies = (HeuristicStrategy,)
    columns = OwnColumns(
        {"cards": pl.List(pl.Int8()), "chips": pl.Int8()},
        {"card": pl.Int8(), "took": pl.Boolean(), "pot": pl.Int8(), "chips": pl.Int8()},
        results=_results,
    )

    def new_game(self, n_players: int, options: dict, components: object) -> Game:
        return Game(Config(n_players, **{k: int(v) for k, v in options.items() if v is not None}))

    def picture(self, state: State, seats: object) -> str:
        held = [f"seat {p}: {sorted(c)} chips {state.chips[p]}" for p, c in enumerate(state.cards)]
        return "\n".join([f"card {state.card}, pot {state.pot}, deck {len(state.deck)}", *held])


GAME = NoThanks()
