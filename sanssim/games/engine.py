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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Self, TypeVar, final

from sanssim.errors import IllegalActionError

ConfigT = TypeVar("ConfigT")
ComponentsT = TypeVar("ComponentsT")


@dataclass(frozen=True)
class EngineGame(Generic[ConfigT, ComponentsT]):
    """Fixed parameters of a game: configuration, components and lookup tables.

    A game subclasses `EngineGame[its config, its components]`, sets `state_class` and
    `packaged` (the loader of its packaged component data; a game without component data
    keeps None), and may override `derive` (its lookup tables, via `_set`)."""

    config: ConfigT
    components: ComponentsT = None  # type: ignore[assignment]
    state_class: ClassVar[type[EngineState]]
    packaged: ClassVar[Callable[[], Any] | None] = None

    def __post_init__(self) -> None:
        packaged = type(self).packaged
        if self.components is None and packaged is not None:
            self._set("components", packaged())
        validate = getattr(self.config, "validate", None)
        if validate is not None:
            validate(self.components)
        self.derive()

    def derive(self) -> None:
        """Lookup tables computed once from the configuration and components."""

    def _set(self, name: str, value: object) -> None:
        object.__setattr__(self, name, value)

    @property
    def n_players(self) -> int:
        return self.config.n_players  # type: ignore[attr-defined]

    def new_state(self, seed: int, record: bool = False) -> EngineState:
        """Deal a game. All chance comes from `seed`; `record` keeps the turn log."""
        return self.state_class(self, seed, record)


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

    def __init__(self, game: Any, seed: int, record: bool = False) -> None:
        """A game dealt from `seed` (all its chance comes from it); `record` keeps the
        turn log. The first seat is to play turn 0; the game's `_deal` does the rest."""
        self.game = game
        self.record = record
        self.n = game.n_players
        self.turn = 0
        self.current = 0
        self.log = []
        self.actions = []
        self._deal(seed)

    @abstractmethod
    def _deal(self, seed: int) -> None:
        """The game's own starting position, its first decision (`phase`, `legal`) set."""

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

    def _branch(self) -> Self:
        """A new state of this class with the fields every game has copied; a game's own
        `clone` (faster than the generic one) copies the rest."""
        c = object.__new__(type(self))
        c.game = self.game
        c.record = self.record
        c.n = self.n
        c.phase = self.phase
        c.turn = self.turn
        c.current = self.current
        c.legal = list(self.legal)
        c.log = list(self.log)
        c.actions = list(self.actions)
        return c

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


def shared_ranks(keys: Sequence[Any], lowest_wins: bool = False) -> list[int]:
    """Each seat's rank from its key (1 = best: the highest key, or the lowest); seats with
    equal keys share a rank."""
    if lowest_wins:
        return [1 + sum(other < mine for other in keys) for mine in keys]
    return [1 + sum(other > mine for other in keys) for mine in keys]


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
