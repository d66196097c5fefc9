"""`sanssim show` for Seikatsu and Splendor: every game of a small run is drawn whole and
turn by turn, and `--explain` scores the options, through the command line."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from sanssim.cli import main


@pytest.mark.parametrize(("game", "players"), [("seikatsu", "3"), ("splendor", "3")])
def test_show_draws_every_game_and_turn(tmp_path: Path, game: str, players: str) -> None:
    out = tmp_path / game
    runner = CliRunner()
    ran = runner.invoke(
        main,
        ["run", "--game", game, "--players", players, "--games", "6", "--workers", "1",
         "--out", str(out), "-s", "greedy"],
    )  # fmt: skip
    assert ran.exit_code == 0, ran.output
    for game_id in range(6):
        whole = runner.invoke(main, ["show", str(out), "--game", str(game_id)])
        assert whole.exit_code == 0, whole.output
        assert "legend: " in whole.output and "final scores:" in whole.output
    one = runner.invoke(
        main, ["show", str(out), "--game", "1", "--turn", "4", "--explain", "--top", "2"]
    )
    assert one.exit_code == 0, one.output
    assert "turn 4 " in one.output and "chosen: " in one.output
    seat = runner.invoke(main, ["show", str(out), "--game", "2", "--seat", "1"])
    assert seat.exit_code == 0 and " seat 0 plays" not in seat.output
