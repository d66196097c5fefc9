"""`sanssim show`: logged games replayed through the engine agree with the logs, turn by turn."""

from __future__ import annotations

import polars as pl
import pytest
from click.testing import CliRunner

from sanssim.cli import main
from sanssim.errors import SanssimError
from sanssim.games.sanssouci.plugin import GAME
from sanssim.games.sanssouci.render import position_after
from sanssim.runner.config import sweep
from sanssim.runner.executor import LocalExecutor
from sanssim.runner.run import config_from, execute, plan
from sanssim.runner.show import load_game, show


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("runs")
    variants = {
        "plain": dict(n=2, options={}),
        "expansion": dict(n=4, options=dict(expansion=True)),
        "reshuffle": dict(n=3, options=dict(duplicate_reshuffle=True, tile_set="II")),
        "nolog": dict(n=2, options=dict(turn_log=False)),
    }
    with LocalExecutor(1) as executor:
        for name, v in variants.items():
            arms = sweep([v["n"]], games=4, seed=21, **v["options"])
            execute(plan(root / name, arms, force=False), executor, ["test"])
    return root


@pytest.mark.parametrize("name", ["plain", "expansion", "reshuffle"])
def test_replayed_games_match_every_logged_turn(runs, name):
    for game_id in range(4):
        config, results, turns, final = load_game(runs / name, game_id)
        assert turns.height == 18 * config.n_players
        assert final.is_terminal()
        assert final.returns() == results.sort("seat")["total"].to_list()
        rows = list(turns.iter_rows(named=True))
        for t, row in enumerate(rows):
            position = position_after(final, rows, t)
            assert position.score[row["seat"]] == row["score"]
        assert position.occupied == final.occupied
        assert position.noble_rows == final.noble_rows


def test_an_expansion_game_logs_each_seat_s_side_choice_on_turn_0(runs):
    """The expansion sides are chosen before the first turn, seat by seat; their action
    ids (indices into the expansion sides) open turn 0's `actions`."""
    for game_id in range(4):
        config, results, turns, _ = load_game(runs / "expansion", game_id)
        ids = [side.id for side in config.game().components.expansion_sides]
        sides = [ids.index(s) for s in results.sort("seat")["expansion_side"].to_list()]
        assert turns.sort("turn")["actions"][0].to_list()[: len(sides)] == sides


def test_reshuffle_run_logs_reshuffles(runs):
    turns = pl.read_parquet(runs / "reshuffle" / "turns" / "*.parquet")
    assert turns["reshuffles"].sum() > 0


def test_a_tampered_log_is_caught(runs):
    config, results, turns, final = load_game(runs / "plain", 1)
    bad = turns.with_columns(
        pl.when(pl.col("turn") == 5).then(pl.col("score") + 1).otherwise("score").alias("score")
    )
    with pytest.raises(SanssimError, match="turn 5: the log says score="):
        GAME.replay(config.game(), 1, results["game_seed"][0], results, bad)


def test_show_prints_each_turn_with_the_logged_score(runs):
    text = show(runs / "expansion", 2)
    turns = pl.read_parquet(runs / "expansion" / "turns" / "*.parquet").filter(
        pl.col("game_id") == 2
    )
    lines = [line for line in text.splitlines() if line.startswith("turn ")]
    assert len(lines) == turns.height
    for line, row in zip(lines, turns.sort("turn").iter_rows(named=True), strict=True):
        assert line.startswith(f"turn {row['turn']} (round {row['round']}) seat {row['seat']} ")
        assert f"plays {row['card']}" in line
        assert line.endswith(f"score {row['score']}")
    assert "expansion E" in text


def test_show_one_turn_draws_every_garden(runs):
    result = CliRunner().invoke(
        main, ["show", str(runs / "expansion"), "--game", "0", "--turn", "9"]
    )
    assert result.exit_code == 0, result.output
    assert result.output.count("after turn 9: score") == 4
    assert "display before: 0:white=" in result.output


def test_show_without_turn_log_replays_the_strategies(runs):
    text = show(runs / "nolog", 3)
    assert "final scores:" in text
    assert "replayed from the game seed alone" in text.splitlines()[1]
    assert "replayed from the game seed alone" not in show(runs / "plain", 1)
    assert not config_from(runs / "nolog").turn_log


@pytest.mark.parametrize(
    "args, message",
    [
        (["--game", "99"], "game 99 is not in"),
        (["--game", "0", "--turn", "99"], "not 99"),
        (["--game", "0", "--explain"], "--explain needs --turn"),
    ],
)
def test_show_bad_input(runs, args, message):
    result = CliRunner().invoke(main, ["show", str(runs / "plain"), *args])
    assert result.exit_code == 2
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_explain_scores_the_options_of_the_turn_and_the_played_one_is_best(runs):
    turns = load_game(runs / "expansion", 2)[2]
    # a turn of the heuristic (deterministic) with a real noble choice
    turn = turns.filter(pl.col("noble_col").is_not_null())["turn"][3]
    row = turns.row(turn, named=True)
    result = CliRunner().invoke(main, ["show", str(runs / "expansion"), "--game", "2",
                                       "--turn", str(turn), "--explain"])  # fmt: skip
    assert result.exit_code == 0, result.output
    decisions = result.output.split("HeuristicStrategy (heuristic): ")[1:]
    noble = next(d for d in decisions if "noble to" in d).splitlines()
    assert "legal options, all shown, best first" in noble[0]
    played = f"noble to row {row['noble_to']} col {row['noble_col']}"
    assert played in noble[1]
    assert f"chosen: {played}" in "\n".join(noble)
