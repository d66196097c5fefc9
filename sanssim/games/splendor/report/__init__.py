"""Splendor's own report sections, after the generic ones (seat balance, scores, length,
points by source): the first player's edge and the point target, how games end, points by
card level and what a noble is worth, return on gems, reserves, bonus colours, and the
token supply against the player count; one module each, helpers in `shared`.

Card facts (level, points) come from each run's manifest (`components.cards`), so a run
with its own deck is reported on its own cards. Parts that need the turn log (card levels,
payments, reserves) are skipped, with the reason, for arms run with `--no-turn-log`.
"""

from __future__ import annotations

from sanssim.games.splendor.report import (
    colours,
    first_player,
    gems,
    length,
    points,
    reserves,
    supply,
)

SECTIONS = (
    first_player.build,
    length.build,
    points.build,
    gems.build,
    reserves.build,
    colours.build,
    supply.build,
)
