"""`sanssim run --precision`: play the arms look by look until every target is met.

The looks follow `sanssim.analysis.precision.Rule` (200 games, then doubling, and the
`--games` cap), which keeps the intervals' coverage at 95% despite the data-dependent
stop. Every arm plays the games below a look before the look is evaluated, and the
evaluation reads only those games, so the games played, and where the run stops, are the
same whatever the workers, the chunk size or the executor, and after a resume.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from sanssim.analysis import fmt
from sanssim.analysis.precision import (
    METRICS,
    MIN_FIRST,
    PairedTarget,
    Rule,
    Target,
    outcomes,
    seat_of,
    should_stop,
)
from sanssim.analysis.quality import manifest_teams, sided
from sanssim.games import get_game
from sanssim.rundir import scan
from sanssim.runformat import MANIFEST, RESULTS
from sanssim.runner.config import RunConfig, RunError
from sanssim.runner.files import read_json

SINGLE_ARM = "arm"  # the arm name of a run that is not an experiment
_TARGET = re.compile(r"^(?:diff:(?P<pair>[^:]+):)?(?P<metric>[A-Za-z0-9_]+)=(?P<hw>.+)$")


@dataclass(frozen=True)
class Precision:
    """Targets as typed (kept in the manifest for resume) and the looks they are tried at."""

    texts: tuple[str, ...]
    targets: tuple[Target | PairedTarget, ...]
    rule: Rule

    @property
    def metrics(self) -> list[str]:
        return sorted({t.metric for t in self.targets})

    def arms(self, arm: str) -> bool:
        """Does any target read this arm?"""
        return any(
            (t.arm == arm) if isinstance(t, Target) else arm in (t.arm_a, t.arm_b)
            for t in self.targets
        )


def parse(texts: Sequence[str], arms: Sequence[str | None], cap: int) -> Precision:
    """`METRIC=HALFWIDTH` for every arm, or `diff:A-B:METRIC=HALFWIDTH` for the paired
    difference of two arms of an experiment; one-line RunErrors for anything else."""
    names = [a or SINGLE_ARM for a in arms]
    if cap < MIN_FIRST:
        raise RunError(f"--precision needs --games (the cap) of at least {MIN_FIRST}, got {cap}")
    targets: list[Target | PairedTarget] = []
    for text in texts:
        match = _TARGET.match(text.strip())
        if match is None:
            raise RunError(
                f"--precision {text!r}: expected METRIC=HALFWIDTH or diff:ARM-ARM:METRIC=HALFWIDTH"
            )
        metric = match["metric"]
        if metric not in METRICS:
            raise RunError(
                f"--precision {text!r}: unknown metric {metric!r} (known: {', '.join(METRICS)})"
            )
        try:
            half_width = float(match["hw"])
        except ValueError:
            half_width = -1.0
        if not 0 < half_width < math.inf:
            raise RunError(f"--precision {text!r}: the half-width must be a positive number")
        if match["pair"] is None:
            targets += [Target(metric, half_width, arm) for arm in names]
            continue
        a, b = _arm_pair(text, match["pair"], names)
        targets.append(PairedTarget(metric, half_width, a, b))
    return Precision(tuple(texts), tuple(targets), Rule(MIN_FIRST, cap))


def check_arms(found: Precision, configs: Mapping[str, RunConfig]) -> None:
    """Targets the arms can answer: a seat every arm it reads has, and a paired difference
    between two arms of one game (a figure over seats or games that are not there would
    be empty, or compare unlike things)."""
    for target in found.targets:
        paired = isinstance(target, PairedTarget)
        names = (target.arm_a, target.arm_b) if paired else (target.arm,)  # type: ignore[union-attr]
        games = sorted({configs[name].game_name for name in names})
        if len(games) > 1:
            raise RunError(
                f"--precision {target.label}: the arms play different games "
                f"({' and '.join(games)}); a paired difference compares arms of one game"
            )
        seat = seat_of(target.metric)
        for name in names:
            players = configs[name].n_players
            if seat is not None and seat >= players:
                where = "" if name == SINGLE_ARM else f" in arm {name}"
                raise RunError(
                    f"--precision {target.metric}: {players} players{where} have no seat {seat} "
                    f"(seats 0 to {players - 1})"
                )


def _arm_pair(text: str, pair: str, names: Sequence[str]) -> tuple[str, str]:
    """Split `A-B` at the hyphen that leaves two of the experiment's arms: arm names are
    free text and may hold hyphens themselves (`expansion-p4-base-p4`)."""
    splits = [
        (pair[:i], pair[i + 1 :])
        for i, char in enumerate(pair)
        if char == "-" and pair[:i] in names and pair[i + 1 :] in names
    ]
    if len(splits) == 1:
        return splits[0]
    if splits:
        shown = " or ".join(f"{a!r} - {b!r}" for a, b in splits)
        raise RunError(f"--precision {text!r}: {pair!r} reads as {shown}; rename an arm")
    raise RunError(
        f"--precision {text!r}: {pair!r} is not two arms joined by '-' (arms: {', '.join(names)})"
    )


def _unit(target: Target | PairedTarget) -> tuple[float, str]:
    """A win share reads in percent (a paired difference of shares in percentage points), a
    mean in its own unit."""
    if METRICS[target.metric].kind != "rate":
        return 1.0, ""
    return 100.0, " pp" if isinstance(target, PairedTarget) else "%"


def achieved_text(target: Target | PairedTarget, achieved: Mapping[str, Any]) -> str:
    """One target's achieved interval as a reader takes it."""
    paired = isinstance(target, PairedTarget)
    scale, unit = _unit(target)
    est, lo, hi, half = (scale * achieved[k] for k in ("estimate", "lo", "hi", "half_width"))
    shown = fmt.interval(est, lo, hi, signed=paired, unit=unit)
    verdict = "met" if achieved["met"] else "NOT met"
    return (
        f"{target.label}: {shown}, n = {achieved['n']:,}, half-width {half:.3g}{unit} "
        f"(target {scale * achieved['target']:g}{unit}: {verdict})"
    )


def waiting(
    precision: Precision, look: int, report: Mapping[str, Mapping[str, Any]] | None = None
) -> str:
    """What a run to a precision waits for while it plays toward `look`: the look, and the
    targets the last look left unmet with their half-widths (or every target before the
    first look)."""
    looks = precision.rule.looks()
    text = f"look {looks.index(look) + 1} of {len(looks)} at {look:,} games per arm"
    if report is None:
        wanted = [f"{t.label} ±{_target_text(t, t.half_width)}" for t in precision.targets]
        return f"{text}; targets {_listed(wanted)}"
    unmet = [
        f"{t.label} ±{_target_text(t, report[t.label]['half_width'])} "
        f"(target ±{_target_text(t, t.half_width)})"
        for t in precision.targets
        if not report[t.label]["met"]
    ]
    return f"{text}; not yet met: {_listed(unmet)}"


def _target_text(target: Target | PairedTarget, half_width: float) -> str:
    scale, unit = _unit(target)
    return f"{scale * half_width:.3g}{unit}"


def _listed(items: list[str], shown: int = 2) -> str:
    more = len(items) - shown
    return ", ".join(items[:shown]) + (f" and {more} more" if more > 0 else "")


def chunk_size(wanted: int, precision: Precision) -> int:
    """The largest size up to `wanted` that divides every look but the cap (which may end
    with a shorter chunk), so that looks fall on chunk boundaries."""
    first = precision.rule.first
    if first % wanted == 0:
        return wanted
    return max(d for d in range(1, min(wanted, first) + 1) if first % d == 0)


def evaluate(
    dirs: Mapping[str, Path], precision: Precision, look: int
) -> tuple[bool, dict[str, dict[str, Any]]]:
    """Should the run stop at `look`? Reads only games below the look of each arm."""
    frames = {
        arm: _outcomes(path, precision.metrics, look)
        for arm, path in dirs.items()
        if precision.arms(arm)
    }
    return should_stop(frames, precision.targets, precision.rule, played=look)


def _outcomes(path: Path, metrics: list[str], look: int) -> pl.DataFrame:
    """One arm's per-game outcomes below `look`, with its teams as sides and its game's
    score direction (the margin of a game the lowest total wins is how far below)."""
    manifest = read_json(path / MANIFEST)
    results = scan(path, manifest, RESULTS, deep=False).filter(pl.col("game_id") < look)
    sides = sided(results, manifest_teams(manifest))
    return outcomes(sides, metrics, get_game(manifest["game"]).lowest_wins)
