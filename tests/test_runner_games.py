"""Every game through the runner: workers, chunk sizes, resume and bad input behave as
they do for Sanssouci (which tests/test_runner.py covers in depth)."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from sanssim.cli import main
from sanssim.runformat import MANIFEST
from sanssim.runner import run as run_module
from sanssim.runner.files import read_json, write_json

GAMES = [
    ("seikatsu", ["--tournament"]),
    ("seikatsu", []),
    ("splendor", ["--gem-tokens", "5", "--nobles", "2"]),
]
KEYS = {"results": ["game_id", "seat"], "turns": ["game_id", "turn"]}


def run(out: Path, *args: str) -> Path:
    result = CliRunner().invoke(main, ["run", "--out", str(out), *args])
    assert result.exit_code == 0, result.output
    return out


def tables(run_dir: Path) -> dict[str, pl.DataFrame]:
    return {t: pl.read_parquet(run_dir / t / "*.parquet").sort(k) for t, k in KEYS.items()}


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_workers_chunks_and_resume_give_the_same_games(tmp_path, monkeypatch, game, options):
    monkeypatch.setattr(run_module, "IN_DRIVER_GAMES", 0)  # two workers, however few games
    args = ["--game", game, "--players", "2,4", "--games", "12", "--seed", "3", *options]
    one = run(tmp_path / "one", *args, "--workers", "1", "--chunk-size", "12")
    two = run(tmp_path / "two", *args, "--workers", "2", "--chunk-size", "5")
    for arm in ("p2", "p4"):
        want = tables(one / arm)
        assert all(frame.height > 0 for frame in want.values())
        assert tables(two / arm).keys() == want.keys()
        for name, frame in tables(two / arm).items():
            assert frame.equals(want[name]), (arm, name)
        manifest = read_json(two / arm / MANIFEST)
        assert manifest["game"] == game and manifest["config"]["game"] == game
        assert pl.read_parquet(two / arm / "results" / "*.parquet")["game"].unique().to_list() == [
            game
        ]
    # a kill after two parts: resume plays only the rest and gives the same games
    manifest = read_json(two / "p4" / MANIFEST)
    for part in manifest["parts"][2:]:
        for name in KEYS:
            (two / "p4" / name / f"{part['name']}.parquet").unlink()
    manifest["parts"], manifest["status"] = manifest["parts"][:2], "incomplete"
    write_json(two / "p4" / MANIFEST, manifest)
    run(two, "--resume", "--workers", "1")
    for name, frame in tables(two / "p4").items():
        assert frame.equals(tables(one / "p4")[name]), name


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "seikatsu", "--players", "5"], "seikatsu is played by 2, 3, 4 players"),
        (["--game", "seikatsu", "--tile-set", "II"], "tile-set is an option of sanssouci"),
        (["--game", "splendor", "--tournament"], "tournament is an option of seikatsu"),
        (["--game", "splendor", "--gem-tokens", "0"], "gem_tokens must be an integer 1-127"),
        (["--game", "splendor", "-s", "heuristic:mission=2"], "has no parameter 'mission'"),
        (["--game", "chess"], "Invalid value for '--game'"),
    ],
)
def test_bad_input_for_any_game_is_one_line_and_writes_nothing(tmp_path, args, message):
    result = CliRunner().invoke(main, ["run", "--out", str(tmp_path / "out"), *args])
    assert result.exit_code == 2
    assert message in result.output
    assert not (tmp_path / "out").exists()


def test_lookahead_counts_a_teammate_as_no_opponent() -> None:
    """In Seikatsu's 4-player teams a teammate shares its total: the look-ahead's margin is
    against the other team, so a winning option can score above zero."""
    import random

    from sanssim.games import get_game
    from sanssim.strategies import resolve

    game_type = get_game("seikatsu")
    game = game_type.new_game(4, {}, game_type.load_components())
    player = resolve("lookahead:rollouts=8,width=2", "seikatsu").make(random.Random(1))
    best = []
    for seed in range(3):
        state = game.new_state(seed)
        view = game_type.view(state, 0)
        best.append(player.explain(view, list(state.legal))[0][1])
    assert max(best) > 0
