"""A tune by successive halving (`sanssim tune`, the default method) in words, tables and
figures: its printed summary and its part of the report's "Tuning search" section."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sanssim.analysis import figures
from sanssim.analysis.document import Block, Figure, Para, Table
from sanssim.analysis.section import Context
from sanssim.analysis.tuning.shared import (
    SHOWN,
    candidate_figure,
    closing_blocks,
    final_lines,
    interval,
    order,
    scaled,
    unit_scale,
    values_text,
)


def summary_lines(data: dict[str, Any]) -> list[str]:
    """The printed summary: the rounds, the finalists on fresh deals, the verdict."""
    lines = [
        f"objective: {data['objective']['describe']}",
        f"games: {data['spent']:,} of a budget of {data['budget']:,}; "
        f"{len(data['candidates'])} candidates, {_rounds(data)} of halving",
    ]
    for r in data["rounds"]:
        lines.append(
            f"  round {r['round']}: {len(r['measured'])} candidates x {r['deals']:,} deals, "
            f"kept {', '.join(data['candidates'][c]['label'] for c in r['kept'])}"
        )
    ranked = [c for c in data["candidates"] if "halving" in c]
    ranked.sort(key=lambda c: (-c["rounds"], order(data, c["halving"]["estimate"])))
    lines.append("\nbest candidates (all deals of the rounds they played, 95% CI):")
    for c in ranked[:SHOWN]:
        lines.append(f"  {c['label']}  {interval(data, c['halving'])}  {values_text(c)}")
    return lines + final_lines(data)


def _rounds(data: dict[str, Any]) -> str:
    count = len(data["rounds"])
    return f"{count} round{'s' if count != 1 else ''}"


def search_blocks(
    ctx: Context, folder: Path, data: dict[str, Any], name: str, findings: list[str]
) -> list[Block]:
    """The rounds: each candidate's objective, the objective by budget spent, and the best
    against the default."""
    scale, unit = unit_scale(data)
    space = "; ".join(
        f"{d['name']} in {('..' if d['range'] else '|').join(map(str, d['domain']))}"
        for d in data["space"]
    )
    blocks: list[Block] = [
        Para(
            f"`sanssim tune` searched {space} for the best value of: "
            f"{data['objective']['describe']}. {len(data['candidates'])} candidates (the "
            f"default first), {_rounds(data)} of successive halving on shared "
            f"deals, then the {len(data['final']['measured']) - 1} best and the default on "
            f"fresh deals; {data['spent']:,} games of a budget of {data['budget']:,}. Each "
            "interval is 95%, n = games."
        )
    ]
    rows = []
    for c in data["candidates"]:
        rows.append(
            [
                c["label"],
                values_text(c),
                str(c["rounds"]),
                f"{c['games']:,}",
                interval(data, c["halving"]) if "halving" in c else "–",
                interval(data, c["final"]) if "final" in c else "–",
            ]
        )
    blocks.append(
        Table(["candidate", "values", "rounds", "games", "halving estimate", "fresh deals"], rows)
    )
    labels = [c["label"] for c in data["candidates"] if "halving" in c]
    halving = {c["label"]: c["halving"] for c in data["candidates"] if "halving" in c}
    fresh = {c["label"]: c["final"] for c in data["candidates"] if "final" in c}
    series = [
        figures.Series(title, *scaled([source.get(lb) for lb in labels], scale), colour=colour)
        for title, source, colour in (
            ("shared deals of the halving rounds", halving, "#1f77b4"),
            ("fresh deals", fresh, "#d62728"),
        )
    ]
    by_candidate, _ = candidate_figure(ctx, name, data, "Objective by candidate", labels, series)
    spent = [r["spent_after"] for r in data["rounds"]]
    best = [
        r["estimates"][str(r["ranking"][0])] if r["ranking"] else r["estimates"]["0"]
        for r in data["rounds"]
    ]
    defaults = [r["estimates"]["0"] for r in data["rounds"]]
    by_budget = ctx.figure(f"{name}_by_budget")
    figures.lines(
        by_budget,
        "Objective by budget spent",
        spent,
        [
            figures.Series(label, *scaled(ests, scale))
            for label, ests in (("leader after the round", best), ("default", defaults))
        ],
        "games played so far",
        f"{data['objective']['text']} ({unit or 'value'})",
    )
    blocks += [
        Figure(
            by_candidate.name,
            "Each candidate's objective on the shared deals of the rounds it played, and on "
            "fresh deals for the finalists; the dashed line is the default on fresh deals.",
        ),
        Figure(
            by_budget.name,
            "The round leader's and the default's objective after each round of halving, by "
            "games played.",
        ),
    ]
    return closing_blocks(folder, data, findings, blocks)
