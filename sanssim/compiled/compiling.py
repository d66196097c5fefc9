"""numba's compiler without the bookkeeping no core uses: a cold compile's CPU-seconds.

Each change here keeps what numba compiles, and the code it makes, the same; it drops,
or does more cheaply, work numba repeats thousands of times in a core's cold compile
for features the cores never use. Measured on the whole Sanssouci core (about 9.5 CPU-s), by
alternating compiles into empty caches:

- events (`_CompilerLock`, the LLVM lock's callbacks): numba announces every pass it
  runs and every call into LLVM (some 100,000 in all) to every listener, to time each
  compile for `Dispatcher.get_metadata`; 0.26 CPU-s;
- `_has_loc`: whether a lowering function takes `loc`, by `inspect.signature` at each
  of its 3,000 uses; read off the function's code instead, 0.07;
- `TargetConfig.__eq__` and `__hash__` (see `_same_flags`): 0.5;
- a kernel's type annotation (the text `inspect_types` prints, cached with its code),
  dropped in `kernel._LinkOnlyCompiler`: 0.15.

This reaches into numba's internals, which `pyproject.toml` pins to the versions it
was tested with.
"""

from __future__ import annotations

import types
from typing import Any

from llvmlite import binding as ll
from numba.core import base, compiler_lock, targetconfig


def _acquire(lock: compiler_lock._CompilerLock) -> None:
    lock._lock.acquire()


def _release(lock: compiler_lock._CompilerLock) -> None:
    lock._lock.release()


def _silence_lock_events() -> None:
    """numba's compiler lock without its start and end events, and the LLVM lock without
    the callbacks numba registered to send them: their only listeners are the timers
    each compile installs for its metadata."""
    compiler_lock._CompilerLock.acquire = _acquire
    compiler_lock._CompilerLock.release = _release
    callbacks = ll.ffi.lib._lock._cblist
    callbacks[:] = [c for c in callbacks if c[0].__module__ != base.__name__]


_has_loc = base._has_loc


def _takes_loc(fn: Any) -> bool:
    """numba's `_has_loc`: whether `fn` has a parameter `loc`; for a plain function, read
    off its code rather than built into a signature (`inspect.signature`)."""
    if type(fn) is not types.FunctionType or hasattr(fn, "__wrapped__"):
        return _has_loc(fn)
    code = fn.__code__
    return "loc" in code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]


_flags_equal = targetconfig.TargetConfig.__eq__
_DEFAULTS: dict[type, dict[str, Any]] = {}
_HASHES: dict[type, int] = {}


def _same_flags(flags: targetconfig.TargetConfig, other: object) -> Any:
    """numba's `TargetConfig.__eq__` (every option's value equal), without a dict of every
    option built through its property at each call: numba's typing compares flags at
    every lookup of an overload it has typed, some 100,000 times in a core's cold
    compile."""
    kind = type(flags)
    if kind is not type(other):
        return _flags_equal(flags, other)
    defaults = _DEFAULTS.get(kind)
    if defaults is None:
        defaults = _DEFAULTS[kind] = {k: o.default for k, o in kind.options.items()}
    mine, theirs = {**defaults, **flags._values}, {**defaults, **other._values}
    if len(mine) != len(defaults) or len(theirs) != len(defaults):  # a stray value
        return _flags_equal(flags, other)
    return mine == theirs


def _flags_hash(flags: targetconfig.TargetConfig) -> int:
    """numba's `TargetConfig.__hash__`, which hashes the sorted option names (`sorted` of
    a dict is its keys): the same for all flags of a class, so computed once."""
    kind = type(flags)
    found = _HASHES.get(kind)
    if found is None:
        found = _HASHES[kind] = hash(tuple(sorted(kind.options)))
    return found


_silence_lock_events()
base._has_loc = _takes_loc
targetconfig.TargetConfig.__eq__ = _same_flags
targetconfig.TargetConfig.__hash__ = _flags_hash
