"""`sanssim show` for Sanssouci: gardens and the display drawn turn by turn from the log."""

from __future__ import annotations

from typing import Any

import polars as pl

from sanssim.games.sanssouci.components import SYMBOLS
from sanssim.games.sanssouci.engine import EMPTY, N_COLS, Game, State, square
from sanssim.games.sanssouci.render import LEGEND, render_display, render_garden


def show(
    game: Game,
    results: pl.DataFrame,
    turns: pl.DataFrame,
    final: State,
    turn: int | None,
    seat: int | None,
) -> list[str]:
    """The whole game turn by turn, or one turn with every garden after it; `seat` keeps
    to one player's turns and garden."""
    out = ["legend: " + LEGEND, *_header(game, results)]
    rows = list(turns.iter_rows(named=True))
    picked = range(len(rows)) if turn is None else [turn]
    for t in picked:
        row = rows[t]
        if seat is not None and turn is None and row["seat"] != seat:
            continue
        position = position_after(final, rows, t)
        out += ["", turn_line(row), "display before: " + _display(final, row["display"])]
        if seat is not None:
            seats: Any = [seat]
        else:
            seats = [row["seat"]] if turn is None else range(final.n)
        for s in seats:
            out.append(f"seat {s} after turn {t}: score {position.score[s]}")
            out.append(render_garden(position, s))
    out += ["", "final scores:"]
    for r in results.iter_rows(named=True):
        out.append(
            f"  seat {r['seat']}: {r['total']} (nobles {r['noble_points']}, expansion "
            f"{r['expansion_points']}, rows {r['row_bonus']}, columns {r['column_bonus']}, "
            f"missions {r['mission_points']}{_handicap(r)}), {r['gardeners']} gardeners, "
            f"rank {r['rank']}"
        )
    return out


def _header(game: Game, results: pl.DataFrame) -> list[str]:
    config = game.config
    lines = [
        f"{config.n_players} players, tile set {config.resolved_tile_set}, "
        f"expansion {'on' if config.expansion else 'off'}, "
        f"duplicate reshuffle {'on' if config.duplicate_reshuffle else 'off'}"
    ]
    for r in results.iter_rows(named=True):  # the strategies: once, above (runner.show)
        lines.append(
            f"seat {r['seat']}: garden {r['garden_side']}  "
            f"expansion {r['expansion_side'] or '-'}  missions {r['mission_a']}, {r['mission_b']}"
        )
    return lines


def turn_line(row: dict[str, Any]) -> str:
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


def _handicap(row: dict) -> str:
    """The seat-bonus starting points, when the run gave any (older runs lack the column)."""
    points = row.get("handicap_points")
    return f", handicap {points}" if points else ""
