"""Many generators seeded side by side, as `random.Random(value)` seeds each (`rng`).

Seeding one generator is a chain of 1,247 dependent steps (init_by_array's two loops)
and a twist; a chunk seeds a few generators for every game it plays (`seeding`). Here
LANES generators take each step together, word i of every lane in one row, in vector
registers; the block is then twisted side by side and transposed into the generators'
rows a square tile at a time.
"""

from __future__ import annotations

import numba as nb
import numpy as np
from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic

from sanssim.compiled.bits import TILE, transpose_tile
from sanssim.compiled.kernel import kernel
from sanssim.compiled.lowered import larger, smaller
from sanssim.compiled.rng import (
    _ARRAY_1,
    _ARRAY_2,
    _INITIAL,
    _LOWER,
    _UPPER,
    M,
    N,
    _key_addends,
    _mix,
)

LANES = 64  # generators `seed_block` seeds side by side


def lane_space() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What `seed_block` works in: LANES generators a word to a row, and what
    init_by_array adds at each lane's even and odd steps. Allocated in Python, as numba
    compiles every array constructor it meets (about 0.05 CPU-s each)."""
    return (
        np.empty((N, LANES), dtype=np.uint32),
        np.empty(LANES, dtype=np.uint32),
        np.empty(LANES, dtype=np.uint32),
    )


@kernel
def seed_block(
    gens: np.ndarray, rows: np.ndarray, values: np.ndarray, words: np.ndarray, space: tuple
) -> None:
    """Seed `gens[rows[k]]` for `values[k]`, then twist it as its first draw would: the
    state `random.Random(values[k])` is in once it has drawn, at position 0, so the same
    draws as after `seed`; of its words, at least the first `words[k]` (a multiple of
    TILE, at most N) are written, for a stream its user never draws further (the rest are
    then left as they were). `space`: a `lane_space`.

    Seeding one generator is a chain of 1,247 dependent steps; here LANES chains run side
    by side, word i of every lane together, and twist side by side too; the block is then
    transposed into the generators' rows a square tile at a time: writing them was about
    a third of the seeding, and a random seat reads a sixth of its words."""
    lanes, even, odd = space  # even, odd: added at init_by_array's even, odd steps
    for start in range(0, len(rows), LANES):
        used = smaller(LANES, len(rows) - start)
        for lane in range(LANES):
            even[lane], odd[lane] = _key_addends(values[start + smaller(lane, used - 1)])
        _init_by_array(lanes, even, odd)
        _twist_lanes(lanes)
        for lane in range(0, used, TILE):
            count = smaller(TILE, used - lane)
            written = 0
            for k in range(start + lane, start + lane + count):
                written = larger(written, words[k])
            for first in range(0, written, TILE):
                transpose_tile(lanes, first, lane, gens, rows[start + lane :], count)
        for lane in range(used):
            gens[rows[start + lane], N] = 0


_VECTOR = 16  # lanes `_init_by_array` steps together: one vector register of words


@intrinsic
def _init_by_array(typingctx, lanes, even, odd):
    """init_by_array's two loops in every lane, from `_INITIAL` (word i of every lane in
    row i of `lanes`, (N, LANES) uint32 C-contiguous; `even`, `odd`: what the first loop
    adds at each lane's even and odd steps), written as LLVM vectors of _VECTOR words:
    each vector's previous word stays in a register from step to step (numba's loops kept
    it in memory, a store and a load more on the chain of 1,247 dependent steps: a third
    slower)."""
    vector = ir.VectorType(ir.IntType(32), _VECTOR)
    groups = LANES // _VECTOR

    def codegen(context, builder, signature, args):
        word, index = ir.IntType(32), ir.IntType(64)
        first, second, one = int(_ARRAY_1), int(_ARRAY_2), index(1)
        made = zip(signature.args, args, strict=True)
        rows, plus_even, plus_odd = (
            builder.bitcast(context.make_array(t)(context, builder, a).data, vector.as_pointer())
            for t, a in made
        )
        initial = cgutils.global_constant(
            builder,
            "mt_initial",
            ir.Constant(ir.ArrayType(word, N), [word(int(x)) for x in _INITIAL[:N]]),
        )

        def splat(x):
            x = builder.insert_element(ir.Constant(vector, ir.Undefined), x, word(0))
            return builder.shuffle_vector(x, x, ir.Constant(vector, [0] * _VECTOR))

        def at(i, g):  # word i of group g's lanes
            return builder.gep(rows, [builder.add(builder.mul(i, index(groups)), index(g))])

        def step(i, g, was, multiplier, finish):  # mt[i] = finish(was ^ spread(mt[i - 1]))
            q = builder.load(prev[g])
            spread = builder.mul(
                builder.xor(q, builder.lshr(q, splat(word(30)))), splat(word(multiplier))
            )
            cur = finish(builder.xor(was, spread))
            builder.store(cur, at(i, g), align=4)
            builder.store(cur, prev[g])

        def word_at(i, g):
            return builder.load(at(i, g), align=4)

        adds = [
            [builder.load(builder.gep(p, [index(g)]), align=4) for g in range(groups)]
            for p in (plus_even, plus_odd)
        ]
        start = splat(word(int(_INITIAL[0])))
        prev = [cgutils.alloca_once_value(builder, start) for _ in range(groups)]
        with cgutils.for_range(builder, index(N - 1)) as loop:  # the first loop: words 1 to 623
            i = builder.add(loop.index, one)
            was = splat(builder.load(builder.gep(initial, [index(0), i])))
            odd_step = builder.trunc(loop.index, ir.IntType(1))
            for g in range(groups):
                add = builder.select(odd_step, adds[1][g], adds[0][g])
                step(i, g, was, first, lambda x, a=add: builder.add(x, a))
        for g in range(groups):  # its last step, an odd one, on word 1 again
            step(one, g, word_at(one, g), first, lambda x, a=adds[1][g]: builder.add(x, a))
        with cgutils.for_range(builder, index(N - 2)) as loop:  # the second: words 2 to 623
            i = builder.add(loop.index, index(2))
            minus = splat(builder.trunc(i, word))
            for g in range(groups):
                step(i, g, word_at(i, g), second, lambda x, m=minus: builder.sub(x, m))
        for g in range(groups):  # then word 1
            step(one, g, word_at(one, g), second, lambda x: builder.sub(x, splat(word(1))))
        return context.get_dummy_value()

    return types.none(lanes, even, odd), codegen


@kernel
def _twist_lanes(block: np.ndarray) -> None:
    """`_twist` of every lane's generator at once, word kk of all lanes together, from
    the state init_by_array leaves (its word 0 set to 0x80000000)."""
    lanes = block.reshape(N * LANES)  # rows a constant length apart: the loops vectorise
    for lane in range(LANES):
        lanes[lane] = _UPPER
    for kk in range(N - M):  # split where kk + M wraps, as `_twist`
        _twist_row(lanes, kk, kk + 1, kk + M)
    for kk in range(N - M, N - 1):
        _twist_row(lanes, kk, kk + 1, kk + M - N)
    _twist_row(lanes, N - 1, 0, M - 1)


@nb.njit(cache=True, inline="always")
def _twist_row(lanes: np.ndarray, kk: int, nxt: int, far: int) -> None:
    for lane in range(LANES):
        y = (lanes[kk * LANES + lane] & _UPPER) | (lanes[nxt * LANES + lane] & _LOWER)
        lanes[kk * LANES + lane] = lanes[far * LANES + lane] ^ _mix(y)
