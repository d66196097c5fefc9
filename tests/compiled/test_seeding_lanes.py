"""`seeding.seed_games` hashes a stream's seeds several games side by side, each text in
one BLAKE2b block: they are `derive_seed`'s seeds, for seed texts of every length and
parts up to the longest a block holds (`stream_table` refuses longer ones)."""

from __future__ import annotations

import random

import numpy as np

from sanssim.compiled import rng, seeding
from sanssim.seeding import derive_seed

# parts after the game seed: short texts, none, texts near and at the longest (with the
# longest seed, "," and 107 characters fill the block exactly)
PARTS = [("bag",), (3, 1), (), ("x" * 100,), ("y" * 107,)]


def test_every_stream_is_derive_seeds() -> None:
    table = seeding.stream_table([seeding.GAME_SEED, seeding.UNUSED, *PARTS])
    draw = random.Random(5)
    edges = [0, 1, 9, 10, -1, -10, 2**63 - 1, -(2**63)]
    game_seeds = edges + [draw.randrange(-(2**63), 2**63) for _ in range(130)]
    seeds = np.array(game_seeds, dtype=np.int64)
    space = seeding.block_space(table)
    gens = space[0]
    streams = table.shape[0]
    for first in range(0, len(seeds), seeding.BLOCK_GAMES):
        gens[:] = 0
        seeding.seed_games(table, seeds, first, space)
        for i, seed in enumerate(game_seeds[first : first + seeding.BLOCK_GAMES]):
            assert not gens[i * streams + 1].any()
            wanted = [(2 + k, derive_seed(seed, *parts)) for k, parts in enumerate(PARTS)]
            if seed >= 0:  # a game seed is never negative: seeded as its bit pattern
                wanted.append((0, seed))
            for s, value in wanted:
                py = random.Random(value)
                g = gens[i * streams + s]
                assert [int(rng.word(g)) for _ in range(3)] == [
                    py.getrandbits(32) for _ in range(3)
                ]
