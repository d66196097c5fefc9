"""Strategies by name: built-ins, installed plug-ins, and `package.module:Class`."""

from __future__ import annotations

import importlib
from functools import cache
from importlib.metadata import EntryPoint, entry_points

from sanssim.games import DEFAULT_GAME, get_game
from sanssim.strategies.base import (
    Param,
    Strategy,
    StrategyError,
    StrategySpec,
    game_defaults,
    parse_params,
)
from sanssim.strategies.ismcts import IsmctsStrategy
from sanssim.strategies.lookahead import LookaheadStrategy
from sanssim.strategies.random import RandomStrategy

ENTRY_POINT_GROUP = "sanssim.strategies"
# Strategies that play every game through the protocol alone.
SHARED: tuple[type[Strategy], ...] = (RandomStrategy, LookaheadStrategy, IsmctsStrategy)


def registry(game: str = DEFAULT_GAME) -> dict[str, type[Strategy] | EntryPoint]:
    """For one game: the shared strategies, the game's own, then the `sanssim.strategies`
    entry points of installed packages (each says which games it plays, if not all)."""
    own = get_game(game).strategies()
    found: dict[str, type[Strategy] | EntryPoint] = {SHARED[0].name: SHARED[0], **own}
    found.update({cls.name: cls for cls in SHARED[1:]})
    for ep in _installed():
        if ep.name not in found:
            found[ep.name] = ep
    return found


@cache
def _installed() -> tuple[EntryPoint, ...]:
    """The `sanssim.strategies` entry points, read once: scanning the installed packages'
    metadata costs milliseconds, and every spec is resolved through the registry."""
    return tuple(entry_points(group=ENTRY_POINT_GROUP))


def _load_class(name: str, target: object) -> type[Strategy]:
    try:
        cls = target.load() if hasattr(target, "load") else target
    except Exception as exc:  # a broken plug-in must not crash the tool
        raise StrategyError(f"strategy {name!r} failed to load: {exc}") from None
    if not (isinstance(cls, type) and issubclass(cls, Strategy)):
        raise StrategyError(f"{name!r} is not a sanssim Strategy subclass")
    return cls


def resolve(spec: str, game: str = DEFAULT_GAME) -> StrategySpec:
    """Parse `name` or `name:key=value,...` for `game`; `name` may be
    `package.module:Class`."""
    spec = spec.strip()
    known = registry(game)
    name, _, params = spec.partition(":")
    class_name, _, class_params = params.partition(":")
    if name in known:
        cls = _load_class(name, known[name])
    elif class_name.isidentifier():
        try:
            module = importlib.import_module(name)
        except Exception as exc:  # noqa: BLE001 - a user's module: a syntax error, a raise
            raise StrategyError(
                f"cannot import strategy module {name!r}: {type(exc).__name__}: {exc}"
            ) from None
        if not hasattr(module, class_name):
            raise StrategyError(f"module {name!r} has no class {class_name!r}")
        cls = _load_class(f"{name}:{class_name}", getattr(module, class_name))
        name, params = f"{name}:{class_name}", class_params
    else:
        raise StrategyError(f"unknown {game} strategy {name!r} (known: {', '.join(sorted(known))})")
    if cls.games and game not in cls.games:
        raise StrategyError(f"strategy {name!r} plays {', '.join(cls.games)}, not {game}")
    return StrategySpec(name, cls, parse_params(cls, name, params, game_defaults(cls, game)), game)


def short_spec(text: str, game: str = DEFAULT_GAME) -> str:
    """A logged spec with only its non-default parameters; as logged when the strategy
    cannot be loaded here."""
    try:
        return resolve(text, game).short
    except StrategyError:
        return text


__all__ = [
    "Param",
    "Strategy",
    "StrategyError",
    "StrategySpec",
    "registry",
    "resolve",
    "short_spec",
]
