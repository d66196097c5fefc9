"""The layout of a recorded Splendor turn.

A recorded turn is one flat run of RECORD_WIDTH ints appended to `State.log`, so a
recording game allocates no object per turn and the log module hands whole games to
polars at once. The open part is written while the turn is played, the rest at its end;
the turn number and seat are the record's place in the log. The tokens a turn takes,
pays and returns (at most 7 of a colour) are packed PACK_BITS bits a colour, gold last.
"""

from __future__ import annotations

from sanssim.games.splendor.actions import (
    A_PASS,
    EMPTY,
    MAX_RESERVED,
    N_GEMS,
    N_LEVELS,
    N_SLOTS,
    TAKE_SETS,
)

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
OPEN_BLANK = (A_PASS, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, 0, 0, 0)  # a turn's open part
TAKE3_PACKED = tuple(sum(1 << PACK_BITS * c for c in colours) for colours in TAKE_SETS)
RESERVED_PAD = tuple((EMPTY,) * (MAX_RESERVED - k) for k in range(MAX_RESERVED + 1))
