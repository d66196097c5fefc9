"""`heuristic`: plays for the whole game with readable weights (all are parameters).

Every option is scored as points now plus a potential for later turns, in
points. The potential of a tile placed on a square is:

- `option` x row for each square it opens to a noble (connected to row 1, no
  gardener, below the noble in its column), plus `option` x `mission` x what
  a mission pays there in a mission column, since that noble's last row is
  scored again at the end (by the mission table in force: the row itself
  under the rules);
- `path` x rows by which it deepens the group connected to row 1 (gardener
  or not): the path toward rows 5-6 that later tiles extend;
- `latent` x row for a landscape not yet connected, below its noble;
- minus `block` x row for a gardener on a square its column's noble could
  have ended on;
- `row` and `column` times the change in bonus x `decay` ** (squares missing),
  counted only while the missing squares fit in the turns left.

A tile is also worth the best noble move it leaves for this turn, and the
card kept in hand: `joker`, `pair` or `symbol`; a symbol card whose symbol
the display will no longer show is kept as a joker (it acts as one on a
turn its symbol is absent). A noble move scores its row, plus `mission_move`
x the mission points gained in a mission column (the rows gained, under the
rules), minus `skip` x the rows of the squares it steps over in its column:
each could have been one more move (moving a noble down one row at a time
scores every row on the way).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from sanssim.games.sanssouci.actions import CARD_JOKER, CARD_PAIR, DISCARD, PASS, PLACE, SIDE, TAKE
from sanssim.games.sanssouci.garden import BELOW, COL_MASK, NEIGHBOURS, ROW_MASK, bits, flood
from sanssim.games.sanssouci.strategies.tactics import (
    COL_OF,
    ROW_OF,
    Garden,
    row_sum,
    take_slot,
    turns_left,
)
from sanssim.games.sanssouci.view import PlayerView
from sanssim.strategies.base import Param, Strategy


class HeuristicStrategy(Strategy):
    name = "heuristic"
    games = ("sanssouci",)
    summary = "whole-game play by documented weights: noble paths, missions, rows, cards"
    params = (
        Param("option", 0.25, "per row of a square a noble could move to"),
        Param("mission", 1.0, "extra share of option value in a mission column"),
        Param("path", 2.0, "per row the connected group reaches deeper"),
        Param("latent", 0.2, "per row of a landscape not yet connected, below its noble"),
        Param("block", 0.25, "per row of a gardener on a square its noble could end on"),
        Param("row", 0.5, "share of a row bonus credited as the row fills"),
        Param("column", 0.8, "share of a column bonus credited as the column fills"),
        Param("decay", 0.3, "credit factor per square still missing in a row or column"),
        Param("skip", 0.6, "per row of an open square a noble move steps over"),
        Param("mission_move", 0.5, "per mission point a mission noble gains (scored at the end)"),
        Param("joker", 2.0, "value of keeping the joker in hand"),
        Param("pair", 1.0, "value of keeping a two-colour card in hand"),
        Param("symbol", 1.0, "value of keeping a symbol card in hand"),
    )

    def __init__(self, rng: random.Random, **params: Any) -> None:
        super().__init__(rng, **params)
        # share of a row or column bonus credited by the tile that leaves `missing` squares
        self.credit = [(1 - self.decay) * self.decay**missing for missing in range(10)]

    def choose(self, view: PlayerView, legal: list[int]) -> int:
        best, best_score = legal[0], float("-inf")
        for action, score in self._scores(view, legal):
            if score > best_score:
                best, best_score = action, score
        return best

    def explain(self, view: PlayerView, legal: list[int]) -> list[tuple[int, float]]:
        return sorted(self._scores(view, legal), key=lambda item: -item[1])

    def scoring(self) -> str:
        return "points-equivalent score of the documented weights"

    def terms(self, view: PlayerView, legal: list[int]) -> list[tuple[int, dict[str, float]]]:
        """Each option's score by term (the weights' names, and `noble row`, `best noble
        move` and `marks` for what is counted in points), best first."""
        phase = view.phase
        found: list[tuple[int, dict[str, float]]] = []
        turn = None if phase == SIDE else _Turn(self, view)
        for action in legal:
            named: dict[str, float] = {}
            if turn is None:
                named["marks"] = self._side_value(view, action)
            elif phase == TAKE:
                turn.take_value(action, named)
            elif phase == PLACE:
                turn.place_value(action, True, named)
            else:
                turn.move_value(action, named)
            found.append((action, named))
        return sorted(found, key=lambda item: -sum(item[1].values()))

    def _scores(self, view: PlayerView, legal: list[int]) -> list[tuple[int, float]]:
        phase = view.phase
        if phase == SIDE:
            return [(a, self._side_value(view, a)) for a in legal]
        turn = _Turn(self, view)
        if phase == TAKE:
            return [(a, turn.take_value(a)) for a in legal]
        if phase == PLACE:
            return [(a, turn.place_value(a, True)) for a in legal]
        return [(a, turn.move_value(a)) for a in legal]

    def _side_value(self, view: PlayerView, side: int) -> float:
        """Marks count in full, those in mission columns `mission` times more."""
        seat = view.seat
        land, gard = view.game.expansion_marks(view.garden_side(seat), side)
        columns = view.symbol_column(seat)
        missions = {columns[m] for m in view.missions}
        return sum(
            (land[sq] or gard[sq]) * (1 + self.mission * (COL_OF[sq] in missions))
            for sq in range(len(land))
        )


class _Turn:
    """What one decision's scoring needs, computed once from the view."""

    __slots__ = (
        "w", "view", "garden", "missions", "left", "options", "best_move", "taken", "display",
        "depth", "hand", "row_points", "column_points", "mission_points",
    )  # fmt: skip

    def __init__(self, w: HeuristicStrategy, view: PlayerView) -> None:
        seat = view.seat
        self.w = w
        self.view = view
        self.garden = garden = Garden(view, seat)
        columns = view.symbol_column(seat)
        self.missions = COL_MASK[columns[view.missions[0]]] | COL_MASK[columns[view.missions[1]]]
        self.left = turns_left(view) - 1  # tiles to place after the one being decided
        self.display = view.display
        self.hand = view.hand
        rules = view.game  # the bonuses in force (house rules may change them)
        self.row_points = rules.row_points
        self.column_points = rules.config.column_bonus_points
        self.mission_points = rules.mission_points
        self.options = garden.options()
        self.best_move = max([0.0] + [self.move_value(sq) for sq in bits(self.options)])
        self.taken: dict[int, float] = {}
        self.depth = ROW_OF[garden.reach.bit_length() - 1]

    def move_value(self, sq: int, terms: dict[str, float] | None = None) -> float:
        """The noble move's score; `terms`, when given, receives it by term."""
        if sq == PASS:
            return 0.0
        w = self.w
        row = ROW_OF[sq]
        col = COL_OF[sq]
        value = float(row)
        if terms is not None:
            terms["noble row"] = value
        if self.missions >> sq & 1:
            paid = self.mission_points
            gain = w.mission_move * (paid[row] - paid[self.garden.rows[col]])
            value += gain
            if terms is not None:
                terms["mission_move"] = gain
        skipped = self.options & COL_MASK[col] & ~BELOW[row - 1]
        if skipped:
            loss = w.skip * row_sum(skipped)
            value -= loss
            if terms is not None:
                terms["skip"] = -loss
        return value

    def place_value(self, sq: int, gardener: bool, terms: dict[str, float] | None = None) -> float:
        """The placement's score (the best noble move it leaves included); `terms`, when
        given, receives it by term."""
        w = self.w
        g = self.garden
        bit = 1 << sq
        row = ROW_OF[sq]
        value = self.best_move
        named: list[tuple[str, float]] | None = None if terms is None else []
        if named is not None:
            named.append(("noble move open already", value))
        marks = g.gard if gardener else g.land
        if marks is not None:
            value += marks[sq]
            if named is not None:
                named.append(("marks", marks[sq]))
        occupied = g.occupied | bit
        new = flood(g.reach | bit, occupied) & ~g.reach if NEIGHBOURS[sq] & g.reach else 0
        if new:
            deeper = ROW_OF[new.bit_length() - 1] - self.depth
            if deeper > 0:
                gain = w.path * deeper
                value += gain
                if named is not None:
                    named.append(("path", gain))
            opened = new & g.zone & ~(g.gardeners | bit if gardener else g.gardeners)
            if opened:
                mission = row_sum(opened & self.missions, self.mission_points)
                gain = w.option * (row_sum(opened) + w.mission * mission)
                value += gain
                best = max(self.move_value(s) for s in bits(opened))
                if named is not None:
                    named.append(("option", gain))
                if best > self.best_move:
                    value += best - self.best_move
                    if named is not None:
                        named.append(("noble move it opens, gain", best - self.best_move))
        if bit & g.zone:
            if gardener:
                value -= w.block * row
                if named is not None:
                    named.append(("block", -w.block * row))
            elif not new:
                value += w.latent * row
                if named is not None:
                    named.append(("latent", w.latent * row))
        credit = w.credit
        left = self.left
        missing = 9 - (occupied & ROW_MASK[row]).bit_count()
        if row > 1 and missing <= left:
            gain = w.row * self.row_points[row] * credit[missing]
            value += gain
            if named is not None:
                named.append(("row", gain))
        missing = 6 - (occupied & COL_MASK[COL_OF[sq]]).bit_count()
        if missing <= left:
            gain = w.column * self.column_points * credit[missing]
            value += gain
            if named is not None:
                named.append(("column", gain))
        if terms is not None and named is not None:
            for name, part in named:
                terms[name] = terms.get(name, 0.0) + part
        return value

    def tile_value(self, slot: int) -> float:
        value = self.taken.get(slot)
        if value is None:
            target, spots = self.garden.landing(slot, self.display[slot])
            if target >= 0:
                value = self.place_value(target, False)
            else:
                value = max(self.place_value(sq, True) for sq in bits(spots))
            self.taken[slot] = value
        return value

    def _tile_terms(self, slot: int, terms: dict[str, float]) -> None:
        """The terms of `tile_value`: those of the placement it scores."""
        target, spots = self.garden.landing(slot, self.display[slot])
        if target >= 0:
            self.place_value(target, False, terms)
            return
        best: dict[str, float] = {}
        best_value = float("-inf")
        for sq in bits(spots):
            named: dict[str, float] = {}
            value = self.place_value(sq, True, named)
            if value > best_value:
                best, best_value = named, value
        terms.update(best)

    def take_value(self, action: int, terms: dict[str, float] | None = None) -> float:
        """The card-and-tile choice's score; `terms`, when given, receives it by term."""
        hand = self.hand
        slot = take_slot(action)
        played = action // 10 if slot >= 0 else action - DISCARD
        kept = hand[1 - played] if len(hand) == 2 else -1
        value = self.best_move if slot < 0 else self.tile_value(slot)
        if terms is not None:
            if slot < 0:
                terms["noble move open already"] = value
            else:
                self._tile_terms(slot, terms)
        if kept < 0:
            return value
        game = self.view.game
        kind = game.card_kind[kept]
        w = self.w
        if kind == CARD_JOKER:
            name, keep = "joker", w.joker
        elif kind == CARD_PAIR:
            name, keep = "pair", w.pair
        else:
            symbol = game.card_symbol[kept]
            shown = any(s == symbol for k, s in enumerate(self.display) if k != slot)
            name, keep = ("symbol", w.symbol) if shown else ("joker", w.joker)
        if terms is not None:
            terms[name] = terms.get(name, 0.0) + keep
        return value + keep


# The weights `sanssim tune` found (reports/tuning/heuristic-near: a Latin hypercube of 32
# weightings within about half of each default, successive halving against `heuristic`);
# measured on fresh deals it wins 54.0% [53.0, 55.0] of 2-player games against `heuristic`
# and 55-56% of its meetings at 3 and 4 players (README, "Tuning").
TUNED = {
    "option": 0.209637,
    "mission": 1.26409,
    "path": 2.4098,
    "latent": 0.298978,
    "block": 0.169799,
    "row": 0.72638,
    "column": 1.04164,
    "decay": 0.347077,
    "skip": 0.717342,
    "mission_move": 0.227941,
    "joker": 1.53858,
    "pair": 1.09468,
    "symbol": 0.614233,
}


class TunedHeuristicStrategy(HeuristicStrategy):
    name = "heuristic-tuned"
    summary = "heuristic with the weights sanssim tune found against it (README, Tuning)"
    params = tuple(
        replace(p, default=TUNED.get(p.name, p.default)) for p in HeuristicStrategy.params
    )
