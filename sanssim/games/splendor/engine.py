"""The Splendor forward model: fixed parameters (`Game`) and a mutable `State`.

Tokens are lists of six counts (white, blue, green, red, black, gold), bonuses lists of
five. Whether a player can afford a card is one subtraction on packed integers: five
fields of `width` bits hold min(tokens + bonus, cap) plus a guard bit, a card's cost is
packed the same way, and the difference keeps every guard bit exactly when no colour is
short; otherwise two table look-ups give the gems missing, which gold must cover.
`Game` derives those tables here.

`State` deals and answers queries here and plays its turns by the rules of `turn.Turn`.
What they share lives beside them, so that the strategies and logs import it without the
engine: the decisions and action numbers in `actions`, the turn record's layout in
`record`, the rule parameters in `config`.
"""

from __future__ import annotations

from functools import lru_cache

from sanssim.games.engine import EngineGame, shared_ranks
from sanssim.games.splendor.actions import (
    BUY,
    BUY_RESERVED,
    EMPTY,
    END,
    N_GEMS,
    N_LEVELS,
    N_SLOTS,
    NOBLE,
    PASS,
    PHASE_NAMES,
    RESERVE,
    RESERVE_BLIND,
    RETURN,
    SLOTS_PER_LEVEL,
    TAKE2,
    TAKE_DIFF,
    TAKE_DIFF_GEMS,
    TAKE_SETS,
    TOKEN_LIMIT,
)
from sanssim.games.splendor.components import COLOURS, TOKEN_NAMES, Components, load_components
from sanssim.games.splendor.config import GameConfig
from sanssim.games.splendor.record import (
    PACK_BITS,
    R_RETURNED,
)
from sanssim.games.splendor.turn import Turn
from sanssim.seeding import stream

NOBLES_STREAM = "nobles"  # the stream that shuffles the nobles; the decks' are deck_stream's


def deck_stream(level: int) -> str:
    """The name of the stream that shuffles the level-`level` deck (1 to N_LEVELS)."""
    return f"deck{level}"


@lru_cache(maxsize=4)
def _deficit_tables(width: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Gems missing per packed difference: low three fields, high two fields."""
    guard = 1 << (width - 1)
    per_field = [max(0, guard - v) for v in range(1 << width)]

    def table(fields: int) -> tuple[int, ...]:
        out = [0]
        for _ in range(fields):
            out = [d + low for d in per_field for low in out]
        return tuple(out)

    return table(3), table(2)


class Game(EngineGame[GameConfig, Components]):
    """A Splendor design: its rules and components, and the tables derived from them (the
    packed cost fields, the decks by level, noble values)."""

    packaged = load_components

    def derive(self) -> None:
        comps = self.components
        cards = comps.cards
        top = max(max(max(c.cost) for c in cards), max(max(n.requirement) for n in comps.nobles))
        width = max(4, top.bit_length() + 1)
        cap = (1 << (width - 1)) - 1
        guard = sum(1 << (width * c + width - 1) for c in range(N_GEMS))
        tokens = self.config.resolved_gem_tokens * N_GEMS + self.config.gold_tokens
        most = tokens + len(cards) + 1
        sets = {
            "width": width,
            "guard": guard,
            "lo_mask": (1 << (3 * width)) - 1,
            "hi_shift": 3 * width,
            "deficit": _deficit_tables(width),
            # packed[c][v]: min(v, cap) in colour c's field
            "packed": tuple(
                tuple(min(v, cap) << (width * c) for v in range(most)) for c in range(N_GEMS)
            ),
            "cost": tuple(c.cost for c in cards),
            "packed_cost": tuple(_pack(c.cost, width) for c in cards),
            "card_points": tuple(c.points for c in cards),
            "card_bonus": tuple(c.bonus for c in cards),
            "card_level": tuple(c.level for c in cards),
            "noble_req": tuple(_pack(n.requirement, width) for n in comps.nobles),
            "noble_points": tuple(n.points for n in comps.nobles),
            "level_cards": tuple(comps.level_cards(lv) for lv in range(1, N_LEVELS + 1)),
            # tokens a seat may hold at the end of its turn (rules: 10 for every seat)
            "token_limit": tuple(
                TOKEN_LIMIT + (self.config.later_seat_limit if p else 0)
                for p in range(self.config.n_players)
            ),
        }
        for name, value in sets.items():
            self._set(name, value)


def _pack(vector: tuple[int, ...], width: int) -> int:
    return sum(v << (width * c) for c, v in enumerate(vector))


class State(Turn):
    """One game in progress. Mutated in place by `apply_action`; `clone` to branch."""

    phases = PHASE_NAMES
    __slots__ = (
        "supply", "tokens",
        "bonus", "points", "cards_bought", "tableau", "reserved", "blind", "nobles",
        "display", "filled", "decks", "nobles_in_play", "table", "noble_again", "passes",
        "round_passes", "round_visits", "bought", "excess", "end_reason", "_turn",
    )  # fmt: skip

    def _deal(self, seed: int) -> None:
        game = self.game
        cfg = game.config
        n = self.n
        gems = cfg.resolved_gem_tokens
        gold, given = cfg.later_seat_gold, cfg.later_seat_gems
        later = [int(c < given) for c in range(N_GEMS)] + [gold]
        self.supply = [
            total - (n - 1) * k
            for total, k in zip([gems] * N_GEMS + [cfg.gold_tokens], later, strict=True)
        ]
        self.tokens = [list(later) if p else [0] * (N_GEMS + 1) for p in range(n)]
        self.bonus = [[0] * N_GEMS for _ in range(n)]
        self.points = [0] * n
        self.cards_bought = [0] * n
        self.tableau: list[list[int]] = [[] for _ in range(n)]
        self.reserved: list[list[int]] = [[] for _ in range(n)]
        self.blind: list[list[int]] = [[] for _ in range(n)]
        self.nobles: list[list[int]] = [[] for _ in range(n)]
        self.noble_again = [False] * n
        self.passes = [0] * n
        self.round_passes = 0
        self.round_visits = 0
        self.bought = False
        self.excess = 0
        self.end_reason = EMPTY
        self._turn: list[int] | None = None
        decks = []
        for level, cards in enumerate(game.level_cards, start=1):
            deck = list(cards)
            stream(seed, deck_stream(level)).shuffle(deck)
            decks.append(deck)
        self.decks = decks
        display = [EMPTY] * N_SLOTS
        filled = 0
        for slot in range(N_SLOTS):
            deck = decks[slot // SLOTS_PER_LEVEL]
            if deck:
                display[slot] = deck.pop()
                filled |= 1 << slot
        self.display = display
        self.filled = filled
        nobles = list(range(len(game.components.nobles)))
        stream(seed, NOBLES_STREAM).shuffle(nobles)
        self.nobles_in_play = tuple(nobles[: cfg.resolved_nobles])
        self.table = list(self.nobles_in_play)
        self._start_turn()
        if cfg.first_turn_gems < TAKE_DIFF_GEMS:
            self._limit_first_turn(cfg.first_turn_gems)

    def _limit_first_turn(self, gems: int) -> None:
        """The seat compensation `first_turn_gems` on seat 0's first turn: a take takes that
        many gems of different colours (fewer when fewer colours have tokens left), never
        two of one colour; reserving stays legal."""
        have = [c for c in range(N_GEMS) if self.supply[c]]
        size = min(gems, len(have))
        takes = [
            TAKE_DIFF + k
            for k, combo in enumerate(TAKE_SETS)
            if len(combo) == size and all(c in have for c in combo)
        ]
        self.legal = takes + [a for a in self.legal if a >= RESERVE]
        if len(self.legal) == 1:
            self._act(self.legal[0])

    # ------------------------------------------------------------------ queries

    @property
    def round(self) -> int:
        """1-based round of the turn in progress; once over, the number of rounds played."""
        return self.turn // self.n + (self.phase != END)

    @property
    def returned_this_turn(self) -> list[int]:
        """Tokens handed back so far in the turn in progress (recording games only)."""
        assert self._turn is not None
        packed = self._turn[R_RETURNED]
        mask = (1 << PACK_BITS) - 1
        return [packed >> PACK_BITS * c & mask for c in range(N_GEMS + 1)]

    def returns(self) -> list[int]:
        """Points per seat: bought cards plus nobles."""
        return list(self.points)

    def ranks(self) -> list[int]:
        """1 = best: more points, then fewer cards bought; still tied shares the rank. With
        `ties_to_later_seat`, a tie on points goes to the later seat before the cards count."""
        later = self.game.config.ties_to_later_seat
        keys = [
            (pts, seat if later else 0, -cards)
            for seat, (pts, cards) in enumerate(zip(self.points, self.cards_bought, strict=True))
        ]
        return shared_ranks(keys)

    def describe(self, action: object) -> str:
        """A readable name for an action."""
        if type(action) is not int:
            return repr(action)
        if TAKE_DIFF <= action < TAKE2:
            return "take " + "+".join(COLOURS[c] for c in TAKE_SETS[action])
        if TAKE2 <= action < RESERVE:
            return f"take 2 {COLOURS[action - TAKE2]}"
        if RESERVE <= action < RESERVE_BLIND:
            slot = action - RESERVE
            return f"reserve slot {slot} (card {self.display[slot]})"
        if RESERVE_BLIND <= action < BUY:
            return f"reserve blind from deck {action - RESERVE_BLIND + 1}"
        if BUY <= action < BUY_RESERVED:
            slot = action - BUY
            return f"buy slot {slot} (card {self.display[slot]})"
        if BUY_RESERVED <= action < PASS:
            index = action - BUY_RESERVED
            held = self.reserved[self.current]
            card = held[index] if index < len(held) else "?"
            return f"buy reserved #{index} (card {card})"
        if action == PASS:
            return "pass"
        if RETURN <= action < NOBLE:
            return f"return 1 {TOKEN_NAMES[action - RETURN]}"
        if NOBLE <= action < NOBLE + len(self.game.components.nobles):
            return f"noble {action - NOBLE}"
        return repr(action)

    def clone(self) -> State:
        """An independent copy, decks (the only chance) included."""
        c = self._branch()
        c.supply = list(self.supply)
        c.tokens = [list(t) for t in self.tokens]
        c.bonus = [list(b) for b in self.bonus]
        c.points = list(self.points)
        c.cards_bought = list(self.cards_bought)
        c.tableau = [list(x) for x in self.tableau]
        c.reserved = [list(x) for x in self.reserved]
        c.blind = [list(x) for x in self.blind]
        c.nobles = [list(x) for x in self.nobles]
        c.display = list(self.display)
        c.filled = self.filled
        c.decks = [list(d) for d in self.decks]
        c.nobles_in_play = self.nobles_in_play
        c.table = list(self.table)
        c.noble_again = list(self.noble_again)
        c.passes = list(self.passes)
        c.round_passes = self.round_passes
        c.round_visits = self.round_visits
        c.bought = self.bought
        c.excess = self.excess
        c.end_reason = self.end_reason
        c._turn = None if self._turn is None else list(self._turn)
        return c


Game.state_class = State
