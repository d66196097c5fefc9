"""Seikatsu (rules: docs/seikatsu.md): components, engine, view, strategies."""

from sanssim.games.seikatsu.components import (
    Components,
    Pagoda,
    default_components,
    load_components,
    parse_components,
)
from sanssim.games.seikatsu.config import GameConfig
from sanssim.games.seikatsu.engine import (
    END,
    PHASE_NAMES,
    PLAY,
    Breakdown,
    Game,
    State,
    TurnRecord,
)

__all__ = [
    "END", "PHASE_NAMES", "PLAY", "Breakdown", "Components", "Game", "GameConfig", "Pagoda",
    "State", "TurnRecord", "default_components", "load_components", "parse_components",
]  # fmt: skip
