"""`sanssim run` below the command line: arms into run directories, all checked first."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

import polars as pl

from sanssim import __version__
from sanssim.analysis.stats import mean_table, rate_table, win_share
from sanssim.compiled import COMPILED, PYTHON, core_for, prepare
from sanssim.games import DEFAULT_GAME, get_game
from sanssim.rundir import scan
from sanssim.runformat import INDEX, MANIFEST, RESULTS, SCHEMA_VERSION
from sanssim.runner import precision
from sanssim.runner.batch import (
    Outcome,
    check_out_dir,
    check_writable,
    chunk_size_for,
    differences,
    games_done,
    init_run,
    resumable,
    run_batch,
)
from sanssim.runner.config import Arm, RunConfig, RunError
from sanssim.runner.executor import DEFAULT_DECISION_TIMEOUT, Executor
from sanssim.runner.files import now, read_json, write_json
from sanssim.runner.job import GameJob
from sanssim.runner.precision import Precision
from sanssim.strategies import short_spec
from sanssim.strategies.playout import PlayOut

RUNS_DIR = Path("runs")
PRECISION = "to precision"  # the label of a run to a precision's one progress bar
LATEST = "latest"


@dataclass(frozen=True)
class Plan:
    """Arms with their directories, and which of them continue an earlier run. `indexed`
    False: the caller keeps the experiment's index.json (a tune adds arms as it goes, and
    lists them all). `clear` (`--force`): `out` is emptied once its lock is held."""

    out: Path
    arms: tuple[Arm, ...]
    dirs: tuple[Path, ...]
    continuing: tuple[bool, ...]
    precision: Precision | None = None
    indexed: bool = True
    clear: bool = False

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


def _header(config: RunConfig, command: list[str]) -> dict[str, Any]:
    """A new manifest's description of the run: its identity, and the component file it
    used when it used one."""
    source = {"components_file": config.components_file} if config.components_file else {}
    if config.decision_timeout is not None:
        source["decision_timeout"] = config.decision_timeout
    return {"command": command, **identity(config), **source}


def plan(out: Path, arms: Sequence[Arm], force: bool) -> Plan:
    """Check the output directory (and each arm's) can take these arms; writes and removes
    nothing (what `force` replaces goes once the run holds the lock)."""
    if arms[0].name is None:
        continuing = check_out_dir(out, identity(arms[0].config), MANIFEST, force)
        return Plan(out, tuple(arms), (out,), (continuing,), clear=force)
    top = check_out_dir(out, {"arms": index_entries(arms)}, INDEX, force)
    dirs = tuple(out / arm.name for arm in arms)  # type: ignore[operator]
    continuing = tuple(
        top and check_out_dir(d, identity(a.config), MANIFEST, False)
        for a, d in zip(arms, dirs, strict=True)
    )
    return Plan(out, tuple(arms), dirs, continuing, clear=force)


def write_index(out: Path, entries: Sequence[dict[str, Any]], command: list[str]) -> None:
    """index.json: the arms of an experiment directory (`index_entries`), which `resume`
    and reports read."""
    out.mkdir(parents=True, exist_ok=True)
    index_file = out / INDEX
    created = read_json(index_file)["created"] if index_file.is_file() else now()
    write_json(
        index_file,
        {
            "schema_version": SCHEMA_VERSION,
            "sanssim_version": __version__,
            "created": created,
            "command": command,
            "arms": list(entries),
        },
    )


def index_entries(arms: Sequence[Arm]) -> list[dict[str, Any]]:
    """The arms as index.json lists them."""
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
    check_writable(out)
    if (out / INDEX).is_file():
        names = [entry["name"] for entry in read_json(out / INDEX).get("arms", [])]
        arms = tuple(Arm(name, config_from(out / name)) for name in names)
        dirs = tuple(out / name for name in names)
    elif (out / MANIFEST).is_file():
        arms, dirs = (Arm(None, config_from(out)),), (out,)
    else:
        raise RunError(f"nothing to resume: {out} holds no {MANIFEST} or {INDEX}")
    for run_dir in dirs:
        resumable(run_dir, read_json(run_dir / MANIFEST))
    texts = read_json(dirs[0] / MANIFEST).get("precision", {}).get("targets")
    precision = with_precision(arms, texts) if texts else None
    return Plan(out, arms, dirs, tuple(True for _ in arms), precision)


def with_precision(arms: Sequence[Arm], texts: Sequence[str]) -> Precision:
    """`--precision` targets for these arms, which must share their cap (`games`)."""
    caps = {arm.config.games for arm in arms}
    if len(caps) > 1:
        raise RunError("--precision needs every arm to have the same games (the cap)")
    found = precision.parse(texts, [arm.name for arm in arms], caps.pop())
    precision.check_arms(found, {arm.name or precision.SINGLE_ARM: arm.config for arm in arms})
    return found


def resume_plan(out: Path, arms: Sequence[Arm] | None = None) -> Plan:
    """`--resume`: the run recorded in `out`. When the command also gives its configuration
    (the command that started the run, repeated), its arms must be the recorded ones."""
    recorded = load_plan(out)
    if arms is None:
        return recorded
    given = {arm.name: arm for arm in arms}
    names = [arm.name for arm in recorded.arms]
    if set(given) != set(names):
        raise RunError(
            f"{out} holds {_arm_names(names)}, this command runs {_arm_names(list(given))}; "
            f"repeat the command that started it, or give only --resume --out {out}"
        )
    found: dict[str, list[str | None]] = {}
    for arm, run_dir in zip(recorded.arms, recorded.dirs, strict=True):
        new = identity(given[arm.name].config)
        manifest = read_json(run_dir / MANIFEST)
        for text in _described({k: manifest.get(k) for k in new}, new):
            found.setdefault(text, []).append(arm.name)
    if found:
        shown = [
            text if len(names) == len(arms) else f"{text} ({_arm_names(names)})"
            for text, names in found.items()
        ]
        raise RunError(
            f"this command differs from the run in {out}: {'; '.join(shown)}; "
            f"repeat the command that started it, or give only --resume --out {out}"
        )
    return recorded


def _arm_names(names: Sequence[str | None]) -> str:
    if list(names) == [None]:
        return "a single run"
    return f"arm{'s' if len(names) > 1 else ''} {', '.join(sorted(map(str, names)))}"


def _described(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """Where a run's identity differs from another, as a person would say it: the
    configuration (which names the game) leaf by leaf, the component data by their
    first difference and a count of the others, the derived run id not at all."""
    texts = differences(_readable(old["config"]), _readable(new["config"]))
    components = differences(old["components"], new["components"])
    if components:
        more = f" (and {len(components) - 1} more)" if len(components) > 1 else ""
        texts.append(f"component data: {components[0]}{more}")
    return texts


def _readable(config: dict[str, Any]) -> dict[str, Any]:
    """A recorded config with the strategies as their short specs (`random`, not every
    parameter), one for all seats when they agree."""
    game = config.get("game", DEFAULT_GAME)
    seats = [short_spec(seat["spec"], game) for seat in config["strategies"]]
    return {**config, "strategies": seats[0] if len(set(seats)) == 1 else seats}


def config_from(run_dir: Path) -> RunConfig:
    """A run's configuration from its manifest (a manifest without `game` is the default game's)."""
    manifest = read_json(run_dir / MANIFEST)
    try:
        game_type = get_game(manifest.get("game", DEFAULT_GAME))
        components = game_type.components_from_manifest(manifest["components"])
        config = RunConfig.from_dict(manifest["config"], components)
        return replace(
            config,
            components_file=manifest.get("components_file"),
            decision_timeout=manifest.get("decision_timeout"),
        )
    except KeyError as exc:
        raise RunError(f"manifest lacks {exc}") from None


class Update(Protocol):
    """A progress bar's update: `games` more played; `note` says what the run waits for,
    `total` corrects the games the bar counts to (a run to a precision stopping early)."""

    def __call__(self, games: int, note: str | None = None, total: int | None = None) -> None:
        """Advance the bar."""


Progress = Callable[[str, int, int], AbstractContextManager[Update]]


def execute(
    run_plan: Plan,
    executor: Executor,
    command: list[str],
    chunk_size: int | None = None,
    progress: Progress | None = None,
) -> list[Outcome]:
    """Run every arm in turn. `progress(label, total, done)` gives a bar's update callback:
    one bar per arm, or one for a whole run to a precision."""
    if run_plan.experiment and run_plan.indexed:
        write_index(run_plan.out, index_entries(run_plan.arms), command)
    jobs = []
    targets = run_plan.precision
    played_on = [_on_engine(arm.config, executor.engine) for arm in run_plan.arms]
    for arm, config, run_dir, continuing in zip(
        run_plan.arms, played_on, run_plan.dirs, run_plan.continuing, strict=True
    ):
        job = GameJob(config, arm.config.fingerprint(), decision_timeout(arm.config, executor))
        if not continuing:
            size = chunk_size or chunk_size_for(arm.config.games, executor.workers)
            header = _header(arm.config, command)
            if targets is not None:
                size = precision.chunk_size(size, targets)
                header["precision"] = {"targets": list(targets.texts)}
            init_run(run_dir, job, header, size)
        jobs.append(job)
    here = in_driver(played_on)
    if targets is not None:
        return _to_precision(run_plan, jobs, executor, targets, progress, here)
    outcomes = []
    for arm, run_dir, job in zip(run_plan.arms, run_plan.dirs, jobs, strict=True):
        done = games_done(read_json(run_dir / MANIFEST))
        if progress is None or done >= job.games:  # no bar for an arm already complete
            outcomes.append(run_batch(run_dir, job, executor, here=here))
            continue
        with progress(arm.name or run_dir.name, job.games, done) as update:
            outcomes.append(run_batch(run_dir, job, executor, update, here=here))
    return outcomes


def _to_precision(
    run_plan: Plan,
    jobs: list[GameJob],
    executor: Executor,
    targets: Precision,
    progress: Progress | None,
    here: bool,
) -> list[Outcome]:
    """Play every arm look by look until the targets are met or the cap is reached, under
    one progress bar over every arm's games up to the cap, saying what it waits for."""
    named = {
        arm.name or precision.SINGLE_ARM: d
        for arm, d in zip(run_plan.arms, run_plan.dirs, strict=True)
    }
    total = sum(job.games for job in jobs)
    done = sum(games_done(read_json(d / MANIFEST)) for d in run_plan.dirs)
    played: dict[Path, list[Outcome]] = {d: [] for d in run_plan.dirs}
    report = None
    bar = nullcontext(_no_update) if progress is None else progress(PRECISION, total, done)
    with bar as update:
        for look in targets.rule.looks():
            update(0, note=precision.waiting(targets, look, report))
            for run_dir, job in zip(run_plan.dirs, jobs, strict=True):
                played[run_dir].append(run_batch(run_dir, job, executor, update, look, here))
            stop, report = precision.evaluate(named, targets, look)
            if stop:
                for run_dir in run_plan.dirs:
                    _stopped_at(run_dir, look, report)
                why = "every target met" if all(r["met"] for r in report.values()) else "the cap"
                reached = sum(min(look, job.games) for job in jobs)
                update(0, note=f"stopped at {look:,} games per arm: {why}", total=reached)
                break
    return [_merged(outcomes) for outcomes in played.values()]


# Compiled games without a search that a driver plays in less time than it takes to
# start the workers (each imports numpy, polars and numba and loads the core, about 1.5
# CPU-s): at about 4,000 logged games a CPU-second, 10,000 on one core take as long as on
# two cores with their start-up.
IN_DRIVER_GAMES = 10_000


def in_driver(configs: Sequence[RunConfig]) -> bool:
    """Whether the whole run (every arm, `configs` with their engines settled) is so few
    compiled games of strategies that do not search that the driver plays them itself:
    the same chunks and files as on workers, without starting any."""
    return sum(config.games for config in configs) <= IN_DRIVER_GAMES and all(
        config.engine == COMPILED
        and not any(issubclass(spec.cls, PlayOut) for spec in config.specs())
        for config in configs
    )


def _no_update(games: int, note: str | None = None, total: int | None = None) -> None:
    """No bar to advance."""


def decision_timeout(config: RunConfig, executor: Executor) -> float:
    """The command's limit on a decision, else the arm's (its experiment file's), else the
    default."""
    for given in (executor.decision_timeout, config.decision_timeout):
        if given is not None:
            return given
    return DEFAULT_DECISION_TIMEOUT


def _on_engine(config: RunConfig, engine: str | None) -> RunConfig:
    """The arm with its engine settled here, in the driver, before any worker starts: the
    compiled one (compiled now, or loaded from the cache) or Python."""
    core = core_for(config.game_type, config.specs(), engine or config.engine)
    if core is not None:
        prepare(core, config.specs())
    return replace(config, engine=PYTHON if core is None else COMPILED)


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
        replayed=tuple(part for o in outcomes for part in o.replayed),
    )


def summary(run_dir: Path) -> pl.DataFrame:
    """Per seat and strategy: the mean score (`total_*`, t interval) and the win rate
    (`win_*`, Wilson interval), a shared win split 1/k as in reports, from the results parts."""
    manifest = read_json(run_dir / MANIFEST)
    if not manifest["parts"]:
        return pl.DataFrame()
    # win_share splits a win within each (run, game): here one run.
    results = (
        scan(run_dir, manifest, RESULTS, deep=False)
        .with_columns(run=pl.lit(0))
        .with_columns(win=win_share())
    )
    by = ["seat", "strategy"]
    scores = mean_table(results, by, {"total": pl.col("total")})
    return scores.join(rate_table(results, by, {"win": pl.col("win")}), on=by).sort("seat")
