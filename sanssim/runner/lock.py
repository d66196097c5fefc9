"""One writer per run directory: a lock file naming its owner's pid and host.

Two runs, or a run and its `--resume`, writing one `--out` at once would interleave
parts and manifests. A lock left by a process that has died on this host is taken
over; one held on another host is refused, naming it (only its owner can tell).
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
from collections.abc import Iterator
from pathlib import Path

from sanssim.runformat import LOCK
from sanssim.runner.batch import clear_dir
from sanssim.runner.config import RunError
from sanssim.runner.files import now


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        return True
    return True


def _owner(path: Path) -> dict[str, object] | None:
    """The lock's owner, or None when it can be taken over (dead owner, unreadable lock)."""
    try:
        owner = json.loads(path.read_text(encoding="utf-8"))
        pid, host = int(owner["pid"]), str(owner["host"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if host == socket.gethostname() and not _alive(pid):
        return None
    return owner


@contextlib.contextmanager
def holding(out: Path, clear: bool = False) -> Iterator[None]:
    """Hold `out`'s lock while the body writes into it; `clear` (`--force`) empties it
    first, once the lock is held, so a forced run never destroys a running one's files."""
    out.mkdir(parents=True, exist_ok=True)
    path = out / LOCK
    me = {"pid": os.getpid(), "host": socket.gethostname(), "since": now()}
    for _ in range(2):
        try:
            with open(path, "x", encoding="utf-8") as f:
                json.dump(me, f)
            break
        except FileExistsError:
            owner = _owner(path)
            if owner is not None:
                raise RunError(
                    f"{out} is being written by pid {owner['pid']} on {owner['host']} "
                    f"(since {owner.get('since', '?')}); wait for it to finish or stop it"
                ) from None
            path.unlink(missing_ok=True)  # a dead process's lock: taken over
    else:
        raise RunError(f"{out}: could not take the lock {path}")
    try:
        if clear:
            clear_dir(out, LOCK)
        yield
    finally:
        path.unlink(missing_ok=True)
