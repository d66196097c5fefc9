"""The compiled Sanssouci rules set each decision's choices as `engine.State` lists them.

A TAKE, PLACE or NOBLE decision's choices are the bits of `st[CHOICES]`; a strategy that
reads a list gets it from `legal_list`, a random seat picks from the mask (`pick`). Here
the compiled rules apply every choice of random games, from the Python engine's state
before it, and the decision they leave must offer exactly the Python engine's choices,
in its order, both ways.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from sanssim.compiled import rng as mt
from sanssim.games.sanssouci.actions import END
from sanssim.games.sanssouci.config import GameConfig
from sanssim.games.sanssouci.core.choices import legal_list, pick
from sanssim.games.sanssouci.core.layout import (
    LEGAL,
    LEGAL_LEN,
    PHASE,
    RECORD_WIDTH,
    pack_game,
    state_array,
)
from sanssim.games.sanssouci.core.rules import apply
from sanssim.games.sanssouci.engine import Game


def assert_offers(st: np.ndarray, legal: list[int]) -> None:
    assert st[LEGAL_LEN] == len(legal)
    assert [pick(st, np.int64(k)) for k in range(len(legal))] == legal
    legal_list(st)
    assert st[LEGAL : LEGAL + len(legal)].tolist() == legal


@pytest.mark.parametrize(
    "config",
    [
        GameConfig(n_players=2),
        GameConfig(n_players=4, expansion=True, duplicate_reshuffle=True),
        GameConfig(n_players=3, tiles_per_symbol=2),  # a short supply: every card discarded
    ],
)
def test_the_rules_offer_the_engines_choices(config: GameConfig) -> None:
    game = Game(config)
    gp = pack_game(game)
    log, pos = np.zeros((0, RECORD_WIDTH), dtype=np.int16), np.zeros(1, dtype=np.int64)
    decisions = 0
    for seed in range(6):
        state = game.new_state(seed)
        chooser = random.Random(seed)
        assert_offers(state_array(state), list(state.legal))
        while state.legal:
            st, g = state_array(state), mt.from_python(state.rng)
            action = chooser.choice(state.legal)
            apply(st, gp, g, np.int64(action), log, pos)
            state.apply_action(action)
            if not state.legal:
                assert st[PHASE] == END
                break
            assert_offers(st, list(state.legal))
            decisions += 1
    assert decisions > 300
