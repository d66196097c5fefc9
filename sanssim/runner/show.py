"""`sanssim show`: a logged game replayed through the engine and drawn turn by turn.

The replay checks every logged turn against the engine before anything is
drawn, and the pictures are built from the logged rows, so what is shown is
what the log says and the engine agrees with it.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import polars as pl

from sanssim.games.sanssouci import PHASE_NAMES, SYMBOLS, State
from sanssim.games.sanssouci.engine import EMPTY, N_COLS, square
from sanssim.games.sanssouci.log import RESULTS, TURNS, replay, turn_frame
from sanssim.games.sanssouci.render import LEGEND, render_display, render_garden
from sanssim.games.sanssouci.view import PlayerView
from sanssim.runner.batch import INDEX, MANIFEST, read_json
from sanssim.runner.config import RunConfig, RunError
from sanssim.runner.play import play_game
from sanssim.runner.run import config_from
from sanssim.strategies.base import Strategy


def load_game(run_dir: Path, game_id: int) -> tuple[RunConfig, pl.DataFrame, pl.DataFrame, State]:
    """Results rows, turn rows and the replayed final state of one logged game."""
    if (run_dir / INDEX).is_file() and not (run_dir / MANIFEST).is_file():
        arms = [a["path"] for a in read_json(run_dir / INDEX).get("arms", [])]
        raise RunError(f"{run_dir} holds several runs; give one of: {', '.join(arms)}")
    if not (run_dir / MANIFEST).is_file():
        raise RunError(f"{run_dir} is not a sanssim run directory (no {MANIFEST})")
    manifest = read_json(run_dir / MANIFEST)
    config = config_from(run_dir)
    results = _rows(run_dir / RESULTS, game_id).sort("seat")
    if results.height == 0:
        failed = [f for f in manifest.get("failures", []) if f["game_id"] == game_id]
        if failed:
            raise RunError(f"game {game_id} failed and has no log: {failed[0]['error']}")
        raise RunError(f"game {game_id} is not in {run_dir} (games 0..{config.games - 1})")
    seed = results["game_seed"][0]
    if config.turn_log:
        turns = _rows(run_dir / TURNS, game_id).sort("turn")
    else:  # no turn log: the strategies replay the game, so they must be installed
        state = play_game(config.game(), config.specs(), seed, record=True)
        turns = turn_frame(results["run_id"][0], config, [(game_id, state)])
    final = replay(config, game_id, seed, results["expansion_side"].to_list(), turns)
    return config, results, turns, final


def _rows(table_dir: Path, game_id: int) -> pl.DataFrame:
    files = sorted(table_dir.glob("*.parquet"))
    if not files:
        raise RunError(f"{table_dir} holds no parts")
    return pl.scan_parquet(files).filter(pl.col("game_id") == game_id).collect()


def show(run_dir: Path, game_id: int, turn: int | None = None) -> str:
    """The whole game turn by turn, or one turn with every garden after it."""
    config, results, turns, final = load_game(run_dir, game_id)
    if turn is not None and not 0 <= turn < turns.height:
        raise RunError(f"game {game_id} has turns 0..{turns.height - 1}, not {turn}")
    out = _header(run_dir, game_id, config, results)
    rows = list(turns.iter_rows(named=True))
    picked = range(len(rows)) if turn is None else [turn]
    for t in picked:
        position = position_after(final, rows, t)
        row = rows[t]
        out += ["", _turn_line(row), "display before: " + _display(final, row["display"])]
        seats = [row["seat"]] if turn is None else range(final.n)
        for seat in seats:
            out.append(f"seat {seat} after turn {t}: score {position.score[seat]}")
            out.append(render_garden(position, seat))
    out += ["", "final scores:"]
    for r in results.iter_rows(named=True):
        out.append(
            f"  seat {r['seat']}: {r['total']} (nobles {r['noble_points']}, expansion "
            f"{r['expansion_points']}, rows {r['row_bonus']}, columns {r['column_bonus']}, "
            f"missions {r['mission_points']}), {r['gardeners']} gardeners, rank {r['rank']}"
        )
    out += ["", LEGEND]
    return "\n".join(out)


def explain(run_dir: Path, game_id: int, turn: int, top: int = 5) -> str:
    """The acting strategy's best-scored options at each decision of `turn`.

    The game is played again through its strategies (they must be installed);
    each is asked to explain on a copy of itself, so its own random stream,
    and hence the game, are not disturbed.
    """
    config, results, turns, final = load_game(run_dir, game_id)
    if not 0 <= turn < turns.height:
        raise RunError(f"game {game_id} has turns 0..{turns.height - 1}, not {turn}")
    lines = [_turn_line(turns.row(turn, named=True))]

    def observe(state: State, player: Strategy, view: PlayerView) -> None:
        if state.turn != turn:
            return
        scored = copy.deepcopy(player).explain(view, list(state.legal))
        lines.append(
            f"{PHASE_NAMES[state.phase]} decision, {len(state.legal)} legal, "
            f"{type(player).__name__} scores (best first):"
        )
        lines.extend(f"  {score:9.3f}  {view.describe(a)}" for a, score in scored[:top])

    replayed = play_game(config.game(), config.specs(), results["game_seed"][0], False, observe)
    if replayed.returns() != results["total"].to_list():
        raise RunError(
            f"the strategies installed now do not replay game {game_id} as logged; "
            "cannot explain it"
        )
    if len(lines) == 1:
        lines.append("no decision this turn: every choice was forced")
    return "\n".join(lines)


def _header(run_dir: Path, game_id: int, config: RunConfig, results: pl.DataFrame) -> list[str]:
    first = results.row(0, named=True)
    lines = [
        f"{run_dir} game {game_id} (game_seed {first['game_seed']}): {config.n_players} players, "
        f"tile set {first['tile_set']}, expansion {'on' if config.expansion else 'off'}, "
        f"duplicate reshuffle {'on' if config.duplicate_reshuffle else 'off'}"
    ]
    for r in results.iter_rows(named=True):
        lines.append(
            f"seat {r['seat']}: {r['strategy']}  garden {r['garden_side']}  "
            f"expansion {r['expansion_side'] or '-'}  missions {r['mission_a']}, {r['mission_b']}"
        )
    return lines


def _turn_line(row: dict[str, Any]) -> str:
    card = row["card"] + (" (as joker)" if row["card_wild"] else "")
    if row["slot"] is None:
        take = "no tile to take (card discarded)"
    else:
        where = f"row {row['placed_row']} col {row['placed_col']}"
        placed = f"gardener to {where}" if row["gardener"] else f"to {where}"
        take = f"takes {row['tile']} from slot {row['slot']}, {placed}"
        if row["expansion_points"]:
            take += f" ({row['expansion_points']:+d} expansion)"
    if row["noble_col"] is None:
        noble = "no noble moves"
    else:
        noble = (
            f"noble of col {row['noble_col']} row {row['noble_from']} -> {row['noble_to']} "
            f"(+{row['noble_points']})"
        )
    return (
        f"turn {row['turn']} (round {row['round']}) seat {row['seat']} plays {card}: "
        f"{take}; {noble}; score {row['score']}"
    )


def _display(final: State, names: list[str | None]) -> str:
    position = final.clone()
    position.display = [EMPTY if n is None else SYMBOLS.index(n) for n in names]
    return render_display(position)


def position_after(final: State, rows: list[dict[str, Any]], turn: int) -> State:
    """Gardens, nobles and scores after `turn`, rebuilt from the logged rows."""
    position = final.clone()
    for seat in range(final.n):
        position.occupied[seat] = final.setup[seat].preprinted
        position.gardeners[seat] = 0
        position.noble_rows[seat] = [0] * N_COLS
        position.score[seat] = 0
    for row in rows[: turn + 1]:
        seat = row["seat"]
        if row["placed_row"] is not None:
            bit = 1 << square(row["placed_row"], row["placed_col"])
            position.occupied[seat] |= bit
            if row["gardener"]:
                position.gardeners[seat] |= bit
        if row["noble_col"] is not None:
            position.noble_rows[seat][row["noble_col"]] = row["noble_to"]
        position.score[seat] = row["score"]
    return position
