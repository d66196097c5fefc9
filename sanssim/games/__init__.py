"""Games by name: the built-ins and the `sanssim.games` entry points of installed packages.

A third party adds a game by publishing a `GameType` instance under that entry-point
group; nothing in sanssim needs to change.
"""

from __future__ import annotations

import importlib
from functools import cache
from importlib.metadata import entry_points

from sanssim.errors import ConfigError
from sanssim.games.base import GameType, Option

ENTRY_POINT_GROUP = "sanssim.games"
DEFAULT_GAME = "sanssouci"
BUILTIN = {
    "sanssouci": "sanssim.games.sanssouci.plugin:GAME",
    "seikatsu": "sanssim.games.seikatsu.plugin:GAME",
    "splendor": "sanssim.games.splendor.plugin:GAME",
}


@cache
def _targets() -> dict[str, str]:
    found = dict(BUILTIN)
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        found.setdefault(ep.name, ep.value)
    return found


def game_names() -> list[str]:
    return list(_targets())


@cache
def get_game(name: str) -> GameType:
    """The declared game `name`; a one-line error for an unknown or broken one."""
    targets = _targets()
    if name not in targets:
        raise ConfigError(f"unknown game {name!r} (known: {', '.join(targets)})")
    module_name, _, attribute = targets[name].partition(":")
    try:
        game = getattr(importlib.import_module(module_name), attribute)
    except Exception as exc:  # a broken plug-in must not crash the tool
        raise ConfigError(f"game {name!r} failed to load: {exc}") from None
    if not isinstance(game, GameType):
        raise ConfigError(f"game {name!r} is not a sanssim GameType")
    return game


__all__ = ["DEFAULT_GAME", "GameType", "Option", "game_names", "get_game"]
