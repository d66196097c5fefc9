"""Splendor strategies: `greedy` and `heuristic` (the shared `random` and `lookahead` live
in `sanssim.strategies`).

Both see the game only through a `PlayerView`. Every option's score is a sum of named
terms (`terms`), so `explain` can show why an option won.
"""

from __future__ import annotations

from typing import ClassVar

from sanssim.games.splendor.actions import (
    BUY,
    BUY_RESERVED,
    GOLD,
    MAIN,
    N_GEMS,
    NOBLE,
    PASS,
    RESERVE,
    RESERVE_BLIND,
    RETURN,
    RETURNING,
    TAKE_DIFF,
    TAKE_SETS,
)
from sanssim.games.splendor.view import PlayerView
from sanssim.strategies.base import Param, Strategy, TermsStrategy

Terms = dict[str, float]
GEMS = range(N_GEMS)


class _Position:
    """What a decision's scoring needs about the deciding seat, computed once."""

    __slots__ = (
        "view", "seat", "tokens", "bonus", "gold", "cost", "points", "level", "cards", "card_at",
        "shorts", "display", "n_reserved", "gold_left",
    )  # fmt: skip

    def __init__(self, view: PlayerView) -> None:
        game = view.game
        self.view = view
        self.seat = view.seat
        self.tokens = view.tokens(view.seat)
        self.bonus = view.bonuses(view.seat)
        self.gold = self.tokens[GOLD]
        self.cost = game.cost
        self.points = game.card_points
        self.level = game.card_level
        # (action that buys it, card) for each card this seat could ever buy
        self.display = display = view.display
        reserved = view.reserved(view.seat)
        self.n_reserved = len(reserved)
        self.gold_left = view.supply[GOLD]
        self.cards = [(BUY + slot, card) for slot, card in enumerate(display) if card >= 0]
        self.cards += [(BUY_RESERVED + i, card) for i, card in enumerate(reserved)]
        self.card_at = dict(self.cards)
        self.shorts = {card: self.short(card) for _, card in self.cards}

    def need(self, card: int) -> list[int]:
        """Gems of each colour still to pay after bonuses."""
        cost, bonus = self.cost[card], self.bonus
        return [max(0, cost[c] - bonus[c]) for c in GEMS]

    def short(self, card: int) -> list[int]:
        """Gems of each colour missing after bonuses and tokens (gold not counted)."""
        cost, bonus, tokens = self.cost[card], self.bonus, self.tokens
        return [max(0, cost[c] - bonus[c] - tokens[c]) for c in GEMS]

    def spent(self, card: int) -> tuple[int, int]:
        """Gem tokens and gold the fewest-gold payment uses."""
        need = self.need(card)
        gems = sum(min(need[c], self.tokens[c]) for c in GEMS)
        return gems, sum(need) - gems


# colours gained by each take action, one entry per token
TAKE_GAINS: tuple[tuple[int, ...], ...] = tuple(TAKE_SETS) + tuple((c, c) for c in GEMS)


class _Scored(TermsStrategy):
    """Choice, explanation and terms from one `terms` method."""

    def choose(self, view: PlayerView, legal: list[int]) -> int:
        best, best_score = legal[0], float("-inf")
        for action, terms in self.terms(view, legal):
            score = sum(terms.values())
            if score > best_score:
                best, best_score = action, score
        return best


class GreedyStrategy(_Scored):
    """Buys the card with the most points it can afford (fewest tokens on a tie); else
    takes the gems that bring its closest card (fewest gems missing, then most points)
    closest, other cards' progress breaking ties; when no gem helps, reserves that card
    from the display for the gold; other reservations only when it cannot take."""

    name: ClassVar[str] = "greedy"
    summary: ClassVar[str] = "buys the most points it can, else gems toward its closest card"

    def terms(self, view: PlayerView, legal: list[int]) -> list[tuple[int, Terms]]:
        pos = _Position(view)
        phase = view.phase
        if phase == MAIN:
            target = min(
                pos.cards, key=lambda ac: (sum(pos.shorts[ac[1]]), -pos.points[ac[1]], ac[1])
            )[1]
            shorts = list(pos.shorts.values())
            return [(a, self._main(pos, a, target, shorts)) for a in legal]
        if phase == RETURNING:
            target_need = min((pos.need(card) for _, card in pos.cards), key=sum)
            return [(a, self._return(pos, a - RETURN, target_need)) for a in legal]
        return [(a, {"noble": 0.0}) for a in legal]

    @staticmethod
    def _main(pos: _Position, action: int, target: int, shorts: list[list[int]]) -> Terms:
        if BUY <= action < PASS:
            card = pos.card_at[action]
            gems, gold = pos.spent(card)
            return {"buy": 100.0, "points": 10.0 * pos.points[card], "spent": -0.01 * (gems + gold)}
        if action < RESERVE:
            short = pos.shorts[target]
            gained = TAKE_GAINS[action - TAKE_DIFF]
            progress = 0.0
            breadth = 0.0
            for i, c in enumerate(gained):
                repeat = gained[:i].count(c)
                if short[c] > repeat:
                    progress += 1.0
                breadth += sum(1 for s in shorts if s[c] > repeat)
            return {"progress": progress, "breadth": 0.001 * breadth}
        if action == PASS:
            return {"pass": -2.0}
        if (
            RESERVE <= action < RESERVE_BLIND
            and pos.gold_left
            and pos.display[action - RESERVE] == target
        ):
            # the gold is a gem toward the target: this breaks a lock where every gem
            # left in the supply would only be handed back
            return {"reserve": 0.5}
        return {"reserve": -1.0}

    @staticmethod
    def _return(pos: _Position, colour: int, target_need: list[int]) -> Terms:
        if colour == GOLD:
            return {"keep_gold": -1.0}
        surplus = pos.tokens[colour] - target_need[colour]
        return {"surplus": 0.1 * surplus}


class HeuristicStrategy(_Scored):
    """Scores every option as points now plus the value it builds, in points.

    - a card is worth `points` per prestige point plus its bonus: `bonus` as a permanent
      discount, `demand` per visible card still needing that colour (`level3` times more
      for level-3 cards, where the points are), `noble` x 3 / (bonuses missing + 1) for
      each noble on the table still needing that colour;
    - buying costs `gem` per gem token spent and `gold` per gold spent (the card value per
      gem spent decides between cards);
    - a token is worth `progress` x the value of the visible card it brings closer the
      most, divided by (gems still missing + 1): near, valuable cards pull hardest; every
      other card it helps adds `spread` x its own pull;
    - reserving credits `reserve` x the card's value when at most `reach` gems short, plus
      `gold_gain` plus the best token's progress value for the gold (a wildcard), minus
      `slot` per reservation already held;
    - every token beyond the seat's limit (10) costs `overflow` (it must be handed back: a
      wasted take);
    - taking a card an opponent can buy next turn (buy or reserve) earns `deny` per
      point it would give them.
    Returns hand back the tokens the visible cards need least; a noble choice takes the
    noble an opponent is closest to.
    """

    name: ClassVar[str] = "heuristic"
    summary: ClassVar[str] = "card value per gem, bonus engine toward nobles, reserves, denial"
    params = (
        Param("points", 1.0, "value of one prestige point"),
        Param("bonus", 0.4, "base value of a bonus (a permanent discount)"),
        Param("demand", 0.12, "value per visible card still needing the bonus colour"),
        Param("level3", 2.0, "weight of a level-3 card's demand relative to levels 1-2"),
        Param("noble", 1.0, "per noble needing the colour, x 3 / (bonuses missing + 1)"),
        Param("gem", 0.12, "cost of each gem token spent on a buy"),
        Param("gold", 0.35, "cost of each gold token spent on a buy"),
        Param("progress", 0.4, "value of a token toward the card it helps most, per point"),
        Param("spread", 0.05, "share of that value credited for every other card it helps"),
        Param("reserve", 0.1, "share of a card's value credited when reserving it"),
        Param("reach", 3, "reserve only cards at most this many gems short"),
        Param("gold_gain", 0.4, "value of the gold a reservation brings"),
        Param("slot", 0.3, "cost per reservation already held"),
        Param("overflow", 0.6, "cost of each token beyond the 10-token limit"),
        Param("deny", 0.4, "per point of a card an opponent could buy next turn"),
    )

    def terms(self, view: PlayerView, legal: list[int]) -> list[tuple[int, Terms]]:
        turn = _HeuristicTurn(self, view)
        phase = view.phase
        if phase == MAIN:
            return [(a, turn.main(a)) for a in legal]
        if phase == RETURNING:
            return [(a, turn.give_back(a - RETURN)) for a in legal]
        return [(a, turn.noble_choice(a - NOBLE)) for a in legal]


class _HeuristicTurn:
    """One decision's precomputed values: colour values, card values, token wants."""

    __slots__ = (
        "w", "pos", "view", "colour_value", "value", "want", "want2", "denied", "held", "limit",
    )  # fmt: skip

    def __init__(self, w: HeuristicStrategy, view: PlayerView) -> None:
        self.w = w
        self.view = view
        self.pos = pos = _Position(view)
        game = view.game
        bonus = pos.bonus
        visible = [card for _, card in pos.cards]
        colour_value = []
        nobles = [game.components.nobles[n].requirement for n in view.nobles_on_table]
        for c in GEMS:
            demand = sum(
                (w.level3 if pos.level[k] == 3 else 1.0)
                for k in visible
                if pos.cost[k][c] > bonus[c]
            )
            pull = sum(
                3.0 / (1 + sum(max(0, r[x] - bonus[x]) for x in GEMS))
                for r in nobles
                if r[c] > bonus[c]
            )
            colour_value.append(w.bonus + w.demand * demand + w.noble * pull)
        self.colour_value = colour_value
        bonus_of = game.card_bonus
        self.value = {k: w.points * pos.points[k] + colour_value[bonus_of[k]] for k in visible}
        want = [0.0] * N_GEMS
        want2 = [0.0] * N_GEMS
        for k in visible:
            short = pos.shorts[k]
            missing = max(0, sum(short) - pos.gold)
            pull = w.progress * self.value[k] / (missing + 1)
            for c in GEMS:
                if short[c] > 0:
                    want[c] = max(want[c], pull) + w.spread * pull
                if short[c] > 1:
                    want2[c] = max(want2[c], pull) + w.spread * pull
        self.want = want
        self.want2 = want2
        self.held = sum(pos.tokens)
        self.limit = view.token_limit(view.seat)
        self.denied = self._denied()

    def _denied(self) -> dict[int, float]:
        """Display slot -> points an opponent could take with it next turn."""
        view = self.view
        cost = self.pos.cost
        out: dict[int, float] = {}
        for seat in range(view.n_players):
            if seat == view.seat:
                continue
            tokens, bonus = view.tokens(seat), view.bonuses(seat)
            for slot, card in enumerate(view.display):
                if card < 0 or not self.pos.points[card]:
                    continue
                missing = sum(max(0, cost[card][c] - bonus[c] - tokens[c]) for c in GEMS)
                if missing <= tokens[GOLD]:
                    out[slot] = max(out.get(slot, 0.0), float(self.pos.points[card]))
        return out

    def main(self, action: int) -> Terms:
        w = self.w
        pos = self.pos
        if action < RESERVE:
            gained = TAKE_GAINS[action - TAKE_DIFF]
            if len(gained) == 2 and gained[0] == gained[1]:
                progress = self.want[gained[0]] + self.want2[gained[0]]
            else:
                progress = sum(self.want[c] for c in gained)
            over = max(0, self.held + len(gained) - self.limit)
            return {"progress": progress, "overflow": -w.overflow * over}
        if action < BUY:
            terms: Terms = {"slot": -w.slot * pos.n_reserved}
            if pos.gold_left:
                terms["gold_gain"] = w.gold_gain + max(self.want)
                terms["overflow"] = -w.overflow * max(0, self.held + 1 - self.limit)
            if action < RESERVE_BLIND:
                card = pos.display[action - RESERVE]
                missing = max(0, sum(pos.shorts[card]) - pos.gold - 1)
                if missing <= w.reach:
                    terms["reserve"] = w.reserve * self.value[card] / (missing + 1)
                terms["deny"] = w.deny * self.denied.get(action - RESERVE, 0.0)
            return terms
        if action < PASS:
            card = pos.card_at[action]
            gems, gold = pos.spent(card)
            bonus_of = pos.view.game.card_bonus[card]
            terms = {
                "points": w.points * pos.points[card],
                "engine": self.colour_value[bonus_of],
                "spend": -w.gem * gems - w.gold * gold,
            }
            if action < BUY_RESERVED:
                terms["deny"] = w.deny * self.denied.get(action - BUY, 0.0)
            return terms
        return {"pass": 0.0}

    def give_back(self, colour: int) -> Terms:
        """Hand back what the visible cards need least; gold is kept unless nothing else."""
        if colour == GOLD:
            return {"keep_gold": -10.0}
        return {"want": -self.want[colour], "plenty": 0.01 * self.pos.tokens[colour]}

    def noble_choice(self, noble: int) -> Terms:
        view = self.view
        req = view.game.components.nobles[noble].requirement
        closest = min(
            sum(max(0, req[c] - view.bonuses(seat)[c]) for c in GEMS)
            for seat in range(view.n_players)
            if seat != view.seat
        )
        return {"deny": -0.1 * closest}


STRATEGIES: dict[str, type[Strategy]] = {
    cls.name: cls for cls in (GreedyStrategy, HeuristicStrategy)
}
