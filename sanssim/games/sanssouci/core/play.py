"""A whole chunk of games in one compiled call: deal, decide, apply, score, log.

`play_games` fills preallocated arrays: one results row per (game, seat) with the
columns `log.RESULT_VALUES` names (int16 and column-major: the frame's columns are then
contiguous, and a chunk's results take a quarter of the memory), and, when recording,
one turn row per turn with the record fields of `layout` (`log.record_columns` makes
them columns) and every choice made, in order: its turn row and the action.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from sanssim.compiled import rng as mt
from sanssim.compiled import seeding
from sanssim.compiled.bits import low_bit
from sanssim.compiled.kernel import kernel
from sanssim.compiled.lowered import empty
from sanssim.games.sanssouci.actions import END, ROUNDS, TAKE
from sanssim.games.sanssouci.core.choices import step
from sanssim.games.sanssouci.core.deal import deal
from sanssim.games.sanssouci.core.ismcts import ismcts
from sanssim.games.sanssouci.core.layout import (
    CHOICES,
    CURRENT,
    G_N,
    G_N_TILES,
    LEGAL_LEN,
    PHASE,
    RECORD_WIDTH,
    SUPPLY,
)
from sanssim.games.sanssouci.core.lookahead import lookahead
from sanssim.games.sanssouci.core.rules import apply, apply_step
from sanssim.games.sanssouci.core.score import RESULT_WIDTH, score_game
from sanssim.games.sanssouci.core.strategies import (
    ISMCTS,
    LOOKAHEAD,
    RANDOM,
    choose_simple,
    random_pick,
)
from sanssim.games.sanssouci.core.weights import work_array


@kernel(allocates=True)
def choose(
    st: np.ndarray,
    gp: np.ndarray,
    kind: np.int64,
    w: np.ndarray,
    g: np.ndarray,
    work: np.ndarray,
    searching: bool | None,
) -> np.int64:
    """The current seat's choice by its strategy (`strategies` names the kinds; `work`: a
    `weights.work_array`). `searching` None: the seat plays random, greedy or heuristic,
    and numba prunes the searches' branch unseen (neither typed nor compiled); True: any."""
    if searching is not None:
        if kind == LOOKAHEAD:
            return lookahead(st, gp, w, g)
        if kind == ISMCTS:
            scratch = empty(st[LEGAL_LEN], np.float64)
            return ismcts(st, gp, w, g, scratch, scratch.copy())
    return choose_simple(st, gp, kind, w, g, work)


@nb.njit(cache=True)
def decide(
    st: np.ndarray, gp: np.ndarray, kind: np.int64, w: np.ndarray, g: np.ndarray, work: np.ndarray
) -> np.int64:
    """`choose`, any strategy, called from Python (`SanssouciCore.decide`)."""
    return choose(st, gp, kind, w, g, work, True)


@kernel
def play_simple(
    st: np.ndarray,
    gp: np.ndarray,
    gens: np.ndarray,
    base: int,
    kinds: np.ndarray,
    w: np.ndarray,
    record: bool,
    log: np.ndarray,
    pos: np.ndarray,
    picks: np.ndarray,
    picked: int,
    work: np.ndarray,
    ahead: np.ndarray,
) -> int:
    """Play the game in `st`, its streams `gens[base:]` (the game's, then each seat's),
    until it ends or a searching seat is to choose; returns `picked` advanced by the
    choices recorded. A kernel: a seat's generator is a view taken at every decision,
    and in reference-counted code a view costs two atomic operations, more than a
    random seat's whole choice; and the rules (`apply_step`) are inlined, since a call
    would pass their five arrays as 35 words at every decision. `ahead[p]`: random seat
    p's next `random()` (`draw_ahead`)."""
    while st[PHASE] != END:
        p = st[CURRENT]
        if st[PHASE] == TAKE and st[LEGAL_LEN] == 1:  # only a dealt game's first take: the
            action = low_bit(st[CHOICES])  # rules play every later forced one themselves
        elif kinds[p] == RANDOM:
            action = random_pick(st, ahead[p])
            ahead[p] = mt.random(gens[base + 1 + p])
            picked = record_choice(action, record, pos, picks, picked)
        elif kinds[p] < LOOKAHEAD:
            action = choose_simple(st, gp, kinds[p], w[p], gens[base + 1 + p], work)
            picked = record_choice(action, record, pos, picks, picked)
        else:
            break
        apply_step(st, gp, gens[base], action, log, pos)
    return picked


# The most words a random seat's stream gives in a game: a `random()` (two words) for its
# first draw ahead and after each of its choices, at most its side and three a turn.
RANDOM_WORDS = 2 * (1 + 1 + 3 * ROUNDS)


@kernel
def draw_ahead(gens: np.ndarray, base: int, kinds: np.ndarray, ahead: np.ndarray) -> None:
    """Each random seat's first `random()` into `ahead`, before the game's first decision:
    play_simple then draws a seat's next one as soon as it has chosen, so that no decision
    waits on its draw. Each stream gives the same draws in the same order; the one left
    over at the game's end is never used (the next game's streams are seeded anew)."""
    for p in range(ahead.shape[0]):
        if kinds[p] == RANDOM:
            ahead[p] = mt.random(gens[base + 1 + p])


@step
def record_choice(
    action: np.int64, record: bool, pos: np.ndarray, picks: np.ndarray, picked: int
) -> int:
    """Record a seat's choice (its turn row, the action) when `record`; returns `picked`
    advanced by it."""
    if record:
        picks[picked, 0] = pos[0]
        picks[picked, 1] = action
        picked += 1
    return picked


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
    picks: np.ndarray,
    space: tuple,
    searching: bool | None,
) -> int:
    """Play game k from `seeds[k]`, seat p's strategy `kinds[p]` (weights `w[p]`);
    `streams` (`seeding.stream_table`) seeds the game's stream, then each seat's.
    Results rows k * n + p; turn rows and choices in order when `record`. Returns the
    number of choices written, or -1 if a random seat's stream was read past the words
    seeded for it (`RANDOM_WORDS`: it cannot be). `space`: a `work_space`. `searching`:
    None when no seat searches (`choose`), so that such a chunk compiles, and loads,
    without lookahead and ismcts."""
    n = gp[G_N]
    st, seeder, pos, work, scores, ahead = space
    gens = seeder[0]
    picked = np.int64(0)  # not the literal 0: play_simple would compile twice
    for k in range(seeds.shape[0]):
        base = k % seeding.BLOCK_GAMES * (n + 1)
        if base == 0:
            seeding.seed_games(streams, seeds, k, seeder)
        g = gens[base]
        deal(st, gp, g, record)
        draw_ahead(gens, base, kinds, ahead)
        picked = play_simple(
            st, gp, gens, base, kinds, w, record, log, pos, picks, picked, work, ahead
        )
        if searching is not None:  # else play_simple played the whole game: numba prunes
            while st[PHASE] != END:  # this loop, and a simple chunk compiles no `apply`
                p = st[CURRENT]
                action = choose(st, gp, kinds[p], w[p], gens[base + 1 + p], work, searching)
                picked = record_choice(action, record, pos, picks, picked)
                apply(st, gp, g, action, log, pos)
                picked = play_simple(
                    st, gp, gens, base, kinds, w, record, log, pos, picks, picked, work, ahead
                )
        score_game(st, gp, scores)
        for p in range(n):
            for i in range(RESULT_WIDTH):
                results[k * n + p, i] = scores[p, i]
            if kinds[p] == RANDOM and not seeding.drawn_within(seeder, base + 1 + p, 1 + p):
                return -1  # past its RANDOM_WORDS: a numba `raise` cost 0.25 CPU-s to compile
    return picked


def work_space(gp: np.ndarray, streams: np.ndarray, kinds: np.ndarray) -> tuple[np.ndarray, ...]:
    """What `play_games` works in: the state, the seeding's space (the block's generators
    first: `seeding.block_space`, a random seat's only RANDOM_WORDS deep), the turn log's
    position, a decision's work space, `score_game`'s rows and the random seats' next
    draws. Allocated here: each array constructor numba compiles costs a cold compile
    about 0.05 CPU-s."""
    words = [mt.N] + [RANDOM_WORDS if kind == RANDOM else mt.N for kind in kinds]
    return (
        np.zeros(SUPPLY + gp[G_N_TILES] + 1, dtype=np.int64),
        seeding.block_space(streams, words),
        np.zeros(1, dtype=np.int64),
        work_array(),
        np.zeros((gp[G_N], RESULT_WIDTH), dtype=np.int64),
        np.zeros(gp[G_N]),
    )


def result_arrays(
    games: int, n: int, turns: int, record: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Preallocated results, turn-log and choice arrays for `games` games of `n` seats: a
    game's choices are its seats' expansion sides and at most three a turn (take, place,
    noble)."""
    results = np.zeros((RESULT_WIDTH, games * n), dtype=np.int16).T
    log = np.zeros((games * turns if record else 0, RECORD_WIDTH), dtype=np.int16)
    picks = np.zeros((games * (n + 3 * turns) if record else 0, 2), dtype=np.int64)
    return results, log, picks
