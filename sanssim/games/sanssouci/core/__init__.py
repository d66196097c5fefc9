"""Sanssouci's compiled core: the engine and its built-in strategies in numba.

`SanssouciCore` implements `sanssim.compiled.Core`. Importing this package does not
import numba; the compiled modules load on the first `compile` or `play_chunk`.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import TYPE_CHECKING

import numpy as np

from sanssim.compiled import SEARCHING, CoreChunk, searching, strategy_family
from sanssim.games.sanssouci.actions import ROUNDS
from sanssim.games.sanssouci.engine import Game, State
from sanssim.games.sanssouci.strategies.greedy import GreedyStrategy
from sanssim.games.sanssouci.strategies.heuristic import HeuristicStrategy, TunedHeuristicStrategy
from sanssim.seeding import strategy_parts
from sanssim.strategies.ismcts import IsmctsStrategy
from sanssim.strategies.lookahead import LookaheadStrategy
from sanssim.strategies.random import RandomStrategy

if TYPE_CHECKING:
    from sanssim.strategies.base import StrategySpec

# Strategy classes with a compiled form, by their kind in `core.strategies`.
_KINDS = {
    RandomStrategy: 0,
    GreedyStrategy: 1,
    HeuristicStrategy: 2,
    TunedHeuristicStrategy: 2,
    LookaheadStrategy: 3,
    IsmctsStrategy: 4,
}
# the strategies that draw from their stream
_DRAWING = (RandomStrategy, LookaheadStrategy, IsmctsStrategy)


class SanssouciCore:
    """Whole chunks of Sanssouci games in compiled code (see `sanssim.compiled`)."""

    name = "sanssouci"
    title = "the Sanssouci engine"

    def supports(self, specs: Sequence[StrategySpec]) -> bool:
        return all(spec.cls in _KINDS for spec in specs)

    def family(self, specs: Sequence[StrategySpec] | None) -> str:
        return strategy_family(specs)

    def compile(self, family: str) -> None:
        from sanssim.games.sanssouci.config import GameConfig
        from sanssim.strategies import resolve

        game = Game(GameConfig(n_players=4, expansion=True, duplicate_reshuffle=True))
        names = ["random", "greedy", "heuristic", "heuristic"]
        if family == SEARCHING:
            names[2:] = ["lookahead:rollouts=2", "ismcts:iterations=2"]
        specs = [resolve(s) for s in names]
        self.play_chunk(game, specs, "compile", [s.text for s in specs], [(0, 1)], True)

    def play_chunk(
        self,
        game: Game,
        specs: Sequence[StrategySpec],
        run_id: str,
        strategies: Sequence[str],
        games: Sequence[tuple[int, int]],
        record: bool,
    ) -> CoreChunk:
        from sanssim.compiled.seeding import GAME_SEED, UNUSED, stream_table
        from sanssim.games.logs import results_frame, turns_frame, with_chosen
        from sanssim.games.sanssouci import log
        from sanssim.games.sanssouci.core.layout import R_DISPLAY, R_HAND, RECORD_WIDTH, pack_game
        from sanssim.games.sanssouci.core.play import play_games, result_arrays, work_space
        from sanssim.games.sanssouci.plugin import GAME

        n = game.n_players
        ids = np.fromiter(chain.from_iterable(games), np.int64, 2 * len(games)).reshape(-1, 2)
        kinds = np.array([_KINDS[spec.cls] for spec in specs], dtype=np.int64)
        seats = [
            strategy_parts(p) if spec.cls in _DRAWING else UNUSED for p, spec in enumerate(specs)
        ]
        streams = stream_table([GAME_SEED, *seats])
        w = np.stack([seat_weights(spec) for spec in specs])
        turns = ROUNDS * n
        results, turn_log, picks = result_arrays(len(ids), n, turns, record)
        seeds = ids[:, 1].copy()
        gp = pack_game(game)
        picked = play_games(
            gp,
            seeds,
            streams,
            kinds,
            w,
            record,
            results,
            turn_log,
            picks,
            work_space(gp, streams, kinds),
            searching(specs),
        )
        if picked < 0:
            raise RuntimeError("a random seat drew more than RANDOM_WORDS words in a game")
        own = log.seat_columns(game, results)
        cols = {"game_id": np.repeat(ids[:, 0], n), "game_seed": np.repeat(ids[:, 1], n), **own}
        frame = results_frame(run_id, GAME.name, n, strategies, cols, GAME.result_schema)
        if not record:
            return CoreChunk(frame, None)
        columns = log.record_columns(
            game,
            np.repeat(ids[:, 0], turns),
            [turn_log[:, i] for i in range(R_HAND)],
            turn_log[:, R_HAND:R_DISPLAY].ravel(),
            turn_log[:, R_DISPLAY:RECORD_WIDTH].ravel(),
        )
        turn_frame = turns_frame(run_id, n, columns, GAME.turn_schema)
        rows = picks[:picked, 0]
        chosen = (ids[rows // turns, 0], rows % turns, picks[:picked, 1])
        return CoreChunk(frame, with_chosen(turn_frame, *chosen))

    def decide(self, state: State, spec: StrategySpec, g: np.ndarray) -> int:
        """What `spec`'s compiled form chooses at `state`'s decision, its stream `g` (a
        `sanssim.compiled.rng` generator, advanced by the draws it makes)."""
        from sanssim.games.sanssouci.core.layout import pack_game, state_array
        from sanssim.games.sanssouci.core.play import decide
        from sanssim.games.sanssouci.core.weights import work_array

        kind = _KINDS[spec.cls]
        st, gp = state_array(state), pack_game(state.game)
        return int(decide(st, gp, kind, seat_weights(spec), g, work_array()))

    def search_terms(
        self, state: State, spec: StrategySpec, g: np.ndarray
    ) -> list[tuple[int, float, float]]:
        """An `ismcts` spec's compiled search at `state`: each legal choice with its visits
        and mean reward, in legal order (`IsmctsStrategy.terms` before its sort)."""
        from sanssim.games.sanssouci.core.ismcts import ismcts
        from sanssim.games.sanssouci.core.layout import pack_game, state_array

        visits, means = np.zeros(len(state.legal)), np.zeros(len(state.legal))
        ismcts(state_array(state), pack_game(state.game), seat_weights(spec), g, visits, means)
        return list(zip(state.legal, visits.tolist(), means.tolist(), strict=True))


def seat_weights(spec: StrategySpec) -> np.ndarray:
    """A seat's weight row (`core.weights.weights`): its heuristic's weights, and for
    lookahead and ismcts those of the game's rollout strategy at its defaults, as the Python
    searches make it."""
    from sanssim.compiled.ismcts import parameters
    from sanssim.games.sanssouci.core.weights import weights
    from sanssim.games.sanssouci.plugin import GAME

    params = dict(spec.params)
    policy = GAME.strategies()[GAME.rollout_strategy]
    defaults = {p.name: p.default for p in policy.params}
    if spec.cls is LookaheadStrategy:
        return weights(defaults, params["rollouts"], params["width"])
    if spec.cls is IsmctsStrategy:
        return weights(defaults, search=parameters(params))
    if spec.cls in (HeuristicStrategy, TunedHeuristicStrategy):
        return weights(params)
    return weights({})
