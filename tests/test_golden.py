"""Sanssouci after the game-plugin move: the same command and seed give the same games.

`tests/golden/` holds runs made by sanssim before it knew other games (commands in
`sanssouci.json`); every column they have must come out identical now, on both engines.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from sanssim.cli import main

GOLDEN = Path(__file__).parent / "golden"
COMMANDS = json.loads((GOLDEN / "sanssouci.json").read_text())


@pytest.mark.parametrize("engine", ["python", "compiled"])
@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_sanssouci_runs_are_unchanged(tmp_path: Path, name: str, engine: str) -> None:
    out = tmp_path / name
    args = [*shlex.split(COMMANDS[name]), "--workers", "1", "--out", str(out), "--engine", engine]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    for table, order in (("results", ["game_id", "seat"]), ("turns", ["game_id", "turn"])):
        want = pl.read_parquet(GOLDEN / f"sanssouci-{name}-{table}.parquet")
        got = pl.read_parquet(out / table / "*.parquet").sort(order)
        assert got.height == want.height
        for column in want.columns:
            assert got[column].equals(want[column]), f"{table}.{column} differs"
    assert pl.read_parquet(out / "results" / "*.parquet")["game"].unique().to_list() == [
        "sanssouci"
    ]
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["game"] == "sanssouci"
    assert {part["engine"] for part in manifest["parts"]} == {engine}
