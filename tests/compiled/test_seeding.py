"""Seeds derived and generators seeded in compiled code are `sanssim.seeding`'s and
`random.Random`'s, for every kind of value the derivations take."""

from __future__ import annotations

import hashlib
import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sanssim.compiled import rng, seeding
from sanssim.seeding import derive_seed, strategy_parts, strategy_seed

int64s = st.integers(min_value=-(2**63), max_value=2**63 - 1)
parts = st.lists(
    st.integers(min_value=-(2**63), max_value=2**63 - 1)
    | st.text(st.characters(exclude_categories=("Cs",))),
    max_size=4,
)
EDGES = [0, 1, 9, 10, 99, 100, -1, -9, -10, 2**62, 2**63 - 1, -(2**63), -(2**63) + 1]


def _derived(seed: int, *rest: int | str) -> int:
    table = seeding.stream_table([tuple(rest)])
    return int(seeding.derive(seed, table, 0, *seeding.scratch(table)))


@given(st.binary(max_size=400))
@settings(max_examples=300, deadline=None)
def test_blake2b_is_hashlibs(data: bytes) -> None:
    text = np.frombuffer(data + b"\0", dtype=np.uint8)
    want = int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "big")
    assert int(seeding.blake2b64(text, len(data), np.empty(24, np.uint64))) == want


def test_blake2b_at_block_boundaries() -> None:
    for length in (0, 1, 127, 128, 129, 255, 256, 257, 1000):
        data = bytes(random.Random(length).getrandbits(8) for _ in range(length))
        text = np.frombuffer(data + b"\0", dtype=np.uint8)
        want = int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "big")
        assert int(seeding.blake2b64(text, length, np.empty(24, np.uint64))) == want


@given(int64s, parts)
@settings(max_examples=300, deadline=None)
def test_derive_is_derive_seed(seed: int, rest: list[int | str]) -> None:
    assert _derived(seed, *rest) == derive_seed(seed, *rest)


def test_derive_at_the_edges_of_int64() -> None:
    for seed in EDGES:
        for rest in [(), (0, 1), (3, 1), ("bag",), ("deck1",), ("nobles",), ("é" * 70, -5)]:
            assert _derived(seed, *rest) == derive_seed(seed, *rest), (seed, rest)


def _draws(g: np.ndarray, count: int = 700) -> list[int]:
    return [int(rng.word(g)) for _ in range(count)]


@given(st.lists(st.integers(min_value=0, max_value=2**64 - 1), min_size=1, max_size=150))
@settings(max_examples=30, deadline=None)
def test_seed_block_draws_as_random_random(values: list[int]) -> None:
    gens = rng.new_generators(len(values) + 1)
    rows = np.arange(len(values), dtype=np.int64)[::-1].copy()  # any rows, in any order
    rng.seed_block(gens, rows, np.array(values, dtype=np.uint64).view(np.int64))
    for row, value in zip(rows, values, strict=True):
        py = random.Random(value)
        assert _draws(gens[row]) == [py.getrandbits(32) for _ in range(700)]
        assert list(gens[row]) == list(py.getstate()[1])
    assert not gens[len(values)].any()  # a row not asked for is left alone


def test_seed_games_seeds_each_stream_as_the_python_engine_does() -> None:
    table = seeding.stream_table([seeding.GAME_SEED, ("bag",), seeding.UNUSED, strategy_parts(1)])
    game_seeds = np.array([derive_seed(1, i) for i in range(seeding.BLOCK_GAMES + 5)])
    gens = seeding.new_block(table)
    for first in (0, seeding.BLOCK_GAMES):  # a whole block, then the last few games
        gens[:] = 0
        seeding.seed_games(table, game_seeds, first, gens)
        for i, seed in enumerate(game_seeds[first:].tolist()[: seeding.BLOCK_GAMES]):
            streams = [random.Random(seed), random.Random(derive_seed(seed, "bag")), None]
            streams.append(random.Random(strategy_seed(seed, 1)))
            for s, py in enumerate(streams):
                g = gens[i * 4 + s]
                if py is None:
                    assert not g.any()
                else:
                    assert _draws(g, 50) == [py.getrandbits(32) for _ in range(50)]
