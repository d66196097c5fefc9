"""What a Sanssouci choice is: the decisions of a turn and the numbers of their actions.

Actions are small integers, their meaning set by the decision (`phase`):

- SIDE:  index of the chosen expansion side in `components.expansion_sides`
- TAKE:  ``hand_index * 10 + slot``; ``DISCARD + hand_index`` when no card
  offers a tile
- PLACE: garden square of the gardener
- NOBLE: destination square of the noble (its column names the noble), or PASS

A decision with a single legal choice is taken automatically. A module of its own since
the strategies, the logs and the compiled core speak the same numbers.
"""

from __future__ import annotations

from sanssim.games.sanssouci.garden import N_SQUARES

ROUNDS = 18
HAND_SIZE = 2
N_SLOTS = 10
ALL_SLOTS = (1 << N_SLOTS) - 1
DISCARD = 20
PASS = N_SQUARES

SIDE, TAKE, PLACE, NOBLE, END = range(5)
PHASE_NAMES = ("side", "take", "place", "noble", "end")

EMPTY = -1
CARD_SYMBOL, CARD_PAIR, CARD_JOKER = range(3)


def slot_row(slot: int) -> int:
    """Garden row fed by a display slot (slot = 2 * colour index + k)."""
    return slot // 2 + 2
