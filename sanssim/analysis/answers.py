"""The report's first lines: the answer to the question its arms ask.

Two arms that differ in one facet (a rule, the line-up, the component data) ask what that
change does. The answer is its effect on seat balance and on the score, paired game by game
when the arms share their deals: the first seat's win rate, the mean score, and one fairness
measure, the largest seat gap (max over seats of |win share - 1/players|), per arm with the
chi-square test of the seats and as a paired difference, so "is B fairer than A" is one line.

The largest gap's interval is a bootstrap over games (the same games drawn for both arms
when paired): a maximum of noisy gaps is biased upwards near zero, equally in both arms
when they play the same number of games.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from sanssim.analysis import fmt, paired
from sanssim.analysis.pairs import Pair, find_pairs, pair_games
from sanssim.analysis.section import Context
from sanssim.analysis.stats import chi2_gof

SHOWN = 3  # pairs answered at the top; the paired-comparisons section has every pair
DRAWS = 2000  # bootstrap draws of the largest seat gap
SEED = 19
DRAW_BLOCK = 2_000_000  # game indices per block of bootstrap draws (`gap_draws`)


def answers(ctx: Context) -> list[str]:
    """One line per one-facet pair of arms (at most `SHOWN`, and a count of the others), and
    per player count with three arms or more, the fairest of them."""
    pairs = find_pairs(ctx.data)
    lines = [_answer(ctx, pair) for pair in pairs[:SHOWN]]
    if len(pairs) > SHOWN:
        lines.append(
            f"{len(pairs) - SHOWN} more one-facet changes are in the paired comparisons below."
        )
    return lines + _fairest(ctx)


def _fairest(ctx: Context) -> list[str]:
    """Which arm of a player count comes closest to fair seats (the smallest largest seat
    gap), against the next closest, paired when they share their deals."""
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
        same = paired.compare(second, first).paired
        gap = _gap_text(paired.per_game(first), paired.per_game(second), same, runner_up, best)
        lines.append(
            f"Fairest seats at {n} players, of {len(labels)} arms: {best}, then {runner_up} "
            f"({'paired game by game' if same else 'unpaired'}): {gap}."
        )
    return lines


def _answer(ctx: Context, pair: Pair) -> str:
    first, second, _ = pair_games(ctx.data, pair)
    comparison = paired.compare(second, first)
    rows = {r["metric"]: r for r in comparison.table.iter_rows(named=True)}
    how = "paired game by game" if comparison.paired else "unpaired (Welch)"
    score, seat0 = rows["mean_total"], rows["seat0_win"]
    gap = _gap_text(
        paired.per_game(first), paired.per_game(second), comparison.paired, pair.first, pair.second
    )
    return (
        f"{pair.facet} {pair.change} ({pair.second} against {pair.first}, "
        f"{comparison.games_b} and {comparison.games_a} games, {how}): mean score "
        f"{_diff(score, 1, '')}, first seat's win rate {_diff(seat0, 100, ' pp')}; {gap}."
    )


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


def gap_draws(shares: np.ndarray, picks: np.ndarray) -> np.ndarray:
    """The largest gap of each bootstrap draw (rows of game indices). Each draw's seat means
    are its game counts times the shares (a matrix product, a block of draws at a time), not
    a gather of draws x games x seats values (1.3 GB for 2,000 draws of 20,000 four-player
    games): the same draws, their means equal to rounding."""
    draws, games = picks.shape
    means = []
    for block in np.array_split(np.arange(draws), max(1, min(draws, -(-picks.size // DRAW_BLOCK)))):
        flat = (picks[block] + games * np.arange(len(block))[:, None]).ravel()
        counts = np.bincount(flat, minlength=len(block) * games).reshape(len(block), games)
        means.append(counts.astype(np.float64) @ shares / games)
    return np.abs(np.concatenate(means) - 1 / shares.shape[1]).max(axis=1)


def _gap_text(ga: pl.DataFrame, gb: pl.DataFrame, same_games: bool, a: str, b: str) -> str:
    sa, sb = _shares(ga), _shares(gb)
    rng = np.random.default_rng(SEED)
    picks_a = rng.integers(0, len(sa), size=(DRAWS, len(sa)))
    picks_b = picks_a if same_games else rng.integers(0, len(sb), size=(DRAWS, len(sb)))
    draws_a, draws_b = gap_draws(sa, picks_a), gap_draws(sb, picks_b)
    per_arm = [
        _arm_gap(name, shares, draws)
        for name, shares, draws in ((a, sa, draws_a), (b, sb, draws_b))
    ]
    d = 100 * (largest_gap(sb) - largest_gap(sa))
    lo, hi = (100 * q for q in np.percentile(draws_b - draws_a, [2.5, 97.5]))
    verdict = fmt.verdict(lo, hi)
    fairer = {"(lower)": f"{b} is fairer", "(higher)": f"{a} is fairer"}.get(
        verdict, "neither is clearly fairer"
    )
    return (
        f"largest seat gap {'; '.join(per_arm)}; difference "
        f"{fmt.interval(d, lo, hi, signed=True)} pp: {fairer}"
    )


def _arm_gap(name: str, shares: np.ndarray, draws: np.ndarray) -> str:
    lo, hi = (100 * q for q in np.percentile(draws, [2.5, 97.5]))
    wins = shares.sum(axis=0)
    _, df, p = chi2_gof(list(wins), [len(shares) / shares.shape[1]] * shares.shape[1])
    shown = fmt.interval(100 * largest_gap(shares), lo, hi)
    return f"{name} {shown} pp (seats χ²({df}) {fmt.pval(p)})"
