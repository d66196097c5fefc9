"""What a No Thanks! player sees: everything but the deck's order and the removed cards."""

from __future__ import annotations

import random

from nothanks.engine import State
from sanssim.games.base import SeatView


class PlayerView(SeatView):
    __slots__ = ()

    @property
    def card(self) -> int:
        return self._state.card

    @property
    def pot(self) -> int:
        return self._state.pot

    def chips(self, seat: int) -> int:
        return self._state.chips[seat]

    def cards(self, seat: int) -> list[int]:
        return list(self._state.cards[seat])

    def determinize(self, rng: random.Random) -> State:
        """A state with the unseen cards (deck and removed) dealt again at random."""
        world = self._state.clone()
        unseen = world.deck + world.removed
        rng.shuffle(unseen)
        world.deck, world.removed = unseen[: len(world.deck)], unseen[len(world.deck) :]
        return world
