"""What a designer tripped over (issue 19): hand-built cases for each fix."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner

from sanssim.analysis import fmt, paired, pairs, quality
from sanssim.analysis.answers import gap_difference, gap_interval, largest_gap
from sanssim.analysis.document import Table
from sanssim.analysis.quality import margin
from sanssim.analysis.report import write_report
from sanssim.analysis.section import MAX_FINDINGS, Answer, ranked
from sanssim.analysis.stats import mean_table
from sanssim.analysis.tuning.shared import undecided_note
from sanssim.cli import main
from sanssim.games.sanssouci.mission_ranks import paired_differences
from sanssim.games.seikatsu.report import player_count
from sanssim.runner import precision
from sanssim.runner.config import RunError
from sanssim.runner.tournament import tournament_arms


def _margins(rows: list[tuple], teams: dict[int, list[int]] | None = None) -> list[float]:
    """Per game margin from (game_id, seat, total, winner) rows of 4-player games."""
    frame = pl.DataFrame(
        rows, schema=["game_id", "seat", "total", "winner"], orient="row"
    ).with_columns(n_players=pl.lit(4))
    sided = quality.sided(frame.lazy(), teams).collect()
    games = sided.group_by("game_id").agg(margin=margin()).sort("game_id")
    return games["margin"].to_list()


def test_a_top_shared_between_sides_gives_margin_zero() -> None:
    rows = [
        # game 0: a shared win at 20, the best loser 12: margin 0, not 20 - 12
        (0, 0, 20, True), (0, 1, 20, True), (0, 2, 12, False), (0, 3, 5, False),
        # game 1: a sole winner: 18 - 15
        (1, 0, 10, False), (1, 1, 18, True), (1, 2, 15, False), (1, 3, 15, False),
        # game 2: a tie broken by a tie-break: one winner, still margin 0
        (2, 0, 9, False), (2, 1, 9, True), (2, 2, 3, False), (2, 3, 1, False),
    ]  # fmt: skip
    assert _margins(rows) == [0, 3, 0]


def test_teammates_sharing_the_top_total_are_one_side() -> None:
    teams = {4: [0, 1, 0, 1]}
    rows = [
        # game 0: team 0 (seats 0, 2) wins 30 against 25
        (0, 0, 30, True), (0, 1, 25, False), (0, 2, 30, True), (0, 3, 25, False),
        # game 1: both teams at 22, the tie-break gives it to team 1: margin 0
        (1, 0, 22, False), (1, 1, 22, True), (1, 2, 22, False), (1, 3, 22, True),
    ]  # fmt: skip
    assert _margins(rows, teams) == [5, 0]


def test_a_paired_target_splits_hyphenated_arm_names_on_the_arms_that_exist() -> None:
    arms = ["tuned-base", "tuned-reshuffle", "expansion-p4", "base-p4"]
    found = precision.parse(
        ["diff:tuned-base-tuned-reshuffle:mean_total=0.1", "diff:expansion-p4-base-p4:margin=1"],
        arms,
        1000,
    )
    pairs = [(t.arm_a, t.arm_b) for t in found.targets]
    assert pairs == [("tuned-base", "tuned-reshuffle"), ("expansion-p4", "base-p4")]


@pytest.mark.parametrize(
    ("arms", "pair", "message"),
    [
        (["a", "b"], "a-c", "'a-c' is not two arms joined by '-'"),
        (["a", "a-b", "b-c", "c"], "a-b-c", "reads as 'a' - 'b-c' or 'a-b' - 'c'"),
    ],
)
def test_a_paired_target_that_names_no_pair_or_two_is_refused(
    arms: list[str], pair: str, message: str
) -> None:
    with pytest.raises(RunError, match=re.escape(message)):
        precision.parse([f"diff:{pair}:margin=1"], arms, 1000)


def _held(arm: str, points: list[int], seeds: list[int]) -> pl.DataFrame:
    """Two seats holding one mission card each in every deal."""
    return pl.DataFrame(
        {
            "arm": arm,
            "game_id": [g for g in range(len(seeds)) for _ in range(2)],
            "game_seed": [s for s in seeds for _ in range(2)],
            "seat": [0, 1] * len(seeds),
            "mission": ["fountain", "rose"] * len(seeds),
            "points": points,
        }
    )


def test_missions_dealt_alike_are_compared_card_by_card() -> None:
    base = [1, 5, 2, 6, 3, 7, 4, 8]  # deal luck: the points vary a lot from deal to deal
    house = [p + d for p, d in zip(base, [1, 0, 1, 1, 1, 0, 1, 1], strict=True)]
    held = pl.concat([_held("house", house, [9, 8, 7, 6]), _held("base", base, [9, 8, 7, 6])])
    found = paired_differences(held.lazy(), "house", "base").sort("mission")
    fountain = found.row(0, named=True)
    # fountain differences 1, 1, 1, 1: the paired interval is exactly the point
    assert (fountain["d_d"], fountain["d_lo"], fountain["d_hi"]) == (1.0, 1.0, 1.0)
    rose = found.row(1, named=True)
    assert rose["d_d"] == 0.5 and 0 < rose["d_hi"] - rose["d_lo"] < 2.5
    other_deals = pl.concat(
        [_held("house", house, [9, 8, 7, 5]), _held("base", base, [9, 8, 7, 6])]
    )
    assert paired_differences(other_deals.lazy(), "house", "base") is None


def test_a_change_of_line_up_reads_in_the_experiment_order(tmp_path: Path) -> None:
    """Arms listed heuristic first: the change reads heuristic → greedy, although both the
    arms' directory names and their line-ups sort the other way."""
    (tmp_path / "exp.toml").write_text(
        'game = "splendor"\nplayers = 2\ngames = 30\nseed = 3\nturn_log = false\n'
        '[[arm]]\nname = "zz-first"\nstrategy = "heuristic"\n'
        '[[arm]]\nname = "aa-second"\nstrategy = "greedy"\n'
    )
    runs, out = tmp_path / "runs", tmp_path / "report"
    ran = CliRunner().invoke(
        main, ["run", "--config", str(tmp_path / "exp.toml"), "--out", str(runs), "--workers", "1"]
    )
    assert ran.exit_code == 0, ran.output
    write_report([runs], out, ["test"])
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "heuristic → greedy" in md
    assert "greedy → heuristic" not in md
    intro = md.split("## Key findings")[0]
    assert "Played by, arm by arm: aa-second: greedy; zz-first: heuristic." in intro
    first = md.split("## Key findings")[1].split("\n- ")[1].splitlines()[0]  # after the lead
    assert first.startswith("strategies heuristic → greedy (aa-second against zz-first, 30 and 30")
    assert "paired game by game" in first and "first seat's win rate" in first
    assert re.search(
        r"largest seat gap zz-first [\d.]+ \[[\d.]+, [\d.]+\] pp \(seats χ²\(1\)", first
    )
    assert re.search(r"difference [+-][\d.]+ \[[+-][\d.]+, [+-][\d.]+\] pp: ", first)
    key = md.split("## Key findings")[1].split("\n## ")[0]
    assert key.count("\n- ") <= MAX_FINDINGS


def test_the_largest_seat_gap() -> None:
    # three games of three seats: seat 0 wins two, seat 1 one; shares 2/3, 1/3, 0
    shares = np.array([[1.0, 0, 0], [1.0, 0, 0], [0, 1.0, 0]])
    assert largest_gap(shares) == pytest.approx(1 / 3)  # seats 0 and 2 are 1/3 off fair
    estimate, lo, hi = gap_interval(shares.sum(axis=0), len(shares))
    assert estimate == pytest.approx(1 / 3) and lo == 0 and lo <= estimate <= hi


# Known seat rates: fair, one seat off, two seats tied for the largest gap, two seats.
RATES = [
    (0.25, 0.25, 0.25, 0.25),
    (0.30, 0.25, 0.25, 0.20),
    (0.28, 0.22, 0.25, 0.25),
    (0.5, 0.5),
    (0.53, 0.47),
]


def _gap(rates: tuple[float, ...]) -> float:
    return max(abs(p - 1 / len(rates)) for p in rates)


@pytest.mark.parametrize("rates", RATES)
def test_the_largest_seat_gap_interval_covers_the_true_gap(rates) -> None:
    """Games won by seat with known rates, 2,000 games, 1,000 replications: the interval
    holds the true gap at least 95% of the time (at most 1.1 points below that by chance,
    the Monte Carlo error being 0.7 points); measured 95.1% for the fair game (the
    tightest case), 97-99% for the others, where the old bootstrap held 3%."""
    rng = np.random.default_rng(7)
    n = 2000
    wins = rng.multinomial(n, rates, size=1000)
    estimate, lo, hi = gap_interval(wins, n)
    covered = np.mean((lo <= _gap(rates)) & (_gap(rates) <= hi))
    assert covered >= 0.939
    assert np.all((lo <= estimate) & (estimate <= hi))


@pytest.mark.parametrize(
    ("a", "b"), [(RATES[0], RATES[1]), (RATES[2], RATES[2]), (RATES[3], RATES[4])]
)
def test_the_difference_of_largest_gaps_covers_the_true_difference(a, b) -> None:
    rng = np.random.default_rng(8)
    n = 2000
    wins_a, wins_b = rng.multinomial(n, a, size=1000), rng.multinomial(n, b, size=1000)
    _, lo, hi = gap_difference(wins_a, n, wins_b, n)
    true = _gap(b) - _gap(a)
    assert np.mean((lo <= true) & (true <= hi)) >= 0.939


def test_a_clear_gap_difference_is_called():
    """Honest but not blind: 4 seats, 20,000 games, a 7-point gap against a fair arm."""
    n = 20000
    fair = np.array([0.25, 0.25, 0.25, 0.25]) * n
    skewed = np.array([0.32, 0.25, 0.23, 0.20]) * n
    d, lo, hi = gap_difference(fair, n, skewed, n)
    assert d == pytest.approx(0.07) and lo > 0.05 and hi < 0.09


def test_sections_with_nothing_to_say_are_left_out(tmp_path: Path) -> None:
    """One player count: no player-count section; no expansion: no expansion-points column."""
    seikatsu = tmp_path / "seikatsu"
    ran = CliRunner().invoke(
        main, ["run", "--game", "seikatsu", "--players", "3", "--games", "20", "--workers", "1",
               "--strategy", "random", "--out", str(seikatsu)],
    )  # fmt: skip
    assert ran.exit_code == 0, ran.output
    write_report([seikatsu], tmp_path / "seikatsu-report", ["test"])
    md = (tmp_path / "seikatsu-report" / "report.md").read_text(encoding="utf-8")
    assert f"## {player_count.COUNT_TITLE}" not in md
    base = tmp_path / "base"
    ran = CliRunner().invoke(
        main, ["run", "--players", "2", "--games", "20", "--workers", "1", "--strategy", "random",
               "--out", str(base)],
    )  # fmt: skip
    assert ran.exit_code == 0, ran.output
    write_report([base], tmp_path / "base-report", ["test"])
    md = (tmp_path / "base-report" / "report.md").read_text(encoding="utf-8")
    header = next(line for line in md.splitlines() if line.startswith("| arm | players | noble"))
    assert "expansion points" not in header and "mission points" in header


def test_the_precision_summary_reads_shares_in_percent_and_their_differences_in_points() -> None:
    found = precision.parse(
        ["seat0_win=0.01", "diff:a-b:seat0_win=0.01", "margin=0.5"], ["a", "b"], 400
    )
    single, _, pair, mean = found.targets[0], found.targets[1], found.targets[2], found.targets[4]
    r = {"estimate": 0.25, "lo": 0.2412, "hi": 0.2588, "half_width": 0.0088, "n": 9000,
         "target": 0.01, "met": True}  # fmt: skip
    assert precision.achieved_text(single, r) == (
        "a:seat0_win: 25.0% [24.1, 25.9], n = 9,000, half-width 0.88% (target 1%: met)"
    )
    d = {"estimate": -0.004401, "lo": -0.01155, "hi": 0.00275, "half_width": 0.0071, "n": 800,
         "target": 0.01, "met": True}  # fmt: skip
    assert precision.achieved_text(pair, d) == (
        "a-b:seat0_win: -0.4 pp [-1.2, +0.3], n = 800, half-width 0.71 pp (target 1 pp: met)"
    )
    m = {"estimate": 6.4, "lo": 5.9, "hi": 6.9, "half_width": 0.5, "n": 400, "target": 0.5,
         "met": False}  # fmt: skip
    assert precision.achieved_text(mean, m).endswith("(target 0.5: NOT met)")


def test_a_mean_of_counts_has_no_negative_lower_bound() -> None:
    frame = pl.LazyFrame({"arm": ["a"] * 40 + ["b"] * 3, "x": [0] * 39 + [1] + [-1, 0, 2]})
    table = mean_table(frame, ["arm"], {"x": pl.col("x")}).sort("arm")
    a, b = table.row(0, named=True), table.row(1, named=True)
    assert a["x_lo"] == 0.0 and a["x_hi"] > a["x_mean"] > 0  # t interval would reach -0.026
    assert b["x_lo"] < 0  # a value that can be negative keeps its interval


def test_a_difference_that_is_zero_in_every_game_says_so() -> None:
    row = {"metric": "mean_total", "n_a": 400, "mean_a": 12.6, "mean_b": 12.6, "diff": 0.0,
           "lo": 0.0, "hi": 0.0, "width_ratio": 0.0, "p": float("nan"), "holm": None}  # fmt: skip
    cells = pairs._row("#1", row)
    assert cells[5] == "the same in every game" and cells[6] == "–"


def test_show_names_a_long_spec_shared_by_every_seat_once(tmp_path: Path) -> None:
    spec = "heuristic:mission=1.5,path=2.5"
    out = tmp_path / "run"
    ran = CliRunner().invoke(
        main, ["run", "--players", "4", "--games", "2", "-s", spec, "--workers", "1",
               "--out", str(out)],
    )  # fmt: skip
    assert ran.exit_code == 0, ran.output
    shown = CliRunner().invoke(main, ["show", str(out), "--game", "1", "--turn", "9", "--explain"])
    assert shown.exit_code == 0, shown.output
    assert shown.output.count("mission=1.5") == 1
    assert re.search(r"^seats 0, 1, 2, 3: heuristic:\S*mission=1\.5", shown.output, re.M)


def test_tournament_arms_keep_the_strategy_s_own_name() -> None:
    arms = tournament_arms(["heuristic", "heuristic-tuned"], 2, games=10, seed=1)
    names = [a.name for a in arms]
    assert names == ["00-heuristic-heuristic-tuned", "01-heuristic-tuned-heuristic"]


def test_a_tune_that_cannot_decide_says_how_many_games_would() -> None:
    data = {"objective": {"kind": "against"}, "final": {"seeds": [1, 2]}}
    diff = {"estimate": 0.01, "lo": -0.02, "hi": 0.04, "n": 1000, "verdict": "no clear difference"}
    # half-width 0.03 on 1,000 deals; ±0.01 needs 9 times the deals: 8,000 more, 2 games each
    assert undecided_note(data, diff) == (
        ": about 16,000 more games per finalist would be needed for ±1 pp"
    )
    assert undecided_note(data, {**diff, "lo": 0.001, "verdict": "better"}) == ""


def test_a_table_gives_each_measure_one_number_of_decimals() -> None:
    """Issue 19: not "11.083%" beside "11.21%": a column's estimates share one count, what
    the narrowest interval needs but at most one more than the widest needs; a zero-width
    interval, text and another unit keep their own; a verdict stays after the numbers."""
    narrow = fmt.interval(11.0831, 11.045, 11.122, unit="%")
    wide = fmt.interval(11.2123, 11.14, 11.28, unit="%")
    assert (narrow, wide) == ("11.083% [11.045, 11.122]", "11.21% [11.14, 11.28]")
    rare = fmt.interval(0.0025, 0.0, 0.0074)
    common = fmt.interval(0.5487, 0.4730, 0.6245)
    points = fmt.diff({"x_d": 0.3, "x_lo": -0.123, "x_hi": 0.5}, "x")
    table = Table(
        ["a", "b", "c"],
        [[narrow, rare, points], [wide, common, "–"], ["0% in every game", "x", fmt.pct(
            {"s_p": 0.5, "s_lo": 0.4, "s_hi": 0.6}, "s")]],
    )  # fmt: skip
    assert [row[0] for row in table.rows] == [
        "11.083% [11.045, 11.122]", "11.212% [11.140, 11.280]", "0% in every game"
    ]  # fmt: skip
    assert [row[1] for row in table.rows] == ["0.003 [0.000, 0.007]", "0.549 [0.473, 0.625]", "x"]
    assert table.rows[0][2] == "+0.30 [-0.12, +0.50] (no clear difference)"
    assert table.rows[2][2] == "50.0% [40.0, 60.0]"  # a share beside points keeps its own


def test_rows_of_measures_and_columns_alike_share_their_decimals() -> None:
    a, b = fmt.interval(1.234, 1.2, 1.27), fmt.interval(5.1, 4.0, 6.2)
    c, d = fmt.interval(3.0, 2.0, 4.0), fmt.interval(8.21, 8.2, 8.22)
    by_row = Table(["measure", "A", "B"], [["score", a, b], ["turns", c, d]], measure=0)
    assert by_row.rows == [["score", "1.23 [1.20, 1.27]", "5.10 [4.00, 6.20]"],
                           ["turns", "3.00 [2.00, 4.00]", "8.21 [8.20, 8.22]"]]  # fmt: skip
    alike = Table(["arm", "seat 0", "seat 1"], [["x", a, b]], alike=(1, 2))
    assert alike.rows == [["x", "1.23 [1.20, 1.27]", "5.10 [4.00, 6.20]"]]


def test_a_value_every_game_shared_is_said_so() -> None:
    row = {"t_mean": 72.0, "t_lo": 72.0, "t_hi": 72.0, "t_sd": 0.0, "t_n": 40}
    assert fmt.ci(row, "t") == "72 in every game"


def test_answers_rank_by_size_and_a_verdict_is_never_cut() -> None:
    given = [Answer("none", 0.0), Answer("verdict"), Answer("big", 3.1), Answer("small", 0.2),
             Answer("also none", 0.0)]  # fmt: skip
    shown, left = ranked(given, 5)
    assert [a.text for a in shown] == ["big", "small", "none", "also none", "verdict"]
    shown, left = ranked(given, 2)  # the verdict is never left over
    assert [a.text for a in shown] == ["big", "verdict"]
    assert [a.text for a in left] == ["small", "none", "also none"]


def test_an_effect_counts_only_when_its_interval_excludes_zero() -> None:
    a = pl.DataFrame({"game_id": range(6), "seat": [0] * 6, "total": [10, 11, 12, 10, 11, 12],
                      "winner": [True] * 6, "n_players": [1] * 6})  # fmt: skip
    b = a.with_columns(pl.col("total") + 3)
    table = {r["metric"]: r for r in paired.compare(b, a).table.iter_rows(named=True)}
    assert paired.effect_size(table["mean_total"]) == pytest.approx(3 / 0.8944, rel=1e-3)
    assert paired.effect_size(table["seat0_win"]) == 0.0  # no difference, no size


def test_a_tournament_measure_that_never_varies_has_no_width_ratio() -> None:
    from sanssim.games.seikatsu.report.tournament_mode import _mode_row

    same = {"diff": 0.0, "lo": 0.0, "hi": 0.0, "welch_lo": 0.0, "welch_hi": 0.0,
            "width_ratio": float("nan"), "n_a": 40, "mean_a": 1.0, "mean_b": 1.0}  # fmt: skip
    row = _mode_row("t", "s", "koi", False, same)
    assert row[5:] == ["the same in every game", "–", "–"]
