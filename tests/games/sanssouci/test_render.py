"""The text pictures of a garden and a whole state, checked line by line."""

from __future__ import annotations

from positions import deal, set_position

from sanssim.games.sanssouci import State
from sanssim.games.sanssouci.render import LEGEND, render_display, render_garden, render_state

HEADER = "        laby  stat  pavi  topi  stai  foun  rose  herb  vine"
DISPLAY = [
    "labyrinth", "statue", "pavilion", "topiary", "stairway",
    "fountain", "rose_arch", "herb_garden", "vineyard", None,
]  # fmt: skip


def built() -> State:
    """Side 1A with tiles (2,0) (3,4), a gardener (2,1) and three nobles out."""
    state = deal(2, seed=0)
    return set_position(
        state,
        display=DISPLAY,
        supply=[],
        tiles={0: [(2, 0), (3, 4)]},
        gardeners={0: [(2, 1)]},
        nobles={0: {0: 2, 1: 1, 4: 3}},
        missions={0: ("statue", "vineyard"), 1: ("labyrinth", "rose_arch")},
    )


def test_garden_shows_preprinted_squares_tiles_gardeners_and_nobles():
    lines = render_garden(built(), 0).splitlines()
    assert lines == [
        HEADER,
        "0 terr " + " " * 16 + "*" + " " * 5 + "*" + " " * 11 + "*" + (" " * 5 + "*") * 3,
        "1 beig    ##   *##    ##    ##    ##    ##    ##    ##    ##",
        "2 whit   *[]    gg    ..    ..    ##    ##    ..    ..    ..",
        "3 gray    ##    ..    ..    ..   *[]    ..    ..    ..    ..",
        "4 oran    ..    ..    ..    ..    ..    ..    ..    ..    ##",
        "5 fuch    ..    ##    ..    ..    ..    ..    ..    ..    ..",
        "6 turq    ..    ..    ..    ..    ..    ..    ..    ##    ..",
    ]


def test_untouched_garden_has_every_noble_on_the_terrace():
    lines = render_garden(built(), 1).splitlines()
    assert lines[1] == "0 terr " + " ".join(["    *"] * 9)
    assert lines[2] == "1 beig " + " ".join(["   ##"] * 9)


def test_garden_shows_free_expansion_marks_only():
    seed = next(s for s in range(100) if deal(2, s, expansion=True).exp_board[0] == 1)
    state = deal(2, seed, expansion=True)
    state.apply_action(0)  # E1A: stairway second of columns 3-6
    state.apply_action(state.legal[0])
    set_position(state, tiles={0: [(3, 4), (4, 4), (4, 5)]}, gardeners={0: [(5, 5)]})
    assert render_garden(state, 0).splitlines()[4:] == [
        "3 gray    ##    ..    ..    +1    []    ..     G    ..    ..",
        "4 oran    ..    ..    ..    -2    []    []    ..    ..    ##",
        "5 fuch    ..    ##    ..     G    ..    gg    -3    ..    ..",
        "6 turq    ..    ..    ..    +3     G    ..    +1    ##    ..",
    ]


def test_display_names_each_square_and_marks_empty_ones():
    assert render_display(built()).split("  ") == [
        "0:white=labyrinth",
        "1:white=statue",
        "2:gray=pavilion",
        "3:gray=topiary",
        "4:orange=stairway",
        "5:orange=fountain",
        "6:fuchsia=rose_arch",
        "7:fuchsia=herb_garden",
        "8:turquoise=vineyard",
        "9:turquoise=--",
    ]


def test_state_shows_progress_display_every_seat_and_the_legend():
    state = built()
    state.score[0] = 7
    lines = render_state(state).splitlines()
    assert lines[0] == "round 1  turn 0  seat 0 to play  supply 0"
    assert lines[1] == "display: " + render_display(state)
    assert lines[2] == ""
    assert lines[3] == "seat 0: score 7  garden 1A  expansion -  missions statue, vineyard"
    assert lines[4:12] == render_garden(state, 0).splitlines()
    assert lines[12] == ""
    assert lines[13] == "seat 1: score 0  garden 1A  expansion -  missions labyrinth, rose_arch"
    assert lines[14:22] == render_garden(state, 1).splitlines()
    assert lines[22:] == ["", LEGEND]


def test_finished_game_says_game_over():
    state = deal(2, seed=3)
    while state.legal:
        state.apply_action(state.legal[-1])
    assert render_state(state).splitlines()[0] == "game over  supply 0"
