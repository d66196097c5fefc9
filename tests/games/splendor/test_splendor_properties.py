"""Whole seeded Splendor games checked against the slow reference and the rules' invariants."""

from __future__ import annotations

import random

import pytest
from splendor_positions import snapshot
from splendor_reference import GEMS, TOKENS, Reference

from sanssim.games.splendor.actions import (
    BUY,
    BUY_RESERVED,
    END_REASONS,
    NOBLE,
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
from sanssim.games.splendor.engine import Game, State
from sanssim.games.splendor.strategies import STRATEGIES
from sanssim.games.splendor.view import PlayerView
from sanssim.strategies import Strategy, resolve

CONFIGS = [
    {"n_players": 2},
    {"n_players": 3},
    {"n_players": 4},
    {"n_players": 2, "gem_tokens": 1, "gold_tokens": 0},
    {"n_players": 3, "gem_tokens": 2, "gold_tokens": 1, "nobles": 1},
    {"n_players": 4, "gem_tokens": 4, "target_points": 6, "nobles": 10},
    {"n_players": 2, "max_rounds": 12, "gold_tokens": 9},
]


def decode(action: int) -> tuple:
    if action < TAKE2:
        return ("take", frozenset(GEMS[c] for c in TAKE_SETS[action - TAKE_DIFF]))
    if action < RESERVE:
        return ("take2", GEMS[action - TAKE2])
    if action < RESERVE_BLIND:
        return ("reserve", action - RESERVE)
    if action < BUY:
        return ("reserve_blind", action - RESERVE_BLIND + 1)
    if action < BUY_RESERVED:
        return ("buy", "display", action - BUY)
    if action < PASS:
        return ("buy", "reserve", action - BUY_RESERVED)
    if action == PASS:
        return ("pass",)
    if action < NOBLE:
        return ("return", TOKENS[action - RETURN])
    return ("noble", action - NOBLE)


def agree(state: State, ref: Reference) -> None:
    assert state.turn == ref.turn
    assert state.current == ref.seat
    assert state.supply == [ref.supply[c] for c in TOKENS]
    assert state.display == [-1 if ref.display[s] is None else ref.display[s] for s in range(12)]
    assert [len(d) for d in state.decks] == [len(ref.decks[lv]) for lv in (1, 2, 3)]
    assert state.table == ref.table
    for p, rp in enumerate(ref.players):
        assert state.tokens[p] == [rp["tokens"][c] for c in TOKENS]
        assert state.bonus[p] == [rp["bonuses"][c] for c in GEMS]
        assert state.points[p] == rp["points"]
        assert state.reserved[p] == rp["reserved"]
        assert state.tableau[p] == rp["cards"]
        assert state.nobles[p] == rp["nobles"]


def play_against_reference(options: dict, seed: int, chooser: random.Random) -> State:
    comps = load_components()
    state = Game(GameConfig(**options), comps).new_state(seed)
    ref = Reference(comps, options["n_players"], seed, **options)
    agree(state, ref)
    while state.legal:
        assert {decode(a) for a in state.legal} == ref.legal()
        assert len(state.legal) == len(set(state.legal)) > 1
        action = state.legal[int(chooser.random() * len(state.legal))]
        state.apply_action(action)
        ref.apply(decode(action))
        agree(state, ref)
    assert ref.over is not None and ref.legal() == set()
    assert END_REASONS[state.end_reason] == ref.over
    assert state.returns() == [p["points"] for p in ref.players]
    assert state.ranks() == ref.ranks()
    return state


@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: "-".join(f"{v}" for v in o.values()))
def test_engine_agrees_with_the_reference(options):
    chooser = random.Random(7)
    reasons = set()
    for seed in range(25):
        reasons.add(END_REASONS[play_against_reference(options, seed, chooser).end_reason])
    if options.get("max_rounds") == 12:
        assert "round_cap" in reasons


def test_reference_agreement_on_strategy_play():
    """Sensible play reaches positions random play rarely does (nobles, three reserves)."""
    comps = load_components()
    for n in (2, 3, 4):
        game = Game(GameConfig(n_players=n), comps)
        for seed in range(6):
            state = game.new_state(seed)
            ref = Reference(comps, n, seed, n_players=n)
            players = [
                STRATEGIES["heuristic" if s % 2 else "greedy"](random.Random(s)) for s in range(n)
            ]
            while state.legal:
                assert {decode(a) for a in state.legal} == ref.legal()
                action = players[state.current].choose(
                    PlayerView(state, state.current), state.legal
                )
                state.apply_action(action)
                ref.apply(decode(action))
                agree(state, ref)
            assert state.ranks() == ref.ranks()


def play(game: Game, names: list[str], seed: int, record: bool = False, check=None) -> State:
    state = game.new_state(seed, record)
    players = [STRATEGIES[name](random.Random(seed * 10 + s)) for s, name in enumerate(names)]
    while state.legal:
        p = state.current
        state.apply_action(players[p].choose(PlayerView(state, p), state.legal))
        if check is not None:
            check(state)
    return state


def test_invariants_hold_through_many_greedy_games():
    for n in (2, 3, 4):
        game = Game(GameConfig(n_players=n))
        start = list(game.new_state(0).supply)
        for seed in range(120):
            last_points = [[0] * n]

            def check(state: State, start=start, last_points=last_points):
                totals = [state.supply[c] + sum(t[c] for t in state.tokens) for c in range(6)]
                assert totals == start
                if state.phase != RETURNING:  # only the player returning may hold more
                    assert all(sum(t) <= 10 for t in state.tokens)
                assert all(len(r) <= 3 for r in state.reserved)
                assert all(a >= b for a, b in zip(state.points, last_points[0], strict=True))
                last_points[0] = list(state.points)
                nobles = [x for ns in state.nobles for x in ns]
                assert len(nobles) == len(set(nobles))
                cards = [c for c in state.display if c >= 0]
                cards += [c for d in state.decks for c in d]
                cards += [c for r in state.reserved for c in r] + [
                    c for t in state.tableau for c in t
                ]
                assert sorted(cards) == list(range(90))

            state = play(game, ["greedy"] * n, seed, check=check)
            assert END_REASONS[state.end_reason] == "target"
            assert state.turn == state.round * n
            assert state.round < 100


def test_random_game_lengths_match_the_rules_figures():
    """Uniform random play: median 38 / 36 / 36 rounds, at most 50 in 100 games each."""
    for n, median in ((2, 38), (3, 36), (4, 36)):
        game = Game(GameConfig(n_players=n))
        rng = random.Random(n)
        rounds = []
        for seed in range(200):
            state = game.new_state(seed)
            while state.legal:
                state.apply_action(state.legal[int(rng.random() * len(state.legal))])
            rounds.append(state.round)
        rounds.sort()
        assert abs(rounds[100] - median) <= 2
        assert rounds[-1] < 100


def test_clone_is_independent():
    game = Game(GameConfig(n_players=3))
    state = game.new_state(4, record=True)
    for _ in range(30):
        state.apply_action(state.legal[0])
    before = snapshot(state)
    copy = state.clone()
    assert snapshot(copy) == before
    while copy.legal:
        copy.apply_action(copy.legal[-1])
    assert snapshot(state) == before
    rng = random.Random(3)
    a, b = state.clone(), state.clone()
    while a.legal:
        choice = a.legal[int(rng.random() * len(a.legal))]
        a.apply_action(choice)
        b.apply_action(choice)
    assert snapshot(a) == snapshot(b)


def test_rule_parameters_share_the_deal():
    base = Game(GameConfig(n_players=2)).new_state(11)
    other = Game(GameConfig(n_players=2, target_points=9, gem_tokens=7, gold_tokens=2)).new_state(
        11
    )
    assert base.display == other.display and base.decks == other.decks
    assert base.table == other.table


def mid_game(n: int, seed: int, blind_reserves: bool = True) -> State:
    """A position in which every seat holds some blind reservations."""
    state = Game(GameConfig(n_players=n)).new_state(seed)
    rng = random.Random(seed)
    for _ in range(12 * n):
        legal = state.legal
        blind = [a for a in legal if RESERVE_BLIND <= a < BUY]
        if blind_reserves and blind and rng.random() < 0.3:
            state.apply_action(blind[0])
        else:
            state.apply_action(legal[int(rng.random() * len(legal))])
    return state


def hidden_variant(state: State, seat: int, rng: random.Random) -> State:
    """The same position with the decks and others' blind reservations reshuffled."""
    return PlayerView(state, seat).determinize(rng)


def test_determinize_is_consistent_with_the_view():
    for n in (2, 3, 4):
        for seed in range(10):
            state = mid_game(n, seed)
            for seat in range(n):
                view = PlayerView(state, seat)
                world = view.determinize(random.Random(seed))
                wview = PlayerView(world, seat)
                for other in range(n):
                    assert wview.reserved(other) == view.reserved(other)
                    assert wview.reserved_levels(other) == view.reserved_levels(other)
                    assert world.tableau[other] == state.tableau[other]
                    assert world.tokens[other] == state.tokens[other]
                assert world.display == state.display and world.supply == state.supply
                assert [len(d) for d in world.decks] == [len(d) for d in state.decks]
                cards = [c for c in world.display if c >= 0] + [c for d in world.decks for c in d]
                cards += [c for r in world.reserved for c in r] + [
                    c for t in world.tableau for c in t
                ]
                assert sorted(cards) == list(range(90))
                levels = world.game.card_level
                for level, deck in enumerate(world.decks, start=1):
                    assert all(levels[c] == level for c in deck)
                assert world.legal == state.legal or world.current != seat
                assert world.log == [] and not world.record


def test_determinize_depends_only_on_what_the_seat_knows():
    for n in (2, 3):
        for seed in range(8):
            state = mid_game(n, seed)
            for seat in range(n):
                truth = PlayerView(state, seat).determinize(random.Random(99))
                # another world the seat cannot tell apart from the real one
                other = hidden_variant(state, seat, random.Random(seed + 1000))
                again = PlayerView(other, seat).determinize(random.Random(99))
                assert snapshot(truth) == snapshot(again)


# the search on fewer positions (2 seeds, 3 rounds each): each of its choices is a search
@pytest.mark.parametrize(
    ("name", "seeds", "rounds"),
    [*((name, 15, 28) for name in sorted(STRATEGIES)), ("ismcts:iterations=2", 2, 3)],
)
def test_strategies_ignore_hidden_information(name, seeds, rounds):
    def player(seed: int) -> Strategy:
        return resolve(name, "splendor").make(random.Random(seed))

    for n in (2, 3):
        for seed in range(seeds):
            state = mid_game(n, seed)
            while state.legal:
                seat = state.current
                other = hidden_variant(state, seat, random.Random(seed))
                if other.legal == state.legal:
                    a = player(1).choose(PlayerView(state, seat), state.legal)
                    b = player(1).choose(PlayerView(other, seat), other.legal)
                    assert a == b
                    ta = player(1).terms(PlayerView(state, seat), state.legal)
                    tb = player(1).terms(PlayerView(other, seat), other.legal)
                    assert ta == tb
                if state.turn > (12 + rounds) * n:
                    break
                state.apply_action(player(2).choose(PlayerView(state, seat), state.legal))


@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_terms_sum_to_the_explained_scores(name):
    state = mid_game(3, 5)
    for _ in range(40):
        if not state.legal:
            break
        strategy = STRATEGIES[name](random.Random(0))
        view = PlayerView(state, state.current)
        explained = dict(strategy.explain(view, state.legal))
        for action, terms in strategy.terms(view, state.legal):
            assert sum(terms.values()) == pytest.approx(explained[action])
        best = strategy.explain(view, state.legal)[0][1]
        choice = strategy.choose(view, state.legal)
        assert explained[choice] == pytest.approx(best)
        state.apply_action(choice)
