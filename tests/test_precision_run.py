"""`sanssim run --precision`: stops at a look in game order, the same whatever the workers,
chunk size or a resume, and paired-difference targets play two arms in lockstep."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from sanssim.cli import main
from sanssim.runformat import MANIFEST
from sanssim.runner.files import read_json, write_json

BASE = ["--game", "seikatsu", "--players", "2", "-s", "random", "--games", "3200", "--seed", "9"]


def run(*args: str) -> str:
    result = CliRunner().invoke(main, ["run", *args])
    assert result.exit_code == 0, result.output
    return result.output


def results(run_dir: Path) -> pl.DataFrame:
    return pl.read_parquet(run_dir / "results" / "*.parquet").sort("game_id", "seat")


def test_the_stop_is_a_look_and_does_not_depend_on_workers_or_resume(tmp_path: Path) -> None:
    target = ["--precision", "seat0_win=0.03"]
    output = run(*BASE, *target, "--workers", "2", "--out", str(tmp_path / "two"))
    one = tmp_path / "one"
    run(*BASE, *target, "--workers", "1", "--chunk-size", "50", "--out", str(one))
    manifest = read_json(tmp_path / "two" / MANIFEST)
    stopped = manifest["precision"]["stopped_at"]
    # seat 0 wins about half the games: a half-width of 0.03 needs about 1,070 games,
    # so the run stops at the first look above that, 1,600, not at the cap
    assert stopped == 1600 and manifest["games"] == 1600 and manifest["status"] == "complete"
    assert "stopped at 1,600 games per arm (every target met; cap 3,200)" in output
    achieved = manifest["precision"]["achieved"]["arm:seat0_win"]
    assert achieved["n"] == 1600 and achieved["half_width"] <= 0.03
    assert results(tmp_path / "two")["game_id"].max() == 1599
    assert results(one).equals(results(tmp_path / "two"))
    # killed after four parts of 50: the resume reads the targets from the manifest
    manifest = read_json(one / MANIFEST)
    for part in manifest["parts"][4:]:
        for table in ("results", "turns"):
            (one / table / f"{part['name']}.parquet").unlink()
    manifest.update(parts=manifest["parts"][:4], status="incomplete", games=3200)
    manifest["precision"] = {"targets": manifest["precision"]["targets"]}
    write_json(one / MANIFEST, manifest)
    run("--resume", "--out", str(one), "--workers", "2")
    assert read_json(one / MANIFEST)["precision"]["stopped_at"] == 1600
    assert results(one).equals(results(tmp_path / "two"))


def test_an_unreachable_target_stops_at_the_cap(tmp_path: Path) -> None:
    out = tmp_path / "cap"
    args = [*BASE[:-4], "--games", "400", "--seed", "9", "--precision", "mean_total=0.01"]
    output = run(*args, "--out", str(out))
    assert read_json(out / MANIFEST)["precision"]["stopped_at"] == 400
    assert "(cap; cap 400)" in output and "NOT met" in output


def test_a_paired_difference_plays_both_arms_in_lockstep(tmp_path: Path) -> None:
    experiment = tmp_path / "exp.toml"
    experiment.write_text(
        'game = "seikatsu"\nplayers = 2\ngames = 3200\nseed = 4\nstrategy = "random"\n'
        '[[arm]]\nname = "standard"\n[[arm]]\nname = "tournament"\ntournament = true\n'
    )
    out = tmp_path / "pair"
    run("--config", str(experiment), "--precision", "diff:tournament-standard:mean_total=0.6",
        "--out", str(out))  # fmt: skip
    stops = {read_json(out / arm / MANIFEST)["precision"]["stopped_at"] for arm in
             ("standard", "tournament")}  # fmt: skip
    assert len(stops) == 1 and stops.pop() < 3200
    assert results(out / "standard").height == results(out / "tournament").height


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--precision", "seat0_win"], "expected METRIC=HALFWIDTH"),
        (["--precision", "wins=0.1"], "unknown metric 'wins'"),
        (["--precision", "seat0_win=-1"], "half-width must be a positive number"),
        (["--precision", "seat0_win=inf"], "half-width must be a positive number"),
        (["--precision", "seat0_win=nan"], "half-width must be a positive number"),
        (["--precision", "diff:a-b:mean_total=1"], "is not two arms joined by '-'"),
        (["--precision", "seat0_win=0.1", "--games", "100"], "--games (the cap) of at least 200"),
    ],
)
def test_bad_targets_are_one_line_and_write_nothing(tmp_path, args, message) -> None:
    result = CliRunner().invoke(
        main, ["run", "--players", "2", "--out", str(tmp_path / "o"), *args]
    )
    assert result.exit_code == 2
    assert message in result.output
    assert not (tmp_path / "o").exists()


def test_one_progress_bar_for_the_whole_run_says_what_it_waits_for(tmp_path, monkeypatch):
    """Issue 19: not a bar per look and arm but one over every arm's games up to the cap,
    whose note names the look it plays toward and the targets still unmet."""
    from contextlib import contextmanager

    import sanssim.cli.running

    bars: list[dict] = []

    @contextmanager
    def recorded(label, total, done):
        bar = {"label": label, "total": total, "done": done, "notes": []}
        bars.append(bar)

        def update(games, note=None, total=None):
            bar["done"] += games
            bar["total"] = bar["total"] if total is None else total
            bar["notes"] += [] if note is None else [note]

        yield update

    monkeypatch.setattr(sanssim.cli.running, "_progress", recorded)
    experiment = tmp_path / "exp.toml"
    experiment.write_text(
        'game = "seikatsu"\nplayers = 2\ngames = 3200\nseed = 4\nstrategy = "random"\n'
        '[[arm]]\nname = "standard"\n[[arm]]\nname = "tournament"\ntournament = true\n'
    )
    out = tmp_path / "bar"
    run("--config", str(experiment), "--precision", "seat0_win=0.03", "--out", str(out))
    stopped = read_json(out / "standard" / MANIFEST)["precision"]["stopped_at"]
    assert len(bars) == 1, "one bar for every look and arm"
    (bar,) = bars
    assert bar["label"] == "to precision" and bar["done"] == bar["total"] == 2 * stopped
    notes = bar["notes"]
    assert notes[0] == (
        "look 1 of 5 at 200 games per arm; targets standard:seat0_win ±3%, tournament:seat0_win ±3%"
    )
    assert notes[1].startswith("look 2 of 5 at 400 games per arm; not yet met: ")
    assert "(target ±3%)" in notes[1]
    assert notes[-1] == f"stopped at {stopped:,} games per arm: every target met"
