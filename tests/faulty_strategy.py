"""Strategies that misbehave on purpose, loaded as `tests.faulty_strategy:Class`."""

from __future__ import annotations

import multiprocessing
import os
import sys
import time

from sanssim.games.sanssouci.view import PlayerView
from sanssim.strategies import Param, Strategy

FAIL_EVERY = 3  # one player in this many is doomed to raise


class Raising(Strategy):
    """Raises on its fifth decision in about one game in three."""

    name = "raising"

    def __init__(self, rng, **params) -> None:  # noqa: ANN001, ANN003
        super().__init__(rng, **params)
        self.decisions = 0
        self.doomed = rng.randrange(FAIL_EVERY) == 0

    def choose(self, view: PlayerView, legal: list[int]) -> int:
        self.decisions += 1
        if self.doomed and self.decisions == 5:
            raise RuntimeError("deliberate failure")
        return legal[0]


class Illegal(Strategy):
    """Always answers with a choice that is never legal."""

    name = "illegal"

    def choose(self, view: PlayerView, legal: list[int]) -> int:
        return -7


class Slow(Strategy):
    """Plays the first legal choice after a pause, so a run lasts long enough to be killed."""

    name = "slow"

    def choose(self, view: PlayerView, legal: list[int]) -> int:
        time.sleep(0.0005)
        return legal[0]


class Hostile(Strategy):
    """On its third decision does `how`: exit, interrupt, raise a BaseException, loop
    forever, print, or (`engine`) hand the engine a state it breaks on."""

    name = "hostile"
    params = (Param("how", "exit", "exit, interrupt, base, loop, print, swallow or engine"),)

    def __init__(self, rng, **params) -> None:  # noqa: ANN001, ANN003
        super().__init__(rng, **params)
        self.decisions = 0

    def choose(self, view: PlayerView, legal: list[int]) -> int:
        self.decisions += 1
        if self.decisions == 3:
            misbehave(self.how, view)
        return legal[0]


def misbehave(how: str, view: PlayerView) -> None:
    if how == "exit":
        sys.exit(3)
    if how == "interrupt":
        raise KeyboardInterrupt
    if how == "base":
        raise BaseException("not an Exception")
    if how == "print":
        print("hello from a strategy")  # noqa: T201
        print("and on stderr", file=sys.stderr)  # noqa: T201
    while how in ("loop", "swallow"):
        try:
            time.sleep(0.01)
        except BaseException:  # noqa: BLE001, S110 - swallows the first timeout
            if how == "loop":
                raise
            how = "loop"
    if how == "engine":
        view._state.display = None  # the engine then fails on its own line


class FailsToStart(Strategy):
    """Its constructor raises: the strategy's fault, not an internal one."""

    name = "fails-to-start"

    def __init__(self, rng, **params) -> None:  # noqa: ANN001, ANN003
        raise ValueError("cannot start")

    def choose(self, view: PlayerView, legal: list[int]) -> int:
        return legal[0]


class KillsItsWorker(Strategy):
    """Ends its process with os._exit(7) on its third decision in about one game in
    `share`, as a strategy calling into a crashing library would; only in a worker
    process (a test's driver would die with it) unless $SANSSIM_KILL_ANYWHERE is set."""

    name = "kills-its-worker"
    params = (Param("share", 0.3, "the share of games it kills"),)

    def __init__(self, rng, **params) -> None:  # noqa: ANN001, ANN003
        super().__init__(rng, **params)
        self.decisions = 0
        self.doomed = rng.random() < self.share

    def choose(self, view: PlayerView, legal: list[int]) -> int:
        self.decisions += 1
        worker = multiprocessing.parent_process() is not None
        if self.doomed and self.decisions == 3 and (worker or os.environ.get(KILL_ANYWHERE)):
            os._exit(7)
        return legal[0]


KILL_ANYWHERE = "SANSSIM_KILL_ANYWHERE"


def timed_out_pid(start: int, stop: int) -> int:
    """A chunk whose one game's decision times out (as `Hostile:how=loop` does in a run);
    the pid of the worker that played it."""
    from sanssim.games import get_game
    from sanssim.runner.play import GameFailure, play_game
    from sanssim.strategies import resolve

    game_type = get_game("sanssouci")
    game = game_type.new_game(2, {}, game_type.load_components())
    specs = [resolve("tests.faulty_strategy:Hostile:how=loop", "sanssouci"), resolve("random")]
    try:
        play_game(game_type, game, specs, start, decision_timeout=0.05)
    except GameFailure:
        return os.getpid()
    raise AssertionError("the decision did not time out")
