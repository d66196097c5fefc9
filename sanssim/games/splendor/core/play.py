"""Whole chunks of Splendor games in one compiled call: deal, play, results and turn log.

Per game the caller gives the game seed and a stream table (`sanssim.compiled.seeding`:
three decks, the nobles, then each seat's strategy stream, as `State.__init__` and
`play_game` derive them); per seat a strategy kind and its parameters. Out come a
results row per seat, a row per game and, when recording, every turn record in game order
and every choice made (its turn record's row, the action), in order.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from sanssim.compiled import seeding
from sanssim.compiled.kernel import kernel
from sanssim.compiled.lowered import empty, zeros
from sanssim.games.splendor.actions import N_GEMS, N_LEVELS
from sanssim.games.splendor.core.deal import deal
from sanssim.games.splendor.core.layout import (
    C_MAX_ROUNDS,
    C_N,
    C_NOBLES,
    C_TIES_LATER,
    H_CURRENT,
    H_END_REASON,
    H_N_LEGAL,
    H_TURN,
    IN_PLAY,
    MAX_LEGAL,
    P_BONUS,
    P_CARDS,
    P_N_RESERVED,
    P_NOBLE_POINTS,
    P_NOBLES,
    P_PASSES,
    P_POINTS,
    P_TOKENS,
)
from sanssim.games.splendor.core.position import new_work
from sanssim.games.splendor.core.rules import apply, settle
from sanssim.games.splendor.core.state import copy, inline, ranks_of, seat
from sanssim.games.splendor.core.strategies import (
    FAILED,
    ISMCTS,
    LOOKAHEAD,
    choose,
    choose_simple,
)
from sanssim.games.splendor.record import RECORD_WIDTH

# a results row per seat
(
    S_POINTS,
    S_CARD_POINTS,
    S_NOBLE_POINTS,
    S_CARDS,
    S_NOBLES,
    S_RESERVED_LEFT,
    S_PASSES,
    S_RANK,
) = range(8)
S_BONUSES = S_RANK + 1
S_TOKENS = S_BONUSES + N_GEMS
SEAT_ROW = S_TOKENS + N_GEMS + 1
# a row per game: rounds, end reason, the nobles in play
G_ROUNDS, G_END_REASON, G_IN_PLAY = 0, 1, 2
STREAMS_BEFORE_SEATS = N_LEVELS + 1  # deck 1-3, nobles


@inline
def _results(S: np.ndarray, cfg: np.ndarray, seats: np.ndarray, games: np.ndarray, i: int) -> None:
    """Game `i`'s results: seat rows from `i * players`, its game row."""
    n = cfg[C_N]
    ranks = zeros(n, np.int64)
    ranks_of(S, n, cfg[C_TIES_LATER], ranks)
    for p in range(n):
        base = seat(p)
        row = seats[i * n + p]
        row[S_POINTS] = S[base + P_POINTS]
        row[S_NOBLE_POINTS] = S[base + P_NOBLE_POINTS]
        row[S_CARD_POINTS] = S[base + P_POINTS] - S[base + P_NOBLE_POINTS]
        row[S_CARDS] = S[base + P_CARDS]
        row[S_NOBLES] = S[base + P_NOBLES]
        row[S_RESERVED_LEFT] = S[base + P_N_RESERVED]
        row[S_PASSES] = S[base + P_PASSES]
        row[S_RANK] = ranks[p]
        copy(row, S_BONUSES, S, base + P_BONUS, N_GEMS)
        copy(row, S_TOKENS, S, base + P_TOKENS, N_GEMS + 1)
    games[i, G_ROUNDS] = S[H_TURN] // n
    games[i, G_END_REASON] = S[H_END_REASON]
    for k in range(cfg[C_NOBLES]):
        games[i, G_IN_PLAY + k] = S[IN_PLAY + k]


@kernel
def _copy_rows(dst: np.ndarray, src: np.ndarray, count: int) -> None:
    for i in range(count):
        for k in range(src.shape[1]):
            dst[i, k] = src[i, k]


@kernel(allocates=True)
def _grown(picks: np.ndarray) -> np.ndarray:
    """`picks` in twice the rows; copied by `_copy_rows`, since a slice assignment
    compiles numba's shape check and its message, seconds of a cold compile."""
    bigger = empty((2 * len(picks), 2), np.int64)
    _copy_rows(bigger, picks, len(picks))
    return bigger


@nb.njit(cache=True)
def play_games(
    cfg: np.ndarray,
    cards: np.ndarray,
    nobles: np.ndarray,
    size: int,
    seeds: np.ndarray,
    streams: np.ndarray,
    seeder: tuple,
    kinds: np.ndarray,
    params: np.ndarray,
    record: int,
    searching: bool | None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Play one game per game seed in `seeds`, its streams drawn as `streams` says, from the
    generators of `seeder` (`seeding.block_space`); (seat rows, game rows, turns per game,
    records, choices). A game where a strategy fails stops there: its end reason is
    FAILED, it logs no turn. `searching`: None when no seat searches, so that numba
    prunes the searches' branch and such a chunk compiles, and loads, without them."""
    games = seeds.shape[0]
    n = cfg[C_N]
    S = zeros(size, np.int64)
    gens = seeder[0]
    most = cfg[C_MAX_ROUNDS] * n if record else 0  # turns a game can last
    seats = zeros((games * n, SEAT_ROW), np.int64)
    per_game = zeros((games, G_IN_PLAY + cfg[C_NOBLES]), np.int64)
    turns = zeros(games, np.int64)
    log = empty((games * n * 24 + most if record else 1, RECORD_WIDTH), np.int32)
    rows = np.int64(0)  # not the literal 0: `_copy_rows` would compile for it too
    picks = empty((64 if record else 1, 2), np.int64)
    picked = 0
    work = new_work()
    scores = empty(MAX_LEGAL, np.float64)
    for i in range(games):
        if rows + most > len(log):
            grown = empty((len(log) * 3 // 2 + most, RECORD_WIDTH), np.int32)
            _copy_rows(grown, log, rows)
            log = grown
        game_log = log[rows:]
        base = i % seeding.BLOCK_GAMES * streams.shape[0]
        if base == 0:
            seeding.seed_games(streams, seeds, i, seeder)
        deal(S, cfg, cards, record, gens, base)
        settle(S, cfg, cards, nobles, game_log)
        first_pick = picked
        while S[H_N_LEGAL] > 0:
            p = S[H_CURRENT]
            g = gens[base + STREAMS_BEFORE_SEATS + p]
            if kinds[p] != LOOKAHEAD and kinds[p] != ISMCTS:  # a kernel: no reference counts
                action = choose_simple(S, cfg, cards, nobles, kinds[p], params[p], g, work, scores)
            elif searching is None:
                raise ValueError("a searching seat in a chunk compiled without the searches")
            else:
                action = choose(S, cfg, cards, nobles, kinds[p], params[p], g, work, scores)
            if action == FAILED:
                break
            if record:
                if picked == len(picks):
                    picks = _grown(picks)
                picks[picked, 0] = rows + S[H_TURN]
                picks[picked, 1] = action
                picked += 1
            apply(S, cfg, cards, nobles, game_log, action)
        _results(S, cfg, seats, per_game, i)
        if S[H_N_LEGAL] > 0:
            per_game[i, G_END_REASON] = FAILED
            picked = first_pick
        elif record:
            turns[i] = S[H_TURN]
            rows += S[H_TURN]
    return seats, per_game, turns, log[:rows], picks[:picked]
