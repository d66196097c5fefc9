"""What one Splendor seat may know (rules section 5), and determinisation for look-ahead."""

from __future__ import annotations

import random

from sanssim.games.base import SeatView
from sanssim.games.splendor.actions import MAIN, N_LEVELS
from sanssim.games.splendor.engine import State
from sanssim.games.splendor.render import render_player

HIDDEN = -2  # another player's blind reservation, as this seat sees it


class PlayerView(SeatView):
    """A read-only window on a live state through one seat's eyes.

    Everything public (display, deck sizes, supply, every player's tokens, bonuses,
    points, nobles, and reservations taken from the display) plus the seat's own blind
    reservations; other players' blind reservations show as `HIDDEN` with their level.
    `determinize` fills in the unknowns by sampling, never by reading them.
    """

    __slots__ = ()

    def picture(self) -> str:
        """The position as this seat sees it, for `show --explain`."""
        return render_player(self._state, self.seat, reveal=True)

    @property
    def display(self) -> list[int]:
        return list(self._state.display)

    def deck_left(self, level: int) -> int:
        """Cards left in the deck of `level` (1-3)."""
        return len(self._state.decks[level - 1])

    @property
    def supply(self) -> list[int]:
        return list(self._state.supply)

    @property
    def nobles_on_table(self) -> list[int]:
        return list(self._state.table)

    @property
    def tokens_to_return(self) -> int:
        """Tokens still to hand back in the current return decision."""
        return self._state.excess

    def token_limit(self, seat: int) -> int:
        """Tokens `seat` may hold at the end of its turn (10, more with `later_seat_limit`)."""
        return self._state.game.token_limit[seat]

    def tokens(self, seat: int) -> list[int]:
        return list(self._state.tokens[seat])

    def bonuses(self, seat: int) -> list[int]:
        return list(self._state.bonus[seat])

    def points(self, seat: int) -> int:
        return self._state.points[seat]

    def cards_bought(self, seat: int) -> int:
        return self._state.cards_bought[seat]

    def tableau(self, seat: int) -> list[int]:
        return list(self._state.tableau[seat])

    def nobles(self, seat: int) -> list[int]:
        return list(self._state.nobles[seat])

    def reserved(self, seat: int) -> list[int]:
        """Reserved card ids in the order reserved; another seat's blind ones are HIDDEN."""
        s = self._state
        if seat == self.seat:
            return list(s.reserved[seat])
        blind = s.blind[seat]
        return [HIDDEN if card in blind else card for card in s.reserved[seat]]

    def reserved_levels(self, seat: int) -> list[int]:
        """The level of each reserved card: public even for blind reservations."""
        level = self._state.game.card_level
        return [level[card] for card in self._state.reserved[seat]]

    def describe(self, action: int) -> str:
        s = self._state
        if s.current != self.seat:
            return repr(action)
        return s.describe(action)

    def unseen(self, level: int) -> list[int]:
        """Cards of `level` this seat has not seen: in the deck or others' blind reserves."""
        s = self._state
        seen = set(s.display)
        for seat in range(s.n):
            seen.update(s.tableau[seat])
            seen.update(self.reserved(seat))
        return [c for c in s.game.level_cards[level - 1] if c not in seen]

    def determinize(self, rng: random.Random) -> State:
        """A full state consistent with this view, its unknowns sampled from `rng`.

        Per level, the unseen cards (sorted, so the sample depends only on what the seat
        knows) are shuffled and dealt to other seats' blind reservations of that level,
        then to the deck. The decks are the game's only chance, so nothing else needs
        reseeding.
        """
        s = self._state.clone()
        me = self.seat
        level_of = s.game.card_level
        # positions of other seats' blind reservations in their reserve, in reserve order
        hidden = {
            seat: [i for i, card in enumerate(s.reserved[seat]) if card in s.blind[seat]]
            for seat in range(s.n)
            if seat != me and s.blind[seat]
        }
        for level in range(1, N_LEVELS + 1):
            pool = self.unseen(level)
            rng.shuffle(pool)
            for seat, positions in hidden.items():
                held = s.reserved[seat]
                for i in positions:
                    if level_of[held[i]] == level:
                        held[i] = pool.pop()
            s.decks[level - 1] = pool
        for seat, positions in hidden.items():
            s.blind[seat] = [s.reserved[seat][i] for i in positions]
        s.record = False
        s.log = []
        s._turn = None
        if s.phase == MAIN and s.current != me and s.blind[s.current]:
            # the seat to play may hold other cards now: its buy options are recomputed
            s._start_turn()
        return s
