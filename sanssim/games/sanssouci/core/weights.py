"""A `heuristic` seat's weight row and a decision's work space, as the compiled strategies
read them.

A seat's float64 weight row (`weights`) holds heuristic's parameters in their declared
order, then its credit table as the Python strategy computes it, then lookahead's rollouts
and width, then ismcts's parameters (`sanssim.compiled.ismcts.parameters`).
"""

from __future__ import annotations

import numpy as np

from sanssim.compiled.ismcts import PARAMS
from sanssim.games.sanssouci.actions import N_SLOTS
from sanssim.games.sanssouci.core.layout import LEGAL_ROOM
from sanssim.games.sanssouci.garden import N_SQUARES
from sanssim.games.sanssouci.strategies.heuristic import HeuristicStrategy

WEIGHT_NAMES = tuple(p.name for p in HeuristicStrategy.params)
(
    W_OPTION, W_MISSION, W_PATH, W_LATENT, W_BLOCK, W_ROW, W_COLUMN, W_DECAY, W_SKIP,
    W_MISSION_MOVE, W_JOKER, W_PAIR, W_SYMBOL,
) = range(len(WEIGHT_NAMES))  # fmt: skip
W_CREDIT = len(WEIGHT_NAMES)
CREDITS = 10
W_ROLLOUTS = W_CREDIT + CREDITS  # lookahead's two parameters follow heuristic's weights
W_WIDTH = W_ROLLOUTS + 1
W_SEARCH = W_WIDTH + 1  # then ismcts's parameters
N_WEIGHTS = W_SEARCH + PARAMS
# A decision's float work space: the legal choices' scores, each slot's tile value, and
# each placement's value (landscape squares, then gardener squares), written before read.
TILES = LEGAL_ROOM
PLACED = TILES + N_SLOTS
WORK = PLACED + 2 * N_SQUARES


def work_array() -> np.ndarray:
    """A decision's work space (`WORK` doubles); compiled code makes its own with
    `lowered.empty(WORK, np.float64)`."""
    return np.empty(WORK, dtype=np.float64)


def weights(
    heuristic: dict[str, float],
    rollouts: int = 0,
    width: int = 0,
    search: np.ndarray | None = None,
) -> np.ndarray:
    """A seat's weight row: heuristic's parameters as the Python strategy holds them (its
    credit table included), lookahead's rollouts and width, ismcts's parameters."""
    row = np.zeros(N_WEIGHTS, dtype=np.float64)
    player = HeuristicStrategy(None, **heuristic)  # type: ignore[arg-type]
    for i, name in enumerate(WEIGHT_NAMES):
        row[i] = getattr(player, name)
    row[W_CREDIT:W_ROLLOUTS] = player.credit
    row[W_ROLLOUTS] = rollouts
    row[W_WIDTH] = width
    if search is not None:
        row[W_SEARCH:] = search
    return row
