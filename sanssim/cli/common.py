"""What every command shares: exit codes, one-line failures, the `main` group and the
option decorators derived from the games' declarations."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click

from sanssim import __version__
from sanssim.compiled import ENGINES
from sanssim.errors import SanssimError
from sanssim.games import DEFAULT_GAME, game_names, get_game
from sanssim.games.base import Option
from sanssim.runner.config import COMMON_KEYS

if TYPE_CHECKING:
    pass


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
