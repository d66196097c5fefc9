"""Splendor's declaration: options, components, strategies, logs, show and report."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sanssim.games.base import ComponentData, GameType, Option, OptionValue
from sanssim.games.splendor import log
from sanssim.games.splendor.actions import BUY, PASS, TAKE_DIFF_GEMS
from sanssim.games.splendor.components import Components, load_components
from sanssim.games.splendor.config import MAX_PLAYERS, MIN_PLAYERS, GameConfig
from sanssim.games.splendor.engine import Game, State
from sanssim.games.splendor.render import LEGEND, render_state
from sanssim.games.splendor.strategies import GreedyStrategy, HeuristicStrategy
from sanssim.games.splendor.view import PlayerView

PARAMETERS = (
    "target_points",
    "gem_tokens",
    "gold_tokens",
    "nobles",
    "max_rounds",
    "later_seat_gold",
    "later_seat_gems",
    "ties_to_later_seat",
    "first_turn_gems",
    "later_seat_limit",
)


SEAT_COMPENSATIONS = {
    "later_seat_gold": 0,
    "later_seat_gems": 0,
    "ties_to_later_seat": False,
    "first_turn_gems": TAKE_DIFF_GEMS,
    "later_seat_limit": 0,
}


class Splendor(GameType):
    name = "splendor"
    title = "Splendor"
    min_players, max_players = MIN_PLAYERS, MAX_PLAYERS
    options = (
        Option("target_points", int, 15, "prestige points that end the game"),
        Option("gem_tokens", int, None, "tokens per gem colour (default by players: 4/5/7)"),
        Option("gold_tokens", int, 5, "gold tokens"),
        Option("nobles", int, None, "nobles revealed (default: players + 1)"),
        Option("max_rounds", int, 100, "round cap that guarantees the game ends"),
        Option(
            "later_seat_gold",
            int,
            0,
            "seat compensation: gold tokens (from the supply) each seat after the first "
            "starts with",
            label="later-seat gold",
        ),
        Option(
            "later_seat_gems",
            int,
            0,
            "seat compensation: gem tokens (from the supply) each seat after the first starts "
            "with, one of each colour from white on (0-5)",
            label="later-seat gems",
        ),
        Option(
            "ties_to_later_seat",
            bool,
            False,
            "seat compensation: a tie on points goes to the later seat (before fewest cards)",
        ),
        Option(
            "first_turn_gems",
            int,
            TAKE_DIFF_GEMS,
            "seat compensation: gems the first player's first turn takes, of different "
            "colours (1-3; below 3 no two of a colour); reserving stays legal",
            label="first-turn gems",
        ),
        Option(
            "later_seat_limit",
            int,
            0,
            "seat compensation: tokens each seat after the first may hold beyond the "
            "10-token limit (0-10)",
            label="later-seat token limit",
        ),
    )
    sources = ("card_points", "noble_points")
    options_in_results = ("target_points", "gem_tokens", "gold_tokens", "max_rounds")
    view_class = PlayerView
    own_strategies = (GreedyStrategy, HeuristicStrategy)
    component_data = ComponentData(load_components, Components.from_dict)
    columns = log.COLUMNS

    def new_game(
        self, n_players: int, options: Mapping[str, OptionValue], components: Components
    ) -> Game:
        given = {k: options[k] for k in PARAMETERS if options.get(k) is not None}
        return Game(GameConfig(n_players=n_players, **given), components)  # type: ignore[arg-type]

    def config_options(
        self, n_players: int, options: Mapping[str, OptionValue], components: Components
    ) -> dict[str, Any]:
        """`variants`: the five rule parameters, player-count defaults left as null."""
        return {"variants": self.new_game(n_players, options, components).config.variants()}

    def options_from_config(self, config: Mapping[str, Any]) -> dict[str, OptionValue]:
        variants = config.get("variants") or {}
        options = {k: variants[k] for k in PARAMETERS if variants.get(k) is not None}
        for name, default in SEAT_COMPENSATIONS.items():  # recorded only when given
            options.setdefault(name, default)
        return options

    def core(self) -> Any:
        """The compiled core (`sanssim.compiled.Core`) that plays Splendor chunks."""
        from sanssim.games.splendor.core import SplendorCore

        return SplendorCore()

    def report_sections(self) -> tuple:
        from sanssim.games.splendor import report

        return report.SECTIONS

    def apply_logged(self, state: State, action: int, row: Mapping[str, Any]) -> None:
        """A logged buy pays as the log says: gold may stand in for a colour held."""
        if BUY <= action < PASS:
            state.apply_buy(action, list(row["payment"] or ()))
        else:
            state.apply_action(action)

    def legend(self, final: State) -> list[str]:
        return ["legend: " + LEGEND]

    def picture(self, state: State, seats: Sequence[int]) -> str:
        return render_state(state)

    def final_picture(self, state: State) -> str:
        return ""  # the last turn's picture is the final position

    def score_line(self, row: Mapping[str, Any]) -> str:
        return (
            f"  seat {row['seat']}: {row['total']} (cards {row['card_points']}, nobles "
            f"{row['noble_points']}), {row['cards_bought']} cards, rank {row['rank']}, "
            f"ended by {row['end_reason']} after {row['rounds']} rounds"
        )

    def turn_line(self, row: Mapping[str, Any]) -> str:
        what = row["action"]
        if row["card_id"] is not None:
            what += f" card {row['card_id']} from {row['card_from']}"
        taken = [n for n in row["gems_taken"] if n] if row["gems_taken"] else []
        if taken:
            what += f", takes {list(row['gems_taken'])}"
        if any(row["gems_returned"] or []):
            what += f", returns {list(row['gems_returned'])}"
        if row["noble_id"] is not None:
            what += f", noble {row['noble_id']} visits"
        return (
            f"turn {row['turn']} (round {row['round']}) seat {row['seat']}: {what}; "
            f"points {row['points']}"
        )

    def position_lines(self, view: PlayerView) -> list[str]:
        return [view.picture()]


GAME = Splendor()
