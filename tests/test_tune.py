"""`sanssim tune`: spaces, objectives, candidates, the halving, determinism and resume."""

from __future__ import annotations

import json
import math
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from sanssim.analysis import objective as obj
from sanssim.analysis.report import write_report
from sanssim.analysis.stats import t_quantile
from sanssim.analysis.tuning.shared import interval
from sanssim.cli import main
from sanssim.games import get_game
from sanssim.runformat import TUNE
from sanssim.runner import tuning
from sanssim.runner.executor import LocalExecutor
from sanssim.runner.tuning import halving, search, space

SKILL = "skill_strategy:Skilled:skill=0..1"


def settings(**changes: object) -> tuning.Settings:
    base = {
        "game": "sanssouci",
        "players": 2,
        "strategies": (SKILL,),
        "params": (),
        "objective": None,
        "against": "random",
        "budget": 1000,
        "candidates": 4,
        "finalists": 2,
        "seed": 3,
    }
    return tuning.Settings(**{**base, **changes})  # type: ignore[arg-type]


def play(out: Path, **changes: object) -> dict:
    tune = tuning.prepare(settings(**changes))
    with LocalExecutor(1) as executor:
        tuning.run(tune, out, executor, ["test"])
    return json.loads((out / TUNE).read_text())


# ---------------------------------------------------------------- spaces


def test_strategy_ranges_and_lists_become_dimensions_and_fixed_values_stay():
    s = tuning.parse_strategy("heuristic:mission=0.5..3,path=1|2,skip=0.6", "sanssouci")
    assert s.fixed == (("skip", "0.6"),)
    mission, path = s.dimensions
    assert (mission.name, mission.kind, mission.lo, mission.hi) == (
        "heuristic:mission",
        float,
        0.5,
        3,
    )
    assert (path.values, path.default) == ((1.0, 2.0), 2.0)
    assert s.spec({"heuristic:mission": 1.5, "heuristic:path": 2.0}) == (
        "heuristic:skip=0.6,mission=1.5,path=2.0"
    )


def test_game_option_ranges_have_the_option_kind():
    splendor = get_game("splendor")
    gold = tuning.parse_param("later_seat_gold=0..2", splendor)
    assert (gold.kind, gold.grid(9), gold.default) == (int, [0, 1, 2], 0)
    rows = tuning.parse_param("row_bonus_points=8,7,6,5,4|4,4,4,4,4", get_game("sanssouci"))
    assert rows.values == ("8,7,6,5,4", "4,4,4,4,4")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-s", "heuristic:nope=1..2", "--against", "random"], "has no parameter 'nope'"),
        (["-s", "heuristic:mission=3..1", "--against", "random"], "must have lo < hi"),
        (["-s", "heuristic:mission=a..b", "--against", "random"], "'a' is not float"),
        (["-s", "heuristic:mission=1", "--against", "random"], "nothing to tune"),
        (["--param", "nope=1..2", "--objective", "seat-balance"], "has no option 'nope'"),
        (["--param", "column_bonus_points=1.5..3", "--objective", "seat-balance"], "not int"),
        (["--param", "tile_set=II..III", "--objective", "seat-balance"], "takes a list"),
        (["--param", "column_bonus_points=1|1", "--objective", "seat-balance"], "two different"),
        (["--param", "column_bonus_points=0..9"], "give --objective"),
        (["--param", "column_bonus_points=0..9", "--objective", "fun"], "unknown objective"),
        (["--param", "column_bonus_points=0..9", "--objective", "target:zz=1"], "unknown metric"),
        (["--param", "column_bonus_points=0..9", "--objective", "target:margin=x"], "a number"),
        (["--param", "column_bonus_points=0..9", "--objective", "spread:card"], "no group 'card'"),
        (["--param", "column_bonus_points=0..9", "--objective", "rspread:card"], "no group 'card'"),
        (["--param", "column_bonus_points=0..9", "--objective", "rspread:"], "unknown objective"),
        (["--param", "column_bonus_points=0..9", "--objective", "seat-balance", "--budget", "50"],
         "too small"),
        (["--param", "column_bonus_points=1|2", "--against", "random", "--objective",
          "seat-balance"], "drop --objective"),
    ],
)  # fmt: skip
def test_bad_spaces_and_objectives_are_one_line_errors(tmp_path, args, message):
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["tune", *args, "--out", str(out)])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("sanssim: error:") and message in lines[0]
    assert not out.exists()


def test_objectives_parse_with_their_direction():
    sanssouci, splendor = get_game("sanssouci"), get_game("splendor")
    assert obj.parse("seat-balance", None, sanssouci, 3).sign == -1
    assert obj.parse(None, "random", sanssouci, 2).sign == 1
    rounds = obj.parse("target:rounds=25", None, splendor, 2)
    assert (rounds.metric, rounds.value, rounds.needs_turns) == ("rounds", 25.0, False)
    assert obj.parse("target:turns=36", None, sanssouci, 2).needs_turns
    assert obj.parse("spread:mission", None, sanssouci, 2).group == "mission"


def test_objective_scores_from_means():
    balance = obj.parse("seat-balance", None, get_game("sanssouci"), 2)
    assert balance.score({"w0": 0.53, "w1": 0.47}) == pytest.approx(0.03)
    spread = obj.parse("spread:mission", None, get_game("sanssouci"), 2)
    means = {"s:a": 1.0, "c:a": 0.5, "s:b": 0.6, "c:b": 0.2, "s:c": 0.0, "c:c": 0.0}
    assert spread.score(means) == pytest.approx(1.0)  # group means 2 and 3; c never seen
    relative = obj.parse("rspread:mission", None, get_game("sanssouci"), 2)
    assert (relative.kind, relative.grouped, relative.sign) == ("rspread", True, -1)
    assert relative.score(means) == pytest.approx(1.0 / 2.5)  # spread over the mean of 2, 3
    standard = obj.parse("zspread:mission", None, get_game("sanssouci"), 2)
    # group a holds 1 and 3 (mean 2, variance 1), b holds 3 (mean 3, variance 0): pooled 2/3
    moments = {"s:a": 4.0, "c:a": 2.0, "q:a": 10.0, "s:b": 3.0, "c:b": 1.0, "q:b": 9.0}
    assert standard.score(moments) == pytest.approx(1.0 / (2 / 3) ** 0.5)
    affine = {  # every value x becomes 3x + 2
        f"{k}:{g}": {"s": 3 * s + 2 * c, "c": c, "q": 9 * q + 12 * s + 4 * c}[k]
        for g, (s, c, q) in {"a": (4.0, 2.0, 10.0), "b": (3.0, 1.0, 9.0)}.items()
        for k in "scq"
    }
    assert standard.score(affine) == pytest.approx(standard.score(moments))
    assert spread.score(affine) == pytest.approx(3 * spread.score(moments))


def test_spread_forms_on_a_scaled_table_and_the_report_shows_all_three(tmp_path):
    """Random players play the same games whatever missions pay, so doubling the mission table
    doubles the spread and leaves the relative and standardised spreads as they were."""
    doubled = "2,4,6,8,10,12"
    out = tmp_path / "scaled"
    data = play(
        out,
        strategies=("random",),
        against=None,
        objective="zspread:mission",
        params=(f"mission_row_points=1,2,3,4,5,6|{doubled}",),
        budget=200,
    )
    assert data["candidates"][1]["values"] == {"mission_row_points": doubled}
    final = [c["final"]["estimate"] for c in data["candidates"]]
    assert final[1] == pytest.approx(final[0])
    assert data["final"]["best_vs_default"]["verdict"] == "no clear difference"
    write_report([out / "c001-final", out / "c000-final"], tmp_path / "report", ["test"])
    text = (tmp_path / "report" / "report.md").read_text()
    rows = {line.split(" | ")[0].strip("| "): line.split(" | ") for line in text.splitlines()}
    # the tuned form repeats the tune's own figure, interval and all
    assert rows["zspread:mission"][2] == interval(data, data["candidates"][0]["final"])
    spread, rspread, zspread = (  # each: doubled, default, difference
        [float(cell.split()[0].rstrip("%")) for cell in rows[f"{form}:mission"][1:4]]
        for form in ("spread", "rspread", "zspread")
    )
    assert spread[0] == pytest.approx(2 * spread[1], abs=0.02)
    assert spread[2] == pytest.approx(spread[1], abs=0.02)
    assert rspread[0] == pytest.approx(rspread[1], abs=0.1) and zspread[2] == 0
    assert "| margin |" in text


# ---------------------------------------------------------------- candidates


def test_candidates_grid_for_two_dimensions_and_latin_hypercube_for_more():
    dims = tuning.parse_strategy("heuristic:mission=0..3,path=1..4,skip=0..1", "sanssouci")
    grid = space.make_candidates(dims.dimensions[:2], 9, seed=1)
    assert grid[0].is_default and len(grid) == 10  # 3 x 3 and the default
    lhs = space.make_candidates(dims.dimensions, 8, seed=1)
    assert lhs == space.make_candidates(dims.dimensions, 8, seed=1)
    assert lhs != space.make_candidates(dims.dimensions, 8, seed=2)
    skips = sorted(dict(c.values)["heuristic:skip"] for c in lhs[1:])
    assert [int(8 * v) for v in skips] == list(range(8))  # one point per stratum


def test_halving_schedule_spends_the_budget_and_keeps_the_finalists():
    rounds, final_deals, finalists = halving.schedule(17, 40000, 2, 3)
    assert [r.candidates for r in rounds] == [17, 9, 5]
    assert finalists == 3
    played = sum(r.candidates * r.deals * 2 for r in rounds) + 4 * final_deals * 2
    assert 39000 <= played <= 40000


# ---------------------------------------------------------------- the search


@pytest.fixture(scope="module")
def searched(tmp_path_factory) -> tuple[Path, dict]:
    """One small tune of the skilled strategy against random, played whole."""
    out = tmp_path_factory.mktemp("tune") / "whole"
    return out, play(out)


def test_halving_keeps_the_better_candidate(searched):
    out, data = searched
    best = data["candidates"][data["final"]["best"]]
    assert best["values"][SKILL.split("=")[0]] == 1.0  # greedy beats random: the most skill
    assert data["final"]["best_vs_default"]["verdict"] == "better"
    assert data["rounds"][0]["ranking"][0] == best["id"]
    assert data["rounds"][0]["kept"][0] == 0  # the default is measured to the end
    index = json.loads((out / "index.json").read_text())
    names = [a["name"] for a in index["arms"]]
    played = [name for r in data["rounds"] for name in r["arms"]]
    finals = [f"c{c:03d}-final-s{k}" for c in data["final"]["measured"] for k in range(2)]
    assert names == played + finals  # every arm once, in the order played


def test_best_and_default_are_paired_on_the_same_deals_of_each_seat_rotation(searched):
    """Each fresh game of the best meets the default's game of the same deal and rotation:
    n is the games played, not every rotation crossed with every other."""
    out, data = searched
    final = data["final"]
    games = final["deals"] * data["schedule"]["games_per_deal"]
    assert final["best_vs_default"]["n"] == games
    best = data["candidates"][final["best"]]["label"]
    wins = []
    for label in (best, "c000"):
        frames = [
            pl.read_parquet(out / f"{label}-final-s{k}" / "results")
            .filter(pl.col("seat") == k)
            .select("game_id", pl.lit(k).alias("rotation"), pl.col("winner").cast(pl.Float64))
            for k in range(2)
        ]
        wins.append(pl.concat(frames))
    paired = wins[0].join(wins[1], on=["game_id", "rotation"])
    differences = paired["winner"] - paired["winner_right"]
    half = t_quantile(0.975, games - 1) * differences.std() / math.sqrt(games)
    diff = final["best_vs_default"]
    assert diff["estimate"] == pytest.approx(differences.mean())
    assert diff["hi"] - diff["lo"] == pytest.approx(2 * half)


def interrupt_execute(monkeypatch: pytest.MonkeyPatch, cut: int) -> None:
    """Ctrl-C at the `cut`-th batch of arms a tune hands to its executor (until
    `monkeypatch.undo()`)."""
    calls = []
    real = search.execute

    def interrupted(plan, *args, **kwargs):
        calls.append(plan)
        if len(calls) == cut:
            raise KeyboardInterrupt
        return real(plan, *args, **kwargs)

    monkeypatch.setattr(search, "execute", interrupted)


@pytest.mark.parametrize("cut", [1, 2])  # in the first round, or in the second
def test_an_interrupted_tune_resumes_to_the_same_search(searched, tmp_path, monkeypatch, cut):
    """The same seed gives the same candidates, games and ranking, even across a resume."""
    interrupt_execute(monkeypatch, cut)
    with pytest.raises(KeyboardInterrupt):
        play(tmp_path / "cut")
    monkeypatch.undo()
    result = CliRunner().invoke(
        main, ["tune", "--resume", "--out", str(tmp_path / "cut"), "--workers", "1"]
    )
    assert result.exit_code == 0, result.output
    assert "re-measured on fresh deals" in result.output
    resumed = json.loads((tmp_path / "cut" / TUNE).read_text())
    for key in ("candidates", "rounds", "final", "spent"):
        assert resumed[key] == searched[1][key]
    again = CliRunner().invoke(
        main, ["tune", *["--against", "random"], "--out", str(tmp_path / "cut")]
    )
    assert again.exit_code == 2 and "sanssim: error:" in again.output


def test_report_on_a_tune_directory_draws_the_search(searched, tmp_path):
    out, data = searched
    written = write_report([out], tmp_path / "report", ["test"])
    text = (tmp_path / "report" / "report.md").read_text()
    assert "## Tuning search" in text and "Best against default: best" in text
    assert {"tune_by_candidate.png", "tune_by_budget.png"} <= {p.name for p in written.files}
    assert "better" in text.split("Best against default")[1].splitlines()[0]
    key = text.split("## Key findings")[1].split("\n## ")[0]
    assert "\n- Tuning: best " in key  # the search's verdict is never cut from the top


def test_bootstrap_intervals_are_seeded_and_cover_a_known_gap():
    balance = obj.parse("seat-balance", None, get_game("sanssouci"), 2)
    wins = [1.0] * 600 + [0.0] * 400  # seat 0 wins 60%: a gap of 0.1
    deals = pl.DataFrame(
        {"deal": ["r0"] * 1000, "game_id": range(1000), "w0": wins, "w1": [1 - w for w in wins]}
    )
    first = obj.estimate(balance, deals, seed=5)
    assert first == obj.estimate(balance, deals, seed=5)
    assert first.estimate == pytest.approx(0.1) and first.lo < 0.1 < first.hi
    same = obj.difference(balance, deals, deals, seed=5)
    assert (same.estimate, same.lo, same.hi, same.n) == (0.0, 0.0, 0.0, 1000)


def test_the_tuned_heuristic_preset_plays_as_the_weights_it_names():
    from sanssim.games.sanssouci.strategies.heuristic import TUNED
    from sanssim.runner.play import play_game
    from sanssim.strategies import resolve

    game_type = get_game("sanssouci")
    game = game_type.new_game(2, {}, game_type.load_components())
    weights = ",".join(f"{k}={v}" for k, v in TUNED.items())
    preset = [resolve("heuristic-tuned"), resolve("heuristic")]
    spelled = [resolve(f"heuristic:{weights}"), resolve("heuristic")]
    for seed in range(2):
        a = play_game(game_type, game, preset, seed)
        b = play_game(game_type, game, spelled, seed)
        assert (a.returns(), a.ranks()) == (b.returns(), b.ranks())
