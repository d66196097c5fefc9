"""Helpers to hand-build Seikatsu positions and component files for the tests.

A test deals a real game with `deal`, then overwrites the garden, hands, bag
and face-up koi with `set_position`, which rebuilds every derived mask and the
legal choices from the tile codes, so the engine sees a position it could
have reached by play. Spaces are written as axial (q, r) pairs.
"""

from __future__ import annotations

import copy
import tomllib
from importlib import resources
from typing import Any

from sanssim.games.seikatsu import Components, Game, GameConfig, State

Space = tuple[int, int]


def default_data() -> dict[str, Any]:
    """A fresh copy of the packaged component file's contents."""
    text = (
        resources.files("sanssim.games.seikatsu")
        .joinpath("components.toml")
        .read_text(encoding="utf-8")
    )
    return copy.deepcopy(tomllib.loads(text))


def deal(n: int = 2, seed: int = 0, tournament: bool = False, record: bool = False,
         components: Components | None = None) -> State:  # fmt: skip
    return Game(GameConfig(n, tournament), components).new_state(seed, record)


def set_position(
    state: State,
    garden: dict[Space, str],
    hands: dict[int, list[str]] | None = None,
    bag: list[str] | None = None,
    current: int | None = None,
    koi_held: list[int] | None = None,
) -> State:
    """Replace the garden (only the tiles given), hands, bag and seat to play."""
    game = state.game
    state.board = [-1] * game.n_cells
    state.occupied = state.frontier = state.koi = 0
    state.birds = [0] * len(state.birds)
    state.flowers = [0] * len(state.flowers)
    for (q, r), code in garden.items():
        state._put(game.kind(code), game.cell(q, r))
    for seat, codes in (hands or {}).items():
        state.hands[seat] = [game.kind(c) for c in codes]
    if bag is not None:
        state.bag = [game.kind(c) for c in bag]
    if koi_held is not None:
        state.koi_held = list(koi_held)
    if current is not None:
        state.current = current
        state.turn = current
    state._start_turn()
    return state


def snapshot(state: State) -> tuple[Any, ...]:
    """Every mutable field, deep-copied, to check a state was left unchanged."""
    return tuple(copy.deepcopy(getattr(state, name)) for name in State.__slots__ if name != "game")


def choices(state: State) -> set[tuple[str, Space]]:
    """The legal actions as (tile code, space)."""
    game = state.game
    return {(game.kind_names[a // game.n_cells], game.cells[a % game.n_cells]) for a in state.legal}


def play(state: State, code: str, space: Space) -> None:
    state.apply_action(state.game.action(code, *space))
