"""Every registered game against the protocol (OpenSpiel's `games_sim_test`): random
games at each player count, the same games on one worker and on two, every game replayed
from its log, `show` of a game and of one turn, and every report section rendered."""

from __future__ import annotations

import random
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from sanssim.analysis.quality import per_game
from sanssim.cli import main
from sanssim.games import game_names, get_game
from sanssim.games.logs import ACTIONS
from sanssim.runner.show import load_game

KEYS = {"results": ["game_id", "seat"], "turns": ["game_id", "turn"]}
GAMES = 3


def cli(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def tables(run_dir: Path) -> dict[str, pl.DataFrame]:
    return {t: pl.read_parquet(run_dir / t / "*.parquet").sort(k) for t, k in KEYS.items()}


def test_the_worked_example_is_registered():
    assert "nothanks" in game_names(), "install examples/nothanks (make install does)"


@pytest.mark.parametrize("name", game_names())
def test_every_game_plays_replays_shows_and_reports(tmp_path: Path, name: str) -> None:
    game_type = get_game(name)
    counts = range(game_type.min_players, game_type.max_players + 1)
    args = ["--game", name, "--players", ",".join(map(str, counts)), "--games", str(GAMES)]
    args += ["--seed", "11", "-s", "random"]
    cli("run", *args, "--workers", "1", "--out", str(tmp_path / "one"))
    two = ("--workers", "2", "--chunk-size", "2", "--engine", "python")  # a core plays "one"
    cli("run", *args, *two, "--out", str(tmp_path / "two"))
    arms = [tmp_path / "one" / f"p{n}" for n in counts]
    for arm in arms:
        one, two = tables(arm), tables(tmp_path / "two" / arm.name)
        for table, frame in one.items():
            assert frame.equals(two[table]), (arm.name, table)
        results, turns = one["results"], one["turns"]
        assert results.schema == pl.Schema(game_type.result_schema)
        assert turns.schema == pl.Schema(game_type.turn_schema)
        assert turns.columns[-1] == ACTIONS  # every game logs its chosen actions last
        assert results.height == GAMES * int(arm.name[1:])
        assert results.group_by("game_id").agg((pl.col("rank") == 1).any())["rank"].all()
        for game_id in range(GAMES):
            _, rows, _, final = load_game(arm, game_id)
            assert final.is_terminal() and final.returns() == rows.sort("seat")["total"].to_list()
        quality = per_game(turns, results, None, (), game_type.lowest_wins)
        assert quality.height == GAMES and (quality["margin"] >= 0).all()
        assert (quality["worst_deficit"] >= 0).all()
        shown = cli("show", str(arm), "--game", "0")
        assert "final" in shown and len(shown.splitlines()) > turns.filter(game_id=0).height
        cli("show", str(arm), "--game", "1", "--turn", "1")
    out = tmp_path / "report"
    cli("report", *map(str, arms), "--out", str(out))
    text = (out / "report.md").read_text(encoding="utf-8")
    assert text.startswith("#") and ("lowest total wins" in text) == game_type.lowest_wins


def test_lookahead_plays_a_game_without_heuristic_by_random_rollouts(monkeypatch):
    """A game without `heuristic` (here one whose strategies are taken away) is searched
    with random rollouts, not failed with a KeyError."""
    from sanssim.runner.play import play_game
    from sanssim.strategies import resolve

    game_type = get_game("seikatsu")
    monkeypatch.setattr(type(game_type), "strategies", lambda self: {})
    game = game_type.new_game(2, {}, game_type.load_components())
    specs = [resolve("lookahead:rollouts=4,width=2", "seikatsu"), resolve("random", "seikatsu")]
    final = play_game(game_type, game, specs, seed=3)
    assert final.is_terminal()


@pytest.mark.parametrize("lowest_wins", [False, True])
def test_lookahead_values_an_option_by_the_game_s_score_direction(monkeypatch, lowest_wins):
    """The same rollout is a margin of +d where the highest total wins and -d where the
    lowest does."""
    from sanssim.strategies import resolve

    game_type = get_game("seikatsu")
    monkeypatch.setattr(type(game_type), "lowest_wins", lowest_wins)
    player = resolve("lookahead", "seikatsu").make(random.Random(0))
    game = game_type.new_game(2, {}, game_type.load_components())
    state = game.new_state(1)
    while state.legal:
        state.apply_action(state.legal[0])
    mine, other = state.returns()
    want = (other - mine) if lowest_wins else (mine - other)
    assert player._rollout(state, 0) == want


def test_a_plug_in_that_breaks_the_results_contract_stops_the_run_in_one_line(
    tmp_path, monkeypatch
):
    """A results frame of its own making whose `chips` column has the wrong type."""
    cls = type(get_game("nothanks"))
    made = cls.result_frame
    wrong = pl.col("chips").cast(pl.Int64)
    monkeypatch.setattr(cls, "result_frame", lambda *a: made(*a).with_columns(wrong))
    args = ["run", "--game", "nothanks", "--players", "3", "--games", "2", "--workers", "1"]
    result = CliRunner().invoke(main, [*args, "--out", str(tmp_path / "run")])
    assert result.exit_code == 2, result.output
    errors = [line for line in result.output.splitlines() if "error" in line]
    assert errors == [
        "sanssim: error: game nothanks: results column 'chips' is Int64, expected Int8"
    ]
