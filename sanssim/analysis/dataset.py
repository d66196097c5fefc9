"""Sanssouci runs as one labelled dataset: every row carries its arm.

An arm is one game design: player count, variants, tile set, strategy line-up by
seat, garden-side policy and component data. Runs of the same design are pooled;
different designs are kept apart and labelled by what differs between them.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from sanssim.analysis.errors import ReportError
from sanssim.analysis.load import Run, discover, open_run

RESULT_COLUMNS = [
    "game_id",
    "n_players",
    "expansion",
    "duplicate_reshuffle",
    "tile_set",
    "seat",
    "strategy",
    "garden_side",
    "expansion_side",
    "mission_a",
    "mission_b",
    "noble_points",
    "expansion_points",
    "row_bonus",
    "column_bonus",
    "mission_points",
    "total",
    "gardeners",
    "rows_completed",
    "columns_completed",
    "noble_rows",
    "winner",
]
# Not in the run-format spec, used when present: all duplicate-reshuffle redraws of a game,
# those at setup included (the turn log has only those after refills).
OPTIONAL_COLUMNS = {"reshuffles": pl.Int64}
SOURCES = ["noble_points", "expansion_points", "row_bonus", "column_bonus", "mission_points"]
DESIGN = [
    "n_players",
    "expansion",
    "duplicate_reshuffle",
    "tile_set",
    "lineup",
    "policy",
    "components",
]


@dataclass(frozen=True)
class Dataset:
    runs: list[Run]
    arms: pl.DataFrame  # one row per arm: arm, DESIGN columns, strategies, games, runs
    results: pl.LazyFrame  # results rows with `run` and `arm`
    turns: pl.LazyFrame | None  # turn rows with `run` and `arm`, of runs that logged turns
    side_columns: pl.DataFrame  # run, garden_side, symbol, col
    expansion_boards: pl.DataFrame  # run, expansion_side, board

    @property
    def arm_labels(self) -> list[str]:
        return self.arms["arm"].to_list()

    def arms_without_turns(self) -> list[str]:
        logged = {i for i, r in enumerate(self.runs) if r.turns is not None}
        return sorted(
            {
                a
                for a, runs in zip(self.arms["arm"], self.arms["runs"], strict=True)
                if not set(runs) & logged
            }
        )


def variant_name(expansion: bool, reshuffle: bool) -> str:
    names = [n for n, on in (("expansion", expansion), ("duplicate_reshuffle", reshuffle)) if on]
    return "+".join(names) or "base"


def _fingerprint(value: object) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:8]


def _policy(run: Run) -> str:
    """The garden-side policy as configured (`random`, one side id, or one per seat)."""
    value = run.config.get("garden_sides", "random")
    return value if isinstance(value, str) else json.dumps(value)


def _component_tables(runs: list[Run]) -> tuple[pl.DataFrame, pl.DataFrame]:
    cols, boards = [], []
    for i, run in enumerate(runs):
        comps = run.manifest.get("components") or {}
        try:
            cols += [
                (i, side["id"], symbol, c)
                for side in comps["garden_sides"]
                for c, symbol in enumerate(side["columns"])
            ]
            boards += [(i, e["id"], e["board"]) for e in comps.get("expansion_sides", [])]
        except (KeyError, TypeError):
            raise ReportError(f"{run.path}: manifest lacks the garden sides' columns") from None
    schema_c = {"run": pl.Int32, "garden_side": pl.String, "symbol": pl.String, "col": pl.Int64}
    schema_b = {"run": pl.Int32, "expansion_side": pl.String, "board": pl.Int64}
    return (
        pl.DataFrame(cols, schema=schema_c, orient="row"),
        pl.DataFrame(boards, schema=schema_b, orient="row"),
    )


def _strategies(lineup: str) -> str:
    """One name when every seat plays the same strategy, else the line-up by seat."""
    seats = lineup.split(" | ")
    return seats[0] if len(set(seats)) == 1 else lineup


def _labels(designs: pl.DataFrame) -> list[str]:
    """Name each arm by the design facets that differ between arms."""
    facets = {
        "players": [f"{n}p" for n in designs["n_players"]],
        "variant": [
            variant_name(e, d)
            for e, d in zip(designs["expansion"], designs["duplicate_reshuffle"], strict=True)
        ],
        "tiles": [f"tiles {t}" for t in designs["tile_set"]],
        "strategies": [_strategies(lineup) for lineup in designs["lineup"]],
        "sides": [f"sides {p}" for p in designs["policy"]],
        "components": [f"components {c}" for c in designs["components"]],
    }
    varying = [v for v in facets.values() if len(set(v)) > 1]
    if not varying:
        return ["all games"] * designs.height
    return [", ".join(parts) for parts in zip(*varying, strict=True)]


def _check_overlap(runs: list[Run], arm_runs: list[list[int]]) -> None:
    """Runs pooled into one arm must not replay the same games (same design, same seed)."""
    for members in arm_runs:
        seen: dict[object, Run] = {}
        for i in members:
            seed = runs[i].config.get("seed")
            if seed is not None and seed in seen:
                raise ReportError(
                    f"{seen[seed].path} and {runs[i].path} have the same design and seed "
                    f"{seed}, so they hold the same games; report on one of them"
                )
            seen[seed] = runs[i]


def _lineup(results: pl.LazyFrame) -> pl.Expr:
    """Strategies by seat: a constant when the run has one player count and one strategy
    per seat (no per-game window, which would hold the whole table in memory)."""
    seats = results.select("n_players", "seat", "strategy").unique().collect(engine="streaming")
    if seats["n_players"].n_unique() == 1 and seats["seat"].is_unique().all():
        return pl.lit(" | ".join(seats.sort("seat")["strategy"]))
    return pl.col("strategy").sort_by("seat").str.join(" | ").over("game_id")


def _with_arm(frame: pl.LazyFrame, run: int, arms: pl.DataFrame, on: pl.LazyFrame) -> pl.LazyFrame:
    """Label rows of run `run` with their arm: a constant when the run is one arm, else a
    join with `on` (columns giving the arm). Streaming joins of big tables cost memory."""
    labels = arms.filter(pl.col("runs").list.contains(run))["arm"]
    if labels.len() == 1:
        return frame.with_columns(arm=pl.lit(labels[0]))
    return frame.join(on, on=[c for c in on.collect_schema().names() if c != "arm"])


def load_dataset(paths: list[Path]) -> Dataset:
    runs = [open_run(p, RESULT_COLUMNS) for p in discover(paths)]
    frames = []
    for i, run in enumerate(runs):
        frames.append(
            run.results.select(
                *RESULT_COLUMNS,
                *(
                    pl.col(name)
                    if name in run.results.collect_schema()
                    else pl.lit(None, dtype).alias(name)
                    for name, dtype in OPTIONAL_COLUMNS.items()
                ),
            ).with_columns(
                run=pl.lit(i, pl.Int32),
                lineup=_lineup(run.results),
                policy=pl.lit(_policy(run)),
                components=pl.lit(_fingerprint(run.manifest.get("components"))),
            )
        )
    designs = (
        pl.concat(frames, how="vertical_relaxed")
        .filter(pl.col("seat") == 0)
        .group_by(DESIGN)
        .agg(games=pl.len(), runs=pl.col("run").unique().sort())
        .sort(["n_players", "tile_set", "expansion", "duplicate_reshuffle", "lineup", "policy"])
        .collect(engine="streaming")
    )
    arms = designs.with_columns(
        arm=pl.Series(_labels(designs)),
        strategies=pl.Series(
            [_strategies(lineup) for lineup in designs["lineup"]], dtype=pl.String
        ),
    )
    if arms["arm"].n_unique() < arms.height:  # same facets, e.g. two line-ups with equal names
        arms = arms.with_columns(arm=pl.format("{} #{}", "arm", pl.int_range(pl.len()) + 1))
    _check_overlap(runs, arms["runs"].to_list())
    design_arm = arms.lazy().select([*DESIGN, "arm"])
    labelled = [_with_arm(frame, i, arms, design_arm) for i, frame in enumerate(frames)]
    results = pl.concat(labelled, how="vertical_relaxed")
    logged = [
        _with_arm(
            run.turns.with_columns(run=pl.lit(i, pl.Int32)),
            i,
            arms,
            labelled[i].filter(pl.col("seat") == 0).select("run", "game_id", "arm"),
        )
        for i, run in enumerate(runs)
        if run.turns is not None
    ]
    turns = pl.concat(logged, how="diagonal_relaxed") if logged else None
    side_columns, boards = _component_tables(runs)
    return Dataset(runs, arms, results, turns, side_columns, boards)
