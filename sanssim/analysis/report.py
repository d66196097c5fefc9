"""`sanssim report`: read run directories, write report.md, report.html and PNG figures."""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from sanssim import __version__
from sanssim.analysis import generic, tune_report
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
from sanssim.analysis.section import Context, Skipped

# Figures shown with the key findings at the top, when a section made them.
HEADLINE_FIGURES = ("seat_advantage", "missions_rank", "variant_effects", "score_distribution")


@dataclass(frozen=True)
class ReportSummary:
    """What `write_report` wrote, and which sections it skipped and why."""

    files: list[Path]
    skipped: list[Skipped]
    games: int
    arms: list[str]


def write_report(runs: list[Path], out: Path, command: list[str]) -> ReportSummary:
    """Write report.md, report.html and the figures for `runs` into `out`.

    Each path is a run directory or a sweep's parent folder (its sub-directories with a
    manifest are the arms). `command` is the argv shown as the report's provenance. Input
    that cannot be reported on raises ReportError with a one-line message.
    """
    if not runs:
        raise ReportError("give at least one run directory")
    try:
        return _write(runs, out, command)
    except pl.exceptions.ComputeError as exc:
        raise ReportError(f"unreadable run data: {str(exc).splitlines()[0]}") from None
    except OSError as exc:
        raise ReportError(f"{exc.filename or out}: {exc.strerror}") from None


def _write(runs: list[Path], out: Path, command: list[str]) -> ReportSummary:
    data = load_dataset(runs)
    _prepare(out)
    ctx = Context(data, out)
    builders = [*generic.SECTIONS, *data.game_type.report_sections(), *tune_report.SECTIONS]
    sections = [build(ctx) for build in builders]
    skipped = [s for section in sections for s in section.skipped]
    findings = [f for section in sections for f in section.findings]
    games = int(data.arms["games"].sum())
    arms = data.arm_labels
    blocks: list[Block] = [
        Para(
            f"{games:,} simulated games of {data.game_type.title} in {len(arms)} "
            f"arm{'s' if len(arms) != 1 else ''}: {'; '.join(arms)}. Every estimate has its "
            "sample size and a 95% confidence interval in brackets; a difference is called "
            "one only when its interval excludes zero. Provenance (runs, commands, versions, "
            "full strategy parameters) is at the end."
        )
    ]
    if findings:
        blocks += [Heading(2, "Key findings"), Bullets(findings)]
    shown = {b.file for section in sections for b in section.blocks if isinstance(b, Figure)}
    headline = [
        next(b for sec in sections for b in sec.blocks if isinstance(b, Figure) and b.file == f)
        for f in (f"{name}.png" for name in HEADLINE_FIGURES)
        if f in shown
    ][:3]
    blocks += headline
    for section in sections:
        blocks += [b for b in section.blocks if b not in headline]
    blocks += _provenance(data, command, skipped)
    title = f"{data.game_type.title} simulation report"
    md, html = out / "report.md", out / "report.html"
    md.write_text(to_markdown([Heading(1, title), *blocks]))
    html.write_text(to_html([Heading(1, title), *blocks], out, title))
    return ReportSummary([md, html, *ctx.figures], skipped, games, arms)


def _prepare(out: Path) -> None:
    """Create `out`; in a previous report's folder, remove its figures so none goes stale."""
    if (out / "report.md").is_file():
        for old in out.glob("*.png"):
            old.unlink()
    out.mkdir(parents=True, exist_ok=True)


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
