"""`kernel`: numba's `njit` for the cores' hot functions, compiled without reference counts
and without a Python entry.

A kernel allocates nothing: it only reads and writes arrays its caller owns and keeps
alive (views of them included). numba otherwise increments and decrements every array
argument's reference count, atomically, on entry to and exit from every call, which
costs more than a strategy's whole option loop; a kernel's code is the same code
without those calls. A function that allocates (`np.empty`, `np.zeros`, ...) is
reference-counted (`kernel(allocates=True)`; numba refuses to compile it otherwise).

Compiled code calls a kernel; Python does not (a core's entry points are plain `njit`).
So numba compiles no Python entry for it (`no_cpython_wrapper`): each entry unboxes every
argument, and every library that links the kernel compiled that code again, about 0.5 of
a Sanssouci core's 11 CPU-s of cold compile. Nor a C entry (`no_cfunc_wrapper`), which
nothing calls either: about 1 CPU-s less of the whole Sanssouci core's 17. numba's own
dispatcher would crash calling such a function from Python; a `Kernel` called from
Python (a test, say) calls its twin instead, the same function compiled with an entry,
once per process and not cached.

Nor does a kernel get machine code of its own. numba gives every function a library,
links into it the LLVM code of every function it calls, and compiles the whole to machine
code; so a kernel five calls deep was compiled five times over, once in each library on
the way up, though only the entry point's copy ever runs; and optimised it at each
level too. A kernel's library (`_LinkOnlyLibrary`) stops at LLVM code optimised function
by function, cached as bitcode, for its callers to link; the entry point's library
optimises and compiles everything once. The games and their speed are the same; a whole
Sanssouci core's cold compile fell from 16.5 to 11.7 CPU-s, a `heuristic` run's from 8.2 to
6.4. This reaches into numba's code generation (a library class, its cache format, a
compiler class), which `pyproject.toml` pins to the numba versions it was tested with.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numba as nb
from llvmlite import binding as ll
from numba.core import compiler
from numba.core.codegen import JITCodeLibrary, JITCPUCodegen
from numba.core.dispatcher import _FunctionCompiler
from numba.core.registry import CPUDispatcher

from sanssim.compiled import compiling  # noqa: F401 - numba's compiler, trimmed

_LINK_ONLY = "sanssim-link-only"  # how a kernel's library is cached: its bitcode


class _LinkOnlyLibrary(JITCodeLibrary):
    """A kernel's library: optimised LLVM code for its callers to link in, never machine
    code of its own (no caller runs it: each compiles its own copy)."""

    def _optimize_final_module(self) -> None:
        """Left to the entry point's library, which optimises all it links at once: each
        library on the way up optimised its callees' code again."""

    def _finalize_final_module(self) -> None:
        self._finalize_dynamic_globals()
        self._verify_declare_only_symbols()
        self._finalized = True

    def serialize_using_object_code(self) -> tuple[str, str, bytes]:
        return (self.name, _LINK_ONLY, self._final_module.as_bitcode())


_unserialize_library = JITCPUCodegen.unserialize_library


def _unserialize(codegen: JITCPUCodegen, serialized: tuple[str, str, bytes]) -> Any:
    """numba's `unserialize_library`, which also reads a kernel's cached bitcode."""
    name, kind, data = serialized
    if kind != _LINK_ONLY:
        return _unserialize_library(codegen, serialized)
    library = _LinkOnlyLibrary(codegen, name)
    library._final_module = ll.parse_bitcode(data)
    library._finalize_final_module()
    return library


JITCPUCodegen.unserialize_library = _unserialize
_set_env = JITCPUCodegen.set_env


def _set_env_if_loaded(codegen: JITCPUCodegen, env_name: str, env: Any) -> None:
    """numba's `set_env`, skipped for a kernel: its environment was never loaded (nothing
    runs its code), and numba would write through a null address."""
    if codegen._engine.get_global_value_address(env_name):
        _set_env(codegen, env_name, env)


JITCPUCodegen.set_env = _set_env_if_loaded


class _LinkOnlyCompiler(_FunctionCompiler):
    """numba's compiler for one function, lowering a kernel into a `_LinkOnlyLibrary`."""

    def _compile_core(self, args: Any, return_type: Any) -> Any:
        flags = compiler.Flags()
        self.targetdescr.options.parse_as_flags(flags, self.targetoptions)
        context = self.targetdescr.target_context
        compiled = compiler.compile_extra(
            self.targetdescr.typing_context,
            context,
            self.py_func,
            args=args,
            return_type=return_type,
            flags=flags,
            locals=self.locals,
            library=_LinkOnlyLibrary(context.codegen(), self.py_func.__qualname__),
            pipeline_class=self.pipeline_class,
        )
        # No type annotation: its text, made for `inspect_types` and cached with the
        # code, took 0.15 of a Sanssouci core's 9.5 CPU-s of cold compile.
        return compiled._replace(type_annotation=None)


class Kernel(CPUDispatcher):
    """A kernel's dispatcher: compiled code calls it as numba's; Python calls its twin."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._compiler.__class__ = _LinkOnlyCompiler

    def __call__(self, *args: Any) -> Any:
        twin = self.__dict__.get("_twin")
        if twin is None:
            twin = self._twin = nb.njit(_nrt=self.targetoptions["_nrt"])(self.py_func)
        return twin(*args)


def kernel(fn: Callable | None = None, /, *, allocates: bool = False, **inlining: bool) -> Any:
    """`fn` as a kernel, cached on disk; `kernel(forceinline=True)` for one that LLVM
    inlines where it is called (typed and compiled once, unlike numba's `inline`);
    `kernel(allocates=True)` for a function that allocates, called from compiled code
    only: reference-counted, but without entries or machine code of its own."""

    def make(fn: Callable) -> Kernel:
        entries = {"no_cpython_wrapper": True, "no_cfunc_wrapper": True}
        options = {"nopython": True, "_nrt": allocates, **entries, **inlining}
        made = Kernel(py_func=fn, locals={}, targetoptions=options)
        made.enable_caching()
        return made

    return make if fn is None else make(fn)
