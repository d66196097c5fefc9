"""The compiled Splendor rules and strategies from any position: Python engine states
(mid-game, every seat holding blind reservations) converted to the core's flat row, step
for step against the Python engine, choice for choice against the Python strategies, and
blind to what the deciding seat cannot see."""

from __future__ import annotations

import random

import numpy as np
import pytest
from test_splendor_properties import hidden_variant, mid_game

from sanssim.compiled import rng
from sanssim.games.splendor.actions import N_LEVELS
from sanssim.games.splendor.core import layout, seat_arrays
from sanssim.games.splendor.core.heuristic import heuristic_scores
from sanssim.games.splendor.core.position import new_work
from sanssim.games.splendor.core.rollout import ROLLOUT_PARAMS, rollout_choice
from sanssim.games.splendor.core.rules import apply, apply_unlisted
from sanssim.games.splendor.core.strategies import choose
from sanssim.games.splendor.core.turn import UNLISTED
from sanssim.games.splendor.engine import State
from sanssim.games.splendor.view import PlayerView
from sanssim.strategies import resolve

SPECS = [
    "greedy",
    "heuristic",
    "heuristic:reach=1,deny=1.5,gold=0.1",
    "lookahead:rollouts=6,width=3",
    "ismcts:iterations=4,width=3",
]
NO_LOG = np.zeros((1, layout.RECORD_WIDTH), dtype=np.int32)


def canonical(S: np.ndarray, state: State) -> np.ndarray:
    """The meaningful part of a compiled row: stale entries past each count cleared."""
    out = S.copy()
    out[layout.LEGAL + out[layout.H_N_LEGAL] : layout.LEGAL + layout.MAX_LEGAL] = 0
    out[layout.TABLE + out[layout.H_N_TABLE] : layout.TABLE + layout.MAX_TABLE] = 0
    cfg, _, _ = layout.tables(state.game)
    for level in range(N_LEVELS):
        start = layout.DECKS + cfg[layout.C_LEVEL_START + level]
        out[start + out[layout.H_DECK_LEFT + level] : start + cfg[layout.C_LEVEL_COUNT + level]] = 0
    return out


def compiled_choice(state: State, text: str, seed: int) -> int:
    cfg, cards, nobles = layout.tables(state.game)
    kinds, params = seat_arrays([resolve(text, "splendor")])
    g = rng.from_python(random.Random(seed))
    S = layout.state_array(state)
    scores = np.empty(layout.MAX_LEGAL, dtype=np.float64)
    return int(choose(S, cfg, cards, nobles, kinds[0], params[0], g, new_work(), scores))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_rules_step_for_step_from_mid_game(n):
    for seed in range(6):
        state = mid_game(n, seed)
        cfg, cards, nobles = layout.tables(state.game)
        S = layout.state_array(state)
        pick = random.Random(seed)
        while state.legal:
            action = state.legal[int(pick.random() * len(state.legal))]
            state.apply_action(action)
            apply(S, cfg, cards, nobles, NO_LOG, action)
            assert canonical(S, state).tolist() == layout.state_array(state).tolist()


@pytest.mark.parametrize("text", SPECS)
def test_compiled_choices_are_python_choices_and_ignore_hidden_information(text):
    spec = resolve(text, "splendor")
    for n in (2, 3):
        for seed in range(5 if text.startswith(("lookahead", "ismcts")) else 12):
            state = mid_game(n, seed)
            for _ in range(6 * n):
                if not state.legal:
                    break
                seat = state.current
                expected = spec.make(random.Random(seed)).choose(
                    PlayerView(state, seat), state.legal
                )
                assert compiled_choice(state, text, seed) == expected
                other = hidden_variant(state, seat, random.Random(seed + 7))
                if other.legal == state.legal:
                    assert compiled_choice(other, text, seed) == expected
                state.apply_action(expected)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_a_rollout_with_unlisted_turns_plays_the_listed_game(n):
    """`rollout_choice` and `apply_unlisted` (a turn's choices left unlisted where its
    takes make it a real decision) choose and play what `heuristic_scores` and `apply`
    do, to the end; only the choice lists differ."""
    unlisted = 0
    for seed in range(4):
        state = mid_game(n, seed)
        cfg, cards, nobles = layout.tables(state.game)
        listed = layout.state_array(state)
        S = listed.copy()
        work, scores = new_work(), np.empty(layout.MAX_LEGAL, dtype=np.float64)
        while listed[layout.H_N_LEGAL]:
            top = heuristic_scores(listed, cfg, cards, nobles, ROLLOUT_PARAMS, scores, work)
            action = listed[layout.LEGAL + top]
            assert rollout_choice(S, cfg, cards, nobles, ROLLOUT_PARAMS, scores, work) == action
            apply(listed, cfg, cards, nobles, NO_LOG, action)
            apply_unlisted(S, cfg, cards, nobles, NO_LOG, action)
            shown = S.copy()
            if S[layout.H_N_LEGAL] == UNLISTED:
                unlisted += 1
                assert listed[layout.H_N_LEGAL] > 1
                shown[layout.H_N_LEGAL] = listed[layout.H_N_LEGAL]
                shown[layout.LEGAL : layout.LEGAL + layout.MAX_LEGAL] = listed[
                    layout.LEGAL : layout.LEGAL + layout.MAX_LEGAL
                ]
            assert canonical(shown, state).tolist() == canonical(listed, state).tolist()
    assert unlisted > 0
