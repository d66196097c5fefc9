"""Seikatsu's house-rule options: the flower-set table and the tie-break."""

from __future__ import annotations

import pytest
from seikatsu_positions import deal, set_position

from sanssim.errors import ConfigError
from sanssim.games.seikatsu import Game, GameConfig

PRIMROSE = "waxwing:primrose"


def test_set_points_option_overrides_the_component_table():
    garden = {(0, -3): PRIMROSE, (1, -3): PRIMROSE, (3, -3): PRIMROSE}
    table = (0, 5, 9, 12, 14, 15, 16)
    state = set_position(Game(GameConfig(2, set_points=table)).new_state(0), garden)
    assert state.flower_rows(0)[0] == 12  # a set of 3: 12 here, 6 by default
    assert set_position(deal(2), garden).flower_rows(0)[0] == 6


def test_tie_break_option_overrides_the_component_rule():
    state = set_position(Game(GameConfig(3, tie_break="earlier_in_turn_order")).new_state(0), {})
    state.side_score = [4, 4, 4]
    assert state.ranks() == [1, 2, 3]
    default = set_position(deal(3), {})
    default.side_score = [4, 4, 4]
    assert default.ranks() == [3, 2, 1]


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ({"set_points": (0, 1, 3)}, "set points must be 7 integers"),
        ({"tie_break": "coin"}, "tie break must be one of"),
    ],
)
def test_bad_house_rules_are_config_errors(rules: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Game(GameConfig(2, **rules))
