"""scripts/costs.py: the strategy cost guide measures what it says, for every game."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "costs.py"


@pytest.fixture(scope="module")
def costs():
    spec = importlib.util.spec_from_file_location("costs", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["costs"] = module  # dataclasses and the worker pool look it up by name
    spec.loader.exec_module(module)
    yield module
    del sys.modules["costs"]


@pytest.mark.parametrize("game", ["sanssouci", "seikatsu", "splendor"])
def test_a_cell_counts_the_games_and_real_decisions_it_played(costs, game):
    cell = costs.Cell(game, "lookahead:rollouts=2,width=2", 2)
    cost = costs.measure(cell, seed=1, seconds=0.0, min_games=1, max_games=5)
    assert cost.games == 1 and cost.cpu > 0
    assert 20 <= cost.decisions <= 400  # one game's real decisions, every seat counted
    assert cost.games_per_s == pytest.approx(1 / cost.cpu)


@pytest.mark.parametrize("game", ["sanssouci", "seikatsu", "splendor"])
def test_a_compiled_cell_times_the_core_at_every_real_decision(costs, game):
    cell = costs.Cell(game, "ismcts:iterations=3", 2, compiled=True)
    cost = costs.measure(cell, seed=1, seconds=0.0, min_games=1, max_games=5)
    assert cost.games == 1
    assert 20 <= cost.decisions <= 400
    python = costs.measure(costs.Cell(game, "heuristic", 2), 1, 0.0, 1, 5)
    assert cost.decisions == python.decisions  # the same heuristic game's decisions


def test_the_table_has_a_row_per_cell_and_the_hourly_rate_of_its_workers(costs, capsys):
    costs.main(
        ["--game", "sanssouci", "--players", "2,3", "--budgets", "2", "--seconds", "0"]
        + ["--min-games", "1", "--workers", "1", "--compiled", "ismcts:iterations=2"]
    )
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("| `")]
    assert [r.split(" | ")[0:2] for r in rows] == [
        ["| `heuristic`", "2"],
        ["| `heuristic`", "3"],
        ["| `lookahead:rollouts=2,width=4`", "2"],
        ["| `lookahead:rollouts=2,width=4`", "3"],
        ["| `ismcts:iterations=2` (compiled)", "2"],
        ["| `ismcts:iterations=2` (compiled)", "3"],
    ]
    for row in rows:
        cells = row.strip(" |").split(" | ")
        per_s = float(cells[6].replace(",", ""))
        per_hour = float(cells[7].replace(",", ""))
        assert per_hour == pytest.approx(per_s * 3600, rel=0.01)  # one worker
    assert re.search(r"games per hour \(1 core\) \|", out)


def test_compiled_specs_keep_their_own_parameters(costs):
    text = "ismcts:iterations=200,depth=8,heuristic,lookahead:width=2"
    assert costs._specs(text) == ["ismcts:iterations=200,depth=8", "heuristic", "lookahead:width=2"]
    assert costs._specs("") == []
