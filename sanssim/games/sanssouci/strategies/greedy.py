"""`greedy`: the most points this turn, nothing about later turns.

Points this turn are the noble move's row and expansion marks. A tile is
judged by the best noble move it leaves open; ties go to the option that
connects the deepest squares to row 1 (a simple measure of progress).
"""

from __future__ import annotations

from sanssim.games.sanssouci.actions import PASS, PLACE, SIDE, TAKE
from sanssim.games.sanssouci.strategies.tactics import (
    COL_OF,
    ROW_OF,
    Garden,
    deepest_row,
    row_sum,
    take_slot,
)
from sanssim.games.sanssouci.view import PlayerView
from sanssim.strategies.base import Strategy

TIE = 0.001  # weight of the progress measure: only ever breaks ties between equal points


class GreedyStrategy(Strategy):
    name = "greedy"
    games = ("sanssouci",)
    summary = "maximises points this turn (noble move, expansion marks); ties go to progress"

    def choose(self, view: PlayerView, legal: list[int]) -> int:
        return self.explain(view, legal)[0][0]

    def explain(self, view: PlayerView, legal: list[int]) -> list[tuple[int, float]]:
        phase = view.phase
        if phase == SIDE:
            scored = [(a, _side_points(view, a)) for a in legal]
        else:
            garden = Garden(view, view.seat)
            if phase == TAKE:
                display = view.display
                scored = [(a, _take_points(display, garden, a)) for a in legal]
            elif phase == PLACE:
                scored = [(a, _place_points(garden, a, True)) for a in legal]
            else:
                missions = {view.symbol_column(view.seat)[m] for m in view.missions}
                scored = [(a, _noble_points(a, missions)) for a in legal]
        scored.sort(key=lambda item: -item[1])
        return scored


def _place_points(garden: Garden, sq: int, gardener: bool) -> float:
    """Marks on `sq` plus the deepest noble move open once a tile is there."""
    new = garden.new_reach(sq)
    options = garden.options() | (new & garden.zone & ~garden.gardeners)
    if gardener:
        options &= ~(1 << sq)
    return garden.marks(sq, gardener) + deepest_row(options) + TIE * row_sum(new)


def _take_points(display: list[int], garden: Garden, action: int) -> float:
    slot = take_slot(action)
    if slot < 0:
        return deepest_row(garden.options())
    target, spots = garden.landing(slot, display[slot])
    if target >= 0:
        return _place_points(garden, target, False)
    best = float("-inf")
    while spots:
        low = spots & -spots
        best = max(best, _place_points(garden, low.bit_length() - 1, True))
        spots ^= low
    return best


def _noble_points(action: int, missions: set[int]) -> float:
    if action == PASS:
        return 0.0
    return ROW_OF[action] + TIE * (COL_OF[action] in missions)


def _side_points(view: PlayerView, side: int) -> float:
    """No points are scored by the choice itself; prefer the side with more bonus marks."""
    marks = view.game.components.expansion_sides[side].marks
    return TIE * sum(m.value for row in marks for m in row)
