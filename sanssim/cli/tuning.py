"""`sanssim tournament` and `sanssim tune`: strategies against each other, and a search
for the rules that balance a game best."""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import click

from sanssim.cli import common
from sanssim.cli.running import flag_names, interrupt, play_plan, print_summary, said_capped
from sanssim.errors import SanssimError
from sanssim.games import get_game
from sanssim.runformat import TUNE
from sanssim.runner.tournament import SEATINGS, SEATINGS_HELP

if TYPE_CHECKING:
    from sanssim.runner.tuning import Search, Tune


@common.main.command()
@click.option(
    "--strategies", "names", required=True, help="Comma-separated specs, e.g. random,greedy."
)
@common.GAME_FLAG
@click.option("--players", default=2, show_default=True, help="Player count.")
@click.option("--games", default=1000, show_default=True, help="Games per seating.")
@click.option("--seed", default=1, show_default=True, help="Master seed, shared by every seating.")
@click.option(
    "--seatings", type=click.Choice(SEATINGS), default="all", show_default=True, help=SEATINGS_HELP
)
@common.game_option_flags
@click.option("--no-turn-log", is_flag=True, help="Write results only.")
@click.option("--workers", type=int, help="Worker processes (default: all cores).")
@common.ENGINE_OPTION
@common.DECISION_TIMEOUT
@click.option("--out", type=common.OutPath(), help="Run directory (default runs/<time>).")
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
        common.fail(f"--workers must be at least 1, got {workers}")
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
            options=game_options(game_type, common.given_game_options(ctx)),
        )
        run_plan = plan(out, arms, bool(options["force"]))
    except SanssimError as exc:
        common.fail(str(exc))
    outcomes, seconds, used = play_plan(
        run_plan,
        "local",
        None,
        options["workers"],
        None,
        options["decision_timeout"],  # type: ignore[arg-type]
        options["engine"],
    )
    print_summary(run_plan, outcomes, seconds, used)
    try:
        click.echo(
            "\n" + format_standings(standings([out]), lambda t: short_spec(t, game_type.name))
        )
    except SanssimError as exc:
        common.fail(str(exc))


@common.main.command()
@common.GAME_FLAG
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
@common.game_option_flags
@common.executor_options
@click.option("--out", type=common.OutPath(), help="Tune directory (default runs/<time>).")
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
                     "candidates", "finalists", "method", "batch", "seed", *common.GAME_OPTIONS)
        if ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT
    ]  # fmt: skip
    try:
        if workers is not None and workers < 1:
            common.fail(f"--workers must be at least 1, got {workers}")
        if options["resume"]:
            if out is None:
                common.fail("--resume needs --out DIR, the tune to finish")
            if given:
                common.fail(f"--resume takes its settings from {out}; drop --{flag_names(given)}")
            settings = tuning.load_settings(out)
        else:
            ntbea = options["method"] == tuning.NTBEA
            if ntbea and "candidates" in given:
                common.fail(
                    "--candidates is for --method halving; NTBEA walks a grid of each range"
                )
            if not ntbea and "batch" in given:
                common.fail("--batch is for --method ntbea")
            game_type = get_game(str(options["game"]))
            fixed = game_options(game_type, common.given_game_options(ctx))
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
        common.fail(str(exc))
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
        common.fail(str(exc))
    said_capped(executor)
    executor.engine = engine  # type: ignore[assignment]
    counted: set[str] = set()
    bar = tqdm(total=plan.settings.budget, unit="game", desc="tune", dynamic_ncols=True)

    @contextmanager
    def progress(label: str, total: int, done: int) -> Iterator[Callable[[int], None]]:
        if label not in counted:
            counted.add(label)
            bar.update(done)
        yield bar.update

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        with holding(out, clear), executor:
            return tuning.run(plan, out, executor, sys.argv, progress)
    except KeyboardInterrupt:
        bar.close()
        click.echo(f"\ninterrupted: finished games are kept in {out}; finish with\n"
                   f"  sanssim tune --resume --out {out}", err=True)  # fmt: skip
        sys.exit(common.EXIT_INTERRUPTED)
    except WorkerLost as exc:
        bar.close()
        click.echo(f"\n{exc}: finish with  sanssim tune --resume --out {out}", err=True)
        sys.exit(common.EXIT_FAILED)
    except SanssimError as exc:
        common.fail(str(exc))
    except OSError as exc:  # a full disk: every file written so far is whole (atomic)
        bar.close()
        why = f"cannot write {exc.filename or out}: {exc.strerror}"
        if (out / TUNE).is_file():
            why += f"; finished games are kept, finish with `sanssim tune --resume --out {out}`"
        common.fail(why)
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
    sys.exit(common.main())
