"""The rules of a Splendor turn: one action (take gems, reserve a card, buy one or pass),
tokens handed back down to the limit, at most one noble's visit, then the end-of-round
checks that end the game.

`Turn` holds these steps as methods; `engine.State` subclasses it, declares the fields,
deals and answers queries, so that each file reads on its own. Each step ends by asking
the next decision or, when that has a single legal choice, taking it, so a turn runs as
a chain of calls (the compiled core runs the same chain as a loop). Whether a card is
affordable is one subtraction on the packed integers `engine.Game` derives.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sanssim.errors import IllegalActionError
from sanssim.games.engine import EngineState
from sanssim.games.splendor.actions import (
    A_BLIND,
    A_BUY,
    A_RESERVE,
    A_TAKE2,
    A_TAKE3,
    BLIND_BY_MASK,
    BUY,
    BUY_RESERVED,
    EMPTY,
    END,
    FROM_DECK,
    FROM_DISPLAY,
    FROM_RESERVE,
    GOLD,
    MAIN,
    MAX_RESERVED,
    N_GEMS,
    NOBLE,
    NOBLE_CHOICE,
    PASS,
    RESERVE,
    RESERVE_BLIND,
    RESERVE_BY_MASK,
    RETURN,
    RETURNING,
    SLOTS_PER_LEVEL,
    TAKE2,
    TAKE2_BY_MASK,
    TAKE2_MIN,
    TAKE_DIFF_BY_AVAIL,
    TAKE_SETS,
)
from sanssim.games.splendor.record import (
    OPEN_BLANK,
    PACK_BITS,
    R_ACTION,
    R_CARD,
    R_DRAWN,
    R_NOBLE,
    R_PAYMENT,
    R_RETURNED,
    R_SLOT,
    R_SOURCE,
    R_TAKEN,
    RESERVED_PAD,
    TAKE3_PACKED,
)

if TYPE_CHECKING:
    from sanssim.games.splendor.engine import Game


class Turn(EngineState):
    """A turn's decisions, on the fields `engine.State` declares."""

    __slots__ = ()
    game: Game
    log: list[int]  # RECORD_WIDTH ints per finished turn, when recording

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
            self._turn = [*OPEN_BLANK, *self.display]
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
                rec[R_ACTION], rec[R_TAKEN] = A_TAKE3, TAKE3_PACKED[action]
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
                *reserved, *RESERVED_PAD[len(reserved)],
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
