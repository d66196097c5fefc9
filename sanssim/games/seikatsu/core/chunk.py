"""A whole chunk of Seikatsu games in one compiled call, `play_game` step for step.

Each game's bag stream and every seat's strategy stream are seeded as `sanssim.seeding`
derives them (`sanssim.compiled.seeding`, a block of games at a time); a game deals, and
asks the seat to move while it has a choice; forced turns after a choice are played by
`apply`, as `State.apply_action` does, so a strategy draws exactly when its Python
version is asked. Turn rows go into one preallocated log block; each game's scores into
per-game arrays.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from sanssim.compiled import seeding
from sanssim.compiled.kernel import kernel
from sanssim.compiled.lowered import larger, zeros
from sanssim.games.seikatsu.core.engine import (
    LOG_ACTION,
    LOG_GAME,
    apply,
    deal,
    new_state,
    row_points,
    side_ranks,
)
from sanssim.games.seikatsu.core.lookahead import choose, choose_any, float_work, int_work
from sanssim.games.seikatsu.core.strategies import LOOKAHEAD, RANDOM, choose_random
from sanssim.games.seikatsu.core.tables import (
    CURRENT,
    N_FLOWERS,
    N_KINDS,
    N_LEGAL,
    N_PLAYERS,
    N_ROWS,
    N_SIDES,
    N_STARTS,
    S_KOI_PLAYED,
    S_OWN,
    S_SIDE_SCORE,
    S_START,
    T_SIDE_PAGODA,
)


@nb.njit(cache=True)
def play_games(
    t, codes, weights, policy, seeds, streams, seeder: tuple, record: bool, log, start,
    scores, rows, ranks, searching: bool | None,
):  # fmt: skip
    """Play one game per game seed in `seeds`, its streams the bag's, then each seat's
    (`streams`, a `seeding.stream_table`; `seeder`, its `seeding.block_space`). Writes the turn
    log (with `record`), and per game: start tiles, scores (side bird points, side
    totals, own bird points, koi played), each side's row points and ranks. Returns the
    number of log rows written. `searching`: None when no seat searches, so that numba
    prunes the searches' branch and such a chunk compiles, and loads, without them."""
    n = t[N_PLAYERS]
    sides = t[N_SIDES]
    s = new_state(t)
    gens = seeder[0]
    stats = zeros((larger(1, sides), t[N_ROWS], t[N_FLOWERS] + 4), np.int64)
    floats = float_work(t)
    ints = int_work(t)
    totals = zeros(sides, np.int64)
    place = zeros(sides, np.int64)
    counts = zeros(t[N_KINDS], np.int64)
    row = 0 if record else -1
    for gi in range(seeds.shape[0]):
        base = gi % seeding.BLOCK_GAMES * (n + 1)
        if base == 0:
            seeding.seed_games(streams, seeds, gi, seeder)
        deal(t, s, gens[base], counts)
        first = row
        while True:
            row = _turns(t, s, codes, weights, gens, base, stats, floats, ints, policy, log, row)
            if s[N_LEGAL] == 0:
                break
            if searching is None:
                raise ValueError("a searching seat in a chunk compiled without the searches")
            p = s[CURRENT]  # a lookahead or ismcts seat to move
            g = gens[base + 1 + p]
            action = choose_any(t, s, codes[p], weights[p], g, stats, floats, ints, policy, log)
            row = _apply(t, s, action, log, row)
        if record:
            log[first:row, LOG_GAME] = gi
        for i in range(t[N_STARTS]):
            start[gi, i] = s[t[S_START] + i]
        for side in range(sides):  # each row's points once: `side_totals` from them
            pagoda = t[t[T_SIDE_PAGODA] + side]
            totals[side] = s[t[S_SIDE_SCORE] + side]
            for k in range(t[N_ROWS]):
                rows[gi, side, k] = row_points(t, s, pagoda, k)
                totals[side] += rows[gi, side, k]
        side_ranks(t, totals, place)
        for side in range(sides):
            scores[gi, 0, side] = s[t[S_SIDE_SCORE] + side]
            scores[gi, 1, side] = totals[side]
            ranks[gi, side] = place[side]
        for p in range(n):
            scores[gi, 2, p] = s[t[S_OWN] + p]
            scores[gi, 3, p] = s[t[S_KOI_PLAYED] + p]
    return larger(row, 0)


@kernel
def _turns(
    t, s, codes, weights, gens, base: int, stats, floats, ints, policy, log, row: int
) -> int:
    """The game's turns until it ends or a `lookahead` or `ismcts` seat is to move (the
    searches compile only for a chunk that has one, and `ismcts` allocates: not a kernel),
    game `base`'s seat p drawing from `gens[base + 1 + p]`.
    A kernel, so that neither the generators' views nor the calls count references."""
    while s[N_LEGAL] > 0:
        p = s[CURRENT]
        g = gens[base + 1 + p]
        if codes[p] == RANDOM:
            action = choose_random(t, s, g)
        elif codes[p] >= LOOKAHEAD:
            return row
        else:
            action = choose(t, s, codes[p], weights[p], g, stats, floats, ints, policy, log)
        row = _apply(t, s, action, log, row)
    return row


@kernel
def _apply(t, s, action: np.int64, log, row: int) -> int:
    """`apply` of a seat's choice, the choice written to its log row (when logging)."""
    if row >= 0:
        log[row, LOG_ACTION] = action
    return apply(t, s, action, log, row)
