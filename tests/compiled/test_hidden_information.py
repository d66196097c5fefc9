"""The compiled strategies see only what their seat may know, as the Python ones do.

The same check as `tests/test_strategies.py`: a twin state differing only in what seat 0
cannot know (opponents' missions, the deeper supply and decks) must get the same compiled
choices until public information diverges; and every compiled choice is the Python one.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_strategies import BUILT_IN, SAME_PUBLIC_TURNS, hidden_twins

from sanssim.compiled import prepare, rng
from sanssim.games.sanssouci import State
from sanssim.games.sanssouci.core import SanssouciCore
from sanssim.games.sanssouci.view import PlayerView
from sanssim.runner.play import strategy_rng
from sanssim.strategies import resolve

CORE = SanssouciCore()


@pytest.fixture(autouse=True, scope="module")
def _compiled() -> None:
    """The core as a run compiles it (a stale cache dropped first)."""
    prepare(CORE)


def compiled_choices_until_public_diverges(name: str, state: State, twin: State) -> int:
    """Play both states in lockstep (seat 0 by `name`, the others random); seat 0's
    compiled choices on the two must agree with each other and with Python's."""
    n = state.n
    specs = [resolve(name) if p == 0 else resolve("random") for p in range(n)]
    players = [spec.make(strategy_rng(7, p)) for p, spec in enumerate(specs)]
    streams = [rng.from_python(strategy_rng(7, 0)) for _ in range(2)]
    compared = 0
    while state.legal and state.turn < SAME_PUBLIC_TURNS:
        assert state.legal == twin.legal and state.display == twin.display
        p = state.current
        action = players[p].choose(PlayerView(state, p), list(state.legal))
        if p == 0:
            mine = CORE.decide(state, specs[0], streams[0])
            theirs = CORE.decide(twin, specs[0], streams[1])
            assert mine == theirs, f"compiled {name} chose on hidden information"
            assert mine == action, f"compiled {name} chose otherwise than Python at {state.turn}"
            assert np.array_equal(streams[0], rng.from_python(players[0].rng))
            assert np.array_equal(streams[1], streams[0])
            compared += 1
        state.apply_action(action)
        twin.apply_action(action)
    return compared


# ismcts at a budget whose worlds and rollouts reach far into the hidden supply and decks
COMPILED = [*BUILT_IN, "heuristic-tuned", "ismcts:iterations=12,width=3"]


def test_every_built_in_is_compiled() -> None:
    assert CORE.supports([resolve(name) for name in COMPILED])


@pytest.mark.parametrize("name", COMPILED)
def test_compiled_choices_ignore_hidden_information(name: str) -> None:
    for state, twin in hidden_twins():
        assert compiled_choices_until_public_diverges(name, state, twin) >= 10
