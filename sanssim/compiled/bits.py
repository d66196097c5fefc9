"""Bit tricks on int64 masks in compiled code (Python's `int.bit_length`, `int.bit_count`,
the lowest set bit, the k-th set bit), each an instruction or two; and a square tile of
uint32 words transposed in vector registers."""

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


PORTABLE = False  # True: `nth_bit` compiles without BMI2 even where it has it (tests)


def _nth_bit_portable(mask, k):  # type: ignore[no-untyped-def]
    for _ in range(k):
        mask &= mask - 1
    return low_bit(mask)


@intrinsic
def nth_bit(typingctx, mask, k):
    """Index of set bit `k` (from 0, lowest first) of a mask with more than k set bits: a
    random seat's choice from a mask of choices, where a list would have to be written
    first. Two instructions where the processor has BMI2's `pdep` (it deposits 1 << k
    into the mask's set bits: only the k-th survives), which numba's code for this machine
    may use, its cache being kept per processor; elsewhere a loop clearing k low bits."""
    if not (isinstance(mask, types.Integer) and isinstance(k, types.Integer)):
        return None
    signature = types.int64(mask, k)

    def codegen(context, builder, sig, args):
        m, i = (
            context.cast(builder, v, t, types.int64) for v, t in zip(args, sig.args, strict=True)
        )
        if PORTABLE or "+bmi2" not in context.codegen()._tm_features.split(","):
            portable = types.int64(types.int64, types.int64)
            return context.compile_internal(builder, _nth_bit_portable, portable, (m, i))
        pdep = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(_WORD, [_WORD, _WORD]), "llvm.x86.bmi.pdep.64"
        )
        return builder.cttz(builder.call(pdep, [builder.shl(ir.Constant(_WORD, 1), i), m]), _ANY)

    return signature, codegen


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
