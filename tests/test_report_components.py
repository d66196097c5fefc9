"""Sanssouci reports on component-data variants, and the sample size of every table row when
runs with and without turn logs are pooled."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import polars as pl
import pytest
from positions import default_data, dump_toml

from sanssim.analysis.dataset import load_dataset
from sanssim.analysis.report import write_report
from sanssim.analysis.section import Context
from sanssim.games.sanssouci.mission_ranks import _spearman, component_twins


@pytest.fixture(scope="module")
def two_decks(tmp_path_factory: pytest.TempPathFactory, make_run: Callable[..., Path]) -> Path:
    """The same 2-player design and seed with the packaged deck and with a house deck (two
    jokers instead of the vineyard and labyrinth symbol cards), plus a 3-player arm."""
    root = tmp_path_factory.mktemp("decks")
    data = default_data()
    data["deck"]["cards"] = [
        "joker" if c in ("symbol:vineyard", "symbol:labyrinth") else c
        for c in data["deck"]["cards"]
    ]
    (root / "jokers.toml").write_text(dump_toml(data), encoding="utf-8")
    make_run(root / "runs" / "packaged", games=80, seed=5)
    make_run(root / "runs" / "jokers", "--components", str(root / "jokers.toml"), games=80, seed=5)
    make_run(root / "runs" / "p3", players="3", games=20, seed=5)
    return root / "runs"


def _labels(root: Path) -> dict[str, str]:
    data = load_dataset([root])
    return dict(zip(data.arm_labels, data.arms["components"], strict=True))


def test_arms_differing_only_in_component_data_are_twins(two_decks: Path, tmp_path: Path):
    ctx = Context(load_dataset([two_decks]), tmp_path)
    labels = _labels(two_decks)
    jokers = next(a for a, c in labels.items() if c != "default components")
    packaged = next(a for a in labels if a.startswith("2p") and a != jokers)
    assert component_twins(ctx) == [(jokers, packaged)]


def test_component_data_get_the_one_change_table_and_a_rank_stability_line(
    two_decks: Path, tmp_path: Path
):
    out = tmp_path / "report"
    write_report([two_decks], out, ["sanssim", "report"])
    md = (out / "report.md").read_text()
    jokers = next(a for a, c in _labels(two_decks).items() if c != "default components")
    row = next(line for line in md.splitlines() if line.startswith(f"| components: {jokers} vs"))
    # final score, margin, first player, jokers among symbol cards, stale colours: each a
    # difference with its interval, its verdict and both arms' n
    cells = row.strip(" |").split(" | ")[1:]
    assert len(cells) == 5
    for cell in cells:
        assert re.search(r"^[+-]\d+\.\d+( pp)? \[[+-]\d+\.\d+, [+-]\d+\.\d+\] \(", cell), cell
        assert re.search(r", n = [\d,]+ vs [\d,]+$", cell), cell
    assert "### Mission ranks under other component data" in md
    line = next(x for x in md.splitlines() if x.startswith(f"Mission ranks, {jokers} vs"))
    assert re.search(r"Spearman ρ = -?\d\.\d+ \[-?\d\.\d+, -?\d\.\d+\] over 9 missions", line)
    assert "ranks that change:" in line and "interval excludes zero:" in line
    table = md.split(line, 2)[2].split("\n\n")[1]
    assert table.count("\n") == 2 + 9 - 1  # header, rule and one row per mission


def test_spearman_of_identical_rankings_is_one_and_its_interval_reflects_the_noise():
    means = [float(m) for m in range(9)]
    frame = pl.DataFrame(
        {
            "a_mean": means,
            "b_mean": means,
            "a_sd": [1.0] * 9,
            "b_sd": [1.0] * 9,
            "a_n": [10_000] * 9,
            "b_n": [10_000] * 9,
        }
    )
    assert _spearman(frame) == (pytest.approx(1.0), pytest.approx(1.0), pytest.approx(1.0))
    noisy = frame.with_columns(a_n=pl.lit(4), b_n=pl.lit(4))  # se 0.5 against gaps of 1
    rho, lo, hi = _spearman(noisy)
    assert rho == pytest.approx(1.0) and lo < 0.95 and hi == pytest.approx(1.0)
    reversed_b = frame.with_columns(b_mean=pl.Series(means[::-1]))
    assert _spearman(reversed_b)[0] == pytest.approx(-1.0)


def test_every_row_gives_its_own_n_when_turn_logs_are_pooled_with_results_only(
    tmp_path: Path, make_run: Callable[..., Path]
):
    root = tmp_path / "pooled"
    make_run(root / "logged", games=30, seed=1)
    make_run(root / "quiet", "--no-turn-log", games=50, seed=2)
    out = tmp_path / "report"
    write_report([root], out, ["sanssim", "report"])
    md = (out / "report.md").read_text()
    turns = pl.read_parquet(root / "logged" / "turns")
    symbol_cards = turns.filter(pl.col("card").str.starts_with("symbol:")).height

    def row(label: str) -> str:
        return next(line for line in md.splitlines() if line.startswith(f"| {label} |"))

    assert row("games") == "| games | 80 |"
    assert row("games with a turn log") == "| games with a turn log | 30 |"
    assert row("final score").endswith(", n = 160 |")
    assert row("winning margin (points)").endswith(", n = 80 |")
    assert row("first player's win rate").endswith(", n = 80 |")
    assert row("symbol cards acting as jokers").endswith(f", n = {symbol_cards:,} |")
    assert row("turns starting with a stale colour").endswith(f", n = {turns.height:,} |")
    assert "| all games | 30 of 80 |" in md  # game length: games with a turn log, of all


def test_a_source_some_runs_do_not_record_gives_its_own_n(
    tmp_path: Path, make_run: Callable[..., Path]
):
    root = tmp_path / "pooled"
    make_run(root / "new", "--no-turn-log", games=30, seed=1)
    old = make_run(root / "old", "--no-turn-log", games=20, seed=2)
    manifest = json.loads((old / "manifest.json").read_text())
    for entry in manifest["parts"]:  # an old run: parts without digests, rewritten below
        del entry["digests"], entry["bytes"]
    (old / "manifest.json").write_text(json.dumps(manifest))
    for part in (old / "results").glob("*.parquet"):
        pl.read_parquet(part).drop("row_bonus").write_parquet(part)
    out = tmp_path / "report"
    write_report([root], out, ["sanssim", "report"])
    md = (out / "report.md").read_text()
    sources = md.split("### Points by source", 1)[1]
    row = next(line for line in sources.splitlines() if line.startswith("| all games |"))
    cells = row.strip(" |").split(" | ")
    assert cells[1] == "100"  # players
    # noble points, row bonus, column bonus, mission points (no expansion column: no
    # expansion in these runs)
    assert [c.endswith(", n = 60") for c in cells[2:]] == [False, True, False, False]
    assert "| row bonuses (points) |" in md and "], n = 60 |" in md
