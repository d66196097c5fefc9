"""`sanssim show`, `report`, `check` and `strategies`: what a finished run holds."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from sanssim.cli.common import GAME_FLAG, OutPath, fail, main
from sanssim.cli.running import counted
from sanssim.errors import SanssimError

if TYPE_CHECKING:
    pass


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
