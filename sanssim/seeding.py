"""Seeds derived from seeds: stable across Python versions, platforms and processes.

Every game seed comes from the master seed and the game index alone, and each
source of chance inside a game (a bag, a deck, a seat's strategy) draws from
its own stream derived from the game seed. Two arms that differ only in a rule
therefore share every stream the rule does not touch.
"""

from __future__ import annotations

import hashlib
import random

SEED_BITS = 63


def derive_seed(*parts: int | str) -> int:
    """A 63-bit seed from integers (and names); stable across versions and platforms."""
    digest = hashlib.blake2b(",".join(map(str, parts)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> (64 - SEED_BITS)


def strategy_parts(seat: int) -> tuple[int, int]:
    """What follows the game seed in the derivation of seat `seat`'s strategy seed."""
    return (seat, 1)


def strategy_seed(game_seed: int, seat: int) -> int:
    """The seed of seat `seat`'s strategy stream in the game of `game_seed`."""
    return derive_seed(game_seed, *strategy_parts(seat))


def stream(seed: int, source: str) -> random.Random:
    """The random stream of one named source of chance within a game."""
    return random.Random(derive_seed(seed, source))
