"""`np.empty`, `np.zeros`, `np.arange`, `min` and `max` for the cores, written into their
callers.

numba implements these as overloads: a function of their own, compiled (typed, lowered,
optimised, given machine code) once for every signature they meet, about 0.03 CPU-s
each (`np.zeros` more: it compiles `np.empty` and a fill too); the Sanssouci core met
seventeen, the Splendor core thirty. These are intrinsics instead: their code goes
straight into the caller's, with nothing of their own to compile.
"""

from __future__ import annotations

from numba.core import cgutils, types
from numba.core.typing.npydecl import parse_dtype, parse_shape
from numba.extending import intrinsic
from numba.np.arrayobj import _empty_nd_impl, _parse_shape


def _allocation(name: str, zeroed: bool, doc: str):
    """An intrinsic `name(shape, dtype)` making a C-ordered array as numba's `np.empty`
    does (`shape` an integer or a tuple of them, `dtype` a numpy scalar type such as
    `np.int64`), its bytes then set to 0 when `zeroed`."""

    def typer(typingctx, shape, dtype):
        ndim, item = parse_shape(shape), parse_dtype(dtype)
        if ndim is None or item is None:
            return None
        made = types.Array(item, ndim, "C")

        def codegen(context, builder, signature, args):
            shapes = _parse_shape(context, builder, signature.args[0], args[0])
            array = _empty_nd_impl(context, builder, made, shapes)
            if zeroed:
                size = builder.mul(array.itemsize, array.nitems)
                cgutils.memset(builder, array.data, size, 0)
            return array._getvalue()

        return made(shape, dtype), codegen

    typer.__name__ = name
    typer.__doc__ = doc
    return intrinsic(typer)


empty = _allocation("empty", False, "`np.empty(shape, dtype)`.")
zeros = _allocation("zeros", True, "`np.zeros(shape, dtype)`.")


@intrinsic
def arange(typingctx, count):
    """`np.arange(count)` of int64: 0, 1, ... count - 1."""
    if not isinstance(count, types.Integer):
        return None
    made = types.Array(types.int64, 1, "C")

    def codegen(context, builder, signature, args):
        n = context.cast(builder, args[0], signature.args[0], types.intp)
        array = _empty_nd_impl(context, builder, made, [n])
        with cgutils.for_range(builder, n) as loop:
            builder.store(loop.index, builder.gep(array.data, [loop.index]))
        return array._getvalue()

    return made(count), codegen


def _pick(name: str, replace_if: str, doc: str):
    """An intrinsic of two numbers, unified to one type, that returns the first unless the
    second compares `replace_if` (an LLVM comparison) to it: Python's `min(a, b)` keeps a
    unless b < a, its `max` unless b > a."""

    def typer(typingctx, a, b):
        if not (isinstance(a, types.Number) and isinstance(b, types.Number)):
            return None
        both = typingctx.unify_pairs(a, b)

        def codegen(context, builder, signature, args):
            x, y = (context.cast(builder, v, t, both) for v, t in zip(args, (a, b), strict=True))
            if isinstance(both, types.Float):
                replace = builder.fcmp_ordered(replace_if, y, x)
            else:
                compare = builder.icmp_signed if both.signed else builder.icmp_unsigned
                replace = compare(replace_if, y, x)
            return builder.select(replace, y, x)

        return both(a, b), codegen

    typer.__name__ = name
    typer.__doc__ = doc
    return intrinsic(typer)


smaller = _pick("smaller", "<", "`min(a, b)` of two numbers.")
larger = _pick("larger", ">", "`max(a, b)` of two numbers.")
