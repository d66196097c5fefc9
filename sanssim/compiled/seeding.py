"""`sanssim.seeding` in compiled code: a chunk's stream seeds derived and seeded in bulk.

A game's streams (its deal, its bag or decks, each seat's strategy) are seeded from
`derive_seed(game_seed, *parts)`, blake2b-64 of the parts' text. Derived per game in
Python that costs microseconds, as much as a random game; here it is blake2b on the
text `derive_seed` hashes, and the generators of a block of games are seeded together
(`rng.seed_block`), so that no game's streams wait on Python.

A core describes its streams once per chunk (`stream_table`), makes one block of
generators (`new_block`) and, every `BLOCK_GAMES` games, seeds the next block's streams
(`seed_games`): game i of a block draws stream s from `gens[i * streams + s]`. The hash
is kernels (`sanssim.compiled.kernel`): it runs once per stream and game.
"""

from __future__ import annotations

from collections.abc import Sequence

import numba as nb
import numpy as np

from sanssim.compiled import rng
from sanssim.compiled.kernel import kernel
from sanssim.seeding import SEED_BITS

# A stream's row in a stream table: its kind, then the bytes after the game seed's text.
GAME_SEED = -1  # seeded with the game seed itself, as `random.Random(game_seed)`
UNUSED = -2  # never drawn from: left unseeded
BLOCK_GAMES = rng.LANES  # games seeded together: every used stream fills whole lanes

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
_SIGMA = np.array(
    [
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
    ],
    dtype=np.int64,
)
_BLOCK = 128
_DIGEST = 8  # bytes: derive_seed's digest_size
_WIDEST_INT = 20  # characters of the longest int64 in decimal, its sign included


def stream_table(streams: Sequence[tuple[int | str, ...] | int]) -> np.ndarray:
    """A chunk's streams for `seed_games`, one row each, in the order of the generators:
    the parts after the game seed (`derive_seed(game_seed, *parts)`), or GAME_SEED, or
    UNUSED. Row: [kind or text length, the text's bytes...]."""
    texts = [
        s if isinstance(s, int) else "".join("," + str(part) for part in s).encode()
        for s in streams
    ]
    longest = max([len(t) for t in texts if not isinstance(t, int)], default=0)
    table = np.zeros((len(streams), 1 + longest), dtype=np.int64)
    for row, text in enumerate(texts):
        if isinstance(text, int):
            table[row, 0] = text
        else:
            table[row, 0] = len(text)
            table[row, 1 : 1 + len(text)] = list(text)
    return table


@nb.njit(cache=True, inline="always")
def _rotr(x: np.uint64, n: int) -> np.uint64:
    return (x >> np.uint64(n)) | (x << np.uint64(64 - n))


@nb.njit(cache=True, inline="always")
def _mix(a, b, c, d, x, y):  # noqa: ANN001, ANN202 - numba's uint64 scalars
    """BLAKE2b's G on one column or diagonal of the work vector."""
    a = a + b + x
    d = _rotr(d ^ a, 32)
    c = c + d
    b = _rotr(b ^ c, 24)
    a = a + b + y
    d = _rotr(d ^ a, 16)
    c = c + d
    b = _rotr(b ^ c, 63)
    return a, b, c, d


@kernel
def _compress(h: np.ndarray, m: np.ndarray, count: int, last: bool) -> None:
    """BLAKE2b's compression of one 16-word block `m` into `h` (RFC 7693, F)."""
    v0, v1, v2, v3, v4, v5, v6, v7 = h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]
    v8, v9, v10, v11 = _IV[0], _IV[1], _IV[2], _IV[3]
    v12, v13 = _IV[4] ^ np.uint64(count), _IV[5]
    v14 = ~_IV[6] if last else _IV[6]
    v15 = _IV[7]
    for r in range(12):
        s = _SIGMA[r % 10]
        v0, v4, v8, v12 = _mix(v0, v4, v8, v12, m[s[0]], m[s[1]])
        v1, v5, v9, v13 = _mix(v1, v5, v9, v13, m[s[2]], m[s[3]])
        v2, v6, v10, v14 = _mix(v2, v6, v10, v14, m[s[4]], m[s[5]])
        v3, v7, v11, v15 = _mix(v3, v7, v11, v15, m[s[6]], m[s[7]])
        v0, v5, v10, v15 = _mix(v0, v5, v10, v15, m[s[8]], m[s[9]])
        v1, v6, v11, v12 = _mix(v1, v6, v11, v12, m[s[10]], m[s[11]])
        v2, v7, v8, v13 = _mix(v2, v7, v8, v13, m[s[12]], m[s[13]])
        v3, v4, v9, v14 = _mix(v3, v4, v9, v14, m[s[14]], m[s[15]])
    h[0] ^= v0 ^ v8
    h[1] ^= v1 ^ v9
    h[2] ^= v2 ^ v10
    h[3] ^= v3 ^ v11
    h[4] ^= v4 ^ v12
    h[5] ^= v5 ^ v13
    h[6] ^= v6 ^ v14
    h[7] ^= v7 ^ v15


@kernel
def blake2b64(text: np.ndarray, length: int, words: np.ndarray) -> np.uint64:
    """`hashlib.blake2b(text[:length], digest_size=8)`'s digest as a big-endian integer;
    `words` is scratch of 24 (the hash state, then a block)."""
    h, m = words[:8], words[8:24]
    for i in range(8):
        h[i] = _IV[i]
    h[0] ^= np.uint64(0x01010000 | _DIGEST)
    done = 0
    while True:
        size = min(_BLOCK, length - done)
        last = done + size == length
        for i in range(16):
            m[i] = 0
        for i in range(size):
            m[i >> 3] |= np.uint64(text[done + i]) << np.uint64(8 * (i & 7))
        _compress(h, m, done + size, last)
        done += size
        if last:
            break
    out = np.uint64(0)
    for i in range(_DIGEST):  # the first 8 little-endian bytes of h[0], read big-endian
        out = (out << np.uint64(8)) | ((h[0] >> np.uint64(8 * i)) & np.uint64(0xFF))
    return out


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


@nb.njit(cache=True)
def scratch(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`derive`'s scratch for the streams of `table`: its text, blake2b's words."""
    return np.empty(_WIDEST_INT + table.shape[1], np.uint8), np.empty(24, np.uint64)


@kernel
def derive(
    seed: np.int64, table: np.ndarray, row: int, text: np.ndarray, words: np.ndarray
) -> np.int64:
    """`derive_seed(seed, *parts)` for the parts of `table[row]` (`stream_table`), in
    `scratch(table)`."""
    length = _write_int(seed, text)
    for i in range(table[row, 0]):
        text[length + i] = table[row, 1 + i]
    length += table[row, 0]
    return np.int64(blake2b64(text, length, words) >> np.uint64(64 - SEED_BITS))


@nb.njit(cache=True)
def new_block(table: np.ndarray) -> np.ndarray:
    """Generators for the streams of BLOCK_GAMES games (`seed_games` seeds them)."""
    return np.zeros((BLOCK_GAMES * table.shape[0], rng.STATE), dtype=np.uint32)


@nb.njit(cache=True)
def seed_games(table: np.ndarray, game_seeds: np.ndarray, first: int, gens: np.ndarray) -> None:
    """Seed the streams of the block of games from `first` (at most BLOCK_GAMES, to the
    end of `game_seeds`): game first + i's stream s is `gens[i * streams + s]`, drawing
    as `random.Random` seeded as `table` says (`stream_table`, `rng.seed_block`); UNUSED
    streams are left as they are."""
    streams = table.shape[0]
    count = min(BLOCK_GAMES, len(game_seeds) - first)
    text, words = scratch(table)
    rows = np.empty(count * streams, dtype=np.int64)
    values = np.empty(count * streams, dtype=np.int64)
    used = 0
    for i in range(count):
        seed = game_seeds[first + i]
        for s in range(streams):
            kind = table[s, 0]
            if kind == UNUSED:
                continue
            rows[used] = i * streams + s
            values[used] = seed if kind == GAME_SEED else derive(seed, table, s, text, words)
            used += 1
    rng.seed_block(gens, rows[:used], values[:used])
