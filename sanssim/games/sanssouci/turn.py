"""The rules of a Sanssouci turn: play a card to take a tile from the display, place it
(as a gardener where its square is taken), move a noble, then refill the display and
draw a card; and, before the first turn, each seat's choice of expansion side.

`Turn` holds these steps as methods; `engine.State` subclasses it, declares the fields,
deals, scores and clones, so that each file reads on its own. Each step ends by asking
the next decision or, when that has a single legal choice, taking it, so a turn runs as a
chain of calls (the compiled core runs the same chain as a loop).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sanssim.games.engine import EngineState
from sanssim.games.sanssouci.actions import (
    ALL_SLOTS,
    CARD_PAIR,
    CARD_SYMBOL,
    DISCARD,
    EMPTY,
    END,
    NOBLE,
    PASS,
    PLACE,
    ROUNDS,
    TAKE,
)
from sanssim.games.sanssouci.components import N_COLS
from sanssim.games.sanssouci.garden import (
    COL_MASK,
    FULL,
    NEIGHBOURS,
    NOBLE_ZONE,
    ROW_MASK,
    bits,
    col_of,
    flood,
    row_of,
)

if TYPE_CHECKING:
    from sanssim.games.sanssouci.engine import Game


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


class Turn(EngineState):
    """The display and the decisions of a turn, on the fields `engine.State` declares."""

    __slots__ = ()
    game: Game
    log: list[TurnRecord]

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
