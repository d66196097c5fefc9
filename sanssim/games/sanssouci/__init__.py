"""Sanssouci rules: components, state, legal choices, apply, scoring. No I/O."""

from sanssim.errors import ComponentError, ConfigError, IllegalActionError, SanssimError
from sanssim.games.sanssouci.components import COLOURS, SYMBOLS, TILE_SETS, Components
from sanssim.games.sanssouci.engine import (
    DISCARD,
    END,
    NOBLE,
    PASS,
    PHASE_NAMES,
    PLACE,
    SIDE,
    TAKE,
    Game,
    GameConfig,
    ScoreBreakdown,
    State,
    TurnRecord,
)

__all__ = [
    "COLOURS", "DISCARD", "END", "NOBLE", "PASS", "PHASE_NAMES", "PLACE", "SIDE", "SYMBOLS",
    "TAKE", "TILE_SETS", "ComponentError", "Components", "ConfigError", "Game", "GameConfig",
    "IllegalActionError", "SanssimError", "ScoreBreakdown", "State", "TurnRecord",
]  # fmt: skip
