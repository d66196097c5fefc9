"""Splendor component data: the packaged files, the rules' invariants, and user files."""

from __future__ import annotations

import csv
import hashlib
from collections import Counter
from pathlib import Path

import pytest

from sanssim.errors import ComponentError
from sanssim.games.splendor import components as comp_module
from sanssim.games.splendor.components import (
    COLOURS,
    Components,
    load_components,
    read_directory,
    standard_violations,
)

PACKAGE = Path(comp_module.__file__).parent
SOURCE = Path(__file__).resolve().parents[4] / "shared" / "data" / "splendor"
# sha256 of the verified data files (shared/data/splendor beside the repository)
DIGESTS = {
    "cards.csv": "d09004e422652d98acfe801d47bdcf9a972fdc4176b0ee73e6e1450f654dccb2",
    "nobles.csv": "0f6f429ef0905e503070659f258bf296df5784f680cde3f684d24aa75a31b1bb",
}


@pytest.mark.parametrize("name", sorted(DIGESTS))
def test_packaged_files_are_the_verified_data(name):
    assert hashlib.sha256((PACKAGE / name).read_bytes()).hexdigest() == DIGESTS[name]


@pytest.mark.skipif(not SOURCE.is_dir(), reason="the shared data directory is not here")
@pytest.mark.parametrize("name", sorted(DIGESTS))
def test_packaged_files_match_the_source_column_by_column(name):
    def rows(path: Path) -> list[dict[str, str]]:
        with path.open(newline="") as f:
            return list(csv.DictReader(f))

    source, packaged = rows(SOURCE / name), rows(PACKAGE / name)
    assert len(source) == len(packaged)
    for column in source[0]:
        assert [r[column] for r in packaged] == [r[column] for r in source], column


def test_loaded_cards_are_the_file_rows():
    comps = load_components()
    with (PACKAGE / "cards.csv").open(newline="") as f:
        for row, card in zip(csv.DictReader(f), comps.cards, strict=True):
            assert card.id == int(row["id"]) and card.level == int(row["level"])
            assert COLOURS[card.bonus] == row["bonus"] and card.points == int(row["points"])
            assert card.cost == tuple(int(row[c]) for c in COLOURS)


def test_the_rules_invariants_hold():
    comps = load_components()
    assert standard_violations(comps) == []
    assert Counter(c.level for c in comps.cards) == {1: 40, 2: 30, 3: 20}
    for level, per_colour in ((1, 8), (2, 6), (3, 4)):
        bonuses = Counter(c.bonus for c in comps.cards if c.level == level)
        assert bonuses == dict.fromkeys(range(5), per_colour)
    assert all(n.points == 3 for n in comps.nobles)
    shapes = Counter(tuple(sorted(v for v in n.requirement if v)) for n in comps.nobles)
    assert shapes == {(4, 4): 5, (3, 3, 3): 5}


def test_the_rulebook_examples():
    comps = load_components()
    card = comps.cards[76]
    assert (card.level, COLOURS[card.bonus], card.points, card.cost) == (
        3,
        "blue",
        4,
        (6, 3, 0, 0, 3),
    )
    assert comps.nobles[5].requirement == (3, 3, 3, 0, 0)


def test_standard_violations_notices_a_wrong_card():
    comps = load_components()
    cards = list(comps.cards)
    c = cards[2]
    cards[2] = type(c)(c.id, c.level, c.bonus, c.points, (0, 2, 2, 0, 0))  # list A's misprint
    problems = standard_violations(Components(tuple(cards), comps.nobles))
    assert any("green" in p for p in problems) and any("black" in p for p in problems)


def test_manifest_round_trip():
    comps = load_components()
    data = comps.to_dict()
    assert data["colours"] == list(COLOURS)
    assert data["cards"][0] == {
        "id": 0,
        "level": 1,
        "bonus": "white",
        "points": 0,
        "cost": {"white": 0, "blue": 3, "green": 0, "red": 0, "black": 0},
    }
    assert data["nobles"][0] == {
        "id": 0,
        "points": 3,
        "requirement": {"white": 4, "blue": 4, "green": 0, "red": 0, "black": 0},
    }
    assert Components.from_dict(data) == comps
    assert Components.from_manifest(data) == comps


def write(tmp_path: Path, cards: str | None = None, nobles: str | None = None) -> Path:
    (tmp_path / "cards.csv").write_text(cards or (PACKAGE / "cards.csv").read_text())
    (tmp_path / "nobles.csv").write_text(nobles or (PACKAGE / "nobles.csv").read_text())
    return tmp_path


def test_a_user_directory_may_change_counts(tmp_path):
    text = (PACKAGE / "cards.csv").read_text().splitlines()
    level_1_and_2 = [line for line in text[1:] if line.split(",")[1] in ("1", "2")]
    level_3 = [line for line in text[1:] if line.split(",")[1] == "3"][:5]
    rows = [text[0]] + [
        ",".join([str(i)] + line.split(",")[1:]) for i, line in enumerate(level_1_and_2 + level_3)
    ]
    comps = load_components(write(tmp_path, cards="\n".join(rows) + "\n"))
    assert len(comps.cards) == 75 and sum(c.level == 3 for c in comps.cards) == 5
    assert standard_violations(comps)


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (lambda c: c.replace("0,1,white,0,0,3", "0,1,white,0,0,x", 1), "row 1: field 'blue'"),
        (
            lambda c: c.replace("3,1,white,0,0,1,1,1,1", "3,1,pink,0,0,1,1,1,1"),
            "row 4: field 'bonus'",
        ),
        (lambda c: c.replace("5,1,white,0", "5,4,white,0", 1), "row 6: field 'level'"),
        (lambda c: c.replace("7,1,white,1", "8,1,white,1", 1), "row 8: field 'id'"),
        (lambda c: c.replace("9,1,blue,0,0,0,0,0,3", "9,1,blue,0,0,0,0,0,0"), "row 10: the cost"),
        (lambda c: c.replace("id,level", "ident,level"), "header"),
        (lambda c: c.replace("0,1,white,0,0,3,0,0,0", "0,1,white,0,0,3,0,0"), "row 1: expected 9"),
        (lambda c: c + "90,1,white,-1,1,0,0,0,0\n", "row 91: field 'points'"),
        (
            lambda c: c + "90,1,white,0,300,0,0,0,0\n",
            "row 91: field 'white' must be an integer 0-30",
        ),
        (lambda c: c + "90,1,white,40000,1,0,0,0,0\n", "row 91: field 'points'"),
    ],
)
def test_bad_card_rows_are_one_line_errors_naming_row_and_field(tmp_path, edit, expected):
    cards = edit((PACKAGE / "cards.csv").read_text())
    with pytest.raises(ComponentError) as info:
        load_components(write(tmp_path, cards=cards))
    message = str(info.value)
    assert "\n" not in message and expected in message


def test_bad_noble_rows_and_missing_files(tmp_path):
    nobles = (PACKAGE / "nobles.csv").read_text().replace("5,3,3,3,3,0,0", "5,3,0,0,0,0,0")
    with pytest.raises(ComponentError, match=r"nobles.csv row 6: the requirement"):
        load_components(write(tmp_path, nobles=nobles))
    huge = (PACKAGE / "nobles.csv").read_text().replace("5,3,3,3,3,0,0", "5,3,5000,3,3,0,0")
    with pytest.raises(ComponentError, match=r"nobles.csv row 6: field 'white' must be an integer"):
        load_components(write(tmp_path, nobles=huge))
    with pytest.raises(ComponentError, match="must be a directory"):
        read_directory(tmp_path / "nowhere")
    (tmp_path / "nobles.csv").unlink()
    with pytest.raises(ComponentError, match="cannot read"):
        read_directory(tmp_path)


def test_manifest_errors_are_one_line():
    data = load_components().to_dict()
    data["cards"][3]["cost"]["red"] = "lots"
    with pytest.raises(ComponentError) as info:
        Components.from_dict(data)
    assert "\n" not in str(info.value) and "row 4: field 'red'" in str(info.value)
    with pytest.raises(ComponentError):
        Components.from_dict({"colours": ["red"], "cards": [], "nobles": []})
