"""Games where the lowest total wins (No Thanks!, examples/nothanks): the `--precision`
margin, tune's target objectives and its other metrics measure how far the winner finishes
below the best other side, never a negated score."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from sanssim.analysis import objective as obj
from sanssim.analysis.precision import outcomes
from sanssim.analysis.report import write_report
from sanssim.analysis.tuning.shared import other_metrics
from sanssim.cli import main
from sanssim.games import get_game
from sanssim.runformat import MANIFEST, TUNE
from sanssim.runner import tuning
from sanssim.runner.executor import LocalExecutor
from sanssim.runner.files import read_json

NOTHANKS = ["--game", "nothanks", "--players", "3", "-s", "heuristic", "--seed", "4"]


def _games(*totals: tuple[int, ...]) -> pl.DataFrame:
    return pl.DataFrame(
        [
            {"game_id": g, "seat": s, "total": t, "winner": False}
            for g, row in enumerate(totals)
            for s, t in enumerate(row)
        ]
    )


def _by_hand(results: pl.DataFrame, lowest_wins: bool) -> list[float]:
    """Per game: the gap between the best and the second-best total (0 when shared)."""
    margins = []
    for _, game in sorted(results.group_by("game_id"), key=lambda item: item[0]):
        totals = sorted(game["total"].to_list(), reverse=not lowest_wins)
        margins.append(float(abs(totals[1] - totals[0])))
    return margins


def test_the_margin_metric_follows_the_score_direction_and_a_shared_top():
    results = _games((10, 12, 20), (7, 7, 30), (5, 30, 30))
    lowest = outcomes(results, ["margin"], lowest_wins=True)["margin"].to_list()
    highest = outcomes(results, ["margin"], lowest_wins=False)["margin"].to_list()
    assert lowest == [2.0, 0.0, 25.0]  # 7 and 7 share the lowest total
    assert highest == [8.0, 23.0, 0.0]  # 30 and 30 share the top


def test_precision_margin_of_a_lowest_wins_game_is_how_far_below(tmp_path: Path):
    out = tmp_path / "run"
    args = ["run", *NOTHANKS, "--games", "400", "--precision", "margin=0.5", "--out", str(out)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    achieved = read_json(out / MANIFEST)["precision"]["achieved"]["arm:margin"]
    results = pl.read_parquet(out / "results" / "*.parquet")
    games = results.filter(pl.col("game_id") < achieved["n"])
    want = _by_hand(games, lowest_wins=True)
    assert achieved["estimate"] == pytest.approx(sum(want) / len(want))
    assert achieved["estimate"] != pytest.approx(sum(_by_hand(games, False)) / len(want)), (
        "the two directions must differ on these games for the test to tell them apart"
    )


def test_a_target_margin_objective_is_measured_in_the_game_s_direction():
    game_type = get_game("nothanks")
    objective = obj.parse("target:margin=5", None, game_type, 3)
    assert objective.lowest_wins
    results = _games((10, 12, 20), (40, 31, 30))
    part = obj.Part("d", results.lazy())
    assert objective.per_deal([part])["m"].to_list() == [2.0, 1.0]


def test_tune_other_metrics_give_the_lowest_wins_margin(tmp_path: Path):
    settings = tuning.Settings(
        game="nothanks",
        players=3,
        strategies=("heuristic:chip=1..5",),
        params=(),
        objective="target:margin=3",
        against=None,
        budget=240,
        candidates=2,
        finalists=1,
        seed=5,
    )
    out = tmp_path / "tune"
    with LocalExecutor(1) as executor:
        tuning.run(tuning.prepare(settings), out, executor, ["test"])
    data = json.loads((out / TUNE).read_text())
    best = data["candidates"][data["final"]["best"]]["label"]
    blocks = other_metrics(out, data)
    table = next(b for b in blocks if hasattr(b, "rows"))
    row = next(r for r in table.rows if r[0] == "margin")
    means = []
    for label in (best, "c000"):
        results = pl.read_parquet(out / f"{label}-final" / "results" / "*.parquet")
        margins = _by_hand(results, lowest_wins=True)
        means.append(sum(margins) / len(margins))
    assert [float(row[1]), float(row[2])] == pytest.approx(means, rel=1e-3)
    assert "the lowest total wins: how far below it" in blocks[0].text


def test_a_lowest_wins_report_says_so_and_shows_no_negated_score(tmp_path: Path):
    out = tmp_path / "run"
    args = ["run", *NOTHANKS, "--games", "60", "--workers", "1", "--out", str(out)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    write_report([out], tmp_path / "report", ["test"])
    md = (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
    assert "of No Thanks! (the lowest total wins) in 1 arm" in md.splitlines()[2]
    scores = md.split("### Scores and margins")[1].split("\n### ")[0]
    assert "| lowest tied |" in scores and "how often the lowest total is tied" in scores
    assert "how far below the best other side" in scores
    row = next(line for line in scores.splitlines() if line.startswith("| all games |"))
    cells = row.strip("|").split(" | ")
    results = pl.read_parquet(out / "results" / "*.parquet")
    margins = _by_hand(results, lowest_wins=True)
    assert float(cells[5].split()[0]) == pytest.approx(sum(margins) / len(margins), abs=0.051)
    assert float(cells[4].split()[0]) == pytest.approx(
        results.group_by("game_id").agg(pl.col("total").min())["total"].mean(), abs=0.051
    )
    assert "-" not in row.replace(" | ", "")  # no negative total, margin or bound
    assert "counted that way round" in md.split("## Game quality")[1]
