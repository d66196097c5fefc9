"""What a Splendor choice is: the table's sizes, the decisions of a turn and the numbers of
their actions, with the legal take and reserve actions precomputed by supply mask.

Actions are small integers from fixed ranges, so an action means the same at every
decision of its phase:

- MAIN:   ``TAKE_DIFF + k`` takes the colours of `TAKE_SETS[k]` (three, or all that
  are left when fewer than three colours are); ``TAKE2 + c``; ``RESERVE + slot``;
  ``RESERVE_BLIND + level - 1``; ``BUY + slot``; ``BUY_RESERVED + index``; ``PASS``
- RETURN: ``RETURN + colour`` hands back one token (gold is colour 5); repeated
  until the player holds 10
- NOBLE:  ``NOBLE + noble id`` when several nobles qualify

A decision with a single legal choice is taken automatically. A module of its own since
the strategies, the logs and the compiled core speak the same numbers.
"""

from __future__ import annotations

from itertools import combinations

from sanssim.games.splendor.components import COLOURS

N_GEMS = len(COLOURS)
GOLD = N_GEMS
TOKEN_LIMIT = 10
MAX_RESERVED = 3
TAKE2_MIN = 4
TAKE_DIFF_GEMS = 3  # gems a take-different action takes when enough colours have tokens
SLOTS_PER_LEVEL = 4
N_LEVELS = 3
N_SLOTS = SLOTS_PER_LEVEL * N_LEVELS
EMPTY = -1

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
