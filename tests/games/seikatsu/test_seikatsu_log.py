"""The results and turns tables of run-format.md's Seikatsu, and replaying a logged game."""

from __future__ import annotations

import io
import random
from collections import Counter

import polars as pl
import pytest

from sanssim.errors import SanssimError
from sanssim.games.seikatsu import Game, GameConfig, State
from sanssim.games.seikatsu.plugin import GAME

SPEC_RESULTS = {
    "run_id": pl.String, "game": pl.String, "game_id": pl.Int64, "game_seed": pl.Int64,
    "n_players": pl.Int8, "tournament": pl.Boolean, "seat": pl.Int8, "team": pl.Int8,
    "pagoda": pl.String, "strategy": pl.String, "start_tiles": pl.List(pl.String),
    "koi_dealt": pl.Int8, "bird_points": pl.Int16, "own_bird_points": pl.Int16,
    "flower_points": pl.Int16, "row_points": pl.List(pl.Int8), "total": pl.Int16,
    "rank": pl.Int8, "winner": pl.Boolean, "koi_played": pl.Int8,
}  # fmt: skip
SPEC_TURNS = {
    "run_id": pl.String, "game_id": pl.Int64, "turn": pl.Int16, "round": pl.Int8,
    "seat": pl.Int8, "team": pl.Int8, "hand": pl.List(pl.String), "koi_held": pl.Int8,
    "tile": pl.String, "q": pl.Int8, "r": pl.Int8, "koi_bird": pl.String,
    "bird_points": pl.Int8, "drawn": pl.String, "score": pl.Int16, "bag_left": pl.Int16,
    "actions": pl.List(pl.Int32),
}  # fmt: skip
RESULT_SCHEMA, TURN_SCHEMA = GAME.result_schema, GAME.turn_schema
result_frame, turn_frame = GAME.result_frame, GAME.turn_frame


def replay(game: Game, game_id: int, seed: int, turns: pl.DataFrame) -> State:
    return GAME.replay(game, game_id, seed, pl.DataFrame(), turns)


def played(n: int, tournament: bool, games: int = 20) -> tuple[Game, list[tuple[int, int, State]]]:
    game = Game(GameConfig(n, tournament))
    finished = []
    for game_id in range(games):
        seed = 1000 + game_id
        state = game.new_state(seed, record=True)
        rng = random.Random(game_id)
        while state.legal:
            state.apply_action(state.legal[int(rng.random() * len(state.legal))])
        finished.append((game_id, seed, state))
    return game, finished


@pytest.fixture(scope="module", params=[(2, False), (3, True), (4, False), (4, True)],
                ids=["2p", "3p-t", "4p", "4p-t"])  # fmt: skip
def run(request):
    n, tournament = request.param
    game, finished = played(n, tournament)
    strategies = [f"random:{s}" for s in range(n)]
    results = result_frame("r1", game, strategies, finished)
    turns = turn_frame("r1", game, [(g, s) for g, _, s in finished])
    return game, finished, results, turns


def test_schemas_are_the_spec_columns_and_dtypes(run):
    _, _, results, turns = run
    assert RESULT_SCHEMA == SPEC_RESULTS and TURN_SCHEMA == SPEC_TURNS
    assert dict(results.schema) == SPEC_RESULTS
    assert dict(turns.schema) == SPEC_TURNS
    for df in (results, turns):  # survives a parquet round trip unchanged
        buffer = io.BytesIO()
        df.write_parquet(buffer)
        buffer.seek(0)
        assert pl.read_parquet(buffer).equals(df)


def test_results_rows_add_up(run):
    game, finished, results, _ = run
    n = game.n_players
    assert results.height == n * len(finished)
    assert results["game"].unique().to_list() == ["seikatsu"]
    for (game_id, seed, state), rows in zip(
        finished, results.partition_by("game_id", maintain_order=True), strict=True
    ):
        assert rows["game_id"].unique().to_list() == [game_id]
        assert rows["game_seed"].unique().to_list() == [seed]
        assert rows["total"].to_list() == state.returns()
        assert rows["rank"].to_list() == state.ranks()
        assert (rows["total"] == rows["bird_points"] + rows["flower_points"]).all()
        assert (rows["flower_points"] == rows["row_points"].list.sum()).all()
        assert rows["row_points"].list.len().to_list() == [7] * n
        assert rows["winner"].to_list() == [r == 1 for r in rows["rank"]]
        assert rows["strategy"].to_list() == [f"random:{s}" for s in range(n)]
        start = rows["start_tiles"][0].to_list()
        assert len(start) == len(game.components.start_spaces[n]) and "koi" not in start
        if n == 4:
            assert rows["team"].to_list() == [0, 1, 0, 1]
            assert rows["pagoda"].to_list() == ["pink", "blue", "pink", "blue"]
            team_birds = rows.group_by("team").agg(pl.col("own_bird_points").sum())
            for team, own in team_birds.iter_rows():
                assert rows.filter(team=team)["bird_points"].unique().to_list() == [own]
        else:
            assert rows["team"].null_count() == n
            assert (rows["bird_points"] == rows["own_bird_points"]).all()
        koi_dealt = rows["koi_dealt"].to_list()
        assert koi_dealt == (list(game.components.tournament_koi[n]) if game.config.tournament
                             else [0] * n)  # fmt: skip


def test_turns_account_for_every_tile_once(run):
    """Section 'turns' of the spec: hands evolve by tile played and drawn; with
    the start tiles and face-up koi every one of the 36 tiles appears once."""
    game, finished, results, turns = run
    n = game.n_players
    for (game_id, _, state), rows in zip(
        finished, turns.partition_by("game_id", maintain_order=True), strict=True
    ):
        assert rows["turn"].to_list() == list(range(game.turns))
        assert rows["seat"].to_list() == [t % n for t in range(game.turns)]
        assert rows["round"].to_list() == [t // n + 1 for t in range(game.turns)]
        hands: dict[int, Counter] = {}
        seen = Counter(results.filter(game_id=game_id)["start_tiles"][0].to_list())
        koi_up = list(game.koi_dealt)
        seen["koi"] += sum(koi_up)
        for row in rows.iter_rows(named=True):
            seat = row["seat"]
            hand = Counter(row["hand"])
            if seat not in hands:
                seen += hand  # the dealt hand
            else:
                assert hand == hands[seat]
            assert row["koi_held"] == koi_up[seat]
            if row["tile"] == "koi" and koi_up[seat]:
                koi_up[seat] -= 1
            else:
                hand[row["tile"]] -= 1
            if row["drawn"] is not None:
                hand[row["drawn"]] += 1
                seen[row["drawn"]] += 1
            hands[seat] = +hand
            assert (row["q"], row["r"]) in game.cells
            assert (row["koi_bird"] is None) or row["tile"] == "koi"
        assert seen == Counter(game.components.tiles)
        assert all(not h for h in hands.values())
        last = rows.group_by("team" if n == 4 else "seat").agg(pl.col("score").last())
        assert sorted(last["score"].to_list()) == sorted(state.side_score)


def test_replay_reproduces_each_recorded_game(run):
    game, finished, results, turns = run
    for game_id, seed, state in finished[:5]:
        again = replay(game, game_id, seed, turns.filter(game_id=game_id))
        assert again.returns() == state.returns() and again.ranks() == state.ranks()
        assert again.board == state.board


def test_each_turn_logs_its_chosen_play_and_a_forced_one_none(run):
    """`actions` is the turn's own play when a strategy chose it; a turn with one legal
    play, which the engine makes itself, has none."""
    game, _, _, turns = run
    for row in turns.iter_rows(named=True):
        play = game.action(row["tile"], row["q"], row["r"])
        assert row["actions"] in ([play], [])
    assert turns["actions"].list.len().sum() > 0.9 * turns.height


@pytest.mark.parametrize(
    "column,value,needle",
    [
        ("q", None, "q="),
        ("tile", "dragon:tulip", "tile="),
        ("bird_points", 7, "bird_points"),
        ("drawn", "koi", "drawn"),
        ("score", 99, "score"),
        ("koi_held", 3, "koi_held"),
        ("bag_left", 0, "bag_left"),
        ("hand", ["koi", "koi"], "hand"),
    ],
)
def test_a_tampered_log_is_caught_in_one_line(run, column, value, needle):
    game, finished, _, turns = run
    game_id, seed, _ = finished[0]
    rows = turns.filter(game_id=game_id)
    tampered = rows.with_columns(
        pl.when(pl.col("turn") == 3)
        .then(pl.lit(value, dtype=TURN_SCHEMA[column]))
        .otherwise(pl.col(column))
        .alias(column)
    )
    with pytest.raises(SanssimError) as err:
        replay(game, game_id, seed, tampered)
    assert "\n" not in str(err.value) and needle in str(err.value)


def test_an_illegal_logged_play_and_a_missing_turn_are_caught(run):
    game, finished, _, turns = run
    game_id, seed, _ = finished[1]
    rows = turns.filter(game_id=game_id)
    occupied = game.cell(*game.components.start_spaces[game.n_players][0])
    first = rows["actions"][0][0]
    on_a_start_tile = first - first % game.n_cells + occupied
    bad = rows.with_columns(
        actions=pl.when(pl.col("turn") == 0)
        .then(pl.lit([on_a_start_tile], dtype=pl.List(pl.Int32)))
        .otherwise(pl.col("actions"))
    )
    with pytest.raises(SanssimError, match="not a legal game"):
        replay(game, game_id, seed, bad)
    with pytest.raises(SanssimError, match="turn"):
        replay(game, game_id, seed, rows.filter(pl.col("turn") != 5))
    with pytest.raises(SanssimError, match="the log stops at turn 10"):
        replay(game, game_id, seed, rows.filter(pl.col("turn") < 10))


def test_frames_of_no_games_are_empty_with_the_schema():
    game = Game(GameConfig(2))
    assert dict(turn_frame("r", game, []).schema) == SPEC_TURNS
    assert dict(result_frame("r", game, ["a", "b"], []).schema) == SPEC_RESULTS
