"""A tune's search in words, tables and figures: the printed summary of `sanssim tune` and
the report section that appears when `tune.json` lies beside the reported runs.

This module only dispatches to the method's own (`halving`, `ntbea`); what they share is in
`shared`. Nothing here knows a game: it reads tune.json (see `sanssim.runner.tuning`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sanssim.analysis.document import Block, Heading, Para
from sanssim.analysis.section import Answer, Context, Section
from sanssim.analysis.tuning import halving, ntbea
from sanssim.analysis.tuning.shared import is_ntbea
from sanssim.runformat import TUNE


def summary_lines(data: dict[str, Any]) -> list[str]:
    """The printed summary: the search, the finalists on fresh deals, the verdict."""
    return (ntbea if is_ntbea(data) else halving).summary_lines(data)


def _find(ctx: Context) -> list[tuple[Path, dict[str, Any]]]:
    """tune.json files beside the reported runs."""
    found = []
    for folder in sorted({run.path.parent.resolve() for run in ctx.data.runs}):
        path = folder / TUNE
        if path.is_file():
            try:
                found.append((folder, json.loads(path.read_text(encoding="utf-8"))))
            except (OSError, ValueError):
                continue
    return found


def build(ctx: Context) -> Section:
    """The search: objective by candidate and by budget spent, and best against default."""
    blocks: list[Block] = []
    findings: list[str] = []
    for i, (folder, data) in enumerate(_find(ctx)):
        if data.get("status") != "complete":
            blocks.append(Para(f"{folder.name}: the tune is not complete; resume it first."))
            continue
        blocks += _search(ctx, folder, data, f"tune{i}" if i else "tune", findings)
    if blocks:
        blocks.insert(0, Heading(2, "Tuning search"))
    # the verdict of the search is the question a tune's report asks: never cut
    return Section(blocks, [], [], answer=[Answer(f) for f in findings])


def _search(
    ctx: Context, folder: Path, data: dict[str, Any], name: str, findings: list[str]
) -> list[Block]:
    method = ntbea if is_ntbea(data) else halving
    return method.search_blocks(ctx, folder, data, name, findings)


SECTIONS = (build,)
