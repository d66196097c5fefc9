"""The component data (rules section 1) and every way bad input is refused."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from positions import default_data, dump_toml

from sanssim.games.sanssouci import (
    COLOURS,
    SYMBOLS,
    ComponentError,
    ConfigError,
    Game,
    GameConfig,
    SanssimError,
)
from sanssim.games.sanssouci.components import EXPANSION_TOP_ROW
from sanssim.games.sanssouci.data import default_components, load_components, parse_components

# ---------------------------------------------------------------- the packaged data


def test_deck_has_nine_symbol_cards_eight_pairs_and_a_joker():
    deck = default_components().deck
    assert len(deck) == 18
    assert sorted(c.symbol for c in deck if c.kind == "symbol") == list(range(9))
    assert [c.kind for c in deck].count("joker") == 1
    pairs = {tuple(COLOURS[i] for i in c.colours) for c in deck if c.kind == "pair"}
    all_pairs = {(a, b) for i, a in enumerate(COLOURS) for b in COLOURS[i + 1 :]}
    assert all_pairs - pairs == {("white", "fuchsia"), ("gray", "turquoise")}
    per_colour = Counter(colour for pair in pairs for colour in pair)
    assert per_colour == {"orange": 4, "white": 3, "gray": 3, "fuchsia": 3, "turquoise": 3}


def test_tile_numerals_give_45_18_18_tiles():
    comps = default_components()
    assert {n: 9 * comps.tiles[n] for n in comps.tiles} == {"II": 45, "III": 18, "IV": 18}


def test_garden_sides_have_fifteen_preprinted_squares_clear_of_the_expansion():
    comps = default_components()
    assert len(comps.garden_sides) == 8
    assert Counter(s.board for s in comps.garden_sides) == {1: 2, 2: 2, 3: 2, 4: 2}
    for side in comps.garden_sides:
        assert sorted(side.columns) == sorted(SYMBOLS)
        assert len(set(side.preprinted)) == 15
        assert {(1, c) for c in range(9)} <= set(side.preprinted)
        assert len({c for _, c in side.extra}) == 6
        for exp in comps.expansion_sides:
            first = side.columns.index("stairway") - exp.stairway_index
            covered = {(r, first + k) for r in range(3, 7) for k in range(4)}
            assert (EXPANSION_TOP_ROW, side.columns.index("stairway")) in covered
            assert not covered & set(side.extra)


def test_expansion_sides_mark_twelve_of_sixteen_squares():
    comps = default_components()
    assert Counter(e.board for e in comps.expansion_sides) == {1: 2, 2: 2, 3: 2, 4: 2}
    allowed = {("symbol", 1), ("symbol", 2), ("symbol", 3), ("gardener", 3)}
    allowed |= {("penalty", -2), ("penalty", -3)}
    for exp in comps.expansion_sides:
        marks = [m for row in exp.marks for m in row]
        assert len(marks) == 16
        assert sum(m.kind != "none" for m in marks) == 12
        assert {(m.kind, m.value) for m in marks if m.kind != "none"} <= allowed


def test_dumped_default_data_parses_back_to_the_default():
    assert parse_components(dump_toml(default_data())) == default_components()


def test_load_components_reads_a_file(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(dump_toml(default_data()), encoding="utf-8")
    assert load_components(path) == default_components()
    assert load_components(None) is default_components()


def test_missing_component_file_is_a_component_error(tmp_path):
    with pytest.raises(ComponentError, match="cannot read component file .*nope.toml"):
        load_components(tmp_path / "nope.toml")


# ---------------------------------------------------------------- bad configurations


@pytest.mark.parametrize("n", [1, 5, 0, "x", True, 2.0, None])
def test_invalid_player_count(n):
    with pytest.raises(ConfigError, match=f"player count must be 2, 3 or 4, got {n!r}"):
        Game(GameConfig(n_players=n))


def test_unknown_tile_set():
    with pytest.raises(ConfigError, match="tile set must be one of .*got 'II\\+V'"):
        Game(GameConfig(n_players=2, tile_set="II+V"))


def test_unknown_garden_side_id():
    with pytest.raises(ConfigError, match="unknown garden side '9Z'"):
        Game(GameConfig(n_players=2, garden_sides=("1A", "9Z")))


@pytest.mark.parametrize("sides", [(), ("1A", "1B"), ("1A", "1B", "2A", "2B")])
def test_wrong_number_of_garden_sides(sides):
    with pytest.raises(ConfigError, match=f"one per seat \\(3\\), got {len(sides)}"):
        Game(GameConfig(n_players=3, garden_sides=sides))


# ---------------------------------------------------------------- bad component files


def broken(change) -> str:
    """Default component data with `change(data)` applied, as TOML text."""
    data = default_data()
    change(data)
    return dump_toml(data)


def set_side(kind: str, index: int, **fields: Any):
    def change(data: dict[str, Any]) -> None:
        data[kind][index].update(fields)

    return change


BAD_FILES = {
    "invalid toml": ("schema = 1\n[tiles\nII = 5\n", "invalid TOML"),
    "wrong schema": (broken(lambda d: d.update(schema=2)), "unsupported component schema 2"),
    "no tiles": (broken(lambda d: d.pop("tiles")), "missing \\[tiles\\] table"),
    "no deck": (broken(lambda d: d.pop("deck")), "missing \\[deck\\] cards list"),
    "no gardens": (broken(lambda d: d.pop("garden_side")), "missing or empty \\[\\[garden_side"),
    "no expansions": (
        broken(lambda d: d.pop("expansion_side")),
        "missing or empty \\[\\[expansion_side",
    ),
    "numeral V": (
        broken(lambda d: d.update(tiles={"II": 5, "III": 2, "V": 2})),
        "\\[tiles\\] must give exactly II, III, IV, got \\['II', 'III', 'V'\\]",
    ),
    "zero tiles": (
        broken(lambda d: d["tiles"].update(IV=0)),
        "\\[tiles\\] IV must be a positive integer, got 0",
    ),
    "seventeen cards": (
        broken(lambda d: d["deck"]["cards"].pop()),
        "deck must hold 18 cards \\(one per round\\), got 17",
    ),
    "nineteen cards": (
        broken(lambda d: d["deck"]["cards"].append("joker")),
        "deck must hold 18 cards \\(one per round\\), got 19",
    ),
    "unknown colour": (
        broken(lambda d: d["deck"]["cards"].__setitem__(9, "pair:white+pink")),
        "bad card code 'pair:white\\+pink': unknown colour 'pink' \\(write "
        "'pair:<colour>\\+<colour>' with two of white, gray, orange, fuchsia, turquoise, "
        "in that order\\)$",
    ),
    "pair out of order": (
        broken(lambda d: d["deck"]["cards"].__setitem__(9, "pair:fuchsia+white")),
        "bad card code 'pair:fuchsia\\+white': colours go in display order white, gray, "
        "orange, fuchsia, turquoise: write 'pair:white\\+fuchsia'$",
    ),
    "one colour twice": (
        broken(lambda d: d["deck"]["cards"].__setitem__(9, "pair:gray+gray")),
        "bad card code 'pair:gray\\+gray': the two colours must differ$",
    ),
    "unknown symbol": (
        broken(lambda d: d["deck"]["cards"].__setitem__(0, "symbol:maze")),
        "bad card code 'symbol:maze': unknown symbol 'maze' \\(symbols: labyrinth, statue, ",
    ),
    "unknown kind": (
        broken(lambda d: d["deck"]["cards"].__setitem__(0, "wild")),
        "bad card code 'wild': expected 'symbol:<symbol>', 'pair:<colour>\\+<colour>' or 'joker'",
    ),
    "five extra squares": (
        broken(set_side("garden_side", 0, extra=[[2, 4], [3, 0], [4, 8], [5, 1], [6, 7]])),
        "garden_side '1A': extra must list exactly six",
    ),
    "two of one symbol": (
        broken(set_side("garden_side", 2, extra=[[3, 1], [2, 2], [5, 0], [4, 7], [2, 4], [6, 4]])),
        "garden_side '2A': the six extra squares must show six different symbols",
    ),
    "extra square in row 1": (
        broken(set_side("garden_side", 0, extra=[[1, 4], [3, 0], [4, 8], [5, 1], [6, 7], [2, 5]])),
        "garden_side '1A': extra square \\[1, 4\\] is not",
    ),
    "extra under the expansion": (
        broken(set_side("garden_side", 1, extra=[[2, 3], [4, 0], [3, 7], [6, 1], [5, 8], [4, 4]])),
        "garden_side '1B': pre-printed square \\[4, 4\\] lies under expansion_side 'E1A'",
    ),
    "stairway square pre-printed": (
        broken(set_side("garden_side", 1, extra=[[2, 3], [4, 0], [3, 7], [6, 1], [5, 8], [3, 4]])),
        "garden_side '1B': pre-printed square \\[3, 4\\] lies under expansion_side 'E1A'",
    ),
    "column listed twice": (
        broken(set_side("garden_side", 0, columns=[*SYMBOLS[:8], "labyrinth"])),
        "garden_side '1A': columns must list each of the 9 symbols once",
    ),
    "duplicate garden id": (
        broken(set_side("garden_side", 1, id="1A")),
        "duplicate garden_side '1A'",
    ),
    "board with three sides": (
        broken(set_side("garden_side", 2, board=1)),
        "garden_side board 1 has 3 sides, expected 2",
    ),
    "eleven marks": (
        broken(
            set_side(
                "expansion_side", 0, marks=["+1 +2 . G", "-2 +1 +3 .", "G . +2 -3", "+3 G . ."]
            )
        ),
        "expansion_side 'E1A': 11 squares are marked, expected 12",
    ),
    "unknown mark": (
        broken(
            set_side(
                "expansion_side", 3, marks=["+2 . G +1", ". +1 +3 -2", "G -3 . +2", "+1 G +4 ."]
            )
        ),
        "expansion_side 'E2B': unknown mark '\\+4' in row 6",
    ),
    "short mark row": (
        broken(
            set_side("expansion_side", 0, marks=["+1 +2 . G", "-2 +1 +3", "G . +2 -3", "+3 G . +1"])
        ),
        "expansion_side 'E1A': marks row 4 must have 4 squares",
    ),
    "expansion does not fit": (
        broken(set_side("garden_side", 0, columns=["stairway", *SYMBOLS[:4], *SYMBOLS[5:]])),
        "expansion_side 'E1A' does not fit on garden_side '1A': it would cover columns -1..2",
    ),
    "expansion offset out of range": (
        broken(set_side("expansion_side", 5, stairway_index=4)),
        "expansion_side 'E3B': stairway_index must be 0-3, got 4",
    ),
    "expansion board with three sides": (
        broken(set_side("expansion_side", 7, board=3)),
        "expansion_side board 3 has 3 sides, expected 2",
    ),
}


@pytest.mark.parametrize("case", BAD_FILES)
def test_bad_component_file_names_the_problem(case):
    text, message = BAD_FILES[case]
    with pytest.raises(ComponentError, match=message) as info:
        parse_components(text, "mine.toml")
    assert str(info.value).startswith("mine.toml: ")
    assert isinstance(info.value, SanssimError)


@pytest.mark.parametrize(
    "cards",
    [
        ["joker"] * 18,
        [f"symbol:{s}" for s in SYMBOLS] * 2,
        ["pair:white+fuchsia", "pair:gray+turquoise"] * 9,
        [*(f"symbol:{s}" for s in SYMBOLS[:5]), *["joker"] * 3, *["pair:orange+fuchsia"] * 10],
    ],
)
def test_any_eighteen_valid_cards_make_a_deck(cards):
    data = default_data()
    data["deck"]["cards"] = cards
    deck = parse_components(dump_toml(data)).deck
    assert [c.code for c in deck] == cards
    state = Game(GameConfig(n_players=2), parse_components(dump_toml(data))).new_state(1)
    assert sorted(state.hands[0] + state.decks[0]) == list(range(18))


def test_a_bare_string_of_garden_sides_is_refused_by_name():
    from sanssim.games.sanssouci import ConfigError, Game, GameConfig

    with pytest.raises(ConfigError, match="tuple of side ids, got '1A'"):
        Game(GameConfig(n_players=2, garden_sides="1A"))
