"""The command line: parse, validate, call, print."""

from __future__ import annotations

import sys

import click

from sanssim import __version__
from sanssim.engine import Game, GameConfig, SanssimError


@click.group()
@click.version_option(__version__, prog_name="sanssim")
def main() -> None:
    """Simulate Sanssouci between strategies and report on the results."""


@main.command()
@click.option("--players", default=2, show_default=True, help="Number of players (2-4).")
@click.option("--seed", default=1, show_default=True, help="Game seed.")
@click.option("--expansion", is_flag=True, help="Play the advanced game.")
def play(players: int, seed: int, expansion: bool) -> None:
    """Play one seeded random game and print the final position."""
    from sanssim.engine.render import render_state
    from sanssim.runner.play import play_game
    from sanssim.strategies import resolve

    try:
        game = Game(GameConfig(n_players=players, expansion=expansion))
        state = play_game(game, [resolve("random")] * players, seed)
    except SanssimError as exc:
        raise click.UsageError(str(exc)) from None
    click.echo(render_state(state))
    click.echo("final: " + ", ".join(f"seat {p} {t}" for p, t in enumerate(state.returns())))


if __name__ == "__main__":
    sys.exit(main())
