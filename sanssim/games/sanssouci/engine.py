"""The Sanssouci forward model: fixed parameters (`Game`) and a mutable `State`.

Gardens are 54-bit masks, square index ``(row - 1) * 9 + col``. Nobles always
stand in their own column, so a noble is just a row per column. The occupied
group connected to row 1 (`reach`) only ever grows, so it is updated by one
flood fill when a placed tile touches it; every noble stands in it, and a
noble's legal destinations are `reach` minus gardeners in its column below it.

Actions are small integers, their meaning set by the decision (`phase`):

- SIDE:  index of the chosen expansion side in `components.expansion_sides`
- TAKE:  ``hand_index * 10 + slot``; ``DISCARD + hand_index`` when no card
  offers a tile
- PLACE: garden square of the gardener
- NOBLE: destination square of the noble (its column names the noble), or PASS

A decision with a single legal choice is taken automatically.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from sanssim.errors import ComponentError, ConfigError
from sanssim.games.engine import EngineGame, EngineState, shared_ranks
from sanssim.games.sanssouci.components import (
    COLOURS,
    EXPANSION_TOP_ROW,
    MAX_TILES_PER_SYMBOL,
    N_COLS,
    N_ROWS,
    SYMBOLS,
    TILE_SETS,
    Components,
)
from sanssim.games.sanssouci.data import default_components

ROUNDS = 18
HAND_SIZE = 2
N_SLOTS = 10
N_SQUARES = N_ROWS * N_COLS
DISCARD = 20
PASS = N_SQUARES
ROW_BONUS = {2: 8, 3: 7, 4: 6, 5: 5, 6: 4}
COLUMN_BONUS = 5
BONUS_ROWS = tuple(ROW_BONUS)
MISSION_POINTS = tuple(range(1, N_ROWS + 1))  # a mission pays its noble's row 1-6
MIN_PLAYERS, MAX_PLAYERS = 2, 4
DEFAULT_TILE_SET = {2: "II", 3: "II+III", 4: "II+III+IV"}
# `tiles_per_symbol` bounds: 2 per symbol (18 tiles) still fills the 10-slot display.
MIN_TILES_PER_SYMBOL = 2

SIDE, TAKE, PLACE, NOBLE, END = range(5)
PHASE_NAMES = ("side", "take", "place", "noble", "end")

EMPTY = -1
CARD_SYMBOL, CARD_PAIR, CARD_JOKER = range(3)


def square(row: int, col: int) -> int:
    return (row - 1) * N_COLS + col


def row_of(sq: int) -> int:
    return sq // N_COLS + 1


def col_of(sq: int) -> int:
    return sq % N_COLS


def slot_row(slot: int) -> int:
    """Garden row fed by a display slot (slot = 2 * colour index + k)."""
    return slot // 2 + 2


ROW_MASK = [0] + [((1 << N_COLS) - 1) << ((r - 1) * N_COLS) for r in range(1, N_ROWS + 1)]
COL_MASK = [sum(1 << square(r, c) for r in range(1, N_ROWS + 1)) for c in range(N_COLS)]
FULL = (1 << N_SQUARES) - 1
NOT_LAST_COL = FULL & ~COL_MASK[N_COLS - 1]
NOT_FIRST_COL = FULL & ~COL_MASK[0]
# BELOW[r]: squares in rows strictly below row r (r = 0 is the terrace).
BELOW = [sum(ROW_MASK[r2] for r2 in range(r + 1, N_ROWS + 1)) for r in range(N_ROWS + 1)]
NEIGHBOURS = [
    ((1 << (s + N_COLS)) if s + N_COLS < N_SQUARES else 0)
    | ((1 << (s - N_COLS)) if s >= N_COLS else 0)
    | ((1 << (s + 1)) if col_of(s) < N_COLS - 1 else 0)
    | ((1 << (s - 1)) if col_of(s) > 0 else 0)
    for s in range(N_SQUARES)
]
# NOBLE_ZONE[c][r]: where the noble of column c standing in row r may end.
NOBLE_ZONE = [[COL_MASK[c] & BELOW[r] for r in range(N_ROWS + 1)] for c in range(N_COLS)]
ALL_SLOTS = (1 << N_SLOTS) - 1


def flood(seed: int, occupied: int) -> int:
    """Grow `seed` through orthogonally adjacent squares of `occupied`."""
    while True:
        grown = (
            seed
            | (seed << N_COLS)
            | (seed >> N_COLS)
            | ((seed & NOT_LAST_COL) << 1)
            | ((seed & NOT_FIRST_COL) >> 1)
        ) & occupied
        if grown == seed:
            return seed
        seed = grown


def bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@dataclass(frozen=True, slots=True)
class GameConfig:
    """What a game is played with. `garden_sides`: None deals random distinct
    boards on a random side; one id puts every seat on that side; n ids give
    each seat its own."""

    n_players: int = 2
    expansion: bool = False
    duplicate_reshuffle: bool = False
    tile_set: str | None = None
    # Any tile supply: this many tiles of each symbol instead of a printed tile set.
    tiles_per_symbol: int | None = None
    garden_sides: tuple[str, ...] | None = None
    # House rules for tuning; the defaults are the rulebook's.
    row_bonus_points: tuple[int, ...] = tuple(ROW_BONUS.values())  # rows 2-6
    column_bonus_points: int = COLUMN_BONUS
    seat_bonus: int = 0  # seat k starts with k * seat_bonus points
    mission_row_points: tuple[int, ...] = MISSION_POINTS  # noble in row 1-6 (terrace: 0)

    @property
    def row_points(self) -> dict[int, int]:
        """End bonus by garden row (2-6) for a complete row."""
        return dict(zip(BONUS_ROWS, self.row_bonus_points, strict=True))

    @property
    def mission_points(self) -> tuple[int, ...]:
        """Points a mission pays by its noble's row, 0 (the terrace) to 6."""
        return (0, *self.mission_row_points)

    @property
    def resolved_tile_set(self) -> str:
        """The printed set in play (`II+III`), or `N per symbol` for a `tiles_per_symbol`
        supply."""
        if self.tiles_per_symbol is not None:
            return f"{self.tiles_per_symbol} per symbol"
        return self.tile_set or DEFAULT_TILE_SET.get(self.n_players, "II")

    def per_symbol(self, components: Components) -> int:
        """Tiles of each symbol in the supply."""
        if self.tiles_per_symbol is not None:
            return self.tiles_per_symbol
        return components.tiles_per_symbol(self.resolved_tile_set)

    def validate(self, components: Components) -> None:
        n = self.n_players
        if not isinstance(n, int) or isinstance(n, bool) or not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise ConfigError(f"player count must be 2, 3 or 4, got {n!r}")
        if self.tile_set is not None and self.tile_set not in TILE_SETS:
            raise ConfigError(
                f"tile set must be one of {', '.join(TILE_SETS)}, got {self.tile_set!r}"
            )
        per = self.tiles_per_symbol
        if per is not None:
            if self.tile_set is not None:
                raise ConfigError("give a tile set or tiles per symbol, not both")
            if (
                not isinstance(per, int)
                or isinstance(per, bool)
                or not (MIN_TILES_PER_SYMBOL <= per <= MAX_TILES_PER_SYMBOL)
            ):
                raise ConfigError(
                    f"tiles per symbol must be an integer {MIN_TILES_PER_SYMBOL}-"
                    f"{MAX_TILES_PER_SYMBOL}, got {per!r}"
                )
        if isinstance(self.garden_sides, str):
            raise ConfigError(
                f"garden sides must be a tuple of side ids, got {self.garden_sides!r}"
            )
        if self.garden_sides is not None:
            if len(self.garden_sides) not in (1, n):
                raise ConfigError(
                    f"give one garden side for all seats or one per seat ({n}), "
                    f"got {len(self.garden_sides)}"
                )
            for side_id in self.garden_sides:
                try:
                    components.garden_side(side_id)
                except ComponentError as exc:
                    raise ConfigError(str(exc)) from None
        boards = len({s.board for s in components.garden_sides})
        if self.garden_sides is None and boards < n:
            raise ConfigError(f"{n} players need {n} garden boards, the components have {boards}")
        if self.expansion and len({e.board for e in components.expansion_sides}) < n:
            raise ConfigError(f"{n} players need {n} expansion boards")
        bonuses = self.row_bonus_points
        if (
            not isinstance(bonuses, tuple)
            or len(bonuses) != len(BONUS_ROWS)
            or not all(_is_points(v) for v in bonuses)
        ):
            raise ConfigError(f"row bonus must be 5 integers 0-100 (rows 2-6), got {bonuses!r}")
        if not _is_points(self.column_bonus_points):
            raise ConfigError(
                f"column bonus must be an integer 0-100, got {self.column_bonus_points!r}"
            )
        if not _is_points(self.seat_bonus):
            raise ConfigError(f"seat bonus must be an integer 0-100, got {self.seat_bonus!r}")
        missions = self.mission_row_points
        if (
            not isinstance(missions, tuple)
            or len(missions) != N_ROWS
            or not all(_is_points(v) for v in missions)
        ):
            raise ConfigError(
                f"mission points must be 6 integers 0-100 (rows 1-6), got {missions!r}"
            )
        tiles = self.per_symbol(components) * len(SYMBOLS)
        if tiles < N_SLOTS:
            raise ConfigError(f"tile set {self.resolved_tile_set} has only {tiles} tiles")


def _is_points(value: object) -> bool:
    """A bonus: an integer small enough for the int16 score columns."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 100


@dataclass(frozen=True, slots=True)
class PlayerSetup:
    """Per-side lookup tables, built once per (garden side, expansion side)."""

    garden: int  # index into components.garden_sides
    preprinted: int  # mask
    target: tuple[int, ...]  # slot * 9 + symbol -> garden square
    symbol_column: tuple[int, ...]  # symbol -> column


@dataclass(slots=True)
class TurnRecord:
    """What one turn did, for logs and replays (filled only when recording)."""

    turn: int
    seat: int
    hand: tuple[int, ...]
    display: tuple[int, ...]
    card: int = -1
    card_wild: bool = False
    slot: int = -1
    tile: int = -1
    target: int = -1
    placed: int = -1
    gardener: bool = False
    expansion_points: int = 0
    noble_col: int = -1
    noble_from: int = -1
    noble_to: int = -1
    noble_points: int = 0
    score: int = 0
    reshuffles: int = 0
    supply_left: int = 0


@dataclass(frozen=True, slots=True)
class ScoreBreakdown:
    noble_points: int
    expansion_points: int
    row_bonus: int
    column_bonus: int
    mission_points: int
    gardeners: int
    rows_completed: int
    columns_completed: int
    noble_rows: tuple[int, ...]
    handicap_points: int = 0

    @property
    def total(self) -> int:
        return (
            self.noble_points
            + self.expansion_points
            + self.row_bonus
            + self.column_bonus
            + self.mission_points
            + self.handicap_points
        )


class Game(EngineGame[GameConfig, Components]):
    """A Sanssouci design: its rules and components, and the tables derived from them (card
    kinds and slots, each garden side's setup, the tile supply)."""

    packaged = default_components

    def derive(self) -> None:
        cards = self.components.deck
        kinds = tuple(
            CARD_SYMBOL if c.kind == "symbol" else CARD_PAIR if c.kind == "pair" else CARD_JOKER
            for c in cards
        )
        self._set("card_kind", kinds)
        self._set("card_symbol", tuple(c.symbol for c in cards))
        self._set("row_points", self.config.row_points)
        self._set("mission_points", self.config.mission_points)
        self._set("card_slots", tuple(sum(3 << (2 * k) for k in c.colours) for c in cards))
        sides = range(len(self.components.garden_sides))
        self._set("setups", tuple(_side_setup(self.components, i) for i in sides))
        per_symbol = self.config.per_symbol(self.components)
        self._set("tiles", tuple(s for s in range(len(SYMBOLS)) for _ in range(per_symbol)))

    def expansion_marks(self, garden: int, expansion: int) -> tuple[list[int], list[int]]:
        """Points for a landscape and for a gardener placed on each square."""
        comps = self.components
        side = comps.garden_sides[garden]
        exp = comps.expansion_sides[expansion]
        first = exp.first_column(side)
        land = [0] * N_SQUARES
        gard = [0] * N_SQUARES
        for r, row in enumerate(exp.marks):
            for k, mark in enumerate(row):
                sq = square(EXPANSION_TOP_ROW + r, first + k)
                if mark.kind in ("symbol", "penalty"):
                    land[sq] = mark.value
                if mark.kind in ("gardener", "penalty"):
                    gard[sq] = mark.value
        return land, gard


def _side_setup(comps: Components, index: int) -> PlayerSetup:
    side = comps.garden_sides[index]
    column = tuple(side.column_of(s) for s in SYMBOLS)
    pre = sum(1 << square(r, c) for r, c in side.preprinted)
    target = tuple(
        square(slot_row(slot), column[sym])
        for slot in range(N_SLOTS)
        for sym in range(len(SYMBOLS))
    )
    return PlayerSetup(index, pre, target, column)


class State(EngineState):
    """One game in progress. Mutated in place by `apply_action`; `clone` to branch."""

    phases = PHASE_NAMES
    __slots__ = (
        "rng", "display", "slot_of_symbol", "filled", "supply", "reshuffles",
        "hands", "decks", "played", "missions", "setup", "exp_board", "exp_side",
        "exp_land", "exp_gard", "occupied", "gardeners", "reach", "noble_rows",
        "noble_zone", "score", "noble_points", "expansion_points", "n_gardeners",
        "pending_tile", "pending_target", "_turn",
    )  # fmt: skip

    game: Game
    log: list[TurnRecord]

    def _deal(self, seed: int) -> None:
        game = self.game
        comps = game.components
        cfg = game.config
        n = self.n
        rng = random.Random(seed)
        self.rng = rng
        self._turn: TurnRecord | None = None
        self.pending_tile = EMPTY
        self.pending_target = EMPTY
        self.reshuffles = 0

        self.setup = [game.setups[i] for i in self._deal_garden_sides(rng)]
        supply = list(game.tiles)
        rng.shuffle(supply)
        self.supply = supply
        self.display = [EMPTY] * N_SLOTS
        self.slot_of_symbol = [0] * len(SYMBOLS)
        self.filled = 0
        for slot in range(N_SLOTS):
            if supply:
                self._put(slot, supply.pop())
        if cfg.duplicate_reshuffle:
            for colour in range(len(COLOURS)):
                self.reshuffles += self._reshuffle(2 * colour)
        self.decks = []
        self.hands = []
        for _ in range(n):
            deck = list(range(len(comps.deck)))
            rng.shuffle(deck)
            self.hands.append([deck.pop() for _ in range(HAND_SIZE)])
            self.decks.append(deck)
        self.played: list[list[int]] = [[] for _ in range(n)]
        missions = list(range(len(SYMBOLS)))
        rng.shuffle(missions)
        self.missions = [tuple(missions[2 * p : 2 * p + 2]) for p in range(n)]

        self.occupied = [s.preprinted for s in self.setup]
        self.gardeners = [0] * n
        self.reach = [flood(ROW_MASK[1], occ) for occ in self.occupied]
        self.noble_rows = [[0] * N_COLS for _ in range(n)]
        self.noble_zone = [sum(NOBLE_ZONE[c][0] for c in range(N_COLS))] * n
        self.score = [p * cfg.seat_bonus for p in range(n)]
        self.noble_points = [0] * n
        self.expansion_points = [0] * n
        self.n_gardeners = [0] * n
        self.exp_side: list[int] = [EMPTY] * n
        self.exp_land: list[list[int] | None] = [None] * n
        self.exp_gard: list[list[int] | None] = [None] * n
        if cfg.expansion:
            boards = sorted({e.board for e in comps.expansion_sides})
            self.exp_board = rng.sample(boards, n)
            self.phase = SIDE
            self.legal = self._side_choices()
        else:
            self.exp_board = [EMPTY] * n
            self._start_turn()

    def _deal_garden_sides(self, rng: random.Random) -> list[int]:
        comps = self.game.components
        ids = [s.id for s in comps.garden_sides]
        chosen = self.game.config.garden_sides
        if chosen is not None:
            if len(chosen) == 1:
                chosen = chosen * self.n
            return [ids.index(c) for c in chosen]
        boards = sorted({s.board for s in comps.garden_sides})
        picked = []
        for board in rng.sample(boards, self.n):
            sides = [i for i, s in enumerate(comps.garden_sides) if s.board == board]
            picked.append(sides[rng.randrange(len(sides))])
        return picked

    # ------------------------------------------------------------------ display

    def _put(self, slot: int, symbol: int) -> None:
        self.display[slot] = symbol
        self.slot_of_symbol[symbol] |= 1 << slot
        self.filled |= 1 << slot

    def _take(self, slot: int) -> int:
        symbol = self.display[slot]
        self.display[slot] = EMPTY
        self.slot_of_symbol[symbol] &= ~(1 << slot)
        self.filled &= ~(1 << slot)
        return symbol

    def _reshuffle(self, slot: int) -> int:
        """House rule: while both squares of a colour match, redraw this one."""
        first = slot & ~1
        other = first + 1 if slot == first else first
        count = 0
        supply = self.supply
        rng = self.rng
        while self.display[slot] != EMPTY and self.display[slot] == self.display[other]:
            symbol = self.display[slot]
            if all(t == symbol for t in supply):
                break
            self._take(slot)
            supply.insert(rng.randrange(len(supply) + 1), symbol)
            self._put(slot, supply.pop())
            count += 1
        return count

    # ------------------------------------------------------------------ decisions

    def _apply(self, action: int) -> None:
        """A legal choice, then any forced follow-ups."""
        phase = self.phase
        if phase == TAKE:
            self._apply_take(action)
        elif phase == PLACE:
            self._place(action, True)
            self._start_noble()
        elif phase == NOBLE:
            self._move_noble(action)
            self._end_turn()
        else:
            self._choose_side(action)

    def _side_choices(self) -> list[int]:
        board = self.exp_board[self.current]
        return [i for i, e in enumerate(self.game.components.expansion_sides) if e.board == board]

    def _choose_side(self, action: int) -> None:
        p = self.current
        self.exp_side[p] = action
        self.exp_land[p], self.exp_gard[p] = self.game.expansion_marks(self.setup[p].garden, action)
        if p + 1 < self.n:
            self.current = p + 1
            self.legal = self._side_choices()
        else:
            self.current = 0
            self._start_turn()

    def _start_turn(self) -> None:
        p = self.current
        hand = self.hands[p]
        if self.record:
            self._turn = TurnRecord(self.turn, p, tuple(hand), tuple(self.display))
        legal = []
        filled = self.filled
        kinds = self.game.card_kind
        for i, card in enumerate(hand):
            kind = kinds[card]
            if kind == CARD_SYMBOL:
                slots = self.slot_of_symbol[self.game.card_symbol[card]] or filled
            elif kind == CARD_PAIR:
                slots = self.game.card_slots[card] & filled
            else:
                slots = filled
            base = 10 * i
            while slots:
                low = slots & -slots
                legal.append(base + low.bit_length() - 1)
                slots ^= low
        if not legal:
            legal = [DISCARD + i for i in range(len(hand))]
        self.phase = TAKE
        self.legal = legal
        if len(legal) == 1:
            self._apply_take(legal[0])

    def _apply_take(self, action: int) -> None:
        p = self.current
        rec = self._turn
        if action >= DISCARD:
            card = self.hands[p].pop(action - DISCARD)
            self.played[p].append(card)
            if rec is not None:
                rec.card = card
            self._start_noble()
            return
        card = self.hands[p].pop(action // 10)
        self.played[p].append(card)
        slot = action % 10
        symbol = self._take(slot)
        target = self.setup[p].target[slot * 9 + symbol]
        if rec is not None:
            rec.card = card
            rec.card_wild = (
                self.game.card_kind[card] == CARD_SYMBOL and self.game.card_symbol[card] != symbol
            )
            rec.slot = slot
            rec.tile = symbol
            rec.target = target
        occupied = self.occupied[p]
        if not occupied >> target & 1:
            self._place(target, False)
            self._start_noble()
            return
        free = ~occupied & FULL
        spots = free & (ROW_MASK[row_of(target)] | COL_MASK[col_of(target)]) or free
        self.pending_tile = symbol
        self.pending_target = target
        self.phase = PLACE
        self.legal = bits(spots)
        if len(self.legal) == 1:
            self._place(self.legal[0], True)
            self._start_noble()

    def _place(self, sq: int, gardener: bool) -> None:
        p = self.current
        bit = 1 << sq
        occupied = self.occupied[p] | bit
        self.occupied[p] = occupied
        if gardener:
            self.gardeners[p] |= bit
            self.n_gardeners[p] += 1
            marks = self.exp_gard[p]
        else:
            marks = self.exp_land[p]
        points = marks[sq] if marks is not None else 0
        if points:
            self.score[p] += points
            self.expansion_points[p] += points
        if NEIGHBOURS[sq] & self.reach[p]:
            self.reach[p] = flood(self.reach[p] | bit, occupied)
        self.pending_tile = EMPTY
        self.pending_target = EMPTY
        rec = self._turn
        if rec is not None:
            rec.placed = sq
            rec.gardener = gardener
            rec.expansion_points = points

    def _start_noble(self) -> None:
        p = self.current
        ends = self.reach[p] & ~self.gardeners[p] & self.noble_zone[p]
        if not ends:
            self._end_turn()
            return
        legal = bits(ends)
        legal.append(PASS)
        self.phase = NOBLE
        self.legal = legal

    def _move_noble(self, sq: int) -> None:
        if sq == PASS:
            return
        p = self.current
        col = sq % N_COLS
        row = sq // N_COLS + 1
        rows = self.noble_rows[p]
        rec = self._turn
        if rec is not None:
            rec.noble_col = col
            rec.noble_from = rows[col]
            rec.noble_to = row
            rec.noble_points = row
        rows[col] = row
        self.noble_zone[p] = (self.noble_zone[p] & ~COL_MASK[col]) | NOBLE_ZONE[col][row]
        self.score[p] += row
        self.noble_points[p] += row

    def _end_turn(self) -> None:
        p = self.current
        rec = self._turn
        reshuffles = 0
        if self.filled != ALL_SLOTS and self.supply:
            slot = (~self.filled & ALL_SLOTS).bit_length() - 1
            self._put(slot, self.supply.pop())
            if self.game.config.duplicate_reshuffle:
                reshuffles = self._reshuffle(slot)
                self.reshuffles += reshuffles
        deck = self.decks[p]
        if deck:
            self.hands[p].append(deck.pop())
        if rec is not None:
            rec.score = self.score[p]
            rec.reshuffles = reshuffles
            rec.supply_left = len(self.supply)
            self.log.append(rec)
        self.turn += 1
        if self.turn == ROUNDS * self.n:
            self.phase = END
            self.legal = []
            self._turn = None
            return
        self.current = self.turn % self.n
        self._start_turn()

    # ------------------------------------------------------------------ queries

    def breakdown(self, p: int) -> ScoreBreakdown:
        """Score of seat `p` by source, end bonuses included as if the game ended now."""
        occupied = self.occupied[p]
        config = self.game.config
        row_points = self.game.row_points
        paid = self.game.mission_points
        rows_done = [r for r in row_points if occupied & ROW_MASK[r] == ROW_MASK[r]]
        cols_done = sum(occupied & m == m for m in COL_MASK)
        columns = self.setup[p].symbol_column
        nobles = self.noble_rows[p]
        return ScoreBreakdown(
            noble_points=self.noble_points[p],
            expansion_points=self.expansion_points[p],
            row_bonus=sum(row_points[r] for r in rows_done),
            column_bonus=config.column_bonus_points * cols_done,
            mission_points=sum(paid[nobles[columns[m]]] for m in self.missions[p]),
            gardeners=self.n_gardeners[p],
            rows_completed=len(rows_done),
            columns_completed=cols_done,
            noble_rows=tuple(nobles),
            handicap_points=p * config.seat_bonus,
        )

    def returns(self) -> list[int]:
        """Final totals (running score plus end bonuses) per seat."""
        return [self.breakdown(p).total for p in range(self.n)]

    def ranks(self) -> list[int]:
        """1 = best; the gardener count breaks ties, players still tied share a rank."""
        return shared_ranks([(b.total, b.gardeners) for b in map(self.breakdown, range(self.n))])

    def describe(self, action: object) -> str:
        """A readable name for an action at the current decision."""
        comps = self.game.components
        if type(action) is not int:
            return repr(action)
        if self.phase == SIDE and 0 <= action < len(comps.expansion_sides):
            return f"expansion side {comps.expansion_sides[action].id}"
        if self.phase == TAKE:
            hand = self.hands[self.current]
            if action >= DISCARD and action - DISCARD < len(hand):
                return f"discard {comps.deck[hand[action - DISCARD]].code}"
            if 0 <= action < DISCARD and action // 10 < len(hand):
                return f"{comps.deck[hand[action // 10]].code} takes slot {action % 10}"
        if self.phase == NOBLE and action == PASS:
            return "pass"
        if self.phase in (PLACE, NOBLE) and 0 <= action < N_SQUARES:
            verb = "gardener to" if self.phase == PLACE else "noble to"
            return f"{verb} row {row_of(action)} col {col_of(action)}"
        return repr(action)

    def clone(self) -> State:
        """An independent copy, chance state included."""
        c = self._branch()
        c.rng = random.Random()
        c.rng.setstate(self.rng.getstate())
        c.display = list(self.display)
        c.slot_of_symbol = list(self.slot_of_symbol)
        c.filled = self.filled
        c.supply = list(self.supply)
        c.reshuffles = self.reshuffles
        c.hands = [list(h) for h in self.hands]
        c.decks = [list(d) for d in self.decks]
        c.played = [list(x) for x in self.played]
        c.missions = list(self.missions)
        c.setup = list(self.setup)
        c.exp_board = list(self.exp_board)
        c.exp_side = list(self.exp_side)
        c.exp_land = list(self.exp_land)
        c.exp_gard = list(self.exp_gard)
        c.occupied = list(self.occupied)
        c.gardeners = list(self.gardeners)
        c.reach = list(self.reach)
        c.noble_rows = [list(r) for r in self.noble_rows]
        c.noble_zone = list(self.noble_zone)
        c.score = list(self.score)
        c.noble_points = list(self.noble_points)
        c.expansion_points = list(self.expansion_points)
        c.n_gardeners = list(self.n_gardeners)
        c.pending_tile = self.pending_tile
        c.pending_target = self.pending_target
        c._turn = None if self._turn is None else _copy_record(self._turn)
        return c


Game.state_class = State


def _copy_record(rec: TurnRecord) -> TurnRecord:
    return TurnRecord(**{name: getattr(rec, name) for name in TurnRecord.__slots__})
