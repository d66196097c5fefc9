"""Built-in strategies and how strategies are found: registry, plug-ins, parameters,
legality, reproducibility, strength on small samples, and blindness to hidden information."""

from __future__ import annotations

import random
from collections.abc import Iterator
from importlib.metadata import EntryPoint

import pytest

import sanssim.strategies as strategies
from sanssim.games.sanssouci import NOBLE, PASS, PLACE, TAKE, Game, GameConfig, State
from sanssim.games.sanssouci.plugin import GAME
from sanssim.games.sanssouci.strategies.greedy import GreedyStrategy
from sanssim.games.sanssouci.strategies.heuristic import HeuristicStrategy
from sanssim.games.sanssouci.view import PlayerView
from sanssim.runner.play import game_seed, play_game, strategy_rng
from sanssim.strategies import StrategyError, resolve
from sanssim.strategies.ismcts import IsmctsStrategy
from sanssim.strategies.lookahead import LookaheadStrategy
from sanssim.strategies.random import RandomStrategy

# the searches at tiny budgets: the same machinery as the defaults, fast enough for tests
BUILT_IN = ["random", "greedy", "heuristic", "lookahead:rollouts=4,width=2", "ismcts:iterations=3"]


def test_registry_finds_every_built_in() -> None:
    expected = {
        "random": RandomStrategy,
        "greedy": GreedyStrategy,
        "heuristic": HeuristicStrategy,
        "lookahead": LookaheadStrategy,
        "ismcts": IsmctsStrategy,
    }
    for name, cls in expected.items():
        spec = resolve(name)
        assert spec.cls is cls
        assert spec.text.startswith(name)


def test_entry_point_plug_in_is_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    plug = EntryPoint("deep", "example_strategy:DeepestNoble", strategies.ENTRY_POINT_GROUP)
    broken = EntryPoint("broken", "no_such_module:Nothing", strategies.ENTRY_POINT_GROUP)
    monkeypatch.setattr(
        strategies,
        "entry_points",
        lambda group: [plug, broken] if group == strategies.ENTRY_POINT_GROUP else [],
    )
    strategies._installed.cache_clear()  # read once per process: read them again
    spec = resolve("deep:min_row=3")
    assert spec.cls.__name__ == "DeepestNoble"
    assert dict(spec.params) == {"min_row": 3}
    with pytest.raises(StrategyError, match="failed to load"):
        resolve("broken")


def test_module_class_spec_is_loaded() -> None:
    spec = resolve("sanssim.games.sanssouci.strategies.heuristic:HeuristicStrategy:skip=0.25")
    assert spec.cls is HeuristicStrategy
    assert dict(spec.params)["skip"] == 0.25
    assert resolve("example_strategy:DeepestNoble").cls.__name__ == "DeepestNoble"
    with pytest.raises(StrategyError, match="has no class"):
        resolve("sanssim.games.sanssouci.strategies.heuristic:Nope")
    with pytest.raises(StrategyError, match="cannot import"):
        resolve("no_such_package.module:Class")
    with pytest.raises(StrategyError, match="not a sanssim Strategy"):
        resolve("sanssim.games.sanssouci.engine:State")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("heuristic:bogus=1", "has no parameter 'bogus'"),
        ("heuristic:skip=lots", "skip must be float"),
        ("lookahead:rollouts=2.5", "rollouts must be int"),
        ("heuristic:skip=1,skip=2", "given twice"),
        ("heuristic:skip", "expected key=value"),
        ("random:x=1", "parameters: none"),
        ("nonesuch", "unknown sanssouci strategy 'nonesuch'"),
    ],
)
def test_bad_specs_give_clear_errors(spec: str, message: str) -> None:
    with pytest.raises(StrategyError, match=message):
        resolve(spec)


CONFIGS = [
    GameConfig(n_players=2),
    GameConfig(n_players=3, expansion=True),
    GameConfig(n_players=4, expansion=True, duplicate_reshuffle=True),
    GameConfig(n_players=2, tile_set="II+III+IV", garden_sides=("1A",)),
    GameConfig(n_players=4, tile_set="II", duplicate_reshuffle=True),
    GameConfig(n_players=3, tile_set="II", expansion=True, garden_sides=("2B", "3A", "4B")),
]


@pytest.mark.parametrize("name", BUILT_IN)
@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.n_players}p")
def test_plays_complete_legal_games(name: str, config: GameConfig) -> None:
    game = Game(config)
    others = [resolve("random"), resolve("heuristic"), resolve("greedy")]
    specs = [resolve(name), *others[: config.n_players - 1]]
    state = play_game(GAME, game, specs, seed=game_seed(5, config.n_players))  # raises if illegal
    assert state.is_terminal()
    assert state.turn == 18 * config.n_players
    if config.tile_set is None:  # enough tiles: one placed on every turn of every seat
        placed = [state.occupied[p].bit_count() for p in range(config.n_players)]
        assert placed == [33] * config.n_players


@pytest.mark.parametrize("name", BUILT_IN)
def test_same_seed_same_game(name: str) -> None:
    game = Game(GameConfig(n_players=3, expansion=True))
    specs = [resolve(name), resolve("heuristic"), resolve(name)]
    logs = [play_game(GAME, game, specs, seed=99, record=True).log for _ in range(2)]
    assert [vars_of(r) for r in logs[0]] == [vars_of(r) for r in logs[1]]
    other = play_game(GAME, game, specs, seed=100, record=True).log
    assert [vars_of(r) for r in other] != [vars_of(r) for r in logs[0]]


def vars_of(record: object) -> tuple:
    return tuple(getattr(record, name) for name in record.__slots__)


def win_rate(strong: str, weak: str, seeds: int) -> float:
    """Win points of `strong` over `seeds` seeds, each played in both seatings."""
    game = Game(GameConfig(n_players=2))
    specs = (resolve(strong), resolve(weak))
    points = 0.0
    for i in range(seeds):
        for seat in (0, 1):
            players = [specs[0], specs[1]] if seat == 0 else [specs[1], specs[0]]
            ranks = play_game(GAME, game, players, game_seed(31, i)).ranks()
            points += 1 if ranks[seat] < ranks[1 - seat] else 0.5 * (ranks[0] == ranks[1])
    return points / (2 * seeds)


def test_greedy_beats_random() -> None:
    # measured: 99.8% over 2,000 games; 0.8 on 40 games is many standard errors below
    assert win_rate("greedy", "random", 20) >= 0.8


def test_heuristic_beats_greedy() -> None:
    # measured: about 80% over 2,000 games; 0.62 on 120 games is over 4 standard errors below
    assert win_rate("heuristic", "greedy", 60) >= 0.62


# --------------------------------------------------------------- hidden information

SAME_PUBLIC_TURNS = 16  # refills and draws kept equal for this many turns


def hidden_twin(state: State, seat: int, rng: random.Random) -> State:
    """A copy that differs from `state` only in what `seat` cannot know.

    The opponents' missions change; the supply, the opponents' decks and the
    seat's own deck are reshuffled below the part drawn in the next
    SAME_PUBLIC_TURNS turns, so public information stays equal that long.
    """
    twin = state.clone()
    keep = SAME_PUBLIC_TURNS
    deep = twin.supply[:-keep]
    while deep == twin.supply[:-keep]:
        rng.shuffle(deep)
    twin.supply[:-keep] = deep
    draws = -(-keep // twin.n)
    for p in range(twin.n):
        cards = twin.decks[p][:-draws]
        rng.shuffle(cards)
        twin.decks[p][:-draws] = cards
    mine = set(twin.missions[seat])
    free = [m for m in range(9) if m not in mine]
    while True:
        rng.shuffle(free)
        others = iter(free)
        missions = [
            twin.missions[p] if p == seat else (next(others), next(others)) for p in range(twin.n)
        ]
        if missions != twin.missions:
            break
    twin.missions = missions
    return twin


def choices_until_public_diverges(name: str, state: State, twin: State, seat: int) -> int:
    """Play both states in lockstep; assert the seat's choices agree. Returns how many."""
    n = state.n
    specs = [resolve(name) if p == seat else resolve("random") for p in range(n)]
    players = [[spec.make(strategy_rng(7, p)) for p, spec in enumerate(specs)] for _ in range(2)]
    views = [[PlayerView(s, p) for p in range(n)] for s in (state, twin)]
    compared = 0
    while state.legal and state.turn < SAME_PUBLIC_TURNS:
        assert state.legal == twin.legal and state.display == twin.display
        p = state.current
        a = players[0][p].choose(views[0][p], list(state.legal))
        b = players[1][p].choose(views[1][p], list(twin.legal))
        assert a == b, f"{name} chose differently at turn {state.turn} on hidden information"
        compared += p == seat
        state.apply_action(a)
        twin.apply_action(b)
    return compared


def hidden_twins() -> Iterator[tuple[State, State]]:
    """Deals of 2 and 3 players (expansion), each with its twin for seat 0."""
    for config in (GameConfig(n_players=2), GameConfig(n_players=3, expansion=True)):
        game = Game(config)
        for seed in (3, 4):
            state = game.new_state(seed)
            twin = hidden_twin(state, 0, random.Random(seed))
            assert twin.supply != state.supply and twin.missions != state.missions
            yield state, twin


@pytest.mark.parametrize("name", BUILT_IN)
def test_choices_ignore_hidden_information(name: str) -> None:
    for state, twin in hidden_twins():
        assert choices_until_public_diverges(name, state, twin, 0) >= 10


class Peeking(HeuristicStrategy):
    """Reads the opponents' missions: the hidden-information test must catch it."""

    name = "peeking"

    def choose(self, view: PlayerView, legal: list[int]) -> int:
        hidden = view._state.missions[1 - view.seat]
        return legal[hidden[0] % len(legal)]


def test_hidden_information_check_catches_a_peeking_strategy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(strategies, "SHARED", (*strategies.SHARED, Peeking))
    game = Game(GameConfig(n_players=2))
    for seed in range(4):
        state = game.new_state(seed)
        with pytest.raises(AssertionError, match="chose differently"):
            choices_until_public_diverges(
                "peeking", state, hidden_twin(state, 0, random.Random(seed)), 0
            )


# --------------------------------------------------------------- explain


def decision(n: int, phase: int) -> tuple[PlayerView, list[int]]:
    """A mid-game decision of the given phase, reached by heuristic play."""
    game = Game(GameConfig(n_players=2))
    state = game.new_state(11)
    policy = HeuristicStrategy(random.Random(0))
    while not (state.turn >= n and state.phase == phase and len(state.legal) > 2):
        state.apply_action(policy.choose(PlayerView(state, state.current), state.legal))
    return PlayerView(state, state.current), list(state.legal)


@pytest.mark.parametrize("name", BUILT_IN[1:])
@pytest.mark.parametrize("phase", [TAKE, PLACE], ids=["take", "place"])
def test_explain_ranks_legal_options_and_matches_choice(name: str, phase: int) -> None:
    view, legal = decision(6, phase)
    spec = resolve(name)
    ranked = spec.make(random.Random(1)).explain(view, legal)
    chosen = spec.make(random.Random(1)).choose(view, legal)
    assert ranked and {a for a, _ in ranked} <= set(legal)
    scores = [s for _, s in ranked]
    assert scores == sorted(scores, reverse=True)
    assert ranked[0][0] == chosen
    if not name.startswith("lookahead"):
        assert len(ranked) == len(legal)


def test_greedy_takes_the_deepest_noble_move() -> None:
    view, legal = decision(10, NOBLE)
    moves = [a for a in legal if a != PASS]
    assert GreedyStrategy(random.Random(0)).choose(view, legal) // 9 == max(moves) // 9


# --------------------------------------------------------------- README example


def test_readme_example_strategy_plays() -> None:
    spec = resolve("example_strategy:DeepestNoble:min_row=2")
    state = play_game(GAME, Game(GameConfig(n_players=2)), [spec, resolve("random")], seed=1)
    assert state.is_terminal()
    noble_rows = state.breakdown(0).noble_rows
    assert all(row == 0 or row >= 2 for row in noble_rows)


def test_heuristic_terms_add_up_to_its_scores_at_every_kind_of_decision() -> None:
    """`show --explain` splits each score into the weights' terms: they must add up."""
    game = Game(GameConfig(n_players=3, expansion=True))
    player = resolve("heuristic").make(random.Random(0))
    phases = set()
    for seed in range(3):
        state = game.new_state(seed)
        while state.legal:
            view = PlayerView(state, state.current)
            legal = list(state.legal)
            scores = dict(player.explain(view, legal))
            terms = player.terms(view, legal)
            assert sorted(a for a, _ in terms) == sorted(legal)
            for action, named in terms:
                assert sum(named.values()) == pytest.approx(scores[action])
            if len({n for _, t in terms for n in t}) > 1:
                phases.add(view.phase)
            state.apply_action(player.choose(view, legal))
    assert len(phases) >= 3  # take, place and noble decisions (and sides) are split


@pytest.fixture(autouse=True)
def _entry_points_read_afresh():
    """Tests that fake the installed entry points must not leave them cached."""
    yield
    strategies._installed.cache_clear()
