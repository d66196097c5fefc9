"""Splendor's compiled core: the `sanssim.compiled.Core` of the Splendor game type.

`play_chunk` derives each game's seeds in Python (as `State.__init__` and `play_game` do),
plays the whole chunk in one compiled call (`play.play_games`) and builds the frames with
the shared frame builders (`sanssim.games.logs`) and the log module's own columns, so
names, types and row order are the Python path's by construction.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import polars as pl

from sanssim.compiled import ChunkRefused, CoreChunk
from sanssim.games.logs import results_frame, turns_frame, with_chosen
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
    SEEDS_BEFORE_SEATS,
    play_games,
)
from sanssim.games.splendor.core.strategies import FAILED, GREEDY, HEURISTIC, LOOKAHEAD, RANDOM
from sanssim.games.splendor.engine import END_REASONS, N_GEMS, N_LEVELS, Game, GameConfig
from sanssim.games.splendor.log import seat_columns, table_columns
from sanssim.games.splendor.plugin import GAME
from sanssim.seeding import derive_seed, strategy_seed
from sanssim.strategies.base import StrategySpec

MAX_PARAMS = 16


class CompiledGameFailed(ChunkRefused):
    """A chunk the core cannot play through: the Python path must, to record failures."""


def _kinds() -> dict[type, int]:
    from sanssim.games.splendor.strategies import GreedyStrategy, HeuristicStrategy
    from sanssim.strategies.lookahead import LookaheadStrategy
    from sanssim.strategies.random import RandomStrategy

    return {
        RandomStrategy: RANDOM,
        GreedyStrategy: GREEDY,
        HeuristicStrategy: HEURISTIC,
        LookaheadStrategy: LOOKAHEAD,
    }


def game_seeds(seed: int, n_players: int) -> list[int]:
    """A game's derived seeds in the order `play_games` reads them: the decks, the nobles,
    then each seat's strategy stream (`strategy_rng`)."""
    return [
        *(derive_seed(seed, f"deck{level}") for level in range(1, N_LEVELS + 1)),
        derive_seed(seed, "nobles"),
        *(strategy_seed(seed, seat) for seat in range(n_players)),
    ]


def seat_arrays(specs: Sequence[StrategySpec]) -> tuple[np.ndarray, np.ndarray]:
    """Each seat's compiled strategy kind, and its parameters in the class's order."""
    kinds = _kinds()
    params = np.zeros((len(specs), MAX_PARAMS), dtype=np.float64)
    for p, spec in enumerate(specs):
        values = [float(v) for _, v in spec.params]
        params[p, : len(values)] = values
    return np.array([kinds[spec.cls] for spec in specs], dtype=np.int64), params


class SplendorCore:
    """Plays Splendor chunks compiled when every seat's strategy has a compiled form."""

    __slots__ = ()
    title = "the Splendor engine"

    def supports(self, specs: Sequence[StrategySpec]) -> bool:
        kinds = _kinds()
        return all(spec.cls in kinds and spec.game == "splendor" for spec in specs)

    def compile(self) -> None:
        """Compile (or load from numba's cache) by playing one tiny chunk."""
        from sanssim.strategies import resolve

        game = Game(GameConfig())
        specs = [resolve(name, "splendor") for name in ("random", "greedy")]
        self.play_chunk(game, specs, "compile", ["random", "greedy"], [(0, 1)], True)

    def play_chunk(
        self,
        game: Game,
        specs: Sequence[StrategySpec],
        run_id: str,
        strategies: Sequence[str],
        games: Sequence[tuple[int, int]],
        record: bool,
    ) -> CoreChunk:
        n = game.n_players
        cfg, cards, nobles = layout.tables(game)
        seeds = np.array([game_seeds(seed, n) for _, seed in games], dtype=np.int64)
        seeds = seeds.reshape(len(games), SEEDS_BEFORE_SEATS + n)
        seat_kinds, params = seat_arrays(specs)
        seats, per_game, turns, log, picks = play_games(
            cfg, cards, nobles, layout.state_size(game), seeds, seat_kinds, params, int(record)
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
    return results_frame(run_id, GAME.name, n, strategies, count, own, GAME.result_schema)
