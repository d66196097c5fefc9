"""`tournament`, `tune` and `--precision` print the same and write the same games on the
compiled cores as in Python, for every built-in game (the engine is how, not which)."""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner
from polars.testing import assert_frame_equal

from sanssim.cli import main

COMMANDS = {
    "tournament": ["tournament", "--strategies", "random,greedy", "--players", "2"]
    + ["--games", "12", "--seed", "5"],
    "tune": ["tune", "--players", "2", "-s", "greedy", "--objective", "seat-balance"]
    + ["--budget", "400", "--seed", "5"],
    "precision": ["run", "--players", "2", "-s", "greedy", "--games", "400"]
    + ["--precision", "seat0_win=0.2", "--seed", "5"],
}
# What each game's tune searches: one of its options.
TUNED = {
    "sanssouci": "seat_bonus=0|1",
    "seikatsu": "tie_break=components|later_in_turn_order",
    "splendor": "max_rounds=40|60",
}


def _output(tmp_path: Path, engine: str, args: list[str], game: str) -> tuple[str, Path]:
    out = tmp_path / engine / "run"
    full = [*args, "--game", game, "--engine", engine, "--workers", "1", "--out", str(out)]
    result = CliRunner().invoke(main, full)
    assert result.exit_code == 0, result.output
    lines = [
        re.sub(r"\d[\d,.]* ?(s|games/s)\b", "T", line)  # wall-clock times and rates differ
        for line in result.output.replace(str(out), "OUT").splitlines()
        if not re.search(r"it/s|game/s|\r", line) and not line.startswith("compiling ")
    ]  # progress bars and the first compile's line aside
    return "\n".join(lines), out


@pytest.mark.parametrize("game", sorted(TUNED))
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_command_gives_the_same_on_both_engines(tmp_path: Path, command: str, game: str):
    args = COMMANDS[command] + (["--param", TUNED[game]] if command == "tune" else [])
    printed = {e: _output(tmp_path, e, args, game) for e in ("python", "compiled")}
    assert printed["python"][0] == printed["compiled"][0]
    folders = {e: out for e, (_, out) in printed.items()}
    runs = sorted(p.parent for p in folders["python"].rglob("manifest.json"))
    assert runs
    for run in runs:
        twin = folders["compiled"] / run.relative_to(folders["python"])
        for table in ("results", "turns"):
            if (run / table).exists():
                want = pl.read_parquet(run / table / "*.parquet").sort("game_id")
                got = pl.read_parquet(twin / table / "*.parquet").sort("game_id")
                assert_frame_equal(got, want)
