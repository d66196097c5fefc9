"""The report's first lines: the answer to the question its arms ask.

Two arms that differ in one facet (a rule, the line-up, the component data) ask what that
change does. The answer is its effect on seat balance and on the score, paired game by game
when the arms share their deals: the first seat's win rate, the mean score, and one fairness
measure, the largest seat gap (max over seats of |win share - 1/players|), per arm with the
chi-square test of the seats and as a difference between the arms, so "is B fairer than A"
is one line.

The largest gap's interval inverts simultaneous intervals of the seats' win shares
(`gap_interval`), not a bootstrap over games: the gap is a maximum of absolute values, which
is not differentiable where the seats are fair or two seats tie for the largest gap, and there
the bootstrap fails. Its draws centre on the estimate plus the upward bias of a maximum of
noisy gaps, so the percentile interval of a fair game sits above the estimate ("0.01 [0.01,
0.77] pp") and misses the true gap of 0 nearly always (it held it in 3% of 200
simulated fair 2-seat runs of 2,000 games); a bias correction does not mend a non-smooth
statistic. Inverting intervals that hold for every seat at once is sound whatever
the seat rates: it covers at least 95% (tests/test_designer_fixes.py simulates it), at the
price of width, which pairing cannot narrow. Whether the seats differ at all is the
chi-square test's question, printed beside it.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from sanssim.analysis import flipped, fmt, paired
from sanssim.analysis.paired import effect_size
from sanssim.analysis.pairs import Pair, find_pairs, pair_games
from sanssim.analysis.precision import interval
from sanssim.analysis.section import Answer, Context
from sanssim.analysis.stats import ALPHA, chi2_gof


def answers(ctx: Context) -> list[Answer]:
    """One line per one-facet pair of arms, and per player count with three arms or more,
    the fairest of them; each with the size of its largest established effect."""
    return [_answer(ctx, pair) for pair in find_pairs(ctx.data)] + _fairest(ctx)


def _fairest(ctx: Context) -> list[Answer]:
    """Which arm of a player count comes closest to fair seats (the smallest largest seat
    gap), against the next closest."""
    lines = []
    arms = ctx.data.arms
    for (n,), group in arms.group_by("n_players", maintain_order=True):
        labels = [a for a in ctx.data.arm_labels if a in set(group["arm"])]
        if len(labels) < 3:
            continue
        gaps = {
            arm: largest_gap(
                _shares(paired.per_game(ctx.data.results.filter(pl.col("arm") == arm)))
            )
            for arm in labels
        }
        best, runner_up = sorted(labels, key=gaps.__getitem__)[:2]
        pair = Pair(runner_up, best, "", "", ((), ()))
        first, second, _ = pair_games(ctx.data, pair)
        gap, size = _gap_text(paired.per_game(first), paired.per_game(second), runner_up, best)
        text = (
            f"Fairest seats at {n} players, of {len(labels)} arms: {best}, then {runner_up}: {gap}."
        )
        lines.append(Answer(text, size))
    return lines


def _answer(ctx: Context, pair: Pair) -> Answer:
    first, second, _ = pair_games(ctx.data, pair)
    comparison = paired.compare(second, first)
    rows = {r["metric"]: r for r in comparison.table.iter_rows(named=True)}
    how = "paired game by game" if comparison.paired else "unpaired (Welch)"
    score, seat0 = rows["mean_total"], rows["seat0_win"]
    gap, gap_size = _gap_text(
        paired.per_game(first), paired.per_game(second), pair.first, pair.second
    )
    text = (
        f"{pair.facet} {pair.change} ({pair.second} against {pair.first}, "
        f"{comparison.games_b} and {comparison.games_a} games, {how}): mean score "
        f"{_diff(score, 1, '')}, first seat's win rate {_diff(seat0, 100, ' pp')}; {gap}."
    )
    text += _marker(ctx, pair)
    return Answer(text, max(effect_size(score), effect_size(seat0), gap_size))


def _marker(ctx: Context, pair: Pair) -> str:
    """A robustness run's word where another line-up changes this pair's verdicts."""
    arms = ctx.data.arms.filter(pl.col("arm") == pair.first)
    lineup = arms["strategies"][0]
    return flipped.marker(ctx.verdicts, ctx.data, "effect", (pair.first, pair.second), lineup)


def _diff(row: dict, scale: float, unit: str) -> str:
    if row["lo"] == row["hi"] == row["diff"] == 0:
        return "the same in every game"
    shown = fmt.interval(
        scale * row["diff"], scale * row["lo"], scale * row["hi"], signed=True, unit=unit
    )
    return f"{shown} {fmt.verdict(row['lo'], row['hi'])}"


def _shares(games: pl.DataFrame) -> np.ndarray:
    """Games x seats: each seat's win share per game."""
    seats = sorted(
        (c for c in games.columns if c.startswith("seat") and c.endswith("_win")),
        key=lambda c: int(c[4:-4]),
    )
    return games.select(seats).fill_null(0.0).to_numpy()


def largest_gap(shares: np.ndarray) -> float:
    """max over seats of |mean win share - 1/players|."""
    return float(np.abs(shares.mean(axis=0) - 1 / shares.shape[1]).max())


def gap_interval(
    wins: np.ndarray, n: int, alpha: float = ALPHA
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The largest seat gap max_s |p_s - 1/k| from each seat's wins (shares summed over `n`
    games; the last axis is the seats, any axes before it are replications): its estimate
    and an interval of level at least 1 - alpha. Each seat gets a Wilson interval at level
    1 - alpha/k (Bonferroni), so all k hold together with probability at least 1 - alpha;
    over every set of seat rates inside them the gap runs from the largest distance of an
    interval to the fair share (0 when every interval holds it) to the largest distance of
    an interval's end from it. Where the true rates lie inside all k intervals, the true gap
    lies inside this one."""
    wins = np.asarray(wins, dtype=float)
    k = wins.shape[-1]
    fair = 1 / k
    centre, half = interval("rate", n, wins, wins, 1 - alpha / k)
    lo, hi = centre - half, centre + half
    estimate = np.abs(wins / n - fair).max(axis=-1)
    nearest = np.maximum(np.maximum(lo - fair, fair - hi), 0.0).max(axis=-1)
    farthest = np.maximum(hi - fair, fair - lo).max(axis=-1)
    return estimate, nearest, farthest


def gap_difference(
    wins_a: np.ndarray, n_a: int, wins_b: np.ndarray, n_b: int, alpha: float = ALPHA
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Largest gap of b minus that of a, with an interval of level at least 1 - alpha: each
    arm's gap interval at 1 - alpha/2, so both hold together whether or not the arms share
    their games, and the difference runs between their far ends."""
    est_a, lo_a, hi_a = gap_interval(wins_a, n_a, alpha / 2)
    est_b, lo_b, hi_b = gap_interval(wins_b, n_b, alpha / 2)
    return est_b - est_a, lo_b - hi_a, hi_b - lo_a


def _gap_text(ga: pl.DataFrame, gb: pl.DataFrame, a: str, b: str) -> tuple[str, float]:
    """The largest seat gap of both arms and their difference; and the difference's size
    when its interval excludes zero, in standard deviations of a seat's win share at the
    fair rate (0 otherwise)."""
    sa, sb = _shares(ga), _shares(gb)
    per_arm = [_arm_gap(name, shares) for name, shares in ((a, sa), (b, sb))]
    d, lo, hi = (
        100 * float(x) for x in gap_difference(sa.sum(axis=0), len(sa), sb.sum(axis=0), len(sb))
    )
    verdict = fmt.verdict(lo, hi)
    fairer = {"(lower)": f"{b} is fairer", "(higher)": f"{a} is fairer"}.get(
        verdict, "neither is clearly fairer"
    )
    text = (
        f"largest seat gap {'; '.join(per_arm)}; difference "
        f"{fmt.interval(d, lo, hi, signed=True)} pp: {fairer}"
    )
    fair = 1 / sb.shape[1]
    size = 0.0 if lo <= 0 <= hi else abs(d) / 100 / (fair * (1 - fair)) ** 0.5
    return text, size


def _arm_gap(name: str, shares: np.ndarray) -> str:
    wins = shares.sum(axis=0)
    _, df, p = chi2_gof(list(wins), [len(shares) / shares.shape[1]] * shares.shape[1])
    est, lo, hi = (100 * float(x) for x in gap_interval(wins, len(shares)))
    return f"{name} {fmt.interval(est, lo, hi)} pp (seats χ²({df}) {fmt.pval(p)})"
