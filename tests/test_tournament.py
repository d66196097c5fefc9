import math

import polars as pl
import pytest

from sanssim.analysis.stats import wilson
from sanssim.analysis.tournament import _ratings, describe_seatings, standings, standings_of
from sanssim.runner.config import RunError
from sanssim.runner.tournament import lineups, tournament_arms


def test_two_player_lineups_play_every_pair_in_both_seatings():
    got = lineups(["a", "b", "c"], 2)
    assert sorted(got) == sorted(
        [("a", "b"), ("b", "a"), ("a", "c"), ("c", "a"), ("b", "c"), ("c", "b")]
    )


@pytest.mark.parametrize("seatings", ["all", "rotations"])
def test_each_strategy_sits_in_every_seat_equally_often(seatings):
    for strategies, n in ((["a", "b"], 4), (["a", "b", "c"], 3), (["a", "b", "c", "d", "e"], 4)):
        played = lineups(strategies, n, seatings)
        assert len(set(played)) == len(played)
        for seat in range(n):
            counts = {s: sum(line[seat] == s for line in played) for s in strategies}
            assert len(set(counts.values())) == 1, (strategies, n, seat, counts)


def test_all_seatings_are_every_assignment_with_two_different_strategies():
    played = lineups(["a", "b"], 4)
    assert len(played) == 2**4 - 2
    assert ("a", "b", "b", "b") in played and ("b", "b", "b", "a") in played
    assert ("a", "a", "a", "a") not in played
    for strategies, n in ((["a", "b", "c"], 3), (["a", "b", "c"], 4), (["a", "b", "c", "d"], 2)):
        assert len(lineups(strategies, n)) == len(strategies) ** n - len(strategies)
    assert describe_seatings(played) == "14 seatings, by seats per strategy: 3+1 (8), 2+2 (6)"
    three = describe_seatings(lineups(["a", "b", "c"], 4))
    assert three == "78 seatings, by seats per strategy: 3+1 (24), 2+2 (18), 2+1+1 (36)"


def test_rotations_repeat_fewer_strategies_than_seats_in_turn():
    assert lineups(["a", "b"], 4, "rotations") == [("a", "b", "a", "b"), ("b", "a", "b", "a")]
    assert len(lineups(["a", "b", "c", "d", "e"], 4, "rotations")) == 5 * 4


def test_two_player_seatings_are_the_same_either_way():
    assert set(lineups(["a", "b", "c"], 2)) == set(lineups(["a", "b", "c"], 2, "rotations"))


@pytest.mark.parametrize("strategies", [["random"], ["random", "random"]])
def test_a_tournament_needs_distinct_strategies(strategies):
    with pytest.raises(RunError):
        lineups(strategies, 2)


def test_unknown_seatings_are_refused():
    with pytest.raises(RunError, match="seatings must be one of all, rotations"):
        lineups(["a", "b"], 2, "some")


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


SCHEMA = {
    "arm": pl.String,
    "game_id": pl.Int64,
    "seat": pl.Int64,
    "strategy": pl.String,
    "rank": pl.Int64,
    "team": pl.Int64,
}


def _swept(arms: list[str], winners: list[str]) -> pl.LazyFrame:
    """Results of 4-player games, one per (arm, game_id): the seats of the game's winning
    strategy take ranks 1 and 2 (arms are seatings like "abab"; every arm plays the same
    game ids, as a tournament's seatings share their seeds)."""
    rows = [
        (seats, game_id, seat, s, 1 + 2 * (s != winner) + seats[:seat].count(s), None)
        for seats in arms
        for game_id, winner in enumerate(winners)
        for seat, s in enumerate(seats)
    ]
    return pl.LazyFrame(rows, schema=SCHEMA, orient="row")


def _wilson(k: float, n: float) -> tuple[float, float]:
    row = pl.DataFrame({"x_k": [k], "x_n": [n]}).select(wilson("x")).row(0)
    return row[1], row[2]


def test_intervals_count_a_deal_once_however_many_meetings_it_holds():
    # Every game is a sweep: one strategy takes ranks 1-2, so all 4 meetings of a game (and
    # both seatings of a deal) go the same way: 8 meetings per deal carry one deal's worth
    # of information. Counting meetings as trials would give 800 trials.
    table = standings_of(_swept(["abab", "baba"], ["a"] * 60 + ["b"] * 40)).pairs
    row = table.filter(strategy="a").row(0, named=True)
    assert (row["games"], row["win_n"], row["win_k"]) == (100, 800, 480.0)
    # sandwich variance G/(G-1) sum (S - p m)^2 / (sum m)^2, effective n = p(1-p)/V = 99
    lo, hi = _wilson(0.6 * 99, 99)
    assert (row["win_lo"], row["win_hi"]) == (pytest.approx(lo), pytest.approx(hi))
    naive_lo, naive_hi = _wilson(480, 800)
    assert row["win_hi"] - row["win_lo"] > 2.5 * (naive_hi - naive_lo)
    assert row["deff"] == pytest.approx(800 / 99)


def test_teammates_do_not_meet():
    # Seikatsu's 4-player teams: seats 0+2 against 1+3, teammates share their rank. In
    # a-a-b-b each team holds one a and one b; only the two meetings across teams count.
    rows = [
        ("aabb", game_id, seat, "aabb"[seat], 1 + (seat % 2 != won), seat % 2)
        for game_id, won in enumerate([0, 0, 1, 0])
        for seat in range(4)
    ]
    result = standings_of(pl.LazyFrame(rows, schema=SCHEMA, orient="row"))
    row = result.pairs.filter(strategy="a").row(0, named=True)
    assert (row["win_n"], row["win_k"]) == (8, 4.0)
    assert result.ratings["meetings"].to_list() == [8, 8]


def test_a_drawn_meeting_of_opponents_is_kept_beside_teammates():
    # a-b-a-b with teams 0+2, 1+3: teams are a+a and b+b, so nothing is dropped, and a
    # draw between opponents (a side tie, possible in other team games) still counts.
    rows = [("abab", 0, seat, "abab"[seat], 1, seat % 2) for seat in range(4)]
    row = standings_of(pl.LazyFrame(rows, schema=SCHEMA, orient="row")).pairs.row(0, named=True)
    assert (row["win_n"], row["win_k"]) == (4, 2.0)


def test_strategy_lists_keep_the_parameters_with_their_strategy():
    from sanssim.runner.tournament import split_specs

    assert split_specs("random, heuristic:path=3,row=1,greedy") == [
        "random",
        "heuristic:path=3,row=1",
        "greedy",
    ]


def _tournament(tmp_path, *args: str):
    from click.testing import CliRunner

    from sanssim.cli import main

    out = tmp_path / "t"
    base = ["tournament", "--games", "2", "--seed", "3", "--workers", "1", "--out", str(out)]
    result = CliRunner().invoke(main, [*base, *args])
    assert result.exit_code == 0, result.output
    return out, result.output


@pytest.mark.parametrize(
    ("game", "players", "seatings", "shapes"),
    [
        ("sanssouci", 4, "all", "14 seatings, by seats per strategy: 3+1 (8), 2+2 (6)"),
        ("sanssouci", 4, "rotations", "2 seatings, by seats per strategy: 2+2 (2)"),
        ("seikatsu", 4, "all", "14 seatings, by seats per strategy: 3+1 (8), 2+2 (6)"),
        ("splendor", 3, "all", "6 seatings, by seats per strategy: 2+1 (6)"),
    ],
)
def test_a_tournament_plays_and_prints_its_seatings_for_every_game(
    tmp_path, game, players, seatings, shapes
):
    out, output = _tournament(
        tmp_path,
        *("--game", game, "--players", str(players), "--seatings", seatings),
        *("--strategies", "random,greedy"),
    )
    assert f"Played {shapes}; 2 games each" in output
    played = sorted(p.name for p in out.iterdir() if p.is_dir())
    assert len(played) == int(shapes.split()[0])
    if seatings == "all":  # one against the rest is played
        assert "- " + " | ".join(["random"] * (players - 1) + ["greedy"]) in output
    pairs = standings([out]).pairs
    assert set(pairs["strategy"]) == {"random", "greedy"}
    assert (pairs["games"] == 2).all()  # every seating of a deal is one cluster
