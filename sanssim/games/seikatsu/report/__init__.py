"""Seikatsu's own report sections, after the generic ones, one module each (helpers in
`shared`).

Sides and the tie-break, birds against flowers, what a koi is worth, flower rows by
length, tournament mode against the standard game, and the player count. A side is a
seat, or a team with 4 players (`measures.sides`); every per-side figure of a 4-player
arm is a team's (two players' birds, one pagoda). Intervals are 95%: Wilson for rates
over independent units, t for means; wherever several values of one game enter (its
rows, its sides, its koi), they are first averaged within the game, so that the game is
the unit, or (shares of the koi) the Wilson interval is made cluster-robust over games.
"""

from __future__ import annotations

from collections.abc import Callable

from sanssim.analysis.section import Context, Section
from sanssim.games.seikatsu.report import (
    birds_and_flowers,
    flower_rows,
    koi,
    player_count,
    sides_and_ties,
    tournament_mode,
)

SECTIONS: tuple[Callable[[Context], Section], ...] = (
    sides_and_ties.build,
    birds_and_flowers.build,
    koi.build,
    flower_rows.build,
    tournament_mode.build,
    player_count.build,
)
