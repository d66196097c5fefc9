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
from sanssim.runner import precision
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
from sanssim.runner.precision import Precision

RUNS_DIR = Path("runs")
LATEST = "latest"


@dataclass(frozen=True)
class Plan:
    """Arms with their directories, and which of them continue an earlier run."""

    out: Path
    arms: tuple[Arm, ...]
    dirs: tuple[Path, ...]
    continuing: tuple[bool, ...]
    precision: Precision | None = None

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
    """`--resume`: the arms recorded in an existing run or experiment directory (and the
    precision targets it was started with)."""
    if (out / INDEX).is_file():
        names = [entry["name"] for entry in read_json(out / INDEX).get("arms", [])]
        arms = tuple(Arm(name, config_from(out / name)) for name in names)
        dirs = tuple(out / name for name in names)
    elif (out / MANIFEST).is_file():
        arms, dirs = (Arm(None, config_from(out)),), (out,)
    else:
        raise RunError(f"nothing to resume: {out} holds no {MANIFEST} or {INDEX}")
    texts = read_json(dirs[0] / MANIFEST).get("precision", {}).get("targets")
    precision = with_precision(arms, texts) if texts else None
    return Plan(out, arms, dirs, tuple(True for _ in arms), precision)


def with_precision(arms: Sequence[Arm], texts: Sequence[str]) -> Precision:
    """`--precision` targets for these arms, which must share their cap (`games`)."""
    caps = {arm.config.games for arm in arms}
    if len(caps) > 1:
        raise RunError("--precision needs every arm to have the same games (the cap)")
    return precision.parse(texts, [arm.name for arm in arms], caps.pop())


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
    targets = run_plan.precision
    for arm, run_dir, continuing in zip(
        run_plan.arms, run_plan.dirs, run_plan.continuing, strict=True
    ):
        ident = identity(arm.config)
        job = GameJob(arm.config, ident["run_id"])
        if not continuing:
            size = chunk_size or chunk_size_for(arm.config.games, executor.workers)
            header: dict[str, Any] = {"command": command, **ident}
            if targets is not None:
                size = precision.chunk_size(size, targets)
                header["precision"] = {"targets": list(targets.texts)}
            init_run(run_dir, job, header, size)
        jobs.append(job)
    looks = [None] if targets is None else targets.rule.looks()
    played: dict[Path, list[Outcome]] = {d: [] for d in run_plan.dirs}
    for look in looks:
        for arm, run_dir, job in zip(run_plan.arms, run_plan.dirs, jobs, strict=True):
            if progress is None:
                played[run_dir].append(run_batch(run_dir, job, executor, until=look))
                continue
            done = games_done(read_json(run_dir / MANIFEST))
            total = job.games if look is None else min(look, job.games)
            with progress(arm.name or run_dir.name, total, done) as update:
                played[run_dir].append(run_batch(run_dir, job, executor, update, look))
        if targets is not None and look is not None:
            named = {
                arm.name or precision.SINGLE_ARM: d
                for arm, d in zip(run_plan.arms, run_plan.dirs, strict=True)
            }
            stop, report = precision.evaluate(named, targets, look)
            if stop:
                for run_dir in run_plan.dirs:
                    _stopped_at(run_dir, look, report)
                break
    return [_merged(outcomes) for outcomes in played.values()]


def _stopped_at(run_dir: Path, look: int, report: dict[str, Any]) -> None:
    """A run to a precision ends at a look: the games below it are the run."""
    manifest = read_json(run_dir / MANIFEST)
    manifest["games"] = min(look, manifest["games"])
    manifest["status"] = "complete"
    manifest["precision"] |= {"stopped_at": manifest["games"], "achieved": report}
    write_json(run_dir / MANIFEST, manifest)


def _merged(outcomes: list[Outcome]) -> Outcome:
    """One arm's outcome over the looks it was played in."""
    last = outcomes[-1]
    return Outcome(
        run_dir=last.run_dir,
        played=sum(o.played for o in outcomes),
        done=last.done,
        failed=last.failed,
        seconds=sum(o.seconds for o in outcomes),
    )


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
