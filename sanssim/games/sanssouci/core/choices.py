"""A decision's legal choices in compiled code, in `engine.State`'s order (`rules` applies them).

Every action of a TAKE, PLACE or NOBLE decision is a small number (a card and a slot,
a discard, a square, the pass) and `engine.State` lists them in increasing order; so
the rules set them as the bits of one mask, `st[CHOICES]` (and their count,
`LEGAL_LEN`), and list them into the LEGAL room only for a strategy that reads a list
(`legal_list`). A random seat picks its choice from the mask (`pick`): in a random game,
writing lists nobody read took a fifth of the time. A SIDE decision's choices, board
sides, are listed. Lists are written without a data-dependent loop exit where they can
be: each mispredicted branch costs as much as a dozen instructions. Entries past
`LEGAL_LEN` are scratch.
"""

from __future__ import annotations

import numpy as np

from sanssim.compiled.bits import bit_count, low_bit, nth_bit
from sanssim.compiled.kernel import kernel
from sanssim.games.sanssouci.actions import (
    CARD_PAIR,
    CARD_SYMBOL,
    DISCARD,
    HAND_SIZE,
    N_SLOTS,
    SIDE,
    TAKE,
)
from sanssim.games.sanssouci.core.layout import (
    CHOICES,
    CURRENT,
    DISPLAY,
    EXP_BOARD,
    FILLED,
    G_CARD_KIND,
    G_CARD_SLOTS,
    G_CARD_SYMBOL,
    G_EXP_BOARD_SIDES,
    HAND_LEN,
    HANDS,
    LEGAL,
    LEGAL_LEN,
    PHASE,
    R_CARD_WILD,
    R_DISPLAY,
    R_EXPANSION_POINTS,
    R_GARDENER,
    R_HAND,
    R_NOBLE_POINTS,
    R_SCORE,
    R_SEAT,
    R_TURN,
    REC,
    RECORD,
    RECORD_WIDTH,
    SIDES_PER_BOARD,
    SLOT_OF_SYMBOL,
    TURN,
)

# A rule step: a kernel inlined where it is called, since a call passes each array as
# seven words on the stack, which costs more than most steps do. Inlined by LLVM, not
# numba: numba typed and lowered the rules again at each site (`play_simple`, `apply`).
step = kernel(forceinline=True)
# Above every square: what `low_bit` reads of a mask with no squares left.
STOP = np.int64(1) << 62
UNROLL = 4  # choices `legal_list` writes per loop test: 54 of them fill the room, 56


@kernel(forceinline=True)
def set_choices(st: np.ndarray, mask: np.int64) -> None:
    """The decision's choices: the actions of `mask`'s bits, lowest first."""
    st[CHOICES] = mask
    st[LEGAL_LEN] = bit_count(mask)


@kernel(forceinline=True)
def legal_list(st: np.ndarray) -> None:
    """The decision's choices listed in the LEGAL room, for a strategy that reads them
    there (a SIDE decision's are): UNROLL at a time, so that a mask of up to four
    choices takes one loop test."""
    if st[PHASE] == SIDE:
        return
    mask = st[CHOICES]
    k = 0
    while mask:
        for _ in range(UNROLL):
            st[LEGAL + k] = low_bit(mask | STOP)
            mask &= mask - 1
            k += 1


@kernel(forceinline=True)
def pick(st: np.ndarray, k: np.int64) -> np.int64:
    """Choice `k` of the decision's, in legal order, listed or not."""
    if st[PHASE] == SIDE:
        return st[LEGAL + k]
    return nth_bit(st[CHOICES], k)


@kernel(forceinline=True)
def side_choices(st: np.ndarray, gp: np.ndarray) -> None:
    board = st[EXP_BOARD + st[CURRENT]]
    for k in range(SIDES_PER_BOARD):
        st[LEGAL + k] = gp[gp[G_EXP_BOARD_SIDES] + board * SIDES_PER_BOARD + k]
    st[LEGAL_LEN] = SIDES_PER_BOARD


@kernel(forceinline=True)
def start_turn(st: np.ndarray, gp: np.ndarray) -> None:
    """The TAKE decision's choices (a dealt game's single one is applied by `play_simple`,
    a later one by the rules): each card's slots, its kind picked by selects (branch-free),
    as the bits of their actions. Typed once and inlined by LLVM, not a `step`: numba
    inlining it at its four sites (nested in the rules at two) took about a CPU-second more
    of a cold compile, at the same speed."""
    p = st[CURRENT]
    hand_len = st[HAND_LEN + p]
    if st[RECORD]:  # the turn's record starts blank, with the hand and display it saw
        rec = REC
        for i in range(RECORD_WIDTH):
            st[rec + i] = -1
        for i in (R_CARD_WILD, R_GARDENER, R_EXPANSION_POINTS, R_NOBLE_POINTS, R_SCORE):
            st[rec + i] = 0
        st[rec + R_TURN] = st[TURN]
        st[rec + R_SEAT] = p
        for i in range(hand_len):
            st[rec + R_HAND + i] = st[HANDS + HAND_SIZE * p + i]
        for slot in range(N_SLOTS):
            st[rec + R_DISPLAY + slot] = st[DISPLAY + slot]
    filled = st[FILLED]
    takes = np.int64(0)  # card i's slot s as the bit of its action, 10 * i + s
    for i in range(hand_len):
        card = st[HANDS + HAND_SIZE * p + i]
        kind = gp[G_CARD_KIND + card]
        own = st[SLOT_OF_SYMBOL + gp[G_CARD_SYMBOL + card]]  # not a symbol card's: unread
        slots = filled  # a joker's, or a symbol card's with its symbol not on display
        if kind == CARD_PAIR:
            slots = gp[G_CARD_SLOTS + card] & filled
        if kind == CARD_SYMBOL and own != 0:
            slots = own
        takes |= slots << (N_SLOTS * i)
    if takes == 0:  # every card discarded instead: DISCARD + i
        takes = ((np.int64(1) << hand_len) - 1) << DISCARD
    set_choices(st, takes)
    st[PHASE] = TAKE
