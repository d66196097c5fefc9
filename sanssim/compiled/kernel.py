"""`kernel`: numba's `njit` for the cores' hot functions, compiled without reference counts.

A kernel allocates nothing: it only reads and writes arrays its caller owns and keeps
alive (views of them included). numba otherwise increments and decrements every array
argument's reference count, atomically, on entry to and exit from every call, which
costs more than a strategy's whole option loop; a kernel's code is the same code
without those calls. A function that allocates (`np.empty`, `np.zeros`, ...) stays a
plain `njit` (numba refuses to compile it as a kernel)."""

from __future__ import annotations

import numba as nb

kernel = nb.njit(cache=True, _nrt=False)
