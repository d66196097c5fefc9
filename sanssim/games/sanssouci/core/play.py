"""A whole chunk of games in one compiled call: deal, decide, apply, score, log.

`play_games` fills preallocated arrays: one results row per (game, seat) with the
columns `log.RESULT_VALUES` names, and, when recording, one turn row per turn with
the record fields of `layout` (`log.turn_frame_from_records` makes them frames).
"""

from __future__ import annotations

import numba as nb
import numpy as np

from sanssim.compiled import rng as mt
from sanssim.compiled import seeding
from sanssim.games.sanssouci.core.deal import deal
from sanssim.games.sanssouci.core.layout import (
    CURRENT,
    G_N,
    G_N_TILES,
    LEGAL,
    LEGAL_LEN,
    PHASE,
    RECORD_WIDTH,
    SUPPLY,
)
from sanssim.games.sanssouci.core.lookahead import lookahead
from sanssim.games.sanssouci.core.rules import apply, settle
from sanssim.games.sanssouci.core.score import RESULT_WIDTH, score_game
from sanssim.games.sanssouci.core.strategies import LOOKAHEAD, RANDOM, best_by_score
from sanssim.games.sanssouci.engine import END


@nb.njit(cache=True)
def choose(
    st: np.ndarray, gp: np.ndarray, kind: np.int64, w: np.ndarray, g: np.ndarray
) -> np.int64:
    """The current seat's choice by its strategy (`strategies` names the kinds)."""
    if kind == RANDOM:
        return st[LEGAL + np.int64(mt.random(g) * st[LEGAL_LEN])]
    if kind == LOOKAHEAD:
        return lookahead(st, gp, w, g)
    return best_by_score(st, gp, kind, w)


@nb.njit(cache=True)
def play_games(
    gp: np.ndarray,
    seeds: np.ndarray,
    streams: np.ndarray,
    kinds: np.ndarray,
    w: np.ndarray,
    record: bool,
    results: np.ndarray,
    log: np.ndarray,
) -> None:
    """Play game k from `seeds[k]`, seat p's strategy `kinds[p]` (weights `w[p]`);
    `streams` (`seeding.stream_table`) seeds the game's stream, then each seat's.
    Results rows k * n + p; turn rows in order when `record`."""
    n = gp[G_N]
    st = np.zeros(SUPPLY + gp[G_N_TILES] + 1, dtype=np.int64)
    gens = seeding.new_block(streams)
    pos = np.zeros(1, dtype=np.int64)
    for k in range(seeds.shape[0]):
        base = k % seeding.BLOCK_GAMES * (n + 1)
        if base == 0:
            seeding.seed_games(streams, seeds, k, gens)
        g = gens[base]
        deal(st, gp, g, record)
        settle(st, gp, g, log, pos)
        while st[PHASE] != END:
            p = st[CURRENT]
            action = choose(st, gp, kinds[p], w[p], gens[base + 1 + p])
            apply(st, gp, g, action, log, pos)
        score_game(st, gp, results[k * n : (k + 1) * n])


def result_arrays(games: int, n: int, turns: int, record: bool) -> tuple[np.ndarray, np.ndarray]:
    """Preallocated results and turn-log arrays for `games` games of `n` seats."""
    results = np.zeros((games * n, RESULT_WIDTH), dtype=np.int64)
    log = np.zeros((games * turns if record else 0, RECORD_WIDTH), dtype=np.int16)
    return results, log
