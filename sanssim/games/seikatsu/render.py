"""Plain-text pictures of the garden for `show` and debugging.

A tile is two letters, its bird (upper case) and its flower (lower case);
`KK` is a koi, `..` an empty space, `~~` the pond. Letters come from the
component names (first letter not taken by an earlier name), so they follow
a user's data file. Each pagoda's view is a small map of row numbers.
"""

from __future__ import annotations

from sanssim.games.seikatsu.components import Components, coordinate
from sanssim.games.seikatsu.engine import EMPTY, State

POND = "~~"
KOI_TAG = "KK"
EMPTY_TAG = ".."


def letters(names: tuple[str, ...]) -> list[str]:
    """One distinct letter per name: its first letter not used by an earlier name."""
    used: list[str] = []
    for name in names:
        letter = next(
            ch for ch in name.replace("_", "") + "abcdefghijklmnopqrstuvwxyz" if ch not in used
        )
        used.append(letter)
    return used


def tile_tags(state: State) -> list[str]:
    """The two-letter tag of every tile kind, koi last."""
    comps = state.game.components
    birds = [b.upper() for b in letters(comps.birds)]
    flowers = letters(comps.flowers)
    return [b + f for b in birds for f in flowers] + [KOI_TAG]


def _picture(comps: Components, tag: dict[tuple[int, int], str]) -> list[str]:
    """Hex rows of constant r, each cell two characters, shifted half a cell per row."""
    radius = comps.radius
    lines = []
    for r in range(-radius, radius + 1):
        cols = {2 * q + r + 2 * radius: tag.get((q, r), "") for q in range(-radius, radius + 1)}
        width = 4 * radius + 1
        line = "".join(f"{cols.get(x, ''):<2}" if cols.get(x) else "  " for x in range(width))
        note = [
            f"<- {p.name} pagoda at corner ({p.corner[0]}, {p.corner[1]})"
            for p in comps.pagodas
            if p.corner[1] == r
        ]
        lines.append(f"r={r:+d} " + line.rstrip() + ("   " + "; ".join(note) if note else ""))
    return lines


def render_garden(state: State) -> str:
    """The garden with every tile, the pond, and where each pagoda stands."""
    game = state.game
    comps = game.components
    tags = tile_tags(state)
    tag = {
        cell: EMPTY_TAG if kind == EMPTY else tags[kind]
        for cell, kind in zip(game.cells, state.board, strict=True)
    }
    tag[comps.pond] = POND
    return "\n".join(_picture(comps, tag))


def render_rows(state: State, pagoda: int) -> str:
    """Which row of `pagoda` each space is in (its constant coordinate), and row points."""
    game = state.game
    comps = game.components
    p = comps.pagodas[pagoda]
    tag = {cell: f"{coordinate(cell, p.axis):+d}" for cell in game.cells}
    tag[comps.pond] = POND
    points = state.flower_rows(pagoda)
    rows = "  ".join(f"{k - comps.radius:+d}:{pts}" for k, pts in enumerate(points))
    head = f"{p.name} pagoda at ({p.corner[0]}, {p.corner[1]}) sees rows of constant {p.axis}"
    return "\n".join([head, *_picture(comps, tag), f"row points {rows} = {sum(points)}"])


def legend(state: State) -> str:
    """What the letters of `render_garden` mean."""
    comps = state.game.components
    birds = ", ".join(
        f"{ch.upper()} {b}" for ch, b in zip(letters(comps.birds), comps.birds, strict=True)
    )
    flowers = ", ".join(
        f"{ch} {f}" for ch, f in zip(letters(comps.flowers), comps.flowers, strict=True)
    )
    return (
        f"birds: {birds}\nflowers: {flowers}\n"
        f"{KOI_TAG} koi  {EMPTY_TAG} empty space  {POND} the pond (not a space)"
    )


def render_state(state: State) -> str:
    """Everything about the state: garden, each pagoda's rows, seats, hands and bag."""
    game = state.game
    comps = game.components
    names = game.kind_names
    progress = (
        "game over"
        if state.is_terminal()
        else f"round {state.round}  turn {state.turn}  seat {state.current} to play"
    )
    out = [f"{progress}  bag {len(state.bag)}", render_garden(state), ""]
    for pagoda in sorted(set(game.seat_pagoda)):
        out += [render_rows(state, pagoda), ""]
    totals = state.side_totals()
    for seat in range(state.n):
        side = game.side[seat]
        hand = " ".join(names[k] for k in sorted(state.hands[seat])) or "-"
        team = f"team {side}  " if game.n_sides != state.n else ""
        out.append(
            f"seat {seat}: {team}{comps.pagodas[game.seat_pagoda[seat]].name}  birds "
            f"{state.side_score[side]}  total now {totals[side]}  hand {hand}  "
            f"face-up koi {state.koi_held[seat]}"
        )
    out += ["", legend(state)]
    return "\n".join(out)
