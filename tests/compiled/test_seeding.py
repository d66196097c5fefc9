"""Seeds derived and generators seeded in compiled code are `sanssim.seeding`'s and
`random.Random`'s, for every kind of value the derivations take."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sanssim.compiled import lanes, rng, seeding
from sanssim.compiled.bits import TILE
from sanssim.seeding import derive_seed, strategy_parts, strategy_seed

int64s = st.integers(min_value=-(2**63), max_value=2**63 - 1)
parts = st.lists(
    st.integers(min_value=-(2**63), max_value=2**63 - 1)
    | st.text(st.characters(exclude_categories=("Cs",)), max_size=30),
    max_size=4,
).filter(lambda rest: len(_text(rest)) <= LONGEST)
EDGES = [0, 1, 9, 10, 99, 100, -1, -9, -10, 2**62, 2**63 - 1, -(2**63), -(2**63) + 1]
LONGEST = 108  # bytes of a stream's parts: with the longest game seed, one BLAKE2b block


def _text(rest: list[int | str] | tuple[int | str, ...]) -> bytes:
    return "".join("," + str(part) for part in rest).encode()


def _derived(seed: int, *rest: int | str) -> list[int]:
    """The first draws of the stream `seed_games` seeds for `rest` in the game of `seed`."""
    table = seeding.stream_table([tuple(rest)])
    space = seeding.block_space(table)
    seeding.seed_games(table, np.array([seed], dtype=np.int64), 0, space)
    return _draws(space[0][0], 8)


def _wanted(seed: int, *rest: int | str) -> list[int]:
    py = random.Random(derive_seed(seed, *rest))
    return [py.getrandbits(32) for _ in range(8)]


@given(int64s, parts)
@settings(max_examples=300, deadline=None)
def test_derive_is_derive_seed(seed: int, rest: list[int | str]) -> None:
    assert _derived(seed, *rest) == _wanted(seed, *rest)


def test_derive_at_the_edges_of_int64() -> None:
    for seed in EDGES:
        for rest in [(), (0, 1), (3, 1), ("bag",), ("deck1",), ("nobles",), ("é" * 40, -5)]:
            assert _derived(seed, *rest) == _wanted(seed, *rest), (seed, rest)


def test_derive_fills_a_block_to_its_last_byte() -> None:
    """The longest game seed and the longest parts: 128 bytes, the whole block."""
    rest = ("x" * (LONGEST - 1),)
    assert len(str(-(2**63))) + len(_text(rest)) == 128
    for seed in (-(2**63), 0, 2**63 - 1):
        assert _derived(seed, *rest) == _wanted(seed, *rest)


def test_parts_longer_than_a_block_are_refused() -> None:
    with pytest.raises(ValueError, match="at most 108"):
        seeding.stream_table([("x" * LONGEST,)])


def _draws(g: np.ndarray, count: int = 700) -> list[int]:
    return [int(rng.word(g)) for _ in range(count)]


@given(
    st.lists(st.integers(min_value=0, max_value=2**64 - 1), min_size=1, max_size=150),
    st.data(),
)
@settings(max_examples=30, deadline=None)
def test_seed_block_draws_as_random_random(values: list[int], data) -> None:
    gens = rng.new_generators(len(values) + 1)
    rows = np.arange(len(values), dtype=np.int64)[::-1].copy()  # any rows, in any order
    seeds = np.array(values, dtype=np.uint64).view(np.int64)
    tiles = st.integers(min_value=1, max_value=rng.N // TILE).map(lambda k: k * TILE)
    words = np.array(data.draw(st.lists(tiles, min_size=len(values), max_size=len(values))))
    words[: len(values) // 2] = rng.N  # half of them whole
    lanes.seed_block(gens, rows, seeds, words, lanes.lane_space())
    for row, value, written in zip(rows, values, words, strict=True):
        py = random.Random(value)
        py.getrandbits(32)  # twisted, as its first draw leaves it
        twisted = list(py.getstate()[1])[: rng.N]
        g = gens[row]
        assert list(g[:written]) == twisted[:written] and g[rng.N] == 0
        if written == rng.N:
            py = random.Random(value)
            assert _draws(g) == [py.getrandbits(32) for _ in range(700)]
    assert not gens[len(values)].any()  # a row not asked for is left alone


def test_seed_games_seeds_each_stream_as_the_python_engine_does() -> None:
    table = seeding.stream_table([seeding.GAME_SEED, ("bag",), seeding.UNUSED, strategy_parts(1)])
    game_seeds = np.array([derive_seed(1, i) for i in range(seeding.BLOCK_GAMES + 5)])
    space = seeding.block_space(table)
    gens = space[0]
    for first in (0, seeding.BLOCK_GAMES):  # a whole block, then the last few games
        gens[:] = 0
        seeding.seed_games(table, game_seeds, first, space)
        for i, seed in enumerate(game_seeds[first:].tolist()[: seeding.BLOCK_GAMES]):
            streams = [random.Random(seed), random.Random(derive_seed(seed, "bag")), None]
            streams.append(random.Random(strategy_seed(seed, 1)))
            for s, py in enumerate(streams):
                g = gens[i * 4 + s]
                if py is None:
                    assert not g.any()
                else:
                    assert _draws(g, 50) == [py.getrandbits(32) for _ in range(50)]


def test_a_stream_drawn_within_its_words_is_told_from_one_drawn_past_them() -> None:
    table = seeding.stream_table([seeding.GAME_SEED, strategy_parts(0)])
    game_seeds = np.array([derive_seed(2, i) for i in range(3)])
    space = seeding.block_space(table, [rng.N, 40])  # 40 words: 48, whole tiles
    seeding.seed_games(table, game_seeds, 0, space)
    seat = space[0][1]  # game 0's seat stream
    py = random.Random(strategy_seed(game_seeds[0], 0))
    assert _draws(seat, 48) == [py.getrandbits(32) for _ in range(48)]
    assert seeding.drawn_within(space, 1, 1)
    rng.word(seat)
    assert not seeding.drawn_within(space, 1, 1)
    assert seeding.drawn_within(space, 0, 0)
