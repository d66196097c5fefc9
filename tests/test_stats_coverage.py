"""Coverage by simulation: every interval the reports print must contain a known truth in
95% +- 1.5% of replications. Data are synthetic, numpy-vectorised and seeded, so the tests
are deterministic; the naive intervals are measured too, and must fail, to show the checks
can. `python tests/test_stats_coverage.py` prints every figure (docs/statistics.md)."""

from __future__ import annotations

import math
import time

import numpy as np
import polars as pl
import pytest

from sanssim.analysis import clustered, multiple, paired, precision, quality
from sanssim.analysis.stats import (
    diff_of_means,
    mean_table,
    rate_table,
    ratio_table,
    t_quantile,
    t_two_sided_p,
    wilson,
)

REPS = 4000
BAND = (0.935, 0.965)


def _covered(lo: np.ndarray, hi: np.ndarray, truth: float | np.ndarray) -> float:
    return float(np.mean((lo <= truth) & (truth <= hi)))


def _skewed_totals(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    """Integer scores shaped like game totals: mean 40, sd 21, skewness 1."""
    return rng.negative_binomial(4, 4 / 44, shape).astype(float)


# Wilson and t intervals of stats.py


def measure_wilson() -> dict[str, float]:
    rng = np.random.default_rng(11)
    cases = [(100, 0.25), (300, 0.2), (100, 0.4), (250, 0.15)]
    frames = [
        pl.DataFrame({"case": i, "x_n": n, "x_k": rng.binomial(n, p, REPS).astype(float)})
        for i, (n, p) in enumerate(cases)
    ]
    got = pl.concat(frames).with_columns(wilson("x"))
    truth = np.repeat([p for _, p in cases], REPS)
    return {
        f"Wilson n={n} p={p}": _covered(part["x_lo"].to_numpy(), part["x_hi"].to_numpy(), p)
        for (n, p), part in zip(cases, got.partition_by("case", maintain_order=True), strict=True)
    } | {"Wilson all": _covered(got["x_lo"].to_numpy(), got["x_hi"].to_numpy(), truth)}


def measure_t() -> dict[str, float]:
    rng = np.random.default_rng(12)
    out = {}
    for n in (30, 200):
        x = _skewed_totals(rng, (REPS, n))
        frame = pl.LazyFrame({"rep": np.repeat(np.arange(REPS), n), "x": x.ravel()})
        table = mean_table(frame, ["rep"], {"x": pl.col("x")})
        out[f"t mean, skewed totals, n={n}"] = _covered(
            table["x_lo"].to_numpy(), table["x_hi"].to_numpy(), 40.0
        )
    return out


def test_wilson_covers():
    for name, c in measure_wilson().items():
        assert BAND[0] <= c <= BAND[1], (name, c)


def test_t_interval_covers_skewed_integer_scores():
    for name, c in measure_t().items():
        assert BAND[0] <= c <= BAND[1], (name, c)


# Paired comparisons


def _two_arms(rng: np.random.Generator, reps: int, games: int) -> tuple[pl.DataFrame, ...]:
    """Two-seat games; the deal adds the same luck to both arms' seats; arm a's seat 0 plays
    3 points better. Each replication is its own `n_players` group, so one `compare` call
    gives every replication's interval."""
    shape = (reps, games)
    deal = 25 * rng.standard_normal(shape)[..., None] + _skewed_totals(rng, (*shape, 2))
    arms = []
    for bonus in (3.0, 0.0):
        totals = np.round(deal + 4 * rng.standard_normal((*shape, 2)))
        totals[..., 0] += bonus
        best = totals.max(axis=-1, keepdims=True)
        arms.append(
            pl.DataFrame(
                {
                    "game_id": np.repeat(np.arange(reps * games), 2),
                    "game_seed": np.repeat(np.arange(reps * games), 2),
                    "n_players": np.repeat(np.arange(reps), 2 * games),
                    "seat": np.tile([0, 1], reps * games),
                    "total": totals.ravel(),
                    "winner": (totals == best).ravel(),
                }
            )
        )
    return tuple(arms)


def _truth_win_gap() -> float:
    """Seat 0's win-share gap between the arms, by a million paired games."""
    a, b = _two_arms(np.random.default_rng(99), 1, 1_000_000)
    share = pl.col("winner") / pl.col("winner").sum().over("game_id")
    wa, wb = (f.with_columns(w=share).filter(seat=0)["w"].mean() for f in (a, b))
    return wa - wb


def measure_paired() -> dict[str, float]:
    a, b = _two_arms(np.random.default_rng(13), REPS, 100)
    result = paired.compare(a, b)
    assert result.paired, result.reason
    table = result.table
    total = table.filter(metric="mean_total")
    win = table.filter(metric="seat0_win")
    return {
        "paired t, mean total": _covered(total["lo"].to_numpy(), total["hi"].to_numpy(), 1.5),
        "paired t, seat 0 win share": _covered(
            win["lo"].to_numpy(), win["hi"].to_numpy(), _truth_win_gap()
        ),
        "Welch, mean total (same data)": _covered(
            total["welch_lo"].to_numpy(), total["welch_hi"].to_numpy(), 1.5
        ),
        "median paired/Welch width": float(total["width_ratio"].median()),
    }


def test_paired_interval_covers_and_is_narrower():
    got = measure_paired()
    for name in ("paired t, mean total", "paired t, seat 0 win share"):
        assert BAND[0] <= got[name] <= BAND[1], (name, got[name])
    assert got["median paired/Welch width"] < 0.5


# Clustered tournament intervals


def _meetings(rng: np.random.Generator, reps: int, games: int) -> pl.DataFrame:
    """Four-player games, strategy A in two seats and B in two: four A-B meetings per game,
    correlated through a per-game swing in A's form and through shared seats."""
    swing = rng.standard_normal((reps, games, 1))
    a = 0.3 + swing + rng.standard_normal((reps, games, 2))
    b = rng.standard_normal((reps, games, 2))
    points = (a[..., :, None] > b[..., None, :]).astype(float).reshape(reps, games, 4)
    return pl.DataFrame(
        {
            "game_id": np.repeat(np.arange(reps * games), 4),
            "strategy": np.repeat(np.arange(reps), games * 4),
            "opponent": -1,
            "points": points.ravel(),
        }
    )


def measure_clustered() -> dict[str, float]:
    truth = _meetings(np.random.default_rng(98), 1, 1_000_000)["points"].mean()
    out = {}
    for games in (30, 200):
        meets = _meetings(np.random.default_rng(14 + games), REPS, games)
        robust = clustered.pairwise(meets.lazy())
        naive = rate_table(meets.lazy(), ["strategy"], {"win": pl.col("points")})
        out[f"clustered, {games} games"] = _covered(
            robust["win_lo"].to_numpy(), robust["win_hi"].to_numpy(), truth
        )
        out[f"naive Wilson on meetings, {games} games"] = _covered(
            naive["win_lo"].to_numpy(), naive["win_hi"].to_numpy(), truth
        )
    return out


def test_clustered_interval_covers_correlated_meetings():
    got = measure_clustered()
    for games in (30, 200):
        c = got[f"clustered, {games} games"]
        assert BAND[0] <= c <= BAND[1], (games, c)


def test_naive_interval_under_covers_correlated_meetings():
    got = measure_clustered()
    assert got["naive Wilson on meetings, 200 games"] < 0.9


# Ratios over clustered rows (stats.ratio_table)


def _ratio_rows(rng: np.random.Generator, clusters: int) -> pl.DataFrame:
    """Clusters of 1-4 rows: den uniform on 1-6, num = 0.5 den + a per-cluster effect +
    noise, so the ratio's truth is 0.5 and rows of a cluster are correlated."""
    sizes = rng.integers(1, 5, REPS * clusters)
    effect = np.repeat(rng.normal(0, 1, REPS * clusters), sizes)
    den = rng.integers(1, 7, len(effect)).astype(float)
    return pl.DataFrame(
        {
            "rep": np.repeat(np.repeat(np.arange(REPS), clusters), sizes),
            "g": np.repeat(np.tile(np.arange(clusters), REPS), sizes),
            "den": den,
            "num": 0.5 * den + effect + rng.normal(0, 1, len(effect)),
        }
    )


def measure_ratio() -> dict[str, float]:
    out = {}
    ratio = {"r": (pl.col("num"), pl.col("den"))}
    for clusters in (30, 100):
        rows = _ratio_rows(np.random.default_rng(20 + clusters), clusters)
        robust = ratio_table(rows.lazy(), ["rep"], ["g"], ratio)
        naive = ratio_table(rows.with_row_index("row").lazy(), ["rep"], ["row"], ratio)
        for name, table in (
            ("cluster-robust ratio", robust),
            ("ratio, rows as independent", naive),
        ):
            out[f"{name}, {clusters} clusters"] = _covered(
                table["r_lo"].to_numpy(), table["r_hi"].to_numpy(), 0.5
            )
    return out


def test_ratio_interval_covers_clustered_rows():
    got = measure_ratio()
    for clusters in (30, 100):
        c = got[f"cluster-robust ratio, {clusters} clusters"]
        assert BAND[0] <= c <= BAND[1], (clusters, c)
    assert got["ratio, rows as independent, 100 clusters"] < 0.9


# Sequential stopping


def _sequential(
    values: np.ndarray,
    kind: precision.Kind,
    truth: float,
    target: float,
    looks: list[int],
    level: float = precision.LEVEL,
) -> tuple[float, float]:
    """Coverage and mean games of the interval reported when the rule stops."""
    s1, s2 = np.cumsum(values, axis=1), np.cumsum(values * values, axis=1)
    reps = len(values)
    lo, hi, games = np.empty(reps), np.empty(reps), np.zeros(reps)
    open_ = np.ones(reps, dtype=bool)
    for i, n in enumerate(looks):
        centre, half = precision.interval(kind, n, s1[:, n - 1], s2[:, n - 1], level)
        stop = open_ & ((half <= target) | (i == len(looks) - 1))
        lo[stop], hi[stop], games[stop] = centre[stop] - half[stop], centre[stop] + half[stop], n
        open_ &= ~stop
    return _covered(lo, hi, truth), float(games.mean())


def _scenarios(rng: np.random.Generator, cap: int) -> list[tuple[str, np.ndarray, str, float]]:
    """Per-game outcomes with known truths: win shares, skewed totals, paired differences of
    win shares (seat 0 wins 45% in arm a and 40% in b, same deals)."""
    shape = (REPS, cap)
    a_wins = rng.random(shape) < 0.45
    b_wins = rng.random(shape) < np.where(a_wins, 0.8, 0.04 / 0.55)
    diff = a_wins.astype(float) - b_wins
    return [
        ("win share p=0.1", (rng.random(shape) < 0.1).astype(float), "rate", 0.1),
        ("win share p=0.3", (rng.random(shape) < 0.3).astype(float), "rate", 0.3),
        ("skewed totals", _skewed_totals(rng, shape), "mean", 40.0),
        ("paired win-share difference", diff, "mean", 0.05),
    ]


def _expected_half(values: np.ndarray, kind: str, truth: float, n: int) -> float:
    sd = math.sqrt(truth * (1 - truth)) if kind == "rate" else float(values.std())
    return 1.96 * sd / math.sqrt(n)


def measure_sequential(level: float = precision.LEVEL) -> dict[str, tuple[float, float]]:
    """Targets set to the expected half-width at 200, 250, 400 and 800 games: at a look
    about half the replications stop (the hardest case for a width-based rule), between
    looks the stop waits for a lucky narrow sample."""
    rule = precision.Rule(first=200, cap=1600, level=level)
    out = {}
    for name, values, kind, truth in _scenarios(np.random.default_rng(15), rule.cap):
        for n in (200, 250, 400, 800):
            target = _expected_half(values, kind, truth, n)
            out[f"{name}, target met near {n}"] = _sequential(
                values, kind, truth, target, rule.looks(), rule.level
            )
    return out


def measure_naive_sequential() -> dict[str, tuple[float, float]]:
    """Looks after every 10 games from the 10th, plain 95% intervals."""
    looks = list(range(10, 1601, 10))
    out = {}
    for name, values, kind, truth in _scenarios(np.random.default_rng(16), 1600):
        target = _expected_half(values, kind, truth, 50)
        out[f"naive: {name}, target met near 50"] = _sequential(values, kind, truth, target, looks)
    return out


def test_stopping_rule_covers():
    for name, (c, _) in measure_sequential().items():
        assert BAND[0] <= c <= BAND[1], (name, c)


def test_naive_sequential_stopping_under_covers():
    got = measure_naive_sequential()
    assert got["naive: paired win-share difference, target met near 50"][0] < 0.9
    assert got["naive: win share p=0.3, target met near 50"][0] < BAND[0]


def test_bonferroni_over_the_looks_over_covers():
    """Why the rule keeps the plain 95% level: splitting alpha over its 4 looks wastes games."""
    got = measure_sequential(level=1 - 0.05 / 4)
    assert min(c for c, _ in got.values()) > BAND[1]


# Hand-made games and frames with hand-computed answers


def _turns(scores: list[tuple[int, int]], n_players: int, game_id: int = 0) -> pl.DataFrame:
    """Turn log from (seat, acting side's running score) per turn."""
    return pl.DataFrame(
        {
            "game_id": game_id,
            "turn": range(len(scores)),
            "round": [t // n_players + 1 for t in range(len(scores))],
            "seat": [seat for seat, _ in scores],
            "score": [score for _, score in scores],
        }
    )


def _results(totals: list[int], winners: list[bool], game_id: int = 0) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "game_id": game_id,
            "seat": range(len(totals)),
            "total": totals,
            "winner": winners,
            "n_players": len(totals),
        }
    )


def _quality(turns, results, teams=None) -> dict:
    return quality.per_game(turns, results, teams).row(0, named=True)


def test_quality_two_players():
    # Running scores (seat 0, seat 1): 2-0, 2-5, 6-5, 6-6, 7-6, 7-10. Leaders 0, 1, 0, (tie),
    # 0, 1: three changes. Seat 1 wins 12-7, was 2 behind at worst (turn 0) and led for good
    # only after the last turn; it was last in round 2 (turn 2).
    got = _quality(
        _turns([(0, 2), (1, 5), (0, 6), (1, 6), (0, 7), (1, 10)], 2),
        _results([7, 12], [False, True]),
    )
    assert got == pytest.approx(
        {
            "game_id": 0,
            "n_players": 2,
            "turns": 6,
            "lead_changes": 3,
            "worst_deficit": 2.0,
            "margin": 5.0,
            "drama": 2 / 7,
            "decisiveness": 1 / 6,
            "comeback": 1.0,
        }
    )


def test_quality_three_players_with_tied_leads():
    # (3,0,0) lead 0; (3,3,0) and (3,3,1) tied top, no leader; round 2: (3,3,1) seat 2 alone
    # last; (3,5,1) lead 1 (change 1); (3,5,6) lead 2 (change 2). Seat 2 wins 12 to 10 after
    # trailing by 4 at turn 4.
    got = _quality(
        _turns([(0, 3), (1, 3), (2, 1), (0, 3), (1, 5), (2, 6)], 3),
        _results([10, 8, 12], [False, False, True]),
    )
    assert got["lead_changes"] == 2
    assert got["worst_deficit"] == 4.0
    assert got["margin"] == 2.0
    assert got["drama"] == pytest.approx(4 / 6)
    assert got["decisiveness"] == pytest.approx(1 / 6)
    assert got["comeback"] == 1.0


def test_quality_teams_share_a_running_score():
    # Teams {0, 2} and {1, 3}. Team scores after each turn: 2-0, 2-1, 4-1, 4-4, 4-4, 4-7,
    # 8-7, 8-7. Leader team 0 until the ties, team 1 at turn 5, team 0 from turn 6: two
    # changes. Team 0 wins 20-15, 3 behind at worst, leading for good over the last 2 of 8
    # turns, alone last at turn 5 (round 2).
    turns = _turns([(0, 2), (1, 1), (2, 4), (3, 4), (0, 4), (1, 7), (2, 8), (3, 7)], 4)
    results = _results([20, 15, 20, 15], [True, False, True, False])
    got = _quality(turns, results, teams={4: [0, 1, 0, 1]})
    assert got["lead_changes"] == 2
    assert got["worst_deficit"] == 3.0
    assert got["margin"] == 5.0
    assert got["drama"] == pytest.approx(3 / 8)
    assert got["decisiveness"] == pytest.approx(2 / 8)
    assert got["comeback"] == 1.0


def test_quality_shared_win_averages_over_the_winners():
    # 1-0, 1-2, 3-2, 3-3; both win at 10-10. Each winner was 1 behind at worst, the margin is
    # 0 (drama 1), neither leads after the tied last turn; only seat 1 was last in round 2.
    got = _quality(_turns([(0, 1), (1, 2), (0, 3), (1, 3)], 2), _results([10, 10], [True, True]))
    assert got["lead_changes"] == 2
    assert (got["worst_deficit"], got["margin"], got["drama"]) == (1.0, 0.0, 1.0)
    assert got["decisiveness"] == 0.0
    assert got["comeback"] == 0.5


def test_quality_summary_per_player_count():
    turns = pl.concat(
        [
            _turns([(0, 2), (1, 5), (0, 6), (1, 6), (0, 7), (1, 10)], 2, game_id=0),
            _turns([(0, 1), (1, 2), (0, 3), (1, 3)], 2, game_id=1),
        ]
    )
    results = pl.concat([_results([7, 12], [False, True], 0), _results([10, 10], [True, True], 1)])
    row = quality.summary(quality.per_game(turns, results)).row(0, named=True)
    assert row["lead_changes_mean"] == 2.5
    assert row["comeback_p"] == 0.75
    assert row["margin_lo"] < row["margin_mean"] == 2.5 < row["margin_hi"]


def _arm(totals: list[list[int]], winners: list[list[int]], seed_shift: int = 0) -> pl.DataFrame:
    rows = [
        {
            "game_id": g,
            "game_seed": 100 + g + seed_shift,
            "n_players": len(ts),
            "seat": s,
            "total": t,
            "winner": bool(w),
        }
        for g, (ts, ws) in enumerate(zip(totals, winners, strict=True))
        for s, (t, w) in enumerate(zip(ts, ws, strict=True))
    ]
    return pl.DataFrame(rows)


ARM_A = _arm([[10, 20], [30, 10], [15, 15]], [[0, 1], [1, 0], [1, 1]])
ARM_B = _arm([[8, 18], [20, 12], [14, 10]], [[0, 1], [1, 0], [1, 0]])


def test_paired_comparison_by_hand():
    # Mean totals per game: a 15, 20, 15; b 13, 16, 12; differences 2, 4, 3: mean 3, sd 1.
    got = paired.compare(ARM_A, ARM_B)
    assert got.paired and got.games_a == got.games_b == 3
    total = got.table.filter(metric="mean_total").row(0, named=True)
    half = t_quantile(0.975, 2) / math.sqrt(3)
    assert total["diff"] == pytest.approx(3.0)
    assert (total["lo"], total["hi"]) == pytest.approx((3 - half, 3 + half))
    assert total["p"] == pytest.approx(t_two_sided_p(3 / (1 / math.sqrt(3)), 2))
    welch = mean_table(
        paired.per_game(ARM_A)
        .with_columns(arm=pl.lit("a"))
        .vstack(paired.per_game(ARM_B).with_columns(arm=pl.lit("b")))
        .lazy(),
        ["arm"],
        {"x": pl.col("mean_total")},
    )
    _, lo, hi = diff_of_means(welch.row(0, named=True), welch.row(1, named=True), "x")
    assert (total["welch_lo"], total["welch_hi"]) == pytest.approx((lo, hi))
    assert total["width_ratio"] == pytest.approx(2 * half / (hi - lo))
    # Seat 0's win shares: a 0, 1, 1/2 (shared win); b 0, 1, 1.
    seat0 = got.table.filter(metric="seat0_win").row(0, named=True)
    assert (seat0["mean_a"], seat0["mean_b"], seat0["diff"]) == pytest.approx((0.5, 2 / 3, -1 / 6))


def test_paired_comparison_falls_back_to_welch_on_other_deals():
    got = paired.compare(ARM_A, ARM_B.with_columns(game_seed=pl.col("game_seed") + 7))
    assert not got.paired and "not paired" in got.reason
    row = got.table.filter(metric="mean_total").row(0, named=True)
    assert row["paired_lo"] is None and row["width_ratio"] is None
    assert (row["lo"], row["hi"]) == (row["welch_lo"], row["welch_hi"])


def test_paired_length_metric():
    a = ARM_A.with_columns(turns=pl.col("game_id") + 30)
    b = ARM_B.with_columns(turns=pl.col("game_id") + 31)
    row = paired.compare(a, b, length="turns").table.filter(metric="length").row(0, named=True)
    assert row["diff"] == -1.0


def test_paired_extra_metric():
    # Top totals per game: a 20, 30, 15; b 18, 20, 14; differences 2, 10, 1.
    got = paired.compare(ARM_A, ARM_B, extra={"top": pl.col("total").max()})
    row = got.table.filter(metric="top").row(0, named=True)
    assert (row["mean_a"], row["mean_b"], row["diff"]) == pytest.approx((65 / 3, 52 / 3, 13 / 3))


def test_clustered_pairwise_by_hand():
    # Two A and two B seats per game: A scores 3, 1 and 2.5 of 4 meetings. p = 6.5 / 12;
    # V = 3/2 * sum (S - 4p)^2 / 144 and n_eff = p (1 - p) / V = 11.
    results = pl.DataFrame(
        {
            "game_id": [0] * 4 + [1] * 4 + [2] * 4,
            "seat": [0, 1, 2, 3] * 3,
            "strategy": ["a", "b", "a", "b"] * 3,
            "rank": [1, 2, 3, 4, 4, 3, 2, 1, 1, 1, 3, 4],
        }
    )
    got = clustered.pairwise(clustered.meetings(results.lazy())).row(0, named=True)
    assert (got["strategy"], got["games"], got["win_n"], got["win_k"]) == ("a", 3, 12, 6.5)
    assert got["deff"] == pytest.approx(12 / 11)
    expected = pl.DataFrame({"x_n": [11.0], "x_k": [11 * 6.5 / 12]}).select(wilson("x"))
    assert (got["win_lo"], got["win_hi"]) == pytest.approx(
        (expected["x_lo"].item(), expected["x_hi"].item())
    )


def test_holm_and_simultaneous_levels():
    p = pl.DataFrame({"p": [0.01, 0.04, 0.03, 0.005, None]})
    assert p.select(multiple.holm(pl.col("p")))["p"].to_list() == pytest.approx(
        [0.03, 0.06, 0.06, 0.02, None]
    )
    assert multiple.per_comparison_alpha(1) == pytest.approx(0.05)
    assert multiple.per_comparison_alpha(10) == pytest.approx(1 - 0.95**0.1)
    assert multiple.per_comparison_alpha(10, "bonferroni") == pytest.approx(0.005)
    assert multiple.simultaneous_z(1) == pytest.approx(1.959964, abs=1e-6)
    table = pl.DataFrame({"x_n": [5], "x_mean": [0.0], "x_sd": [1.0]})
    wide = multiple.simultaneous_mean_ci(table, "x", 10)
    crit = t_quantile(1 - (1 - 0.95**0.1) / 2, 4)
    assert wide["x_hi"].item() == pytest.approx(crit / math.sqrt(5))


def test_t_quantile_matches_tables():
    assert t_quantile(0.975, 10) == pytest.approx(2.228139, abs=1e-6)
    assert t_quantile(0.995, 10) == pytest.approx(3.169273, abs=1e-6)
    assert t_quantile(0.9995, 4) == pytest.approx(8.610302, abs=1e-6)
    assert t_quantile(0.025, 1) == pytest.approx(-12.706205, abs=1e-6)
    assert t_two_sided_p(2.228139, 10) == pytest.approx(0.05, abs=1e-6)


def test_stopping_rule_looks_only_on_its_schedule():
    rule = precision.Rule(first=200, cap=1000)
    assert rule.looks() == [200, 400, 800, 1000]
    assert [precision.next_look(n, rule) for n in (0, 200, 999)] == [200, 400, 1000]
    with pytest.raises(ValueError):
        precision.Rule(first=100)
    wins = pl.DataFrame({"game_id": range(400), "seat0_win": [0.0, 1.0] * 200})
    target = [precision.Target("seat0_win", 0.07)]
    stop, report = precision.should_stop({"arm": wins.head(200)}, target, rule)
    assert stop and report["arm:seat0_win"]["met"]
    assert report["arm:seat0_win"]["estimate"] == 0.5
    assert not precision.should_stop({"arm": wins.head(199)}, target, rule)[0]
    strict = [precision.Target("seat0_win", 0.01)]
    assert not precision.should_stop({"arm": wins}, strict, rule)[0]
    assert precision.should_stop({"arm": pl.concat([wins, wins, wins])}, strict, rule)[0]


def test_paired_target_uses_per_game_differences():
    a = pl.DataFrame({"game_id": range(200), "mean_total": [40.0, 42.0] * 100})
    b = pl.DataFrame({"game_id": range(200), "mean_total": [39.0, 39.0] * 100})
    target = precision.PairedTarget("mean_total", 0.2, "a", "b")
    stop, report = precision.should_stop({"a": a, "b": b}, [target])
    got = report["a-b:mean_total"]
    sd = float(np.std([1.0, 3.0] * 100, ddof=1))
    assert got["estimate"] == 2.0
    assert got["half_width"] == pytest.approx(t_quantile(0.975, 199) * sd / math.sqrt(200))
    assert stop


def test_outcomes_registry_per_game():
    results = pl.DataFrame(
        {
            "game_id": [0, 0, 1, 1, 2, 2],
            "seat": [0, 1] * 3,
            "total": [10, 20, 30, 10, 15, 15],
            "winner": [False, True, True, False, True, True],
        }
    )
    names = ["seat0_win", "mean_total", "margin", "first_seat_gap"]
    got = precision.outcomes(results.lazy(), names)
    assert got.to_dict(as_series=False) == {
        "game_id": [0, 1, 2],
        "seat0_win": [0.0, 1.0, 0.5],
        "mean_total": [15.0, 20.0, 15.0],
        "margin": [10.0, 20.0, 0.0],
        "first_seat_gap": [-10.0, 20.0, 0.0],
    }


if __name__ == "__main__":
    start = time.perf_counter()
    for prefix, measure in (
        ("", measure_wilson),
        ("", measure_t),
        ("", measure_paired),
        ("", measure_clustered),
        ("", measure_ratio),
        ("rule: ", measure_sequential),
        ("", measure_naive_sequential),
        ("Bonferroni: ", lambda: measure_sequential(level=1 - 0.05 / 4)),
    ):
        for name, value in measure().items():
            if "width" in name:
                print(f"{name:60s} {value:7.3f}")
                continue
            cover, games = value if isinstance(value, tuple) else (value, None)
            extra = "" if games is None else f"  (mean games {games:.0f})"
            print(f"{prefix + name:60s} {100 * cover:6.2f}%{extra}")
    print(f"{REPS} replications each, {time.perf_counter() - start:.1f} s")


def test_quality_games_of_any_length_and_size_measured_as_if_alone():
    # The measures walk one array of every game's turns: games of other lengths and player
    # counts next to each other must not leak into one another; a game without a turn log or
    # without a winner has no row.
    games = [
        (_turns([(0, 3), (1, 3), (2, 1), (0, 3), (1, 5), (2, 6)], 3, 4), [10, 8, 12], [0, 0, 1]),
        (_turns([(0, 1), (1, 2), (0, 3), (1, 3)], 2, 2), [10, 10], [1, 1]),
        (_turns([(0, 2), (1, 5), (0, 6), (1, 6), (0, 7), (1, 10)], 2, 9), [7, 12], [0, 1]),
    ]
    alone = [
        quality.per_game(t, _results(totals, [bool(w) for w in won], t["game_id"][0]))
        for t, totals, won in games
    ]
    turns = pl.concat([t for t, _, _ in games] + [_turns([(0, 1), (1, 0)], 2, 6)])
    results = pl.concat(
        [_results(totals, [bool(w) for w in won], t["game_id"][0]) for t, totals, won in games]
        + [_results([5, 4], [False, False], 6), _results([3, 1], [True, False], 7)]
    )
    together = quality.per_game(turns, results)
    assert together.equals(pl.concat(alone).sort("game_id"))
