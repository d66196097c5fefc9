"""The robustness section: every conclusion per strategy line-up, side by side."""

from __future__ import annotations

import json
import math
import re
import statistics
from dataclasses import replace
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from sanssim.analysis import flipped, interaction, robustness
from sanssim.analysis.dataset import load_dataset
from sanssim.analysis.document import Table
from sanssim.analysis.interaction import Term
from sanssim.analysis.report import write_report
from sanssim.analysis.robustness import Estimate
from sanssim.analysis.stats import t_quantile
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
    assert table[0] == "| conclusion | greedy | heuristic | heuristic − greedy | verdict |"
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
    # the interaction: heuristic's edge minus greedy's, paired game by game (same deals)
    other = pl.read_parquet(runs / "h15" / "results" / "*.parquet")
    first = [
        r.filter(pl.col("seat") == 0)
        .with_columns(share=pl.col("winner").cast(pl.Float64))
        .sort("game_id")["share"]
        .to_list()
        for r in (
            other.with_columns(winner=pl.col("winner") / pl.col("winner").sum().over("game_id")),
            wins.with_columns(winner=pl.col("share")),
        )
    ]
    d = [a - b for a, b in zip(*first, strict=True)]
    mean, half = statistics.mean(d), 2.0 * statistics.stdev(d) / math.sqrt(len(d))
    cell = table[1].split(" | ")[3]
    value, lo, hi = map(float, re.findall(r"[+-]?\d+\.\d+", cell)[:3])
    assert value == pytest.approx(100 * mean, abs=0.06)
    assert (hi - lo) / 2 == pytest.approx(100 * half, rel=0.05)  # t(59) is 2.0 to 1%
    assert "Robustness: " in md.split("## Key findings")[1].split("\n## ")[0]


def test_a_report_of_one_line_up_has_no_robustness_section(report, tmp_path) -> None:
    runs, _ = report
    write_report([runs / "g15", runs / "g18"], tmp_path / "one", ["test"])
    assert "## Robustness" not in (tmp_path / "one" / "report.md").read_text()


def _games(values: list[float], seed: int = 1) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "seed": [seed] * len(values),
            "game_id": list(range(len(values))),
            "game_seed": [100 + i for i in range(len(values))],
            "value": values,
        }
    )


def test_an_interaction_on_shared_deals_is_paired_and_on_others_is_welch() -> None:
    a, b = [1.0, 2.0, 3.0, 4.0], [1.5, 2.0, 3.5, 4.0]
    paired = interaction.interval([Term(1.0, _games(b)), Term(-1.0, _games(a))])
    d = [0.5, 0.0, 0.5, 0.0]  # per game: sd 0.2887, t(3) = 3.1824
    half = 3.182446305284263 * statistics.stdev(d) / 2
    assert paired == pytest.approx((0.25, 0.25 - half, 0.25 + half, 4))
    welch = interaction.interval([Term(1.0, _games(b, seed=2)), Term(-1.0, _games(a))])
    va, vb = statistics.variance(a) / 4, statistics.variance(b) / 4
    df = (va + vb) ** 2 / (va**2 / 3 + vb**2 / 3)
    assert welch[0] == pytest.approx(0.25)
    assert welch[2] - welch[0] == pytest.approx(t_quantile(0.975, df) * math.sqrt(va + vb))
    assert welch[2] - welch[0] > paired[2] - paired[0]  # pairing cancels the deal's luck


def _verdicts(report: tuple[Path, str], tmp_path: Path, changed: str) -> Path:
    """The robustness report's verdicts file with every conclusion held but `changed`'s,
    which the heuristic line-up turns (so the test knows where a marker belongs): reversed
    where the reference has a direction, else significant with an interaction that excludes
    zero. Every other conclusion's verdict differs too, but only in significance, its
    interaction holding zero: no change."""
    runs, _ = report
    document = json.loads((runs.parent / "report" / flipped.VERDICTS).read_text())
    for e in document["conclusions"]:
        e["interaction_verdicts"]["heuristic"] = flipped.UNCLEAR
        ref = e["verdicts"]["greedy"]
        e["verdicts"]["heuristic"] = "(higher)" if ref == flipped.UNCLEAR else flipped.UNCLEAR
        if e["label"] == changed:
            e["verdicts"]["heuristic"] = {"(higher)": "(lower)"}.get(ref, "(higher)")
            e["interaction_verdicts"]["heuristic"] = "(higher)"
    path = tmp_path / "verdicts.json"
    path.write_text(json.dumps(document))
    return path


def test_the_robustness_report_writes_each_conclusion_with_its_verdicts(report) -> None:
    runs, _ = report
    document = json.loads((runs.parent / "report" / flipped.VERDICTS).read_text())
    assert document["game"] == "splendor" and document["reference"] == "greedy"
    by_label = {e["label"]: e for e in document["conclusions"]}
    effect = by_label["target points 15 → 18: first seat's win rate, every design"]
    assert effect["kind"] == "effect" and len(effect["designs"]) == 2
    assert [d["target_points"] for d in effect["designs"]] == ["15", "18"]
    assert set(effect["verdicts"]) == {"greedy", "heuristic"}
    assert effect["interaction"]["heuristic"].startswith("heuristic − greedy ")
    assert effect["interaction_verdicts"]["heuristic"] in {"(higher)", "(lower)", flipped.UNCLEAR}


def test_a_finding_another_line_up_changed_is_marked_where_it_is_stated(report, tmp_path) -> None:
    runs, _ = report
    seat18 = "first seat's edge over 1/players, target points 18"
    verdicts = _verdicts(report, tmp_path, seat18)
    write_report([runs / "g15", runs / "g18"], tmp_path / "r", ["t"], robustness_files=[verdicts])
    md = (tmp_path / "r" / "report.md").read_text()
    marked = [line for line in md.splitlines() if flipped.MARK in line]
    assert len({line for line in marked}) == 1  # the key finding and its repeat, if any
    assert marked[0].startswith("- Seats, g18 ") and seat18 in marked[0]
    assert "Seats, g15 " not in "".join(marked)
    assert str(verdicts) in marked[0]


def test_a_changed_effect_is_marked_on_its_answer_and_nothing_else(report, tmp_path) -> None:
    runs, _ = report
    effect = "target points 15 → 18: mean score, every design"
    verdicts = _verdicts(report, tmp_path, effect)
    write_report([runs / "g15", runs / "g18"], tmp_path / "r", ["t"], robustness_files=[verdicts])
    marked = [
        line
        for line in (tmp_path / "r" / "report.md").read_text().splitlines()
        if flipped.MARK in line
    ]
    assert marked and all(line.startswith("- target points 15 → 18 (g18") for line in marked)
    assert effect in marked[0]
    # held everywhere, or a report played by a line-up the robustness run did not play:
    # no marker
    held = _verdicts(report, tmp_path, "none")
    write_report([runs / "g15", runs / "g18"], tmp_path / "h", ["t"], robustness_files=[held])
    assert flipped.MARK not in (tmp_path / "h" / "report.md").read_text()
    document = json.loads(verdicts.read_text())
    for e in document["conclusions"]:
        e["verdicts"] = {"heuristic": "(higher)", "lookahead": "(lower)"}
    verdicts.write_text(json.dumps(document))
    write_report([runs / "g15", runs / "g18"], tmp_path / "o", ["t"], robustness_files=[verdicts])
    assert flipped.MARK not in (tmp_path / "o" / "report.md").read_text()


def _estimate(value: float, half: float, n: int = 2000) -> Estimate:
    return Estimate(value, value - half, value + half, n, 100.0, " pp")


def test_a_conclusion_changes_only_where_flipped_would_mark_it() -> None:
    """Opposite verdicts, or a verdict that differs with an interaction excluding zero:
    a change; a verdict that differs while the interaction holds zero: significance only;
    one verdict with an interaction that excludes zero: size only."""
    none, up, down = _estimate(0.0, 0.02), _estimate(0.05, 0.02), _estimate(-0.05, 0.02)
    clear, unclear = _estimate(-0.05, 0.03), _estimate(-0.01, 0.03)

    def how(ref: Estimate, other: Estimate, gap: Estimate) -> str | None:
        by = {"a": (ref, [], ("", "", ())), "b": (other, [], ("", "", ()))}
        return robustness._differs(by, {"b": gap}, "a")

    assert how(none, down, clear) == robustness.CHANGES
    assert how(none, down, unclear) == robustness.SIGNIFICANCE_ONLY
    assert how(up, down, unclear) == robustness.CHANGES  # opposite ways
    assert how(down, down, clear) == robustness.SIZE_ONLY
    assert how(down, down, unclear) is None


def test_the_key_findings_open_with_the_conclusions_that_did_not_hold() -> None:
    """The lead: the count that held, then a row per conclusion that did not hold in full,
    changes first, with the reference's estimate and the interaction exactly as the
    section's table shows them (the same decimals), n and interval with each."""
    lineups = ["heuristic", "heuristic-tuned", "ismcts"]
    cells = {
        "edge 2p": [_estimate(0.002, 0.022), _estimate(0.0, 0.022), _estimate(-0.055, 0.022)],
        "edge 3p": [_estimate(0.01, 0.02), _estimate(0.01, 0.02), _estimate(0.01, 0.02)],
        "score 4p": [_estimate(0.07, 0.003), _estimate(0.065, 0.003), _estimate(0.06, 0.003)],
    }
    gaps = {
        "edge 2p": [_estimate(-0.002, 0.028), _estimate(-0.057, 0.03)],
        "edge 3p": [_estimate(0.0, 0.02), _estimate(0.0, 0.02)],
        "score 4p": [_estimate(-0.005, 0.004), _estimate(-0.0116, 0.0043)],
    }
    rows = [
        [label, *(e.text() for e in cells[label]), *(g.text() for g in gaps[label]), "v"]
        for label in cells
    ]
    table = Table(["conclusion", *lineups, "t − h", "i − h", "verdict"], rows, measure=0)
    hows = [robustness.CHANGES, None, robustness.SIZE_ONLY]
    summary, lead = robustness._lead(table, hows, lineups, 2)
    assert summary.text.startswith(
        "Robustness: 2 of 3 conclusions held under every strategy line-up "
        "(heuristic, heuristic-tuned, ismcts); 1 changed: 1 ⚑ changes ("
    )
    assert "in 2 of 3." in summary.text and "significance only" not in summary.text
    assert lead.header[1:] == [
        "heuristic",
        "heuristic-tuned − heuristic",
        "ismcts − heuristic",
        "how",
    ]
    assert [row[0] for row in lead.rows] == ["edge 2p", "score 4p"]
    assert lead.rows[0][1:4] == [table.rows[0][1], *table.rows[0][4:6]]
    assert lead.rows[0][3] == "-5.7 [-8.7, -2.7] pp (lower), n = 2000"
    assert [row[-1] for row in lead.rows] == [robustness.CHANGES, robustness.SIZE_ONLY]
    (held,) = robustness._lead(table, [None] * 3, lineups, 0)
    assert held.text.endswith(
        "held under every strategy line-up (heuristic, heuristic-tuned, "
        "ismcts). The size differs from heuristic's (interaction interval "
        "excludes zero) in 0 of 3."
    )


def test_many_arms_under_several_line_ups_name_the_line_ups_in_one_sentence(
    tmp_path: Path,
) -> None:
    """Past four arms the first screen names the line-ups once (a search with its budget),
    not every arm with its own; the arms table at the end lists each arm's."""
    arms = "".join(
        ARM.format(name=f"{s[0]}{t}", strategy=s, target=t)
        for s in ("greedy", "heuristic")
        for t in (12, 15, 18)
    )
    (tmp_path / "exp.toml").write_text(EXPERIMENT.format(arms=arms).replace("60", "20"))
    ran = CliRunner().invoke(
        main, ["run", "--config", str(tmp_path / "exp.toml"), "--out", str(tmp_path / "runs")]
    )
    assert ran.exit_code == 0, ran.output
    write_report([tmp_path / "runs"], tmp_path / "report", ["test"])
    md = (tmp_path / "report" / "report.md").read_text()
    intro = md.split("## Key findings")[0]
    assert (
        "120 simulated games of Splendor in 6 arms, 20 games per arm: 3 designs at 2 players, "
        "each played by greedy and heuristic, one strategy in every seat; each arm's line-up "
        "is listed in “Arms compared”." in intro
    )
    assert "g12" not in intro and "arm by arm" not in intro
    assert "| g12 | 2 |" in md.split("## Arms compared")[1]
    data = load_dataset([tmp_path / "runs"])
    searched = data.arms.with_columns(
        strategies=pl.col("strategies").str.replace("greedy", "ismcts"),
        lineup=pl.col("lineup").str.replace_all(r"greedy[^|]*", "ismcts:iterations=100,c=0.7 "),
    )
    assert "by heuristic and ismcts (100 iterations), one" in robustness.played(
        replace(data, arms=searched)
    )
