"""The robustness section: every conclusion per strategy line-up, side by side."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from sanssim.analysis.report import write_report
from sanssim.cli import main

EXPERIMENT = """game = "splendor"
players = 2
games = 60
seed = 3
turn_log = false
{arms}
"""
ARM = '[[arm]]\nname = "{name}"\nstrategy = "{strategy}"\ntarget_points = {target}\n'


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    root = tmp_path_factory.mktemp("robust")
    arms = "".join(
        ARM.format(name=f"{s[0]}{t}", strategy=s, target=t)
        for s in ("greedy", "heuristic")
        for t in (15, 18)
    )
    (root / "exp.toml").write_text(EXPERIMENT.format(arms=arms))
    ran = CliRunner().invoke(
        main, ["run", "--config", str(root / "exp.toml"), "--out", str(root / "runs")]
    )
    assert ran.exit_code == 0, ran.output
    write_report([root / "runs"], root / "report", ["test"])
    return root / "runs", (root / "report" / "report.md").read_text()


def test_each_conclusion_stands_once_per_line_up(report: tuple[Path, str]) -> None:
    runs, md = report
    section = md.split("## Robustness: the conclusions under each strategy line-up")[1]
    table = [line for line in section.split("\n## ")[0].splitlines() if line.startswith("| ")]
    assert table[0] == "| conclusion | greedy | heuristic | verdict |"
    labels = [row.split(" | ")[0].strip("| ") for row in table[1:]]
    assert labels == [
        "first seat's edge over 1/players, target points 15",
        "first seat's edge over 1/players, target points 18",
        "target points 15 → 18: mean score, every design",
        "target points 15 → 18: first seat's win rate, every design",
    ]
    assert all(row.endswith("| held |") or row.endswith("| CHANGES |") for row in table[1:])
    # the greedy line-up's first-seat edge at target 15, computed directly
    results = pl.read_parquet(runs / "g15" / "results" / "*.parquet")
    wins = results.with_columns(share=pl.col("winner") / pl.col("winner").sum().over("game_id"))
    edge = 100 * (wins.filter(pl.col("seat") == 0)["share"].mean() - 0.5)
    assert f"| {edge:+.1f} [" in table[1]
    assert "Robustness: " in md.split("## Key findings")[1].split("\n## ")[0]


def test_a_report_of_one_line_up_has_no_robustness_section(report, tmp_path) -> None:
    runs, _ = report
    write_report([runs / "g15", runs / "g18"], tmp_path / "one", ["test"])
    assert "## Robustness" not in (tmp_path / "one" / "report.md").read_text()
