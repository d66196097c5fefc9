"""The compiled chunk's arrays as the Python path's results and turns frames.

Both go through the shared frame builders (`sanssim.games.logs`) and the log
module's own columns (`seat_columns`, `named_turn_columns`), so names, dtypes and
row order are the Python path's by construction; only the per-game columns come
from arrays here.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import polars as pl

from sanssim.games.logs import results_frame, turns_frame, with_chosen
from sanssim.games.seikatsu.core.engine import (
    LOG_ACTION,
    LOG_BAG_LEFT,
    LOG_CELL,
    LOG_DRAWN,
    LOG_GAME,
    LOG_HAND,
    LOG_KOI_BIRD,
    LOG_KOI_HELD,
    LOG_POINTS,
    LOG_SCORE,
    LOG_SEAT,
    LOG_TILE,
    LOG_TURN,
)
from sanssim.games.seikatsu.engine import Game
from sanssim.games.seikatsu.log import TURN_FIELDS, named_turn_columns, seat_columns
from sanssim.games.seikatsu.plugin import GAME

# the log block's column of each `TurnRecord` int field
LOG_COLUMNS = {
    "turn": LOG_TURN,
    "seat": LOG_SEAT,
    "koi_held": LOG_KOI_HELD,
    "tile": LOG_TILE,
    "cell": LOG_CELL,
    "koi_bird": LOG_KOI_BIRD,
    "bird_points": LOG_POINTS,
    "drawn": LOG_DRAWN,
    "score": LOG_SCORE,
    "bag_left": LOG_BAG_LEFT,
}
assert tuple(LOG_COLUMNS) == TURN_FIELDS


def id_pairs(games: Sequence[tuple[int, int]]) -> np.ndarray:
    """A chunk's (game_id, game_seed) pairs as one int64 array of two columns, read in
    one pass (a list comprehension per column costs as much as the games' scoring)."""
    flat = itertools.chain.from_iterable(games)
    return np.fromiter(flat, dtype=np.int64, count=2 * len(games)).reshape(-1, 2)


def result_frame(
    run_id: str,
    game: Game,
    strategies: Sequence[str],
    games: np.ndarray,
    start: np.ndarray,
    scores: np.ndarray,
    rows: np.ndarray,
    ranks: np.ndarray,
) -> pl.DataFrame:
    """The results frame from `chunk.play_games`' per-game arrays; `games` are the
    chunk's `id_pairs`."""
    n = game.n_players
    side = np.array(game.side, dtype=np.int64)
    per_seat = np.arange(len(games)).repeat(n)
    kinds = pl.Series(start[per_seat].ravel()).replace_strict(
        range(len(game.kind_names)), list(game.kind_names), return_dtype=pl.String
    )
    birds = scores[:, 0, side]
    totals = scores[:, 1, side]
    cols = {
        "game_id": games[:, 0].repeat(n),
        "game_seed": games[:, 1].repeat(n),
        "start_tiles": kinds,
        "bird_points": birds.ravel(),
        "own_bird_points": scores[:, 2, :n].ravel(),
        "flower_points": (totals - birds).ravel(),
        "row_points": rows[:, side, :].ravel(),
        "total": totals.ravel(),
        "rank": ranks[:, side].ravel(),
        "koi_played": scores[:, 3, :n].ravel(),
    }
    own = seat_columns(game, len(games), cols)
    schema = GAME.result_schema
    return results_frame(run_id, GAME.name, n, strategies, own, schema)


def turn_frame(run_id: str, game: Game, games: np.ndarray, log: np.ndarray) -> pl.DataFrame:
    """The turns frame from the first rows of the log block (`engine.play`'s rows);
    `games` are the chunk's `id_pairs`."""
    raw = pl.DataFrame(
        {name: pl.Series(name, log[:, col], dtype=pl.Int16) for name, col in LOG_COLUMNS.items()}
    )
    ids = games[log[:, LOG_GAME], 0]
    hands = log[:, LOG_HAND:]
    columns = named_turn_columns(game, raw, ids, hands.ravel(), hands.shape[1])
    frame = turns_frame(run_id, game.n_players, columns, GAME.turn_schema)
    chosen = log[:, LOG_ACTION] >= 0  # -1: a turn the engine played itself
    return with_chosen(frame, ids[chosen], log[chosen, LOG_TURN], log[chosen, LOG_ACTION])
