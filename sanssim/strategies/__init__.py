"""Strategies by name: built-ins, installed plug-ins, and `package.module:Class`."""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points

from sanssim.strategies.base import Param, Strategy, StrategyError, StrategySpec, parse_params
from sanssim.strategies.random import RandomStrategy

ENTRY_POINT_GROUP = "sanssim.strategies"
BUILTIN: dict[str, type[Strategy]] = {cls.name: cls for cls in (RandomStrategy,)}


def registry() -> dict[str, type[Strategy]]:
    """Built-ins plus the `sanssim.strategies` entry points of installed packages."""
    found = dict(BUILTIN)
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name not in found:
            found[ep.name] = ep
    return found


def _load_class(name: str, target: object) -> type[Strategy]:
    try:
        cls = target.load() if hasattr(target, "load") else target
    except Exception as exc:  # a broken plug-in must not crash the tool
        raise StrategyError(f"strategy {name!r} failed to load: {exc}") from None
    if not (isinstance(cls, type) and issubclass(cls, Strategy)):
        raise StrategyError(f"{name!r} is not a sanssim Strategy subclass")
    return cls


def resolve(spec: str) -> StrategySpec:
    """Parse `name` or `name:key=value,...`; `name` may be `package.module:Class`."""
    spec = spec.strip()
    known = registry()
    name, _, params = spec.partition(":")
    if name in known:
        cls = _load_class(name, known[name])
    elif "." in name and ":" in spec:
        module_name, _, rest = spec.partition(":")
        class_name, _, params = rest.partition(":")
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            raise StrategyError(f"cannot import strategy module {module_name!r}: {exc}") from None
        if not hasattr(module, class_name):
            raise StrategyError(f"module {module_name!r} has no class {class_name!r}")
        name = f"{module_name}:{class_name}"
        cls = _load_class(name, getattr(module, class_name))
    else:
        raise StrategyError(f"unknown strategy {name!r} (known: {', '.join(sorted(known))})")
    return StrategySpec(name, cls, parse_params(cls, name, params))


__all__ = ["Param", "Strategy", "StrategyError", "StrategySpec", "registry", "resolve"]
