import math

import polars as pl
import pytest

from sanssim.analysis.tournament import _ratings, standings
from sanssim.runner.config import RunError
from sanssim.runner.tournament import lineups, tournament_arms


def test_two_player_lineups_play_every_pair_in_both_seatings():
    got = lineups(["a", "b", "c"], 2)
    assert sorted(got) == sorted(
        [("a", "b"), ("b", "a"), ("a", "c"), ("c", "a"), ("b", "c"), ("c", "b")]
    )


def test_each_strategy_sits_in_every_seat_equally_often():
    for strategies, n in ((["a", "b"], 4), (["a", "b", "c"], 3), (["a", "b", "c", "d", "e"], 4)):
        seatings = lineups(strategies, n)
        for seat in range(n):
            counts = {s: sum(line[seat] == s for line in seatings) for s in strategies}
            assert len(set(counts.values())) == 1, (strategies, n, seat, counts)


def test_fewer_strategies_than_seats_repeat_in_turn():
    assert lineups(["a", "b"], 4) == [("a", "b", "a", "b"), ("b", "a", "b", "a")]


@pytest.mark.parametrize("strategies", [["random"], ["random", "random"]])
def test_a_tournament_needs_distinct_strategies(strategies):
    with pytest.raises(RunError):
        lineups(strategies, 2)


def test_all_seatings_play_the_same_seeds():
    arms = tournament_arms(["random", "greedy"], 2, games=10, seed=5)
    assert [a.config.strategies for a in arms] == [("random", "greedy"), ("greedy", "random")]
    assert {a.config.seed for a in arms} == {5}
    assert len({a.name for a in arms}) == len(arms)


def _pairs(rows: list[tuple[str, str, float, int]]) -> pl.DataFrame:
    return pl.DataFrame(
        rows, schema=["strategy", "opponent", "win_k", "win_n"], orient="row"
    ).with_columns(pl.col("win_n").cast(pl.UInt32))


def _gap(ratings: pl.DataFrame, a: str, b: str) -> float:
    return ratings.filter(strategy=a)["rating"].item() - ratings.filter(strategy=b)["rating"].item()


def test_ratings_recover_the_odds_of_two_strategies():
    # 750 + 0.5 virtual wins of 1001 meetings: odds 750.5:250.5, on the Elo scale 400*log10.
    ratings = _ratings(_pairs([("a", "b", 750.0, 1000), ("b", "a", 250.0, 1000)]))
    assert _gap(ratings, "a", "b") == pytest.approx(400 * math.log10(750.5 / 250.5), rel=1e-6)
    assert ratings["rating"].sum() == pytest.approx(0.0, abs=1e-6)
    assert ratings["meetings"].to_list() == [1000, 1000]


def test_a_strategy_that_never_wins_keeps_a_finite_rating():
    ratings = _ratings(_pairs([("a", "b", 100.0, 100), ("b", "a", 0.0, 100)]))
    assert _gap(ratings, "a", "b") == pytest.approx(400 * math.log10(100.5 / 0.5), rel=1e-6)


def test_standings_from_a_real_tournament_run(tmp_path):
    from click.testing import CliRunner

    from sanssim.cli import main

    out = tmp_path / "t"
    result = CliRunner().invoke(
        main,
        [
            "tournament", "--strategies", "random,greedy", "--players", "2",
            "--games", "40", "--seed", "3", "--workers", "1", "--out", str(out),
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    table = standings([out])
    pairs = table.pairs
    assert set(pairs["strategy"]) == {"random", "greedy"}
    # each game of each seating is one meeting seen from both sides
    assert pairs["win_n"].to_list() == [80, 80]
    assert pairs["win_k"].sum() == pytest.approx(80.0)
    assert "greedy" in result.output and "rating" in result.output


def test_strategy_lists_keep_the_parameters_with_their_strategy():
    from sanssim.runner.tournament import split_specs

    assert split_specs("random, heuristic:path=3,row=1,greedy") == [
        "random",
        "heuristic:path=3,row=1",
        "greedy",
    ]
