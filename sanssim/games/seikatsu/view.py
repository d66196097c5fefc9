"""What one seat may know (rules section 8), and determinisation for look-ahead."""

from __future__ import annotations

import random
from collections import Counter

from sanssim.games.base import SeatView
from sanssim.games.seikatsu.engine import State
from sanssim.games.seikatsu.render import render_garden


class PlayerView(SeatView):
    """A read-only window on a live state through one seat's eyes.

    Public: the garden, scores, face-up koi, how many tiles each hand and the
    bag hold. Private: this seat's own hand. `determinize` fills in the rest
    (other hands, bag order) by sampling, never by reading them.
    """

    __slots__ = ()

    def picture(self) -> str:
        """The position as this seat sees it, for `show --explain`."""
        return render_garden(self._state)

    @property
    def turns_left(self) -> int:
        """Turns this seat still starts, the current one included if it is ours."""
        s = self._state
        return sum(1 for t in range(s.turn, s.game.turns) if t % s.n == self.seat)

    # the garden (public)
    @property
    def board(self) -> list[int]:
        """Tile kind on each cell, -1 for an empty space."""
        return list(self._state.board)

    @property
    def occupied(self) -> int:
        return self._state.occupied

    @property
    def frontier(self) -> int:
        """Empty spaces next to a tile: where a tile may be played."""
        return self._state.frontier

    def bird_mask(self, bird: int) -> int:
        return self._state.birds[bird]

    def flower_mask(self, flower: int) -> int:
        return self._state.flowers[flower]

    @property
    def flower_masks(self) -> tuple[int, ...]:
        return tuple(self._state.flowers)

    @property
    def bird_masks(self) -> tuple[int, ...]:
        return tuple(self._state.birds)

    @property
    def koi_mask(self) -> int:
        return self._state.koi

    def bird_points(self, kind: int, cell: int) -> tuple[int, int]:
        """(points, koi bird) that playing `kind` on `cell` would score now."""
        return self._state.bird_points(kind, cell)

    # scores and counts (public)
    def side_score(self, side: int) -> int:
        """Bird points of a side (a seat, or a team in 4 players)."""
        return self._state.side_score[side]

    def side_totals(self) -> list[int]:
        """Each side's bird points plus flower points as if the game ended now."""
        return self._state.side_totals()

    def koi_held(self, seat: int) -> int:
        """Face-up koi a seat still holds (tournament)."""
        return self._state.koi_held[seat]

    def hand_size(self, seat: int) -> int:
        return len(self._state.hands[seat])

    @property
    def bag_size(self) -> int:
        return len(self._state.bag)

    def unseen(self) -> Counter[int]:
        """Tile kinds this seat cannot see (bag and other hands): every tile minus the
        board, its own hand and the face-up koi."""
        s = self._state
        game = s.game
        counts = Counter(game.garden_tiles)
        counts[game.koi_kind] = game.components.koi_count
        counts.subtract(k for k in s.board if k >= 0)
        counts.subtract(s.hands[self.seat])
        counts[game.koi_kind] -= sum(s.koi_held)
        return +counts

    # private to this seat
    @property
    def hand(self) -> tuple[int, ...]:
        return tuple(self._state.hands[self.seat])

    def determinize(self, rng: random.Random) -> State:
        """A full state consistent with this view, its unknowns sampled from `rng`.

        The unseen tiles are sorted before shuffling, so the sample depends only
        on what this seat knows and on `rng`. The bag order is the state's only
        future chance, so resampling it reseeds the future too.
        """
        s = self._state.clone()
        me = self.seat
        pool = sorted(self.unseen().elements())
        rng.shuffle(pool)
        for seat in range(s.n):
            if seat != me:
                size = len(s.hands[seat])
                s.hands[seat] = pool[:size]
                del pool[:size]
        s.bag = pool
        s.record = False
        s.log = []
        if s.current != me and s.legal:
            s._start_turn()
            while len(s.legal) == 1:  # a sampled hand may leave a single choice: forced
                s.apply_action(s.legal[0])
        return s
