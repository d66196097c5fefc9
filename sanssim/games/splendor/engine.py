"""The Splendor forward model: fixed parameters (`Game`) and a mutable `State`.

Tokens are lists of six counts (white, blue, green, red, black, gold), bonuses lists of
five. Whether a player can afford a card is one subtraction on packed integers: five
fields of `width` bits hold min(tokens + bonus, cap) plus a guard bit, a card's cost is
packed the same way, and the difference keeps every guard bit exactly when no colour is
short; otherwise two table look-ups give the gems missing, which gold must cover.

Actions are small integers from fixed ranges, so an action means the same at every
decision of its phase:

- MAIN:   ``TAKE_DIFF + k`` takes the colours of `TAKE_SETS[k]` (three, or all that
  are left when fewer than three colours are); ``TAKE2 + c``; ``RESERVE + slot``;
  ``RESERVE_BLIND + level - 1``; ``BUY + slot``; ``BUY_RESERVED + index``; ``PASS``
- RETURN: ``RETURN + colour`` hands back one token (gold is colour 5); repeated
  until the player holds 10
- NOBLE:  ``NOBLE + noble id`` when several nobles qualify

A decision with a single legal choice is taken automatically.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from sanssim.errors import ConfigError, IllegalActionError
from sanssim.games.engine import EngineGame, EngineState, shared_ranks
from sanssim.games.splendor.components import (
    COLOURS,
    TOKEN_NAMES,
    Components,
    load_components,
)
from sanssim.seeding import stream

N_GEMS = len(COLOURS)
GOLD = N_GEMS
TOKEN_LIMIT = 10
MAX_RESERVED = 3
TAKE2_MIN = 4
TAKE_DIFF_GEMS = 3  # gems a take-different action takes when enough colours have tokens
SLOTS_PER_LEVEL = 4
N_LEVELS = 3
N_SLOTS = SLOTS_PER_LEVEL * N_LEVELS
MIN_PLAYERS, MAX_PLAYERS = 2, 4
DEFAULT_GEMS = {2: 4, 3: 5, 4: 7}
EMPTY = -1
NOBLES_STREAM = "nobles"  # the stream that shuffles the nobles; the decks' are deck_stream's

# the colour sets of the take-different action: all triples, then pairs, then singles
TAKE_SETS: tuple[tuple[int, ...], ...] = tuple(
    combo for k in (3, 2, 1) for combo in combinations(range(N_GEMS), k)
)
TAKE_DIFF = 0
TAKE2 = TAKE_DIFF + len(TAKE_SETS)
RESERVE = TAKE2 + N_GEMS
RESERVE_BLIND = RESERVE + N_SLOTS
BUY = RESERVE_BLIND + N_LEVELS
BUY_RESERVED = BUY + N_SLOTS
PASS = BUY_RESERVED + MAX_RESERVED
RETURN = PASS + 1
NOBLE = RETURN + N_GEMS + 1

MAIN, RETURNING, NOBLE_CHOICE, END = range(4)
PHASE_NAMES = ("main", "return", "noble", "end")

# action kinds as logged (run-format spec, Codes) and card sources
ACTION_NAMES = ("take3", "take2", "reserve", "reserve_blind", "buy", "pass")
A_TAKE3, A_TAKE2, A_RESERVE, A_BLIND, A_BUY, A_PASS = range(6)
SOURCE_NAMES = ("display", "reserve", "deck:1", "deck:2", "deck:3")
FROM_DISPLAY, FROM_RESERVE, FROM_DECK = 0, 1, 2
END_REASONS = ("target", "stalemate", "round_cap")


def deck_stream(level: int) -> str:
    """The name of the stream that shuffles the level-`level` deck (1 to N_LEVELS)."""
    return f"deck{level}"


def _take_diff_table() -> tuple[tuple[int, ...], ...]:
    """Legal take-different actions by the mask of colours left in the supply."""
    masks = [sum(1 << c for c in combo) for combo in TAKE_SETS]
    table = []
    for avail in range(1 << N_GEMS):
        if bin(avail).count("1") >= 3:
            table.append(
                tuple(
                    TAKE_DIFF + k
                    for k, m in enumerate(masks)
                    if len(TAKE_SETS[k]) == 3 and m & avail == m
                )
            )
        elif avail:
            table.append((TAKE_DIFF + masks.index(avail),))
        else:
            table.append(())
    return tuple(table)


TAKE_DIFF_BY_AVAIL = _take_diff_table()
TAKE2_BY_MASK = tuple(
    tuple(TAKE2 + c for c in range(N_GEMS) if mask >> c & 1) for mask in range(1 << N_GEMS)
)
RESERVE_BY_MASK = tuple(
    tuple(RESERVE + s for s in range(N_SLOTS) if mask >> s & 1) for mask in range(1 << N_SLOTS)
)
BLIND_BY_MASK = tuple(
    tuple(RESERVE_BLIND + lv for lv in range(N_LEVELS) if mask >> lv & 1) for mask in range(8)
)
ALL_SLOTS = (1 << N_SLOTS) - 1


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


@dataclass(frozen=True, slots=True)
class GameConfig:
    """The rule parameters of rules section 6; None means the player-count default."""

    n_players: int = 2
    target_points: int = 15
    gem_tokens: int | None = None
    gold_tokens: int = 5
    nobles: int | None = None
    max_rounds: int = 100
    later_seat_gold: int = 0  # seat compensation: gold each seat after the first starts with
    later_seat_gems: int = 0  # and gem tokens, one of each colour from the first on
    ties_to_later_seat: bool = False  # seat compensation: a tie on points goes to the later seat
    first_turn_gems: int = TAKE_DIFF_GEMS  # seat compensation: gems seat 0's first take takes
    later_seat_limit: int = 0  # and tokens each later seat may hold beyond the 10-token limit

    @property
    def resolved_gem_tokens(self) -> int:
        return self.gem_tokens if self.gem_tokens is not None else DEFAULT_GEMS[self.n_players]

    @property
    def resolved_nobles(self) -> int:
        return self.nobles if self.nobles is not None else self.n_players + 1

    def validate(self, components: Components) -> None:
        n = self.n_players
        if not _is_int(n) or not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise ConfigError(f"player count must be 2, 3 or 4, got {n!r}")
        # upper bounds keep every logged count inside its column type (int8 / int16)
        _check_range("target_points", self.target_points, 1, 32767)
        _check_range("gold_tokens", self.gold_tokens, 0, 127)
        _check_range("max_rounds", self.max_rounds, 1, 32767 // n)
        if self.gem_tokens is not None:
            _check_range("gem_tokens", self.gem_tokens, 1, 127)
        limit = min(10, len(components.nobles))
        if self.nobles is not None:
            _check_range("nobles", self.nobles, 1, limit)
        elif n + 1 > limit:
            raise ConfigError(f"{n} players need {n + 1} nobles, the components have {limit}")
        _check_range("later_seat_gold", self.later_seat_gold, 0, 127)
        _check_range("later_seat_gems", self.later_seat_gems, 0, N_GEMS)
        _check_range("first_turn_gems", self.first_turn_gems, 1, TAKE_DIFF_GEMS)
        _check_range("later_seat_limit", self.later_seat_limit, 0, TOKEN_LIMIT)
        if not isinstance(self.ties_to_later_seat, bool):
            raise ConfigError(
                f"ties_to_later_seat must be true or false, got {self.ties_to_later_seat!r}"
            )
        if self.later_seat_gems and self.resolved_gem_tokens < n - 1:
            raise ConfigError(
                f"later_seat_gems for {n - 1} later seats needs {n - 1} tokens per colour, "
                f"there are {self.resolved_gem_tokens}"
            )
        if (n - 1) * self.later_seat_gold > self.gold_tokens:
            raise ConfigError(
                f"later_seat_gold {self.later_seat_gold} for {n - 1} later seats needs "
                f"{(n - 1) * self.later_seat_gold} gold tokens, there are {self.gold_tokens}"
            )

    def variants(self) -> dict[str, int | None]:
        """The manifest's `variants`: the rule parameters, defaults left as null; the seat
        compensation only when given, so that runs without it keep their run ids."""
        variants = {
            "target_points": self.target_points,
            "gem_tokens": self.gem_tokens,
            "gold_tokens": self.gold_tokens,
            "nobles": self.nobles,
            "max_rounds": self.max_rounds,
        }
        for name in (
            "later_seat_gold",
            "later_seat_gems",
            "ties_to_later_seat",
            "later_seat_limit",
        ):
            if getattr(self, name):
                variants[name] = getattr(self, name)
        if self.first_turn_gems != TAKE_DIFF_GEMS:
            variants["first_turn_gems"] = self.first_turn_gems
        return variants


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_range(name: str, value: object, low: int, high: int) -> None:
    if not _is_int(value) or not low <= value <= high:  # type: ignore[operator]
        raise ConfigError(f"{name} must be an integer {low}-{high}, got {value!r}")


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


# A recorded turn is one flat run of RECORD_WIDTH ints appended to `State.log`, so a
# recording game allocates no object per turn and the log module hands whole games to
# polars at once. The open part is written while the turn is played, the rest at its end;
# the turn number and seat are the record's place in the log. The tokens a turn takes,
# pays and returns (at most 7 of a colour) are packed PACK_BITS bits a colour, gold last.
PACK_BITS = 3
(R_ACTION, R_CARD, R_SOURCE, R_SLOT, R_NOBLE, R_DRAWN, R_TAKEN, R_PAYMENT, R_RETURNED) = range(9)
R_DISPLAY = R_RETURNED + 1  # the display before the action, by slot
R_POINTS = R_DISPLAY + N_SLOTS  # after the turn, from here on
R_TOKENS = R_POINTS + 1
R_BONUSES = R_TOKENS + N_GEMS + 1
R_DECK_LEFT = R_BONUSES + N_GEMS
R_SUPPLY = R_DECK_LEFT + N_LEVELS
R_RESERVED = R_SUPPLY + N_GEMS + 1  # reserved card ids, padded with EMPTY
RECORD_WIDTH = R_RESERVED + MAX_RESERVED
_OPEN_BLANK = (A_PASS, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, 0, 0, 0)
_TAKE3_PACKED = tuple(sum(1 << PACK_BITS * c for c in colours) for colours in TAKE_SETS)
_RESERVED_PAD = tuple((EMPTY,) * (MAX_RESERVED - k) for k in range(MAX_RESERVED + 1))


class State(EngineState):
    """One game in progress. Mutated in place by `apply_action`; `clone` to branch."""

    phases = PHASE_NAMES
    __slots__ = (
        "supply", "tokens",
        "bonus", "points", "cards_bought", "tableau", "reserved", "blind", "nobles",
        "display", "filled", "decks", "nobles_in_play", "table", "noble_again", "passes",
        "round_passes", "round_visits", "bought", "excess", "end_reason", "_turn",
    )  # fmt: skip

    game: Game
    log: list[int]  # RECORD_WIDTH ints per finished turn, when recording

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

    # ------------------------------------------------------------------ decisions

    def _apply(self, action: int) -> None:
        """A legal choice, then any forced follow-ups."""
        phase = self.phase
        if phase == MAIN:
            self._act(action)
        elif phase == RETURNING:
            self._return(action)
        else:
            self._visit(action - NOBLE)
            self._end_turn()

    def apply_buy(self, action: int, payment: list[int]) -> None:
        """Apply a legal buy paying with `payment` (six counts, gold last) instead of the
        fewest-gold payment: gold may stand in for gems the player holds (rules: buy)."""
        if (
            self.phase != MAIN
            or type(action) is not int
            or not BUY <= action < PASS
            or action not in self.legal
        ):
            raise IllegalActionError(f"{self.describe(action)} is not a legal buy now")
        p = self.current
        card = self._card_to_buy(action)
        cost = self.game.cost[card]
        bonus = self.bonus[p]
        tokens = self.tokens[p]
        valid = (
            len(payment) == N_GEMS + 1
            and all(type(v) is int and 0 <= v <= tokens[c] for c, v in enumerate(payment))
            and all(payment[c] <= max(0, cost[c] - bonus[c]) for c in range(N_GEMS))
            and payment[GOLD] == sum(max(0, cost[c] - bonus[c]) - payment[c] for c in range(N_GEMS))
        )
        if not valid:
            raise IllegalActionError(
                f"payment {list(payment)} does not pay for card {card} with seat {p}'s tokens"
            )
        if self.record:
            self.actions.append((self.turn, action))
        self._act(action, payment)

    def _start_turn(self) -> None:
        p = self.current
        if self.record:
            self._turn = [*_OPEN_BLANK, *self.display]
        self.bought = False
        self.phase = MAIN
        g = self.game
        s = self.supply
        avail = (s[0] > 0) | (s[1] > 0) << 1 | (s[2] > 0) << 2 | (s[3] > 0) << 3 | (s[4] > 0) << 4
        legal = list(TAKE_DIFF_BY_AVAIL[avail])
        if avail:
            big = (
                (s[0] >= TAKE2_MIN)
                | (s[1] >= TAKE2_MIN) << 1
                | (s[2] >= TAKE2_MIN) << 2
                | (s[3] >= TAKE2_MIN) << 3
                | (s[4] >= TAKE2_MIN) << 4
            )
            if big:
                legal += TAKE2_BY_MASK[big]
        reserved = self.reserved[p]
        if len(reserved) < MAX_RESERVED:
            legal += RESERVE_BY_MASK[self.filled]
            d = self.decks
            legal += BLIND_BY_MASK[(len(d[0]) > 0) | (len(d[1]) > 0) << 1 | (len(d[2]) > 0) << 2]
        t = self.tokens[p]
        b = self.bonus[p]
        pk = g.packed
        power = (
            g.guard
            + pk[0][t[0] + b[0]]
            + pk[1][t[1] + b[1]]
            + pk[2][t[2] + b[2]]
            + pk[3][t[3] + b[3]]
            + pk[4][t[4] + b[4]]
        )
        costs = g.packed_cost
        gold = t[GOLD]
        slot = BUY
        if gold:
            lo, hi = g.deficit
            mask = g.lo_mask
            shift = g.hi_shift
            for card in self.display:
                if card >= 0:
                    x = power - costs[card]
                    if lo[x & mask] + hi[x >> shift] <= gold:
                        legal.append(slot)
                slot += 1
            slot = BUY_RESERVED
            for card in reserved:
                x = power - costs[card]
                if lo[x & mask] + hi[x >> shift] <= gold:
                    legal.append(slot)
                slot += 1
        else:
            guard = g.guard
            for card in self.display:
                if card >= 0 and (power - costs[card]) & guard == guard:
                    legal.append(slot)
                slot += 1
            slot = BUY_RESERVED
            for card in reserved:
                if (power - costs[card]) & guard == guard:
                    legal.append(slot)
                slot += 1
        if not legal:
            legal.append(PASS)
        self.legal = legal
        if len(legal) == 1:
            self._act(legal[0])

    def _act(self, action: int, payment: list[int] | None = None) -> None:
        p = self.current
        rec = self._turn
        tokens = self.tokens[p]
        supply = self.supply
        if action < TAKE2:
            for c in TAKE_SETS[action]:
                supply[c] -= 1
                tokens[c] += 1
            if rec is not None:
                rec[R_ACTION], rec[R_TAKEN] = A_TAKE3, _TAKE3_PACKED[action]
        elif action < RESERVE:
            c = action - TAKE2
            supply[c] -= 2
            tokens[c] += 2
            if rec is not None:
                rec[R_ACTION], rec[R_TAKEN] = A_TAKE2, 2 << PACK_BITS * c
        elif action < BUY:
            if action < RESERVE_BLIND:
                slot = action - RESERVE
                card = self._leave_display(slot)
                if rec is not None:
                    rec[R_ACTION], rec[R_SOURCE], rec[R_SLOT] = A_RESERVE, FROM_DISPLAY, slot
            else:
                level = action - RESERVE_BLIND
                card = self.decks[level].pop()
                self.blind[p].append(card)
                if rec is not None:
                    rec[R_ACTION], rec[R_SOURCE] = A_BLIND, FROM_DECK + level
            self.reserved[p].append(card)
            if supply[GOLD]:
                supply[GOLD] -= 1
                tokens[GOLD] += 1
                if rec is not None:
                    rec[R_TAKEN] = 1 << PACK_BITS * GOLD
            if rec is not None:
                rec[R_CARD] = card
        elif action < PASS:
            card = self._card_to_buy(action)
            if action < BUY_RESERVED:
                slot = action - BUY
                self._leave_display(slot)
                if rec is not None:
                    rec[R_SOURCE], rec[R_SLOT] = FROM_DISPLAY, slot
            else:
                self.reserved[p].pop(action - BUY_RESERVED)
                blind = self.blind[p]
                if card in blind:
                    blind.remove(card)
                if rec is not None:
                    rec[R_SOURCE] = FROM_RESERVE
            self._pay(p, card, payment)
            g = self.game
            self.bonus[p][g.card_bonus[card]] += 1
            self.points[p] += g.card_points[card]
            self.cards_bought[p] += 1
            self.tableau[p].append(card)
            self.bought = True
            if rec is not None:
                rec[R_ACTION], rec[R_CARD] = A_BUY, card
            self._nobles_step()
            return
        else:
            self.passes[p] += 1
            self.round_passes += 1
            self._nobles_step()
            return
        over = sum(tokens) - self.game.token_limit[p]
        if over > 0:
            self.excess = over
            self._ask_return()
        else:
            self._nobles_step()

    def _card_to_buy(self, action: int) -> int:
        if action < BUY_RESERVED:
            return self.display[action - BUY]
        return self.reserved[self.current][action - BUY_RESERVED]

    def _leave_display(self, slot: int) -> int:
        """Take the card of `slot`; refill from its level's deck, or leave it empty."""
        display = self.display
        card = display[slot]
        deck = self.decks[slot // SLOTS_PER_LEVEL]
        if deck:
            drawn = deck.pop()
            display[slot] = drawn
            if self._turn is not None:
                self._turn[R_DRAWN] = drawn
        else:
            display[slot] = EMPTY
            self.filled &= ~(1 << slot)
        return card

    def _pay(self, p: int, card: int, payment: list[int] | None) -> None:
        """Pay the discounted cost: tokens of each colour first, gold for the rest."""
        cost = self.game.cost[card]
        bonus = self.bonus[p]
        tokens = self.tokens[p]
        supply = self.supply
        if payment is None:
            payment = [0] * (N_GEMS + 1)
            for c in range(N_GEMS):
                need = cost[c] - bonus[c]
                if need > 0:
                    have = tokens[c]
                    if have >= need:
                        payment[c] = need
                    else:
                        payment[c] = have
                        payment[GOLD] += need - have
        for c in range(N_GEMS + 1):
            paid = payment[c]
            if paid:
                tokens[c] -= paid
                supply[c] += paid
        if self._turn is not None:
            w, u, g, r, k, x = payment  # packed PACK_BITS = 3 bits a colour
            self._turn[R_PAYMENT] = w | u << 3 | g << 6 | r << 9 | k << 12 | x << 15

    def _ask_return(self) -> None:
        tokens = self.tokens[self.current]
        legal = [RETURN + c for c in range(N_GEMS + 1) if tokens[c]]
        self.phase = RETURNING
        self.legal = legal
        if len(legal) == 1:
            self._return(legal[0])

    def _return(self, action: int) -> None:
        c = action - RETURN
        self.tokens[self.current][c] -= 1
        self.supply[c] += 1
        if self._turn is not None:
            self._turn[R_RETURNED] += 1 << PACK_BITS * c
        self.excess -= 1
        if self.excess:
            self._ask_return()
        else:
            self._nobles_step()

    def _nobles_step(self) -> None:
        """At most one noble per turn; bonuses only grow, so only a buy, or several
        qualifying last turn, can make one visit now."""
        p = self.current
        if not (self.bought or self.noble_again[p]) or not self.table:
            self._end_turn()
            return
        g = self.game
        b = self.bonus[p]
        pk = g.packed
        power = g.guard + pk[0][b[0]] + pk[1][b[1]] + pk[2][b[2]] + pk[3][b[3]] + pk[4][b[4]]
        guard = g.guard
        req = g.noble_req
        qualify = [NOBLE + k for k in self.table if (power - req[k]) & guard == guard]
        self.noble_again[p] = len(qualify) > 1
        if not qualify:
            self._end_turn()
        elif len(qualify) == 1:
            self._visit(qualify[0] - NOBLE)
            self._end_turn()
        else:
            self.phase = NOBLE_CHOICE
            self.legal = qualify

    def _visit(self, noble: int) -> None:
        p = self.current
        self.table.remove(noble)
        self.nobles[p].append(noble)
        self.points[p] += self.game.noble_points[noble]
        self.round_visits += 1
        if self._turn is not None:
            self._turn[R_NOBLE] = noble

    def _end_turn(self) -> None:
        p = self.current
        rec = self._turn
        if rec is not None:
            d = self.decks
            reserved = self.reserved[p]
            self.log += [
                *rec, self.points[p], *self.tokens[p], *self.bonus[p],
                len(d[0]), len(d[1]), len(d[2]), *self.supply,
                *reserved, *_RESERVED_PAD[len(reserved)],
            ]  # fmt: skip
            self._turn = None
        self.turn += 1
        n = self.n
        if p == n - 1:
            cfg = self.game.config
            if max(self.points) >= cfg.target_points:
                self.end_reason = 0
            elif self.round_passes == n and not self.round_visits:
                self.end_reason = 1
            elif self.turn // n >= cfg.max_rounds:
                self.end_reason = 2
            if self.end_reason != EMPTY:
                self.phase = END
                self.legal = []
                return
            self.round_passes = 0
            self.round_visits = 0
            self.current = 0
        else:
            self.current = p + 1
        self._start_turn()

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
