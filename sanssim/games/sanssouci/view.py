"""What one player may know (rules section 5), and determinisation for look-ahead."""

from __future__ import annotations

import random
from collections import Counter

from sanssim.games.base import SeatView
from sanssim.games.sanssouci.actions import TAKE
from sanssim.games.sanssouci.engine import State
from sanssim.games.sanssouci.render import render_garden


class PlayerView(SeatView):
    """A read-only window on a live state through one seat's eyes.

    It exposes the public information, the seat's own hand and missions, and
    nothing else; `determinize` fills in the unknowns by sampling, never by
    reading them, so the result does not depend on the hidden truth.
    """

    __slots__ = ()

    def picture(self) -> str:
        """The position as this seat sees it, for `show --explain`."""
        return render_garden(self._state, self.seat)

    @property
    def turns_left(self) -> int:
        """Turns this seat still starts, the current one included if it is ours."""
        s = self._state
        total = 18 * s.n
        return sum(1 for t in range(s.turn, total) if t % s.n == self.seat)

    # the display and the supply
    @property
    def display(self) -> list[int]:
        return list(self._state.display)

    @property
    def supply_size(self) -> int:
        return len(self._state.supply)

    def supply_composition(self) -> Counter[int]:
        """Tiles per symbol still in the supply: public, as every other tile is visible."""
        return Counter(self._state.supply)

    @property
    def pending_tile(self) -> int:
        return self._state.pending_tile

    @property
    def pending_target(self) -> int:
        return self._state.pending_target

    # gardens (public)
    def occupied(self, seat: int) -> int:
        return self._state.occupied[seat]

    def gardeners(self, seat: int) -> int:
        return self._state.gardeners[seat]

    def reach(self, seat: int) -> int:
        return self._state.reach[seat]

    def noble_rows(self, seat: int) -> tuple[int, ...]:
        return tuple(self._state.noble_rows[seat])

    def score(self, seat: int) -> int:
        return self._state.score[seat]

    def garden_side(self, seat: int) -> int:
        return self._state.setup[seat].garden

    def symbol_column(self, seat: int) -> tuple[int, ...]:
        return self._state.setup[seat].symbol_column

    def target(self, seat: int, slot: int, symbol: int) -> int:
        return self._state.setup[seat].target[slot * 9 + symbol]

    def expansion_side(self, seat: int) -> int:
        return self._state.exp_side[seat]

    def expansion_board(self, seat: int) -> int:
        return self._state.exp_board[seat]

    def expansion_marks(self, seat: int) -> tuple[list[int] | None, list[int] | None]:
        """Points for a landscape and a gardener on each square (None: no expansion)."""
        return self._state.exp_land[seat], self._state.exp_gard[seat]

    def played(self, seat: int) -> tuple[int, ...]:
        return tuple(self._state.played[seat])

    def cards_left(self, seat: int) -> list[int]:
        """The cards a seat has not played yet (hand and deck together), sorted."""
        played = set(self._state.played[seat])
        return [c for c in range(len(self.game.components.deck)) if c not in played]

    # private to this seat
    @property
    def hand(self) -> tuple[int, ...]:
        return tuple(self._state.hands[self.seat])

    @property
    def missions(self) -> tuple[int, ...]:
        return self._state.missions[self.seat]

    def determinize(self, rng: random.Random) -> State:
        """A full state consistent with this view, its unknowns sampled from `rng`.

        Unknowns are put in a canonical order before shuffling, so the sample
        depends only on what the seat knows and on `rng`.
        """
        s = self._state.clone()
        me = self.seat
        supply = sorted(s.supply)
        rng.shuffle(supply)
        s.supply = supply
        for seat in range(s.n):
            hand = s.hands[seat]
            if seat == me:
                deck = sorted(s.decks[seat])
                rng.shuffle(deck)
                s.decks[seat] = deck
                continue
            pool = sorted(hand + s.decks[seat])
            rng.shuffle(pool)
            s.hands[seat] = pool[: len(hand)]
            s.decks[seat] = pool[len(hand) :]
        mine = set(s.missions[me])
        unknown = sorted(m for m in range(9) if m not in mine)
        rng.shuffle(unknown)
        others = iter(unknown)
        s.missions = [
            s.missions[seat] if seat == me else (next(others), next(others)) for seat in range(s.n)
        ]
        s.rng = random.Random(rng.getrandbits(64))
        s.record = False
        s.log = []
        s._turn = None
        if s.phase == TAKE and s.current != me:
            s._start_turn()
        return s
