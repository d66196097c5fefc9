"""What the report of every tune method shares: the objective's unit and intervals, the
candidates' values, the finalists on fresh deals and the verdict, and the other metrics of
the best against the default.

Nothing here knows a game: it reads tune.json (see `sanssim.runner.tuning`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from sanssim.analysis import figures, fmt, paired, quality
from sanssim.analysis import objective as obj
from sanssim.analysis.document import Block, Para, Table
from sanssim.analysis.errors import ReportError
from sanssim.analysis.quality import margin
from sanssim.games import get_game
from sanssim.rundir import check_manifest, scan
from sanssim.runformat import MANIFEST, RESULTS
from sanssim.seeding import derive_seed

if TYPE_CHECKING:
    from sanssim.analysis.section import Context

SHOWN = 8  # candidates listed in the printed summary
PERCENT = ("against", "seat-balance", "rspread")  # objectives read as percentages


def unit_scale(data: dict[str, Any]) -> tuple[float, str]:
    """Win shares and relative spreads read as percentages, other objectives in their own
    unit."""
    return _kind_scale(data["objective"]["kind"])


def _kind_scale(kind: str) -> tuple[float, str]:
    return (100.0, "%") if kind in PERCENT else (1.0, "")


def interval(data: dict[str, Any], est: dict[str, Any], signed: bool = False) -> str:
    """`estimate [lo, hi], n = deals`; a difference of percentages in points."""
    return _interval(data["objective"]["kind"], est, signed)


def _interval(kind: str, est: dict[str, Any], signed: bool = False) -> str:
    scale, unit = _kind_scale(kind)
    unit = " pp" if signed and unit else unit
    text = fmt.interval(
        scale * est["estimate"], scale * est["lo"], scale * est["hi"], signed=signed, unit=unit
    )
    return fmt.followed(text, f", n = {est['n']:,}")


def values_text(candidate: dict[str, Any]) -> str:
    text = ", ".join(f"{k}={v}" for k, v in candidate["values"].items())
    return f"{text} (default)" if candidate["default"] else text


def verdict_line(data: dict[str, Any]) -> str:
    """Whether the best differs from the default on the fresh deals."""
    final = data["final"]
    diff = final["best_vs_default"]
    best = data["candidates"][final["best"]]
    return (
        f"best {best['label']} ({values_text(best)}) minus default on fresh deals, paired game "
        f"by game: {interval(data, diff, signed=True)}: {diff['verdict']}"
        f"{undecided_note(data, diff)} (objective: {data['objective']['goal']})"
    )


def undecided_note(data: dict[str, Any], diff: dict[str, Any]) -> str:
    """When the budget could not decide: about how many more games each finalist needs for
    an interval of ± the difference seen (half the present width when none was seen), since
    the width shrinks as 1/sqrt(games)."""
    if diff["verdict"] != "no clear difference":
        return ""
    half = (diff["hi"] - diff["lo"]) / 2
    wanted = abs(diff["estimate"]) or half / 2
    if not half > 0:
        return ""
    per_deal = len(data["final"].get("seeds", ())) or 1
    deals = diff["n"] * (half / wanted) ** 2
    more = max(round((deals - diff["n"]) * per_deal, -2), 100)
    scale, unit = _kind_scale(data["objective"]["kind"])
    unit = " pp" if unit else ""
    return (
        f": about {more:,.0f} more games per finalist would be needed for "
        f"±{scale * wanted:.2g}{unit}"
    )


def is_ntbea(data: dict[str, Any]) -> bool:
    """A tune by `--method ntbea` (tune.json without a method: halving)."""
    return data["settings"].get("method") == "ntbea"


def final_lines(data: dict[str, Any]) -> list[str]:
    """The finalists and the default on fresh deals, and the verdict (once measured)."""
    if "final" not in data:
        return []
    lines = [
        "\nre-measured on fresh deals (95% CI), in the order the search ranked them: the "
        "first is its choice, measured here free of the optimism of having been picked:"
    ]
    for cid in data["final"]["measured"]:
        c = data["candidates"][cid]
        lines.append(f"  {c['label']}  {interval(data, c['final'])}  {values_text(c)}")
    return [*lines, "\n" + verdict_line(data)]


def order(data: dict[str, Any], estimate: float) -> float:
    return -estimate if data["objective"]["goal"] == "maximise" else estimate


def scaled(estimates: list[dict[str, Any] | None], scale: float) -> list[list[float | None]]:
    """Estimates, lower and upper ends in the objective's unit (None where not measured)."""
    return [
        [None if est is None else scale * est[key] for est in estimates]
        for key in ("estimate", "lo", "hi")
    ]


def candidate_figure(
    ctx: Context, name: str, data: dict[str, Any], title: str, labels: list[str], series: list[Any]
) -> tuple[Path, float | None]:
    """The objective by candidate (95% intervals), the default on fresh deals dashed; with
    that reference (None when the default was not re-measured)."""
    scale, unit = unit_scale(data)
    figure = ctx.figure(f"{name}_by_candidate")
    default = data["candidates"][0]
    reference = scale * default["final"]["estimate"] if "final" in default else None
    axis = f"{data['objective']['text']} ({unit or 'value'}, 95% CI)"
    figures.intervals(figure, title, labels, series, axis, reference=reference)
    return figure, reference


def closing_blocks(
    folder: Path, data: dict[str, Any], findings: list[str], blocks: list[Block]
) -> list[Block]:
    """The search's figures and tables (`blocks`), then the verdict (also a key finding)
    and the other metrics of the finalists."""
    verdict = verdict_line(data)
    findings.append(f"Tuning: {verdict}.")
    return [*blocks, Para(f"Best against default: {verdict}."), *other_metrics(folder, data)]


def other_metrics(folder: Path, data: dict[str, Any]) -> list[Block]:
    """What the best changes besides the objective: the paired differences of the generic
    per-game metrics on the fresh deals (for --against, the rotation with the tuned strategy
    in seat 0)."""
    suffix = "-s0" if data["objective"]["kind"] == "against" else ""
    best = data["candidates"][data["final"]["best"]]["label"]
    frames = [_with_sides(folder / f"{label}-final{suffix}") for label in (best, "c000")]
    names = frames[0].collect_schema().names()
    lowest = get_game(data["game"]).lowest_wins
    comparison = paired.compare(
        *frames,
        length="rounds" if "rounds" in names else None,
        extra={"margin": margin(lowest)},
    )
    rows = [
        [
            r["metric"],
            f"{r['mean_a']:.4g}",
            f"{r['mean_b']:.4g}",
            fmt.diff({"x_d": r["diff"], "x_lo": r["lo"], "x_hi": r["hi"]}, "x", 2),
            str(r["n_a"]),
        ]
        for r in comparison.table.iter_rows(named=True)
    ]
    return [
        Para(
            f"Other metrics, {best} minus the default on the same fresh deals "
            f"({comparison.reason}): mean_total is the mean final score, margin how far the "
            "winning total is ahead of the best other side's"
            + (" (the lowest total wins: how far below it)" if lowest else "")
            + ", seatK_win seat K's win share, length the rounds played (where the game logs "
            "them)."
        ),
        Table(["metric", best, "default", "difference (95% CI)", "games"], rows, measure=0),
        *_group_forms(folder, data),
    ]


def _group_forms(folder: Path, data: dict[str, Any]) -> list[Block]:
    """For an objective on a grouped measure, all three of its forms (`objective` says why
    one alone can mislead) for the best and the default on the fresh deals, the difference
    paired deal by deal."""
    if data["objective"]["kind"] not in obj.GROUPED:
        return []
    game_type = get_game(data["game"])
    group = data["objective"]["text"].partition(":")[2]
    ids = (data["final"]["best"], 0)
    best = data["candidates"][ids[0]]["label"]
    parts = [_group_part(game_type, group, folder / f"c{cid:03d}-final") for cid in ids]
    seed = data["settings"]["seed"]
    rows = []
    for kind in obj.GROUPED:
        objective = obj.parse(f"{kind}:{group}", None, game_type, data["settings"]["players"])
        deals = [objective.per_deal([part]) for part in parts]
        # the tune's own seeds, so that the tuned form repeats its figures exactly
        ests = [
            obj.estimate(objective, d, derive_seed(seed, "final-ci", cid)).to_dict()
            for cid, d in zip(ids, deals, strict=True)
        ]
        diff = obj.difference(objective, *deals, derive_seed(seed, "diff"))
        rows.append(
            [
                objective.text,
                *(_interval(kind, e) for e in ests),
                _interval(kind, diff.to_dict(), signed=True),
            ]
        )
    return [
        Para(
            f"The grouped measure three ways, {best} and the default on the same fresh deals "
            "(95% CI, n = games; bootstrap over games, the difference paired game by game): "
            f"spread is the largest minus the smallest group mean of {group}, rspread that "
            "spread as a share of the mean of the group means (paying more to every group "
            "lowers it), zspread that spread in pooled standard deviations within groups "
            "(unchanged by paying more or less to every group alike)."
        ),
        Table(["objective", best, "default", "difference"], rows),
    ]


def _with_sides(path: Path) -> pl.LazyFrame:
    """A final arm's results with each row's `side` (its team, if the game has teams)."""
    manifest = _manifest(path)
    return quality.sided(scan(path, manifest, RESULTS), quality.manifest_teams(manifest))


def _group_part(game_type: Any, group: str, path: Path) -> obj.Part:
    """One final arm's games and its grouped measure, valued by the game it played."""
    manifest = _manifest(path)
    config = manifest["config"]
    game = game_type.new_game(
        config["n_players"],
        game_type.options_from_config(config),
        game_type.components_from_manifest(manifest["components"]),
    )
    results = scan(path, manifest, RESULTS)
    return obj.Part("final", results, groups=game_type.groups()[group].values(results, game))


def _manifest(path: Path) -> dict[str, Any]:
    """An arm's manifest, checked, or one line naming what is wrong with it."""
    try:
        manifest = json.loads((path / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ReportError(f"{path}: unreadable {MANIFEST}: {exc}") from None
    check_manifest(path, manifest)
    return manifest
