"""Seikatsu's declaration: options, components, strategies, logs, show and report."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sanssim.errors import ConfigError
from sanssim.games.base import ComponentData, GameType, Option, OptionValue
from sanssim.games.seikatsu import log
from sanssim.games.seikatsu.components import TIE_BREAKS, Components, load_components
from sanssim.games.seikatsu.config import GameConfig
from sanssim.games.seikatsu.engine import Game, State
from sanssim.games.seikatsu.render import legend as garden_legend
from sanssim.games.seikatsu.render import render_garden, render_state
from sanssim.games.seikatsu.strategies import GreedyStrategy, HeuristicStrategy
from sanssim.games.seikatsu.view import PlayerView

FROM_COMPONENTS = "components"  # a house rule left to the component data
HOUSE_RULES = ("set_points", "tie_break")


def _given(options: Mapping[str, OptionValue], name: str) -> OptionValue:
    """A house rule's value, None when it is left to the component data."""
    value = options.get(name)
    return None if value in (None, FROM_COMPONENTS) else value


def parse_set_points(text: object) -> tuple[int, ...]:
    """`0,1,3,6,10,15,21`: a row's points by the size of its largest flower set."""
    try:
        return tuple(int(v) for v in str(text).split(","))
    except ValueError:
        raise ConfigError(
            f"set points must be integers like 0,1,3,6,10,15,21, got {text!r}"
        ) from None


class Seikatsu(GameType):
    name = "seikatsu"
    title = "Seikatsu"
    min_players, max_players = 2, 4
    options = (
        Option("tournament", bool, False, "tournament mode: the koi are dealt face up"),
        Option(
            "set_points",
            str,
            FROM_COMPONENTS,
            "house rule: points of a row's flower set of 0, 1, ..., 6 tiles, like "
            "0,1,3,6,10,15,21 (`components`: the component data's)",
            label="set points",
        ),
        Option(
            "tie_break",
            str,
            FROM_COMPONENTS,
            "seat compensation: who wins a tie on total (`components`: the component data's)",
            (FROM_COMPONENTS, *TIE_BREAKS),
            label="tie break",
        ),
    )
    sources = ("bird_points", "flower_points")
    view_class = PlayerView
    own_strategies = (GreedyStrategy, HeuristicStrategy)
    component_data = ComponentData(load_components, Components.from_manifest)
    columns = log.COLUMNS

    def new_game(
        self, n_players: int, options: Mapping[str, OptionValue], components: Components
    ) -> Game:
        table, tie_break = (_given(options, name) for name in HOUSE_RULES)
        config = GameConfig(
            n_players=n_players,
            tournament=bool(options.get("tournament")),
            set_points=None if table is None else parse_set_points(table),
            tie_break=tie_break,  # type: ignore[arg-type]
        )
        return Game(config, components)

    def sides(self, game: Game) -> tuple[int, ...]:
        return tuple(game.side)

    def config_options(
        self, n_players: int, options: Mapping[str, OptionValue], components: Components
    ) -> dict[str, Any]:
        """House rules are recorded only when given, so other runs keep their run ids."""
        recorded = {"tournament": bool(options.get("tournament"))}
        return recorded | {k: _given(options, k) for k in HOUSE_RULES if _given(options, k)}

    def options_from_config(self, config: Mapping[str, Any]) -> dict[str, OptionValue]:
        options = super().options_from_config(config)
        for name in HOUSE_RULES:
            options.setdefault(name, FROM_COMPONENTS)
        return options

    def core(self) -> Any:
        """The compiled core (`sanssim.compiled.Core`); numba is imported only here."""
        from sanssim.games.seikatsu.core import SeikatsuCore

        return SeikatsuCore()

    def same_turn_value(self, column: str, engine: Any, logged: Any) -> bool:
        """A hand is a multiset: its order in the log is not the engine's."""
        if column == "hand":
            return sorted(engine) == sorted(logged or [])
        return engine == logged

    def legend(self, final: State) -> list[str]:
        return ["legend: " + garden_legend(final)]

    def picture(self, state: State, seats: Sequence[int]) -> str:
        return render_garden(state)

    def final_picture(self, state: State) -> str:
        return render_state(state)

    def score_line(self, row: Mapping[str, Any]) -> str:
        return (
            f"  seat {row['seat']} ({row['pagoda']}): {row['total']} (birds "
            f"{row['bird_points']}, flowers {row['flower_points']}, rows {row['row_points']}), "
            f"rank {row['rank']}"
        )

    def turn_line(self, row: Mapping[str, Any]) -> str:
        koi = f" as {row['koi_bird']}" if row["koi_bird"] else ""
        drawn = f"draws {row['drawn']}" if row["drawn"] else "no draw (bag empty)"
        return (
            f"turn {row['turn']} (round {row['round']}) seat {row['seat']} plays "
            f"{row['tile']}{koi} on ({row['q']}, {row['r']}): +{row['bird_points']} birds, "
            f"score {row['score']}; {drawn}; bag {row['bag_left']}"
        )

    def position_lines(self, view: PlayerView) -> list[str]:
        names = view.game.kind_names
        hand = " ".join(names[k] for k in sorted(view.hand)) or "-"
        return [
            f"seat {view.seat} holds {hand}; face-up koi {view.koi_held(view.seat)}",
            view.picture(),
        ]

    def report_sections(self) -> tuple:
        from sanssim.games.seikatsu.report import SECTIONS

        return SECTIONS


GAME = Seikatsu()
