"""Splendor log frames against the run-format spec, replay, and tampered logs."""

from __future__ import annotations

import random

import polars as pl
import pytest
from splendor_positions import snapshot

from sanssim.errors import SanssimError
from sanssim.games.splendor.actions import BUY, PASS
from sanssim.games.splendor.config import GameConfig
from sanssim.games.splendor.core import SplendorCore
from sanssim.games.splendor.engine import Game, State
from sanssim.games.splendor.plugin import GAME
from sanssim.games.splendor.strategies import STRATEGIES
from sanssim.games.splendor.view import PlayerView
from sanssim.strategies import resolve

# the spec's tables, typed out from run-format-splendor.md
SPEC_RESULTS = {
    "run_id": pl.String,
    "game": pl.String,
    "game_id": pl.Int64,
    "game_seed": pl.Int64,
    "n_players": pl.Int8,
    "target_points": pl.Int16,
    "max_rounds": pl.Int16,
    "gem_tokens": pl.Int8,
    "gold_tokens": pl.Int8,
    "nobles_in_play": pl.List(pl.Int8),
    "seat": pl.Int8,
    "strategy": pl.String,
    "points": pl.Int16,
    "total": pl.Int16,
    "card_points": pl.Int16,
    "noble_points": pl.Int16,
    "cards_bought": pl.Int8,
    "nobles": pl.Int8,
    "bonuses": pl.List(pl.Int8),
    "tokens": pl.List(pl.Int8),
    "reserved_left": pl.Int8,
    "rounds": pl.Int16,
    "turns_taken": pl.Int16,
    "passes": pl.Int16,
    "rank": pl.Int8,
    "winner": pl.Boolean,
    "end_reason": pl.String,
    "hit_round_cap": pl.Boolean,
}
SPEC_TURNS = {
    "run_id": pl.String,
    "game_id": pl.Int64,
    "turn": pl.Int16,
    "round": pl.Int16,
    "seat": pl.Int8,
    "action": pl.String,
    "gems_taken": pl.List(pl.Int8),
    "gold_taken": pl.Int8,
    "card_id": pl.Int16,
    "card_from": pl.String,
    "slot": pl.Int8,
    "payment": pl.List(pl.Int8),
    "gems_returned": pl.List(pl.Int8),
    "noble_id": pl.Int8,
    "points": pl.Int16,
    "score": pl.Int16,
    "tokens": pl.List(pl.Int8),
    "bonuses": pl.List(pl.Int8),
    "reserved": pl.List(pl.Int16),
    "display": pl.List(pl.Int16),
    "drawn_card_id": pl.Int16,
    "deck_left": pl.List(pl.Int8),
    "supply": pl.List(pl.Int8),
    "actions": pl.List(pl.Int32),
}
RESULT_SCHEMA, TURN_SCHEMA = GAME.result_schema, GAME.turn_schema
result_frame, turn_frame = GAME.result_frame, GAME.turn_frame


def replay(game: Game, game_id: int, seed: int, turns: pl.DataFrame) -> State:
    return GAME.replay(game, game_id, seed, pl.DataFrame(), turns)


NAMES = ["greedy", "heuristic", "heuristic"]


def play(game: Game, names: list[str], seed: int) -> State:
    state = game.new_state(seed, record=True)
    players = [STRATEGIES[n](random.Random(seed + s)) for s, n in enumerate(names)]
    while state.legal:
        p = state.current
        state.apply_action(players[p].choose(PlayerView(state, p), state.legal))
    return state


@pytest.fixture(scope="module")
def recorded() -> tuple[Game, list[tuple[int, int, State]]]:
    game = Game(GameConfig(n_players=3))
    return game, [(g, 1000 + g, play(game, NAMES, 1000 + g)) for g in range(8)]


def test_schemas_are_the_spec(recorded):
    assert RESULT_SCHEMA == SPEC_RESULTS
    assert TURN_SCHEMA == SPEC_TURNS
    game, finished = recorded
    results = result_frame("run", game, NAMES, finished)
    turns = turn_frame("run", game, [(g, s) for g, _, s in finished])
    assert results.schema == SPEC_RESULTS
    assert turns.schema == SPEC_TURNS
    empty = turn_frame("run", game, [])
    assert empty.schema == SPEC_TURNS and empty.height == 0


def test_results_rows_follow_the_rules(recorded):
    game, finished = recorded
    df = result_frame("run", game, NAMES, finished)
    assert df.height == 3 * len(finished)
    assert (df["points"] == df["total"]).all()
    assert (df["card_points"] + df["noble_points"] == df["points"]).all()
    assert (df["noble_points"] == 3 * df["nobles"]).all()
    assert (df["winner"] == (df["rank"] == 1)).all()
    assert (df["turns_taken"] == df["rounds"]).all()
    assert (df["bonuses"].list.sum() == df["cards_bought"]).all()
    assert set(df["game"]) == {"splendor"} and set(df["end_reason"]) == {"target"}
    assert df["nobles_in_play"].list.len().unique().to_list() == [4]
    for g, _, _ in finished:
        rows = df.filter(pl.col("game_id") == g)
        best = rows.sort(["points", "cards_bought"], descending=[True, False]).row(0, named=True)
        assert best["rank"] == 1 and best["points"] >= 15


@pytest.fixture(scope="module", params=["python", "compiled"])
def turn_rows(request, recorded) -> tuple[pl.DataFrame, dict[int, int]]:
    """The turns of the recorded games' design on either engine, and each game's rounds
    (the compiled core plays its own seatings' games: `play_game`'s seeded players)."""
    game, finished = recorded
    if request.param == "python":
        df = turn_frame("run", game, [(g, s) for g, _, s in finished])
        return df, {g: state.round for g, _, state in finished}
    specs = [resolve(name, "splendor") for name in NAMES]
    chunk = SplendorCore().play_chunk(
        game, specs, "run", NAMES, [(g, seed) for g, seed, _ in finished], True
    )
    rounds = chunk.results.group_by("game_id").agg(pl.col("rounds").first()).rows()
    return chunk.turns, dict(rounds)


def test_turn_rows_are_consistent(turn_rows):
    df, rounds = turn_rows
    for g, played in rounds.items():
        rows = df.filter(pl.col("game_id") == g).sort("turn").to_dicts()
        assert [r["turn"] for r in rows] == list(range(len(rows)))
        assert len(rows) == played * 3 and rows[-1]["seat"] == 2
        for now, nxt in zip(rows, rows[1:], strict=False):
            display = list(now["display"])
            if now["slot"] is not None:
                display[now["slot"]] = now["drawn_card_id"]
            assert nxt["display"] == display
            assert nxt["round"] == nxt["turn"] // 3 + 1
        for r in rows:
            assert r["gold_taken"] == r["gems_taken"][5]
            assert (r["card_from"] is None) == (r["action"] in ("take3", "take2", "pass"))
            assert (r["slot"] is None) == (r["card_from"] != "display")
            assert r["points"] == r["score"]
            if r["action"] != "buy":
                assert r["payment"] == [0] * 6
        held = [[0] * 6 for _ in range(3)]  # no seat compensation: every seat starts empty
        start = [a + b for a, b in zip(rows[0]["supply"], rows[0]["tokens"], strict=True)]
        for r in rows:  # the token flows add up, colour by colour, turn by turn
            flow = zip(r["gems_taken"], r["payment"], r["gems_returned"], strict=True)
            mine = held[r["seat"]]
            held[r["seat"]] = [h + t - p - q for h, (t, p, q) in zip(mine, flow, strict=True)]
            assert r["tokens"] == held[r["seat"]]
            totals = [sum(h) for h in zip(*held, strict=True)]
            assert [a + b for a, b in zip(r["supply"], totals, strict=True)] == start


def test_replay_reproduces_a_recorded_game(recorded):
    game, finished = recorded
    df = turn_frame("run", game, [(g, s) for g, _, s in finished])
    for g, seed, state in finished:
        again = replay(game, g, seed, df.filter(pl.col("game_id") == g))
        assert snapshot(again) == snapshot(state)


def test_replay_accepts_gold_paid_for_a_held_colour():
    """A game in which one buy paid gold for a gem the player held replays exactly."""
    game = Game(GameConfig(n_players=2))
    state = game.new_state(3, record=True)
    rng = random.Random(4)
    swapped = False
    while state.legal:
        action = state.legal[int(rng.random() * len(state.legal))]
        buys = [a for a in state.legal if BUY <= a < PASS]
        tokens = state.tokens[state.current]
        if not swapped and buys and tokens[5]:
            probe = state.clone()
            probe.record = False
            probe.apply_action(buys[0])
            paid = [a - b for a, b in zip(tokens, probe.tokens[state.current], strict=True)]
            colour = next((c for c in range(5) if paid[c]), None)
            if colour is not None and paid[5] < tokens[5]:
                paid[colour] -= 1
                paid[5] += 1
                state.apply_buy(buys[0], paid)
                swapped = True
                continue
        state.apply_action(action)
    assert swapped
    turns = turn_frame("run", game, [(0, state)])
    assert snapshot(replay(game, 0, 3, turns)) == snapshot(state)


@pytest.mark.parametrize(
    ("column", "change"),
    [
        ("card_id", lambda v: (v + 1) % 90 if v is not None else 5),
        ("gems_taken", lambda v: [1, 1, 1, 0, 0, 0]),
        ("points", lambda v: v + 1),
        ("supply", lambda v: [x + 1 for x in v]),
        ("drawn_card_id", lambda v: 0 if v != 0 else 1),
    ],
)
def test_a_tampered_log_is_caught(recorded, column, change):
    game, finished = recorded
    g, seed, state = finished[0]
    turns = turn_frame("run", game, [(g, state)])
    rows = turns.to_dicts()
    target = next(i for i, r in enumerate(rows) if r["action"] in ("buy", "reserve") and i > 5)
    rows[target][column] = change(rows[target][column])
    tampered = pl.DataFrame(rows, schema=TURN_SCHEMA)
    with pytest.raises(SanssimError) as info:
        replay(game, g, seed, tampered)
    message = str(info.value)
    assert "\n" not in message and f"game {g}" in message


def test_a_truncated_log_is_caught(recorded):
    game, finished = recorded
    g, seed, state = finished[1]
    turns = turn_frame("run", game, [(g, state)])
    with pytest.raises(SanssimError):
        replay(game, g, seed, turns.head(turns.height - 1))
