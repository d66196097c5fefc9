"""`sanssim run`: plan, play (resuming what is done), and the printed summary."""

from __future__ import annotations

import errno
import shlex
import signal
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, NoReturn

import click

from sanssim.cli.common import (
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    GAME_FLAG,
    PRECISION_METRICS,
    RUN_OPTIONS,
    OutPath,
    executor_options,
    fail,
    game_option_flags,
    given_game_options,
    main,
)
from sanssim.errors import SanssimError, UserInterrupt
from sanssim.games import get_game
from sanssim.runformat import MANIFEST
from sanssim.runner.config import DEFAULT_STRATEGY

if TYPE_CHECKING:
    from sanssim.runner.batch import Outcome
    from sanssim.runner.config import Arm
    from sanssim.runner.executor import Executor
    from sanssim.runner.run import Plan, Update


@main.command()
@GAME_FLAG
@click.option(
    "--players",
    default="2,3,4",
    show_default=True,
    help="Player count, or several for a sweep (one sub-directory each).",
)
@click.option("--games", default=1000, show_default=True, help="Games per player count.")
@click.option(
    "--seed", default=1, show_default=True, help="Master seed; game i plays seed (seed, i)."
)
@click.option(
    "-s",
    "--strategy",
    multiple=True,
    default=(DEFAULT_STRATEGY,),
    show_default=True,
    help="Strategy spec `name` or `name:key=value,...`; once for every seat or once per seat.",
)
@game_option_flags
@click.option("--components", type=click.Path(path_type=Path), help="Component data file.")
@click.option("--no-turn-log", is_flag=True, help="Write results only (faster, smaller).")
@executor_options
@click.option("--chunk-size", type=int, help="Games per part file (default: by games and workers).")
@click.option(
    "--precision",
    multiple=True,
    metavar="METRIC=HALFWIDTH",
    help="Play until the 95% interval of METRIC has at most this half-width in every arm "
    "(looks at 200 games, then doubling; --games is the cap). With --config, "
    "diff:ARM-ARM:METRIC=HALFWIDTH targets the paired difference of two arms, played in "
    "lockstep. Several allowed. Metrics: " + PRECISION_METRICS + ".",
)
@click.option("--out", type=OutPath(), help="Run directory (default runs/<time>).")
@click.option("--force", is_flag=True, help="Overwrite an --out directory holding something else.")
@click.option("--resume", is_flag=True, help="Finish the run in --out, with its own configuration.")
@click.option(
    "--config",
    "experiment",
    type=click.Path(path_type=Path),
    help="TOML experiment: several arms, each a set of the options above.",
)
@click.pass_context
def run(ctx: click.Context, **options: object) -> None:
    """Play a seeded batch of games and log every game and turn to Parquet."""
    from sanssim.runner.config import load_experiment
    from sanssim.runner.grow import grow
    from sanssim.runner.run import default_out, link_latest, plan, resume_plan, with_precision

    given = [
        name
        for name in RUN_OPTIONS
        if ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT
    ]
    out: Path | None = options["out"]  # type: ignore[assignment]
    workers: int | None = options["workers"]  # type: ignore[assignment]
    chunk_size: int | None = options["chunk_size"]  # type: ignore[assignment]
    address: str | None = options["address"]  # type: ignore[assignment]
    resume = bool(options["resume"])
    try:
        if workers is not None and workers < 1:
            fail(f"--workers must be at least 1, got {workers}")
        address_given = (
            ctx.get_parameter_source("address") is click.core.ParameterSource.COMMANDLINE
        )
        if options["executor"] != "ray" and address_given:
            fail("--address needs --executor ray")
        if chunk_size is not None and chunk_size < 1:
            fail(f"--chunk-size must be at least 1, got {chunk_size}")
        if resume and out is None:
            fail("--resume needs --out RUN, the run to finish")
        arms = None  # --resume alone: the run's own configuration
        if options["experiment"]:
            others = [name for name in given if name != "games"]
            if others:
                fail(f"--config gives the configuration; drop --{flag_names(others)}")
            games = options["games"] if "games" in given else None
            arms = load_experiment(options["experiment"], games)  # type: ignore[arg-type]
        elif (given or not resume) and not (resume and given == ["games"]):
            arms = _arms_from_options(options, given_game_options(ctx))
        if resume:
            run_plan = resume_plan(out, arms)  # type: ignore[arg-type]
            if arms is None and given == ["games"]:
                run_plan = grow(run_plan, int(options["games"]), sys.argv)  # type: ignore[call-overload]
            recorded = run_plan.precision.texts if run_plan.precision else ()
            if options["precision"] and tuple(options["precision"]) != recorded:
                fail(f"--precision differs from the run's ({', '.join(recorded) or 'none'})")
        else:
            run_plan = plan(out or default_out(), arms, bool(options["force"]))  # type: ignore[arg-type]
            if options["precision"]:
                targets = with_precision(arms, options["precision"])  # type: ignore[arg-type]
                run_plan = replace(run_plan, precision=targets)
    except SanssimError as exc:
        fail(str(exc))
    outcomes, seconds, used = play_plan(
        run_plan,
        str(options["executor"]),
        address,
        workers,
        chunk_size,
        options["decision_timeout"],  # type: ignore[arg-type]
        options["engine"],
    )
    if out is None and not resume:
        link_latest(run_plan.out)
    print_summary(run_plan, outcomes, seconds, used)


def play_plan(
    run_plan: Plan,
    executor_name: str,
    address: str | None,
    workers: int | None,
    chunk_size: int | None,
    decision_timeout: float | None,
    engine: object = None,
) -> tuple[list[Outcome], float, int]:
    """Play a checked plan; an interrupt or a lost worker keeps finished parts and says how
    to resume. Returns the outcomes, the seconds taken and the workers used."""
    from sanssim.runner.executor import WorkerLost
    from sanssim.runner.lock import holding
    from sanssim.runner.ray_executor import executor_for
    from sanssim.runner.run import execute

    try:
        executor = executor_for(executor_name, workers, address, decision_timeout)
    except SanssimError as exc:
        fail(str(exc))
    said_capped(executor)
    executor.engine = engine  # type: ignore[assignment]
    started = time.perf_counter()
    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        with holding(run_plan.out, run_plan.clear), executor:
            outcomes = execute(run_plan, executor, sys.argv, chunk_size, _progress)
            _said_lost(executor.lost)
            _said_untimed(run_plan, decision_timeout)
    except KeyboardInterrupt:
        _stopped("interrupted", run_plan.out, EXIT_INTERRUPTED)
    except WorkerLost as exc:
        _stopped(f"error: {exc}", run_plan.out, EXIT_FAILED)
    except SanssimError as exc:
        fail(str(exc))
    except OSError as exc:  # a full disk, a file system gone read-only, a bad --out
        why = f"cannot write {exc.filename or run_plan.out}: {exc.strerror}"
        if not any((d / MANIFEST).is_file() for d in run_plan.dirs):
            # nothing was started, so nothing to resume: the place is the user's to fix
            code = EXIT_FAILED if exc.errno == errno.ENOSPC else EXIT_USAGE
            click.echo(f"sanssim: error: {why}", err=True)
            sys.exit(code)
        _stopped(f"error: {why}", run_plan.out, EXIT_FAILED)
    finally:
        signal.signal(signal.SIGTERM, previous)
    return outcomes, time.perf_counter() - started, executor.workers


def _said_lost(lost: list[tuple[int, int]]) -> None:
    """Chunks whose worker died once were played again: said, not hidden."""
    if lost:
        shown = ", ".join(f"{start}-{stop - 1}" for start, stop in lost[:3])
        more = f" (and {len(lost) - 3} more)" if len(lost) > 3 else ""
        click.echo(
            f"sanssim: a worker process died playing games {shown}{more}; "
            "played again on a fresh one",
            err=True,
        )


def _said_untimed(run_plan: Plan, given: float | None) -> None:
    """A decision timeout given for games the compiled engine played cannot apply there (a
    Python timer cannot interrupt compiled code): said in one line, not silently ignored."""
    from sanssim.compiled import COMPILED
    from sanssim.runner.files import read_json

    untimed = [
        arm.name or str(run_dir)
        for arm, run_dir in zip(run_plan.arms, run_plan.dirs, strict=True)
        if (given if given is not None else arm.config.decision_timeout)
        and any(p.get("engine") == COMPILED for p in read_json(run_dir / MANIFEST)["parts"])
    ]
    if untimed:
        shown = ", ".join(untimed[:3]) + (", ..." if len(untimed) > 3 else "")
        click.echo(
            f"sanssim: the decision timeout does not apply to games played on the compiled "
            f"engine ({shown}): it plays built-in strategies only; --engine python times them",
            err=True,
        )


def said_capped(executor: Executor) -> None:
    """Workers beyond the CPUs there are (this machine's, or the Ray cluster's) only slow a
    run down: capped, said once."""
    from sanssim.runner.ray_executor import RayExecutor

    if executor.capped is None:
        return
    asked, allowed = executor.capped
    where = "CPUs of the Ray cluster" if isinstance(executor, RayExecutor) else "cores available"
    click.echo(f"sanssim: --workers {asked} capped at the {allowed} {where}", err=True)


def _stopped(why: str, out: Path, code: int) -> NoReturn:
    """A run stopped part-way: one line saying why and how to finish it, then exit."""
    click.echo(
        f"\nsanssim: {why}; finished parts are kept in {out}, finish the run with "
        f"`sanssim run --resume --out {shlex.quote(str(out))}`",
        err=True,
    )
    sys.exit(code)


def flag_names(names: list[str]) -> str:
    return names[0].replace("_", "-") if names else "config"


def interrupt(signum: int, frame: FrameType | None) -> None:
    raise UserInterrupt


def _arms_from_options(options: dict[str, object], given: dict[str, object]) -> list[Arm]:
    from sanssim.runner.config import game_options, parse_players, sweep

    game_type = get_game(str(options["game"]))
    source: Path | None = options["components"]  # type: ignore[assignment]
    components = game_type.load_components(source)
    return sweep(
        parse_players(options["players"]),  # type: ignore[arg-type]
        game=game_type.name,
        games=options["games"],
        seed=options["seed"],
        strategies=options["strategy"],
        turn_log=not options["no_turn_log"],
        components=components,
        components_file=str(source.resolve()) if source else None,
        options=game_options(game_type, given),
    )


@contextmanager
def _progress(label: str, total: int, done: int) -> Iterator[Update]:
    from tqdm import tqdm

    with tqdm(
        total=total, initial=done, desc=label, unit="game", dynamic_ncols=True, smoothing=0.05
    ) as bar:

        def update(games: int, note: str | None = None, total: int | None = None) -> None:
            if total is not None:
                bar.total = total
            if note is not None:
                bar.set_postfix_str(note, refresh=False)
            bar.update(games)
            bar.refresh()

        yield update


def counted(n: int, thing: str) -> str:
    """`1 game`, `2 games`, `1,000 games`."""
    return f"{n:,} {thing}{'' if n == 1 else 's'}"


def _rate(per_second: float) -> str:
    """Whole numbers, but one decimal below 10 (`0.6`, not `1`)."""
    return f"{per_second:,.1f}" if per_second < 10 else f"{per_second:,.0f}"


def print_summary(run_plan: Plan, outcomes: list[Outcome], seconds: float, workers: int) -> None:
    from sanssim.analysis import fmt
    from sanssim.runner.run import summary
    from sanssim.strategies import short_spec

    header = ("arm", "seat", "strategy", "games", "mean score [95% CI]", "win rate [95% CI]")
    rows = [header]
    for arm, outcome in zip(run_plan.arms, outcomes, strict=True):
        for r in summary(outcome.run_dir).iter_rows(named=True):
            rows.append(
                (
                    arm.name or outcome.run_dir.name,
                    str(r["seat"]),
                    short_spec(r["strategy"], arm.config.game_name),
                    f"{r['total_n']:,}",
                    fmt.ci(r, "total"),
                    fmt.pct(r, "win"),
                )
            )
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    click.echo()
    for row in rows:
        cells = [
            cell.ljust(w) if i in (0, 2) else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        ]
        click.echo("  ".join(cells))
    click.echo("a shared win counts 1/k for each of its k winners, as in reports")
    played = sum(o.played for o in outcomes)
    failed = sum(o.failed for o in outcomes)
    replayed = [f"{o.run_dir}: {part}" for o in outcomes for part in o.replayed]
    if replayed:
        more = f" (and {len(replayed) - 1} more)" if len(replayed) > 1 else ""
        click.echo(f"sanssim: played again a missing or damaged part: {replayed[0]}{more}")
    if played:
        rate = played / seconds if seconds > 0 else 0.0
        click.echo(
            f"\n{counted(played, 'game')} played in {seconds:.1f} s "
            f"({_rate(rate)} games/s, {counted(workers, 'worker')})"
        )
    else:
        done = sum(o.done for o in outcomes)
        click.echo(
            f"\n{run_plan.out} is already complete ({counted(done, 'game')}), nothing to play"
        )
    if failed:
        click.echo(
            f"{counted(failed, 'game')} failed: listed under `failures` in each manifest.json, "
            "tracebacks in errors.log"
        )
    if run_plan.precision is not None:
        _print_precision(run_plan)
    first = run_plan.dirs[0]
    click.echo(f"run written to {run_plan.out}")
    click.echo(f"  replay a game:  sanssim show {first} --game 0")
    click.echo(f"  load results:   polars.scan_parquet('{first}/results/*.parquet')")


def _print_precision(run_plan: Plan) -> None:
    """Each target's achieved half-width, and the games the run took to reach it."""
    from sanssim.runner.files import read_json
    from sanssim.runner.precision import achieved_text

    recorded = read_json(run_plan.dirs[0] / MANIFEST).get("precision", {})
    if "stopped_at" not in recorded:
        return
    games = recorded["stopped_at"]
    cap = run_plan.arms[0].config.games
    why = "every target met" if all(r["met"] for r in recorded["achieved"].values()) else "cap"
    click.echo(f"\nprecision: stopped at {games:,} games per arm ({why}; cap {cap:,})")
    for target in run_plan.precision.targets if run_plan.precision else ():
        click.echo(f"  {achieved_text(target, recorded['achieved'][target.label])}")
