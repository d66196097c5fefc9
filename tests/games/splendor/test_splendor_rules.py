"""One test per rule clause of the Splendor rules file, on hand-built positions.

Card facts come from the data: card 25 is level 1, red bonus, cost 2 blue + 1 green (the
rulebook's bonus example); card 76 is level 3, blue bonus, 4 points, cost 6 white + 3 blue
+ 3 black; card 0 costs 3 blue; nobles 0 (4 white + 4 blue) and 5 (3 white, blue, green).
"""

from __future__ import annotations

import pytest
from splendor_positions import arrange, fresh, snapshot

from sanssim.errors import ConfigError, IllegalActionError
from sanssim.games.splendor.actions import (
    BUY,
    BUY_RESERVED,
    END,
    END_REASONS,
    MAIN,
    NOBLE,
    NOBLE_CHOICE,
    PASS,
    RESERVE,
    RESERVE_BLIND,
    RETURN,
    RETURNING,
    TAKE2,
    TAKE_DIFF,
    TAKE_SETS,
)
from sanssim.games.splendor.components import load_components
from sanssim.games.splendor.config import GameConfig
from sanssim.games.splendor.engine import Game
from sanssim.games.splendor.view import HIDDEN, PlayerView

W, U, G, R, K, GOLD = range(6)


def take(*colours: int) -> int:
    return TAKE_DIFF + TAKE_SETS.index(tuple(sorted(colours)))


def takes_offered(state) -> list[tuple[int, ...]]:
    return [TAKE_SETS[a - TAKE_DIFF] for a in state.legal if a < TAKE2]


def test_setup_follows_the_player_count_table():
    for n, gems in ((2, 4), (3, 5), (4, 7)):
        s = fresh(n)
        assert s.supply == [gems] * 5 + [5]
        assert len(s.table) == n + 1
        assert all(card >= 0 for card in s.display)
        levels = [s.game.card_level[c] for c in s.display]
        assert levels == [1] * 4 + [2] * 4 + [3] * 4
        assert [len(d) for d in s.decks] == [36, 26, 16]


def test_take3_takes_three_different_colours_and_never_fewer_while_three_are_left():
    s = arrange(fresh(), supply=[4, 4, 0, 0, 4, 5], tokens={0: [0] * 6})
    assert takes_offered(s) == [(W, U, K)]
    s.apply_action(take(W, U, K))
    assert s.tokens[0] == [1, 1, 0, 0, 1, 0]
    assert s.supply == [3, 3, 0, 0, 3, 5]


def test_take_fewer_colours_only_all_that_are_left():
    s = arrange(fresh(), supply=[0, 2, 0, 0, 1, 5], tokens={0: [0] * 6})
    assert takes_offered(s) == [(U, K)]
    s = arrange(fresh(), supply=[0, 0, 3, 0, 0, 5], tokens={0: [0] * 6})
    assert takes_offered(s) == [(G,)]


def test_take2_needs_four_in_the_pile_before_taking():
    s = arrange(fresh(), supply=[4, 3, 7, 0, 1, 5], tokens={0: [0] * 6})
    assert [a - TAKE2 for a in s.legal if TAKE2 <= a < RESERVE] == [W, G]
    s.apply_action(TAKE2 + W)
    assert s.tokens[0][W] == 2 and s.supply[W] == 2


def test_token_limit_asks_the_player_which_tokens_to_return():
    s = arrange(fresh(), supply=[4, 4, 4, 4, 4, 5], tokens={0: [3, 3, 3, 0, 0, 0]})
    s.apply_action(take(G, R, K))  # 12 tokens: two to return
    assert s.phase == RETURNING and s.current == 0
    assert s.legal == [RETURN + c for c in (W, U, G, R, K)]
    s.apply_action(RETURN + R)  # a token just taken may go back
    assert s.phase == RETURNING
    s.apply_action(RETURN + W)
    assert s.tokens[0] == [2, 3, 4, 0, 1, 0]
    assert s.supply == [5, 4, 3, 4, 3, 5]
    assert s.current == 1 and s.phase == MAIN


def test_exactly_ten_tokens_need_no_return():
    s = arrange(fresh(), supply=[4, 4, 4, 4, 4, 5], tokens={0: [3, 3, 1, 0, 0, 0]})
    s.apply_action(take(G, R, K))
    assert sum(s.tokens[0]) == 10 and s.current == 1


def test_gold_is_a_wildcard_and_the_engine_pays_with_the_fewest_gold():
    display = {0: 0}  # card 0: 3 blue
    s = arrange(fresh(), display=display, tokens={0: [0, 1, 0, 0, 0, 2]})
    assert BUY in s.legal
    s.apply_action(BUY)
    assert s.tokens[0] == [0, 0, 0, 0, 0, 0]
    assert s.supply[U] == 5 and s.supply[GOLD] == 7  # the paid gold goes back too

    s = arrange(fresh(), display=display, tokens={0: [0, 3, 0, 0, 0, 2]})
    s.apply_action(BUY)
    assert s.tokens[0] == [0, 0, 0, 0, 0, 2]

    s = arrange(fresh(), display=display, tokens={0: [0, 1, 0, 0, 0, 1]})
    assert BUY not in s.legal


def test_gold_may_stand_in_for_a_colour_the_player_holds():
    s = arrange(fresh(), display={0: 0}, tokens={0: [0, 3, 0, 0, 0, 2]})
    s.apply_buy(BUY, [0, 1, 0, 0, 0, 2])
    assert s.tokens[0] == [0, 2, 0, 0, 0, 0]
    s = arrange(fresh(), display={0: 0}, tokens={0: [0, 3, 0, 0, 0, 2]})
    before = snapshot(s)
    with pytest.raises(IllegalActionError):
        s.apply_buy(BUY, [0, 3, 0, 0, 0, 1])  # overpaying
    assert snapshot(s) == before


def test_bonuses_discount_the_cost():
    # card 25 costs 2 blue + 1 green; with 2 blue bonuses it costs 1 green
    s = arrange(
        fresh(), display={0: 25}, tokens={0: [0, 0, 1, 0, 0, 0]}, bonus={0: [0, 2, 0, 0, 0]}
    )
    assert BUY in s.legal
    s.apply_action(BUY)
    assert s.tokens[0] == [0] * 6
    assert s.bonus[0] == [0, 2, 0, 1, 0]
    assert s.tableau[0] == [25]


def test_a_card_covered_by_bonuses_costs_nothing():
    s = arrange(fresh(), display={8: 76}, tokens={0: [0] * 6}, bonus={0: [6, 3, 0, 0, 3]})
    s.apply_action(BUY + 8)
    assert s.points[0] == 4 and s.bonus[0][U] == 4 and s.tokens[0] == [0] * 6


def test_a_bought_display_card_is_replaced_in_the_same_slot_from_its_deck():
    s = arrange(fresh(), display={5: 40}, tokens={0: [0] * 6}, bonus={0: [9] * 5}, table=[])
    top, left = s.decks[1][-1], len(s.decks[1])
    s.apply_action(BUY + 5)
    assert s.display[5] == top and len(s.decks[1]) == left - 1


def test_an_empty_deck_leaves_the_slot_empty():
    s = fresh()
    s.decks[2] = []
    arrange(s, display={8: 76}, tokens={0: [0] * 6}, bonus={0: [9] * 5}, table=[])
    assert RESERVE_BLIND + 2 not in s.legal
    s.apply_action(BUY + 8)
    assert s.display[8] == -1
    arrange(s, seat=0)
    assert BUY + 8 not in s.legal and RESERVE + 8 not in s.legal


def test_reserve_from_the_display_takes_the_card_and_one_gold():
    s = arrange(fresh(), tokens={0: [0] * 6})
    card = s.display[3]
    s.apply_action(RESERVE + 3)
    assert s.reserved[0] == [card] and s.tokens[0][GOLD] == 1 and s.supply[GOLD] == 4
    assert PlayerView(s, 1).reserved(0) == [card]  # everyone saw it taken


def test_blind_reserve_takes_the_top_card_unseen_by_the_others():
    s = arrange(fresh(), tokens={0: [0] * 6})
    display = list(s.display)
    top = s.decks[2][-1]
    s.apply_action(RESERVE_BLIND + 2)
    assert s.reserved[0] == [top] and s.display == display and len(s.decks[2]) == 15
    assert s.tokens[0][GOLD] == 1
    assert PlayerView(s, 0).reserved(0) == [top]
    assert PlayerView(s, 1).reserved(0) == [HIDDEN]
    assert PlayerView(s, 1).reserved_levels(0) == [3]


def test_a_reserved_card_can_be_bought_only_by_its_owner():
    s = arrange(
        fresh(),
        reserved={0: [0], 1: []},
        tokens={0: [0, 3, 0, 0, 0, 0], 1: [0, 3, 0, 0, 0, 0]},
    )
    assert BUY_RESERVED in s.legal
    arrange(s, seat=1)
    assert not any(BUY_RESERVED <= a < PASS for a in s.legal)
    arrange(s, seat=0)
    s.apply_action(BUY_RESERVED)
    assert s.reserved[0] == [] and s.tableau[0] == [0]


def test_at_most_three_reserved_cards():
    s = arrange(fresh(), reserved={0: [0, 1]}, tokens={0: [0] * 6})
    assert any(RESERVE <= a < BUY for a in s.legal)
    s.apply_action(RESERVE + 2)
    arrange(s, seat=0)
    assert len(s.reserved[0]) == 3
    assert not any(RESERVE <= a < BUY for a in s.legal)


def test_reserving_gives_gold_only_when_some_is_left():
    s = arrange(fresh(), supply=[4, 4, 4, 4, 4, 0], tokens={0: [0] * 6})
    assert RESERVE in s.legal
    s.apply_action(RESERVE)
    assert s.tokens[0][GOLD] == 0 and len(s.reserved[0]) == 1


def test_reserving_gold_can_trigger_the_token_limit():
    s = arrange(fresh(), tokens={0: [2, 2, 2, 2, 2, 0]})
    s.apply_action(RESERVE)
    assert s.phase == RETURNING
    assert s.legal == [RETURN + c for c in range(6)]


def test_pass_only_when_no_action_is_legal():
    s = arrange(
        fresh(),
        supply=[0, 0, 0, 0, 0, 0],
        tokens={0: [0] * 6},
        reserved={0: [0, 1, 2]},
    )
    assert s.current == 1  # the single legal choice, pass, was applied automatically
    assert s.passes[0] == 1
    s = arrange(fresh(), supply=[0, 0, 0, 0, 0, 0], tokens={0: [0] * 6})
    assert PASS not in s.legal


def test_two_qualifying_nobles_the_player_chooses_one_and_the_other_comes_next_turn():
    # bonuses 4 white, 4 blue, 3 green after buying a green card: nobles 0 and 5 qualify
    s = arrange(
        fresh(3),
        table=[0, 5, 9],
        display={0: 16},  # card 16: level 1, green bonus, free with these bonuses
        tokens={0: [0] * 6},
        bonus={0: [4, 4, 2, 0, 0]},
    )
    s.apply_action(BUY)
    assert s.phase == NOBLE_CHOICE and sorted(s.legal) == [NOBLE + 0, NOBLE + 5]
    s.apply_action(NOBLE + 5)
    assert s.nobles[0] == [5] and s.points[0] == 3 and s.table == [0, 9]
    # seat 1 and 2 take gems; seat 0's next turn is a take, yet noble 0 visits
    for _ in range(2):
        s.apply_action(s.legal[0])
        while s.phase == RETURNING:
            s.apply_action(s.legal[0])
    assert s.current == 0
    s.apply_action(next(a for a in s.legal if a < TAKE2))
    while s.phase == RETURNING:
        s.apply_action(s.legal[0])
    assert s.nobles[0] == [5, 0] and s.points[0] == 6


def test_nobles_need_bonuses_not_tokens():
    # card 0 (white bonus) brings 4 white, 3 blue bonuses: 6 blue tokens do not count
    s = arrange(
        fresh(),
        table=[0],
        display={0: 0},
        tokens={0: [0, 6, 0, 0, 0, 0]},
        bonus={0: [3, 3, 0, 0, 0]},
    )
    s.apply_action(BUY)
    assert s.bonus[0] == [4, 3, 0, 0, 0] and s.tokens[0][U] == 6
    assert s.nobles[0] == [] and s.table == [0]


def test_game_completes_the_round_after_the_target_is_reached():
    s = arrange(
        fresh(3),
        display={8: 76},
        tokens={0: [0] * 6},
        bonus={0: [9] * 5},
        points={0: 12},
        table=[],
    )
    s.apply_action(BUY + 8)
    assert s.points[0] == 16 and s.phase == MAIN and s.current == 1
    s.apply_action(s.legal[0])
    while s.current == 1 and s.phase != MAIN:
        s.apply_action(s.legal[0])
    assert s.current == 2 and not s.is_terminal()
    s.apply_action(s.legal[0])
    while not s.is_terminal():
        s.apply_action(s.legal[0])
    assert s.phase == END and END_REASONS[s.end_reason] == "target"
    assert s.turn == 3 and s.round == 1


def test_last_seat_reaching_the_target_ends_the_game_at_once():
    s = arrange(
        fresh(2),
        seat=1,
        display={8: 76},
        tokens={1: [0] * 6},
        bonus={1: [9] * 5},
        points={1: 11},
        table=[],
    )
    s.apply_action(BUY + 8)
    assert s.is_terminal() and s.legal == [] and END_REASONS[s.end_reason] == "target"


def test_tie_goes_to_fewest_cards_then_shared():
    s = fresh(3)
    s.points = [15, 15, 15]
    s.cards_bought = [9, 8, 8]
    assert s.ranks() == [3, 1, 1]
    s.points = [16, 15, 15]
    assert s.ranks() == [1, 2, 2]


def test_illegal_action_raises_one_line_and_leaves_the_state_unchanged():
    s = arrange(fresh(), supply=[4, 3, 4, 4, 4, 5], tokens={0: [0] * 6})
    before = snapshot(s)
    for bad in (TAKE2 + U, 10_000, -1, "take", 1.0, True, None):
        with pytest.raises(IllegalActionError) as info:
            s.apply_action(bad)
        assert "\n" not in str(info.value)
        assert snapshot(s) == before


def test_round_cap_ends_the_game_with_its_reason():
    s = fresh(2, max_rounds=2)
    while not s.is_terminal():
        s.apply_action(s.legal[0])
    assert END_REASONS[s.end_reason] == "round_cap" and s.round == 2 and s.turn == 4


def test_stalemate_when_a_whole_round_passes():
    s = fresh(2, gem_tokens=1, gold_tokens=0)
    s.supply = [0] * 6
    s.reserved = [[0, 1, 2], [3, 4, 5]]
    s._start_turn()
    assert s.is_terminal() and END_REASONS[s.end_reason] == "stalemate"
    assert s.passes == [1, 1]


@pytest.mark.parametrize(
    "options",
    [
        {"n_players": 5},
        {"n_players": 1},
        {"n_players": 2, "target_points": 0},
        {"n_players": 2, "gem_tokens": 0},
        {"n_players": 2, "gold_tokens": -1},
        {"n_players": 2, "nobles": 0},
        {"n_players": 2, "nobles": 11},
        {"n_players": 2, "max_rounds": 0},
        {"n_players": 2, "target_points": True},
        {"n_players": 2, "gem_tokens": 4.0},
    ],
)
def test_bad_rule_parameters_are_config_errors(options):
    with pytest.raises(ConfigError) as info:
        Game(GameConfig(**options), load_components())
    assert "\n" not in str(info.value)


def test_rule_parameters_change_setup():
    s = fresh(2, gem_tokens=7, gold_tokens=2, nobles=5)
    assert s.supply == [7] * 5 + [2] and len(s.table) == 5
