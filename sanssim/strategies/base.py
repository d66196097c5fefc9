"""The strategy interface, its parameters, and how specs name strategies.

A strategy sees only its player's `PlayerView` and the legal choices, and
returns one of them. A new instance plays each game, with its own seeded
random generator, so it may keep state across the decisions of that game.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from sanssim.errors import SanssimError

if TYPE_CHECKING:
    from sanssim.games.base import GameType, View


class StrategyError(SanssimError):
    """An unknown strategy or a bad parameter in a strategy spec."""


@dataclass(frozen=True, slots=True)
class Param:
    """A strategy parameter: its type is the type of its default; a text parameter may
    name the values it accepts."""

    name: str
    default: int | float | bool | str
    help: str
    choices: tuple[str, ...] = ()
    minimum: float | None = None  # the smallest value that makes sense, when there is one

    def parse(self, text: str, strategy: str) -> int | float | bool | str:
        kind = type(self.default)
        if self.choices and text not in self.choices:
            raise StrategyError(
                f"strategy {strategy!r}: parameter {self.name} must be one of "
                f"{', '.join(self.choices)}, got {text!r}"
            )
        try:
            if kind is bool:
                lowered = text.lower()
                if lowered not in ("true", "false", "1", "0", "yes", "no"):
                    raise ValueError
                return lowered in ("true", "1", "yes")
            value = kind(text)
        except ValueError:
            raise StrategyError(
                f"strategy {strategy!r}: parameter {self.name} must be "
                f"{kind.__name__}, got {text!r}"
            ) from None
        if isinstance(value, float) and not math.isfinite(value):
            raise StrategyError(f"strategy {strategy!r}: parameter {self.name} must be finite")
        if self.minimum is not None and value < self.minimum:  # type: ignore[operator]
            raise StrategyError(
                f"strategy {strategy!r}: parameter {self.name} must be at least "
                f"{self.minimum:g}, got {text}"
            )
        return value


class Strategy:
    """Base class. Subclasses set `name`, `summary`, `params` and implement `choose`."""

    name: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    params: ClassVar[tuple[Param, ...]] = ()
    # The games it plays; empty: every game (it uses only the protocol).
    games: ClassVar[tuple[str, ...]] = ()
    # The game being played, set when a spec makes the player (see StrategySpec.make).
    game_type: GameType | None = None
    # How `choose` picks between options that `explain` scores equally (for show --explain).
    tie_break: ClassVar[str] = "the first in the order of the legal options"

    def __init__(self, rng: random.Random, **params: Any) -> None:
        self.rng = rng
        for p in self.params:
            setattr(self, p.name, params.get(p.name, p.default))

    def choose(self, view: View, legal: list[int]) -> int:
        raise NotImplementedError

    def explain(self, view: View, legal: list[int]) -> list[tuple[int, float]]:
        """Scored options, best first, for `show --explain`; default: none scored."""
        return [(a, 0.0) for a in legal]

    def scoring(self) -> str:
        """What the scores of `explain` measure, in a few words."""
        return "score"

    def terms(self, view: View, legal: list[int]) -> list[tuple[int, dict[str, float]]]:
        """Each option's score split into the strategy's named terms (they add up to the
        score of `explain`), in the order of `explain`; default: one term, `score`."""
        return [(a, {"score": score}) for a, score in self.explain(view, legal)]


@dataclass(frozen=True, slots=True)
class StrategySpec:
    """A resolved `name:key=value,...` spec: the class and its full parameters."""

    name: str
    cls: type[Strategy]
    params: tuple[tuple[str, Any], ...]
    game: str

    @property
    def text(self) -> str:
        """Canonical spec text, every parameter spelled out."""
        if not self.params:
            return self.name
        return self.name + ":" + ",".join(f"{k}={v}" for k, v in self.params)

    @property
    def short(self) -> str:
        """The spec with only the parameters that differ from their defaults, for labels."""
        defaults = game_defaults(self.cls, self.game)
        changed = [f"{k}={v}" for k, v in self.params if defaults[k] != v]
        return self.name + (":" + ",".join(changed) if changed else "")

    def make(self, rng: random.Random) -> Strategy:
        from sanssim.games import get_game

        player = self.cls(rng, **dict(self.params))
        player.game_type = get_game(self.game)
        return player

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "params": dict(self.params), "spec": self.text}


def game_defaults(cls: type[Strategy], game: str) -> dict[str, Any]:
    """The strategy's parameter defaults in `game`: its own, then the game's
    `strategy_defaults` for it."""
    from sanssim.games import get_game

    own = {p.name: p.default for p in cls.params}
    declared = get_game(game).strategy_defaults.get(cls.name, {})
    return own | {k: v for k, v in declared.items() if k in own}


def parse_params(
    cls: type[Strategy], name: str, text: str, defaults: dict[str, Any] | None = None
) -> tuple[tuple[str, Any], ...]:
    """The full parameters of `name:text`: the given ones, else `defaults` (the class's)."""
    if defaults is None:
        defaults = {p.name: p.default for p in cls.params}
    known = {p.name: p for p in cls.params}
    given: dict[str, Any] = {}
    for item in filter(None, (s.strip() for s in text.split(","))):
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq:
            raise StrategyError(f"strategy {name!r}: expected key=value, got {item!r}")
        if key not in known:
            options = ", ".join(known) or "none"
            raise StrategyError(
                f"strategy {name!r} has no parameter {key!r} (parameters: {options})"
            )
        if key in given:
            raise StrategyError(f"strategy {name!r}: parameter {key!r} given twice")
        given[key] = known[key].parse(value.strip(), name)
    return tuple((p.name, given.get(p.name, defaults[p.name])) for p in cls.params)
