"""Properties of whole seeded games, checked against a slow reference of the rules.

The reference (`expected_legal`, `walk`, `end_bonus`) is written from the rules
text with sets and breadth-first search, sharing no code with the engine's bit
masks, so agreement at every decision of many games is real evidence.
"""

from __future__ import annotations

import math
import os
import random
import subprocess
import sys
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from positions import default_data, set_position, snapshot

from sanssim.games.sanssouci import (
    COLOURS,
    DISCARD,
    NOBLE,
    PASS,
    PLACE,
    SIDE,
    SYMBOLS,
    TAKE,
    Game,
    GameConfig,
    IllegalActionError,
    State,
)
from sanssim.games.sanssouci.components import Card, Components, GardenSide
from sanssim.games.sanssouci.plugin import GAME
from sanssim.games.sanssouci.view import PlayerView
from sanssim.runner.play import play_game
from sanssim.strategies import resolve

CONFIGS = [
    GameConfig(n_players=2),
    GameConfig(n_players=3),
    GameConfig(n_players=4),
    GameConfig(n_players=2, expansion=True),
    GameConfig(n_players=3, expansion=True),
    GameConfig(n_players=4, expansion=True),
    GameConfig(n_players=2, duplicate_reshuffle=True),
    GameConfig(n_players=4, duplicate_reshuffle=True),
    GameConfig(n_players=4, tile_set="II"),
    GameConfig(n_players=3, tile_set="II"),
    GameConfig(n_players=2, tile_set="II+III+IV"),
    GameConfig(n_players=4, expansion=True, duplicate_reshuffle=True, tile_set="II+III"),
    GameConfig(n_players=3, expansion=True, duplicate_reshuffle=True, tile_set="II"),
    GameConfig(n_players=2, garden_sides=("3B",), expansion=True),
]
STANDARD = {2: "II", 3: "II+III", 4: "II+III+IV"}
TILES = {"II": 5, "II+III": 7, "II+III+IV": 9}


def config_id(cfg: GameConfig) -> str:
    parts = [f"{cfg.n_players}p"]
    parts += ["exp"] * cfg.expansion + ["dup"] * cfg.duplicate_reshuffle
    parts += [cfg.tile_set] if cfg.tile_set else []
    parts += list(cfg.garden_sides or ())
    return "-".join(parts)


def standard_tiles(cfg: GameConfig) -> bool:
    """Enough tiles that no display square is ever empty at a turn start."""
    return TILES[cfg.tile_set or STANDARD[cfg.n_players]] >= TILES[STANDARD[cfg.n_players]]


# ---------------------------------------------------------------- the reference


def side_of(state: State, seat: int) -> GardenSide:
    return state.game.components.garden_sides[state.setup[seat].garden]


def squares_in(bitmask: int) -> set[tuple[int, int]]:
    """(row, col) of every square set in a garden mask (square = (row - 1) * 9 + col)."""
    return {(r, c) for r in range(1, 7) for c in range(9) if bitmask >> (r - 1) * 9 + c & 1}


def occupied_set(state: State, seat: int) -> set[tuple[int, int]]:
    return squares_in(state.occupied[seat])


def gardener_set(state: State, seat: int) -> set[tuple[int, int]]:
    return squares_in(state.gardeners[seat])


def walk(start: tuple[int, int], occupied: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """Squares a noble on `start` can walk to over occupied squares."""
    seen, todo = {start}, [start]
    while todo:
        r, c = todo.pop()
        for nxt in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if nxt in occupied and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def noble_moves(state: State, seat: int) -> set[int]:
    occupied, gardeners = occupied_set(state, seat), gardener_set(state, seat)
    moves = set()
    for col, row in enumerate(state.noble_rows[seat]):
        start = (1, col) if row == 0 else (row, col)
        for r, c in walk(start, occupied):
            if c == col and r > row and (r, c) not in gardeners:
                moves.add((r - 1) * 9 + c)
    return moves


def offered(card: Card, shown: dict[int, int]) -> list[int]:
    """Display slots (slot -> symbol shown) a card may take from."""
    if card.kind == "pair":
        return [slot for slot in shown if slot // 2 in card.colours]
    if card.kind == "symbol":
        same = [slot for slot, symbol in shown.items() if symbol == card.symbol]
        if same:
            return same
    return list(shown)


def expected_legal(state: State) -> set[int]:
    p = state.current
    comps = state.game.components
    if state.phase == SIDE:
        return {i for i, e in enumerate(comps.expansion_sides) if e.board == state.exp_board[p]}
    if state.phase == TAKE:
        shown = {slot: t for slot, t in enumerate(state.display) if t != -1}
        hand = state.hands[p]
        takes = {10 * i + s for i, c in enumerate(hand) for s in offered(comps.deck[c], shown)}
        return takes or {DISCARD + i for i in range(len(hand))}
    if state.phase == PLACE:
        rec = state._turn
        side = side_of(state, p)
        row, col = rec.slot // 2 + 2, side.columns.index(SYMBOLS[rec.tile])
        assert state.pending_target == (row - 1) * 9 + col == rec.target
        occupied = occupied_set(state, p)
        assert (row, col) in occupied
        free = {(r, c) for r in range(1, 7) for c in range(9)} - occupied
        near = {(r, c) for r, c in free if r == row or c == col}
        return {(r - 1) * 9 + c for r, c in near or free}
    assert state.phase == NOBLE
    return noble_moves(state, p) | {PASS}


def mark_points(state: State, seat: int, sq: int, gardener: bool) -> int:
    """What the rules pay for a tile placed on `sq` of this seat's expansion board."""
    if state.exp_side[seat] == -1:
        return 0
    comps = state.game.components
    exp = comps.expansion_sides[state.exp_side[seat]]
    first = side_of(state, seat).columns.index("stairway") - exp.stairway_index
    r, c = sq // 9 + 1 - 3, sq % 9 - first
    if not (0 <= r < 4 and 0 <= c < 4):
        return 0
    mark = exp.marks[r][c]
    pays = {"symbol": not gardener, "gardener": gardener, "penalty": True, "none": False}
    return mark.value if pays[mark.kind] else 0


def end_bonus(state: State, seat: int) -> int:
    occupied = occupied_set(state, seat)
    rows = sum(10 - r for r in range(2, 7) if all((r, c) in occupied for c in range(9)))
    cols = sum(5 for c in range(9) if all((r, c) in occupied for r in range(1, 7)))
    side = side_of(state, seat)
    missions = sum(
        state.noble_rows[seat][side.columns.index(SYMBOLS[m])] for m in state.missions[seat]
    )
    return rows + cols + missions


# ---------------------------------------------------------------- playing with checks


def check_invariants(state: State, before: list[list[int]]) -> None:
    if state.game.config.duplicate_reshuffle:
        for colour in range(5):
            a, b = state.display[2 * colour : 2 * colour + 2]
            # A pair may stay only when the supply cannot yield a different symbol.
            assert a != b or a == -1 or all(t == a for t in state.supply)
    for seat in range(state.n):
        occupied = occupied_set(state, seat)
        group = walk((1, 0), occupied)
        assert state.reach[seat] == sum(1 << (r - 1) * 9 + c for r, c in group)
        for col, row in enumerate(state.noble_rows[seat]):
            assert row >= before[seat][col]
            assert row == 0 or ((row, col) in group and (row, col) not in gardener_set(state, seat))


def play_checked(cfg: GameConfig, seed: int, components: Components | None = None) -> State:
    """Play random choices, checking every decision against the reference."""
    state = Game(cfg, components).new_state(seed, record=True)
    rng = random.Random(seed)
    while state.legal:
        assert set(state.legal) == expected_legal(state)
        assert len(state.legal) == len(set(state.legal))
        assert state.phase == SIDE or len(state.legal) >= 2  # single choices are automatic
        seat, turn, phase = state.current, state.turn, state.phase
        before = [list(rows) for rows in state.noble_rows]
        state.apply_action(rng.choice(state.legal))
        check_invariants(state, before)
        if phase in (TAKE, PLACE) and turn < state.turn < turn + state.n:
            # The turn ended with no noble decision: no noble could move.
            assert not noble_moves(state, seat)
    return state


def check_finished(cfg: GameConfig, state: State) -> None:
    n = cfg.n_players
    assert state.is_terminal() and state.turn == 18 * n
    assert [rec.seat for rec in state.log] == [t % n for t in range(18 * n)]
    assert [rec.turn for rec in state.log] == list(range(18 * n))
    taken = [rec.tile for rec in state.log if rec.tile != -1]
    shown = [t for t in state.display if t != -1]
    assert Counter(taken + shown + state.supply) == Counter(state.game.tiles)
    for seat in range(n):
        recs = [rec for rec in state.log if rec.seat == seat]
        assert len(recs) == 18
        gains = sum(rec.noble_points + rec.expansion_points for rec in recs)
        assert state.score[seat] == gains
        assert state.returns()[seat] == gains + end_bonus(state, seat)
        placed = [rec for rec in recs if rec.placed != -1]
        assert state.occupied[seat].bit_count() == 15 + len(placed)
        if standard_tiles(cfg):
            assert state.occupied[seat].bit_count() == 33
        for rec in recs:
            if rec.noble_col != -1:
                assert 1 <= rec.noble_to <= 6 and rec.noble_to > rec.noble_from
                assert rec.noble_points == rec.noble_to
            if rec.placed != -1:
                assert rec.gardener == (rec.placed != rec.target)
                assert rec.expansion_points == mark_points(state, seat, rec.placed, rec.gardener)
            else:
                assert rec.tile == -1 and rec.expansion_points == 0
                shown = {slot: t for slot, t in enumerate(rec.display) if t != -1}
                deck = state.game.components.deck
                assert not any(offered(deck[c], shown) for c in rec.hand)


@pytest.mark.parametrize("cfg", CONFIGS, ids=config_id)
def test_every_decision_matches_the_reference(cfg):
    for seed in range(8):
        check_finished(cfg, play_checked(cfg, seed))


@pytest.mark.parametrize("cfg", CONFIGS, ids=config_id)
def test_finished_games_add_up(cfg):
    game = Game(cfg)
    specs = [resolve("random")] * cfg.n_players
    for seed in range(100, 160):
        state = play_game(GAME, game, specs, seed, record=True)
        check_finished(cfg, state)
        if cfg.duplicate_reshuffle:
            assert state.reshuffles >= sum(rec.reshuffles for rec in state.log)
        else:
            assert state.reshuffles == 0


# ---------------------------------------------------------------- other decks

CARD_CODES = [
    *(f"symbol:{symbol}" for symbol in SYMBOLS),
    *(f"pair:{a}+{b}" for i, a in enumerate(COLOURS) for b in COLOURS[i + 1 :]),
    "joker",
]
DECKS = {
    "jokers only": ["joker"] * 18,
    "one colour pair": ["pair:white+gray"] * 18,
    "two of each symbol": [f"symbol:{symbol}" for symbol in SYMBOLS] * 2,
    "ten pairs, no joker": [*(f"symbol:{s}" for s in SYMBOLS[:8]), *CARD_CODES[9:19]],
}


def with_deck(codes: list[str]) -> Components:
    data = default_data()
    data["deck"]["cards"] = codes
    return Components.from_dict(data)


@settings(max_examples=30, deadline=None)
@given(
    codes=st.lists(st.sampled_from(CARD_CODES), min_size=18, max_size=18),
    cfg=st.sampled_from(CONFIGS),
    seed=st.integers(0, 2**63 - 1),
)
def test_any_mix_of_eighteen_cards_is_played_by_the_rules(codes, cfg, seed):
    check_finished(cfg, play_checked(cfg, seed, with_deck(codes)))


@pytest.mark.parametrize("deck", DECKS)
def test_strategies_finish_games_with_other_decks_and_the_logs_replay(deck):
    components = with_deck(DECKS[deck])
    cfg = GameConfig(n_players=3, expansion=True)
    game = Game(cfg, components)
    lineups = [("heuristic", "greedy", "lookahead:rollouts=1,width=2"), ("random",) * 3]
    for seed, names in enumerate(lineups):
        specs = [resolve(name) for name in names]
        state = play_game(GAME, game, specs, seed, record=True)
        check_finished(cfg, state)
        results = GAME.result_frame("r", game, list(names), [(0, seed, state)])
        turns = GAME.turn_frame("r", game, [(0, state)])
        # The log names cards by code, so a replay may play the other copy of a repeated
        # card: the same game (every logged turn is checked), not the same card indices.
        replayed = GAME.replay(game, 0, seed, results, turns)
        assert replayed.returns() == state.returns() and replayed.ranks() == state.ranks()


# ---------------------------------------------------------------- clone, seeds, illegal choices


def run(state: State, rng: random.Random) -> State:
    while state.legal:
        state.apply_action(rng.choice(state.legal))
    return state


@settings(max_examples=40, deadline=None)
@given(
    cfg=st.sampled_from(CONFIGS),
    seed=st.integers(0, 2**63 - 1),
    steps=st.integers(0, 250),
)
def test_clone_is_independent_and_continues_identically(cfg, seed, steps):
    state = Game(cfg).new_state(seed, record=True)
    rng = random.Random(seed)
    for _ in range(steps):
        if not state.legal:
            break
        state.apply_action(rng.choice(state.legal))
    copy = state.clone()
    assert snapshot(copy) == snapshot(state)
    frozen = snapshot(state)
    run(copy, random.Random(1))
    assert snapshot(state) == frozen  # playing the clone left the original alone
    run(state, random.Random(1))
    assert snapshot(state) == snapshot(copy)
    assert state.log == copy.log


@pytest.mark.parametrize("cfg", CONFIGS, ids=config_id)
def test_same_seed_same_game_different_seed_different_game(cfg):
    game = Game(cfg)
    a = run(game.new_state(42, record=True), random.Random(0))
    b = run(game.new_state(42, record=True), random.Random(0))
    c = run(game.new_state(43, record=True), random.Random(0))
    assert snapshot(a) == snapshot(b)
    assert a.log != c.log
    starts = {tuple(game.new_state(s).display) for s in range(20)}
    assert len(starts) > 15


@settings(max_examples=40, deadline=None)
@given(
    cfg=st.sampled_from(CONFIGS),
    seed=st.integers(0, 2**63 - 1),
    steps=st.integers(0, 250),
    bad=st.lists(st.integers(-3, 120), min_size=1, max_size=5),
)
def test_illegal_choice_raises_and_changes_nothing(cfg, seed, steps, bad):
    state = Game(cfg).new_state(seed, record=True)
    rng = random.Random(seed)
    for _ in range(steps):
        if not state.legal:
            break
        state.apply_action(rng.choice(state.legal))
    for action in bad:
        if action in state.legal:
            continue
        before = snapshot(state)
        with pytest.raises(IllegalActionError) as info:
            state.apply_action(action)
        assert state.describe(action) in str(info.value)
        assert snapshot(state) == before


# ---------------------------------------------------------------- rules section 7


def test_first_display_misses_a_symbol_with_the_binomial_probability():
    game = Game(GameConfig(n_players=2))
    n = 4000
    p = math.comb(40, 10) / math.comb(45, 10)
    misses = 0
    for seed in range(n):
        symbol = seed % 9  # one symbol per setup keeps the trials independent
        misses += symbol not in game.new_state(seed).display
    sigma = math.sqrt(n * p * (1 - p))
    assert abs(misses - n * p) < 4 * sigma, (misses, n * p)


class IntLike:
    """An integer type other than int, as numpy's are."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


def one_state_per_phase() -> dict[int, State]:
    state = Game(GameConfig(n_players=3, expansion=True)).new_state(5, record=True)
    found = {SIDE: state.clone()}
    rng = random.Random(5)
    while len(found) < 4:
        state.apply_action(rng.choice(state.legal))
        found.setdefault(state.phase, state.clone())
    return found


@pytest.mark.parametrize("bad", [None, "x", 1.0, 0.0, True, False, [1], -1, PASS + 1])
def test_choice_that_is_not_a_legal_integer_is_refused_in_every_phase(bad):
    for phase, state in one_state_per_phase().items():
        before = snapshot(state)
        with pytest.raises(IllegalActionError, match="illegal .* choice") as info:
            state.apply_action(bad)
        assert repr(bad) in str(info.value), phase
        assert snapshot(state) == before


def test_integer_like_choice_acts_as_its_int():
    for state in one_state_per_phase().values():
        twin = state.clone()
        state.apply_action(state.legal[-1])
        twin.apply_action(IntLike(twin.legal[-1]))
        assert snapshot(state) == snapshot(twin)


SQUARES_2_TO_6 = st.tuples(st.integers(2, 6), st.integers(0, 8))


@settings(max_examples=150, deadline=None)
@given(
    tiles=st.sets(SQUARES_2_TO_6, max_size=30),
    gardeners=st.sets(SQUARES_2_TO_6, max_size=12),
    data=st.data(),
)
def test_noble_choices_match_the_walking_reference_on_generated_gardens(tiles, gardeners, data):
    state = Game(GameConfig(n_players=2, garden_sides=("2A",))).new_state(0)
    pre = set(side_of(state, 0).preprinted)
    gardeners = gardeners - pre
    occupied = pre | tiles | gardeners
    group = walk((1, 0), occupied)
    nobles = {}
    for col in range(9):
        stands = sorted(sq for sq in group - gardeners if sq[1] == col)
        nobles[col] = data.draw(st.sampled_from([0] + [r for r, _ in stands]))
    set_position(state, tiles={0: tiles - gardeners}, gardeners={0: gardeners}, nobles={0: nobles})
    moves = noble_moves(state, 0)
    state._start_noble()
    if moves:
        assert state.phase == NOBLE and set(state.legal) == moves | {PASS}
    else:
        assert state.current == 1  # the decision was skipped and the turn ended


REPLAY = """
import random, sys
from sanssim.games.sanssouci import Game, GameConfig
cfg = GameConfig(n_players=4, expansion=True, duplicate_reshuffle=True, garden_sides=None)
state = Game(cfg).new_state(int(sys.argv[1]), record=True)
rng = random.Random(0)
while state.legal:
    state.apply_action(rng.choice(state.legal))
print([repr(rec) for rec in state.log])
print(state.returns())
"""


def test_a_seed_replays_identically_in_other_processes():
    outputs = {
        subprocess.run(
            [sys.executable, "-c", REPLAY, "77"],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
        ).stdout
        for hash_seed in ("1", "2")
    }
    assert len(outputs) == 1
    cfg = GameConfig(n_players=4, expansion=True, duplicate_reshuffle=True)
    state = run(Game(cfg).new_state(77, record=True), random.Random(0))
    assert outputs.pop().splitlines()[-1] == str(state.returns())


@settings(max_examples=40, deadline=None)
@given(
    cfg=st.sampled_from(CONFIGS),
    seed=st.integers(0, 2**63 - 1),
    steps=st.integers(0, 250),
    seat=st.integers(0, 3),
)
def test_determinisation_keeps_what_the_seat_knows_and_plays_on(cfg, seed, steps, seat):
    state = Game(cfg).new_state(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if not state.legal:
            break
        state.apply_action(rng.choice(state.legal))
    seat %= cfg.n_players
    frozen = snapshot(state)
    sample = PlayerView(state, seat).determinize(random.Random(seed))
    assert snapshot(state) == frozen
    if (sample.phase, sample.turn) != (state.phase, state.turn):
        # The mover's resampled hand left a single choice, which was played at once.
        assert state.phase == TAKE and state.current != seat
    else:
        same = ("display", "occupied", "gardeners", "noble_rows", "score", "played", "setup")
        assert all(getattr(sample, name) == getattr(state, name) for name in same)
        assert Counter(sample.supply) == Counter(state.supply)
        assert sample.hands[seat] == state.hands[seat]
        assert sample.missions[seat] == state.missions[seat]
        for other in range(cfg.n_players):
            unplayed = sample.hands[other] + sample.decks[other]
            assert sorted(unplayed) == sorted(state.hands[other] + state.decks[other])
            assert len(sample.hands[other]) == len(state.hands[other])
        dealt = [m for pair in sample.missions for m in pair]
        assert len(set(dealt)) == len(dealt)
        if state.current == seat:
            assert sample.legal == state.legal
    run(sample, rng)
    assert sample.is_terminal()
