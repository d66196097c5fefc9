"""Seikatsu's report sections on small real runs: every section is there, its numbers agree
with direct computations on the logs (and the koi's flower worth with the engine's own
scoring), and a run without turn logs skips the turn-based parts and says so."""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from sanssim.analysis.dataset import load_dataset
from sanssim.analysis.report import write_report
from sanssim.analysis.section import Context
from sanssim.cli import main
from sanssim.games.seikatsu.plugin import GAME
from sanssim.games.seikatsu.report import (
    birds_and_flowers,
    flower_rows,
    koi,
    player_count,
    sides_and_ties,
    tournament_mode,
)

GAMES = 60
TITLES = (
    sides_and_ties.SIDES_TITLE,
    birds_and_flowers.POINTS_TITLE,
    koi.KOI_TITLE,
    flower_rows.ROWS_TITLE,
    tournament_mode.MODE_TITLE,
    player_count.COUNT_TITLE,
)
EXPERIMENT = """
game = "seikatsu"
games = {games}
seed = 5
strategy = "random"
turn_log = {turn_log}

[[arm]]
name = "standard"
players = [2, 3, 4]

[[arm]]
name = "tournament"
players = [2, 3, 4]
tournament = true
"""


def _experiment(root: Path, turn_log: bool) -> Path:
    config = root / "seikatsu.toml"
    config.write_text(EXPERIMENT.format(games=GAMES, turn_log=str(turn_log).lower()))
    out = root / "runs"
    args = ["run", "--config", str(config), "--out", str(out), "--workers", "1"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _experiment(tmp_path_factory.mktemp("seikatsu-report"), turn_log=True)


@pytest.fixture(scope="module")
def md(runs: Path, tmp_path_factory: pytest.TempPathFactory) -> str:
    out = tmp_path_factory.mktemp("seikatsu-report-out")
    summary = write_report([runs], out, ["sanssim", "report", str(runs)])
    assert summary.skipped == []
    text = (out / "report.md").read_text()
    pngs = sorted(out.glob("*.png"))
    assert set(summary.files) == {out / "report.md", out / "report.html", *pngs}
    for png in pngs:
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and f"]({png.name})" in text
    return text


def _part(md: str, heading: str) -> str:
    """The report text from `heading` to the next heading."""
    start = md.index(f"{heading}\n")
    end = md.find("\n#", start + len(heading))
    return md[start : end if end > 0 else len(md)]


def _cells(text: str, *first: str) -> list[str]:
    """The cells of the one table row starting with `first`."""
    prefix = "| " + " | ".join(first) + " |"
    rows = [line for line in text.splitlines() if line.startswith(prefix)]
    assert len(rows) == 1, (prefix, rows)
    return [c.strip() for c in rows[0].strip("|").split(" | ")]


def _agrees(cell: str, value: float) -> None:
    """The estimate leading `cell` is `value` to the decimals it shows."""
    shown = re.match(r"[+-]?(\d+)(?:\.(\d+))?", cell)
    assert shown, cell
    decimals = len(shown.group(2) or "")
    assert float(shown.group(0)) == pytest.approx(value, abs=0.5 * 10**-decimals + 1e-9), cell


def _results(runs: Path, arm: str) -> pl.DataFrame:
    return pl.read_parquet(runs / arm / "results").with_columns(side=pl.coalesce("team", "seat"))


def test_every_section_is_there_with_its_figures(md: str) -> None:
    for title in TITLES:
        assert f"## {title}\n" in md
    for name in (
        "top_total_tied",
        "last_side_win",
        "birds_and_flowers",
        "koi_value",
        "koi_timing",
        "row_set_sizes",
        "tournament_vs_standard",
        "player_count",
    ):
        assert f"]({name}.png)" in md
    assert "Check of the method: the rescored rows equal the logged `row_points` for" in md
    assert re.search(r"for ([\d,]+) of \1 side-games", md)
    assert "paired on 60 games with the same game_id, game_seed, n_players" in md


@pytest.mark.parametrize("arm", ["standard-p2", "standard-p3", "tournament-p4"])
def test_tie_share_is_the_share_of_games_with_sides_tied_on_top(
    runs: Path, md: str, arm: str
) -> None:
    sides = _results(runs, arm).unique(["game_id", "side"])
    tied = sides.group_by("game_id").agg((pl.col("total") == pl.col("total").max()).sum() > 1)
    n = int(arm[-1])
    label = f"{n} players" + (" (2 teams)" if n == 4 else "")
    cells = _cells(_part(md, "### How often does the tie-break decide?"), arm, label)
    assert cells[2] == str(GAMES)
    _agrees(cells[3], 100 * tied["total"].mean())


@pytest.mark.parametrize("arm", ["standard-p3", "tournament-p2"])
def test_set_sizes_by_row_length_are_read_from_the_row_points(
    runs: Path, md: str, arm: str
) -> None:
    rows = (
        _results(runs, arm)
        .unique(["game_id", "side"])
        .select("row_points")
        .with_columns(k=pl.int_ranges(-3, 4))
        .explode("row_points", "k")
    )
    six = rows.filter(pl.col("k").abs() <= 1)  # the rows of 6 (4, 5, 6, 6, 6, 5, 4)
    cells = _cells(_part(md, f"## {flower_rows.ROWS_TITLE}"), arm, "6")
    shares = {size: (six["row_points"] == points).mean() for size, points in ((2, 3), (3, 6))}
    _agrees(cells[6], 100 * shares[2])
    _agrees(cells[7], 100 * shares[3])
    mean_size = six["row_points"].replace_strict([1, 3, 6, 10, 15, 21], [1, 2, 3, 4, 5, 6])
    _agrees(cells[4], mean_size.mean())


def test_koi_bird_points_and_tournament_differences_match_the_logs(runs: Path, md: str) -> None:
    koi_part = _part(md, f"## {koi.KOI_TITLE}")
    for arm in ("standard-p2", "tournament-p3"):
        turns = pl.read_parquet(runs / arm / "turns")
        koi_turns = turns.filter(pl.col("tile") == "koi")
        assert koi_turns.group_by("game_id").len()["len"].to_list() == [4] * GAMES
        garden = turns.filter(pl.col("tile") != "koi")
        cells = _cells(koi_part, arm, str(GAMES))
        _agrees(cells[2], koi_turns["bird_points"].mean())
        # every game plays as many garden tiles, so the mean of game means is the mean
        _agrees(cells[3], garden["bird_points"].mean())
    mode = _part(md, f"## {tournament_mode.MODE_TITLE}")
    for n in (2, 4):
        per_game = {
            arm: _results(runs, f"{arm}-p{n}").group_by("game_id").agg(pl.col("bird_points").mean())
            for arm in ("standard", "tournament")
        }
        diff = per_game["tournament"].join(per_game["standard"], on="game_id", suffix="_s")
        cells = _cells(mode, f"tournament-p{n} − standard-p{n}", "bird points per side")
        _agrees(cells[3], per_game["standard"]["bird_points"].mean())
        _agrees(cells[5], (diff["bird_points"] - diff["bird_points_s"]).mean())


def test_koi_flower_worth_agrees_with_the_engine_scoring_without_koi(
    runs: Path, tmp_path: Path
) -> None:
    arm = runs / "standard-p3"
    ctx = Context(load_dataset([arm]), tmp_path)
    per_game = koi.koi_per_game(koi.KoiFrames.of(ctx, ctx.data.turns)).sort("game_id")
    results = pl.read_parquet(arm / "results")
    turns = pl.read_parquet(arm / "turns")
    game = GAME.new_game(3, {"tournament": False}, GAME.load_components())
    expected = []
    for game_id in range(10):
        rows = results.filter(pl.col("game_id") == game_id)
        state = GAME.replay(
            game, game_id, rows["game_seed"][0], rows, turns.filter(pl.col("game_id") == game_id)
        )
        added = [
            sum(game.row_points(p, state.flowers, state.koi))
            - sum(game.row_points(p, state.flowers, 0))
            for p in game.side_pagoda
        ]
        expected.append(sum(added) / len(added))
    assert per_game["koi_flowers"].head(10).to_list() == pytest.approx(expected)
    # the koi's shares add up to what the koi add: own + (sides - 1) x other, over 4 koi
    shared = 4 * (per_game["own"] + 2 * per_game["other"])
    assert shared.to_list() == pytest.approx((3 * per_game["koi_flowers"]).to_list())


def test_runs_without_turn_logs_skip_the_turn_based_parts(tmp_path: Path) -> None:
    runs = _experiment(tmp_path, turn_log=False)
    out = tmp_path / "report"
    summary = write_report([runs], out, ["sanssim", "report"])
    arms = "standard-p2; standard-p3; standard-p4; tournament-p2; tournament-p3; tournament-p4"
    assert [(s.section, s.reason) for s in summary.skipped] == [
        ("Game quality", f"no turn log (--no-turn-log) for: {arms}"),
        (f"{koi.KOI_TITLE}: values and timing", "no run has a turn log"),
        (f"{tournament_mode.MODE_TITLE}: koi measures", "no run has a turn log"),
    ]
    md = (out / "report.md").read_text()
    for title in TITLES:
        assert f"## {title}\n" in md
    assert "### Koi drawn (standard game)" in md and "### When the koi are played" not in md
    assert "bird points of a koi play" not in md
    assert not (out / "koi_value.png").exists()
    assert f"- {koi.KOI_TITLE}: values and timing: no run has a turn log" in md
