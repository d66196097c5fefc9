"""Worker processes that each hold one chunk at a time, so a death is pinned on its chunk.

A pool of the standard library breaks as a whole when one worker dies and cannot say
which task killed it. Here each worker has its own pipe: when one dies, the chunk it
held (and, through a shared number, the game it was playing) is known. The chunk is
played once more on a fresh worker; a chunk that kills a second worker stops the run
(`ChunkKills`) instead of being retried for ever. A worker whose strategy ran out of
time (`retire`) is replaced once it has handed back its chunk, so the pool keeps its size
and no thread or state the strategy left behind outlives its game.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any

from sanssim.runner.config import RunError

Chunk = tuple[int, int]
PARENT_POLL = 1.0  # seconds between a worker's checks that its driver is alive
NO_GAME = -1
KILLS = 2  # deaths of a chunk's worker before the chunk is blamed

_playing: Any = None  # in a worker: the shared number holding the game being played
_retiring = False


class WorkerLost(RunError):
    """A worker process died (killed, out of memory); chunks it held are lost, not wrong."""


class ChunkKills(WorkerLost):
    """A chunk killed its worker `KILLS` times; `game` is the game it was playing (None:
    not known, as on a compiled core, which plays a chunk in one call)."""

    def __init__(self, start: int, stop: int, game: int | None, exitcode: int | None) -> None:
        how = f"signal {-exitcode}" if exitcode and exitcode < 0 else f"exit code {exitcode}"
        where = f"games {start}-{stop - 1}"
        if game is not None:
            where = f"game {game} of {where}"
        super().__init__(f"{where} killed its worker process {KILLS} times ({how})")
        self.start, self.stop, self.game, self.exitcode = start, stop, game, exitcode


class RemoteTraceback(Exception):
    """The traceback of an error raised in a worker, kept as the error's cause."""

    def __str__(self) -> str:
        return "\n" + str(self.args[0])


def playing(game_id: int) -> None:
    """In a worker: the game about to be played, for the driver to name if it dies."""
    if _playing is not None:
        _playing.value = game_id


def retire() -> None:
    """In a worker: replace this process once its chunk is handed back."""
    global _retiring
    _retiring = _playing is not None


@dataclass(eq=False)
class _Worker:
    process: Any
    conn: Connection
    game: Any  # the shared number `playing` writes

    def stop(self) -> None:
        self.conn.close()
        self.process.join()


class Pool:
    """`size` worker processes (spawned, not forked: polars' threads do not survive a fork)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._context = multiprocessing.get_context("spawn")
        self._idle: list[_Worker] = []
        self._busy: dict[_Worker, Chunk] = {}
        self.lost: list[Chunk] = []  # chunks whose worker died once, played again

    def _spawn(self) -> _Worker:
        mine, theirs = self._context.Pipe()
        game = self._context.Value("q", NO_GAME, lock=False)
        process = self._context.Process(
            target=_serve, args=(theirs, game, os.getpid()), daemon=True
        )
        process.start()
        theirs.close()
        return _Worker(process, mine, game)

    def map(self, fn: Callable[[int, int], Any], chunks: Iterable[Chunk]) -> Iterator[Any]:
        """`fn(start, stop)` of every chunk, as they finish; an error `fn` raises is raised
        here, with the worker's traceback as its cause."""
        todo = deque(chunks)
        deaths: dict[Chunk, int] = {}
        while todo or self._busy:
            while todo and len(self._busy) < self.size:
                worker = self._idle.pop() if self._idle else self._spawn()
                chunk = todo.popleft()
                worker.conn.send((fn, *chunk))
                self._busy[worker] = chunk
            ready = set(
                wait([w.conn for w in self._busy] + [w.process.sentinel for w in self._busy])
            )
            for worker in [w for w in self._busy if w.conn in ready or w.process.sentinel in ready]:
                chunk = self._busy.pop(worker)
                try:
                    ok, value, trace, retiring = worker.conn.recv()
                except (EOFError, OSError):  # died holding the chunk
                    game = worker.game.value
                    worker.stop()
                    deaths[chunk] = deaths.get(chunk, 0) + 1
                    if deaths[chunk] >= KILLS:
                        code = worker.process.exitcode
                        raise ChunkKills(*chunk, None if game == NO_GAME else game, code) from None
                    self.lost.append(chunk)
                    todo.appendleft(chunk)
                    continue
                if retiring:
                    worker.stop()
                else:
                    self._idle.append(worker)
                if not ok:
                    raise value from RemoteTraceback(trace)
                yield value

    def close(self) -> None:
        """Stop every worker; chunks in flight are abandoned."""
        for worker in self._busy:
            worker.process.terminate()
        for worker in self._idle:
            with contextlib.suppress(OSError):
                worker.conn.send(None)
        for worker in [*self._idle, *self._busy]:
            worker.stop()
        self._idle, self._busy = [], {}


def _serve(conn: Connection, game: Any, driver: int) -> None:
    """A worker: play the chunks sent until told to stop (None) or to retire. Ctrl-C is the
    driver's (it stops the workers and keeps finished parts), and a worker exits soon after
    its driver is gone (killed with SIGKILL, the driver cannot stop it)."""
    global _playing
    _playing = game
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch_parent, args=(driver,), daemon=True).start()
    while True:
        try:
            task = conn.recv()
        except EOFError:
            return
        if task is None:
            return
        fn, start, stop = task
        try:
            reply = (True, fn(start, stop), "")
        except BaseException as exc:  # noqa: BLE001 - handed to the driver, which raises it
            reply = (False, exc, "".join(traceback.format_exception(exc)))
        game.value = NO_GAME
        try:
            conn.send((*reply, _retiring))
        except Exception as exc:  # noqa: BLE001 - an unpicklable result or error
            conn.send((False, RuntimeError(f"{type(exc).__name__}: {exc}"), reply[2], _retiring))
        if _retiring:
            return


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_POLL)
    os._exit(1)
