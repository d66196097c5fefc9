"""`ismcts`: it plays every game, reproducibly, keeps its tree's books straight, scores
each seat's reward right (teams included), and finds a clear win on a hand-built position.
Its blindness to hidden information is checked by each game's hidden-information test, and
a whole game's reproducibility with the other built-ins (`test_strategies.py`)."""

from __future__ import annotations

import random

import pytest
from splendor_positions import arrange, fresh

from sanssim.games import game_names, get_game
from sanssim.games.base import GameType
from sanssim.runner.play import game_seed, play_game
from sanssim.strategies import StrategyError, resolve
from sanssim.strategies.ismcts import IsmctsStrategy, Node
from sanssim.strategies.random import RandomStrategy

TINY = "ismcts:iterations=2"


def new_game(name: str, players: int) -> tuple[GameType, object]:
    game_type = get_game(name)
    return game_type, game_type.new_game(players, {}, game_type.load_components())


def opening(name: str, players: int, seed: int = 0) -> tuple[object, list[int]]:
    """The first decision of a game with more than one option: its view and options."""
    game_type, game = new_game(name, players)
    state = game.new_state(seed)
    return game_type.view(state, state.current), list(state.legal)


def make(spec: str, name: str, seed: int = 1) -> IsmctsStrategy:
    player = resolve(spec, name).make(random.Random(seed))
    assert isinstance(player, IsmctsStrategy)
    return player


def test_registered_for_every_game_with_its_parameters() -> None:
    for name in game_names():
        text = "ismcts:iterations=7,c=0.3,width=2,depth=5,rollout=random,reward=margin"
        spec = resolve(text, name)
        assert spec.cls is IsmctsStrategy
        assert dict(spec.params) == {
            "iterations": 7,
            "c": 0.3,
            "width": 2,
            "depth": 5,
            "rollout": "random",
            "reward": "margin",
        }
    with pytest.raises(StrategyError, match="rollout must be one of heuristic, random"):
        resolve("ismcts:rollout=greedy")


@pytest.mark.parametrize("name", game_names())
def test_plays_every_game_at_every_player_count(name: str) -> None:
    game_type = get_game(name)
    for players in range(game_type.min_players, game_type.max_players + 1):
        _, game = new_game(name, players)
        specs = [resolve(TINY, name), *[resolve("heuristic", name)] * (players - 1)]
        state = play_game(game_type, game, specs, game_seed(3, players))  # raises if illegal
        assert state.is_terminal()


@pytest.mark.parametrize("name", game_names())
def test_same_seed_same_search(name: str) -> None:
    view, legal = opening(name, 3)
    first = make("ismcts:iterations=12", name, seed=5).terms(view, legal)
    assert make("ismcts:iterations=12", name, seed=5).terms(view, legal) == first
    others = [make("ismcts:iterations=12", name, seed=s).terms(view, legal) for s in (6, 7)]
    assert any(other != first for other in others)


def walk(node: Node) -> list[Node]:
    nodes = [node]
    for child in node.children.values():
        nodes += walk(child)
    return nodes


@pytest.mark.parametrize("name", game_names())
@pytest.mark.parametrize("width", [0, 3])
def test_tree_bookkeeping(name: str, width: int) -> None:
    view, legal = opening(name, 3, seed=2)
    player = make(f"ismcts:iterations=60,width={width}", name)
    root = player.search(view)
    assert root.visits == 60
    assert sum(child.visits for child in root.children.values()) == 60
    # the root's options are legal in every world: all of them, or the rollout strategy's best
    best = (
        [
            a
            for a, _ in resolve("heuristic", name)
            .make(random.Random(0))
            .explain(view, legal)[:width]
        ]
        if width
        else legal
    )
    assert set(root.children) == set(best) and len(best) == min(len(legal), width or len(legal))
    nodes = walk(root)
    assert len(nodes) == 61  # one node added per iteration (none is terminal this early)
    for node in nodes:
        assert sum(child.visits for child in node.children.values()) <= node.visits
        for child in node.children.values():
            assert child.available >= child.visits >= 1
            assert child.available <= node.visits
    for node in nodes[1:]:
        # a reward per seat in [0, 1]; with 3 sides they add up to 1.5 every iteration
        assert sum(node.totals) == pytest.approx(1.5 * node.visits)
    visits = {a: terms["visits"] for a, terms in player.terms(view, legal)}
    assert sum(visits.values()) == 60 and set(visits) == set(legal)


def test_explain_ranks_by_visits_then_mean_reward_and_matches_the_choice() -> None:
    view, legal = opening("seikatsu", 2, seed=4)
    terms = make("ismcts:iterations=40", "seikatsu").terms(view, legal)
    ranked = make("ismcts:iterations=40", "seikatsu").explain(view, legal)
    chosen = make("ismcts:iterations=40", "seikatsu").choose(view, legal)
    assert [a for a, _ in ranked] == [a for a, _ in terms] and ranked[0][0] == chosen
    keys = [(t["visits"], t["mean reward"]) for _, t in terms]
    assert keys == sorted(keys, reverse=True)
    assert all(0.0 <= mean <= 1.0 for _, mean in keys)
    assert [score for _, score in ranked] == [v + m for v, m in keys]


def finished(name: str, players: int, seed: int) -> object:
    game_type, game = new_game(name, players)
    return play_game(game_type, game, [resolve("heuristic", name)] * players, seed)


def test_win_reward_is_the_share_of_other_sides_beaten() -> None:
    player = make(TINY, "splendor")
    for seed in range(6):
        state = finished("splendor", 3, seed)
        ranks = state.ranks()
        rewards = player._rewards(state, (0, 1, 2))
        for seat in range(3):
            others = [r for p, r in enumerate(ranks) if p != seat]
            above = sum(ranks[seat] < r for r in others)
            level = sum(ranks[seat] == r for r in others)
            assert rewards[seat] == (above + 0.5 * level) / 2


def test_rewards_of_teammates_are_equal_and_the_teams_share_one() -> None:
    game_type = get_game("seikatsu")
    for reward in ("win", "margin"):
        player = make(f"{TINY},reward={reward}", "seikatsu")
        for seed in range(4):
            state = finished("seikatsu", 4, seed)
            sides = game_type.sides(state.game)
            assert len(set(sides)) == 2
            rewards = player._rewards(state, sides)
            for a in range(4):
                for b in range(4):
                    if sides[a] == sides[b]:
                        assert rewards[a] == rewards[b]
                    else:
                        assert rewards[a] + rewards[b] == pytest.approx(1.0)
            winner = state.ranks().index(1)
            assert rewards[winner] >= 0.5


def test_margin_reward_is_the_margin_scaled_into_the_unit_interval() -> None:
    player = make(f"{TINY},reward=margin", "sanssouci")
    state = finished("sanssouci", 2, 1)
    totals = state.returns()
    rewards = player._rewards(state, (0, 1))
    margin = totals[0] - totals[1]
    assert rewards[0] == pytest.approx(0.5 + margin / (2 * max(totals)))
    assert rewards[0] + rewards[1] == pytest.approx(1.0)


def test_finds_the_only_winning_buy() -> None:
    """Splendor, seat 0 at 16 points with 35 cards bought: the game ends after seat 1's
    turn. Seat 1, at 11 points with 10 cards, wins only by buying the 5-point card of slot
    9 (16 points, fewer cards); every other option ends the game lost."""
    state = arrange(
        fresh(2, 3),
        seat=1,
        bonus={0: [7] * 5, 1: [0, 0, 7, 3, 0]},
        points={0: 16, 1: 11},
        table=[],
    )
    legal = list(state.legal)
    outcomes = {}
    for action in legal:
        after = state.clone()
        after.apply_action(action)
        assert after.is_terminal()
        outcomes[action] = after.ranks()[1] == 1
    winning = [a for a, won in outcomes.items() if won]
    assert len(winning) == 1 and len(legal) > 20 and legal.index(winning[0]) > 0
    view = get_game("splendor").view(state, 1)
    for spec in ("ismcts:iterations=120", "ismcts:iterations=120,rollout=random,width=0"):
        terms = dict(make(spec, "splendor").terms(view, legal))
        assert {a: t["mean reward"] for a, t in terms.items()} == {
            a: float(won) for a, won in outcomes.items()
        }
        assert make(spec, "splendor").choose(view, legal) == winning[0]


def test_random_rollouts_for_a_game_without_a_rollout_strategy() -> None:
    class NoHeuristic(type(get_game("seikatsu"))):  # type: ignore[misc]
        rollout_strategy = "none-declared"

    player = make("ismcts", "seikatsu")
    assert not isinstance(player.policy, RandomStrategy)
    bare = make("ismcts", "seikatsu")
    bare.game_type = NoHeuristic()
    assert isinstance(bare.policy, RandomStrategy)
    assert isinstance(make("ismcts:rollout=random", "seikatsu").policy, RandomStrategy)


def test_the_margin_reward_of_a_lowest_wins_game_favours_the_lowest_total() -> None:
    """No Thanks! (examples/nothanks): the winner, with the fewest points, gets the larger
    reward, by how far it finishes below the best other total."""
    player = make(f"{TINY},reward=margin", "nothanks")
    state = finished("nothanks", 3, 2)
    totals = state.returns()
    rewards = player._rewards(state, (0, 1, 2))
    winner = state.ranks().index(1)
    assert totals[winner] == min(totals) and rewards[winner] == max(rewards) > 0.5
    below = sorted(totals)[1] - totals[winner]
    assert rewards[winner] == pytest.approx(0.5 + below / (2 * max(abs(t) for t in totals)))


def test_a_game_may_declare_its_own_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    game_type = type(get_game("splendor"))
    own = {"ismcts": {"iterations": 150, "depth": 8}}
    monkeypatch.setattr(game_type, "strategy_defaults", own)
    spec = resolve("ismcts:c=0.5", "splendor")
    assert dict(spec.params) | own["ismcts"] == dict(spec.params)
    assert spec.short == "ismcts:c=0.5"
    assert resolve("ismcts:depth=0", "splendor").short == "ismcts:depth=0"
    assert dict(resolve("ismcts", "seikatsu").params)["depth"] == 0


@pytest.mark.parametrize("name", ["sanssouci", "splendor"])
def test_a_cut_off_rollout_plays_depth_decisions_then_scores_the_world_as_it_stands(
    name: str,
) -> None:
    player = make("ismcts:depth=3", name)
    game_type, game = new_game(name, 2)
    state = game.new_state(5)
    policy = player.policy
    chosen = []
    real = policy.choose

    def choose(view: object, legal: list[int]) -> int:
        chosen.append(real(view, legal))
        return chosen[-1]

    policy.choose = choose  # type: ignore[method-assign]
    player.play_out(state, player.depth)
    assert len(chosen) == 3 and state.legal
    ranks = state.ranks()
    want = [
        1.0 if ranks[s] < ranks[1 - s] else 0.5 if ranks[s] == ranks[1 - s] else 0.0 for s in (0, 1)
    ]
    assert player._rewards(state, game_type.sides(game)) == want
