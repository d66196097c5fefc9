"""`sanssim tune --method ntbea`: the N-tuple model, the walk's neighbours, the schedule, and
a tiny tune that finds the best value, repeats itself for a seed and resumes to the same
tune.json."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from test_tune import interrupt_execute

from sanssim.analysis.report import write_report
from sanssim.cli import main
from sanssim.runformat import TUNE
from sanssim.runner import tuning
from sanssim.runner.executor import LocalExecutor
from sanssim.runner.tuning import ntbea

SKILL = "skill_strategy:Skilled:skill=0..1"
TINY = ["-s", SKILL, "--against", "random", "--budget", "600", "--finalists", "2"]
TINY += ["--seed", "3", "--method", "ntbea", "--batch", "5", "--workers", "1"]


def tune(out: Path, *args: str) -> dict:
    result = CliRunner().invoke(main, ["tune", *args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    return json.loads((out / TUNE).read_text())


# ---------------------------------------------------------------- the model


def test_the_model_pools_values_per_tuple_and_adds_an_exploration_bonus():
    model = ntbea.Model([3, 3], pairs=False)  # tuples: (0,), (1,) and the whole point
    assert model.tuples == ((0,), (1,), (0, 1))
    for point, value in (((0, 0), 1.0), ((0, 1), 0.0), ((1, 0), 0.5)):
        model.update(point, value)
    # (0, 0): dimension 0 at 0 saw 1.0 and 0.0; dimension 1 at 0 saw 1.0 and 0.5; itself 1.0
    assert model.mean((0, 0)) == pytest.approx((0.5 + 0.75 + 1.0) / 3)
    assert model.count((0, 0)) == 1 and model.count((1, 1)) == 0
    # (1, 1): dimension 0 at 1 saw 0.5, dimension 1 at 1 saw 0.0, the point itself nothing
    assert model.mean((1, 1)) == pytest.approx(0.25)
    assert model.mean((2, 2)) == pytest.approx(0.5)  # nothing seen there: the mean of all
    bonus = (2 * math.sqrt(math.log(4) / 1.5) + math.sqrt(math.log(4) / 0.5)) / 3
    assert model.ucb((1, 1), 2.0) == pytest.approx(0.25 + 2 * bonus)
    assert model.ucb((1, 1), 0.0) == model.mean((1, 1))
    assert model.spread == pytest.approx(math.sqrt(1 / 6))  # of 1, 0, 0.5


def test_pairs_add_every_pair_of_dimensions():
    model = ntbea.Model([2, 2, 2], pairs=True)
    assert model.tuples == ((0,), (1,), (2,), (0, 1), (0, 2), (1, 2), (0, 1, 2))
    model.update((0, 0, 0), 1.0)
    model.update((1, 1, 1), 0.0)
    # (0, 1, 1): singles 1, 0, 0; pairs (0,1) and (0,2) unseen, (1,2) saw 0; itself unseen
    assert model.mean((0, 1, 1)) == pytest.approx(1 / 4)


@given(
    st.lists(st.integers(2, 7), min_size=1, max_size=9).flatmap(
        lambda sizes: st.tuples(
            st.just(sizes), st.tuples(*(st.integers(0, n - 1) for n in sizes)), st.integers()
        )
    )
)
def test_neighbours_stay_in_the_space_and_move(case):
    sizes, point, seed = case
    found = ntbea.neighbours(point, sizes, random.Random(seed), 20)
    assert 1 <= len(found) <= 20 and len(set(found)) == len(found)
    for other in found:
        assert len(other) == len(sizes) and other != point
        assert all(0 <= i < n for i, n in zip(other, sizes, strict=True))


def test_the_walk_finds_the_clearly_best_value_of_a_noisy_toy_objective():
    """Four dimensions of five values; the value is 0.5 plus 0.1 for each dimension at its
    best index, with noise of sd 0.1: the best point is (4, 0, 2, 3)."""
    best = (4, 0, 2, 3)
    noise = random.Random(1)
    walk = ntbea.Ntbea([5] * 4, (0, 0, 0, 0), random.Random(2))
    for _ in range(200):
        hits = sum(i == b for i, b in zip(walk.point, best, strict=True))
        walk.tell(0.5 + 0.1 * hits + noise.gauss(0, 0.1))
    assert walk.ranked()[0] == best
    assert walk.model.count(best) >= ntbea.MIN_VISITS


# ---------------------------------------------------------------- space and schedule


def test_the_space_is_a_grid_with_the_default_and_starts_there():
    dims = tuning.parse_strategy("heuristic:path=0..4,decay=0.5..0.9,joker=1|3", "sanssouci")
    space = ntbea.make_space(dims.dimensions)
    path, decay, joker = space.values
    assert path == (0.0, 1.0, 2.0, 3.0, 4.0)  # the default 2.0 is a grid point
    assert decay == (0.5, 0.6, 0.7, 0.8, 0.9)  # the default 0.3 lies outside
    assert joker == (1.0, 3.0)  # a list as given, without the default 2.0
    assert space.start == (2, 0, 0)  # the default, or the value nearest to it
    skip = tuning.parse_strategy("heuristic:skip=0..1", "sanssouci").dimensions
    assert ntbea.make_space(skip).values == ((0.0, 0.25, 0.5, 0.6, 0.75, 1.0),)
    probes = ntbea.probes(dims.dimensions)
    # the default (not on the grid), then the start with each value of each dimension
    assert probes[0].is_default and len(probes) == 1 + (5 + 5 + 2 - 2)


def test_the_schedule_spends_the_search_share_and_refuses_a_small_budget():
    plan = ntbea.schedule(tuning.Settings(**_settings(budget=60000)), rotations=2)
    assert (plan.evaluations, plan.deals, plan.final_deals) == (420, 50, 2250)
    with pytest.raises(tuning.TuneError, match="too small for --method ntbea"):
        ntbea.schedule(tuning.Settings(**_settings(budget=2000)), rotations=2)


def _settings(**changes: object) -> dict:
    base = {"game": "sanssouci", "players": 2, "strategies": (SKILL,), "params": ()}
    base |= {"objective": None, "against": "random", "budget": 600, "method": "ntbea"}
    return base | changes


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--method", "ntbea", "--budget", "500"], "too small for --method ntbea"),
        (["--method", "ntbea", "--batch", "0"], "--batch must be a positive"),
        (["--method", "ntbea", "--candidates", "8"], "--candidates is for --method halving"),
        (["--batch", "10"], "--batch is for --method ntbea"),
        (["--method", "grid"], "Invalid value for '--method'"),
    ],
)
def test_bad_ntbea_settings_are_one_line_errors(tmp_path, args, message):
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["tune", "-s", SKILL, "--against", "random", *args])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert message in lines[-1]
    if "Invalid value" not in message:  # click's own usage error has its usage lines
        assert len(lines) == 1 and lines[0].startswith("sanssim: error:")
    assert not out.exists()


def test_settings_without_a_method_are_a_halving():
    data = tuning.Settings(**_settings(method="halving")).to_dict()
    assert data["method"] == "halving" and "batch" not in data
    del data["method"]
    assert tuning.Settings.from_dict(data).method == "halving"
    ntbea_settings = tuning.Settings(**_settings(batch=7))
    assert tuning.Settings.from_dict(ntbea_settings.to_dict()) == ntbea_settings


# ---------------------------------------------------------------- a tiny tune


@pytest.fixture(scope="module")
def walked(tmp_path_factory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("ntbea") / "whole"
    return out, tune(out, *TINY)


def test_the_tiny_tune_finds_the_most_skill_and_records_its_walk(walked):
    out, data = walked
    assert data["settings"]["method"] == "ntbea" and data["status"] == "complete"
    best = data["candidates"][data["final"]["best"]]
    assert best["values"] == {SKILL.split("=")[0]: 1.0}  # greedy beats random
    assert data["final"]["best_vs_default"]["verdict"] == "better"
    evaluations = data["evaluations"]
    assert len(evaluations) == data["schedule"]["evaluations"] == 42
    assert evaluations[0]["candidate"] == 0  # the walk starts at the default
    assert [e["spent_after"] for e in evaluations] == [10 * (i + 1) for i in range(42)]
    assert data["spent"] == 420 + 3 * 30 * 2
    visits = {c["id"]: c["evaluations"] for c in data["candidates"] if "evaluations" in c}
    assert sum(visits.values()) == 42
    assert {e["candidate"] for e in evaluations} == set(visits)
    singles = data["model"][0]["values"]
    assert [v["value"] for v in singles] == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert sum(v["n"] for v in singles) == 42
    index = json.loads((out / "index.json").read_text())
    assert len(index["arms"]) == 2 * (42 + 3)  # every evaluation and final arm, once
    assert {a["name"] for a in index["arms"]} >= {"c000-e0-s0", "c000-e0-s1", "c000-final-s1"}


@pytest.mark.parametrize("cut", [1, 12])  # in the first evaluation, or in the twelfth
def test_the_tiny_tune_repeats_itself_and_resumes_to_the_same_walk(
    walked, tmp_path, monkeypatch, cut
):
    interrupt_execute(monkeypatch, cut)
    settings = tuning.Settings(**_settings(batch=5, finalists=2, seed=3))
    with pytest.raises(KeyboardInterrupt), LocalExecutor(1) as executor:
        tuning.run(tuning.prepare(settings), tmp_path / "cut", executor, ["test"])
    monkeypatch.undo()
    resumed = tune(tmp_path / "cut", "--resume", "--workers", "1")
    for key in ("settings", "candidates", "evaluations", "model", "final", "spent"):
        assert resumed[key] == walked[1][key], key


def test_report_on_an_ntbea_tune_draws_the_walk(walked, tmp_path):
    out, data = walked
    written = write_report(sorted(out.glob("*-final*")), tmp_path / "report", ["test"])
    text = (tmp_path / "report" / "report.md").read_text()
    search = text.split("## Tuning search")[1]
    assert "--method ntbea" in search and "What the model learned" in search
    assert "| c000 |" in search and "Best against default: best" in search
    assert {"tune_by_candidate.png", "tune_by_budget.png"} <= {p.name for p in written.files}
