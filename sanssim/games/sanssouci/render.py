"""Plain-text pictures of gardens and the display, for debugging and `show`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sanssim.games.sanssouci.actions import EMPTY, N_SLOTS
from sanssim.games.sanssouci.components import COLOURS, N_COLS, N_ROWS, SYMBOLS
from sanssim.games.sanssouci.engine import State
from sanssim.games.sanssouci.garden import square

ROW_COLOURS = ("beige",) + COLOURS
SHORT = {s: s[:4] for s in SYMBOLS} | {"rose_arch": "rose", "herb_garden": "herb"}
LEGEND = (
    "## pre-printed  [] landscape tile  gg gardener  .. empty  "
    "* noble  +n/-n/G expansion mark still free"
)


def render_garden(state: State, seat: int) -> str:
    """One seat's garden: rows 0 (terrace) to 6, nobles shown with '*'."""
    comps = state.game.components
    setup = state.setup[seat]
    side = comps.garden_sides[setup.garden]
    occupied = state.occupied[seat]
    gardeners = state.gardeners[seat]
    nobles = state.noble_rows[seat]
    land, gard = state.exp_land[seat], state.exp_gard[seat]
    header = "       " + " ".join(f"{SHORT[s]:>5}" for s in side.columns)
    lines = [header]
    terrace = " ".join(f"{'*' if nobles[c] == 0 else '':>5}" for c in range(N_COLS))
    lines.append(f"0 terr {terrace}")
    for row in range(1, N_ROWS + 1):
        cells = []
        for col in range(N_COLS):
            sq = square(row, col)
            bit = 1 << sq
            if gardeners & bit:
                cell = "gg"
            elif setup.preprinted & bit:
                cell = "##"
            elif occupied & bit:
                cell = "[]"
            elif land is not None and (land[sq] or gard[sq]):
                cell = _mark(land[sq], gard[sq])
            else:
                cell = ".."
            noble = "*" if nobles[col] == row else ""
            cells.append(f"{noble + cell:>5}")
        lines.append(f"{row} {ROW_COLOURS[row - 1][:4]:<4} " + " ".join(cells))
    return "\n".join(lines)


def _mark(land: int, gard: int) -> str:
    if land < 0:
        return str(land)
    if gard > 0:
        return "G"
    return f"+{land}"


def render_display(state: State) -> str:
    """The 10 display squares by colour, `--` for an empty one."""
    return display_line([None if s == EMPTY else SYMBOLS[s] for s in state.display])


def display_line(names: Sequence[str | None]) -> str:
    """The display's squares by colour from their symbols' names (None: empty, `--`)."""
    return "  ".join(
        f"{slot}:{COLOURS[slot // 2]}={names[slot] or '--'}" for slot in range(N_SLOTS)
    )


def position_after(state: State, rows: list[dict[str, Any]], index: int) -> State:
    """Gardens, nobles and scores after the logged turn `rows[index]`, rebuilt from the
    logged rows on a copy of `state` (a replayed state may be ahead of the log: a turn
    whose every choice was forced is taken with the turn before it)."""
    position = state.clone()
    for seat in range(state.n):
        position.occupied[seat] = state.setup[seat].preprinted
        position.gardeners[seat] = 0
        position.noble_rows[seat] = [0] * N_COLS
        position.score[seat] = 0
    for row in rows[: index + 1]:
        seat = row["seat"]
        if row["placed_row"] is not None:
            bit = 1 << square(row["placed_row"], row["placed_col"])
            position.occupied[seat] |= bit
            if row["gardener"]:
                position.gardeners[seat] |= bit
        if row["noble_col"] is not None:
            position.noble_rows[seat][row["noble_col"]] = row["noble_to"]
        position.score[seat] = row["score"]
    position.turn = rows[index]["turn"] + 1
    return position


def render_state(state: State) -> str:
    """Everything public about the state, plus each seat's score and missions."""
    comps = state.game.components
    progress = (
        "game over"
        if state.is_terminal()
        else f"round {state.round}  turn {state.turn}  seat {state.current} to play"
    )
    out = [
        f"{progress}  supply {len(state.supply)}",
        "display: " + render_display(state),
    ]
    for seat in range(state.n):
        side = comps.garden_sides[state.setup[seat].garden].id
        exp = state.exp_side[seat]
        exp_id = comps.expansion_sides[exp].id if exp != EMPTY else "-"
        missions = ", ".join(SYMBOLS[m] for m in state.missions[seat])
        out.append("")
        out.append(
            f"seat {seat}: score {state.score[seat]}  garden {side}  expansion {exp_id}  "
            f"missions {missions}"
        )
        out.append(render_garden(state, seat))
    out.append("")
    out.append(LEGEND)
    return "\n".join(out)
