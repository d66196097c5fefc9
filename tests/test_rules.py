"""One test per clause of docs/sanssouci.md, each on a hand-built position.

Unless a test says otherwise, seats play garden side 1A: row 1 plus the
pre-printed squares (2,4) (2,5) (3,0) (4,8) (5,1) (6,7), symbols in the
canonical column order.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from positions import (
    COLOUR_SLOT,
    card,
    col_squares,
    components_with,
    deal,
    mask,
    refresh,
    row_squares,
    set_position,
    snapshot,
    sym,
)

from sanssim.games.sanssouci import DISCARD, END, NOBLE, PASS, PLACE, SIDE, SYMBOLS, TAKE, State
from sanssim.games.sanssouci.data import default_components
from sanssim.games.sanssouci.garden import col_of, row_of, square
from sanssim.games.sanssouci.view import PlayerView

PRE_1A = row_squares(1) + [(2, 4), (2, 5), (3, 0), (4, 8), (5, 1), (6, 7)]
# Every tile's target on side 1A is free: slot k -> row k//2 + 2, column of its symbol.
DISPLAY = [
    "labyrinth", "statue", "pavilion", "topiary", "stairway",
    "fountain", "rose_arch", "herb_garden", "vineyard", "statue",
]  # fmt: skip
CUSTOM_COLUMNS = [
    "labyrinth", "statue", "pavilion", "topiary", "fountain",
    "rose_arch", "stairway", "herb_garden", "vineyard",
]  # fmt: skip
CUSTOM_EXTRA = [[2, 5], [2, 6], [2, 7], [2, 8], [3, 0], [4, 1]]


def position(n_players: int = 2, seed: int = 0, record: bool = False, **kw: Any) -> State:
    """Seat 0 to play with joker + statue card on DISPLAY, unless overridden."""
    config = {k: kw.pop(k) for k in ("expansion", "duplicate_reshuffle", "tile_set") if k in kw}
    state = deal(n_players, seed, record=record, **config)
    kw.setdefault("display", DISPLAY)
    kw.setdefault("hands", {0: ["joker", "symbol:statue"]})
    return set_position(state, **kw)


def offers(state: State, hand_index: int) -> set[int]:
    """Display slots the card at `hand_index` may take."""
    return {a % 10 for a in state.legal if a < DISCARD and a // 10 == hand_index}


def take(state: State, code: str, slot: int) -> None:
    state.apply_action(10 * state.hands[state.current].index(card(state, code)) + slot)


def squares(actions: list[int]) -> set[tuple[int, int]]:
    return {(row_of(a), col_of(a)) for a in actions if a != PASS}


def free_squares(occupied: list[tuple[int, int]]) -> set[tuple[int, int]]:
    return {(r, c) for r in range(1, 7) for c in range(9)} - set(occupied)


# ---------------------------------------------------------------- 1-2 setup


@pytest.mark.parametrize("n,supply", [(2, 35), (3, 53), (4, 71)])
def test_setup_deals_display_supply_hands_missions_and_nobles(n, supply):
    state = deal(n, seed=5, garden_sides=None)
    assert len(state.display) == 10 and all(0 <= s < 9 for s in state.display)
    assert len(state.supply) == supply
    dealt = [m for pair in state.missions for m in pair]
    assert len(set(dealt)) == 2 * n
    for seat in range(n):
        assert len(state.hands[seat]) == 2 and len(state.decks[seat]) == 16
        assert sorted(state.hands[seat] + state.decks[seat]) == list(range(18))
        assert state.noble_rows[seat] == [0] * 9
        assert state.score[seat] == 0
        assert state.occupied[seat].bit_count() == 15
    assert state.current == 0 and state.phase == TAKE


def test_position_helper_agrees_with_the_engines_own_bookkeeping():
    for seed in range(20):
        state = deal(3, seed, record=True, garden_sides=None, expansion=seed % 2 == 1)
        rng = random.Random(seed)
        while state.turn < 2 * seed + 3 or state.phase != TAKE:
            state.apply_action(rng.choice(state.legal))
        rebuilt = state.clone()
        refresh(rebuilt)
        assert snapshot(rebuilt) == snapshot(state)


# ---------------------------------------------------------------- 3.1 take a tile


@pytest.mark.parametrize("code", [c.code for c in default_components().deck if c.kind == "pair"])
def test_two_colour_card_offers_exactly_the_tiles_on_its_colours(code):
    state = position(hands={0: [code, "joker"]})
    a, b = code.removeprefix("pair:").split("+")
    expected = {COLOUR_SLOT[a], COLOUR_SLOT[a] + 1, COLOUR_SLOT[b], COLOUR_SLOT[b] + 1}
    assert offers(state, 0) == expected


def test_symbol_card_takes_only_matching_tiles():
    state = position(hands={0: ["symbol:statue", "symbol:labyrinth"]})
    assert offers(state, 0) == {1, 9}
    assert offers(state, 1) == {0}


def test_symbol_card_without_matching_tile_acts_as_joker():
    display = [*DISPLAY[:8], "rose_arch", "statue"]
    state = position(record=True, display=display, hands={0: ["symbol:vineyard", "symbol:statue"]})
    assert offers(state, 0) == set(range(10))
    take(state, "symbol:vineyard", 4)
    assert state._turn.card_wild and state._turn.tile == sym("stairway")


def test_joker_takes_any_tile_shown():
    display = [None if i in (3, 6) else s for i, s in enumerate(DISPLAY)]
    state = position(display=display, supply=[], hands={0: ["joker", "pair:white+gray"]})
    assert offers(state, 0) == set(range(10)) - {3, 6}


def test_card_offering_no_tile_cannot_be_played_while_the_other_offers_one():
    display = [None] * 8 + ["vineyard", "statue"]
    state = position(
        display=display, supply=[], hands={0: ["pair:white+gray", "pair:fuchsia+turquoise"]}
    )
    assert state.legal == [18, 19]


def test_neither_card_offering_a_tile_means_discarding_one_of_choice():
    display = [None] * 8 + ["vineyard", "statue"]
    state = position(
        display=display, supply=[], hands={0: ["pair:white+gray", "pair:orange+fuchsia"]}
    )
    assert state.legal == [DISCARD, DISCARD + 1]
    occupied, next_card = state.occupied[0], state.decks[0][-1]
    state.apply_action(DISCARD + 1)
    assert state.played[0] == [card(state, "pair:orange+fuchsia")]
    assert state.occupied[0] == occupied and state.display[8:] == [sym("vineyard"), sym("statue")]
    assert state.phase == NOBLE  # steps 3-5 still happen
    state.apply_action(PASS)
    assert state.hands[0] == [card(state, "pair:white+gray"), next_card]


# ---------------------------------------------------------------- 3.2 place the tile


@pytest.mark.parametrize("slot", range(10))
def test_free_target_takes_the_tile_landscape_up(slot):
    state = position()
    take(state, "joker", slot)
    target = (slot // 2 + 2, sym(DISPLAY[slot]))
    assert state.phase == NOBLE  # no placement decision
    assert state.occupied[0] == mask(PRE_1A + [target])
    assert state.gardeners[0] == 0


@pytest.mark.parametrize("name", SYMBOLS)
def test_target_column_follows_this_sides_column_order(name):
    comps = components_with(**{"1A": {"columns": CUSTOM_COLUMNS, "extra": CUSTOM_EXTRA}})
    state = set_position(
        deal(2, components=comps),
        display=[*DISPLAY[:6], name, *DISPLAY[7:]],
        hands={0: ["joker", "symbol:statue"]},
    )
    take(state, "joker", 6)  # fuchsia feeds row 5
    placed = state.occupied[0] & ~state.setup[0].preprinted
    assert placed == mask([(5, CUSTOM_COLUMNS.index(name))])
    assert state.gardeners[0] == 0


def test_occupied_target_sends_a_gardener_to_its_row_or_column():
    state = position(display=["statue", "vineyard", "labyrinth", *DISPLAY[3:]])
    take(state, "joker", 2)  # gray labyrinth: target (3, 0) is pre-printed
    assert state.phase == PLACE
    expected = {(3, c) for c in range(1, 9)} | {(2, 0), (4, 0), (5, 0), (6, 0)}
    assert squares(state.legal) == expected
    state.apply_action(square(3, 5))
    assert state.gardeners[0] == mask([(3, 5)]) and state.n_gardeners[0] == 1
    assert state.occupied[0] == mask(PRE_1A + [(3, 5)])


@pytest.mark.parametrize("as_gardener", [False, True])
def test_target_holding_a_tile_or_gardener_sends_a_gardener(as_gardener):
    placed = {0: [(4, 2), (6, 2)]}
    kw = {"gardeners": placed} if as_gardener else {"tiles": placed}
    state = position(display=[*DISPLAY[:4], "pavilion", *DISPLAY[5:]], **kw)
    take(state, "joker", 4)  # orange pavilion: target (4, 2) is taken
    expected = {(4, c) for c in range(9)} - {(4, 2), (4, 8)}
    expected |= {(2, 2), (3, 2), (5, 2)}
    assert state.phase == PLACE and squares(state.legal) == expected


def test_full_row_and_column_let_the_gardener_go_anywhere_free():
    filled = row_squares(4) + col_squares(2, range(2, 7))
    state = position(tiles={0: filled}, display=[*DISPLAY[:4], "pavilion", *DISPLAY[5:]])
    take(state, "joker", 4)  # target (4, 2)
    assert squares(state.legal) == free_squares(PRE_1A + filled)


def test_single_free_square_is_filled_without_a_decision():
    filled = [(4, c) for c in range(9) if c != 6] + col_squares(2, range(2, 7))
    state = position(tiles={0: filled}, display=[*DISPLAY[:4], "pavilion", *DISPLAY[5:]])
    take(state, "joker", 4)
    assert state.phase == NOBLE
    assert state.gardeners[0] == mask([(4, 6)])


# ---------------------------------------------------------------- 3.3 nobles


def noble_phase(**kw: Any) -> State:
    """Seat 0 after its joker took turquoise vineyard to (6, 8), away from reach."""
    state = position(**kw)
    take(state, "joker", 8)
    return state


def test_noble_on_the_terrace_enters_through_row_1():
    state = noble_phase()
    assert state.phase == NOBLE and PASS in state.legal
    assert squares(state.legal) == set(row_squares(1)) | {(2, 4), (2, 5)}


def test_noble_may_pass_a_gardener_but_not_stop_on_one():
    state = noble_phase(tiles={0: [(3, 2)]}, gardeners={0: [(2, 2)]})
    in_col = {sq for sq in squares(state.legal) if sq[1] == 2}
    assert in_col == {(1, 2), (3, 2)}


def test_noble_walks_up_and_sideways_through_other_columns():
    # (2,2)'s only way down is up to row 1, across, down column 4, back left.
    state = noble_phase(tiles={0: [(2, 2), (3, 4), (4, 4), (4, 3), (4, 2)]}, nobles={0: {2: 2}})
    assert {sq for sq in squares(state.legal) if sq[1] == 2} == {(4, 2)}
    before = state.score[0]
    state.apply_action(square(4, 2))
    assert state.noble_rows[0][2] == 4 and state.score[0] == before + 4


def test_noble_never_crosses_an_empty_square():
    state = noble_phase(tiles={0: [(3, 3), (5, 3), (6, 3)]})
    assert {sq for sq in squares(state.legal) if sq[1] == 3} == {(1, 3)}


def test_noble_must_end_lower_in_its_own_column():
    state = noble_phase(tiles={0: [(3, 4), (4, 4)]}, nobles={0: {4: 3}})
    assert {sq for sq in squares(state.legal) if sq[1] == 4} == {(4, 4)}


@pytest.mark.parametrize("row", range(1, 7))
def test_noble_scores_the_destination_rows_value(row):
    state = noble_phase(tiles={0: col_squares(2, range(2, 7))})
    state.apply_action(square(row, 2))
    assert state.score[0] == row and state.noble_points[0] == row


def test_one_noble_per_turn_then_the_turn_ends():
    state = noble_phase()
    state.apply_action(square(1, 3))
    assert state.current == 1 and state.turn == 1
    assert state.noble_rows[0] == [0, 0, 0, 1, 0, 0, 0, 0, 0]


def test_passing_moves_no_noble_and_scores_nothing():
    state = noble_phase()
    state.apply_action(PASS)
    assert state.current == 1 and state.score[0] == 0 and state.noble_rows[0] == [0] * 9


def test_turn_without_a_possible_noble_move_skips_the_decision():
    nobles = {c: 1 for c in range(9)} | {4: 2, 5: 2}
    state = noble_phase(nobles={0: nobles})
    assert state.current == 1 and state.turn == 1
    assert state.noble_rows[0] == [1, 1, 1, 1, 2, 2, 1, 1, 1]


# ---------------------------------------------------------------- 3.4-3.5 refill and draw


def test_refill_puts_the_next_supply_tile_on_the_emptied_square():
    state = noble_phase(supply=[sym("statue"), sym("fountain")])
    state.apply_action(PASS)
    assert state.display[8] == sym("fountain") and state.supply == [sym("statue")]


def test_no_refill_when_the_supply_is_empty():
    state = noble_phase(supply=[])
    state.apply_action(PASS)
    assert state.display[8] == -1
    assert state.phase == TAKE and 8 not in offers(state, 0) | offers(state, 1)


def test_draw_one_card_after_the_turn():
    state = noble_phase()
    drawn = state.decks[0][-1]
    state.apply_action(PASS)
    assert state.hands[0] == [card(state, "symbol:statue"), drawn]
    assert len(state.decks[0]) == 15


@pytest.mark.parametrize("n", [2, 3, 4])
def test_deck_runs_out_after_16_turns_then_two_then_one_card(n):
    state = deal(n, seed=3, record=True)
    rng = random.Random(0)
    while state.legal:
        state.apply_action(rng.choice(state.legal))
    for rec in state.log:
        own_turn = rec.turn // n + 1
        assert len(rec.hand) == (1 if own_turn == 18 else 2), own_turn
    assert all(h == [] and d == [] for h, d in zip(state.hands, state.decks, strict=True))
    assert all(sorted(p) == list(range(18)) for p in state.played)


# ---------------------------------------------------------------- 4 end and scoring


@pytest.mark.parametrize("n", [2, 3, 4])
def test_game_ends_after_18_rounds(n):
    state = deal(n, seed=1)
    rng = random.Random(1)
    turns = 0
    while state.legal:
        assert state.round == state.turn // n + 1 <= 18
        turns = state.turn
        state.apply_action(rng.choice(state.legal))
    assert turns == 18 * n - 1 and state.turn == 18 * n
    assert state.phase == END and state.is_terminal() and state.legal_actions() == []


@pytest.mark.parametrize("row", range(2, 7))
def test_complete_row_scores_ten_minus_its_value(row):
    state = position(tiles={0: row_squares(row)})
    b = state.breakdown(0)
    assert (b.row_bonus, b.rows_completed, b.column_bonus) == (10 - row, 1, 0)
    assert state.returns()[0] == 10 - row


def test_row_1_is_complete_from_the_start_but_scores_no_bonus():
    state = position()
    b = state.breakdown(0)
    assert (b.row_bonus, b.rows_completed, b.column_bonus, b.total) == (0, 0, 0, 0)


def test_complete_columns_score_five_each_gardeners_included():
    state = position(tiles={0: col_squares(2, range(2, 7))}, gardeners={0: col_squares(3, [2, 3])})
    assert state.breakdown(0).column_bonus == 5
    state = position(
        tiles={0: col_squares(2, range(2, 7))}, gardeners={0: col_squares(3, range(2, 7))}
    )
    b = state.breakdown(0)
    assert (b.column_bonus, b.columns_completed, b.row_bonus, b.gardeners) == (10, 2, 0, 5)


def test_missions_score_their_nobles_row_and_nothing_from_the_terrace():
    state = position(
        tiles={0: col_squares(1, [2, 3, 4])},
        nobles={0: {1: 4}},
        missions={0: ("statue", "vineyard"), 1: ("labyrinth", "pavilion")},
    )
    assert state.breakdown(0).mission_points == 4
    assert state.breakdown(1).mission_points == 0


def test_mission_follows_the_symbols_column_on_a_custom_side():
    comps = components_with(**{"1A": {"columns": CUSTOM_COLUMNS, "extra": CUSTOM_EXTRA}})
    state = deal(2, components=comps)
    set_position(state, nobles={0: {4: 2, 6: 1}}, missions={0: ("fountain", "topiary")})
    assert state.breakdown(0).mission_points == 2  # fountain stands in column 4


def test_rulebook_example_adds_25_points():
    tiles = row_squares(3) + col_squares(2, range(2, 7)) + col_squares(3, range(2, 7))
    state = position(
        tiles={0: tiles}, nobles={0: {2: 3, 3: 5}}, missions={0: ("pavilion", "topiary")}
    )
    b = state.breakdown(0)
    assert (b.row_bonus, b.column_bonus, b.mission_points) == (7, 10, 8)
    assert state.returns()[0] == state.score[0] + 25 == 25


def test_more_gardeners_break_a_tie_and_equal_players_share_the_rank():
    state = position(
        n_players=3,
        gardeners={0: [(2, 0), (2, 1)], 1: [(2, 0)], 2: [(6, 0), (6, 2)]},
    )
    for points, ranks in [
        ([10, 10, 10], [1, 3, 1]),
        ([10, 11, 10], [2, 1, 2]),
        ([9, 10, 10], [3, 2, 1]),
    ]:
        state.score = state.noble_points = points
        assert state.returns() == points
        assert state.ranks() == ranks


# ---------------------------------------------------------------- 5 hidden information


def test_player_view_shows_own_hand_and_missions_only():
    state = deal(3, seed=4)
    view = PlayerView(state, 1)
    assert view.hand == tuple(state.hands[1]) and view.missions == state.missions[1]
    public = {name for name in dir(view) if not name.startswith("_")}
    assert not public & {"hands", "decks", "supply", "state", "rng"}
    assert view.legal_actions() == []  # not its turn
    assert view.cards_left(0) == sorted(state.hands[0] + state.decks[0])


def test_view_and_determinisation_ignore_hidden_information():
    truth = deal(3, seed=8)
    twin = truth.clone()
    # Change everything seat 0 may not know: other hands and deck orders,
    # other missions, the supply order and seat 0's own deck order.
    for seat in (1, 2):
        pool = twin.hands[seat] + twin.decks[seat]
        random.Random(seat).shuffle(pool)
        twin.hands[seat], twin.decks[seat] = pool[:2], pool[2:]
    free = [m for m in range(9) if m not in truth.missions[0]]
    twin.missions = [truth.missions[0], (free[-1], free[-2]), (free[0], free[1])]
    twin.supply.reverse()
    twin.decks[0].reverse()
    assert twin.hands[1:] != truth.hands[1:] and twin.supply != truth.supply
    views = PlayerView(truth, 0), PlayerView(twin, 0)

    def public(v: PlayerView):
        seats = range(v.n_players)
        return (
            v.display, v.supply_size, v.supply_composition(), v.hand, v.missions,
            v.legal_actions(), [v.cards_left(s) for s in seats], [v.played(s) for s in seats],
            [(v.occupied(s), v.noble_rows(s), v.score(s), v.garden_side(s)) for s in seats],
        )  # fmt: skip

    assert public(views[0]) == public(views[1])
    a, b = (v.determinize(random.Random(11)) for v in views)
    assert (a.hands, a.decks, a.missions, a.supply) == (b.hands, b.decks, b.missions, b.supply)
    assert a.hands[0] == truth.hands[0] and a.missions[0] == truth.missions[0]


# ---------------------------------------------------------------- 6 variants: expansion


def test_expansion_side_is_chosen_from_the_dealt_board_after_missions():
    state = deal(3, seed=2, expansion=True)
    comps = state.game.components
    assert state.phase == SIDE and state.current == 0
    assert len(set(state.exp_board)) == 3
    assert all(len(set(m)) == 2 for m in state.missions)  # missions known first
    assert PlayerView(state, 0).missions == state.missions[0]
    for seat in range(3):
        assert state.current == seat and state.phase == SIDE
        sides = {comps.expansion_sides[i].board for i in state.legal}
        assert sides == {state.exp_board[seat]} and len(state.legal) == 2
        state.apply_action(state.legal[seat % 2])
    assert state.phase == TAKE and state.current == 0
    assert [comps.expansion_sides[i].board for i in state.exp_side] == state.exp_board


def expansion_game(seed: int = 0) -> State:
    state = deal(2, seed, expansion=True)
    state.apply_action(state.legal[0])
    state.apply_action(state.legal[1])
    return state


def marked(state: State, kind: str) -> tuple[int, int, int]:
    """First square of seat 0's expansion side with a mark of `kind`: (row, col, value)."""
    comps = state.game.components
    exp = comps.expansion_sides[state.exp_side[0]]
    first = comps.garden_sides[state.setup[0].garden].columns.index("stairway") - 1
    assert exp.stairway_index == 1
    for r, row in enumerate(exp.marks):
        for k, m in enumerate(row):
            if m.kind == kind:
                return 3 + r, first + k, m.value
    raise AssertionError(kind)


def place_on(state: State, row: int, col: int, gardener: bool) -> int:
    """Make seat 0 place a landscape or a gardener on (row, col); return the points it got."""
    blocker = 0 if col != 0 else 8
    display = list(DISPLAY)
    display[2 * (row - 2)] = SYMBOLS[blocker if gardener else col]
    set_position(
        state,
        display=display,
        hands={0: ["joker", "symbol:statue"]},
        tiles={0: [(row, blocker)] if gardener else []},
    )
    before = state.score[0]
    take(state, "joker", 2 * (row - 2))
    if gardener:
        state.apply_action(square(row, col))
    assert bool(state.gardeners[0] >> square(row, col) & 1) == gardener
    assert state.expansion_points[0] == state.score[0] - before
    return state.score[0] - before


@pytest.mark.parametrize(
    "kind,gardener,pays",
    [
        ("symbol", False, True),
        ("symbol", True, False),
        ("gardener", True, True),
        ("gardener", False, False),
        ("penalty", False, True),
        ("penalty", True, True),
    ],
)
def test_expansion_marks_pay_on_placement(kind, gardener, pays):
    for seed in range(4):
        state = expansion_game(seed)
        row, col, value = marked(state, kind)
        assert place_on(state, row, col, gardener) == (value if pays else 0)


def test_expansion_board_follows_the_stairway_column_of_a_custom_side():
    comps = components_with(**{"1A": {"columns": CUSTOM_COLUMNS, "extra": CUSTOM_EXTRA}})
    state = deal(2, components=comps, expansion=True)
    state.apply_action(state.legal[0])
    exp = comps.expansion_sides[state.exp_side[0]]
    first = CUSTOM_COLUMNS.index("stairway") - exp.stairway_index
    land, gard = state.exp_land[0], state.exp_gard[0]
    expected = {}
    for r, row in enumerate(exp.marks):
        for k, m in enumerate(row):
            if m.kind != "none":
                expected[square(3 + r, first + k)] = m.value
    assert first == 5
    assert {sq for sq in range(54) if land[sq] or gard[sq]} == set(expected)


# ---------------------------------------------------------------- 6 duplicate_reshuffle


def has_pair(display: list[int]) -> bool:
    return any(display[2 * c] == display[2 * c + 1] != -1 for c in range(5))


def test_duplicate_reshuffle_at_setup():
    paired = 0
    for seed in range(200):
        plain = deal(2, seed)
        house = deal(2, seed, duplicate_reshuffle=True)
        assert not has_pair(house.display)
        assert (house.reshuffles > 0) == has_pair(plain.display)
        paired += has_pair(plain.display)
        if not has_pair(plain.display):
            assert house.display == plain.display
        assert Counter(house.display + house.supply) == Counter(plain.display + plain.supply)
    assert paired > 20


def test_duplicate_reshuffle_after_refill_is_counted():
    display = ["statue", "labyrinth", *DISPLAY[2:]]
    supply = [sym("fountain"), sym("statue")]
    state = position(
        record=True, duplicate_reshuffle=True, display=display, supply=supply,
        hands={0: ["pair:white+gray", "joker"]},
    )  # fmt: skip
    before = state.reshuffles
    take(state, "pair:white+gray", 1)
    state.apply_action(PASS)
    rec = state.log[-1]
    assert state.display[:2] == [sym("statue"), sym("fountain")]
    assert state.supply == [sym("statue")]
    assert rec.reshuffles >= 1 and state.reshuffles == before + rec.reshuffles


def test_duplicate_reshuffle_stops_when_the_supply_has_only_that_symbol():
    display = ["statue", "labyrinth", *DISPLAY[2:]]
    state = position(
        record=True, duplicate_reshuffle=True, display=display, supply=[sym("statue")] * 2,
        hands={0: ["pair:white+gray", "joker"]},
    )  # fmt: skip
    take(state, "pair:white+gray", 1)
    state.apply_action(PASS)
    assert state.display[:2] == [sym("statue")] * 2
    assert state.log[-1].reshuffles == 0 and state.supply == [sym("statue")]


def test_without_the_house_rule_a_matching_refill_stays():
    display = ["statue", "labyrinth", *DISPLAY[2:]]
    state = position(
        display=display, supply=[sym("fountain"), sym("statue")],
        hands={0: ["pair:white+gray", "joker"]},
    )  # fmt: skip
    take(state, "pair:white+gray", 1)
    state.apply_action(PASS)
    assert state.display[:2] == [sym("statue")] * 2 and state.reshuffles == 0


# ---------------------------------------------------------------- 6 tile_set


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("tile_set,per_symbol", [("II", 5), ("II+III", 7), ("II+III+IV", 9)])
def test_tile_set_fixes_the_tiles_whatever_the_player_count(n, tile_set, per_symbol):
    state = deal(n, seed=n, tile_set=tile_set)
    assert Counter(state.display + state.supply) == {s: per_symbol for s in range(9)}


@pytest.mark.parametrize("n,per_symbol", [(2, 5), (3, 7), (4, 9)])
def test_default_tiles_follow_the_player_count(n, per_symbol):
    state = deal(n, seed=n)
    assert Counter(state.display + state.supply) == {s: per_symbol for s in range(9)}


def test_small_tile_set_leaves_emptied_squares_empty():
    state = deal(4, seed=6, tile_set="II", record=True)
    rng = random.Random(6)
    while state.legal:
        state.apply_action(rng.choice(state.legal))
    placed = sum(rec.tile != -1 for rec in state.log)
    assert state.supply == []
    assert placed == 45 - sum(s != -1 for s in state.display)
    assert sum(state.occupied[p].bit_count() - 15 for p in range(4)) == placed
    empties = [rec.display.count(-1) for rec in state.log]
    assert empties == sorted(empties) and empties[-1] > 0  # once empty, stays empty


# ---------------------------------------------------------------- 6 garden sides


def test_random_garden_sides_come_from_distinct_boards():
    comps = default_components()
    seen = Counter()
    for seed in range(100):
        state = deal(4, seed, garden_sides=None)
        sides = [comps.garden_sides[s.garden] for s in state.setup]
        assert len({s.board for s in sides}) == 4
        seen.update(s.id for s in sides)
    assert set(seen) == {s.id for s in comps.garden_sides}


def test_one_garden_side_for_every_seat():
    comps = default_components()
    state = deal(3, seed=1, garden_sides=("2B",))
    assert [comps.garden_sides[s.garden].id for s in state.setup] == ["2B"] * 3


def test_one_garden_side_per_seat():
    comps = default_components()
    state = deal(3, seed=1, garden_sides=("4A", "1B", "4A"))
    assert [comps.garden_sides[s.garden].id for s in state.setup] == ["4A", "1B", "4A"]
    side = comps.garden_side("1B")
    assert state.occupied[1] == mask(row_squares(1) + list(side.extra))
