"""Playing one game between strategies, with every seed derived from the game's.

A strategy is untrusted code: whatever it raises (SystemExit and KeyboardInterrupt
included) or however long it thinks fails only its game. Who is to blame is read from
the frame that raised: the strategy's own code, or the game's package.
"""

from __future__ import annotations

import contextlib
import random
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import FrameType, TracebackType
from typing import Any

from sanssim.errors import DecisionTimeout, IllegalActionError, UserInterrupt
from sanssim.games.base import Engine, GameState, GameType, View
from sanssim.runner.pool import retire
from sanssim.seeding import derive_seed, strategy_seed
from sanssim.strategies.base import Strategy, StrategySpec

STRATEGY, INTERNAL, KILLED = "strategy", "internal", "killed"  # failures' kinds


def game_seed(master_seed: int, game_index: int) -> int:
    return derive_seed(master_seed, game_index)


def strategy_rng(seed: int, seat: int) -> random.Random:
    return random.Random(strategy_seed(seed, seat))


class GameFailure(Exception):
    """A strategy raised, chose illegally or ran out of time (or the engine failed under
    it); carries what is needed to replay it and who is to blame (`kind`)."""

    def __init__(
        self, seed: int, seat: int, turn: int | None, strategy: str, error: str, kind: str
    ) -> None:
        when = "while being set up" if turn is None else f"turn {turn}"
        super().__init__(f"game seed {seed}, seat {seat} ({strategy}), {when}: {error}")
        self.seed = seed
        self.seat = seat
        self.turn = turn
        self.strategy = strategy
        self.error = error
        self.kind = kind


Observer = Callable[[GameState, Strategy, View], None]


def play_game(
    game_type: GameType,
    game: Engine,
    specs: Sequence[StrategySpec],
    seed: int,
    record: bool = False,
    observe: Observer | None = None,
    decision_timeout: float = 0.0,
) -> GameState:
    """Play a whole game of `game_type` and return its final state; raises GameFailure if
    a strategy fails. `observe` sees each decision (state, the deciding strategy, its
    view) before the strategy chooses; a decision longer than `decision_timeout` seconds
    (0: no limit) fails the game."""
    state = game.new_state(seed, record)
    players = []
    for seat, spec in enumerate(specs):
        try:
            players.append(spec.make(strategy_rng(seed, seat)))
        except BaseException as exc:  # noqa: BLE001 - untrusted code
            _reraise_interrupt(exc)
            raise GameFailure(seed, seat, None, spec.text, _error(exc), STRATEGY) from exc
    views = [game_type.view(state, seat) for seat in range(game.n_players)]
    with _time_limit(decision_timeout) as limit:
        while state.legal:
            seat = state.current
            if observe is not None:
                observe(state, players[seat], views[seat])
            choosing = True
            try:
                with limit():
                    action = players[seat].choose(views[seat], list(state.legal))
                choosing = False
                state.apply_action(action)
            except BaseException as exc:  # noqa: BLE001 - untrusted code
                _reraise_interrupt(exc)
                kind = blame(exc, players[seat], game, choosing)
                raise GameFailure(
                    seed, seat, state.turn, specs[seat].text, _error(exc), kind
                ) from exc
    return state


def _error(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def _reraise_interrupt(exc: BaseException) -> None:
    if isinstance(exc, UserInterrupt):
        raise exc


def blame(exc: BaseException, player: Strategy, game: Any, choosing: bool) -> str:
    """`strategy` or `internal`: the innermost frame in the strategy's code (its class and
    bases) or the game's package decides; without one, an error while choosing, or an
    illegal choice, is the strategy's."""
    if isinstance(exc, IllegalActionError | DecisionTimeout):
        return STRATEGY
    own = {_file(cls) for cls in type(player).__mro__ if cls is not object}
    package = _file(type(game)).parent
    for frame_file in reversed(_frames(exc.__traceback__)):
        if frame_file in own:
            return STRATEGY
        if frame_file.is_relative_to(package):
            return INTERNAL
    return STRATEGY if choosing else INTERNAL


def _file(cls: type) -> Path:
    module = sys.modules.get(cls.__module__)
    name = getattr(module, "__file__", None)
    return Path(name).resolve() if name else Path("/nonexistent")


def _frames(tb: TracebackType | None) -> list[Path]:
    files = []
    while tb is not None:
        files.append(Path(tb.tb_frame.f_code.co_filename).resolve())
        tb = tb.tb_next
    return files


@contextlib.contextmanager
def _time_limit(seconds: float) -> Iterator[Callable[[], contextlib.AbstractContextManager]]:
    """A context for each decision that raises DecisionTimeout in it after `seconds`
    (again every `seconds` if the strategy swallows it). Needs the main thread (signals);
    elsewhere, and with 0, decisions are not timed."""
    if seconds <= 0 or threading.current_thread() is not threading.main_thread():
        yield contextlib.nullcontext
        return

    def expired(signum: int, frame: FrameType | None) -> None:
        retire()  # the strategy may leave a thread or state behind: a fresh worker follows
        raise DecisionTimeout(f"the decision took longer than {seconds:g} s")

    @contextlib.contextmanager
    def decision() -> Iterator[None]:
        signal.setitimer(signal.ITIMER_REAL, seconds, seconds)
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)

    previous = signal.signal(signal.SIGALRM, expired)
    try:
        yield decision
    finally:
        signal.signal(signal.SIGALRM, previous)
