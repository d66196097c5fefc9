"""Runs of one game as one labelled dataset: every row carries its arm.

An arm is one game design: player count, the game's options, strategy line-up by
seat and component data. Runs of the same design are pooled; different designs
are kept apart, labelled by their experiment arm names or by what differs.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import polars as pl

from sanssim.analysis.errors import ReportError
from sanssim.analysis.load import Run, discover, open_run
from sanssim.errors import SanssimError
from sanssim.games import DEFAULT_GAME, GameType, get_game
from sanssim.runformat import INDEX
from sanssim.strategies import short_spec

# Results columns every game writes (the run format's common columns).
COMMON_COLUMNS = ["game_id", "n_players", "seat", "strategy", "total", "rank", "winner"]


@dataclass(frozen=True)
class Dataset:
    """Runs of one game as labelled arms. `design` names what makes an arm: the player
    count, the game's options, the strategy line-up and the component data."""

    game_type: GameType
    runs: list[Run]
    design: list[str]
    arms: pl.DataFrame  # one row per arm: arm, design columns, strategies, games, runs
    results: pl.LazyFrame  # results rows with `run` and `arm`
    turns: pl.LazyFrame | None  # turn rows with `run` and `arm`, of runs that logged turns

    @property
    def arm_labels(self) -> list[str]:
        return self.arms["arm"].to_list()

    @cached_property
    def turn_counts(self) -> pl.DataFrame | None:
        """Turns logged per game (`run`, `game_id`, `turns`), counted once in one pass over
        the turn logs for every pair of arms compared (None without a turn log)."""
        if self.turns is None:
            return None
        counted = self.turns.group_by("run", "game_id").agg(pl.len().alias("turns"))
        return counted.collect(engine="streaming")

    def arms_without_turns(self) -> list[str]:
        logged = {i for i, r in enumerate(self.runs) if r.turns is not None}
        return sorted(
            {
                a
                for a, runs in zip(self.arms["arm"], self.arms["runs"], strict=True)
                if not set(runs) & logged
            }
        )


def variant_name(game_type: GameType, arm: dict) -> str:
    """The on/off options in force (`expansion+duplicate_reshuffle`), `base` for none."""
    names = [o.name for o in game_type.options if o.kind is bool and arm.get(o.name)]
    return "+".join(names) or "base"


def _fingerprint(value: object) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:8]


def _design_value(value: object) -> str:
    """An option's recorded value as one comparable text (lists as JSON)."""
    if value is None:
        return "by players"
    return value if isinstance(value, str) else json.dumps(value)


def _game_of(runs: list[Run]) -> GameType:
    """The one game the runs play; a report never mixes games."""
    names = {run.manifest.get("game", DEFAULT_GAME) for run in runs}
    if len(names) > 1:
        listed = "; ".join(f"{r.path.name}: {r.manifest.get('game', DEFAULT_GAME)}" for r in runs)
        raise ReportError(f"a report covers one game, these runs play several ({listed})")
    try:
        return get_game(names.pop())
    except SanssimError as exc:
        raise ReportError(str(exc)) from None


def _strategies(lineup: str, game: str) -> str:
    """One label when every seat plays the same strategy, else the line-up by seat; each
    strategy by name and its non-default parameters."""
    seats = [short_spec(s, game) for s in lineup.split(" | ")]
    return seats[0] if len(set(seats)) == 1 else " | ".join(seats)


def _labels(game_type: GameType, designs: pl.DataFrame, names: list[str | None]) -> list[str]:
    """Name each arm by its experiment arm name when it has one, else by the design facets
    that differ between arms; strategies by name and non-default parameters only."""
    if all(names) and len(set(names)) == len(names):
        return names  # type: ignore[return-value]
    rows = designs.to_dicts()
    facets = {
        "players": [f"{r['n_players']}p" for r in rows],
        "variant": [variant_name(game_type, r) for r in rows],
        **{
            o.name: [f"{o.report_label} {r[o.name]}" for r in rows]
            for o in game_type.options
            if o.kind is not bool
        },
        "strategies": [_strategies(r["lineup"], game_type.name) for r in rows],
        "components": [r["components"] for r in rows],
    }
    varying = [v for v in facets.values() if len(set(v)) > 1]
    if not varying:
        return ["all games"] * designs.height
    return [", ".join(parts) for parts in zip(*varying, strict=True)]


def _arm_name(run: Run) -> str | None:
    """The arm's name in its experiment file, when the run is an experiment's arm."""
    index = run.path.parent / INDEX
    if not index.is_file():
        return None
    try:
        arms = json.loads(index.read_text(encoding="utf-8")).get("arms", [])
    except (OSError, ValueError, AttributeError):
        return None
    names = {a.get("path"): a.get("name") for a in arms if isinstance(a, dict)}
    return names.get(run.path.name)


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
    found = discover(paths)
    runs = [open_run(p, COMMON_COLUMNS) for p in found]
    game_type = _game_of(runs)
    options = [o.name for o in game_type.options]
    design = ["n_players", *options, "lineup", "components"]
    # Options the results rows carry (`options_in_results`) come from there; the others
    # from each run's manifest.
    from_results = set(game_type.options_in_results)
    wanted = [
        c
        for c in game_type.result_schema
        if c != "run_id" and (c not in options or c in from_results)
    ]
    default = _default_components(game_type)
    frames = []
    for i, run in enumerate(runs):
        present = run.results.collect_schema().names()
        frames.append(
            run.results.select(
                *(
                    pl.col(name) if name in present else pl.lit(None, dtype).alias(name)
                    for name, dtype in ((c, game_type.result_schema[c]) for c in wanted)
                ),
            ).with_columns(
                run=pl.lit(i, pl.Int32),
                lineup=_lineup(run.results),
                components=pl.lit(_components_label(default, run)),
                **{
                    name: pl.lit(value) if isinstance(value, bool) else pl.lit(_design_value(value))
                    for name, value in _option_values(game_type, run).items()
                    if name not in from_results or name not in present
                },
            )
        )
    designs = (
        pl.concat(frames, how="vertical_relaxed")
        .filter(pl.col("seat") == 0)
        .group_by(design)
        .agg(games=pl.len(), runs=pl.col("run").unique().sort())
        .sort(design)
        .collect(engine="streaming")
    )
    names = [
        "+".join(sorted({_arm_name(runs[i]) or "" for i in members})) or None
        for members in designs["runs"]
    ]
    arms = designs.with_columns(
        arm=pl.Series(_labels(game_type, designs, names), dtype=pl.String),
        strategies=pl.Series(
            [_strategies(lineup, game_type.name) for lineup in designs["lineup"]],
            dtype=pl.String,
        ),
    )
    if arms["arm"].n_unique() < arms.height:  # same facets, e.g. two line-ups with equal names
        arms = arms.with_columns(arm=pl.format("{} #{}", "arm", pl.int_range(pl.len()) + 1))
    _check_overlap(runs, arms["runs"].to_list())
    design_arm = arms.lazy().select([*design, "arm"])
    labelled = [_with_arm(frame, i, arms, design_arm) for i, frame in enumerate(frames)]
    # Collected once: every section asks many questions of the results, often arm by arm, and
    # a lazy concat would read every run's files again for each (they are small; turns are not).
    results = pl.concat(labelled, how="vertical_relaxed").collect().lazy()
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
    return Dataset(game_type, runs, design, arms, results, turns)


def _option_values(game_type: GameType, run: Run) -> dict[str, object]:
    """Each of the game's options as the run's manifest recorded it (None if it did not)."""
    try:
        recorded = game_type.options_from_config(run.config)
    except (KeyError, TypeError, AttributeError):
        recorded = {}
    return {o.name: recorded.get(o.name) for o in game_type.options}


def _default_components(game_type: GameType) -> dict | None:
    """The packaged component data as a manifest records it (None if it cannot load)."""
    try:
        return game_type.load_components().to_dict()
    except SanssimError:
        return None


def _components_label(default: dict | None, run: Run) -> str:
    """`default components`, or the user's file by name (and a short hash, which tells two
    files of the same name apart)."""
    recorded = run.manifest.get("components")
    if recorded == default:
        return "default components"
    source = run.manifest.get("components_file")
    name = Path(source).name if isinstance(source, str) else "custom"
    return f"components {name} ({_fingerprint(recorded)})"
