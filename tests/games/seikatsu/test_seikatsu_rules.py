"""One test per clause of docs/seikatsu.md, mostly on hand-built positions.

Expected values are worked out by hand from the rules text (section 10 gives
several); none is copied from the engine's own output.
"""

from __future__ import annotations

import math
import random

import pytest
from seikatsu_positions import choices, deal, default_data, play, set_position, snapshot

from sanssim.errors import ConfigError, IllegalActionError
from sanssim.games.seikatsu import Components, Game, GameConfig

TT, TP, WT = "tanager:tulip", "tanager:primrose", "waxwing:tulip"
NEAR_POND = {(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)}


def random_game(n: int, tournament: bool, seed: int, record: bool = True):
    state = deal(n, seed, tournament, record)
    rng = random.Random(seed)
    while state.legal:
        state.apply_action(state.legal[int(rng.random() * len(state.legal))])
    return state


def neighbours(q: int, r: int) -> set[tuple[int, int]]:
    steps = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
    return {
        (q + dq, r + dr)
        for dq, dr in steps
        if max(abs(q + dq), abs(r + dr), abs(q + dq + r + dr)) <= 3 and (q + dq, r + dr) != (0, 0)
    }


# ---------------------------------------------------------------- 1 components


def test_board_has_36_spaces_and_seven_rows_of_4_5_6_6_6_5_4_per_pagoda():
    game = Game(GameConfig(3))
    assert len(game.cells) == 36 and (0, 0) not in game.cells
    for rows in game.rows:
        assert [m.bit_count() for m in rows] == [4, 5, 6, 6, 6, 5, 4]
        assert sum(rows) == (1 << 36) - 1  # each space in exactly one row of each pagoda


def test_tiles_are_32_garden_tiles_each_bird_and_flower_eight_times_and_4_koi():
    comps = Game(GameConfig(2)).components
    garden = [t for t in comps.tiles if t != "koi"]
    assert len(garden) == 32 and comps.tiles.count("koi") == 4
    for bird in comps.birds:
        assert sum(t.startswith(bird + ":") for t in garden) == 8
    for flower in comps.flowers:
        assert sum(t.endswith(":" + flower) for t in garden) == 8


# ---------------------------------------------------------------- 2 setup


BAGS = [(2, False, 30), (3, False, 27), (4, False, 24), (2, True, 26), (3, True, 23), (4, True, 20)]


@pytest.mark.parametrize("n,tournament,bag", BAGS)
def test_setup_start_tiles_hands_and_bag(n, tournament, bag):
    for seed in range(200):
        state = deal(n, seed, tournament)
        game = state.game
        starts = game.components.start_spaces[n]
        names = [game.kind_names[k] for k in state.start_tiles]
        assert "koi" not in names  # start tiles are never koi
        assert [game.kind_names[state.board[game.cell(*s)]] for s in starts] == names
        assert sum(k >= 0 for k in state.board) == len(starts)
        assert [len(h) for h in state.hands] == [2] * n
        assert len(state.bag) == bag
        everything = sorted(state.bag + [k for h in state.hands for k in h] + state.start_tiles)
        koi = game.koi_kind
        expected = sorted(game.kind(t) for t in game.components.tiles)
        if tournament:
            assert koi not in everything and sum(state.koi_held) == 4
            expected = [k for k in expected if k != koi]
        assert everything == expected


@pytest.mark.parametrize("n,spaces", [
    (2, [(1, 0), (0, -1)]), (3, [(1, 0), (0, -1), (-1, 1)]),
    (4, [(1, 0), (0, -1), (-1, 0), (0, 1)]),
])  # fmt: skip
def test_start_spaces_per_player_count(n, spaces):
    state = deal(n, seed=3)
    game = state.game
    assert {game.cells[c] for c in range(36) if state.board[c] >= 0} == set(spaces)


@pytest.mark.parametrize("n,dealt", [(2, [2, 2]), (3, [1, 1, 2]), (4, [1, 1, 1, 1])])
def test_tournament_deals_face_up_koi(n, dealt):
    assert deal(n, 1, tournament=True).koi_held == dealt
    assert deal(n, 1, tournament=False).koi_held == [0] * n


@pytest.mark.parametrize("n,p_none", [(2, (30, 34, 4)), (3, (29, 33, 6)), (4, (28, 32, 8))])
def test_koi_reach_dealt_hands_as_often_as_a_fair_shuffle_gives(n, p_none):
    """P(no koi in the dealt hands) = C(garden left, 2n) / C(bag, 2n); 99.9% binomial interval."""
    garden, bag, dealt = p_none
    p = math.comb(garden, dealt) / math.comb(bag, dealt)
    games = 4000
    koi = Game(GameConfig(n)).koi_kind
    koi_counts = [sum(h.count(koi) for h in deal(n, seed).hands) for seed in range(games)]
    none = sum(k == 0 for k in koi_counts) / games
    assert abs(none - p) < 3.29 * math.sqrt(p * (1 - p) / games)
    mean = sum(koi_counts) / games
    expected = dealt * 4 / bag  # n hands of 2: 8/34, 8/33, 8/32 koi per hand
    var = dealt * (4 / bag) * (1 - 4 / bag) * (bag - dealt) / (bag - 1)
    assert abs(mean - expected) < 3.29 * math.sqrt(var / games)


def test_seats_pagodas_and_teams():
    assert Game(GameConfig(2)).seat_pagoda == (0, 1)  # pink, blue
    assert Game(GameConfig(3)).seat_pagoda == (0, 1, 2)
    game = Game(GameConfig(4))
    assert game.seat_pagoda == (0, 1, 0, 1) and game.side == (0, 1, 0, 1)


def test_config_rejects_unsupported_player_counts():
    for bad in (1, 5, True, "2"):
        with pytest.raises(ConfigError):
            Game(GameConfig(bad))
    with pytest.raises(ConfigError):
        Game(GameConfig(2, tournament="yes"))


# ---------------------------------------------------------------- 3 placement


def test_a_tile_goes_on_an_empty_space_next_to_a_tile():
    state = set_position(
        deal(2), {(3, -3): TT, (-1, 2): WT}, hands={0: [TT, "flycatcher:bluebell"]}
    )
    spaces = neighbours(3, -3) | neighbours(-1, 2)
    assert choices(state) == {(t, s) for t in (TT, "flycatcher:bluebell") for s in spaces}


def test_the_pond_is_not_a_tile_for_adjacency():
    state = deal(2, seed=4)  # start tiles on (1, 0) and (0, -1) only
    spaces = {s for _, s in choices(state)}
    assert spaces == (neighbours(1, 0) | neighbours(0, -1)) - {(1, 0), (0, -1)}
    assert (-1, 1) not in spaces and (0, 0) not in spaces  # (-1, 1) touches only the pond


def test_two_identical_tiles_are_one_choice():
    state = set_position(deal(2), {(1, 0): TT}, hands={0: [WT, WT]})
    assert len(state.legal) == len(neighbours(1, 0)) == 5
    assert choices(state) == {(WT, s) for s in neighbours(1, 0)}


def test_turns_alternate_and_the_game_fills_the_board_with_every_hand_empty():
    for n, turns in ((2, 34), (3, 33), (4, 32)):
        for tournament in (False, True):
            state = random_game(n, tournament, seed=n)
            assert state.is_terminal() and state.legal == []
            assert len(state.log) == turns and state.turn == turns
            assert [rec.seat for rec in state.log] == [t % n for t in range(turns)]
            assert all(sum(rec.seat == s for rec in state.log) == turns // n for s in range(n))
            assert all(k >= 0 for k in state.board)
            assert state.hands == [[]] * n and state.koi_held == [0] * n and state.bag == []


@pytest.mark.parametrize("n", [2, 3, 4])
def test_standard_game_no_draw_on_each_players_last_two_turns(n):
    for seed in range(20):
        log = random_game(n, False, seed).log
        assert [rec.drawn < 0 for rec in log] == [t >= len(log) - 2 * n for t in range(len(log))]


@pytest.mark.parametrize("n,last", [(2, 8), (3, 10), (4, 12)])
def test_tournament_draws_after_every_play_koi_included_but_not_on_the_last_turns(n, last):
    koi_then_draw = 0
    for seed in range(20):
        state = random_game(n, True, seed)
        log = state.log
        assert [rec.drawn < 0 for rec in log] == [t >= len(log) - last for t in range(len(log))]
        koi = state.game.koi_kind
        koi_then_draw += sum(rec.tile == koi and rec.drawn >= 0 for rec in log)
        for rec in log:
            assert koi not in rec.hand  # the koi are face up, never in a hand
            assert rec.drawn != koi
    assert koi_then_draw > 0


def test_tournament_koi_is_a_choice_of_its_owner_only():
    state = set_position(deal(2, tournament=True), {(1, 0): TT}, hands={0: [WT]},
                         koi_held=[1, 2], current=0)  # fmt: skip
    assert choices(state) == {(t, s) for t in (WT, "koi") for s in neighbours(1, 0)}
    before = list(state.hands[0])
    play(state, "koi", (2, 0))
    assert state.koi_held == [0, 2] and state.hands[0][: len(before)] == before
    assert state.hands[0][len(before) :] != []  # drew even though it played a koi


# ---------------------------------------------------------------- 3-4 birds and koi

SECTION_10 = {(1, 0): TT, (0, -1): TP, (2, -2): "koi", (2, -1): WT}


@pytest.mark.parametrize(
    "tile,points",
    [
        ("tanager:bluebell", 3),
        ("waxwing:plumeria", 2),
        ("white_eye:tulip", 0),
        ("flycatcher:tulip", 0),
    ],
)
def test_bird_points_count_matching_neighbours_and_never_the_koi(tile, points):
    state = set_position(deal(2, record=True), SECTION_10, hands={0: [tile, TT]})
    play(state, tile, (1, -1))
    assert state.log[-1].bird_points == points
    assert state.side_score[0] == points and state.own_points[0] == points


def test_bird_points_are_only_immediate_neighbours_not_chains():
    garden = {(3, -3): TT, (2, -3): TT, (1, -3): TT}  # a chain of three
    state = set_position(deal(2, record=True), garden, hands={0: [TP, WT]})
    play(state, TP, (0, -2))  # next to (1, -3) only of the chain ((0, -3) is empty)
    assert state.log[-1].bird_points == 2


def test_koi_scores_as_the_best_bird_ties_to_bird_order():
    garden = {(2, -1): TT, (2, -2): TT, (1, -2): WT, (0, -1): WT, (1, 0): "flycatcher:tulip"}
    state = set_position(deal(2, record=True), garden, hands={0: ["koi", WT]})
    play(state, "koi", (1, -1))
    rec = state.log[-1]
    assert rec.bird_points == 3 and rec.koi_bird == 0  # tanager


def test_koi_scores_the_bird_with_most_matches_even_if_later_in_order():
    garden = {(2, -1): TT, (2, -2): "flycatcher:tulip", (1, -2): "flycatcher:tulip",
              (0, -1): "flycatcher:bluebell"}  # fmt: skip
    state = set_position(deal(2, record=True), garden, hands={0: ["koi", WT]})
    play(state, "koi", (1, -1))
    assert (state.log[-1].bird_points, state.log[-1].koi_bird) == (4, 3)


def test_koi_next_to_nothing_but_koi_scores_zero_and_no_bird():
    state = set_position(deal(2, record=True), {(1, 0): "koi", (0, -1): "koi"},
                         hands={0: ["koi", WT]})  # fmt: skip
    play(state, "koi", (1, -1))
    assert (state.log[-1].bird_points, state.log[-1].koi_bird) == (0, -1)


def test_a_koi_on_the_board_matches_nothing_later():
    state = set_position(deal(2, record=True), {(1, -1): "koi", (1, 0): TT}, hands={0: [TP, WT]})
    play(state, TP, (1, -2))  # its only occupied neighbour is the koi
    assert state.log[-1].bird_points == 0
    state = set_position(deal(2, record=True), {(1, -1): "koi", (1, 0): TT}, hands={0: ["koi"]})
    play(state, "koi", (1, -2))  # nor does it count for a koi played next to it
    assert state.log[-1].bird_points == 0


def test_bird_points_per_turn_are_zero_or_two_to_seven():
    seen = set()
    for seed in range(100):
        seen |= {rec.bird_points for rec in random_game(2, seed % 2 == 1, seed).log}
    assert seen <= {0, 2, 3, 4, 5, 6, 7} and {0, 2, 3} <= seen
    state = set_position(deal(2, record=True), {s: TT for s in neighbours(1, -1)},
                         hands={0: [TP]})  # fmt: skip
    play(state, TP, (1, -1))  # five neighbours (the sixth is the pond): the most possible
    assert state.log[-1].bird_points == 6
    state = set_position(deal(2, record=True), {s: TT for s in neighbours(2, -1)},
                         hands={0: [TP]})  # fmt: skip
    play(state, TP, (2, -1))
    assert state.log[-1].bird_points == 7


# ---------------------------------------------------------------- 5 flowers

PRIMROSE, TULIP, BLUEBELL = "waxwing:primrose", "waxwing:tulip", "white_eye:bluebell"


def test_flower_row_with_koi_counts_for_each_pagoda_independently():
    garden = {(0, -3): PRIMROSE, (1, -3): PRIMROSE, (2, -3): TULIP, (3, -3): "koi",
              (3, -2): BLUEBELL, (3, -1): BLUEBELL, (3, 0): PRIMROSE}  # fmt: skip
    state = set_position(deal(2), garden)
    pink, blue = state.flower_rows(0), state.flower_rows(1)
    assert pink[0] == 6  # row r = -3: three primroses counting the koi
    assert blue[6] == 6  # row q = 3: three bluebells counting the same koi
    # other pink rows: r = -2 and r = -1 hold one bluebell each, r = 0 one primrose
    assert pink == [6, 1, 1, 1, 0, 0, 0]
    assert blue == [0, 0, 0, 1, 1, 1, 6]  # q = 0, 1, 2: a primrose, a primrose, a tulip


def test_only_the_largest_flower_set_of_a_row_scores():
    garden = {(0, -3): PRIMROSE, (1, -3): TULIP, (2, -3): TULIP, (3, -3): PRIMROSE}
    assert set_position(deal(2), garden).flower_rows(0)[0] == 3  # two of each: one set of 2


def test_a_board_of_one_flower_scores_113_for_every_pagoda():
    game = Game(GameConfig(3))
    codes = ["tanager:tulip", "waxwing:tulip", "koi"]
    garden = {cell: codes[i % 3] for i, cell in enumerate(game.cells)}
    state = set_position(game.new_state(0), garden)
    for pagoda in range(3):
        assert state.flower_rows(pagoda) == [10, 15, 21, 21, 21, 15, 10]


def test_set_points_come_from_the_component_data():
    data = default_data()
    data["set_points"] = [0, 2, 4, 6, 8, 10, 12]
    comps = Components.from_dict(data)
    garden = {(0, -3): PRIMROSE, (1, -3): PRIMROSE, (2, -3): "koi"}
    state = set_position(deal(2, components=comps), garden)
    assert state.flower_rows(0)[0] == 6  # a set of 3 worth 6 here, 6 by default too
    garden[(3, -3)] = PRIMROSE
    assert set_position(deal(2, components=comps), garden).flower_rows(0)[0] == 8


def test_total_is_birds_plus_flowers_and_breakdown_lists_rows():
    garden = {(0, -3): PRIMROSE, (1, -3): PRIMROSE}
    state = set_position(deal(2), garden)
    state.side_score = [5, 2]
    state.own_points = [5, 2]
    b = state.breakdown(0)
    assert b.row_points == (3, 0, 0, 0, 0, 0, 0)
    assert (b.bird_points, b.flower_points, b.total) == (5, 3, 8)
    # blue: rows q = 0 and q = 1 hold one primrose each
    assert state.breakdown(1).row_points == (0, 0, 0, 1, 1, 0, 0)
    assert state.returns() == [8, 4]


# ---------------------------------------------------------------- 5-6 ranks and teams


def test_two_players_tied_the_later_seat_wins():
    state = set_position(deal(2), {})
    state.side_score = [9, 9]
    assert state.ranks() == [2, 1]
    state.side_score = [10, 9]
    assert state.ranks() == [1, 2]


def test_three_players_ranks_are_never_shared():
    state = set_position(deal(3), {})
    state.side_score = [4, 4, 4]
    assert state.ranks() == [3, 2, 1]
    state.side_score = [5, 4, 4]
    assert state.ranks() == [1, 3, 2]


def test_tie_break_rule_comes_from_the_component_data():
    data = default_data()
    data["tie_break"] = "earlier_in_turn_order"
    state = set_position(deal(3, components=Components.from_dict(data)), {})
    state.side_score = [4, 4, 4]
    assert state.ranks() == [1, 2, 3]


def test_four_players_play_in_teams_with_one_score_and_one_pagoda():
    garden = {(1, 0): TT, (0, -1): TP, (-1, 0): WT, (0, 1): "white_eye:plumeria"}
    state = set_position(deal(4, record=True), garden, current=0,
                         hands={0: [TP, TP], 1: [WT, WT], 2: [TP, TP], 3: [WT, WT]})  # fmt: skip
    play(state, TP, (1, -1))  # seat 0: next to two tanagers -> 3 for team 0
    play(state, WT, (-1, -1))  # seat 1: next to waxwing (-1, 0) -> 2 for team 1
    play(state, TP, (2, -1))  # seat 2: next to (1, 0) and (1, -1) tanagers -> 3 for team 0
    assert state.side_score == [6, 2]
    assert state.own_points == [3, 2, 3, 0]
    assert state.returns()[0] == state.returns()[2] == 6 + sum(state.flower_rows(0))
    assert state.returns()[1] == state.returns()[3] == 2 + sum(state.flower_rows(1))
    assert state.breakdown(2).bird_points == 6 and state.breakdown(2).own_bird_points == 3


def test_four_players_tied_teams_team_one_wins():
    state = set_position(deal(4), {})
    state.side_score = [7, 7]
    assert state.ranks() == [2, 1, 2, 1]
    state.side_score = [8, 7]
    assert state.ranks() == [1, 2, 1, 2]


# ---------------------------------------------------------------- engine contract


def test_illegal_actions_raise_one_line_and_leave_the_state_unchanged():
    state = set_position(deal(2, record=True), SECTION_10, hands={0: [TT, WT]})
    game = state.game
    before = snapshot(state)
    bad = [
        game.action("flycatcher:bluebell", 1, -1),  # not in hand
        game.action(TT, 1, 0),  # occupied
        game.action(TT, -3, 3),  # not next to a tile
        10**6, -1, True, 1.5, "tanager", None,
    ]  # fmt: skip
    for action in bad:
        with pytest.raises(IllegalActionError) as err:
            state.apply_action(action)
        assert "\n" not in str(err.value) and "legal:" in str(err.value)
        assert snapshot(state) == before


def test_an_int_like_legal_action_is_accepted():
    class IntLike:
        def __init__(self, v: int) -> None:
            self.v = v

        def __index__(self) -> int:
            return self.v

    state = deal(2, seed=1)
    action = state.legal[0]
    state.apply_action(IntLike(action))
    assert state.turn == 1


def test_a_decision_with_one_choice_is_never_asked():
    for seed in range(30):
        state = deal(2, seed, record=True)
        rng = random.Random(seed)
        asked = []
        while state.legal:
            assert len(state.legal) >= 2
            asked.append(state.turn)
            state.apply_action(state.legal[int(rng.random() * len(state.legal))])
        assert 33 not in asked and len(state.log) == 34  # the last tile on the last space


def test_forced_turns_are_played_in_a_row():
    """Seat 0 plays; seat 1 then holds one tile with one space left: played for it."""
    game = Game(GameConfig(2))
    full = {cell: "waxwing:bluebell" for cell in game.cells}
    del full[(3, -3)], full[(-3, 3)]
    state = set_position(game.new_state(0, record=True), full, hands={0: [TT, TP], 1: [TT]},
                         bag=[], current=0)  # fmt: skip
    state.turn = 32
    assert choices(state) == {(t, s) for t in (TT, TP) for s in ((3, -3), (-3, 3))}
    play(state, TP, (3, -3))
    assert state.is_terminal() and state.board[game.cell(-3, 3)] == game.kind(TT)
    assert [rec.seat for rec in state.log] == [0, 1]


def test_clone_is_independent():
    state = deal(3, seed=9)
    copy = state.clone()
    before = snapshot(copy)
    rng = random.Random(0)
    while state.legal:
        state.apply_action(state.legal[int(rng.random() * len(state.legal))])
    assert snapshot(copy) == before
    rng = random.Random(0)
    while copy.legal:
        copy.apply_action(copy.legal[int(rng.random() * len(copy.legal))])
    assert snapshot(copy) == snapshot(state)


def test_same_seed_same_game_and_streams_shared_between_modes():
    a, b = random_game(3, False, 5), random_game(3, False, 5)
    assert snapshot(a) == snapshot(b)
    standard, tournament = deal(3, 11), deal(3, 11, tournament=True)
    assert standard.start_tiles == tournament.start_tiles  # one bag stream, koi added later


def test_describe_names_tile_and_space():
    game = Game(GameConfig(2))
    state = game.new_state(0)
    assert state.describe(game.action("white_eye:tulip", -2, 1)) == "white_eye:tulip on (-2, 1)"
    assert state.describe(game.action("koi", 3, 0)) == "koi on (3, 0)"
    assert state.describe("x") == "'x'"
