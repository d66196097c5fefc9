"""Splendor's report sections on small real runs: every section appears, numbers agree with
direct polars computations on the run files, turn-based parts are skipped (and said so)
without turn logs; and the cluster-robust ratio interval they use."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from sanssim.analysis import stats
from sanssim.analysis.report import write_report
from sanssim.cli import main

EXPERIMENT = """
games = 60
seed = 11
game = "splendor"
strategy = "heuristic"

[[arm]]
name = "gems4"
players = [2, 3]
gem_tokens = 4

[[arm]]
name = "gems7"
players = [2, 3]
gem_tokens = 7

[[arm]]
name = "target12"
players = 2
gem_tokens = 4
target_points = 12
"""

SECTIONS = (
    "## First-player advantage",
    "### The point target and the first player",
    "## Game length and how games end",
    "## Points from cards by level, and from nobles",
    "### What a noble is worth to the player who takes it",
    "## Return on gems",
    "## Reserves and their payoff",
    "## Gem colour balance",
    "## Token supply against player count",
)


@pytest.fixture(scope="module")
def experiment(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small crossed design (4 and 7 gem tokens at 2 and 3 players) plus a 12-point arm,
    every arm on the same master seed."""
    root = tmp_path_factory.mktemp("splendor")
    config = root / "experiment.toml"
    config.write_text(EXPERIMENT)
    out = root / "runs"
    args = ["run", "--config", str(config), "--workers", "1", "--out", str(out)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def report(experiment: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, list]:
    out = tmp_path_factory.mktemp("report")
    summary = write_report([experiment], out, ["sanssim", "report", str(experiment)])
    return (out / "report.md").read_text(), summary.skipped


def _cells(line: str) -> list[str]:
    """The cells of a Markdown table row (a `|` inside a cell is escaped)."""
    return [c.strip() for c in re.split(r"(?<!\\)\|", line.strip()[1:-1])]


def _tables(md: str) -> list[list[dict[str, str]]]:
    """Every Markdown table of the report as a list of rows keyed by the header."""
    tables, lines = [], md.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("|") and i + 1 < len(lines) and lines[i + 1].startswith("|---"):
            header = _cells(line)
            rows = []
            for row in lines[i + 2 :]:
                if not row.startswith("|"):
                    break
                rows.append(dict(zip(header, _cells(row), strict=True)))
            tables.append(rows)
    return tables


def _row(md: str, column: str, first: str) -> dict[str, str]:
    """The one row, among the tables with `column`, whose first cell is `first`."""
    found = [
        row
        for table in _tables(md)
        for row in table
        if column in row and next(iter(row.values())) == first
    ]
    assert len(found) == 1, (column, first, found)
    return found[0]


def _close(cell: str, truth: float, scale: float = 1.0) -> None:
    """The estimate leading `cell` equals `truth` (times `scale`) to its printed decimals."""
    text = cell.split(" [")[0].rstrip("%").split(" ")[0]
    decimals = len(text.split(".")[1]) if "." in text else 0
    assert float(text) == pytest.approx(scale * truth, abs=0.5 * 10**-decimals + 1e-9), cell


def _cards(run: Path) -> pl.DataFrame:
    """Card id, level and points from the run's manifest."""
    cards = json.loads((run / "manifest.json").read_text())["components"]["cards"]
    return pl.DataFrame(
        [(c["id"], c["level"], c["points"]) for c in cards],
        schema={"card_id": pl.Int16, "level": pl.Int64, "value": pl.Int64},
        orient="row",
    )


def test_every_splendor_section_appears(report: tuple[str, list]) -> None:
    md, skipped = report
    for title in SECTIONS:
        assert title in md, title
    assert skipped == []
    assert "target 15 → 12 (target12 vs gems4-p2)" in md
    assert "paired (" in md  # the target arms share their deals
    assert "gem tokens 4 → 7 at 2p" in md and "gem tokens 4 → 7 at 3p" in md
    assert "players 2 → 3 at gem tokens 4" in md and "players 2 → 3 at gem tokens 7" in md
    for figure in (
        "first_player_by_players",
        "first_player_by_target",
        "game_length",
        "points_by_level",
        "noble_value",
        "points_per_gem",
        "reserve_payoff",
        "colour_balance",
        "token_supply",
    ):
        assert f"]({figure}.png)" in md, figure
    ends = _row(md, "ended by stalemate (games)", "gems4-p3")
    assert {"ended by target (games)", "ended by round cap (games)"} <= set(ends)


def test_level_points_and_return_on_gems_match_the_turn_log(
    experiment: Path, report: tuple[str, list]
) -> None:
    md, _ = report
    run = experiment / "gems4-p3"
    buys = (
        pl.read_parquet(run / "turns")
        .filter(pl.col("action") == "buy")
        .join(_cards(run), on="card_id")
        .with_columns(paid=pl.col("payment").list.sum())
    )
    results = pl.read_parquet(run / "results")
    players = results.height
    level3 = buys.filter(pl.col("level") == 3)["value"].sum() / players
    row = _row(md, "level 3 points", "gems4-p3")
    assert row["players"] == str(players)
    _close(row["level 3 points"], level3)
    by_level = buys.group_by("level").agg(pl.col("value").sum(), pl.col("paid").sum())
    assert by_level["value"].sum() == results["card_points"].sum()
    level2 = by_level.filter(pl.col("level") == 2).row(0, named=True)
    gem_row = next(
        r
        for table in _tables(md)
        for r in table
        if "points per token paid" in r and r["arm"] == "gems4-p3" and r["level"] == "2"
    )
    _close(gem_row["points per token paid"], level2["value"] / level2["paid"])


def test_reserves_bought_later_agree_with_the_results(
    experiment: Path, report: tuple[str, list]
) -> None:
    """Reserved cards leave the hand only by being bought: bought later = reserves made
    minus those still held at the end (results' `reserved_left`)."""
    md, _ = report
    run = experiment / "gems7-p2"
    turns = pl.read_parquet(run / "turns")
    made = turns.filter(pl.col("action").is_in(["reserve", "reserve_blind"])).height
    left = pl.read_parquet(run / "results")["reserved_left"].sum()
    row = _row(md, "reserves per player", "gems7-p2")
    _close(row["reserved cards bought later"], (made - left) / made, 100)
    _close(row["reserves per player"], made / 120)


def test_noble_win_rates_and_the_paired_target_difference_are_true(
    experiment: Path, report: tuple[str, list]
) -> None:
    md, _ = report
    results = pl.read_parquet(experiment / "gems4-p2" / "results")
    share = pl.col("winner").cast(pl.Float64) / pl.col("winner").sum().over("game_id")
    none = results.with_columns(win=share).filter(pl.col("nobles") == 0)["win"].mean()
    row = _row(md, "0 nobles", "gems4-p2")
    _close(row["0 nobles"], none, 100)

    def first(arm: str) -> pl.DataFrame:
        frame = pl.read_parquet(experiment / arm / "results").with_columns(win=share)
        return frame.filter(pl.col("seat") == 0).select("game_id", "game_seed", "win")

    both = first("target12").join(first("gems4-p2"), on="game_id", suffix="_base")
    assert (both["game_seed"] == both["game_seed_base"]).all()
    diff = (both["win"] - both["win_base"]).mean()
    target = _row(md, "adjusted p", "target 15 → 12 (target12 vs gems4-p2)")
    _close(target["difference"], diff, 100)


def test_without_turn_logs_the_turn_parts_are_skipped_and_said(
    tmp_path: Path, make_run: Callable[..., Path]
) -> None:
    run = make_run(
        tmp_path / "quiet", "--game", "splendor", "-s", "greedy", "--no-turn-log", games=30
    )
    summary = write_report([run], tmp_path / "report", ["sanssim", "report"])
    md = (tmp_path / "report" / "report.md").read_text()
    reason = "no turn log (--no-turn-log) for: all games"
    assert {(s.section, s.reason) for s in summary.skipped} == {
        ("Game quality", reason),
        ("Points from cards by level", reason),
        ("Return on gems", reason),
        ("Reserves and their payoff", reason),
    }
    assert "## Return on gems" not in md and "## Reserves and their payoff" not in md
    assert "### What a noble is worth to the player who takes it" in md
    assert "## Game length and how games end" in md and "## Gem colour balance" in md
    assert "No two arms differ only in the point target" in md
    assert "- Return on gems: no turn log (--no-turn-log) for: all games" in md


def test_ratio_interval_is_the_sandwich_formula() -> None:
    """By hand: three games' buys; R = 9 / 14, V = 3/2 sum (num_g - R den_g)^2 / 14^2."""
    rows = pl.DataFrame(
        {"g": [0, 0, 1, 2, 2, 2], "num": [1, 2, 0, 3, 1, 2], "den": [2, 3, 1, 4, 2, 2]}
    )
    row = stats.ratio_table(
        rows.lazy().with_columns(arm=pl.lit("a")),
        ["arm"],
        ["g"],
        {"r": (pl.col("num"), pl.col("den"))},
    ).row(0, named=True)
    r = 9 / 14
    variance = 3 / 2 * ((3 - 5 * r) ** 2 + (0 - 1 * r) ** 2 + (6 - 8 * r) ** 2) / 14**2
    t = pl.select(stats.t_crit(pl.lit(2))).item()
    assert row["r_mean"] == pytest.approx(r)
    assert (row["r_lo"], row["r_hi"]) == pytest.approx(
        (r - t * variance**0.5, r + t * variance**0.5)
    )
    assert (row["r_n"], row["r_rows"], row["r_den"]) == (3, 6, 14)
