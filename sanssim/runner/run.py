"""`sanssim run` below the command line: arms into run directories, all checked first."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import polars as pl

from sanssim import __version__
from sanssim.games import DEFAULT_GAME, get_game
from sanssim.runner.batch import (
    INDEX,
    MANIFEST,
    SCHEMA_VERSION,
    Outcome,
    check_out_dir,
    chunk_size_for,
    games_done,
    init_run,
    now,
    read_json,
    run_batch,
    write_json,
)
from sanssim.runner.config import Arm, RunConfig, RunError
from sanssim.runner.executor import Executor
from sanssim.runner.job import RESULTS, GameJob

RUNS_DIR = Path("runs")
LATEST = "latest"


@dataclass(frozen=True)
class Plan:
    """Arms with their directories, and which of them continue an earlier run."""

    out: Path
    arms: tuple[Arm, ...]
    dirs: tuple[Path, ...]
    continuing: tuple[bool, ...]

    @property
    def experiment(self) -> bool:
        return self.arms[0].name is not None


def default_out() -> Path:
    """`runs/<UTC timestamp>`, never an existing directory."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    out = RUNS_DIR / stamp
    n = 1
    while out.exists():
        n += 1
        out = RUNS_DIR / f"{stamp}-{n}"
    return out


def link_latest(out: Path) -> None:
    """`runs/latest` points at the newest default run, for `make run` and reports."""
    link = out.parent / LATEST
    if link.is_symlink() or not link.exists():
        link.unlink(missing_ok=True)
        link.symlink_to(out.name)


def identity(config: RunConfig) -> dict[str, Any]:
    return {
        "game": config.game_name,
        "config": config.to_dict(),
        "components": config.components.to_dict(),
        "run_id": config.fingerprint(),
    }


def plan(out: Path, arms: Sequence[Arm], force: bool) -> Plan:
    """Check the output directory (and each arm's) can take these arms; writes nothing
    except what `force` removes."""
    if arms[0].name is None:
        continuing = check_out_dir(out, identity(arms[0].config), MANIFEST, force)
        return Plan(out, tuple(arms), (out,), (continuing,))
    top = check_out_dir(out, {"arms": _index_arms(arms)}, INDEX, force)
    dirs = tuple(out / arm.name for arm in arms)  # type: ignore[operator]
    continuing = tuple(
        top and check_out_dir(d, identity(a.config), MANIFEST, False)
        for a, d in zip(arms, dirs, strict=True)
    )
    return Plan(out, tuple(arms), dirs, continuing)


def _index_arms(arms: Sequence[Arm]) -> list[dict[str, Any]]:
    return [
        {
            "name": a.name,
            "path": a.name,
            "config": a.config.to_dict(),
            "run_id": a.config.fingerprint(),
        }
        for a in arms
    ]


def load_plan(out: Path) -> Plan:
    """`--resume`: the arms recorded in an existing run or experiment directory."""
    if (out / INDEX).is_file():
        names = [entry["name"] for entry in read_json(out / INDEX).get("arms", [])]
        arms = tuple(Arm(name, config_from(out / name)) for name in names)
        return Plan(out, arms, tuple(out / name for name in names), tuple(True for _ in arms))
    if (out / MANIFEST).is_file():
        return Plan(out, (Arm(None, config_from(out)),), (out,), (True,))
    raise RunError(f"nothing to resume: {out} holds no {MANIFEST} or {INDEX}")


def config_from(run_dir: Path) -> RunConfig:
    """A run's configuration from its manifest (a manifest without `game` is Sanssouci's)."""
    manifest = read_json(run_dir / MANIFEST)
    try:
        game_type = get_game(manifest.get("game", DEFAULT_GAME))
        components = game_type.components_from_manifest(manifest["components"])
        return RunConfig.from_dict(manifest["config"], components)
    except KeyError as exc:
        raise RunError(f"manifest lacks {exc}") from None


def execute(
    run_plan: Plan,
    executor: Executor,
    command: list[str],
    chunk_size: int | None = None,
    progress: Callable[[str, int, int], AbstractContextManager[Callable[[int], None]]]
    | None = None,
) -> list[Outcome]:
    """Run every arm in turn. `progress(label, total, done)` gives a per-arm update callback."""
    if run_plan.experiment:
        run_plan.out.mkdir(parents=True, exist_ok=True)
        index_file = run_plan.out / INDEX
        created = read_json(index_file)["created"] if index_file.is_file() else now()
        write_json(
            index_file,
            {
                "schema_version": SCHEMA_VERSION,
                "sanssim_version": __version__,
                "created": created,
                "command": command,
                "arms": _index_arms(run_plan.arms),
            },
        )
    jobs = []
    for arm, run_dir, continuing in zip(
        run_plan.arms, run_plan.dirs, run_plan.continuing, strict=True
    ):
        ident = identity(arm.config)
        job = GameJob(arm.config, ident["run_id"])
        if not continuing:
            size = chunk_size or chunk_size_for(arm.config.games, executor.workers)
            init_run(run_dir, job, {"command": command, **ident}, size)
        jobs.append(job)
    outcomes = []
    for arm, run_dir, job in zip(run_plan.arms, run_plan.dirs, jobs, strict=True):
        if progress is None:
            outcomes.append(run_batch(run_dir, job, executor))
            continue
        done = games_done(read_json(run_dir / MANIFEST))
        with progress(arm.name or run_dir.name, job.games, done) as update:
            outcomes.append(run_batch(run_dir, job, executor, update))
    return outcomes


def summary(run_dir: Path) -> pl.DataFrame:
    """Per seat: strategy, games, mean score and win rate, from the results parts."""
    files = sorted((run_dir / RESULTS).glob("*.parquet"))
    if not files:
        return pl.DataFrame()
    return (
        pl.scan_parquet(files)
        .group_by("seat", "strategy")
        .agg(
            pl.len().alias("games"),
            pl.col("total").mean().alias("mean_score"),
            pl.col("winner").mean().alias("win_rate"),
        )
        .sort("seat")
        .collect()
    )
