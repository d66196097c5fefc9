"""What the runner, `show`, the shared strategies and the reports use of a game in progress,
its fixed parameters and a player's view of it: typed Protocols (`sanssim.games.engine`
implements the first two) and `SeatView`, the part of every game's view that is the same."""

from __future__ import annotations

from typing import Any, Protocol


class GameState(Protocol):
    """What the runner, `show`, the shared strategies and the reports use of a game in
    progress (`sanssim.games.engine.EngineState` implements it)."""

    game: Engine
    n: int
    phase: int
    turn: int
    current: int
    legal: list[int]

    @property
    def round(self) -> int: ...
    def apply_action(self, action: int) -> None: ...
    def legal_actions(self) -> list[int]: ...
    def is_terminal(self) -> bool: ...
    def returns(self) -> list[int]: ...
    def ranks(self) -> list[int]: ...
    def describe(self, action: object) -> str: ...
    def clone(self) -> GameState: ...


class Engine(Protocol):
    """A game's fixed parameters as the layers above it use them (`new_game`'s result;
    `sanssim.games.engine.EngineGame` implements it)."""

    config: Any
    components: Any

    @property
    def n_players(self) -> int: ...
    def new_state(self, seed: int, record: bool = False) -> GameState: ...


class View(Protocol):
    """What a strategy sees: one seat's window on a game in progress."""

    seat: int

    @property
    def n_players(self) -> int: ...
    @property
    def current(self) -> int: ...
    @property
    def turn(self) -> int: ...
    def legal_actions(self) -> list[int]: ...
    def describe(self, action: int) -> str: ...
    def determinize(self, rng: Any) -> GameState: ...


class SeatView:
    """What every game's PlayerView shares: a read-only window on a live state through
    one seat's eyes. A game's view adds what that seat may see of its own game and
    `determinize`; it must never hand out `_state`."""

    __slots__ = ("_state", "seat")

    def __init__(self, state: GameState, seat: int) -> None:
        self._state = state
        self.seat = seat

    @property
    def game(self) -> Engine:
        return self._state.game

    @property
    def n_players(self) -> int:
        return self._state.n

    @property
    def phase(self) -> int:
        return self._state.phase

    @property
    def turn(self) -> int:
        return self._state.turn

    @property
    def round(self) -> int:
        return self._state.round

    @property
    def current(self) -> int:
        return self._state.current

    def legal_actions(self) -> list[int]:
        s = self._state
        return list(s.legal) if s.current == self.seat else []

    def describe(self, action: int) -> str:
        return self._state.describe(action)
