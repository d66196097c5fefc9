"""The command line: parse, validate, call, print."""

from __future__ import annotations

import errno
import os
import shlex
import signal
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, NoReturn

import click

from sanssim import __version__
from sanssim.compiled import ENGINES
from sanssim.errors import SanssimError, UserInterrupt
from sanssim.games import DEFAULT_GAME, game_names, get_game
from sanssim.games.base import Option
from sanssim.runformat import MANIFEST, TUNE
from sanssim.runner.config import COMMON_KEYS, DEFAULT_STRATEGY
from sanssim.runner.tournament import SEATINGS, SEATINGS_HELP

if TYPE_CHECKING:
    from sanssim.runner.batch import Outcome
    from sanssim.runner.config import Arm
    from sanssim.runner.executor import Executor
    from sanssim.runner.run import Plan, Update
    from sanssim.runner.tuning import Search, Tune

EXIT_USAGE = 2
EXIT_FAILED = 1
EXIT_INTERRUPTED = 130


class OutPath(click.Path):
    """A folder to write: never the empty string, which would mean the current folder."""

    def __init__(self) -> None:
        super().__init__(path_type=Path)

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None):
        if isinstance(value, str) and not value.strip():
            self.fail("must not be empty", param, ctx)
        return super().convert(value, param, ctx)


def fail(message: str) -> NoReturn:
    """A user's mistake: one line on stderr, exit code 2, no traceback."""
    click.echo(f"sanssim: error: {message}", err=True)
    sys.exit(EXIT_USAGE)


def _declared_options() -> dict[str, tuple[Option, list[str]]]:
    """Every game's options by name, with the games that declare each."""
    found: dict[str, tuple[Option, list[str]]] = {}
    for name in game_names():
        try:
            game_type = get_game(name)
        except SanssimError:  # a broken plug-in still leaves the others usable
            continue
        for option in game_type.options:
            found.setdefault(option.name, (option, []))[1].append(name)
    return found


GAME_OPTIONS = _declared_options()
# Options that describe what is played (an experiment file's keys, with the turn log as a
# flag); --config and --resume bring their own.
RUN_OPTIONS = (
    *(k for k in COMMON_KEYS if k not in ("turn_log", "engine", "decision_timeout")),
    "no_turn_log",
    *GAME_OPTIONS,
)


ENGINE_OPTION = click.option(
    "--engine",
    type=click.Choice(ENGINES),
    help="Play on the compiled engine, on Python, or (auto, the default) compiled when the "
    "game and every seat's strategy have a compiled form. The games are the same.",
)


DECISION_TIMEOUT = click.option(
    "--decision-timeout",
    type=click.FloatRange(min=0, max=1e9),
    help="Seconds a strategy may take for one decision before its game fails (0: no limit; "
    "default: an experiment's decision_timeout, else 60). Games on the compiled engine play "
    "only built-in strategies and are not timed.",
)


def executor_options(command: Callable) -> Callable:
    """--workers, --executor, --address and --engine: where and how the games of `run` and
    `tune` are played."""
    for option in reversed(
        (
            click.option("--workers", type=int, help="Worker processes (default: all cores)."),
            click.option(
                "--executor",
                type=click.Choice(("local", "ray")),
                default="local",
                show_default=True,
                help="Play on this machine's cores, or spread chunks over a Ray cluster.",
            ),
            DECISION_TIMEOUT,
            click.option(
                "--address",
                envvar="RAY_ADDRESS",
                help="Ray cluster: host:port of the head, ray://host:10001 or auto "
                "(default: $RAY_ADDRESS, else start a local Ray).",
            ),
            ENGINE_OPTION,
        )
    ):
        command = option(command)
    return command


def game_option_flags(command: Callable) -> Callable:
    """A click option for every option a game declares, its help naming the game."""
    for name, (option, games) in reversed(GAME_OPTIONS.items()):
        default = "by players" if option.default is None else option.default
        help_text = f"[{', '.join(games)}] {option.help}"
        if option.kind is bool:
            decorator = click.option(option.flag, name, is_flag=True, default=None, help=help_text)
        else:
            kind = click.Choice(option.choices) if option.choices else option.kind
            decorator = click.option(
                option.flag, name, type=kind, help=f"{help_text} (default: {default})"
            )
        command = decorator(command)
    return command


def given_game_options(ctx: click.Context) -> dict[str, object]:
    """The game options typed on the command line (not those left at their default)."""
    return {
        name: ctx.params[name]
        for name in GAME_OPTIONS
        if ctx.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE
    }


def _precision_metrics() -> str:
    from sanssim.analysis.precision import METRICS

    named = [m for m in METRICS if not m.startswith("seat")]
    return ", ".join(["seat0_win ... seat5_win", *named])


PRECISION_METRICS = _precision_metrics()

GAME_FLAG = click.option(
    "--game",
    type=click.Choice(game_names()),
    default=DEFAULT_GAME,
    show_default=True,
    help="The game to play.",
)


@click.group()
@click.version_option(__version__, prog_name="sanssim")
def main() -> None:
    """Simulate board games (Sanssouci, and every installed game) between strategies and
    report on the results."""


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
                fail(f"--config gives the configuration; drop --{_flag(others)}")
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
    outcomes, seconds, used = _play(
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
    _print_summary(run_plan, outcomes, seconds, used)


def _play(
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
    _said_capped(executor)
    executor.engine = engine  # type: ignore[assignment]
    started = time.perf_counter()
    previous = signal.signal(signal.SIGTERM, _interrupt)
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
    from sanssim.runner.batch import read_json

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


def _said_capped(executor: Executor) -> None:
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


def _flag(names: list[str]) -> str:
    return names[0].replace("_", "-") if names else "config"


def _interrupt(signum: int, frame: FrameType | None) -> None:
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


def _print_summary(run_plan: Plan, outcomes: list[Outcome], seconds: float, workers: int) -> None:
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
    from sanssim.runner.batch import read_json
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


@main.command()
@click.argument("run_dir", type=click.Path(path_type=Path))
@click.option("--game", "game_id", type=int, required=True, help="Game id (0-based).")
@click.option(
    "--turn", type=int, help="Show only this turn, with every player's position after it."
)
@click.option("--seat", type=int, help="Follow one player: only its turns and its position.")
@click.option(
    "--explain",
    is_flag=True,
    help="With --turn: what the acting player saw and every option its strategy scored.",
)
@click.option(
    "--top", type=int, default=None, help="With --explain: only the N best options (default: all)."
)
def show(
    run_dir: Path,
    game_id: int,
    turn: int | None,
    seat: int | None,
    explain: bool,
    top: int | None,
) -> None:
    """Replay a logged game from a run directory, turn by turn (the game is read from the
    run's manifest)."""
    from sanssim.runner.show import explain as explain_turn
    from sanssim.runner.show import show as render

    if explain and turn is None:
        fail("--explain needs --turn T")
    if top is not None and (not explain or top < 1):
        fail("--top needs --explain and a count of at least 1")
    try:
        click.echo(render(run_dir, game_id, turn, seat))
        if explain:
            click.echo("\n" + explain_turn(run_dir, game_id, turn, top))  # type: ignore[arg-type]
    except SanssimError as exc:
        fail(str(exc))


@main.command()
@click.argument("runs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--out",
    type=OutPath(),
    help="Report directory (default: RUN-report next to the first run).",
)
@click.option("--force", is_flag=True, help="Write into an --out folder holding something else.")
@click.option(
    "--robustness",
    "verdicts",
    multiple=True,
    type=click.Path(path_type=Path),
    help="A robustness report's robustness.json (several allowed): findings it shows "
    "changed under another line-up are marked where they are stated.",
)
def report(
    runs: tuple[Path, ...], out: Path | None, force: bool, verdicts: tuple[Path, ...]
) -> None:
    """Write a Markdown + HTML report with figures on one or more runs."""
    from sanssim.analysis.report import write_report

    target = out or _beside(runs[0])
    try:
        written = write_report(list(runs), target, sys.argv, force, verdicts)
    except SanssimError as exc:
        fail(str(exc))
    click.echo(
        f"report on {counted(written.games, 'game')} ({counted(len(written.arms), 'arm')}) "
        f"written to {target}"
    )
    for skipped in written.skipped:
        click.echo(f"  skipped: {skipped.section}: {skipped.reason}")
    click.echo(f"  open {target / 'report.html'} or {target / 'report.md'}")


def _beside(run: Path) -> Path:
    """`RUN-report` in the run's own parent folder (the link's, for `runs/latest`)."""
    absolute = Path(os.path.abspath(run))
    target = absolute.parent / f"{absolute.name}-report"
    return target.relative_to(Path.cwd()) if target.is_relative_to(Path.cwd()) else target


@main.command()
@click.argument("run_dir", type=click.Path(path_type=Path))
@click.option(
    "--sample", default=5, show_default=True, help="Games per run to replay through the engine."
)
def check(run_dir: Path, sample: int) -> None:
    """Verify a run directory: its parts against the manifest, the tables' columns, and a
    sample of games replayed through the engine."""
    from sanssim.runner.check import check as check_run

    try:
        lines = check_run(run_dir, sample)
    except SanssimError as exc:
        fail(str(exc))
    for line in lines:
        click.echo(line)
    click.echo("ok")


@main.command()
@GAME_FLAG
def strategies(game: str) -> None:
    """List a game's strategies, their parameters and how each plays."""
    from sanssim.strategies import StrategyError, registry, resolve

    for name in registry(game):
        try:
            spec = resolve(name, game)
        except StrategyError as exc:
            click.echo(f"{name}\n  (cannot load: {exc})")
            continue
        click.echo(f"{name}\n  {spec.cls.summary}")
        defaults = dict(spec.params)  # the game's own defaults included
        for param in spec.cls.params:
            kind = type(param.default).__name__
            click.echo(f"    {param.name}={defaults[param.name]!r} ({kind}): {param.help}")


@main.command()
@click.option(
    "--strategies", "names", required=True, help="Comma-separated specs, e.g. random,greedy."
)
@GAME_FLAG
@click.option("--players", default=2, show_default=True, help="Player count.")
@click.option("--games", default=1000, show_default=True, help="Games per seating.")
@click.option("--seed", default=1, show_default=True, help="Master seed, shared by every seating.")
@click.option(
    "--seatings", type=click.Choice(SEATINGS), default="all", show_default=True, help=SEATINGS_HELP
)
@game_option_flags
@click.option("--no-turn-log", is_flag=True, help="Write results only.")
@click.option("--workers", type=int, help="Worker processes (default: all cores).")
@ENGINE_OPTION
@DECISION_TIMEOUT
@click.option("--out", type=OutPath(), help="Run directory (default runs/<time>).")
@click.option("--force", is_flag=True, help="Overwrite an --out directory holding something else.")
@click.pass_context
def tournament(ctx: click.Context, names: str, **options: object) -> None:
    """Play the strategies against each other in every seating (--seatings) on the same
    seeds, then print what was played, the pairwise win rates with cluster-robust 95%
    intervals and a Bradley-Terry rating per strategy."""
    from sanssim.analysis.tournament import format_standings, standings
    from sanssim.runner.config import game_options
    from sanssim.runner.run import default_out, plan
    from sanssim.runner.tournament import split_specs, tournament_arms
    from sanssim.strategies import short_spec

    out: Path = options["out"] or default_out()  # type: ignore[assignment]
    workers = options["workers"]
    if workers is not None and workers < 1:  # type: ignore[operator]
        fail(f"--workers must be at least 1, got {workers}")
    try:
        game_type = get_game(str(options["game"]))
        arms = tournament_arms(
            split_specs(names),
            options["players"],  # type: ignore[arg-type]
            options["games"],  # type: ignore[arg-type]
            options["seed"],  # type: ignore[arg-type]
            game=game_type.name,
            seatings=str(options["seatings"]),
            turn_log=not options["no_turn_log"],
            options=game_options(game_type, given_game_options(ctx)),
        )
        run_plan = plan(out, arms, bool(options["force"]))
    except SanssimError as exc:
        fail(str(exc))
    outcomes, seconds, used = _play(
        run_plan,
        "local",
        None,
        options["workers"],
        None,
        options["decision_timeout"],  # type: ignore[arg-type]
        options["engine"],
    )
    _print_summary(run_plan, outcomes, seconds, used)
    try:
        click.echo(
            "\n" + format_standings(standings([out]), lambda t: short_spec(t, game_type.name))
        )
    except SanssimError as exc:
        fail(str(exc))


@main.command()
@GAME_FLAG
@click.option("--players", default=2, show_default=True, help="Player count.")
@click.option(
    "-s",
    "--strategy",
    multiple=True,
    help="Strategy spec whose parameters may be ranges `lo..hi` or lists `a|b|c` "
    "(`heuristic:mission=0.5..3,path=1|2`); once for every seat (or the tuned seat with "
    "--against), or once per seat. Default: heuristic.",
)
@click.option(
    "--param",
    "params",
    multiple=True,
    metavar="NAME=RANGE",
    help="A game option to search: NAME=lo..hi or NAME=a|b|c. Several allowed.",
)
@click.option(
    "--objective",
    help="seat-balance (smallest largest gap between a seat's win share and 1/players), "
    "target:METRIC=VALUE (a metric's mean closest to VALUE: mean_total, margin, "
    "first_seat_gap, seat0_win..., turns, rounds or a numeric results column), "
    "spread:GROUP (smallest spread of a grouped measure's group means, e.g. Sanssouci's "
    "mission), rspread:GROUP (that spread divided by the mean of the group means) or "
    "zspread:GROUP (divided by the pooled standard deviation within groups).",
)
@click.option(
    "--against",
    help="Maximise the tuned strategy's win share against this spec, in every seat.",
)
@click.option("--budget", type=int, default=20000, show_default=True, help="Games in all.")
@click.option(
    "--candidates",
    type=int,
    default=16,
    show_default=True,
    help="Candidates besides the default (a grid for 1-2 dimensions, a Latin hypercube above).",
)
@click.option(
    "--finalists",
    type=int,
    default=3,
    show_default=True,
    help="Best candidates re-measured on fresh deals with the default.",
)
@click.option(
    "--method",
    type=click.Choice(("halving", "ntbea")),
    default="halving",
    show_default=True,
    help="Successive halving of --candidates points, or an N-tuple bandit walk (NTBEA) over "
    "a grid of each range, for larger spaces.",
)
@click.option(
    "--batch",
    type=int,
    help="NTBEA: deals per evaluation, each seat rotation (default 50).",
)
@click.option("--seed", default=1, show_default=True, help="Seed of the whole search.")
@game_option_flags
@executor_options
@click.option("--out", type=OutPath(), help="Tune directory (default runs/<time>).")
@click.option("--force", is_flag=True, help="Overwrite an --out directory holding something else.")
@click.option("--resume", is_flag=True, help="Finish the tune in --out, with its own settings.")
@click.pass_context
def tune(ctx: click.Context, **options: object) -> None:
    """Search strategy parameters and game options for the best value of an objective,
    by successive halving on shared deals (or an N-tuple bandit walk) and a final
    re-measurement on fresh ones."""
    from sanssim.runner import tuning
    from sanssim.runner.config import game_options
    from sanssim.runner.run import default_out

    out: Path | None = options["out"]  # type: ignore[assignment]
    workers: int | None = options["workers"]  # type: ignore[assignment]
    batch: int | None = options["batch"]  # type: ignore[assignment]
    given = [
        name
        for name in ("game", "players", "strategy", "params", "objective", "against", "budget",
                     "candidates", "finalists", "method", "batch", "seed", *GAME_OPTIONS)
        if ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT
    ]  # fmt: skip
    try:
        if workers is not None and workers < 1:
            fail(f"--workers must be at least 1, got {workers}")
        if options["resume"]:
            if out is None:
                fail("--resume needs --out DIR, the tune to finish")
            if given:
                fail(f"--resume takes its settings from {out}; drop --{_flag(given)}")
            settings = tuning.load_settings(out)
        else:
            ntbea = options["method"] == tuning.NTBEA
            if ntbea and "candidates" in given:
                fail("--candidates is for --method halving; NTBEA walks a grid of each range")
            if not ntbea and "batch" in given:
                fail("--batch is for --method ntbea")
            game_type = get_game(str(options["game"]))
            fixed = game_options(game_type, given_game_options(ctx))
            settings = tuning.Settings(
                game=game_type.name,
                players=options["players"],  # type: ignore[arg-type]
                strategies=tuple(options["strategy"]),  # type: ignore[arg-type]
                params=tuple(options["params"]),  # type: ignore[arg-type]
                objective=options["objective"],  # type: ignore[arg-type]
                against=options["against"],  # type: ignore[arg-type]
                budget=options["budget"],  # type: ignore[arg-type]
                seed=options["seed"],  # type: ignore[arg-type]
                candidates=options["candidates"],  # type: ignore[arg-type]
                finalists=options["finalists"],  # type: ignore[arg-type]
                method=options["method"],  # type: ignore[arg-type]
                batch=tuning.DEFAULT_BATCH if batch is None else batch,
                options=tuple(
                    (k, game_type.option(k).parse(v, game_type.name)) for k, v in fixed.items()
                ),
            )
        plan = tuning.prepare(settings)
        out = out or default_out()
        tuning.check_out(out, plan, bool(options["force"]), bool(options["resume"]))
    except SanssimError as exc:
        fail(str(exc))
    search = _tune(
        plan,
        out,
        str(options["executor"]),
        options["address"],
        workers,
        options["decision_timeout"],
        options["engine"],
        bool(options["force"]) and not options["resume"],
    )  # type: ignore[arg-type]
    _print_tune(search)


def _tune(
    plan: Tune,
    out: Path,
    executor_name: str,
    address: str | None,
    workers: int | None,
    decision_timeout: float | None,
    engine: object = None,
    clear: bool = False,
) -> Search:
    """Play a checked tune with one progress bar over its budget; an interrupt keeps the
    finished games and says how to resume."""
    from tqdm import tqdm

    from sanssim.runner import tuning
    from sanssim.runner.executor import WorkerLost
    from sanssim.runner.lock import holding
    from sanssim.runner.ray_executor import executor_for

    try:
        executor = executor_for(executor_name, workers, address, decision_timeout)
    except SanssimError as exc:
        fail(str(exc))
    _said_capped(executor)
    executor.engine = engine  # type: ignore[assignment]
    counted: set[str] = set()
    bar = tqdm(total=plan.settings.budget, unit="game", desc="tune", dynamic_ncols=True)

    @contextmanager
    def progress(label: str, total: int, done: int) -> Iterator[Callable[[int], None]]:
        if label not in counted:
            counted.add(label)
            bar.update(done)
        yield bar.update

    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        with holding(out, clear), executor:
            return tuning.run(plan, out, executor, sys.argv, progress)
    except KeyboardInterrupt:
        bar.close()
        click.echo(f"\ninterrupted: finished games are kept in {out}; finish with\n"
                   f"  sanssim tune --resume --out {out}", err=True)  # fmt: skip
        sys.exit(EXIT_INTERRUPTED)
    except WorkerLost as exc:
        bar.close()
        click.echo(f"\n{exc}: finish with  sanssim tune --resume --out {out}", err=True)
        sys.exit(EXIT_FAILED)
    except SanssimError as exc:
        fail(str(exc))
    except OSError as exc:  # a full disk: every file written so far is whole (atomic)
        bar.close()
        why = f"cannot write {exc.filename or out}: {exc.strerror}"
        if (out / TUNE).is_file():
            why += f"; finished games are kept, finish with `sanssim tune --resume --out {out}`"
        fail(why)
    finally:
        bar.close()
        signal.signal(signal.SIGTERM, previous)


def _print_tune(search: Search) -> None:
    """The best candidates with their intervals, and the best against the default."""
    from sanssim.analysis.tuning import summary_lines

    data = search.to_dict()
    click.echo()
    for line in summary_lines(data):
        click.echo(line)
    click.echo(f"tune written to {search.out}  (sanssim report {search.out} draws the search)")


if __name__ == "__main__":
    sys.exit(main())
