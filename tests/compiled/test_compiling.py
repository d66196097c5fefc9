"""numba's compiler trimmed (`sanssim.compiled.compiling`): each change keeps numba's own
answers, and compiled code keeps working."""

from __future__ import annotations

import functools

import numba as nb
from numba.core.compiler import Flags
from numba.core.registry import cpu_target
from numba.core.targetconfig import TargetConfig

from sanssim.compiled.compiling import _flags_equal, _has_loc, _silence_lock_events, _takes_loc


def test_flags_compare_and_hash_as_numba_defines_them() -> None:
    def made(**options: object) -> Flags:
        flags = Flags()
        for name, value in options.items():
            setattr(flags, name, value)
        return flags

    default_nrt = Flags().nrt
    variants = [
        made(),
        made(nrt=default_nrt),  # set to its default: equal to unset
        made(nrt=not default_nrt),
        made(no_cpython_wrapper=True),
        made(no_cpython_wrapper=True, nrt=not default_nrt),
        made(no_cpython_wrapper=True, nrt=not default_nrt),
    ]
    for a in variants:
        assert hash(a) == hash(tuple(sorted(a.values())))  # numba's own definition
        for b in variants:
            assert (a == b) == _flags_equal(a, b) == (a.values() == b.values())
    assert variants[0] == variants[1] and variants[4] == variants[5]
    assert variants[0] != variants[2]
    assert TargetConfig.__eq__(variants[0], object()) is NotImplemented


def _positional(context, builder, sig, args):  # type: ignore[no-untyped-def]
    return None


def _with_loc(context, builder, sig, args, loc=None):  # type: ignore[no-untyped-def]
    return None


def _keyword_loc(*args, loc):  # type: ignore[no-untyped-def]
    return None


def _any_keywords(*args, **kwargs):  # type: ignore[no-untyped-def]
    return None


def _uses_loc_inside(context, builder, sig, args):  # type: ignore[no-untyped-def]
    loc = args
    return loc


def test_takes_loc_answers_as_numba_on_every_lowering_it_has() -> None:
    """numba's `_has_loc` and ours agree on hand-made functions (a local named `loc` is
    not a parameter; a wrapper's answer is its wrapped function's) and on every
    implementation in numba's lowering registry."""
    made = [
        _positional,
        _with_loc,
        _keyword_loc,
        _any_keywords,
        _uses_loc_inside,
        lambda context, builder, sig, args, loc: None,
        functools.partial(_with_loc, None),
        functools.wraps(_with_loc)(_any_keywords),
    ]
    context = cpu_target.target_context
    context.refresh()
    registered = [impl for r in context._registries for impl, *_ in r.functions]
    assert len(registered) > 1000
    answers = {_has_loc(fn) for fn in made}
    assert answers == {True, False}
    for fn in made + registered:
        assert _takes_loc(fn) == _has_loc(fn), fn


def test_lock_events_silenced_keep_other_callbacks() -> None:
    """Only numba's own callbacks leave the LLVM lock; compiled code still compiles."""
    from llvmlite import binding as ll

    calls = []

    def enter() -> None:
        calls.append("enter")

    def leave() -> None:
        calls.append("leave")

    ll.ffi.register_lock_callback(enter, leave)
    try:
        _silence_lock_events()
        assert (enter, leave) in ll.ffi.lib._lock._cblist
        assert all(c[0].__module__ != "numba.core.base" for c in ll.ffi.lib._lock._cblist)

        @nb.njit
        def double(x: int) -> int:
            return 2 * x

        assert double(21) == 42
        assert calls[:2] == ["enter", "leave"]
    finally:
        ll.ffi.unregister_lock_callback(enter, leave)
