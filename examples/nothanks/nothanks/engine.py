"""The No Thanks! rules (docs: README.md next to this package).

Cards 3-35, some removed face down unseen; each player starts with the same chips. The
player to act either says "no thanks", putting a chip on the face-up card and passing the
turn on, or takes the card with every chip on it and turns the next card up, deciding again.
Without chips a player must take. The game ends when the last card is taken. A score is
the sum of its cards, counting only the lowest card of each run of consecutive numbers,
minus the chips held: the lowest score wins (tied players share the rank).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from sanssim.errors import ConfigError
from sanssim.games.engine import EngineGame, EngineState, shared_ranks

NO_THANKS, TAKE = 0, 1
CARDS = tuple(range(3, 36))


@dataclass(frozen=True)
class Config:
    n_players: int
    removed: int = 9
    chips: int = 11

    def validate(self, components: object) -> None:
        if not 0 <= self.removed < len(CARDS):
            raise ConfigError(f"removed cards must be 0-{len(CARDS) - 1}, got {self.removed}")
        if self.chips < 0:
            raise ConfigError(f"starting chips must be 0 or more, got {self.chips}")


def card_points(cards: list[int]) -> int:
    """The cards' points: only the lowest card of each run of consecutive numbers counts."""
    held = set(cards)
    return sum(c for c in held if c - 1 not in held)


class State(EngineState):
    __slots__ = ("deck", "removed", "card", "pot", "chips", "cards")

    def _deal(self, seed: int) -> None:
        config = self.game.config
        deck = list(CARDS)
        random.Random(seed).shuffle(deck)
        self.removed, self.deck = deck[: config.removed], deck[config.removed :]
        self.card, self.pot = self.deck.pop(), 0
        self.chips = [config.chips] * self.n
        self.cards: list[list[int]] = [[] for _ in range(self.n)]
        self.phase = 0
        self._offer()

    def _offer(self) -> None:
        self.legal = [NO_THANKS, TAKE] if self.chips[self.current] else [TAKE]

    def _apply(self, action: int) -> None:
        p, card = self.current, self.card
        if action == TAKE:
            self.cards[p].append(card)
            self.chips[p] += self.pot
            self.pot = 0
        else:
            self.chips[p] -= 1
            self.pot += 1
            self.current = (p + 1) % self.n
        if self.record:
            self.log.append(
                {"turn": self.turn, "seat": p, "score": self.score(p), "card": card,
                 "took": action == TAKE, "pot": self.pot, "chips": self.chips[p]}
            )  # fmt: skip
        self.turn += 1
        if action == TAKE and not self.deck:
            self.phase, self.legal = 1, []
            return
        if action == TAKE:
            self.card = self.deck.pop()
        self._offer()

    def score(self, seat: int) -> int:
        return card_points(self.cards[seat]) - self.chips[seat]

    def returns(self) -> list[int]:
        return [self.score(p) for p in range(self.n)]

    def ranks(self) -> list[int]:
        return shared_ranks(self.returns(), lowest_wins=True)

    def describe(self, action: object) -> str:
        names = {NO_THANKS: f"no thanks to {self.card}", TAKE: f"takes {self.card} (+{self.pot})"}
        return names.get(action, repr(action))  # type: ignore[call-overload]


class Game(EngineGame[Config, None]):
    """A No Thanks! game's fixed parameters: its options (it has no component data)."""


Game.state_class = State
