"""House-rule and seat-compensation options (for `sanssim tune`): each changes the game as
its rule says on a hand-built position, and its default leaves the game as it was."""

from __future__ import annotations

import random

import polars as pl
import pytest
from positions import col_squares, row_squares
from splendor_positions import arrange, fresh
from test_rules import position, take

from sanssim.errors import ConfigError
from sanssim.games import get_game
from sanssim.games.sanssouci import NOBLE, SYMBOLS, Game, GameConfig
from sanssim.games.sanssouci.garden import square
from sanssim.games.sanssouci.plugin import mission_points
from sanssim.games.sanssouci.strategies.heuristic import HeuristicStrategy
from sanssim.games.sanssouci.strategies.tactics import row_sum
from sanssim.games.sanssouci.view import PlayerView
from sanssim.games.splendor.actions import (
    GOLD,
    MAIN,
    RESERVE,
    RETURN,
    RETURNING,
    TAKE2,
    TAKE_DIFF,
    TAKE_SETS,
)
from sanssim.games.splendor.strategies import HeuristicStrategy as SplendorHeuristic
from sanssim.games.splendor.view import PlayerView as SplendorView
from sanssim.runner.config import build_config
from sanssim.runner.play import play_game

# Rulebook example: row 3 and columns 2 and 3 complete, nobles in rows 3 and 5.
EXAMPLE = row_squares(3) + col_squares(2, range(2, 7)) + col_squares(3, range(2, 7))


def example(**rules: object):
    state = position(
        tiles={0: EXAMPLE}, nobles={0: {2: 3, 3: 5}}, missions={0: ("pavilion", "topiary")}
    )
    game = Game(GameConfig(n_players=2, garden_sides=("1A",), **rules), state.game.components)
    state.game = game
    return state


def test_sanssouci_row_and_column_bonus_options_score_complete_rows_and_columns():
    b = example(row_bonus_points=(1, 2, 3, 4, 5), column_bonus_points=9).breakdown(0)
    assert (b.row_bonus, b.column_bonus, b.mission_points) == (2, 18, 8)  # row 3 is worth 2
    assert example().breakdown(0).total == 25  # the rulebook's 7 + 10 + 8


def test_sanssouci_mission_table_pays_by_the_nobles_row():
    b = example(mission_row_points=(0, 0, 10, 0, 20, 0)).breakdown(0)  # nobles in rows 3, 5
    assert (b.mission_points, b.total) == (30, 7 + 10 + 30)
    state = example(mission_row_points=(9, 9, 9, 9, 9, 9))
    state.noble_rows[0][2] = 0  # a noble on the terrace pays nothing, whatever the table
    assert state.breakdown(0).mission_points == 9


def test_heuristic_values_a_mission_noble_move_by_the_table_in_force():
    """Pavilion (column 2) is a mission; its noble in row 3 may move to row 5."""
    gains = {}
    for table in ((1, 2, 3, 4, 5, 6), (0, 0, 0, 10, 10, 10)):
        state = example(mission_row_points=table)
        take(state, "joker", 0)  # a labyrinth to its free row-2 square: the noble's turn
        assert state.phase == NOBLE
        player = HeuristicStrategy(random.Random(0))
        terms = dict(player.terms(PlayerView(state, 0), state.legal))
        gains[table] = terms[square(5, 2)]["mission_move"]
    assert gains == {(1, 2, 3, 4, 5, 6): 0.5 * 2, (0, 0, 0, 10, 10, 10): 0.5 * 10}
    opened = 1 << square(4, 2) | 1 << square(6, 2)
    assert (row_sum(opened), row_sum(opened, (0, 0, 0, 10, 10, 10, 30))) == (10, 40)


def test_sanssouci_mission_group_values_follow_the_table(make_run, tmp_path):
    """The grouped measure `spread:mission` reads pays what the results' totals hold."""
    run = make_run(tmp_path / "table", "--mission-row-points", "0,1,1,2,7,9", games=20)
    results = pl.scan_parquet(run / "results" / "*.parquet")
    game = Game(GameConfig(n_players=2, mission_row_points=(0, 1, 1, 2, 7, 9)))
    values = mission_points(results, game).group_by("game_id").agg(pl.col("value").sum())
    totals = results.group_by("game_id").agg(pl.col("mission_points").sum())
    both = values.join(totals, on="game_id").collect()
    assert both.height == 20 and (both["value"] == both["mission_points"]).all()
    assert set(mission_points(results, game).collect()["group"]) <= set(SYMBOLS)


def test_sanssouci_seat_bonus_adds_k_times_the_bonus_to_seat_k():
    game = Game(GameConfig(n_players=3, seat_bonus=4))
    state = game.new_state(1)
    assert state.score == [0, 4, 8]
    assert [state.breakdown(p).handicap_points for p in range(3)] == [0, 4, 8]
    assert [state.breakdown(p).total for p in range(3)] == [0, 4, 8]
    assert state.ranks() == [3, 2, 1]


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ({"row_bonus_points": (8, 7, 6)}, "row bonus must be 5 integers"),
        ({"column_bonus_points": -1}, "column bonus must be an integer 0-100"),
        ({"seat_bonus": 101}, "seat bonus must be an integer 0-100"),
        ({"mission_row_points": (1, 2, 3)}, "mission points must be 6 integers 0-100"),
        ({"mission_row_points": (1, 2, 3, 4, 5, -6)}, "mission points must be 6 integers 0-100"),
    ],
)
def test_sanssouci_bad_bonuses_are_config_errors(rules: dict, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        Game(GameConfig(n_players=2, **rules))


def test_splendor_later_seat_gold_comes_from_the_supply():
    state = fresh(3, later_seat_gold=2)
    assert [t[GOLD] for t in state.tokens] == [0, 2, 2]
    assert state.supply[GOLD] == 1
    with pytest.raises(ConfigError, match="needs 6 gold tokens, there are 5"):
        fresh(4, later_seat_gold=2)


def test_splendor_later_seat_gems_are_one_of_each_colour_from_white_on():
    state = fresh(3, later_seat_gems=2)
    assert state.tokens == [[0, 0, 0, 0, 0, 0], [1, 1, 0, 0, 0, 0], [1, 1, 0, 0, 0, 0]]
    assert state.supply == [3, 3, 5, 5, 5, 5]
    with pytest.raises(ConfigError, match="later_seat_gems must be an integer 0-5"):
        fresh(2, later_seat_gems=6)


def test_splendor_ties_to_later_seat_break_a_points_tie_before_the_cards():
    state = fresh(3, ties_to_later_seat=True)
    state.points, state.cards_bought = [15, 15, 12], [9, 11, 8]
    assert state.ranks() == [2, 1, 3]
    default = fresh(3)
    default.points, default.cards_bought = [15, 15, 12], [9, 11, 8]
    assert default.ranks() == [1, 2, 3]


def takes(state) -> list[tuple[int, ...]]:
    """The colours of each legal take: a take-different's set, a take2's colour twice."""
    return [
        TAKE_SETS[a - TAKE_DIFF] if a < TAKE2 else (a - TAKE2,) * 2
        for a in state.legal
        if a < RESERVE
    ]


def test_splendor_first_turn_gems_shortens_only_the_first_players_first_take():
    state = fresh(2, first_turn_gems=2)
    assert sorted(takes(state)) == sorted(c for c in TAKE_SETS if len(c) == 2)  # no take2
    reserves = [a for a in fresh(2).legal if a >= RESERVE]
    assert [a for a in state.legal if a >= RESERVE] == reserves  # reserving stays legal
    state.apply_action(TAKE_DIFF + TAKE_SETS.index((0, 1)))
    assert state.tokens[0] == [1, 1, 0, 0, 0, 0]
    triples = sorted(c for c in TAKE_SETS if len(c) == 3)
    # seat 1 takes as the rules say: three colours, or two of a colour still holding 4
    assert sorted(takes(state)) == sorted([(2, 2), (3, 3), (4, 4), *triples])
    state.apply_action(TAKE_DIFF + TAKE_SETS.index((2, 3, 4)))
    assert (state.current, sorted(takes(state))) == (0, triples)  # and so does seat 0 now
    assert sorted(takes(fresh(2, first_turn_gems=1))) == [(c,) for c in range(5)]
    # one colour left in the supply (the later seat holds the rest): one gem of it
    short = fresh(2, first_turn_gems=2, gem_tokens=1, later_seat_gems=4)
    assert takes(short) == [(4,)]
    with pytest.raises(ConfigError, match="first_turn_gems must be an integer 1-3"):
        fresh(2, first_turn_gems=0)


def test_splendor_later_seat_limit_lets_only_later_seats_keep_more_tokens():
    green_red_black = TAKE_DIFF + TAKE_SETS.index((2, 3, 4))
    nine = [3, 3, 3, 0, 0, 0]
    for seat, kept in ((1, 11), (0, 10)):
        state = fresh(2, later_seat_limit=1)
        arrange(state, seat=seat, supply=[4, 4, 4, 4, 4, 5], tokens={0: nine, 1: nine})
        state.apply_action(green_red_black)  # 12 tokens
        assert (state.phase, state.excess) == (RETURNING, 12 - kept)
        while state.phase == RETURNING:
            state.apply_action(RETURN)  # white
        assert sum(state.tokens[seat]) == kept and state.phase == MAIN
    with pytest.raises(ConfigError, match="later_seat_limit must be an integer 0-10"):
        fresh(2, later_seat_limit=11)


def test_splendor_heuristic_plans_with_its_seats_token_limit():
    """Eight tokens and a take of three: one to hand back at 10, none at 11."""
    take3 = TAKE_DIFF + TAKE_SETS.index((2, 3, 4))
    heuristic = SplendorHeuristic(random.Random(0))
    for limit, overflow in ((0, -heuristic.overflow), (1, 0.0)):
        state = fresh(2, later_seat_limit=limit)
        arrange(state, seat=1, supply=[4, 4, 4, 4, 4, 5], tokens={1: [3, 3, 2, 0, 0, 0]})
        view = SplendorView(state, 1)
        assert view.token_limit(1) == 10 + limit and view.token_limit(0) == 10
        terms = dict(heuristic.terms(view, state.legal))
        assert terms[take3]["overflow"] == pytest.approx(overflow)


@pytest.mark.parametrize(
    ("game", "options"),
    [
        (
            "sanssouci",
            {
                "row_bonus_points": "8,7,6,5,4",
                "column_bonus_points": 5,
                "seat_bonus": 0,
                "mission_row_points": "1,2,3,4,5,6",
            },
        ),
        ("seikatsu", {"set_points": "components", "tie_break": "components"}),
        (
            "splendor",
            {
                "later_seat_gold": 0,
                "later_seat_gems": 0,
                "ties_to_later_seat": False,
                "first_turn_gems": 3,
                "later_seat_limit": 0,
            },
        ),
    ],
)
def test_defaults_leave_games_and_run_ids_unchanged(game: str, options: dict) -> None:
    plain = build_config(game=game, n_players=2, strategies="random")
    given = build_config(game=game, n_players=2, strategies="random", options=options)
    assert plain.fingerprint() == given.fingerprint()
    game_type = get_game(game)
    specs = plain.specs()
    for seed in range(3):
        a = play_game(game_type, plain.game(), specs, seed)
        b = play_game(game_type, given.game(), specs, seed)
        assert a.returns() == b.returns() and a.ranks() == b.ranks()


@pytest.mark.parametrize(
    ("game", "options", "recorded"),
    [
        ("sanssouci", {"column_bonus_points": 7}, ("column_bonus_points", 7)),
        ("sanssouci", {"mission_row_points": "1,2,3,4,5,5"}, ("mission_row_points", "1,2,3,4,5,5")),
        (
            "seikatsu",
            {"tie_break": "earlier_in_turn_order"},
            ("tie_break", "earlier_in_turn_order"),
        ),
        ("splendor", {"later_seat_gold": 1}, ("later_seat_gold", 1)),
        ("splendor", {"first_turn_gems": 2}, ("first_turn_gems", 2)),
    ],
)
def test_a_house_rule_changes_the_run_id_and_is_recorded(
    game: str, options: dict, recorded: tuple
) -> None:
    plain = build_config(game=game, n_players=2, strategies="random")
    given = build_config(game=game, n_players=2, strategies="random", options=options)
    assert plain.fingerprint() != given.fingerprint()
    config = given.to_dict()
    values = config.get("variants", config)
    assert values[recorded[0]] == recorded[1]
    assert get_game(game).options_from_config(config)[recorded[0]] == recorded[1]
