"""`kernel`: numba's `njit` for the cores' hot functions, compiled without reference counts
and without a Python entry.

A kernel allocates nothing: it only reads and writes arrays its caller owns and keeps
alive (views of them included). numba otherwise increments and decrements every array
argument's reference count, atomically, on entry to and exit from every call, which
costs more than a strategy's whole option loop; a kernel's code is the same code
without those calls. A function that allocates (`np.empty`, `np.zeros`, ...) stays a
plain `njit` (numba refuses to compile it as a kernel).

Compiled code calls a kernel; Python does not (a core's entry points are plain `njit`).
So numba compiles no Python entry for it (`no_cpython_wrapper`): each entry unboxes every
argument, and every library that links the kernel compiled that code again, about 0.5 of
a Sanssouci core's 11 CPU-s of cold compile. Nor a C entry (`no_cfunc_wrapper`), which
nothing calls either: about 1 CPU-s less of the whole Sanssouci core's 17. numba's own
dispatcher would crash calling such a function from Python; a `Kernel` called from
Python (a test, say) calls its twin instead, the same function compiled with an entry,
once per process and not cached.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numba as nb
from numba.core.registry import CPUDispatcher


class Kernel(CPUDispatcher):
    """A kernel's dispatcher: compiled code calls it as numba's; Python calls its twin."""

    def __call__(self, *args: Any) -> Any:
        twin = self.__dict__.get("_twin")
        if twin is None:
            twin = self._twin = nb.njit(_nrt=False)(self.py_func)
        return twin(*args)


def kernel(fn: Callable | None = None, /, **inlining: bool) -> Any:
    """`fn` as a kernel, cached on disk; `kernel(forceinline=True)` for one that LLVM
    inlines where it is called (typed and compiled once, unlike numba's `inline`)."""

    def make(fn: Callable) -> Kernel:
        entries = {"no_cpython_wrapper": True, "no_cfunc_wrapper": True}
        options = {"nopython": True, "_nrt": False, **entries, **inlining}
        made = Kernel(py_func=fn, locals={}, targetoptions=options)
        made.enable_caching()
        return made

    return make if fn is None else make(fn)
