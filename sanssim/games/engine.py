"""The engine base every game's forward model builds on (OpenSpiel's State hooks).

`EngineGame` holds a game's fixed parameters: its configuration, its component data
(the packaged default when none is given) and what the game derives from them once.
`EngineState` is one game in progress: the legality check of `apply_action` is made
here, once, and the game writes only `_apply`, the rules of a legal choice. Both
satisfy the `Engine` and `GameState` protocols of `sanssim.games.base`.
"""

from __future__ import annotations

import operator
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar, final

from sanssim.errors import IllegalActionError


@dataclass(frozen=True)
class EngineGame:
    """Fixed parameters of a game: configuration, components and lookup tables.

    A game sets `state_class` and may override `default_components` (a game without
    component data keeps None) and `derive` (its lookup tables, via `_set`)."""

    config: Any
    components: Any = None
    state_class: ClassVar[type[EngineState]]

    def __post_init__(self) -> None:
        if self.components is None:
            self._set("components", self.default_components())
        validate = getattr(self.config, "validate", None)
        if validate is not None:
            validate(self.components)
        self.derive()

    def default_components(self) -> Any:
        """The packaged component data (None: the game has none)."""
        return None

    def derive(self) -> None:
        """Lookup tables computed once from the configuration and components."""

    def _set(self, name: str, value: object) -> None:
        object.__setattr__(self, name, value)

    @property
    def n_players(self) -> int:
        return self.config.n_players

    def new_state(self, seed: int, record: bool = False) -> EngineState:
        """Deal a game. All chance comes from `seed`; `record` keeps the turn log."""
        state = self.state_class(self, seed, record)
        state.actions = []
        return state


class EngineState(ABC):
    """One game in progress, mutated in place by `apply_action`; `clone` to branch.

    `phases` names the decision kinds, the last one the end of the game; `phase`
    indexes it. `legal` is the current decision's legal choices (empty at the end)."""

    __slots__ = ("game", "record", "n", "phase", "turn", "current", "legal", "log", "actions")
    phases: ClassVar[tuple[str, ...]] = ("play", "end")

    game: Any
    record: bool
    n: int
    phase: int
    turn: int
    current: int
    legal: list[int]
    log: list[Any]
    actions: list[tuple[int, int]]  # (turn, action) of every choice made, when recording

    @final
    def apply_action(self, action: int) -> None:
        """Apply a legal choice (and any forced follow-ups); an illegal one raises
        IllegalActionError and changes nothing."""
        if type(action) is not int or action not in self.legal:
            action = self._checked(action)
        if self.record:
            self.actions.append((self.turn, action))
        self._apply(action)

    @abstractmethod
    def _apply(self, action: int) -> None:
        """The rules of the legal choice `action` at the current decision."""

    def legal_actions(self) -> list[int]:
        """The legal choices at the current decision (empty once the game is over)."""
        return self.legal

    def is_terminal(self) -> bool:
        return self.phase == len(self.phases) - 1

    @property
    def round(self) -> int:
        """The round of the current turn, from 1."""
        return self.turn // self.n + 1

    def describe(self, action: object) -> str:
        """A readable name for an action at the current decision."""
        return repr(action)

    def _checked(self, action: object) -> int:
        """Slow path of `apply_action`: a legal int-like choice (numpy ints) or an error."""
        index = legal_index(action, self.legal)
        if index is not None:
            return index
        options = ", ".join(self.describe(a) for a in self.legal) or "none, the game is over"
        raise IllegalActionError(
            f"illegal {self.phases[self.phase]} choice {self.describe(action)} for seat "
            f"{self.current} on turn {self.turn} (legal: {options})"
        )

    def clone(self) -> EngineState:
        """An independent copy, chance state included: lists (and lists of lists) and
        random generators are copied, everything else is shared as immutable."""
        c = object.__new__(type(self))
        for name in _slots(type(self)):
            try:
                value = getattr(self, name)
            except AttributeError:
                continue
            setattr(c, name, _copied(value))
        return c


def _slots(cls: type) -> tuple[str, ...]:
    names = [s for k in reversed(cls.__mro__) for s in getattr(k, "__slots__", ())]
    return tuple(dict.fromkeys(names))


def _copied(value: object) -> object:
    if isinstance(value, list):
        return [list(v) if isinstance(v, list) else v for v in value]
    if isinstance(value, random.Random):
        rng = random.Random()
        rng.setstate(value.getstate())
        return rng
    return value


def legal_index(action: object, legal: list[int]) -> int | None:
    """An int-like choice (a numpy int, say) that is legal, as an int; None otherwise.

    Refusing bools, floats and the like before anything is applied keeps a bad choice
    from half-applying."""
    if isinstance(action, bool):
        return None
    try:
        index = operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        return None
    return index if index in legal else None
