"""`sanssim show`: a logged game replayed through its engine and drawn turn by turn.

The replay checks every logged turn against the engine before anything is
drawn, and the pictures are built from the logged rows, so what is shown is
what the log says and the engine agrees with it. The game is read from the
manifest; its package draws it.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import polars as pl

from sanssim.errors import SanssimError
from sanssim.rundir import scan
from sanssim.runformat import INDEX, MANIFEST, RESULTS, TURNS
from sanssim.runner.config import RunConfig, RunError
from sanssim.runner.files import read_json
from sanssim.runner.play import play_game
from sanssim.runner.run import config_from
from sanssim.strategies.base import Strategy

# What `show` says of a run without turn logs: there is no log to check the replay against.
NO_LOG = (
    "no turn log (--no-turn-log): replayed from the game seed alone with the strategies "
    "installed now; nothing is checked against a log"
)


def load_game(run_dir: Path, game_id: int) -> tuple[RunConfig, pl.DataFrame, pl.DataFrame, Any]:
    """Results rows, turn rows and the replayed final state of one logged game."""
    if (run_dir / INDEX).is_file() and not (run_dir / MANIFEST).is_file():
        arms = [a["path"] for a in read_json(run_dir / INDEX).get("arms", [])]
        raise RunError(f"{run_dir} holds several runs; give one of: {', '.join(arms)}")
    if not (run_dir / MANIFEST).is_file():
        raise RunError(f"{run_dir} is not a sanssim run directory (no {MANIFEST})")
    manifest = read_json(run_dir / MANIFEST)
    config = config_from(run_dir)
    game_type = config.game_type
    results = _rows(run_dir, manifest, RESULTS, game_id).sort("seat")
    if results.height == 0:
        failed = [f for f in manifest.get("failures", []) if f["game_id"] == game_id]
        if failed:
            raise RunError(f"game {game_id} failed and has no log: {failed[0]['error']}")
        raise RunError(f"game {game_id} is not in {run_dir} (games 0..{config.games - 1})")
    seed = results["game_seed"][0]
    game = config.game()
    if config.turn_log:
        turns = _rows(run_dir, manifest, TURNS, game_id).sort("turn")
    else:  # no turn log: the strategies replay the game, so they must be installed
        state = play_game(game_type, game, config.specs(), seed, record=True)
        turns = game_type.turn_frame(results["run_id"][0], game, [(game_id, state)])
    try:
        final = game_type.replay(game, game_id, seed, results, turns)
    except SanssimError as exc:
        raise RunError(str(exc)) from None
    return config, results, turns, final


def _rows(run_dir: Path, manifest: dict[str, Any], table: str, game_id: int) -> pl.DataFrame:
    return scan(run_dir, manifest, table).filter(pl.col("game_id") == game_id).collect()


def _check_turn(turns: pl.DataFrame, game_id: int, turn: int | None) -> None:
    if turn is not None and not 0 <= turn < turns.height:
        raise RunError(f"game {game_id} has turns 0..{turns.height - 1}, not {turn}")


def show(run_dir: Path, game_id: int, turn: int | None = None, seat: int | None = None) -> str:
    """The whole game turn by turn, or one turn; `seat` follows one player."""
    config, results, turns, final = load_game(run_dir, game_id)
    _check_turn(turns, game_id, turn)
    if seat is not None and not 0 <= seat < config.n_players:
        raise RunError(f"game {game_id} has seats 0..{config.n_players - 1}, not {seat}")
    game_type = config.game_type
    header = f"{run_dir} game {game_id} (game_seed {results['game_seed'][0]}): {game_type.title}"
    if not config.turn_log:
        header += f"\n{NO_LOG}"
    seats = seat_lines(results.sort("seat")["strategy"].to_list())
    body = game_type.show(config.game(), results, turns, final, turn, seat)
    return "\n".join([header, *seats, *body])


def seat_lines(specs: list[str]) -> list[str]:
    """Who plays which seat, each spec once: a long tuned spec shared by every seat is not
    repeated seat after seat."""
    seats: dict[str, list[int]] = {}
    for seat, spec in enumerate(specs):
        seats.setdefault(spec, []).append(seat)
    return [
        f"seat {found[0]}: {spec}"
        if len(found) == 1
        else f"seats {', '.join(map(str, found))}: {spec}"
        for spec, found in seats.items()
    ]


def explain(run_dir: Path, game_id: int, turn: int, top: int | None = 5) -> str:
    """Each decision of `turn`: what the acting player sees, then every legal option (or
    the `top` best) scored by its strategy, split into the strategy's named terms.

    The game is played again through its strategies (they must be installed); each is
    asked to explain on a copy of itself, so its own random stream, and hence the game,
    are not disturbed.
    """
    config, results, turns, _ = load_game(run_dir, game_id)
    _check_turn(turns, game_id, turn)
    game_type = config.game_type
    lines = [game_type.turn_line(turns.row(turn, named=True))]

    def observe(state: Any, player: Strategy, view: Any) -> None:
        if state.turn != turn:
            return
        legal = list(state.legal)
        lines.append("")
        lines.extend(game_type.position_lines(view))
        lines.extend(_decision(copy.deepcopy(player), view, legal, top))
        chosen = copy.deepcopy(player).choose(view, legal)
        lines.append(f"  chosen: {view.describe(chosen)}")

    replayed = play_game(
        game_type, config.game(), config.specs(), results["game_seed"][0], False, observe
    )
    if replayed.returns() != results["total"].to_list():
        raise RunError(
            f"the strategies installed now do not replay game {game_id} as logged; "
            "cannot explain it"
        )
    if len(lines) == 1:
        lines.append("no decision this turn: every choice was forced")
    return "\n".join(lines)


def _decision(player: Strategy, view: Any, legal: list[int], top: int | None) -> list[str]:
    """The scored options of one decision, with each score's named terms."""
    scored = sorted(player.terms(view, legal), key=lambda item: -sum(item[1].values()))
    shown = scored if top is None else scored[:top]
    lines = [
        f"{type(player).__name__} ({player.name}): {len(legal)} legal options, "
        f"{'all' if len(shown) == len(legal) else f'best {len(shown)}'} shown, best first; "
        f"value: {player.scoring()}"
    ]
    for action, terms in shown:
        total = sum(terms.values())
        parts = "  ".join(f"{k} {v:+.2f}" for k, v in terms.items() if v)
        lines.append(
            f"  {total:9.3f}  {view.describe(action)}" + (f"   [{parts}]" if parts else "")
        )
    totals = [sum(t.values()) for _, t in scored]
    if len(totals) > 1 and abs(totals[0] - totals[1]) < 1e-9:
        lines.append(f"  tie at the top, broken by: {player.tie_break}")
    return lines
