"""Kernels (`sanssim.compiled.kernel`): compiled once as LLVM code for their callers to
link, never as machine code of their own, and cached that way across processes."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np

from sanssim.compiled.kernel import _LinkOnlyLibrary, kernel

MODULE = """
import numba as nb
import numpy as np

from sanssim.compiled.kernel import kernel


@kernel
def add_one(a):
    for i in range(a.shape[0]):
        a[i] += 1


@kernel
def twice(a):
    add_one(a)
    add_one(a)


@nb.njit(cache=True)
def entry(n):
    a = np.zeros(n, dtype=np.int64)
    twice(a)
    return a.sum()
"""


def test_a_kernel_has_no_machine_code_and_its_callers_run_it() -> None:
    @kernel
    def bump(a: np.ndarray) -> None:
        a[0] += 7

    @kernel
    def caller(a: np.ndarray) -> None:
        bump(a)

    a = np.zeros(1, dtype=np.int64)
    caller(a)  # through its twin, which links both kernels' code
    assert a[0] == 7
    (library,) = [cres.library for cres in bump.overloads.values()]
    assert isinstance(library, _LinkOnlyLibrary)
    engine = library.codegen._engine
    assert not any(engine.is_symbol_defined(fn.name) for fn in library.get_defined_functions())


def test_kernels_cached_by_one_process_are_linked_by_the_next(tmp_path: Path) -> None:
    """The first process compiles the module and caches it; the second loads the entry from
    the cache, and a third, with the entry's cache gone, compiles it again from the
    kernels' cached LLVM code."""
    (tmp_path / "kernels_demo.py").write_text(textwrap.dedent(MODULE))
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(tmp_path)}
    run = [sys.executable, "-c", "import kernels_demo as m; print(m.entry(5))"]

    def answer() -> str:
        return subprocess.run(run, env=env, capture_output=True, text=True, check=True).stdout

    assert answer() == "10\n"
    assert answer() == "10\n"
    for cached in (tmp_path / "cache").rglob("kernels_demo.entry-*"):
        cached.unlink()
    assert answer() == "10\n"
