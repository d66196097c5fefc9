"""Input that cannot be played is one line and exit 2 before anything is written:
malformed or absurd component data for every game, measures of seats or games a run
does not have."""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources
from pathlib import Path

import pytest

from tests.test_integrity import _one_line_error, invoke

NOT_UTF8 = b"schema = 1\n# caf\xe9\n"


def _packaged(game: str, name: str) -> str:
    return resources.files(f"sanssim.games.{game}").joinpath(name).read_text(encoding="utf-8")


def _toml(game: str, old: str = "", new: str = "") -> Callable[[Path], Path]:
    """A copy of the game's packaged component file with `old` replaced by `new`."""

    def write(tmp: Path) -> Path:
        text = _packaged(game, "components.toml")
        assert old in text
        path = tmp / "components.toml"
        path.write_text(text.replace(old, new, 1))
        return path

    return write


def _raw(data: bytes) -> Callable[[Path], Path]:
    def write(tmp: Path) -> Path:
        path = tmp / "components.toml"
        path.write_bytes(data)
        return path

    return write


def _splendor(file: str, old: str = "", new: str | bytes = "") -> Callable[[Path], Path]:
    """A copy of Splendor's packaged directory with one change in `file`."""

    def write(tmp: Path) -> Path:
        root = tmp / "splendor-data"
        root.mkdir()
        for name in ("cards.csv", "nobles.csv"):
            (root / name).write_text(_packaged("splendor", name))
        if isinstance(new, bytes):
            (root / file).write_bytes(new)
        else:
            text = (root / file).read_text()
            assert old in text
            (root / file).write_text(text.replace(old, new, 1))
        return root

    return write


CASES = {
    "sanssouci-not-utf8": ("sanssouci", _raw(NOT_UTF8), "is not UTF-8 text (byte 16 is 0xe9)"),
    "sanssouci-empty": ("sanssouci", _raw(b""), "unsupported component schema"),
    "sanssouci-binary": ("sanssouci", _raw(bytes(range(256))), "is not UTF-8 text"),
    "sanssouci-bad-toml": ("sanssouci", _raw(b"schema = [\n"), "invalid TOML"),
    "sanssouci-300-tiles": ("sanssouci", _toml("sanssouci", "II = 5", "II = 300"),
                            "[tiles] II must be at most 20 per symbol, got 300"),
    "sanssouci-negative-tiles": ("sanssouci", _toml("sanssouci", "IV = 2", "IV = -2"),
                                 "IV must be a positive integer, got -2"),
    "sanssouci-supply-too-large": ("sanssouci", _toml("sanssouci", "II = 5", "II = 19"),
                                   "give 23 tiles of each symbol"),
    "sanssouci-absurd-board": ("sanssouci", _toml("sanssouci", "board = 1", "board = 10000000000"),
                               "board must be an integer 1-99"),
    "sanssouci-tiles-a-string": ("sanssouci", _toml("sanssouci", "II = 5", 'II = "five"'),
                                 "II must be a positive integer"),
    "seikatsu-not-utf8": ("seikatsu", _raw(NOT_UTF8), "is not UTF-8 text"),
    "seikatsu-empty": ("seikatsu", _raw(b""), "missing [board] table"),
    "seikatsu-huge-garden": ("seikatsu", _toml("seikatsu", "radius = 3", "radius = 100000"),
                             "board.radius must be an integer 1-6, got 100000"),
    "seikatsu-huge-points": ("seikatsu", _toml("seikatsu", "15, 21]", "15, 40000]"),
                             "set_points must be 7 integers 0-99"),
    "seikatsu-negative-points": ("seikatsu", _toml("seikatsu", "[0, 1, 3", "[-5, 1, 3"),
                                 "set_points must be 7 integers 0-99"),
    "seikatsu-absurd-players": ("seikatsu", _toml("seikatsu", "\n4 = [[1, 0]", "\n5000 = [[1, 0]"),
                                "player count must be an integer 2-8, got '5000'"),
    "splendor-not-utf8": ("splendor", _splendor("cards.csv", new=b"id,level\n\xff\xfe\n"),
                          "cards.csv is not UTF-8 text"),
    "splendor-empty-nobles": ("splendor", _splendor("nobles.csv", new=b""), "header must be"),
    "splendor-cost-300": ("splendor", _splendor("cards.csv", "0,0,3,0,0,0", "0,0,300,0,0,0"),
                          "field 'blue' must be an integer 0-30, got 300"),
    "splendor-negative-points": ("splendor", _splendor("nobles.csv", "0,3,4,4", "0,-3,4,4"),
                                 "field 'points' must be an integer 0-99, got -3"),
    "splendor-a-file": ("splendor", _raw(b"id,level\n"), "must be a directory"),
}  # fmt: skip


@pytest.mark.parametrize("case", list(CASES))
def test_a_malformed_component_file_is_one_line(tmp_path, monkeypatch, case: str) -> None:
    game, make, words = CASES[case]
    monkeypatch.chdir(tmp_path)
    source = make(tmp_path)
    result = invoke(
        "run", "--game", game, "--players", "2", "--games", "2", "-s", "random",
        "--components", str(source), "--out", "out",
    )  # fmt: skip
    _one_line_error(result, words)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("game", ["sanssouci", "seikatsu"])
def test_a_copy_of_the_packaged_components_passes_the_bounds(tmp_path, game: str) -> None:
    from sanssim.games import get_game

    copy = _toml(game)(tmp_path)
    assert (
        get_game(game).load_components(copy).to_dict() == get_game(game).load_components().to_dict()
    )


@pytest.mark.parametrize(
    "args, words",
    [
        (["--players", "2", "--precision", "seat3_win=0.05"], "2 players have no seat 3"),
        (["--players", "3", "--precision", "seat3_win=0.05"], "3 players have no seat 3"),
        (["--config", "mixed.toml", "--precision", "diff:a-b:margin=1"],
         "the arms play different games (sanssouci and splendor)"),
        (["--config", "mixed.toml", "--precision", "seat2_win=0.05"],
         "2 players in arm a have no seat 2"),
    ],
)  # fmt: skip
def test_a_measure_of_a_seat_or_game_the_run_lacks_is_refused(tmp_path, monkeypatch, args, words):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mixed.toml").write_text(
        'games = 200\nplayers = 2\nstrategy = "random"\n'
        '[[arm]]\nname = "a"\ngame = "splendor"\n[[arm]]\nname = "b"\n'
    )
    simple = [] if "--config" in args else ["--games", "200", "-s", "random"]
    _one_line_error(invoke("run", "--workers", "1", *simple, *args, "--out", "out"), words)
    assert not (tmp_path / "out").exists()


def test_a_tune_target_of_a_missing_seat_is_refused(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = invoke(
        "tune", "--players", "2", "-s", "heuristic:mission=0.5..3",
        "--objective", "target:seat2_win=0.5", "--out", "out",
    )  # fmt: skip
    _one_line_error(result, "2 players have no seat 2")
    assert not (tmp_path / "out").exists()
