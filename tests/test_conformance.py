"""Every registered game against the protocol (OpenSpiel's `games_sim_test`): random
games at each player count, the same games on one worker and on two, every game replayed
from its log, `show` of a game and of one turn, and every report section rendered."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from sanssim.cli import main
from sanssim.games import game_names, get_game
from sanssim.games.logs import ACTIONS
from sanssim.runner.show import load_game

KEYS = {"results": ["game_id", "seat"], "turns": ["game_id", "turn"]}
GAMES = 3


def cli(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def tables(run_dir: Path) -> dict[str, pl.DataFrame]:
    return {t: pl.read_parquet(run_dir / t / "*.parquet").sort(k) for t, k in KEYS.items()}


def test_the_worked_example_is_registered():
    assert "nothanks" in game_names(), "install examples/nothanks (make install does)"


@pytest.mark.parametrize("name", game_names())
def test_every_game_plays_replays_shows_and_reports(tmp_path: Path, name: str) -> None:
    game_type = get_game(name)
    counts = range(game_type.min_players, game_type.max_players + 1)
    args = ["--game", name, "--players", ",".join(map(str, counts)), "--games", str(GAMES)]
    args += ["--seed", "11", "-s", "random"]
    cli("run", *args, "--workers", "1", "--out", str(tmp_path / "one"))
    cli("run", *args, "--workers", "2", "--chunk-size", "2", "--out", str(tmp_path / "two"))
    arms = [tmp_path / "one" / f"p{n}" for n in counts]
    for arm in arms:
        one, two = tables(arm), tables(tmp_path / "two" / arm.name)
        for table, frame in one.items():
            assert frame.equals(two[table]), (arm.name, table)
        results, turns = one["results"], one["turns"]
        assert results.schema == pl.Schema(game_type.result_schema)
        assert turns.schema == pl.Schema(game_type.turn_schema) and turns.columns[-1] == ACTIONS
        assert results.height == GAMES * int(arm.name[1:])
        assert results.group_by("game_id").agg((pl.col("rank") == 1).any())["rank"].all()
        for game_id in range(GAMES):
            _, rows, _, final = load_game(arm, game_id)
            assert final.is_terminal() and final.returns() == rows.sort("seat")["total"].to_list()
        shown = cli("show", str(arm), "--game", "0")
        assert "final" in shown and len(shown.splitlines()) > turns.filter(game_id=0).height
        cli("show", str(arm), "--game", "1", "--turn", "1")
    out = tmp_path / "report"
    cli("report", *map(str, arms), "--out", str(out))
    assert (out / "report.md").read_text(encoding="utf-8").startswith("#")
