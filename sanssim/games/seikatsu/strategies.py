"""Seikatsu strategies: `greedy` (points this turn) and `heuristic` (documented weights).

Both see the garden through a `PlayerView` only: the public garden, their own
hand and face-up koi. Each option is a (tile, space) pair scored as a sum of
named terms (`terms`); `explain` lists options best first.

Flower rows are summarised per pagoda in play (`_RowStats`): for each row its
flower counts, koi, empty spaces and `best` = largest flower set + koi, the
set the row would score now. A tile of flower f raises a row's best to
``max(best, count[f] + koi + 1)``; a koi raises it by one.
"""

from __future__ import annotations

from sanssim.games.seikatsu.engine import Game
from sanssim.games.seikatsu.view import PlayerView
from sanssim.strategies.base import Param, TermsStrategy

EPS = 1e-9


class _RowStats:
    """Each row of one pagoda now: (flower counts, koi, best set, empty spaces, length)."""

    __slots__ = ("rows", "row_of")

    def __init__(self, view: PlayerView, pagoda: int) -> None:
        game = view.game
        flowers = view.flower_masks
        koi = view.koi_mask
        occupied = view.occupied
        self.row_of = game.row_of[pagoda]
        self.rows = []
        for row in game.rows[pagoda]:
            counts = [(f & row).bit_count() for f in flowers]
            k = (koi & row).bit_count()
            length = row.bit_count()
            self.rows.append(
                (counts, k, max(counts) + k, length - (occupied & row).bit_count(), length)
            )

    def after(self, game: Game, kind: int, cell: int) -> tuple[int, int, int, int]:
        """(best before, best after, empty spaces before, row length) for a tile on `cell`."""
        counts, koi, best, empty, length = self.rows[self.row_of[cell]]
        if kind == game.koi_kind:
            return best, best + 1, empty, length
        return best, max(best, counts[game.kind_flower[kind]] + koi + 1), empty, length


def _options(view: PlayerView, legal: list[int]) -> list[tuple[int, int, int]]:
    """(action, kind, cell) of each legal action."""
    n_cells = view.game.n_cells
    return [(a, *divmod(a, n_cells)) for a in legal]


class _TermsStrategy(TermsStrategy):
    """A strategy scoring each option by its named `terms` and playing one of the best."""

    def _best(self, view: PlayerView, legal: list[int]) -> list[int]:
        """The options tied at the top score, in the order of `legal`."""
        ranked = self.explain(view, legal)
        top = ranked[0][1]
        return [a for a, s in ranked if s >= top - EPS]


class GreedyStrategy(_TermsStrategy):
    """Most points this turn: bird points plus the change in its own pagoda's flower
    points, rows valued as they stand now. Ties: a garden tile before a koi (the koi
    stays wild for later), then uniformly at random (`self.rng`)."""

    name = "greedy"
    summary = "most points this turn (birds + own flower rows now); ties keep the koi, then random"

    def terms(self, view: PlayerView, legal: list[int]) -> list[tuple[int, dict[str, float]]]:
        game = view.game
        points = game.set_points
        own = _RowStats(view, game.seat_pagoda[view.seat])
        out = []
        for action, kind, cell in _options(view, legal):
            birds, _ = view.bird_points(kind, cell)
            before, after, _, _ = own.after(game, kind, cell)
            out.append(
                (action, {"birds": float(birds), "flowers": float(points[after] - points[before])})
            )
        return out

    def choose(self, view: PlayerView, legal: list[int]) -> int:
        best = self._best(view, legal)
        koi = view.game.koi_kind
        n_cells = view.game.n_cells
        keep_koi = [a for a in best if a // n_cells != koi]
        pool = keep_koi or best
        return pool[int(self.rng.random() * len(pool))]


class HeuristicStrategy(_TermsStrategy):
    """Whole-game play by documented weights (all parameters).

    An option's score is the sum of these terms, in points:

    - `birds` x bird points scored now;
    - `rows` x the change in its own pagoda's row potential, where a row's
      potential is its set points at ``best + fill * empty`` (interpolated,
      capped at the row's length): `fill` is the share of a row's empty spaces
      expected to join its largest set. In 4 players a team's pagoda is built
      by two players, so `fill` is multiplied by `team` there;
    - `spoil` x the potential it takes away from the opponents' pagodas
      (the same measure on their rows; negative when it helps them);
    - minus `koi` x the share of its own turns still to come after this one,
      for playing a koi: a koi kept is wild for a later flock or row.

    Ties go uniformly at random (`self.rng`). Defaults were set by a small sweep
    against `greedy` in 2-player games (seeds apart from the ladder's).
    """

    name = "heuristic"
    summary = "birds now, own row potential, spoiling rivals' rows, a koi kept for later"
    params = (
        Param("birds", 1.3, "weight of bird points scored now"),
        Param("rows", 1.0, "weight of the change in the own pagoda's row potential"),
        Param("spoil", 0.6, "weight of the row potential taken from opponents' pagodas"),
        Param("fill", 0.2, "share of a row's empty spaces expected to join its largest set"),
        Param("team", 1.0, "4 players: factor on fill for a pagoda two teammates build"),
        Param("koi", 1.5, "points a koi is worth kept, at the start of the game"),
    )

    def _potential(self, points: tuple[int, ...], best: float, length: int) -> float:
        x = min(best, length)
        low = int(x)
        if low == x:
            return points[low]
        return points[low] + (x - low) * (points[low + 1] - points[low])

    def terms(self, view: PlayerView, legal: list[int]) -> list[tuple[int, dict[str, float]]]:
        game = view.game
        points = game.set_points
        seat = view.seat
        my_side = game.side[seat]
        fill = self.fill * (self.team if game.n_sides < game.n_players else 1.0)
        own = _RowStats(view, game.side_pagoda[my_side])
        rivals = [
            _RowStats(view, pagoda)
            for side, pagoda in enumerate(game.side_pagoda)
            if side != my_side
        ]
        per_player = game.turns // game.n_players
        koi_cost = self.koi * (view.turns_left - 1) / per_player
        potential = self._potential
        out = []
        for action, kind, cell in _options(view, legal):
            birds, _ = view.bird_points(kind, cell)
            before, after, empty, length = own.after(game, kind, cell)
            gain = potential(points, after + fill * (empty - 1), length) - potential(
                points, before + fill * empty, length
            )
            loss = 0.0
            for stats in rivals:
                before, after, empty, length = stats.after(game, kind, cell)
                loss += potential(points, before + fill * empty, length) - potential(
                    points, after + fill * (empty - 1), length
                )
            out.append(
                (
                    action,
                    {
                        "birds": self.birds * birds,
                        "rows": self.rows * gain,
                        "spoil": self.spoil * loss,
                        "koi": -koi_cost if kind == game.koi_kind else 0.0,
                    },
                )
            )
        return out

    def choose(self, view: PlayerView, legal: list[int]) -> int:
        best = self._best(view, legal)
        return best[int(self.rng.random() * len(best))]
