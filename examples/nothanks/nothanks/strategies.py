"""`heuristic`: take a card when its chips pay for what it adds to the score."""

from __future__ import annotations

from nothanks.engine import NO_THANKS, TAKE, card_points
from nothanks.view import PlayerView
from sanssim.strategies.base import Param, Strategy


class HeuristicStrategy(Strategy):
    name = "heuristic"
    summary = "takes a card once its chips cover its points less a chip's worth"
    games = ("nothanks",)
    params = (Param("chip", 3.0, "points a chip in hand is worth, more as chips run low"),)

    def scoring(self) -> str:
        return "points saved: the pot less the points the card adds, or a chip's worth kept"

    def choose(self, view: PlayerView, legal: list[int]) -> int:
        return self.explain(view, legal)[0][0]

    def explain(self, view: PlayerView, legal: list[int]) -> list[tuple[int, float]]:
        mine = view.cards(view.seat)
        added = card_points([*mine, view.card]) - card_points(mine)
        keep = self.chip * (1 + 5 / (1 + view.chips(view.seat)))
        scores = {TAKE: float(view.pot - added), NO_THANKS: -keep}
        return sorted(((a, scores[a]) for a in legal), key=lambda item: -item[1])
