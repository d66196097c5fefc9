"""Hand-built Splendor positions for rule tests, and a snapshot of everything in a state."""

from __future__ import annotations

from typing import Any

from sanssim.games.splendor.actions import EMPTY
from sanssim.games.splendor.config import GameConfig
from sanssim.games.splendor.engine import Game, State


def fresh(n: int = 2, seed: int = 0, **options: Any) -> State:
    return Game(GameConfig(n_players=n, **options)).new_state(seed)


def arrange(
    state: State,
    seat: int = 0,
    supply: list[int] | None = None,
    tokens: dict[int, list[int]] | None = None,
    bonus: dict[int, list[int]] | None = None,
    display: dict[int, int] | None = None,
    reserved: dict[int, list[int]] | None = None,
    table: list[int] | None = None,
    points: dict[int, int] | None = None,
) -> State:
    """Put the position together, then start `seat`'s turn (legal choices recomputed).

    Display cards are taken out of the decks so that no card is in two places.
    """
    if supply is not None:
        state.supply = list(supply)
    for p, t in (tokens or {}).items():
        state.tokens[p] = list(t)
    for p, b in (bonus or {}).items():
        state.bonus[p] = list(b)
        state.cards_bought[p] = sum(b)
    for p, pts in (points or {}).items():
        state.points[p] = pts
    placed = set()
    for slot, card in (display or {}).items():
        state.display[slot] = card
        if card == EMPTY:
            state.filled &= ~(1 << slot)
        else:
            state.filled |= 1 << slot
            placed.add(card)
    for p, cards in (reserved or {}).items():
        state.reserved[p] = list(cards)
        placed.update(cards)
    state.decks = [[c for c in deck if c not in placed] for deck in state.decks]
    if table is not None:
        state.table = list(table)
    state.current = seat
    state.turn = seat
    state._start_turn()
    return state


def snapshot(state: State) -> tuple[Any, ...]:
    """Every field of the state, copied, for 'unchanged' and 'independent' checks."""
    out = []
    for name in State.__slots__:
        if name in ("game", "log", "_turn"):
            continue
        value = getattr(state, name)
        if isinstance(value, list):
            value = tuple(tuple(v) if isinstance(v, list) else v for v in value)
        out.append((name, value))
    return tuple(out)
