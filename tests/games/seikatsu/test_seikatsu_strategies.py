"""The player view, determinisation, hidden information, and the two strategies."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from seikatsu_positions import deal, play, set_position

from sanssim.compiled import rng
from sanssim.games.seikatsu import Game, GameConfig, State
from sanssim.games.seikatsu.core import SeikatsuCore
from sanssim.games.seikatsu.strategies import GreedyStrategy, HeuristicStrategy
from sanssim.games.seikatsu.view import PlayerView
from sanssim.strategies import resolve
from sanssim.strategies.base import Strategy

CONFIGS = [(2, False), (3, False), (4, False), (2, True), (3, True), (4, True)]
STRATEGIES: list[type[Strategy]] = [GreedyStrategy, HeuristicStrategy]
CORE = SeikatsuCore()


def midgame(n: int, tournament: bool, seed: int, turns: int) -> State:
    state = deal(n, seed, tournament)
    rng = random.Random(seed)
    while state.legal and state.turn < turns:
        state.apply_action(state.legal[int(rng.random() * len(state.legal))])
    return state


def reshuffle_hidden(state: State, seat: int, rng: random.Random) -> State:
    """The same position as `seat` sees it: other hands and bag order dealt anew."""
    other = state.clone()
    pool = list(other.bag) + [k for s in range(other.n) if s != seat for k in other.hands[s]]
    rng.shuffle(pool)
    for s in range(other.n):
        if s != seat:
            size = len(other.hands[s])
            other.hands[s], pool = pool[:size], pool[size:]
    other.bag = pool
    return other


def hidden(state: State, seat: int) -> tuple:
    return tuple(tuple(sorted(h)) for s, h in enumerate(state.hands) if s != seat), tuple(state.bag)


# ---------------------------------------------------------------- the view


@pytest.mark.parametrize("n,tournament", CONFIGS)
def test_view_unseen_is_bag_plus_other_hands(n, tournament):
    state = midgame(n, tournament, seed=n, turns=9)
    for seat in range(n):
        unseen = PlayerView(state, seat).unseen()
        truth = Counter(state.bag) + Counter(
            k for s in range(n) if s != seat for k in state.hands[s]
        )
        assert unseen == truth


def test_view_shows_only_the_own_hand_and_no_legal_choices_off_turn():
    state = midgame(3, False, seed=2, turns=4)
    me = state.current
    view = PlayerView(state, me)
    assert view.hand == tuple(state.hands[me]) and view.legal_actions() == state.legal
    other = PlayerView(state, (me + 1) % 3)
    assert other.legal_actions() == []
    assert other.hand_size(me) == len(state.hands[me])
    assert view.turns_left == 11 - 1  # turn 4 of 3 players: seat 1 has played once
    assert not hasattr(view, "__dict__")  # no back door besides `_state`


# ---------------------------------------------------------------- determinisation


@pytest.mark.parametrize("n,tournament", CONFIGS)
def test_determinize_is_consistent_with_the_view(n, tournament):
    for seed in range(10):
        state = midgame(n, tournament, seed, turns=3 + seed)
        for seat in range(n):
            view = PlayerView(state, seat)
            sample = view.determinize(random.Random(seed))
            assert sample.hands[seat] == state.hands[seat]
            assert sample.board == state.board and sample.koi_held == state.koi_held
            assert [len(h) for h in sample.hands] == [len(h) for h in state.hands]
            assert len(sample.bag) == len(state.bag)
            pooled = Counter(sample.bag)
            for s in range(n):
                if s != seat:
                    pooled += Counter(sample.hands[s])
            assert pooled == view.unseen()
            assert not sample.record and sample.log == []
            assert sample.current == state.current and sample.turn == state.turn
            if tournament:
                assert sample.game.koi_kind not in sample.bag
            # the sample plays on to a legal end
            rng = random.Random(0)
            while sample.legal:
                sample.apply_action(sample.legal[int(rng.random() * len(sample.legal))])
            assert all(k >= 0 for k in sample.board)


@pytest.mark.parametrize("n,tournament", CONFIGS)
def test_determinize_depends_only_on_what_the_seat_knows(n, tournament):
    changed = 0
    for seed in range(10):
        state = midgame(n, tournament, seed, turns=2 + seed)
        for seat in range(n):
            other = reshuffle_hidden(state, seat, random.Random(seed + 100))
            changed += hidden(other, seat) != hidden(state, seat)
            a = PlayerView(state, seat).determinize(random.Random(7))
            b = PlayerView(other, seat).determinize(random.Random(7))
            assert a.hands == b.hands and a.bag == b.bag and a.legal == b.legal
    assert changed > 0  # the hidden information really differed


def test_determinize_samples_vary_with_the_rng():
    state = midgame(2, False, seed=1, turns=6)
    view = PlayerView(state, 0)
    samples = {tuple(view.determinize(random.Random(s)).bag) for s in range(10)}
    assert len(samples) > 1


def test_determinized_legal_choices_follow_the_sampled_hand_off_turn():
    state = midgame(2, False, seed=3, turns=5)
    me = 1 - state.current
    sample = PlayerView(state, me).determinize(random.Random(1))
    game = sample.game
    kinds = {a // game.n_cells for a in sample.legal}
    assert kinds == set(sample.hands[sample.current])


# ---------------------------------------------------------------- hidden information


@pytest.mark.parametrize("name", ["greedy", "heuristic", "ismcts:iterations=6"])
@pytest.mark.parametrize("n,tournament", CONFIGS)
def test_strategies_ignore_hidden_information(name, n, tournament):
    def player(seed: int) -> Strategy:
        return resolve(name, "seikatsu").make(random.Random(seed))

    for seed in range(12):
        state = midgame(n, tournament, seed, turns=seed * 2)
        seat = state.current
        other = reshuffle_hidden(state, seat, random.Random(seed))
        a = player(seed).choose(PlayerView(state, seat), list(state.legal))
        b = player(seed).choose(PlayerView(other, seat), list(other.legal))
        assert a == b
        ea = player(seed).explain(PlayerView(state, seat), list(state.legal))
        eb = player(seed).explain(PlayerView(other, seat), list(other.legal))
        assert ea == eb


COMPILED = [
    "random",
    "greedy",
    "heuristic:spoil=1.1,fill=0.3",
    "lookahead:rollouts=4,width=2",
    "ismcts:iterations=6,width=3",
]


@pytest.mark.parametrize("text", COMPILED)
@pytest.mark.parametrize("n,tournament", CONFIGS)
def test_compiled_strategies_ignore_hidden_information(text, n, tournament):
    """The compiled choice on a position and on its hidden reshuffle is the Python one,
    and the compiled stream has drawn exactly what the Python strategy's has."""
    spec = resolve(text, "seikatsu")
    for seed in range(6):
        state = midgame(n, tournament, seed, turns=seed * 3)
        seat = state.current
        other = reshuffle_hidden(state, seat, random.Random(seed))
        player = spec.make(random.Random(seed))
        expected = player.choose(PlayerView(state, seat), list(state.legal))
        for position in (state, other):
            stream = rng.from_python(random.Random(seed))
            assert CORE.decide(position, spec, stream) == expected
            assert np.array_equal(stream, rng.from_python(player.rng))


# ---------------------------------------------------------------- the strategies


@pytest.mark.parametrize("cls", STRATEGIES, ids=lambda c: c.name)
def test_terms_sum_to_the_explained_scores_best_first(cls):
    state = midgame(4, True, seed=5, turns=6)
    view = PlayerView(state, state.current)
    strategy = cls(random.Random(0))
    explained = strategy.explain(view, list(state.legal))
    terms = dict(strategy.terms(view, list(state.legal)))
    assert sorted(a for a, _ in explained) == sorted(state.legal)
    assert [s for _, s in explained] == sorted((s for _, s in explained), reverse=True)
    for action, score in explained:
        assert sum(terms[action].values()) == pytest.approx(score)
    assert strategy.choose(view, list(state.legal)) in state.legal


@pytest.mark.parametrize("cls", STRATEGIES, ids=lambda c: c.name)
def test_strategies_play_whole_games_in_every_config(cls):
    for n, tournament in CONFIGS:
        state = deal(n, 3, tournament)
        players = [cls(random.Random(s)) for s in range(n)]
        while state.legal:
            p = state.current
            state.apply_action(players[p].choose(PlayerView(state, p), list(state.legal)))
        assert state.is_terminal()


SECTION_10 = {(1, 0): "tanager:tulip", (0, -1): "tanager:primrose", (2, -2): "koi",
              (2, -1): "waxwing:tulip"}  # fmt: skip


def test_greedy_takes_the_most_points_this_turn():
    state = set_position(deal(2), SECTION_10, hands={0: ["tanager:tulip", "white_eye:bluebell"]})
    view = PlayerView(state, 0)
    game = state.game
    action = GreedyStrategy(random.Random(0)).choose(view, list(state.legal))
    # on (1, -1): two tanagers around (3 bird points) and a second tulip in pink row
    # r = -1 next to waxwing:tulip (3 - 1 = 2); no other option reaches 5
    assert action == game.action("tanager:tulip", 1, -1)
    terms = dict(GreedyStrategy(random.Random(0)).terms(view, list(state.legal)))
    assert terms[action] == {"birds": 3.0, "flowers": 2.0}


def test_greedy_counts_its_own_pagoda_rows_at_their_current_value():
    # pink row r = -3 holds two tulips; a third tulip there adds 6 - 3 = 3
    garden = {(0, -3): "waxwing:tulip", (1, -3): "white_eye:tulip"}
    state = set_position(deal(2), garden, hands={0: ["flycatcher:tulip", "flycatcher:bluebell"]})
    terms = dict(GreedyStrategy(random.Random(0)).terms(PlayerView(state, 0), list(state.legal)))
    game = state.game
    assert terms[game.action("flycatcher:tulip", 2, -3)] == {"birds": 0.0, "flowers": 3.0}
    assert terms[game.action("flycatcher:bluebell", 2, -3)] == {"birds": 0.0, "flowers": 0.0}


def test_greedy_keeps_the_koi_on_a_tie():
    # next to a lone koi: a tulip or the koi on (2, -3) both make pink row r = -3 a
    # set of 2 (+2) and score no bird; every other space only starts a row (+1)
    garden = {(3, -3): "koi"}
    for seed in range(20):
        state = set_position(deal(2), garden, hands={0: ["koi", "waxwing:tulip"]})
        view = PlayerView(state, 0)
        terms = dict(GreedyStrategy(random.Random(0)).terms(view, state.legal))
        game = state.game
        assert sum(terms[game.action("koi", 2, -3)].values()) == 2.0
        assert GreedyStrategy(random.Random(seed)).choose(view, state.legal) == game.action(
            "waxwing:tulip", 2, -3
        )


def test_heuristic_charges_for_spending_a_koi_and_values_spoiling():
    garden = {(3, -3): "tanager:tulip"}
    state = set_position(deal(2), garden, hands={0: ["koi", "waxwing:bluebell"]})
    h = HeuristicStrategy(random.Random(0))
    terms = dict(h.terms(PlayerView(state, 0), state.legal))
    game = state.game
    for action, t in terms.items():
        assert (t["koi"] < 0) == (action // game.n_cells == game.koi_kind)
    zero = HeuristicStrategy(random.Random(0), spoil=0.0)
    assert all(t["spoil"] == 0 for _, t in zero.terms(PlayerView(state, 0), state.legal))


def test_heuristic_builds_its_own_rows():
    """Two tulips in pink row r = -3 (4 spaces): a third tulip on (2, -3) raises the
    row's potential from T(2 + 0.2 * 2) = 4.2 to T(3 + 0.2 * 1) = 6.8 (T interpolates
    the set points), more than any other option; with spoiling off it is the pick."""
    garden = {(0, -3): "waxwing:tulip", (1, -3): "white_eye:tulip"}
    state = set_position(deal(2), garden, hands={0: ["flycatcher:tulip", "flycatcher:bluebell"]})
    h = HeuristicStrategy(random.Random(0), spoil=0.0)
    game = state.game
    best = game.action("flycatcher:tulip", 2, -3)
    terms = dict(h.terms(PlayerView(state, 0), state.legal))
    assert terms[best]["rows"] == pytest.approx(6.8 - 4.2)
    assert h.choose(PlayerView(state, 0), state.legal) == best
    play(state, "flycatcher:tulip", (2, -3))
    assert state.flower_rows(0)[0] == 6


def test_strategy_names_and_parameters():
    assert GreedyStrategy.name == "greedy" and HeuristicStrategy.name == "heuristic"
    names = [p.name for p in HeuristicStrategy.params]
    assert names == ["birds", "rows", "spoil", "fill", "team", "koi"]
    h = HeuristicStrategy(random.Random(0), koi=9.0)
    assert h.koi == 9.0 and h.fill == 0.2
    assert Game(GameConfig(2)).n_players == 2
