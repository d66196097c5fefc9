"""Splendor's compiled core: the `sanssim.compiled.Core` of the Splendor game type.

`play_chunk` describes each game's streams (as `State.__init__` and `play_game` seed them),
plays the whole chunk in one compiled call (`play.play_games`) and builds the frames with
the shared frame builders (`sanssim.games.logs`) and the log module's own columns, so
names, types and row order are the Python path's by construction.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import polars as pl

from sanssim.compiled import SEARCHING, ChunkRefused, CoreChunk, searching, seeding, strategy_family
from sanssim.compiled.seeding import UNUSED, stream_table
from sanssim.games.logs import results_frame, turns_frame, with_chosen
from sanssim.games.splendor.actions import END_REASONS, N_GEMS, N_LEVELS
from sanssim.games.splendor.config import GameConfig
from sanssim.games.splendor.core import layout
from sanssim.games.splendor.core.play import (
    G_END_REASON,
    G_IN_PLAY,
    G_ROUNDS,
    S_BONUSES,
    S_CARD_POINTS,
    S_CARDS,
    S_NOBLE_POINTS,
    S_NOBLES,
    S_PASSES,
    S_POINTS,
    S_RANK,
    S_RESERVED_LEFT,
    S_TOKENS,
    play_games,
)
from sanssim.games.splendor.core.strategies import (
    FAILED,
    GREEDY,
    HEURISTIC,
    ISMCTS,
    LOOKAHEAD,
    RANDOM,
)
from sanssim.games.splendor.engine import NOBLES_STREAM, Game, deck_stream
from sanssim.games.splendor.log import seat_columns, table_columns
from sanssim.games.splendor.plugin import GAME
from sanssim.seeding import strategy_parts
from sanssim.strategies.base import StrategySpec

MAX_PARAMS = 16


class CompiledGameFailed(ChunkRefused):
    """A chunk the core cannot play through: the Python path must, to record failures."""


def _kinds() -> dict[type, int]:
    from sanssim.games.splendor.strategies import GreedyStrategy, HeuristicStrategy
    from sanssim.strategies.ismcts import IsmctsStrategy
    from sanssim.strategies.lookahead import LookaheadStrategy
    from sanssim.strategies.random import RandomStrategy

    return {
        RandomStrategy: RANDOM,
        GreedyStrategy: GREEDY,
        HeuristicStrategy: HEURISTIC,
        LookaheadStrategy: LOOKAHEAD,
        IsmctsStrategy: ISMCTS,
    }


def game_streams(specs: Sequence[StrategySpec]) -> np.ndarray:
    """A game's streams in the order `play_games` draws them: the decks, the nobles, then
    each seat's strategy stream (`strategy_rng`), left unseeded for seats that never draw."""
    kinds = _kinds()
    seats = [
        strategy_parts(p) if kinds[s.cls] in (RANDOM, LOOKAHEAD, ISMCTS) else UNUSED
        for p, s in enumerate(specs)
    ]
    decks = [(deck_stream(level),) for level in range(1, N_LEVELS + 1)]
    return stream_table([*decks, (NOBLES_STREAM,), *seats])


def seat_arrays(specs: Sequence[StrategySpec]) -> tuple[np.ndarray, np.ndarray]:
    """Each seat's compiled strategy kind, and its parameters in the class's order
    (`ismcts`'s as `sanssim.compiled.ismcts.parameters` gives them), read-only: the
    rollouts score by constant weights (`rollout.ROLLOUT_PARAMS`), which numba types as
    read-only, and `heuristic_scores` given both kinds of array would compile twice."""
    from sanssim.compiled.ismcts import parameters

    kinds = _kinds()
    params = np.zeros((len(specs), MAX_PARAMS), dtype=np.float64)
    for p, spec in enumerate(specs):
        if kinds[spec.cls] == ISMCTS:
            values = parameters(dict(spec.params)).tolist()
        else:
            values = [float(v) for _, v in spec.params]
        params[p, : len(values)] = values
    params.flags.writeable = False
    return np.array([kinds[spec.cls] for spec in specs], dtype=np.int64), params


class SplendorCore:
    """Plays Splendor chunks compiled when every seat's strategy has a compiled form."""

    __slots__ = ()
    title = "the Splendor engine"

    def supports(self, specs: Sequence[StrategySpec]) -> bool:
        kinds = _kinds()
        return all(spec.cls in kinds and spec.game == "splendor" for spec in specs)

    def family(self, specs: Sequence[StrategySpec] | None) -> str:
        return strategy_family(specs)

    def compile(self, family: str) -> None:
        """Compile (or load from numba's cache) by playing one tiny chunk."""
        from sanssim.strategies import resolve

        game = Game(GameConfig())
        names = ("random", "ismcts:iterations=2" if family == SEARCHING else "heuristic")
        specs = [resolve(name, "splendor") for name in names]
        self.play_chunk(game, specs, "compile", list(names), [(0, 1)], True)

    def play_chunk(
        self,
        game: Game,
        specs: Sequence[StrategySpec],
        run_id: str,
        strategies: Sequence[str],
        games: Sequence[tuple[int, int]],
        record: bool,
    ) -> CoreChunk:
        cfg, cards, nobles = layout.tables(game)
        seeds = np.array([seed for _, seed in games], dtype=np.int64)
        streams = game_streams(specs)
        seat_kinds, params = seat_arrays(specs)
        seats, per_game, turns, log, picks = play_games(
            cfg,
            cards,
            nobles,
            layout.state_size(game),
            seeds,
            streams,
            seeding.block_space(streams),
            seat_kinds,
            params,
            int(record),
            searching(specs),
        )
        failed = [games[i][0] for i in np.flatnonzero(per_game[:, G_END_REASON] == FAILED)]
        if failed:
            raise CompiledGameFailed(
                f"games {failed}: a strategy fails where its Python version raises; "
                "play this chunk in Python to record the failures"
            )
        results = _results(run_id, game, strategies, games, seats, per_game)
        if not record:
            return CoreChunk(results, None)
        ids = [game_id for game_id, _ in games]
        return CoreChunk(results, _turns(run_id, game, ids, turns, log, picks))

    def decide(self, state: Any, spec: StrategySpec, g: np.ndarray) -> int:
        """What `spec`'s compiled form chooses at a Python `state`'s decision, drawing from
        `g` (a `sanssim.compiled.rng` generator, advanced as the Python strategy's is)."""
        from sanssim.games.splendor.core.position import new_work
        from sanssim.games.splendor.core.strategies import choose

        cfg, cards, nobles = layout.tables(state.game)
        kinds, params = seat_arrays([spec])
        scores = np.empty(layout.MAX_LEGAL, dtype=np.float64)
        S = layout.state_array(state)
        return int(choose(S, cfg, cards, nobles, kinds[0], params[0], g, new_work(), scores))

    def search_terms(
        self, state: Any, spec: StrategySpec, g: np.ndarray
    ) -> list[tuple[int, float, float]]:
        """An `ismcts` spec's compiled search at `state`: each legal choice with its visits
        and mean reward, in legal order (`IsmctsStrategy.terms` before its sort)."""
        from sanssim.games.splendor.core.ismcts import ismcts

        cfg, cards, nobles = layout.tables(state.game)
        _, params = seat_arrays([spec])
        visits, means = np.zeros(len(state.legal)), np.zeros(len(state.legal))
        ismcts(layout.state_array(state), cfg, cards, nobles, params[0], g, visits, means)
        return list(zip(state.legal, visits.tolist(), means.tolist(), strict=True))


def _turns(
    run_id: str,
    game: Game,
    ids: Sequence[int],
    turns: np.ndarray,
    log: np.ndarray,
    picks: np.ndarray,
) -> pl.DataFrame:
    """The turns frame from the records and the choices (each its record's row and the
    action) that `play_games` returns."""
    columns = table_columns(game, ids, turns.tolist(), log)
    frame = turns_frame(run_id, game.n_players, columns, GAME.turn_schema)
    row_game = np.repeat(np.array(ids, dtype=np.int64), turns)
    row_start = np.repeat(np.cumsum(turns) - turns, turns)
    rows = picks[:, 0]
    return with_chosen(frame, row_game[rows], rows - row_start[rows], picks[:, 1])


def _results(
    run_id: str,
    game: Game,
    strategies: Sequence[str],
    games: Sequence[tuple[int, int]],
    seats: np.ndarray,
    per_game: np.ndarray,
) -> Any:
    n = game.n_players
    count = len(games)
    ids = np.array([game_id for game_id, _ in games], dtype=np.int64)
    seeds = np.array([seed for _, seed in games], dtype=np.int64)
    ranks = seats[:, S_RANK]
    reasons = np.array(END_REASONS)[per_game[:, G_END_REASON]] if count else np.array([], str)
    cols = {
        "game_id": np.repeat(ids, n),
        "game_seed": np.repeat(seeds, n),
        "nobles_in_play": np.repeat(per_game[:, G_IN_PLAY:], n, axis=0).ravel(),
        "total": seats[:, S_POINTS],
        "points": seats[:, S_POINTS],
        "card_points": seats[:, S_CARD_POINTS],
        "noble_points": seats[:, S_NOBLE_POINTS],
        "cards_bought": seats[:, S_CARDS],
        "nobles": seats[:, S_NOBLES],
        "bonuses": seats[:, S_BONUSES : S_BONUSES + N_GEMS].ravel(),
        "tokens": seats[:, S_TOKENS : S_TOKENS + N_GEMS + 1].ravel(),
        "reserved_left": seats[:, S_RESERVED_LEFT],
        "rounds": np.repeat(per_game[:, G_ROUNDS], n),
        "passes": seats[:, S_PASSES],
        "rank": ranks,
        "end_reason": np.repeat(reasons, n).tolist(),
    }
    own = seat_columns(game, cols)
    return results_frame(run_id, GAME.name, n, strategies, own, GAME.result_schema)
