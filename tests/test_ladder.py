"""scripts/ladder.py: steps played through the runner, scored seat by seat."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import polars as pl
import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "ladder.py"


@pytest.fixture(scope="module")
def ladder():
    spec = importlib.util.spec_from_file_location("ladder", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["ladder"] = module  # dataclasses look it up by name
    spec.loader.exec_module(module)
    yield module
    del sys.modules["ladder"]


def test_a_seat_scores_its_meetings_with_the_seats_not_on_its_team(ladder) -> None:
    rows = pl.DataFrame(
        {
            "seat": [0, 1, 2, 3],
            "rank": [1, 2, 1, 2],
            "total": [30, 20, 30, 20],
            "team": [0, 1, 0, 1],
        }
    )
    assert ladder._points(rows, 1) == (0.0, -10.0)  # beaten by both of the other team
    alone = rows.drop("team").with_columns(rank=pl.Series([1, 3, 2, 3]))
    assert ladder._points(alone, 2) == (pytest.approx(2 / 3), pytest.approx(30 - 70 / 3))


def test_the_four_player_step_seats_the_strong_side_in_every_seat(ladder, tmp_path) -> None:
    assert ladder.seatings("a", "b", 4) == [
        ("a", "b", "b", "b"),
        ("b", "a", "b", "b"),
        ("b", "b", "a", "b"),
        ("b", "b", "b", "a"),
    ]
    out = tmp_path / "ladder.json"
    argv = ["--game", "seikatsu", "--steps", "greedy,ismcts-4p", "--games", "6", "--engine",
            "python", "--ismcts", "greedy", "--ismcts-games", "8", "--escalate", "",
            "--out", str(tmp_path / "runs"), "--json", str(out), "--workers", "1"]  # fmt: skip
    ladder.main(argv)
    steps = json.loads(out.read_text())["steps"]
    assert [(s["step"], s["games"], s["players"]) for s in steps] == [
        ("greedy vs random", 6, 2),
        ("greedy vs heuristic, 4p", 8, 4),
    ]
    assert all(s["ci_low"] <= s["win_rate"] <= s["ci_high"] for s in steps)
    arms = sorted(p.name for p in (tmp_path / "runs" / "seikatsu").glob("greedy-vs-heur*/*-seat*"))
    assert arms == ["00-seat0", "01-seat1", "02-seat2", "03-seat3"]


def test_a_larger_budget_replaces_the_specs_own(ladder) -> None:
    assert ladder.with_iterations("ismcts", 400) == "ismcts:iterations=400"
    assert (
        ladder.with_iterations("ismcts:iterations=50,c=0.5", 400) == "ismcts:c=0.5,iterations=400"
    )
