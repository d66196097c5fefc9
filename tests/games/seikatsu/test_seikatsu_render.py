"""The text picture of the garden: tiles where they lie, the pond, pagodas and legend."""

from __future__ import annotations

from seikatsu_positions import deal, set_position

from sanssim.games.seikatsu.render import legend, letters, render_garden, render_rows, render_state


def test_letters_are_distinct_first_free_letters():
    assert letters(("tanager", "waxwing", "white_eye", "flycatcher")) == ["t", "w", "h", "f"]
    assert letters(("primrose", "plumeria", "tulip", "bluebell")) == ["p", "l", "t", "b"]


def test_garden_shows_tiles_in_their_rows_and_the_pond():
    state = set_position(
        deal(2), {(3, -3): "tanager:tulip", (-3, 3): "koi", (1, 0): "white_eye:bluebell"}
    )
    lines = render_garden(state).splitlines()
    assert len(lines) == 7
    top, middle, bottom = lines[0], lines[3], lines[6]
    assert top.startswith("r=-3") and top.split()[1:5] == ["..", "..", "..", "Tt"]
    assert middle.split()[1:8] == ["..", "..", "..", "~~", "Hb", "..", ".."]
    assert bottom.split()[1:5] == ["KK", "..", "..", ".."]
    assert "pink pagoda" in middle and "blue pagoda" in top and "green pagoda" in bottom


def test_row_map_numbers_each_pagodas_rows():
    state = set_position(deal(2), {(0, -3): "waxwing:tulip", (1, -3): "white_eye:tulip"})
    blue = render_rows(state, 1).splitlines()
    assert blue[0].startswith("blue pagoda") and "constant q" in blue[0]
    assert blue[1].split()[1:5] == ["+0", "+1", "+2", "+3"]  # top line r = -3: q = 0 .. 3
    pink = render_rows(state, 0).splitlines()
    assert pink[-1] == "row points -3:3  -2:0  -1:0  +0:0  +1:0  +2:0  +3:0 = 3"


def test_state_lists_seats_and_ends_with_the_legend():
    state = deal(4, seed=1, tournament=True)
    text = render_state(state)
    assert text.count("\nseat ") == 4 and "team 1" in text and "face-up koi 1" in text
    assert text.endswith(legend(state))
    assert "T tanager" in legend(state) and "b bluebell" in legend(state)
