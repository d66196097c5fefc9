"""The compiled MT19937 gives exactly what `random.Random` gives, draw for draw."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sanssim.compiled import rng

seeds = st.integers(min_value=0, max_value=2**63 - 1)


def _seeded(value: int) -> np.ndarray:
    g = rng.new_generators(1)[0]
    rng.seed(g, value)
    return g


@given(seeds)
@settings(max_examples=200, deadline=None)
def test_seeding_gives_pythons_state(value: int) -> None:
    assert list(_seeded(value)) == list(random.Random(value).getstate()[1])


@given(seeds, st.lists(st.integers(min_value=1, max_value=2**40), min_size=1, max_size=50))
@settings(max_examples=100, deadline=None)
def test_randbelow_random_and_bits(value: int, bounds: list[int]) -> None:
    g, py = _seeded(value), random.Random(value)
    for n in bounds:
        assert rng.randbelow(g, n) == py._randbelow(n)
        assert rng.random(g) == py.random()
        k = n % 64
        assert rng.getrandbits(g, k) == py.getrandbits(k)
        assert rng.randrange(g, 3, 3 + n) == py.randrange(3, 3 + n)
    assert list(g) == list(py.getstate()[1])


@given(seeds, st.integers(min_value=0, max_value=120))
@settings(max_examples=100, deadline=None)
def test_shuffle_and_choice(value: int, n: int) -> None:
    g, py = _seeded(value), random.Random(value)
    items = list(range(n))
    array = np.arange(n + 3)  # only the first n are shuffled
    py.shuffle(items)
    rng.shuffle(g, array, n)
    assert list(array[:n]) == items and list(array[n:]) == [n, n + 1, n + 2]
    if n:
        assert rng.choice_index(g, n) == items.index(py.choice(items))


@given(seeds, st.integers(min_value=0, max_value=700), st.integers(min_value=2, max_value=400))
@settings(max_examples=100, deadline=None)
def test_shuffle_across_a_twist(value: int, skip: int, n: int) -> None:
    g, py = _seeded(value), random.Random(value)
    for _ in range(skip):  # any position: a shuffle's draws may reach the twist anywhere
        assert rng.word(g) == py.getrandbits(32)
    items, array = list(range(n)), np.arange(n)
    py.shuffle(items)
    rng.shuffle(g, array, n)
    assert list(array) == items
    assert list(g) == list(py.getstate()[1])


@given(seeds, st.integers(min_value=1, max_value=400), st.data())
@settings(max_examples=150, deadline=None)
def test_sample_both_methods(value: int, n: int, data: st.DataObject) -> None:
    k = data.draw(st.integers(min_value=0, max_value=n))
    g, py = _seeded(value), random.Random(value)
    out = np.zeros(k, dtype=np.int64)
    rng.sample_indices(g, n, k, out, np.zeros(n, dtype=np.int64))
    assert list(out) == py.sample(range(n), k)
    assert list(g) == list(py.getstate()[1])


def test_from_python_takes_over_mid_stream() -> None:
    py = random.Random(7)
    for _ in range(1000):  # past a twist
        py.random()
    g = rng.from_python(py)
    assert [rng.word(g) for _ in range(700)] == [py.getrandbits(32) for _ in range(700)]
    assert rng.to_python(g).random() == py.random()
