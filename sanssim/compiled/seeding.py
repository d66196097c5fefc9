"""`sanssim.seeding` in compiled code: a chunk's stream seeds derived and seeded in bulk.

A game's streams (its deal, its bag or decks, each seat's strategy) are seeded from
`derive_seed(game_seed, *parts)`, blake2b-64 of the parts' text. Derived per game in
Python that costs microseconds, as much as a random game; here it is blake2b on the
text `derive_seed` hashes, and the generators of a block of games are seeded together
(`lanes.seed_block`), so that no game's streams wait on Python.

A core describes its streams once per chunk (`stream_table`), makes one block of
generators and the space to seed them in (`block_space`) and, every `BLOCK_GAMES`
games, seeds the next block's streams (`seed_games`): game i of a block draws stream s
from `gens[i * streams + s]`. A stream's parts are short (`stream_table` insists that
any game seed's text and theirs fit one BLAKE2b block), so each seed is one compression,
HASH_LANES games side by side.
"""

from __future__ import annotations

from collections.abc import Sequence

import numba as nb
import numpy as np
from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic

from sanssim.compiled import rng
from sanssim.compiled.bits import TILE
from sanssim.compiled.kernel import kernel
from sanssim.compiled.lanes import LANES, lane_space, seed_block
from sanssim.compiled.lowered import smaller
from sanssim.seeding import SEED_BITS

# A stream's row in a stream table: its kind, then the bytes after the game seed's text.
GAME_SEED = -1  # seeded with the game seed itself, as `random.Random(game_seed)`
UNUSED = -2  # never drawn from: left unseeded
BLOCK_GAMES = LANES  # games seeded together: every used stream fills whole lanes

_IV = np.array(
    [
        0x6A09E667F3BCC908,
        0xBB67AE8584CAA73B,
        0x3C6EF372FE94F82B,
        0xA54FF53A5F1D36F1,
        0x510E527FADE682D1,
        0x9B05688C2B3E6C1F,
        0x1F83D9ABFB41BD6B,
        0x5BE0CD19137E2179,
    ],
    dtype=np.uint64,
)
_SIGMA = (
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
    [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
    [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
    [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
    [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
    [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
    [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
    [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
    [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
)
_BLOCK = 128
_DIGEST = 8  # bytes: derive_seed's digest_size
_WIDEST_INT = 20  # characters of the longest int64 in decimal, its sign included
_LONGEST_PARTS = _BLOCK - _WIDEST_INT  # a stream's text always fits one block


def stream_table(streams: Sequence[tuple[int | str, ...] | int]) -> np.ndarray:
    """A chunk's streams for `seed_games`, one row each, in the order of the generators:
    the parts after the game seed (`derive_seed(game_seed, *parts)`), or GAME_SEED, or
    UNUSED. Row: [kind or text length, the text's bytes...]."""
    texts = [
        s if isinstance(s, int) else "".join("," + str(part) for part in s).encode()
        for s in streams
    ]
    longest = max([len(t) for t in texts if not isinstance(t, int)], default=0)
    if longest > _LONGEST_PARTS:
        raise ValueError(
            f"a stream's parts take {longest} bytes; a compiled core's take at most"
            f" {_LONGEST_PARTS} (one BLAKE2b block with the longest game seed)"
        )
    table = np.zeros((len(streams), 1 + longest), dtype=np.int64)
    for row, text in enumerate(texts):
        if isinstance(text, int):
            table[row, 0] = text
        else:
            table[row, 0] = len(text)
            table[row, 1 : 1 + len(text)] = list(text)
    return table


# The work vector's columns, then its diagonals: where each round applies G.
_G = ((0, 4, 8, 12), (1, 5, 9, 13), (2, 6, 10, 14), (3, 7, 11, 15))
_G += ((0, 5, 10, 15), (1, 6, 11, 12), (2, 7, 8, 13), (3, 4, 9, 14))


HASH_LANES = 8  # texts hashed side by side, one 64-bit word of each in a vector
_ROUNDS = 12  # round r permutes the message by _SIGMA[r % 10]


@intrinsic
def _compress(typingctx, lanes):
    """BLAKE2b's compression of the last block into the state (RFC 7693, F), for
    HASH_LANES blocks at once: `lanes` is (25, HASH_LANES), C-contiguous, word i of every
    lane in its row i, so that a row is one vector: rows 0-7 the hash states, 8-23 the
    blocks, 24 the byte counts. A round is written out, every work word in a register; the
    twelve rounds are a loop that reads the round's message schedule from a constant
    table. Twelve rounds written out ran no faster here, and their code took LLVM about
    0.6 CPU-s more to compile in every core."""
    if not (
        isinstance(lanes, types.Array)
        and lanes.dtype == types.uint64
        and lanes.ndim == 2
        and lanes.layout == "C"
    ):
        return None

    def codegen(context, builder, signature, args):
        scalar, index = ir.IntType(64), ir.IntType(32)
        word = ir.VectorType(scalar, HASH_LANES)
        made = context.make_array(signature.args[0])(context, builder, args[0])
        rows = builder.bitcast(made.data, word.as_pointer())

        def load(i):  # row i: word i of every lane
            return builder.load(builder.gep(rows, [index(i)]), align=8)

        def store(value, i):
            builder.store(value, builder.gep(rows, [index(i)]), align=8)

        def constant(x):  # an unsigned 64-bit word as LLVM reads it: two's complement
            c = int(x) - (1 << 64) if int(x) >> 63 else int(x)
            return ir.Constant(word, [scalar(c)] * HASH_LANES)

        def rotr(x, n):
            return builder.or_(builder.lshr(x, constant(n)), builder.shl(x, constant(64 - n)))

        def slot(array, i):  # word i of a stack array of words
            return builder.gep(array, [index(0), i if isinstance(i, ir.Value) else index(i)])

        schedule = ir.ArrayType(ir.ArrayType(index, 16), _ROUNDS)
        sigma = cgutils.global_constant(
            builder,
            "blake2b_sigma",
            ir.Constant(
                schedule,
                [
                    ir.Constant(schedule.element, [index(x) for x in _SIGMA[r % 10]])
                    for r in range(_ROUNDS)
                ],
            ),
        )
        words = ir.ArrayType(word, 16)
        message, work = cgutils.alloca_once(builder, words), cgutils.alloca_once(builder, words)
        hs = [load(i) for i in range(8)]
        for i in range(16):
            builder.store(load(8 + i), slot(message, i))
        v = hs + [constant(x) for x in _IV]
        v[12] = builder.xor(v[12], load(24))
        v[14] = constant(~_IV[6])  # the last block's flag: the only block
        for i in range(16):
            builder.store(v[i], slot(work, i))
        with cgutils.for_range(builder, context.get_constant(types.intp, _ROUNDS)) as loop:
            v = [builder.load(slot(work, i)) for i in range(16)]
            r = builder.trunc(loop.index, index)
            for k, (a, b, c, d) in enumerate(_G):  # G in two halves, a message word each
                for half, (rd, rb) in enumerate(((32, 24), (16, 63))):
                    at = builder.gep(sigma, [index(0), r, index(2 * k + half)])
                    mw = builder.load(slot(message, builder.load(at)))
                    v[a] = builder.add(builder.add(v[a], v[b]), mw)
                    v[d] = rotr(builder.xor(v[d], v[a]), rd)
                    v[c] = builder.add(v[c], v[d])
                    v[b] = rotr(builder.xor(v[b], v[c]), rb)
            for i in range(16):
                builder.store(v[i], slot(work, i))
        v = [builder.load(slot(work, i)) for i in range(16)]
        for i in range(8):
            store(builder.xor(hs[i], builder.xor(v[i], v[i + 8])), i)
        return context.get_dummy_value()

    return types.none(lanes), codegen


@kernel
def _write_int(value: np.int64, text: np.ndarray) -> int:
    """`str(value)`'s bytes at the start of `text`; their count."""
    magnitude = np.uint64(value) if value >= 0 else np.uint64(0) - np.uint64(value)
    length = 1 if value >= 0 else 2
    rest = magnitude
    while rest >= np.uint64(10):
        rest //= np.uint64(10)
        length += 1
    first = 0
    if value < 0:
        text[0] = 45  # "-"
        first = 1
    for i in range(length - 1, first - 1, -1):
        text[i] = 48 + magnitude % np.uint64(10)
        magnitude //= np.uint64(10)
    return length


@kernel
def _derive(table, row: int, texts, lengths, lanes, out) -> None:
    """`derive_seed(game_seed, *parts)` for each game of the block, `parts` as `table[row]`
    has them: game i's seed text is `texts[i, : lengths[i]]`, its seed goes to `out[i]`.
    HASH_LANES games side by side (the last game repeated past the end); `lanes` is
    `_compress`'s scratch: hash states, blocks, byte counts, a row per word."""
    h, m, counts = lanes[:8], lanes[8:24], lanes[24]
    extra = table[row, 0]
    count = lengths.shape[0]
    for first in range(0, count, HASH_LANES):
        for lane in range(HASH_LANES):
            game = smaller(first + lane, count - 1)
            size = lengths[game]
            for w in range(16):
                m[w, lane] = 0
            for i in range(size + extra):  # little-endian words: byte i at bits 8 (i % 8)
                byte = texts[game, i] if i < size else table[row, 1 + i - size]
                m[i >> 3, lane] |= np.uint64(byte) << np.uint64(8 * (i & 7))
            counts[lane] = size + extra
            for i in range(8):  # the starting state of an unkeyed digest of _DIGEST bytes
                h[i, lane] = _IV[i]
            h[0, lane] ^= np.uint64(0x01010000 | _DIGEST)
        _compress(lanes)
        for lane in range(smaller(HASH_LANES, count - first)):
            digest = np.uint64(0)  # big-endian: the first 8 little-endian bytes of h[0]
            for i in range(_DIGEST):
                byte = (h[0, lane] >> np.uint64(8 * i)) & np.uint64(0xFF)
                digest = (digest << np.uint64(8)) | byte
            out[first + lane] = np.int64(digest >> np.uint64(64 - SEED_BITS))


def block_space(table: np.ndarray, words: Sequence[int] | None = None) -> tuple:
    """What `seed_games` works in, for the streams of `table`: first the generators of
    BLOCK_GAMES games (game i's stream s in row i * streams + s; a play loop draws from
    them), then the seeds' texts and lengths, `_derive`'s lanes, the derived seeds, the
    rows, values and words `lanes.seed_block` seeds, its own `lanes.lane_space`, and each
    stream's words to write: `words[s]` when stream s is never drawn further (a play loop
    that says so must make sure: `drawn_within`), else all. Allocated in Python: every
    numpy constructor numba compiles costs a core's cold compile about 0.05 CPU-s."""
    streams = table.shape[0]
    written = np.full(streams, rng.N, dtype=np.int64)
    if words is not None:
        tiles = -(-np.asarray(words, dtype=np.int64) // TILE) * TILE
        written = np.minimum(tiles, rng.N)
    return (
        np.zeros((BLOCK_GAMES * streams, rng.STATE), dtype=np.uint32),
        np.empty((BLOCK_GAMES, _WIDEST_INT), dtype=np.uint8),
        np.empty(BLOCK_GAMES, dtype=np.int64),
        np.empty((25, HASH_LANES), dtype=np.uint64),
        np.empty((streams, BLOCK_GAMES), dtype=np.int64),
        np.empty(BLOCK_GAMES * streams, dtype=np.int64),
        np.empty(BLOCK_GAMES * streams, dtype=np.int64),
        np.empty(BLOCK_GAMES * streams, dtype=np.int64),
        lane_space(),
        written,
    )


@nb.njit(cache=True, _nrt=False, inline="always")
def seed_games(table: np.ndarray, game_seeds: np.ndarray, first: int, space: tuple) -> None:
    """Seed the streams of the block of games from `first` (at most BLOCK_GAMES, to the
    end of `game_seeds`) in the generators of `space` (a `block_space`): game first + i's
    stream s is `space[0][i * streams + s]`, drawing as `random.Random` seeded as `table`
    says (`stream_table`, `lanes.seed_block`); UNUSED streams are left as they are. Inlined
    into the one play loop that calls it: as a function of its own, numba compiled its
    callees' code once more (about 0.3 CPU-s of a cold compile)."""
    gens, texts, lengths, lanes, derived, rows, values, words, seeding, written = space
    streams = table.shape[0]
    count = smaller(BLOCK_GAMES, len(game_seeds) - first)
    for i in range(count):
        lengths[i] = _write_int(game_seeds[first + i], texts[i])
    for s in range(streams):
        if table[s, 0] == GAME_SEED:
            for i in range(count):  # loops, not slice assignments: those compile a shape
                derived[s, i] = game_seeds[first + i]  # check and its message, seconds
        elif table[s, 0] >= 0:
            _derive(table, s, texts, lengths[:count], lanes, derived[s])
    used = 0
    for s in range(streams):  # a stream's generators side by side: their words alike
        if table[s, 0] != UNUSED:
            for i in range(count):
                rows[used] = i * streams + s
                values[used] = derived[s, i]
                words[used] = written[s]
                used += 1
    seed_block(gens, rows[:used], values[:used], words[:used], seeding)


@nb.njit(cache=True, _nrt=False, inline="always")
def drawn_within(space: tuple, row: int, stream: int) -> bool:
    """Whether the generator in `row` of a `block_space`'s generators has drawn no word
    past those written for its `stream`: a play loop that gave `block_space` words checks
    each such stream after each game. Its position is past them exactly when a draw read
    a word left unwritten, short of the N draws that would twist it: a check on a bound
    that is off by a little, not a proof of one."""
    return space[0][row, rng.N] <= space[9][stream]
