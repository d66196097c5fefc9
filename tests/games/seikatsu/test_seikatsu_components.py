"""The component data file: defaults, the manifest layout, and one-line errors."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from seikatsu_positions import default_data

from sanssim.errors import ComponentError
from sanssim.games.seikatsu import Components, Game, GameConfig, load_components


def test_default_components_match_the_rules_section_9():
    data = load_components().to_dict()
    assert data["board"]["radius"] == 3 and data["board"]["pond"] == [0, 0]
    assert len(data["board"]["cells"]) == 36
    assert data["pagodas"] == {
        "pink": {"axis": "r", "corner": [3, 0], "flower_space": [1, 0]},
        "blue": {"axis": "q", "corner": [0, -3], "flower_space": [0, -1]},
        "green": {"axis": "s", "corner": [-3, 3], "flower_space": [-1, 1]},
    }
    assert data["start_spaces"] == {
        "2": [[1, 0], [0, -1]],
        "3": [[1, 0], [0, -1], [-1, 1]],
        "4": [[1, 0], [0, -1], [-1, 0], [0, 1]],
    }
    assert data["seat_pagodas"] == {
        "2": ["pink", "blue"],
        "3": ["pink", "blue", "green"],
        "4": ["pink", "blue", "pink", "blue"],
    }
    assert data["teams"] == {"4": [0, 1, 0, 1]}
    assert data["birds"] == ["tanager", "waxwing", "white_eye", "flycatcher"]
    assert data["flowers"] == ["primrose", "plumeria", "tulip", "bluebell"]
    assert sorted(data["tiles"]) == sorted(
        [f"{b}:{f}" for b in data["birds"] for f in data["flowers"]] * 2 + ["koi"] * 4
    )
    assert data["set_points"] == [0, 1, 3, 6, 10, 15, 21]
    assert data["tournament_koi"] == {"2": [2, 2], "3": [1, 1, 2], "4": [1, 1, 1, 1]}
    assert data["tie_break"] == "later_in_turn_order"
    assert list(data) == [
        "board", "pagodas", "start_spaces", "seat_pagodas", "teams", "birds", "flowers",
        "tiles", "set_points", "tournament_koi", "tie_break",
    ]  # fmt: skip


def test_manifest_round_trip_through_json(tmp_path):
    comps = load_components()
    text = json.dumps(comps.to_dict())
    assert Components.from_manifest(json.loads(text)) == comps
    path = tmp_path / "mine.json"
    path.write_text(text)
    assert load_components(path) == comps


def test_cells_in_any_order_play_the_same_game():
    data = default_data()
    data["board"]["cells"].reverse()
    game = Game(GameConfig(2), Components.from_dict(data))
    state = game.new_state(3)
    default = Game(GameConfig(2)).new_state(3)
    names = lambda s: sorted(  # noqa: E731
        (s.game.cells[c], s.game.kind_names[k]) for c, k in enumerate(s.board) if k >= 0
    )
    assert names(state) == names(default)


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target = data
        for key in parents:
            target = target[key]
        if value is DELETE:
            del target[last]
        else:
            target[last] = value

    return change


DELETE = object()
CELLS = default_data()["board"]["cells"]
TILES = default_data()["tiles"]

BAD = [
    ("board", _set("board", DELETE), "board"),
    ("radius", _set("board.radius", 0), "board.radius"),
    ("pond", _set("board.pond", [0]), "board.pond"),
    ("pond off board", _set("board.pond", [3, 0]), "board.pond"),
    ("cell missing", _set("board.cells", CELLS[1:]), "is missing"),
    ("cell twice", _set("board.cells", CELLS + [CELLS[0]]), "twice"),
    ("pond as cell", _set("board.cells", CELLS + [[0, 0]]), "is not a space"),
    ("cell not a pair", _set("board.cells", CELLS[:-1] + [[3]]), "board.cells"),
    ("axis", _set("pagodas.pink.axis", "x"), "pagodas.pink.axis"),
    ("same axis", _set("pagodas.blue.axis", "r"), "pagodas.blue"),
    ("corner", _set("pagodas.pink.corner", [3, -3]), "pagodas.pink.corner"),
    ("flower space", _set("pagodas.blue.flower_space", [1, 0]), "pagodas.blue.flower_space"),
    ("start off board", _set("start_spaces.2", [[1, 0], [4, 0]]), "start_spaces.2"),
    ("start twice", _set("start_spaces.2", [[1, 0], [1, 0]]), "start_spaces.2"),
    ("uneven turns", _set("start_spaces.2", [[1, 0]]), "do not split evenly"),
    ("start count key", _set("start_spaces.x", [[1, 0]]), "start_spaces"),
    ("seat pagoda", _set("seat_pagodas.2", ["pink", "red"]), "unknown pagoda 'red'"),
    ("seat pagoda count", _set("seat_pagodas.3", ["pink", "blue"]), "seat_pagodas.3"),
    ("shared pagoda", _set("seat_pagodas.3", ["pink", "blue", "pink"]), "own pagoda"),
    ("missing count", _set("seat_pagodas.4", DELETE), "seat_pagodas"),
    ("team pagodas", _set("teams.4", [0, 0, 1, 1]), "own pagoda"),
    ("team numbers", _set("teams.4", [0, 2, 0, 2]), "teams.4"),
    ("birds", _set("birds", ["tanager", "tanager", "white_eye", "flycatcher"]), "birds"),
    ("flowers", _set("flowers", []), "flowers"),
    ("tile code", _set("tiles", TILES[:-1] + ["dragon:tulip"]), "'dragon:tulip'"),
    ("tile count", _set("tiles", TILES[:-1]), "one tile per space"),
    ("tiles type", _set("tiles", "koi"), "tiles"),
    ("set points size", _set("set_points", [0, 1, 3, 6, 10, 15]), "set_points"),
    ("set points ints", _set("set_points", [0, 1, 3, 6, 10, 15, 21.5]), "set_points"),
    ("koi sum", _set("tournament_koi.3", [1, 1, 1]), "tournament_koi.3"),
    ("koi negative", _set("tournament_koi.2", [5, -1]), "tournament_koi.2"),
    ("koi stranding", _set("tournament_koi.4", [4, 0, 0, 0]), "has no tile"),
    ("tie break", _set("tie_break", "coin_flip"), "tie_break"),
]


@pytest.mark.parametrize("change,needle", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_malformed_component_data_is_one_line_naming_the_field(tmp_path, change, needle):
    data = default_data()
    change(data)
    with pytest.raises(ComponentError) as err:
        Components.from_dict(data)
    message = str(err.value)
    assert "\n" not in message and needle in message
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ComponentError) as err:
        load_components(path)
    assert "\n" not in str(err.value) and str(err.value).startswith(str(path))


def test_unreadable_and_unparsable_files_are_one_line(tmp_path):
    with pytest.raises(ComponentError) as err:
        load_components(tmp_path / "nope.toml")
    assert "\n" not in str(err.value)
    bad = tmp_path / "bad.toml"
    bad.write_text("board = [\n1,\n")
    with pytest.raises(ComponentError) as err:
        load_components(bad)
    assert "\n" not in str(err.value) and "cannot parse" in str(err.value)
