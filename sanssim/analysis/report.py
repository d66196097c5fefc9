"""`sanssim report`: read run directories, write report.md, report.html and PNG figures."""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from sanssim import __version__
from sanssim.analysis import balance, flow
from sanssim.analysis.dataset import Dataset, load_dataset, variant_name
from sanssim.analysis.document import Block, Bullets, Heading, Para, Table, to_html, to_markdown
from sanssim.analysis.errors import ReportError
from sanssim.analysis.section import Context, Skipped
from sanssim.games.sanssouci import missions, tiles

SECTIONS = (missions.build, balance.build, tiles.build, flow.build)


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
    sections = [build(ctx) for build in SECTIONS]
    skipped = [s for section in sections for s in section.skipped]
    blocks = _provenance(data, command, skipped)
    findings = [f for section in sections for f in section.findings]
    if findings:
        blocks += [
            Heading(2, "Key findings"),
            Para(
                "The headline comparisons of the sections below; a difference is called "
                "higher or lower only when its 95% interval excludes zero."
            ),
            Bullets(findings),
        ]
    for section in sections:
        blocks += section.blocks
    title = "Sanssouci simulation report"
    md, html = out / "report.md", out / "report.html"
    md.write_text(to_markdown([Heading(1, title), *blocks]))
    html.write_text(to_html([Heading(1, title), *blocks], out, title))
    return ReportSummary(
        [md, html, *ctx.figures], skipped, int(data.arms["games"].sum()), data.arm_labels
    )


def _prepare(out: Path) -> None:
    """Create `out`; in a previous report's folder, remove its figures so none goes stale."""
    if (out / "report.md").is_file():
        for old in out.glob("*.png"):
            old.unlink()
    out.mkdir(parents=True, exist_ok=True)


def _strategy_text(value: object) -> str:
    """Strategy specs by seat from the manifest, whatever form the runner wrote them in."""
    if isinstance(value, list):
        return " | ".join(
            v.get("spec", json.dumps(v)) if isinstance(v, dict) else str(v) for v in value
        )
    return "see arms" if value is None else str(value)


def _run_facts(data: Dataset) -> list[list[str]]:
    rows = []
    for run in data.runs:
        config = run.config
        variants = ", ".join(
            f"{key} {json.dumps(config[key]) if not isinstance(config[key], str) else config[key]}"
            for key in ("expansion", "duplicate_reshuffle", "tile_set", "garden_sides")
            if key in config
        )
        rows.append(
            [
                str(run.path),
                str(run.manifest.get("sanssim_version", "?")),
                str(config.get("seed", "?")),
                str(run.games),
                str(run.failures),
                _strategy_text(config.get("strategies")),
                variants or "see arms",
                " ".join(map(shlex.quote, run.manifest.get("command", []))) or "?",
            ]
        )
    return rows


def _provenance(data: Dataset, command: list[str], skipped: list[Skipped]) -> list[Block]:
    arms = data.arms
    blocks: list[Block] = [
        Para(f"Written by sanssim {__version__} with: `{' '.join(map(shlex.quote, command))}`"),
        Para(
            "Every estimate is given with its sample size and a 95% confidence interval in "
            "brackets. A difference is called a difference only when its interval excludes zero."
        ),
        Heading(2, "Runs"),
        Table(
            [
                "run",
                "sanssim",
                "seed",
                "games",
                "failed games",
                "strategies",
                "variants",
                "command",
            ],
            _run_facts(data),
        ),
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
                "tile set",
                "strategies by seat",
                "garden sides",
                "games",
                "runs",
            ],
            [
                [
                    a["arm"],
                    str(a["n_players"]),
                    variant_name(a["expansion"], a["duplicate_reshuffle"]),
                    a["tile_set"],
                    a["lineup"],
                    a["policy"],
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
    return blocks
