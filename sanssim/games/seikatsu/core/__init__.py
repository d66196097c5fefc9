"""Seikatsu's compiled core: whole chunks of games in numba, the Python path's frames.

`SeikatsuCore` implements `sanssim.compiled.Core`. The rules are `engine`, the
strategies `strategies` and `lookahead`, the chunk loop `chunk`; `tables` turns a
`Game` into the flat table they read and `frames` turns their arrays into the log
module's frames. Nothing runs in Python per game or per turn.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import polars as pl

from sanssim.compiled import SEARCHING, CoreChunk, searching, seeding, strategy_family
from sanssim.compiled.seeding import stream_table
from sanssim.errors import ConfigError
from sanssim.games.seikatsu.config import GameConfig
from sanssim.games.seikatsu.core import frames
from sanssim.games.seikatsu.core.chunk import play_games
from sanssim.games.seikatsu.core.engine import LOG_HAND
from sanssim.games.seikatsu.core.lookahead import decide, float_work, int_work
from sanssim.games.seikatsu.core.strategies import GREEDY, HEURISTIC, ISMCTS, LOOKAHEAD, RANDOM
from sanssim.games.seikatsu.core.tables import (
    HMAX,
    MAX_CELLS,
    N_FLOWERS,
    N_ROWS,
    N_SIDES,
    N_STARTS,
    TURNS,
    compiled_form,
    game_table,
    state_array,
)
from sanssim.games.seikatsu.engine import BAG_STREAM, Game, State
from sanssim.games.seikatsu.plugin import GAME
from sanssim.games.seikatsu.strategies import GreedyStrategy, HeuristicStrategy
from sanssim.seeding import strategy_parts
from sanssim.strategies.base import StrategySpec
from sanssim.strategies.ismcts import IsmctsStrategy
from sanssim.strategies.lookahead import LookaheadStrategy
from sanssim.strategies.random import RandomStrategy

CODES = {
    RandomStrategy: RANDOM,
    GreedyStrategy: GREEDY,
    HeuristicStrategy: HEURISTIC,
    LookaheadStrategy: LOOKAHEAD,
    IsmctsStrategy: ISMCTS,
}
WEIGHTS = max(len(cls.params) for cls in CODES)
EXACT = 2.0**53  # parameters pass as doubles: integers below this round-trip exactly
LARGEST = 1e12  # weights beyond this could overflow a score to infinity, then NaN
POLICY = np.array([p.default for p in HeuristicStrategy.params], dtype=np.float64)


def _compiled_params(spec: StrategySpec) -> bool:
    """Parameters the compiled strategies replicate: finite numbers; `heuristic`'s
    fill and team not negative (a negative set size indexes the points table from its
    end in Python, or fails) and no weight so large that a score could be NaN (Python
    sorts NaNs its own way), `lookahead`'s counts exact as doubles, `ismcts`'s numbers
    too (its texts name choices)."""
    values = dict(spec.params)
    if spec.cls is IsmctsStrategy:
        values = {k: v for k, v in values.items() if not isinstance(v, str)}
    if not all(isinstance(v, int | float) and math.isfinite(v) for v in values.values()):
        return False
    if spec.cls is HeuristicStrategy:
        in_range = all(abs(v) <= LARGEST for v in values.values())
        return in_range and values["fill"] >= 0 and values["team"] >= 0
    return all(abs(v) < EXACT for v in values.values())


def _streams(game: Game) -> np.ndarray:
    """A game's streams: the bag's, then each seat's strategy stream's (`play_game`)."""
    return stream_table([(BAG_STREAM,), *(strategy_parts(p) for p in range(game.n_players))])


class SeikatsuCore:
    """The compiled fast path of Seikatsu (`sanssim.compiled.Core`)."""

    title = "the Seikatsu engine"

    def supports(self, specs: Sequence[StrategySpec]) -> bool:
        return all(spec.cls in CODES and _compiled_params(spec) for spec in specs)

    def family(self, specs: Sequence[StrategySpec] | None) -> str:
        return strategy_family(specs)

    def compile(self, family: str) -> None:
        game = Game(GameConfig())
        from sanssim.strategies import resolve

        names = ("random", "ismcts:iterations=2" if family == SEARCHING else "heuristic")
        specs = [resolve(name, "seikatsu") for name in names]
        self.play_chunk(game, specs, "", [spec.text for spec in specs], [(0, 0)], True)

    def play_chunk(
        self,
        game: Game,
        specs: Sequence[StrategySpec],
        run_id: str,
        strategies: Sequence[str],
        games: Sequence[tuple[int, int]],
        record: bool,
    ) -> CoreChunk:
        if not compiled_form(game):
            raise ConfigError(
                f"the compiled Seikatsu engine plays gardens of at most {MAX_CELLS} spaces, "
                f"this one has {game.n_cells}: play it with the Python engine"
            )
        t = game_table(game)
        n = game.n_players
        codes = np.array([CODES[spec.cls] for spec in specs], dtype=np.int64)
        weights = np.zeros((n, WEIGHTS), dtype=np.float64)
        for seat, spec in enumerate(specs):
            row = seat_weights(spec)
            weights[seat, : len(row)] = row
        count = len(games)
        log = np.full((count * t[TURNS] if record else 0, LOG_HAND + t[HMAX]), -1, np.int32)
        start = np.zeros((count, t[N_STARTS]), dtype=np.int64)
        scores = np.zeros((count, 4, n), dtype=np.int64)
        rows = np.zeros((count, t[N_SIDES], t[N_ROWS]), dtype=np.int64)
        ranks = np.zeros((count, t[N_SIDES]), dtype=np.int64)
        pairs = frames.id_pairs(games)
        seeds = np.ascontiguousarray(pairs[:, 1])
        streams = _streams(game)
        written = play_games(
            t,
            codes,
            weights,
            POLICY,
            seeds,
            streams,
            seeding.block_space(streams),
            record,
            log,
            start,
            scores,
            rows,
            ranks,
            searching(specs),
        )
        results = frames.result_frame(run_id, game, strategies, pairs, start, scores, rows, ranks)
        if not record:
            return CoreChunk(results, None)
        if not written:
            return CoreChunk(results, pl.DataFrame(schema=GAME.turn_schema))
        return CoreChunk(results, frames.turn_frame(run_id, game, pairs, log[:written]))

    def decide(self, state: State, spec: StrategySpec, stream: np.ndarray) -> int:
        """The compiled choice of `spec` for the seat to move in a Python `state`, drawing
        from `stream` (a compiled generator, advanced as the Python strategy's would be)."""
        t = game_table(state.game)
        s = state_array(state.game, state)
        return int(decide(t, s, CODES[spec.cls], seat_weights(spec), stream, *_work(t)))

    def search_terms(
        self, state: State, spec: StrategySpec, stream: np.ndarray
    ) -> list[tuple[int, float, float]]:
        """An `ismcts` spec's compiled search at `state`: each legal choice with its visits
        and mean reward, in legal order (`IsmctsStrategy.terms` before its sort)."""
        from sanssim.games.seikatsu.core.lookahead import ismcts

        t = game_table(state.game)
        s = state_array(state.game, state)
        visits, means = np.zeros(len(state.legal)), np.zeros(len(state.legal))
        ismcts(t, s, seat_weights(spec), stream, *_work(t), visits, means)
        return list(zip(state.legal, visits.tolist(), means.tolist(), strict=True))


def _work(t: np.ndarray) -> tuple[np.ndarray, ...]:
    """A single decision's work space: row stats, floats, ints, rollout weights, a log."""
    stats = np.zeros((max(1, t[N_SIDES]), t[N_ROWS], t[N_FLOWERS] + 4), dtype=np.int64)
    floats = float_work(t)
    log = np.zeros((0, LOG_HAND + t[HMAX]), dtype=np.int32)
    return stats, floats, int_work(t), POLICY, log


def seat_weights(spec: StrategySpec) -> np.ndarray:
    """A seat's parameters as the compiled strategies read them: in the class's order,
    `ismcts`'s as `sanssim.compiled.ismcts.parameters` gives them."""
    if spec.cls is IsmctsStrategy:
        from sanssim.compiled.ismcts import parameters

        return parameters(dict(spec.params))
    return np.array([value for _, value in spec.params] or [0.0], dtype=np.float64)
