"""The analysis package: statistics against independent computations, run loading and its
errors, and whole reports on run directories written by `sanssim run`."""

from __future__ import annotations

import json
import math
import os
import random
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import polars as pl
import pytest

from sanssim.analysis import figures, fmt, report, stats
from sanssim.analysis.dataset import load_dataset
from sanssim.analysis.document import Figure, Heading, Para, Table, to_html, to_markdown
from sanssim.analysis.errors import ReportError
from sanssim.analysis.report import write_report
from sanssim.analysis.section import Context
from sanssim.errors import SanssimError
from sanssim.games.sanssouci.measures import preprinted_depth, stale_colours
from sanssim.games.sanssouci.missions import build as missions_section
from sanssim.games.sanssouci.missions import holdings
from sanssim.runformat import part_name

# ---------------------------------------------------------------- statistics


def _t_quantile(df: int, p: float = 0.975) -> float:
    """Student t quantile by Simpson integration of the density and bisection."""
    log_c = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)

    def cdf(t: float, steps: int = 4000) -> float:
        h = t / steps
        f = [
            math.exp(log_c - (df + 1) / 2 * math.log1p((i * h) ** 2 / df)) for i in range(steps + 1)
        ]
        return 0.5 + h / 3 * (f[0] + f[-1] + 4 * sum(f[1:-1:2]) + 2 * sum(f[2:-1:2]))

    lo, hi = 0.0, 20.0
    for _ in range(50):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if cdf(mid) < p else (lo, mid)
    return lo


@pytest.mark.parametrize("df", [1, 2, 3, 5, 10, 30, 200])
def test_t_critical_value_matches_integrated_density(df: int) -> None:
    got = pl.select(stats.t_crit(pl.lit(df))).item()
    assert got == pytest.approx(_t_quantile(df), rel=2e-3)


@pytest.mark.parametrize("x", [0.01, 0.5, 2.0, 5.0, 12.0, 40.0])
def test_chi2_survival_matches_closed_forms(x: float) -> None:
    assert stats.chi2_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-9)
    assert stats.chi2_sf(x, 4) == pytest.approx(math.exp(-x / 2) * (1 + x / 2), rel=1e-9)
    assert stats.chi2_sf(x, 1) == pytest.approx(math.erfc(math.sqrt(x / 2)), rel=1e-8)


def test_chi2_goodness_of_fit_on_two_cells_is_the_squared_z_test() -> None:
    stat, df, p = stats.chi2_gof([10, 20], [15, 15])
    z = (10 - 15) / math.sqrt(30 * 0.5 * 0.5)
    assert (stat, df) == (pytest.approx(z * z), 1)
    assert p == pytest.approx(math.erfc(abs(z) / math.sqrt(2)))


def test_between_groups_on_two_groups_is_the_pooled_z_test() -> None:
    ns, means, sds = [40, 60], [10.0, 11.0], [2.0, 3.0]
    pooled = (39 * 4 + 59 * 9) / 98
    z2 = (means[0] - means[1]) ** 2 / (pooled * (1 / 40 + 1 / 60))
    stat, df, p = stats.between_groups(ns, means, sds)
    assert (stat, df) == (pytest.approx(z2), 1)
    assert p == pytest.approx(math.erfc(math.sqrt(z2 / 2)))


@pytest.mark.parametrize(("n", "k"), [(10, 0), (10, 3), (400, 120), (50, 50)])
def test_wilson_bounds_solve_the_score_equation(n: int, k: int) -> None:
    row = pl.DataFrame({"x_n": [n], "x_k": [float(k)]}).select(stats.wilson("x")).row(0, named=True)
    for bound in (row["x_lo"], row["x_hi"]):
        if 0 < bound < 1:
            score = abs(k / n - bound) / math.sqrt(bound * (1 - bound) / n)
            assert score == pytest.approx(stats.Z, rel=1e-9)
    assert row["x_lo"] <= k / n <= row["x_hi"]


def _coverage(frame: pl.DataFrame, truth: float, name: str) -> float:
    inside = (pl.col(f"{name}_lo") <= truth) & (truth <= pl.col(f"{name}_hi"))
    return frame.select(inside.mean()).item()


def test_mean_interval_covers_95_percent_for_small_samples() -> None:
    rng = random.Random(1)
    data = pl.DataFrame(
        {
            "rep": [r for r in range(3000) for _ in range(4)],
            "v": [rng.gauss(5, 2) for _ in range(12000)],
        }
    )
    table = stats.mean_table(data.lazy(), ["rep"], {"v": pl.col("v")})
    assert 0.94 <= _coverage(table, 5.0, "v") <= 0.96


def test_welch_interval_covers_95_percent_with_unequal_variances() -> None:
    rng = random.Random(2)
    rows = [("a", r, rng.gauss(0, 1)) for r in range(3000) for _ in range(5)]
    rows += [("b", r, rng.gauss(1, 4)) for r in range(3000) for _ in range(12)]
    data = pl.DataFrame(rows, schema=["g", "rep", "v"], orient="row").lazy()
    a = stats.mean_table(data.filter(pl.col("g") == "a"), ["rep"], {"a": pl.col("v")})
    b = stats.mean_table(data.filter(pl.col("g") == "b"), ["rep"], {"b": pl.col("v")})
    diffs = a.join(b, on="rep").select(stats.welch_diff("a", "b", "d"))
    assert 0.94 <= _coverage(diffs, -1.0, "d") <= 0.96


def test_two_proportion_interval_covers_95_percent() -> None:
    rng = random.Random(3)
    reps = 3000
    rows = [(r, rng.random() < 0.3, rng.random() < 0.5) for r in range(reps) for _ in range(60)]
    data = pl.DataFrame(rows, schema=["rep", "a", "b"], orient="row").lazy()
    table = stats.rate_table(data, ["rep"], {"a": pl.col("a"), "b": pl.col("b")})
    diffs = table.select(stats.newcombe_diff("a", "b", "d"))
    assert 0.935 <= _coverage(diffs, -0.2, "d") <= 0.965


# ---------------------------------------------------------------- measures and documents


def test_stale_colours_counts_colours_whose_two_squares_match() -> None:
    displays = [
        ["rose_arch", "rose_arch", "statue", "vineyard", None, None, "statue", "statue", "a", "b"],
        ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"],
    ]
    counts = pl.DataFrame({"display": displays}).select(stale_colours()).to_series().to_list()
    assert counts == [2, 0]


def test_html_is_self_contained_and_escaped(tmp_path: Path) -> None:
    png = b"\x89PNG\r\n\x1a\nfake"
    (tmp_path / "f.png").write_bytes(png)
    blocks = [Para("a < b and `x|y`"), Table(["k"], [["1|2"]]), Figure("f.png", "cap")]
    html = to_html(blocks, tmp_path, "t")
    assert "a &lt; b" in html and "<code>x|y</code>" in html
    assert 'src="data:image/png;base64,' in html and 'src="f.png"' not in html
    assert "| 1\\|2 |" in to_markdown(blocks)


def test_intervals_get_the_decimals_their_width_deserves() -> None:
    assert fmt.interval(34.1, 31.6, 36.6) == "34.1 [31.6, 36.6]"
    assert fmt.interval(34.1174, 34.1049, 34.1299) == "34.117 [34.105, 34.130]"
    assert fmt.interval(0.5, -0.25, 1.25, signed=True, unit=" pp") == "+0.5 pp [-0.2, +1.2]"


# ---------------------------------------------------------------- loading runs


def _copy(run: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(run, tmp_path / run.name))


def _edit_manifest(run: Path, **changes: object) -> None:
    manifest = json.loads((run / "manifest.json").read_text())
    manifest.update(changes)
    (run / "manifest.json").write_text(json.dumps(manifest))


def _without_digests(run: Path) -> None:
    """The manifest of a run written before parts carried digests."""
    manifest = json.loads((run / "manifest.json").read_text())
    for part in manifest["parts"]:
        del part["digests"], part["bytes"]
    (run / "manifest.json").write_text(json.dumps(manifest))


def _report_error(paths: list[Path], out: Path) -> str:
    with pytest.raises(ReportError) as info:
        write_report(paths, out, ["sanssim", "report"])
    assert isinstance(info.value, SanssimError)
    message = str(info.value)
    assert "\n" not in message
    return message


def test_bad_run_directories_give_one_line_errors(run_2p: Path, tmp_path: Path) -> None:
    out = tmp_path / "report"
    assert "no such directory" in _report_error([tmp_path / "absent"], out)
    (tmp_path / "empty").mkdir()
    assert "not a run directory" in _report_error([tmp_path / "empty"], out)
    assert "given twice" in _report_error([run_2p, run_2p], out)

    old = _copy(run_2p, tmp_path / "old")
    _edit_manifest(old, schema_version=99)
    assert "schema version 99" in _report_error([old], out)

    unfinished = _copy(run_2p, tmp_path / "unfinished")
    manifest = json.loads((unfinished / "manifest.json").read_text())
    _edit_manifest(unfinished, status="incomplete", parts=manifest["parts"][:1])
    message = _report_error([unfinished], out)
    assert "not complete" in message and f"of {manifest['games']} games" in message

    lying = _copy(run_2p, tmp_path / "lying")
    _edit_manifest(lying, parts=manifest["parts"][:1])
    assert "hold" in _report_error([lying], out)

    broken = _copy(run_2p, tmp_path / "broken")
    (broken / "manifest.json").write_text("{not json")
    assert "unreadable manifest.json" in _report_error([broken], out)

    foreign = _copy(run_2p, tmp_path / "foreign")
    shutil.rmtree(foreign / "results")
    (foreign / "results").mkdir()
    pl.DataFrame({"game_id": [0]}).write_parquet(foreign / "results" / "part-00000.parquet")
    assert "results/part-00000.parquet differs from the manifest" in _report_error([foreign], out)
    _without_digests(foreign)  # an old run: checked by rows, run id and game ids
    assert "results/part-00000.parquet cannot be read" in _report_error([foreign], out)

    (tmp_path / "a-file").write_text("")
    assert "a-file" in _report_error([run_2p], tmp_path / "a-file")

    torn = _copy(run_2p, tmp_path / "torn")
    part = sorted((torn / "turns").glob("*.parquet"))[-1]
    part.write_bytes(part.read_bytes()[:300])
    assert f"turns/{part.name} differs from the manifest" in _report_error([torn], out)


def test_mission_points_by_card_add_up_to_the_results(run_2p: Path, tmp_path: Path) -> None:
    ctx = Context(load_dataset([run_2p]), tmp_path)
    per_player = (
        holdings(ctx)
        .group_by("game_id", "seat")
        .agg(pl.col("points").sum(), pl.col("mission_points").first(), pl.len())
    )
    table = per_player.collect()
    assert table.height == 600 and (table["len"] == 2).all()
    assert (table["points"] == table["mission_points"]).all()


def test_missions_are_split_by_the_preprinted_square_in_their_column(
    run_2p: Path, tmp_path: Path
) -> None:
    """Side 1A pre-prints (2,4) (2,5) (3,0) (4,8) (5,1) (6,7) besides row 1."""
    ctx = Context(load_dataset([run_2p]), tmp_path)
    depth = preprinted_depth(ctx.data).filter(pl.col("garden_side") == "1A").sort("col")
    assert depth["printed"].to_list() == [3, 5, 0, 0, 2, 2, 0, 6, 4]
    table = next(
        b
        for b in missions_section(ctx).blocks
        if isinstance(b, Table) and b.header[0] == "pre-printed square"
    )
    assert [row[0] for row in table.rows] == ["none", *(f"row {r}" for r in range(2, 7))]
    assert sum(int(row[1]) for row in table.rows) == 2 * 2 * 300  # every card held, once


def test_mission_points_by_card_follow_a_house_rule_table(
    tmp_path: Path, make_run: Callable[..., Path]
) -> None:
    run = make_run(tmp_path / "table", "--mission-row-points", "3,3,3,3,0,10", games=30)
    held = holdings(Context(load_dataset([run]), tmp_path / "out")).collect()
    paid = {0: 0, 1: 3, 2: 3, 3: 3, 4: 3, 5: 0, 6: 10}
    assert held["points"].to_list() == [paid[r] for r in held["row"].to_list()]
    per_player = held.group_by("game_id", "seat").agg(
        pl.col("points").sum(), pl.col("mission_points").first()
    )
    assert (per_player["points"] == per_player["mission_points"]).all()


def test_identical_configurations_are_pooled_different_ones_kept_apart(
    tmp_path: Path, make_run: Callable[..., Path]
) -> None:
    a = make_run(tmp_path / "a", games=30, seed=1)
    b = make_run(tmp_path / "b", games=20, seed=9)
    c = make_run(tmp_path / "c", "--expansion", games=25, seed=1)
    pooled = load_dataset([a, b])
    assert pooled.arm_labels == ["all games"] and pooled.arms["games"].to_list() == [50]
    twin = make_run(tmp_path / "twin", games=10, seed=1)
    with pytest.raises(ReportError, match="same design and seed 1"):
        load_dataset([a, twin])
    apart = load_dataset([a, b, c])
    assert dict(zip(apart.arm_labels, apart.arms["games"], strict=True)) == {
        "base": 50,
        "expansion": 25,
    }


# ---------------------------------------------------------------- whole reports


def _check_files(summary_files: list[Path], out: Path) -> str:
    md = (out / "report.md").read_text()
    html = (out / "report.html").read_text()
    pngs = sorted(out.glob("*.png"))
    assert set(summary_files) == {out / "report.md", out / "report.html", *pngs}
    for png in pngs:
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f"]({png.name})" in md
    sources = re.findall(r'src="([^"]*)"', html)
    assert len(sources) == len(pngs) and all(
        s.startswith("data:image/png;base64,") for s in sources
    )
    assert "href=" not in html
    return md


def test_report_on_one_run_has_every_section_and_true_numbers(run_2p: Path, tmp_path: Path) -> None:
    out = tmp_path / "report"
    command = ["sanssim", "report", str(run_2p), "--out", str(out)]
    summary = write_report([run_2p], out, command)
    md = _check_files(summary.files, out)
    assert summary.skipped == [] and summary.games == 300
    for title in ("Mission values", "Variant balance", "Game flow"):
        assert f"## {title}" in md
    assert "## Tile count" not in md  # every arm plays its player count's own tiles
    assert " ".join(command) in md and "- random: random | random" in md
    assert "Played by random in every seat." in md.split("## Key findings")[0]
    results = pl.read_parquet(run_2p / "results")
    mean = results["total"].mean()
    assert re.search(rf"\| final score \| {mean:.1f} \[", md)
    shares = results.group_by("game_id").agg(
        share=(pl.col("winner") & (pl.col("seat") == 0)).sum() / pl.col("winner").sum()
    )
    first = 100 * shares["share"].mean()
    assert re.search(rf"\| all games \| 0 \| 300 \| {first:.1f}% \[", md)


def test_sweep_report_compares_arms_side_by_side(sweep: Path, tmp_path: Path) -> None:
    out = tmp_path / "report"
    summary = write_report([sweep], out, ["sanssim", "report", str(sweep)])
    md = _check_files(summary.files, out)
    assert sorted(summary.arms) == sorted(
        [
            "2p, base, tiles II",
            "2p, duplicate_reshuffle, tiles II",
            "2p, expansion, tiles II",
            "2p, base, tiles II+III",
            "3p, base, tiles II",
            "3p, base, tiles II+III",
        ]
    )
    header = next(line for line in md.splitlines() if line.startswith("| measure |"))
    assert header.count("|") == len(summary.arms) + 2
    games = next(line for line in md.splitlines() if line.startswith("| games |"))
    by_arm = dict(zip(header.split(" | ")[1:], games.strip(" |").split(" | ")[1:], strict=True))
    assert {arm.strip(" |"): int(n) for arm, n in by_arm.items()} == {
        "2p, base, tiles II": 60,
        "2p, duplicate_reshuffle, tiles II": 60,
        "2p, expansion, tiles II": 60,
        "2p, base, tiles II+III": 40,
        "3p, base, tiles II": 40,
        "3p, base, tiles II+III": 60,
    }
    assert "| 2 players: 45 → 63 tiles | Welch |" in md
    assert "| 3 players: 63 → 45 tiles | Welch |" in md
    assert "duplicate_reshuffle: 2p, duplicate_reshuffle, tiles II vs 2p, base, tiles II" in md
    assert "Expansion sides: which side players choose" in md
    assert {s.reason for s in summary.skipped} == {
        "no turn log (--no-turn-log) for: 2p, base, tiles II+III",
    }
    assert "## Skipped" in md


def test_results_only_run_skips_turn_sections_and_says_why(
    tmp_path: Path, make_run: Callable[..., Path]
) -> None:
    run = make_run(tmp_path / "quiet", "--no-turn-log", games=30)
    summary = write_report([run], tmp_path / "report", ["sanssim", "report"])
    md = _check_files(summary.files, tmp_path / "report")
    assert [(s.section, s.reason) for s in summary.skipped] == [
        ("Game quality", "no turn log (--no-turn-log) for: all games"),
        (
            "Variant balance: joker and stale-colour rates",
            "no turn log (--no-turn-log) for: all games",
        ),
        ("Game flow", "no run has a turn log (--no-turn-log)"),
    ]
    assert "## Game flow" not in md and "## Mission values" in md
    assert "- Game flow: no run has a turn log (--no-turn-log)" in md


def test_mixed_line_up_splits_missions_by_strategy_and_qualifies_the_seat_test(
    tmp_path: Path, make_run: Callable[..., Path]
) -> None:
    run = make_run(tmp_path / "mixed", "-s", "random", "-s", "greedy", games=40)
    write_report([run], tmp_path / "report", ["sanssim", "report"])
    md = (tmp_path / "report" / "report.md").read_text()
    assert "### Missions — all games — greedy" in md and "### Missions — all games — random" in md
    assert "seats play different strategies" in md


def test_figures_drawn_by_the_worker_are_the_figures_drawn_in_place(
    run_2p: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    command = ["sanssim", "report", str(run_2p)]
    in_place = write_report([run_2p], tmp_path / "in-place", command)
    monkeypatch.setattr(report, "BACKGROUND_GAMES", 0)
    drawn = write_report([run_2p], tmp_path / "worker", command)
    assert [p.name for p in drawn.files] == [p.name for p in in_place.files]
    for mine, theirs in zip(drawn.files, in_place.files, strict=True):
        assert mine.read_bytes() == theirs.read_bytes(), mine.name


def test_a_figure_the_worker_cannot_write_fails_the_block(tmp_path: Path) -> None:
    series = [figures.Series("arm", [1.0], [0.5], [1.5])]
    with pytest.raises(FileNotFoundError), figures.in_background():
        figures.intervals(tmp_path / "missing" / "f.png", "title", ["a"], series, "x")
    figures.intervals(tmp_path / "f.png", "title", ["a"], series, "x")  # in place again
    assert (tmp_path / "f.png").is_file()


def test_rewriting_a_report_leaves_no_stale_figures(
    sweep: Path, run_2p: Path, tmp_path: Path
) -> None:
    out = tmp_path / "report"
    write_report([sweep], out, ["sanssim", "report"])
    assert (out / "expansion_sides.png").exists()
    summary = write_report([run_2p], out, ["sanssim", "report"], force=True)
    _check_files(summary.files, out)
    assert not (out / "expansion_sides.png").exists()


def test_a_report_replaces_only_a_report_of_the_same_runs(
    sweep: Path, run_2p: Path, tmp_path: Path
) -> None:
    out = tmp_path / "report"
    write_report([sweep], out, ["sanssim", "report"])
    arms = sorted(str(p.parent.resolve()) for p in sweep.glob("*/manifest.json"))
    recorded = json.loads((out / "report.json").read_text())["runs"]
    assert sorted(str((out / r).resolve()) for r in recorded) == arms
    assert all(not Path(r).is_absolute() for r in recorded)  # relative: moves with the runs
    write_report(sorted(sweep.glob("*/")), out, ["sanssim", "report"])  # the same runs, named
    message = _report_error([run_2p], out)
    assert "holds a report of other runs" in message and "--force" in message
    (out / "report.json").unlink()  # a report written before reports recorded their runs
    assert "does not say of which runs" in _report_error([sweep], out)
    write_report([run_2p], out, ["sanssim", "report"], force=True)
    (out / "notes.txt").write_text("mine")
    assert "holds files that are not a report (notes.txt)" in _report_error([run_2p], out)
    write_report([run_2p], out, ["sanssim", "report"], force=True)
    assert (out / "notes.txt").read_text() == "mine"  # --force replaces the report alone
    recorded = json.loads((out / "report.json").read_text())
    assert recorded == {"runs": [os.path.relpath(run_2p.resolve(), out.resolve())]}


def test_redraws_fall_back_to_the_turn_log_without_a_results_column(
    sweep: Path, tmp_path: Path
) -> None:
    run = _copy(sweep / "reshuffle", tmp_path)
    _without_digests(run)  # its parts are rewritten below
    for part in (run / "results").glob("*.parquet"):
        pl.read_parquet(part).drop("reshuffles").write_parquet(part)
    turns = pl.read_parquet(run / "turns")
    per_game = turns.group_by("game_id").agg(pl.col("reshuffles").sum())["reshuffles"].mean()
    write_report([run], tmp_path / "report", ["sanssim", "report"])
    md = (tmp_path / "report" / "report.md").read_text()
    assert f"| duplicate-reshuffle redraws per game | {per_game:.2f} [" in md
    assert "(after refills; setup not logged)" in md


def test_a_tiny_run_still_gives_a_report(tmp_path: Path, make_run: Callable[..., Path]) -> None:
    run = make_run(tmp_path / "tiny", "--expansion", games=2)
    summary = write_report([run], tmp_path / "report", ["sanssim", "report"])
    md = _check_files(summary.files, tmp_path / "report")
    assert "| games | 2 |" in md


def test_a_run_holding_two_designs_is_split_into_two_arms(sweep: Path, tmp_path: Path) -> None:
    merged = _copy(sweep / "p2", tmp_path)
    offset = 1000
    _without_digests(merged)  # merged by hand, as an old run: listed, not digested
    manifest = json.loads((merged / "manifest.json").read_text())
    name = part_name(offset, manifest["chunk_size"])
    rows = {}
    for table in ("results", "turns"):
        frame = pl.read_parquet(sweep / "p3" / table).with_columns(
            pl.col("game_id") + offset, run_id=pl.lit(manifest["run_id"])
        )
        frame.write_parquet(merged / table / f"{name}.parquet")
        rows[table] = frame.height
    p3 = {"name": name, "games": [offset, offset + 59], "rows": rows}
    _edit_manifest(merged, games=120, parts=[*manifest["parts"], p3])
    data = load_dataset([merged])
    assert dict(zip(data.arm_labels, data.arms["games"], strict=True)) == {
        "2p, tiles II": 60,
        "3p, tiles II+III": 60,
    }
    turns = data.turns.group_by("arm").agg(pl.len()).collect()
    assert dict(turns.iter_rows()) == {"2p, tiles II": 60 * 18 * 2, "3p, tiles II+III": 60 * 18 * 3}


def test_key_findings_sum_up_many_arms_and_keep_every_line_in_the_body() -> None:
    from sanssim.analysis.section import MAX_KEY_FINDINGS, Section, key_findings

    lines = [f"finding {k}" for k in range(MAX_KEY_FINDINGS + 2)]
    few = Section([Heading(2, "Few")], findings=lines[:MAX_KEY_FINDINGS])
    assert key_findings(few) == (lines[:MAX_KEY_FINDINGS], [])
    many = Section([Heading(2, "Many")], findings=lines)
    shown, rest = key_findings(many)
    assert shown[:-1] == lines[: MAX_KEY_FINDINGS - 1] and len(shown) == MAX_KEY_FINDINGS
    assert shown[-1] == "3 more findings close the section “Many”." and rest == lines
    summed = Section([Heading(2, "Summed")], findings=lines, summary=["across arms"])
    assert key_findings(summed) == (["across arms"], lines)


def test_a_report_of_many_arms_sums_up_seats_scores_and_quality(sweep: Path, tmp_path: Path):
    out = tmp_path / "report"
    write_report([sweep], out, ["sanssim", "report"])
    md = (out / "report.md").read_text()
    key = md.split("## Key findings")[1].split("\n## ")[0]
    arms = len(list(sweep.glob("*/manifest.json")))
    assert arms > 2
    assert f"- Seats ({arms} arms, " in key and "- Seats, " not in key
    assert f"- Scores ({arms} arms, " in key and "- Scores, " not in key
    body = md.split("## Key findings")[1]
    assert body.count("- Seats, ") == arms  # the per-arm lines close the section


def test_report_colours_are_matplotlibs_tab10_and_tab20() -> None:
    """The palettes spelled out in `section` (so that reports need not import matplotlib for
    them) are matplotlib's own."""
    from matplotlib import colormaps
    from matplotlib.colors import to_hex

    from sanssim.analysis.section import TEN_COLOURS, TWENTY_COLOURS

    assert tuple(to_hex(c) for c in colormaps["tab10"].colors) == TEN_COLOURS
    assert tuple(to_hex(c) for c in colormaps["tab20"].colors) == TWENTY_COLOURS
