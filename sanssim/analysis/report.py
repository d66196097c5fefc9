"""`sanssim report`: read run directories, write report.md, report.html and PNG figures."""

from __future__ import annotations

import json
import os
import shlex
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import polars as pl

from sanssim import __version__
from sanssim.analysis import figures, flipped, generic, robustness, tuning
from sanssim.analysis.answers import answers
from sanssim.analysis.dataset import Dataset, load_dataset, variant_name
from sanssim.analysis.document import (
    Block,
    Bullets,
    Figure,
    Heading,
    Para,
    Table,
    to_html,
    to_markdown,
)
from sanssim.analysis.errors import ReportError
from sanssim.analysis.section import (
    MAX_ANSWERS,
    MAX_FINDINGS,
    MIN_FINDINGS,
    Context,
    Skipped,
    key_findings,
    ranked,
)
from sanssim.games import GameType
from sanssim.runformat import TEMP_MARK

# What a report folder holds besides its figures; report.json records the runs reported on.
REPORT_JSON = "report.json"
REPORT_FILES = ("report.md", "report.html", REPORT_JSON, flipped.VERDICTS)
# Figures shown with the key findings at the top, when a section made them: the game's own
# (`GameType.headline_figures`) come between these two.
HEADLINE_FIGURES = ("seat_advantage", "score_distribution")
# From this many games on, a report's figures are drawn by a worker process while its
# sections compute (`figures.in_background`); a smaller report is over before a worker
# would have started (about a second), so it draws them in place.
BACKGROUND_GAMES = 5_000
# Up to this many arms the first screen names each, and each one's line-up.
LISTED_ARMS = 4


@dataclass(frozen=True)
class ReportSummary:
    """What `write_report` wrote, and which sections it skipped and why."""

    files: list[Path]
    skipped: list[Skipped]
    games: int
    arms: list[str]


def write_report(
    runs: list[Path],
    out: Path,
    command: list[str],
    force: bool = False,
    robustness_files: Sequence[Path] = (),
) -> ReportSummary:
    """Write report.md, report.html and the figures for `runs` into `out`.

    Each path is a run directory or a sweep's parent folder (its sub-directories with a
    manifest are the arms). `command` is the argv shown as the report's provenance. `out`
    may hold an earlier report of the same runs; anything else is refused unless `force`.
    `robustness_files`: verdicts files of robustness reports (`flipped.VERDICTS`); findings
    they show changed under another line-up are marked.
    Input that cannot be reported on raises ReportError with a one-line message.
    """
    if not runs:
        raise ReportError("give at least one run directory")
    try:
        return _write(runs, out, command, force, robustness_files)
    except pl.exceptions.ComputeError as exc:
        raise ReportError(f"unreadable run data: {str(exc).splitlines()[0]}") from None
    except OSError as exc:
        raise ReportError(f"{exc.filename or out}: {exc.strerror}") from None


def _write(
    runs: list[Path], out: Path, command: list[str], force: bool, verdicts: Sequence[Path]
) -> ReportSummary:
    """Everything is written into a hidden folder beside `out` and moved in only when
    complete: a full disk or an error leaves `out` (an earlier report) as it was."""
    data = load_dataset(runs)
    paths = [run.path for run in data.runs]
    _check_target(out, paths, force)
    stage = out.parent / f".{out.name}{TEMP_MARK}{os.getpid()}"
    try:
        stage.mkdir(parents=True)
        (stage / REPORT_JSON).write_text(
            json.dumps({"runs": _relative(paths, out)}, indent=2) + "\n"
        )
        written = _compose(data, stage, command, flipped.load(verdicts, data.game_type.name))
        _publish(stage, out)
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    return replace(written, files=[out / path.name for path in written.files])


def _compose(
    data: Dataset, out: Path, command: list[str], verdicts: tuple[flipped.Entry, ...] = ()
) -> ReportSummary:
    ctx = Context(data, out, verdicts=verdicts)
    builders = [
        *generic.SECTIONS,
        *data.game_type.report_sections(),
        robustness.build,
        *tuning.SECTIONS,
    ]
    if int(data.arms["games"].sum()) >= BACKGROUND_GAMES:
        with figures.in_background():
            sections = [build(ctx) for build in builders]
    else:
        sections = [build(ctx) for build in builders]
    skipped = [s for section in sections for s in section.skipped]
    answer = [*answers(ctx), *(a for section in sections for a in section.answer)]
    limit = MAX_ANSWERS if len(answer) <= MAX_ANSWERS else MAX_ANSWERS - 1  # room for the count
    shown, left = ranked(answer, limit)
    lines, smaller = [a.text for a in shown], [a.text for a in left]
    if smaller:
        lines.append(f"{len(smaller)} more answers, with smaller effects, follow the figures.")
    room = max(MAX_FINDINGS - len(lines), MIN_FINDINGS)
    keyed = _capped([key_findings(section) for section in sections], room)  # (key, rest)
    findings = [*lines, *(f for key, _ in keyed for f in key)]
    games = int(data.arms["games"].sum())
    arms = data.arm_labels
    blocks: list[Block] = [
        Para(
            f"{games:,} simulated games of {data.game_type.title}"
            + (" (the lowest total wins)" if data.game_type.lowest_wins else "")
            + f" in {_arms(data)} Every estimate has its "
            "sample size and a 95% confidence interval in brackets; a difference is called "
            "one only when its interval excludes zero. Provenance (runs, commands, versions, "
            "full strategy parameters) is at the end."
        )
    ]
    lead = [b for section in sections for b in section.lead]
    if findings or lead:
        blocks += [Heading(2, "Key findings"), *lead, *([Bullets(findings)] if findings else [])]
    shown = {b.file for section in sections for b in section.blocks if isinstance(b, Figure)}
    headline = [
        next(b for sec in sections for b in sec.blocks if isinstance(b, Figure) and b.file == f)
        for f in (f"{name}.png" for name in _headline_figures(data.game_type))
        if f in shown
    ][:3]
    blocks += headline
    if smaller:
        blocks += [Heading(3, "More answers, smaller effects"), Bullets(smaller)]
    for section, (_, rest) in zip(sections, keyed, strict=True):
        blocks += [b for b in section.blocks if b not in headline]
        if rest:
            blocks += [Para("Findings, arm by arm:"), Bullets(rest)]
    blocks += _provenance(data, command, skipped)
    title = f"{data.game_type.title} simulation report"
    md, html = out / "report.md", out / "report.html"
    md.write_text(to_markdown([Heading(1, title), *blocks]))
    html.write_text(to_html([Heading(1, title), *blocks], out, title))
    return ReportSummary([md, html, *ctx.figures], skipped, games, arms)


def _arms(data: Dataset) -> str:
    """The arms and who played them; past LISTED_ARMS arms under several line-ups, the
    line-ups in one sentence (`robustness.played`), each arm's in "Arms compared"."""
    arms = data.arm_labels
    if len(arms) > LISTED_ARMS and data.arms["strategies"].n_unique() > 1:
        return robustness.played(data)
    return f"{len(arms)} arm{'s' if len(arms) != 1 else ''}: {'; '.join(arms)}. {_players(data)}"


def _players(data: Dataset) -> str:
    """Which line-up played, on the first screen: a finding speaks only for its players."""
    lineups = data.arms["strategies"].to_list()
    if len(set(lineups)) > 1:
        by_arm = "; ".join(f"{a}: {s}" for a, s in zip(data.arm_labels, lineups, strict=True))
        return f"Played by, arm by arm: {by_arm}."
    if " | " in lineups[0]:
        return f"Played by, seat by seat: {lineups[0]}."
    return f"Played by {lineups[0]} in every seat."


def _headline_figures(game_type: GameType) -> tuple[str, ...]:
    first, *rest = HEADLINE_FIGURES
    return (first, *game_type.headline_figures, *rest)


def _check_target(out: Path, runs: list[Path], force: bool) -> None:
    """`out` may be created, or reused when it holds only a report of these same runs (its
    report.json says which), so a report never silently replaces other work; `force`
    writes anyway."""
    if out.exists() and not out.is_dir():
        raise ReportError(f"{out} exists and is not a directory")
    if out.is_dir() and not force:
        _check_reusable(out, [str(run.resolve()) for run in runs])


def _relative(runs: list[Path], out: Path) -> list[str]:
    """Runs as report.json records them: relative to `out`, so a report moves with its
    runs (a checkout elsewhere)."""
    return [os.path.relpath(run.resolve(), out.resolve()) for run in runs]


def _publish(stage: Path, out: Path) -> None:
    """The finished report in place of the old one (whose files go, so no figure goes
    stale); renames within one file system need no room on the disk."""
    out.mkdir(parents=True, exist_ok=True)
    for old in [*out.glob("*.png"), *(out / name for name in REPORT_FILES)]:
        old.unlink(missing_ok=True)
    for new in stage.iterdir():
        os.replace(new, out / new.name)


def _check_reusable(out: Path, runs: list[str]) -> None:
    """Refuse a folder holding anything but a report of these runs."""
    names = sorted(p.name for p in out.iterdir())
    others = [n for n in names if n not in REPORT_FILES and not n.endswith(".png")]
    held = _recorded_runs(out)
    if not names:
        return
    if others:
        reason = f"holds files that are not a report ({_listed(others)})"
    elif held is None:
        reason = f"holds a report that does not say of which runs (no readable {REPORT_JSON})"
    elif sorted(held) != sorted(runs):
        reason = f"holds a report of other runs ({_listed([Path(r).name for r in held])})"
    else:
        return
    raise ReportError(f"{out} {reason}; choose another --out or use --force to replace it")


def _listed(names: list[str]) -> str:
    return ", ".join(names[:3]) + (", ..." if len(names) > 3 else "")


def _recorded_runs(out: Path) -> list[str] | None:
    """The run paths an earlier report recorded (resolved: relative ones are relative to
    `out`), or None if it recorded none readable."""
    try:
        runs = json.loads((out / REPORT_JSON).read_text(encoding="utf-8"))["runs"]
    except (OSError, ValueError, TypeError, KeyError):
        return None
    if not isinstance(runs, list) or not all(isinstance(r, str) for r in runs):
        return None
    return [str((out / r).resolve()) for r in runs]


def _run_facts(data: Dataset) -> list[list[str]]:
    rows = []
    for run in data.runs:
        config = run.config
        rows.append(
            [
                str(run.path),
                str(run.manifest.get("sanssim_version", "?")),
                str(config.get("seed", "?")),
                str(run.games),
                str(run.failures),
                " ".join(map(shlex.quote, run.manifest.get("command", []))) or "?",
            ]
        )
    return rows


def _capped(
    keyed: list[tuple[list[str], list[str]]], room: int
) -> list[tuple[list[str], list[str]]]:
    """At most `room` key findings in all, in section order; a section's lines past the cap
    close its body instead, once each (a digest line its per-arm findings already hold, or
    the count of findings closing the section, is not repeated there)."""
    capped = []
    for key, rest in keyed:
        shown = key[:room]
        room -= len(shown)
        cut = [line for line in key[len(shown) :] if line not in rest]
        capped.append((shown, [*(cut if not rest else _digest(cut)), *rest]))
    return capped


def _digest(lines: list[str]) -> list[str]:
    """Cut key lines of a section whose findings close its body anyway: its summary lines
    across arms, not the count of findings that close it."""
    return [line for line in lines if not line.endswith("”.") or " close the section “" not in line]


def _provenance(data: Dataset, command: list[str], skipped: list[Skipped]) -> list[Block]:
    arms = data.arms
    game_type = data.game_type
    valued = [o for o in game_type.options if o.kind is not bool]
    blocks: list[Block] = [
        Heading(2, "Arms compared"),
        Para(
            "An arm is one game design. Runs with the same design are pooled; different designs "
            "are shown side by side and never pooled."
        ),
        Table(
            [
                "arm",
                "players",
                "variant",
                *(o.report_label for o in valued),
                "strategies",
                "components",
                "games",
                "runs",
            ],
            [
                [
                    a["arm"],
                    str(a["n_players"]),
                    variant_name(game_type, a),
                    *(str(a[o.name]) for o in valued),
                    a["strategies"],
                    a["components"],
                    str(a["games"]),
                    ", ".join(data.runs[i].path.name for i in a["runs"]),
                ]
                for a in arms.iter_rows(named=True)
            ],
        ),
    ]
    if skipped:
        blocks += [
            Heading(2, "Skipped"),
            Bullets([f"{s.section}: {s.reason}" for s in skipped]),
        ]
    blocks += [
        Heading(2, "Provenance"),
        Para(f"Written by sanssim {__version__} with: `{' '.join(map(shlex.quote, command))}`"),
        Table(
            ["run", "sanssim", "seed", "games", "failed games", "command"],
            _run_facts(data),
        ),
        Para("Full strategy specs by seat, every parameter spelled out:"),
        Bullets(sorted({f"{a['strategies']}: {a['lineup']}" for a in arms.to_dicts()})),
    ]
    return blocks
