"""An NTBEA tune (`sanssim tune --method ntbea`) in words, tables and figures: the printed
summary and the report's "Tuning search" section. Halving's are in `halving`; the
formatting, final re-measurement and verdict both share are in `shared`.

An NTBEA tune.json has no rounds: it lists every evaluation (the point, its value, the
model's mean there and the leader after it), each visited point's model mean and pooled
estimate, and per dimension and value the evaluations' mean (the model's single-dimension
tuples)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from sanssim.analysis import figures
from sanssim.analysis.document import Block, Figure, Para, Table
from sanssim.analysis.section import Context
from sanssim.analysis.tuning import shared

TABLED = 12  # points in the report's table and figure, besides the default and finalists


def ranked(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Visited points as the tune ranked its finalists: best model mean first, those
    evaluated fewer than `min_visits` times after the others."""
    fewest = data["schedule"]["min_visits"]
    visited = [c for c in data["candidates"] if "model" in c]
    return sorted(
        visited, key=lambda c: (c["evaluations"] < fewest, shared.order(data, c["model"]))
    )


def _model(data: dict[str, Any], value: float) -> str:
    scale, unit = shared.unit_scale(data)
    return f"{scale * value:.{1 if unit else 3}f}{unit}"


def _walk(data: dict[str, Any]) -> str:
    schedule = data["schedule"]
    sizes = " x ".join(str(len(v)) for v in schedule["grid"].values())
    return (
        f"NTBEA: {len(data['evaluations']):,} evaluations of {schedule['deals_per_evaluation']:,} "
        f"deals (each seat rotation), {sum('model' in c for c in data['candidates']):,} points "
        f"visited on a grid of {sizes}"
    )


def summary_lines(data: dict[str, Any]) -> list[str]:
    """The printed summary: the walk, its best points, the finalists on fresh deals."""
    lines = [
        f"objective: {data['objective']['describe']}",
        f"games: {data['spent']:,} of a budget of {data['budget']:,}; {_walk(data)}",
        "\nbest points by the model (its mean; the point's own evaluations pooled, 95% CI):",
    ]
    for c in ranked(data)[: shared.SHOWN]:
        lines.append(
            f"  {c['label']}  model {_model(data, c['model'])}, {c['evaluations']} evaluations: "
            f"{shared.interval(data, c['search'])}  {shared.values_text(c)}"
        )
    return lines + shared.final_lines(data)


def search_blocks(
    ctx: Context, folder: Path, data: dict[str, Any], name: str, findings: list[str]
) -> list[Block]:
    """The walk: what it measured, the best points, the objective by budget spent, what the
    model learned per value, and the best against the default."""
    scale, unit = shared.unit_scale(data)
    schedule = data["schedule"]
    space = "; ".join(
        f"{d['name']} in {', '.join(map(str, schedule['grid'][d['name']]))}" for d in data["space"]
    )
    final = data["final"]
    blocks: list[Block] = [
        Para(
            f"`sanssim tune --method ntbea` searched {space} for the best value of: "
            f"{data['objective']['describe']}. {_walk(data)}: each evaluation plays the current "
            "point on deals of its own and feeds the N-tuple model (the mean value seen with "
            f"each single value, {'each pair of values, ' if 'pairs' in schedule['tuples'] else ''}"
            "and the whole point), and the walk moves to the neighbour with the best upper "
            f"confidence bound. Then the {len(final['measured']) - 1} best points by the model "
            f"and the default played fresh deals; {data['spent']:,} games of a budget of "
            f"{data['budget']:,}. Each interval is 95%, n = games unless said."
        )
    ]
    shown = _shown(data)
    rows = [
        [
            c["label"],
            shared.values_text(c),
            str(c.get("evaluations", 0)),
            f"{c['games']:,}",
            _model(data, c["model"]) if "model" in c else "–",
            shared.interval(data, c["search"]) if "search" in c else "–",
            shared.interval(data, c["final"]) if "final" in c else "–",
        ]
        for c in shown
    ]
    blocks.append(
        Table(
            ["point", "values", "evaluations", "games", "model", "its evaluations", "fresh deals"],
            rows,
        )
    )
    series = [
        figures.Series(title, *shared.scaled([c.get(key) for c in shown], scale), colour=colour)
        for title, key, colour in (
            ("its evaluations, pooled", "search", "#1f77b4"),
            ("fresh deals", "final", "#d62728"),
        )
    ]
    labels = [c["label"] for c in shown]
    by_candidate, reference = shared.candidate_figure(
        ctx, name, data, "Objective of the best points", labels, series
    )
    by_budget = ctx.figure(f"{name}_by_budget")
    evaluations = data["evaluations"]
    values = [scale * e["value"] for e in evaluations]
    leader = [math.nan if e["leader"] is None else scale * e["leader_model"] for e in evaluations]
    traces = [("each evaluation", values), ("the model's best point (its mean)", leader)]
    if reference is not None:
        traces.append(("default on fresh deals", [reference] * len(evaluations)))
    figures.lines(
        by_budget,
        "Objective by budget spent",
        [e["spent_after"] for e in evaluations],
        [figures.Series(label, v, v, v) for label, v in traces],  # type: ignore[arg-type]
        "games played so far",
        f"{data['objective']['text']} ({unit or 'value'})",
        points=("each evaluation",),
    )
    blocks += [
        Figure(
            by_candidate.name,
            "The best points by the model, the finalists and the default: the objective on "
            "their own evaluations pooled, and on fresh deals for the finalists; the dashed "
            "line is the default on fresh deals.",
        ),
        Figure(
            by_budget.name,
            "Each evaluation's objective (one point's batch of deals), and the model's mean "
            "at its best point so far, by games played.",
        ),
        Para(
            "What the model learned about each value: the mean objective of the evaluations "
            "with that value (n = evaluations; the other dimensions vary between them, so "
            "these are the walk's averages, not effects)."
        ),
        Table(["dimension", "value", "mean of its evaluations (95% CI)"], _singles(data)),
    ]
    return shared.closing_blocks(folder, data, findings, blocks)


def _shown(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The best points by the model, then the finalists and the default not among them."""
    best = ranked(data)[:TABLED]
    ids = {c["id"] for c in best}
    extra = [data["candidates"][cid] for cid in data["final"]["measured"] if cid not in ids]
    return best + extra


def _singles(data: dict[str, Any]) -> list[list[str]]:
    rows = []
    for dim in data["model"]:
        for v in dim["values"]:
            label = f"{v['value']}{' (default)' if v['value'] == dim['default'] else ''}"
            if v["n"] > 1:
                cell = shared.interval(data, v)
            elif v["n"] == 1:
                cell = f"{_model(data, v['estimate'])}, n = 1"
            else:
                cell = "never evaluated"
            rows.append([dim["name"], label, cell])
    return rows
