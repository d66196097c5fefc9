"""Python's `random.Random` (MT19937) replicated in compiled code, draw for draw.

A compiled core must play the game its Python engine plays from one seed, so every
random number must be the one `random.Random` would give: the same seeding
(`init_by_array` on the seed's 32-bit words), the same words, and the same ways of
turning words into choices (`getrandbits`, `_randbelow`'s rejection loop, `random()`'s
53-bit float, `shuffle`, `choice`, `sample`, `randrange`). A generator is one row of
625 uint32: the 624 state words and the position, as `random.getstate()` gives them.
"""

from __future__ import annotations

import random as _random

import numba as nb
import numpy as np
from llvmlite import ir
from numba.core import types
from numba.extending import intrinsic

from sanssim.compiled.bits import bit_length
from sanssim.compiled.kernel import kernel

N = 624
M = 397
STATE = N + 1  # words, then the position
_MATRIX_A = np.uint32(0x9908B0DF)
_UPPER = np.uint32(0x80000000)
_LOWER = np.uint32(0x7FFFFFFF)
_ARRAY_1 = np.uint32(1664525)  # init_by_array's multipliers
_ARRAY_2 = np.uint32(1566083941)


def new_generators(count: int) -> np.ndarray:
    """`count` unseeded generators, one row each."""
    return np.zeros((count, STATE), dtype=np.uint32)


def from_python(rng: _random.Random) -> np.ndarray:
    """A generator in the state `rng` is in (`random.getstate()`)."""
    _version, words, _gauss = rng.getstate()
    return np.array(words, dtype=np.uint32)


def to_python(g: np.ndarray) -> _random.Random:
    """A `random.Random` in the state of compiled generator `g` (for tests and hand-offs)."""
    rng = _random.Random()
    rng.setstate((3, tuple(int(w) for w in g), None))
    return rng


def _initial_state() -> np.ndarray:
    """`init_genrand(19650218)`, where every `init_by_array` starts: the same words for
    every seed, so computed once."""
    g = np.zeros(STATE, dtype=np.uint32)
    g[0] = 19650218
    for i in range(1, N):
        prev = int(g[i - 1])
        g[i] = (1812433253 * (prev ^ (prev >> 30)) + i) & 0xFFFFFFFF
    g[N] = N
    return g


_INITIAL = _initial_state()


@kernel
def seed(g: np.ndarray, value: np.int64) -> None:
    """Seed `g` as `random.Random(value)` does for a non-negative int below 2**64 (or its
    bit pattern as an int64): `init_by_array` on its one or two 32-bit words."""
    even, odd = _key_addends(value)
    prev = _INITIAL[0]
    for i in range(1, N):  # the first loop's steps 0 to 622, on words 1 to 623
        prev = np.uint32((_INITIAL[i] ^ _spread(prev, _ARRAY_1)) + (even if i % 2 else odd))
        g[i] = prev
    prev = np.uint32((g[1] ^ _spread(prev, _ARRAY_1)) + odd)  # its step 623, on word 1
    g[1] = prev
    for i in range(2, N):  # the second loop: words 2 to 623, then word 1
        prev = np.uint32((g[i] ^ _spread(prev, _ARRAY_2)) - np.uint32(i))
        g[i] = prev
    g[1] = np.uint32((g[1] ^ _spread(prev, _ARRAY_2)) - np.uint32(1))
    g[0] = _UPPER
    g[N] = N


@nb.njit(cache=True, inline="always")
def _key_addends(value: np.int64) -> tuple[np.uint32, np.uint32]:
    """What init_by_array's first loop adds at its even and its odd steps (key[j] + j):
    the key is the value's low 32-bit word, then its high one when that is not 0."""
    v = np.uint64(value)
    low = np.uint32(v & np.uint64(0xFFFFFFFF))
    high = np.uint32(v >> np.uint64(32))
    return low, (np.uint32(high + np.uint32(1)) if high != 0 else low)


@nb.njit(cache=True, inline="always")
def _spread(q: np.uint32, multiplier: np.uint32) -> np.uint32:
    return np.uint32((q ^ (q >> np.uint32(30))) * multiplier)


@kernel
def _twist(g: np.ndarray) -> None:
    """The next 624 words in place (the loop split where `kk + M` wraps, which lets it
    vectorise)."""
    for kk in range(N - M):
        g[kk] = g[kk + M] ^ _mix((g[kk] & _UPPER) | (g[kk + 1] & _LOWER))
    for kk in range(N - M, N - 1):
        g[kk] = g[kk + M - N] ^ _mix((g[kk] & _UPPER) | (g[kk + 1] & _LOWER))
    g[N - 1] = g[M - 1] ^ _mix((g[N - 1] & _UPPER) | (g[0] & _LOWER))


@intrinsic
def _mix(typingctx, y):
    """`(y >> 1) ^ (0x9908B0DF if y is odd else 0)` in uint32, the twist's step. An
    intrinsic, written into its six callers: numba typed a helper again at every site it
    inlined it. (init_by_array's `_spread` as one made the seeding a tenth slower.)"""
    if not isinstance(y, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        x = context.cast(builder, args[0], signature.args[0], types.uint32)  # numba widens
        odd = builder.sub(_word(0), builder.and_(x, _word(1)))  # all ones when odd
        return builder.xor(builder.lshr(x, _word(1)), builder.and_(odd, _word(int(_MATRIX_A))))

    return types.uint32(y), codegen


def _word(value: int) -> ir.Constant:
    return ir.Constant(ir.IntType(32), value)


# The draws below are kernels (`sanssim.compiled.kernel`), or inlined: called once or
# twice per decision, a reference-counted call costs ten times the draw itself.


@kernel
def word(g: np.ndarray) -> np.uint32:
    """The next 32-bit output (`genrand_uint32`)."""
    at = g[N]
    if at >= N:
        _twist(g)
        at = 0
    y = g[at]
    g[N] = at + 1
    return _temper(y)


@kernel(forceinline=True)
def _temper(y: np.uint32) -> np.uint32:
    """A state word as the generator outputs it."""
    y ^= y >> np.uint32(11)
    y ^= (y << np.uint32(7)) & np.uint32(0x9D2C5680)
    y ^= (y << np.uint32(15)) & np.uint32(0xEFC60000)
    y ^= y >> np.uint32(18)
    return y


@kernel
def getrandbits(g: np.ndarray, k: int) -> np.int64:
    """`getrandbits(k)` for 0 <= k <= 63: low word first, the last one cut to size."""
    if k <= 0:
        return np.int64(0)
    if k <= 32:
        return np.int64(word(g) >> np.uint32(32 - k))
    low = np.int64(word(g))
    high = np.int64(word(g) >> np.uint32(64 - k))
    return low | (high << np.int64(32))


@kernel
def randbelow(g: np.ndarray, n: np.int64) -> np.int64:
    """`_randbelow(n)` for n > 0 (`below`, called)."""
    return below(g, n)


@nb.njit(cache=True, _nrt=False, inline="always")
def below(g: np.ndarray, n: np.int64) -> np.int64:
    """`_randbelow(n)` for n > 0: `getrandbits(n.bit_length())` until below n (`two_tries`
    first, where they can be read). Inlined where a loop draws many: a call costs as much
    as the draw."""
    k = bit_length(n)
    at = g[N]
    if k <= 32 and at < N - 1:
        r, g[N] = two_tries(g, at, n, k)
        if r < n:
            return r
    r = getrandbits(g, k)
    while r >= n:
        r = getrandbits(g, k)
    return r


@kernel(forceinline=True)
def two_tries(g: np.ndarray, at: np.int64, n: np.int64, k: np.int64) -> tuple[np.int64, np.int64]:
    """`_randbelow(n)`'s first two tries of k <= 32 bits, read at once from words `at` and
    `at + 1` (`at < N - 1`), the one taken picked without a branch, since whether a try is
    rejected is a coin toss the processor mispredicts: the pick (n or more when both are
    rejected: the loop goes on) and the position after it."""
    shift = np.uint32(32 - k)
    first = np.int64(_temper(g[at]) >> shift)
    second = np.int64(_temper(g[at + 1]) >> shift)
    again = first >= n
    return (second if again else first), at + 1 + again


@kernel
def randrange(g: np.ndarray, start: np.int64, stop: np.int64) -> np.int64:
    """`randrange(start, stop)` (and `randrange(n)` as `randrange(0, n)`)."""
    return start + randbelow(g, stop - start)


@kernel(forceinline=True)
def random(g: np.ndarray) -> float:
    """`random()`: a 53-bit float in [0, 1), from two words, read together when no twist
    falls between them. Inlined where it is called: a random seat draws it at every
    decision, and a call would cost as much as the draw."""
    at = g[N]
    if at < N - 1:
        g[N] = at + 2
        a = _temper(g[at]) >> np.uint32(5)
        b = _temper(g[at + 1]) >> np.uint32(6)
    else:
        a = word(g) >> np.uint32(5)
        b = word(g) >> np.uint32(6)
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


@kernel
def shuffle(g: np.ndarray, x: np.ndarray, n: int) -> None:
    """`shuffle(x[:n])` in place. The position stays in a register while `two_tries` can
    read: kept in `g`, each draw would wait on the store of the one before."""
    at = g[N]
    for i in range(n - 1, 0, -1):
        k = bit_length(i + 1)
        j = i + 1
        if k <= 32 and at < N - 1:
            j, at = two_tries(g, at, i + 1, k)
        if j > i:  # both tries rejected, or none read: the draw goes on from `at`
            g[N] = at
            j = randbelow(g, i + 1)
            at = g[N]
        tmp = x[i]
        x[i] = x[j]
        x[j] = tmp
    g[N] = at


@kernel
def choice_index(g: np.ndarray, n: int) -> np.int64:
    """The index `choice(seq)` picks in a sequence of length n."""
    return randbelow(g, n)


@kernel
def sample_indices(g: np.ndarray, n: int, k: int, out: np.ndarray, pool: np.ndarray) -> None:
    """The indices `sample(range(n), k)` picks, in selection order, into `out[:k]`;
    both of Python's methods: a pool for small populations (`pool`: room for its n
    indices when n is at most the set size, 21 for up to 5 picks), a set otherwise (the
    picks so far, searched). A kernel: a deal samples every game."""
    setsize = 21
    if k > 5:
        # 4 ** ceil(log(3k, 4)), computed as Python does, in floating point
        setsize += 4 ** np.int64(np.ceil(np.log(k * 3) / np.log(4)))
    if n <= setsize:
        for i in range(n):
            pool[i] = i
        for i in range(k):
            j = randbelow(g, n - i)
            out[i] = pool[j]
            pool[j] = pool[n - i - 1]
    else:
        for i in range(k):
            j = randbelow(g, n)
            while _picked(out, i, j):
                j = randbelow(g, n)
            out[i] = j


@kernel
def _picked(out: np.ndarray, i: int, j: np.int64) -> bool:
    """Whether `j` is among the first `i` picks in `out`."""
    for m in range(i):  # noqa: SIM110 - no generator in compiled code
        if out[m] == j:
            return True
    return False
