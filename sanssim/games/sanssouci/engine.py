"""The Sanssouci forward model: fixed parameters (`Game`) and a mutable `State`.

`State` deals and scores here and plays its turns by the rules of `turn.Turn`. What they
share lives beside them, so that the strategies and logs import it without the engine:
the garden masks in `garden`, the decisions and action numbers in `actions`, the
configuration in `config`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from sanssim.games.engine import EngineGame, shared_ranks
from sanssim.games.sanssouci.actions import (
    CARD_JOKER,
    CARD_PAIR,
    CARD_SYMBOL,
    DISCARD,
    EMPTY,
    HAND_SIZE,
    N_SLOTS,
    NOBLE,
    PASS,
    PHASE_NAMES,
    PLACE,
    SIDE,
    TAKE,
    slot_row,
)
from sanssim.games.sanssouci.components import (
    COLOURS,
    EXPANSION_TOP_ROW,
    N_COLS,
    SYMBOLS,
    Components,
)
from sanssim.games.sanssouci.config import GameConfig
from sanssim.games.sanssouci.data import default_components
from sanssim.games.sanssouci.garden import (
    COL_MASK,
    N_SQUARES,
    NOBLE_ZONE,
    ROW_MASK,
    col_of,
    flood,
    row_of,
    square,
)
from sanssim.games.sanssouci.turn import Turn, TurnRecord


@dataclass(frozen=True, slots=True)
class PlayerSetup:
    """Per-side lookup tables, built once per (garden side, expansion side)."""

    garden: int  # index into components.garden_sides
    preprinted: int  # mask
    target: tuple[int, ...]  # slot * 9 + symbol -> garden square
    symbol_column: tuple[int, ...]  # symbol -> column


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


class State(Turn):
    """One game in progress. Mutated in place by `apply_action`; `clone` to branch."""

    phases = PHASE_NAMES
    __slots__ = (
        "rng", "display", "slot_of_symbol", "filled", "supply", "reshuffles",
        "hands", "decks", "played", "missions", "setup", "exp_board", "exp_side",
        "exp_land", "exp_gard", "occupied", "gardeners", "reach", "noble_rows",
        "noble_zone", "score", "noble_points", "expansion_points", "n_gardeners",
        "pending_tile", "pending_target", "_turn",
    )  # fmt: skip

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
