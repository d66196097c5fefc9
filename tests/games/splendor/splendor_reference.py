"""A slow reference of the Splendor rules, written from the rules text with dicts.

It shares no code with the engine beyond the seeded deck streams (so both deal the same
game) and the component data. Every legal set and every consequence is recomputed from
scratch at each decision. Actions are tuples in the game's words, e.g. ('take',
frozenset({'red', 'blue', 'green'})), ('take2', 'red'), ('reserve', slot),
('reserve_blind', level), ('buy', 'display', slot), ('buy', 'reserve', index), ('pass',),
('return', colour), ('noble', noble_id).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from sanssim.games.splendor.components import Components
from sanssim.seeding import stream

GEMS = ("white", "blue", "green", "red", "black")
TOKENS = (*GEMS, "gold")
PLAYER_GEMS = {2: 4, 3: 5, 4: 7}


class Reference:
    def __init__(self, comps: Components, n: int, seed: int, **options: Any) -> None:
        self.n = n
        self.target = options.get("target_points", 15)
        self.max_rounds = options.get("max_rounds", 100)
        gems = options.get("gem_tokens") or PLAYER_GEMS[n]
        self.cards = {
            c.id: {
                "level": c.level,
                "bonus": GEMS[c.bonus],
                "points": c.points,
                "cost": dict(zip(GEMS, c.cost, strict=True)),
            }
            for c in comps.cards
        }
        self.noble_req = {x.id: dict(zip(GEMS, x.requirement, strict=True)) for x in comps.nobles}
        self.noble_points = {x.id: x.points for x in comps.nobles}
        self.decks = {}
        for level in (1, 2, 3):
            deck = [i for i, c in self.cards.items() if c["level"] == level]
            stream(seed, f"deck{level}").shuffle(deck)
            self.decks[level] = deck
        self.display = {}
        for slot in range(12):
            deck = self.decks[slot // 4 + 1]
            self.display[slot] = deck.pop() if deck else None
        nobles = list(self.noble_req)
        stream(seed, "nobles").shuffle(nobles)
        count = options.get("nobles") or n + 1
        self.table = nobles[:count]
        self.supply = {c: gems for c in GEMS}
        self.supply["gold"] = options.get("gold_tokens", 5)
        self.players = [
            {
                "tokens": dict.fromkeys(TOKENS, 0),
                "bonuses": dict.fromkeys(GEMS, 0),
                "points": 0,
                "cards": [],
                "reserved": [],
                "nobles": [],
                "passes": 0,
            }
            for _ in range(n)
        ]
        self.turn = 0
        self.seat = 0
        self.stage = "main"
        self.to_return = 0
        self.round_log: list[tuple[bool, bool]] = []  # (passed, noble visited) per turn
        self.this_turn = {"passed": False, "noble": False}
        self.over: str | None = None
        self._settle()

    # -------------------------------------------------------------- legal sets

    def affordable(self, p: dict[str, Any], card: int) -> bool:
        cost = self.cards[card]["cost"]
        missing = sum(max(0, cost[c] - p["bonuses"][c] - p["tokens"][c]) for c in GEMS)
        return missing <= p["tokens"]["gold"]

    def legal(self) -> set[tuple]:
        if self.over:
            return set()
        p = self.players[self.seat]
        if self.stage == "return":
            return {("return", c) for c in TOKENS if p["tokens"][c] > 0}
        if self.stage == "noble":
            return {("noble", x) for x in self.qualifying()}
        out: set[tuple] = set()
        avail = [c for c in GEMS if self.supply[c] > 0]
        if len(avail) >= 3:
            out |= {("take", frozenset(t)) for t in combinations(avail, 3)}
        elif avail:
            out.add(("take", frozenset(avail)))
        out |= {("take2", c) for c in GEMS if self.supply[c] >= 4}
        if len(p["reserved"]) < 3:
            out |= {("reserve", s) for s, card in self.display.items() if card is not None}
            out |= {("reserve_blind", lv) for lv, deck in self.decks.items() if deck}
        for s, card in self.display.items():
            if card is not None and self.affordable(p, card):
                out.add(("buy", "display", s))
        for i, card in enumerate(p["reserved"]):
            if self.affordable(p, card):
                out.add(("buy", "reserve", i))
        return out or {("pass",)}

    def qualifying(self) -> list[int]:
        b = self.players[self.seat]["bonuses"]
        return [x for x in self.table if all(b[c] >= self.noble_req[x][c] for c in GEMS)]

    # -------------------------------------------------------------- applying

    def apply(self, action: tuple) -> None:
        assert action in self.legal(), action
        p = self.players[self.seat]
        kind = action[0]
        if kind == "return":
            p["tokens"][action[1]] -= 1
            self.supply[action[1]] += 1
            self.to_return -= 1
            if self.to_return == 0:
                self.stage = "nobles"
        elif kind == "noble":
            self.visit(action[1])
            self.stage = "end"
        else:
            self.main_action(p, action)
        self._settle()

    def main_action(self, p: dict[str, Any], action: tuple) -> None:
        kind = action[0]
        if kind == "take":
            for c in action[1]:
                self.supply[c] -= 1
                p["tokens"][c] += 1
        elif kind == "take2":
            self.supply[action[1]] -= 2
            p["tokens"][action[1]] += 2
        elif kind in ("reserve", "reserve_blind"):
            if kind == "reserve":
                card = self.display[action[1]]
                self.refill(action[1])
            else:
                card = self.decks[action[1]].pop()
            p["reserved"].append(card)
            if self.supply["gold"] > 0:
                self.supply["gold"] -= 1
                p["tokens"]["gold"] += 1
        elif kind == "buy":
            if action[1] == "display":
                card = self.display[action[2]]
                self.refill(action[2])
            else:
                card = p["reserved"].pop(action[2])
            info = self.cards[card]
            for c in GEMS:
                due = max(0, info["cost"][c] - p["bonuses"][c])
                from_gems = min(due, p["tokens"][c])
                p["tokens"][c] -= from_gems
                self.supply[c] += from_gems
                p["tokens"]["gold"] -= due - from_gems
                self.supply["gold"] += due - from_gems
            p["bonuses"][info["bonus"]] += 1
            p["points"] += info["points"]
            p["cards"].append(card)
        else:
            p["passes"] += 1
            self.this_turn["passed"] = True
        held = sum(p["tokens"].values())
        if held > 10:
            self.stage = "return"
            self.to_return = held - 10
        else:
            self.stage = "nobles"

    def refill(self, slot: int) -> None:
        deck = self.decks[slot // 4 + 1]
        self.display[slot] = deck.pop() if deck else None

    def visit(self, noble: int) -> None:
        p = self.players[self.seat]
        self.table.remove(noble)
        p["nobles"].append(noble)
        p["points"] += self.noble_points[noble]
        self.this_turn["noble"] = True

    def _settle(self) -> None:
        """Run the steps nobody chooses, and apply any decision with one legal choice."""
        while not self.over:
            if self.stage == "nobles":
                q = self.qualifying()
                if len(q) > 1:
                    self.stage = "noble"
                else:
                    if q:
                        self.visit(q[0])
                    self.stage = "end"
            if self.stage == "end":
                self.end_turn()
                continue
            options = self.legal()
            if len(options) != 1:
                return
            self.apply(next(iter(options)))
            return

    def end_turn(self) -> None:
        self.round_log.append((self.this_turn["passed"], self.this_turn["noble"]))
        self.this_turn = {"passed": False, "noble": False}
        self.turn += 1
        if self.seat == self.n - 1:
            if max(p["points"] for p in self.players) >= self.target:
                self.over = "target"
            elif all(passed and not noble for passed, noble in self.round_log):
                self.over = "stalemate"
            elif self.turn // self.n >= self.max_rounds:
                self.over = "round_cap"
            self.round_log = []
        if not self.over:  # once over, the last seat to play stays current
            self.seat = (self.seat + 1) % self.n
        self.stage = "main"

    # -------------------------------------------------------------- results

    def ranks(self) -> list[int]:
        out = []
        for p in self.players:
            better = sum(
                1
                for q in self.players
                if q["points"] > p["points"]
                or (q["points"] == p["points"] and len(q["cards"]) < len(p["cards"]))
            )
            out.append(better + 1)
        return out
