"""No Thanks! rules, each clause on a hand-built position."""

from __future__ import annotations

import random

import pytest
from nothanks.engine import NO_THANKS, TAKE, Config, Game, card_points
from nothanks.plugin import GAME

from sanssim.errors import ConfigError, IllegalActionError


def deal(n: int = 3, **options: int):
    return Game(Config(n, **options)).new_state(7, record=True)


def test_the_deal_removes_cards_face_down_and_gives_each_player_the_chips():
    s = deal(4)
    assert len(s.removed) == 9 and len(s.deck) + 1 == 33 - 9
    assert sorted([*s.removed, *s.deck, s.card]) == list(range(3, 36))
    assert s.chips == [11] * 4 and s.pot == 0 and s.current == 0
    s = deal(3, removed=0, chips=5)
    assert s.removed == [] and len(s.deck) == 32 and s.chips == [5, 5, 5]


def test_no_thanks_puts_a_chip_on_the_card_and_passes_the_turn():
    s = deal()
    card = s.card
    s.apply_action(NO_THANKS)
    assert s.chips[0] == 10 and s.pot == 1 and s.card == card and s.current == 1


def test_taking_gives_the_card_and_its_chips_and_the_taker_decides_again():
    s = deal()
    card = s.card
    s.apply_action(NO_THANKS)
    s.apply_action(NO_THANKS)
    s.apply_action(TAKE)
    assert s.cards[2] == [card] and s.chips[2] == 13 and s.pot == 0
    assert s.current == 2 and s.card != card


def test_a_player_without_chips_must_take():
    s = deal(3, chips=0)
    assert s.legal == [TAKE]
    with pytest.raises(IllegalActionError):
        s.apply_action(NO_THANKS)


def test_only_the_lowest_card_of_a_run_counts_and_chips_count_against():
    assert card_points([5, 6, 7, 10, 12, 13]) == 5 + 10 + 12
    assert card_points([]) == 0
    s = deal()
    s.cards[0], s.chips[0] = [20, 21, 22], 4
    assert s.score(0) == 16


def test_the_game_ends_when_the_last_card_is_taken_and_the_lowest_score_wins():
    s = deal(3)
    while s.deck:
        s.apply_action(TAKE)
    assert not s.is_terminal()
    s.apply_action(TAKE)
    assert s.is_terminal() and s.legal == []
    s.cards, s.chips = [[3], [30], [3]], [0, 0, 0]
    assert s.ranks() == [1, 3, 1]


def test_options_outside_the_rules_are_refused_in_one_line():
    for options in ({"removed": 33}, {"removed": -1}, {"chips": -1}):
        with pytest.raises(ConfigError):
            GAME.new_game(3, options, None)


def test_determinize_deals_only_the_unseen_cards_again():
    s = deal(3)
    s.apply_action(NO_THANKS)
    world = GAME.view(s, 1).determinize(random.Random(1))
    assert world.card == s.card and world.chips == s.chips and world.pot == s.pot
    assert sorted(world.deck + world.removed) == sorted(s.deck + s.removed)
    assert len(world.deck) == len(s.deck) and world.deck != s.deck


def test_heuristic_takes_a_card_that_extends_its_run_for_free():
    s = deal(3)
    s.cards[0] = [s.card - 1] if s.card > 3 else [s.card + 1]
    player = GAME.strategies()["heuristic"](random.Random(0))
    assert player.choose(GAME.view(s, 0), s.legal) == TAKE
