"""Sanssouci rules: components, state, legal choices, apply, scoring. No I/O."""

from sanssim.errors import ComponentError, ConfigError, IllegalActionError, SanssimError
from sanssim.games.sanssouci.actions import (
    DISCARD,
    END,
    NOBLE,
    PASS,
    PHASE_NAMES,
    PLACE,
    SIDE,
    TAKE,
)
from sanssim.games.sanssouci.components import COLOURS, SYMBOLS, TILE_SETS, Components
from sanssim.games.sanssouci.config import GameConfig
from sanssim.games.sanssouci.engine import Game, ScoreBreakdown, State
from sanssim.games.sanssouci.turn import TurnRecord

__all__ = [
    "COLOURS", "DISCARD", "END", "NOBLE", "PASS", "PHASE_NAMES", "PLACE", "SIDE", "SYMBOLS",
    "TAKE", "TILE_SETS", "ComponentError", "Components", "ConfigError", "Game", "GameConfig",
    "IllegalActionError", "SanssimError", "ScoreBreakdown", "State", "TurnRecord",
]  # fmt: skip
