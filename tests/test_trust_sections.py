"""The paired-comparison and game-quality report sections on small real runs, their numbers
checked against direct computations from the run files."""

from __future__ import annotations

import math
import re
import statistics
from pathlib import Path

import polars as pl
import pytest

from sanssim.analysis import pairs, quality, quality_section, stats
from sanssim.analysis.dataset import load_dataset
from sanssim.analysis.document import Bullets, Para, Table
from sanssim.analysis.report import write_report
from sanssim.analysis.section import Context
from sanssim.runner.config import sweep
from sanssim.runner.executor import LocalExecutor
from sanssim.runner.run import execute, plan

GAMES = 60
NUMBER = r"[+-]?\d+(?:\.\d+)?"


@pytest.fixture(scope="module")
def splendor(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Target 15 and 18, each pooled from seeds 5 and 7 (so their runs pair one to one);
    4 gold tokens on seed 6 without a turn log."""
    root = tmp_path_factory.mktemp("trust") / "splendor"
    runs = {
        "t15-s5": dict(target_points=15, seed=5),
        "t15-s7": dict(target_points=15, seed=7),
        "t18-s5": dict(target_points=18, seed=5),
        "t18-s7": dict(target_points=18, seed=7),
        "gold4-s6": dict(gold_tokens=4, seed=6, turn_log=False),
    }
    with LocalExecutor(1) as executor:
        for name, options in runs.items():
            arms = sweep([2], game="splendor", games=GAMES, strategies="greedy", **options)
            execute(plan(root / name, arms, force=False), executor, ["test"])
    return root


@pytest.fixture(scope="module")
def seikatsu(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four players in two teams, standard and tournament on one seed."""
    root = tmp_path_factory.mktemp("trust") / "seikatsu"
    with LocalExecutor(1) as executor:
        for name, options in {"standard": {}, "tournament": {"tournament": True}}.items():
            arms = sweep([4], game="seikatsu", games=30, seed=3, strategies="greedy", **options)
            execute(plan(root / name, arms, force=False), executor, ["test"])
    return root


def _context(root: Path, out: Path) -> Context:
    return Context(load_dataset([root]), out)


def _tables(blocks: list) -> list[Table]:
    return [b for b in blocks if isinstance(b, Table)]


def _numbers(cell: str) -> list[float]:
    return [float(x) for x in re.findall(NUMBER, cell)]


def _per_game(root: Path, names: list[str], table: str) -> pl.DataFrame:
    """Rows of the named runs with the run's seed, read straight from the Parquet files."""
    frames = [
        pl.read_parquet(root / name / table).with_columns(seed=pl.lit(name.split("-s")[-1]))
        for name in names
    ]
    return pl.concat(frames)


def _labels(section: object) -> dict[str, str]:
    """The changed facet of each pair (`target points`) -> its label in the table (`#2`)."""
    legend = next(b for b in section.blocks if isinstance(b, Bullets)).items
    return {re.search(r"\((.+?):", item).group(1): item.split(":")[0] for item in legend}


def _t_interval(values: list[float]) -> tuple[float, float, float]:
    mean = statistics.fmean(values)
    half = stats.t_quantile(0.975, len(values) - 1) * statistics.stdev(values)
    half /= math.sqrt(len(values))
    return mean, mean - half, mean + half


def _holm(ps: list[float]) -> list[float]:
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    adjusted, running = [0.0] * len(ps), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(ps) - rank) * ps[i]))
        adjusted[i] = running
    return adjusted


# ---------------------------------------------------------------- paired comparisons


def test_pairs_are_arms_differing_in_one_facet_and_say_how_they_pair(
    splendor: Path, tmp_path: Path
) -> None:
    ctx = _context(splendor, tmp_path)
    found = {(p.first, p.second): p for p in pairs.find_pairs(ctx.data)}
    assert set(found) == {
        ("target points 15, gold tokens 5", "target points 18, gold tokens 5"),
        ("target points 15, gold tokens 4", "target points 15, gold tokens 5"),
    }
    target = found["target points 15, gold tokens 5", "target points 18, gold tokens 5"]
    assert (target.facet, target.change, target.seeds) == (
        "target points",
        "15 → 18",
        ((5, 7), (5, 7)),
    )
    section = pairs.build(ctx)
    legend = next(b for b in section.blocks if isinstance(b, Bullets)).items
    same = f"paired: {2 * GAMES} games on the same deals (master seed 5, 7)"
    assert any(same in i for i in legend)
    assert any("unpaired (Welch): different master seeds (6 against 5, 7)" in i for i in legend)
    assert "Paired comparisons: 2 pairs of arms" in section.findings[0]


def test_paired_differences_match_direct_computations(splendor: Path, tmp_path: Path) -> None:
    """Mean score and game length of target 18 − target 15, game by game over both seeds."""
    section = pairs.build(_context(splendor, tmp_path))
    (table,) = _tables(section.blocks)
    label = _labels(section)["target points"]
    rows = {(r[0], r[1]): r for r in table.rows}
    results = _per_game(splendor, ["t15-s5", "t15-s7", "t18-s5", "t18-s7"], "results")
    totals = results.group_by("seed", "game_id", "target_points").agg(pl.col("total").mean())
    turns = _per_game(splendor, ["t15-s5", "t15-s7", "t18-s5", "t18-s7"], "turns")
    target = results.select("run_id", "target_points").unique()
    lengths = turns.join(target, on="run_id").group_by("seed", "game_id", "target_points").len()
    for measure, frame, value in (
        ("mean score", totals, "total"),
        ("game length (turns)", lengths, "len"),
    ):
        wide = frame.pivot("target_points", index=["seed", "game_id"], values=value)
        diffs = (wide["18"] - wide["15"]).cast(pl.Float64).to_list()
        assert len(diffs) == 2 * GAMES
        mean, lo, hi = _t_interval(diffs)
        row = rows[label, measure]
        assert row[2] == str(2 * GAMES)
        got = _numbers(row[5])
        assert got[:3] == pytest.approx([mean, lo, hi], abs=0.006)
        n = len(diffs)
        va, vb = (statistics.variance(wide[t].to_list()) / n for t in ("18", "15"))
        df = (va + vb) ** 2 / (va**2 / (n - 1) + vb**2 / (n - 1))
        welch = stats.t_quantile(0.975, df) * math.sqrt(va + vb)
        ratio = _numbers(row[6])[0]
        assert ratio == pytest.approx((hi - lo) / (2 * welch), abs=0.01)
        assert ratio < 1


def test_holm_runs_over_every_comparison_in_the_table(splendor: Path, tmp_path: Path) -> None:
    section = pairs.build(_context(splendor, tmp_path))
    (table,) = _tables(section.blocks)
    ps = [r[7] for r in table.rows]
    holm = [r[8] for r in table.rows]
    exact = [float(p.split("= ")[1]) for p in ps if "=" in p]
    assert len(exact) >= 3
    adjusted = _holm([float(p.split("= ")[1]) if "=" in p else 0.0 for p in ps])
    for shown, want, raw in zip(holm, adjusted, ps, strict=True):
        if "=" in raw and "=" in shown:
            assert float(shown.split("= ")[1]) == pytest.approx(want, abs=0.002 * len(ps))


def test_unpaired_pair_has_no_length_without_a_turn_log(splendor: Path, tmp_path: Path) -> None:
    section = pairs.build(_context(splendor, tmp_path))
    (table,) = _tables(section.blocks)
    label = _labels(section)["gold tokens"]
    unpaired = [r for r in table.rows if r[0] == label]
    assert [r[1] for r in unpaired] == ["mean score", "seat 0 win rate", "seat 1 win rate"]
    assert all(r[6] == "–" for r in unpaired)


def test_a_single_arm_has_no_pairs(splendor: Path, tmp_path: Path) -> None:
    section = pairs.build(_context(splendor / "t15-s5", tmp_path))
    assert section.blocks == [] and section.findings == []


# ---------------------------------------------------------------- game quality


def _lead_changes(scores: list[tuple[int, int]], sides: int) -> int:
    """Sole-leader changes over one game's (side, running score) turns, ties keep the leader."""
    running, leader, changes = [0] * sides, None, 0
    for side, score in scores:
        running[side] = score
        top = max(running)
        if running.count(top) == 1:
            now = running.index(top)
            changes += leader is not None and now != leader
            leader = now
    return changes


def test_quality_matches_direct_computations(splendor: Path, tmp_path: Path) -> None:
    ctx = _context(splendor, tmp_path)
    section = quality_section.build(ctx)
    (table,) = _tables(section.blocks)
    rows = {r[0]: r for r in table.rows}
    assert set(rows) == {"target points 15, gold tokens 5", "target points 18, gold tokens 5"}
    results = _per_game(splendor, ["t18-s5", "t18-s7"], "results")
    turns = _per_game(splendor, ["t18-s5", "t18-s7"], "turns").sort("seed", "game_id", "turn")
    changes = [
        _lead_changes(list(zip(g["seat"], g["score"], strict=True)), 2)
        for _, g in turns.group_by("seed", "game_id", maintain_order=True)
    ]
    row = rows["target points 18, gold tokens 5"]
    assert row[1] == str(2 * GAMES)
    assert _numbers(row[3]) == pytest.approx(list(_t_interval(changes)), abs=0.006)
    margins = [
        (max(g["total"]) - sorted(g["total"])[-2]) if g["winner"].sum() == 1 else 0
        for _, g in results.group_by("seed", "game_id")
    ]
    assert _numbers(row[5]) == pytest.approx(list(_t_interval(margins)), abs=0.06)
    para = next(b.text for b in section.blocks if isinstance(b, Para))
    assert "it equals card points + noble points: every point is scored during play" in para
    assert [s.reason for s in section.skipped] == [
        "no turn log (--no-turn-log) for: target points 15, gold tokens 4"
    ]


def test_team_games_play_as_sides_and_flowers_come_at_the_end(
    seikatsu: Path, tmp_path: Path
) -> None:
    ctx = _context(seikatsu, tmp_path)
    assert quality_section.teams(ctx.data, ctx.data.arm_labels[0]) == {4: [0, 1, 0, 1]}
    section = quality_section.build(ctx)
    text = " ".join(b.text for b in section.blocks if isinstance(b, Para))
    assert "it equals bird points: flower points come only at the end" in text
    assert "Teams play as one side" in text
    (table,) = _tables(section.blocks)
    results = pl.read_parquet(seikatsu / "standard" / "results")
    sides = results.filter(pl.col("seat") < 2).sort("game_id", "seat")
    margins = (
        sides.group_by("game_id").agg((pl.col("total").max() - pl.col("total").min()).alias("m"))
    )["m"].to_list()
    base = next(r for r in table.rows if r[0] == "base")
    assert _numbers(base[5]) == pytest.approx(list(_t_interval(margins)), abs=0.06)


def test_sanssouci_running_score_is_noble_points(make_run, tmp_path: Path) -> None:
    run = make_run(tmp_path / "ss", games=30)
    data = load_dataset([run])
    found = quality.running_sources(data.turns, data.results, data.game_type.sources)
    assert found == quality.RunningScore(
        ("noble_points",), ("row_bonus", "column_bonus", "mission_points")
    )


def test_both_sections_are_in_the_report(splendor: Path, tmp_path: Path) -> None:
    summary = write_report([splendor], tmp_path / "report", ["sanssim", "report"])
    md = (tmp_path / "report" / "report.md").read_text()
    assert "## Paired comparisons between arms" in md and "## Game quality" in md
    assert {p.name for p in summary.files} >= {"paired_comparisons.png", "game_quality.png"}


def test_only_team_player_counts_are_named_and_a_certain_rate_still_draws(
    tmp_path: Path,
) -> None:
    """Seikatsu's teams cover 4 players only; in these 10 four-player games every winner came
    back from last place, a rate of 100% whose Wilson bound may round below it."""
    with LocalExecutor(1) as executor:
        arms = sweep([2, 4], game="seikatsu", games=10, seed=3, strategies="greedy")
        execute(plan(tmp_path / "runs", arms, force=False), executor, ["test"])
    section = quality_section.build(_context(tmp_path / "runs", tmp_path))
    text = " ".join(b.text for b in section.blocks if isinstance(b, Para))
    assert "in: p4 (sides" in text
    (table,) = _tables(section.blocks)
    assert table.rows[1][-1].startswith("100.0%")
    assert (tmp_path / "game_quality.png").is_file()
