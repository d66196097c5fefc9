"""Bit tricks on int64 masks in compiled code (Python's `int.bit_length`, `int.bit_count`
and the lowest set bit), each one instruction; and a square tile of uint32 words
transposed in vector registers."""

from __future__ import annotations

from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic


def _one_instruction(emit):
    """An intrinsic on an integer mask, taken as int64, whose int64 result `emit(builder,
    mask)` computes: written into its caller, no function of its own to compile."""

    def typer(typingctx, x):
        if not isinstance(x, types.Integer):
            return None

        def codegen(context, builder, signature, args):
            return emit(builder, context.cast(builder, args[0], x, types.int64))

        return types.int64(x), codegen

    typer.__name__ = emit.__name__
    typer.__doc__ = emit.__doc__
    return intrinsic(typer)


_WORD = ir.IntType(64)
_ANY = ir.Constant(ir.IntType(1), 0)  # ctlz and cttz of 0 defined: 64


@_one_instruction
def bit_length(builder, x):
    """`int.bit_length` of a non-negative mask (0 for 0)."""
    return builder.sub(ir.Constant(_WORD, 64), builder.ctlz(x, _ANY))


@_one_instruction
def low_bit(builder, x):
    """Index of the lowest set bit of a non-zero mask."""
    return builder.cttz(x, _ANY)


@_one_instruction
def bit_count(builder, x):
    """Set bits of a non-negative mask (`int.bit_count`): one `ctpop` instruction."""
    return builder.ctpop(x)


TILE = 16  # a tile's side: 16 words of 32 bits, 64 bytes, one cache line and one vector


@intrinsic
def transpose_tile(typingctx, src, row, col, dst, rows, count):
    """`dst[rows[k], row + j] = src[row + j, col + k]` for j < TILE and k < `count` (at
    most TILE), both C-contiguous 2-d uint32 arrays, `rows` integers: TILE vector loads,
    TILE * log2(TILE) shuffles and `count` stores, where numba's loops would move the
    words one at a time, from rows a cache line apart."""
    words = (src, dst)
    if not all(isinstance(a, types.Array) and a.dtype == types.uint32 for a in words):
        return None
    if not all(a.ndim == 2 and a.layout == "C" for a in words) or rows.ndim != 1:
        return None

    def codegen(context, builder, signature, args):
        vector = ir.VectorType(ir.IntType(32), TILE)
        source = context.make_array(src)(context, builder, args[0])
        target = context.make_array(dst)(context, builder, args[3])
        order = context.make_array(rows)(context, builder, args[4])
        r0, c0, count = (
            context.cast(builder, args[i], signature.args[i], types.intp) for i in (1, 2, 5)
        )

        def at(array, aryty, i, j):
            pointer = cgutils.get_item_pointer(context, builder, aryty, array, [i, j])
            return builder.bitcast(pointer, vector.as_pointer())

        def intp(k):
            return context.get_constant(types.intp, k)

        words = [
            builder.load(at(source, src, builder.add(r0, intp(j)), c0), align=4)
            for j in range(TILE)
        ]
        block = TILE // 2
        while block:  # swap the off-diagonal blocks of side `block` in every square of 2 * block
            low = ir.Constant(vector, [TILE + j - block if j & block else j for j in range(TILE)])
            high = ir.Constant(vector, [TILE + j if j & block else j + block for j in range(TILE)])
            for k in range(TILE):
                if not k & block:
                    a, b = words[k], words[k + block]
                    words[k] = builder.shuffle_vector(a, b, low)
                    words[k + block] = builder.shuffle_vector(a, b, high)
            block //= 2
        for k, column in enumerate(words):
            with builder.if_then(builder.icmp_signed("<", intp(k), count), likely=True):
                target_row = builder.load(
                    cgutils.get_item_pointer(context, builder, rows, order, [intp(k)])
                )
                target_row = context.cast(builder, target_row, rows.dtype, types.intp)
                builder.store(column, at(target, dst, target_row, r0), align=4)
        return context.get_dummy_value()

    return types.none(src, row, col, dst, rows, count), codegen
