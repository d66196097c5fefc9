"""Batches: determinism across workers and chunk sizes, the run format, failures, resume."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from importlib import resources
from pathlib import Path

import polars as pl
import pytest

from sanssim.games.sanssouci import SYMBOLS, Components
from sanssim.games.sanssouci.plugin import GAME
from sanssim.runformat import MANIFEST
from sanssim.runner import run as run_module
from sanssim.runner.batch import chunks
from sanssim.runner.config import (
    DEFAULT_STRATEGY,
    Arm,
    RunError,
    build_config,
    load_experiment,
    sweep,
)
from sanssim.runner.executor import LocalExecutor
from sanssim.runner.files import read_json, write_json
from sanssim.runner.play import game_seed, play_game
from sanssim.runner.run import execute, in_driver, plan, summary
from sanssim.strategies import resolve

REPO = Path(__file__).resolve().parent.parent
SANSSIM = [sys.executable, "-m", "sanssim.cli"]

# The spec's columns and types (run-format.md), written out here rather than imported.
RESULT_COLUMNS = {
    "run_id": pl.String,
    "game_id": pl.Int64,
    "game_seed": pl.Int64,
    "n_players": pl.Int8,
    "expansion": pl.Boolean,
    "duplicate_reshuffle": pl.Boolean,
    "tile_set": pl.String,
    "seat": pl.Int8,
    "strategy": pl.String,
    "garden_side": pl.String,
    "expansion_side": pl.String,
    "mission_a": pl.String,
    "mission_b": pl.String,
    "noble_points": pl.Int16,
    "expansion_points": pl.Int16,
    "row_bonus": pl.Int16,
    "column_bonus": pl.Int16,
    "mission_points": pl.Int16,
    "total": pl.Int16,
    "gardeners": pl.Int8,
    "rows_completed": pl.Int8,
    "columns_completed": pl.Int8,
    "noble_rows": pl.List(pl.Int8),
    "rank": pl.Int8,
    "winner": pl.Boolean,
}
TURN_COLUMNS = {
    "run_id": pl.String,
    "game_id": pl.Int64,
    "turn": pl.Int16,
    "round": pl.Int8,
    "seat": pl.Int8,
    "hand": pl.List(pl.String),
    "card": pl.String,
    "card_wild": pl.Boolean,
    "display": pl.List(pl.String),
    "slot": pl.Int8,
    "tile": pl.String,
    "target_row": pl.Int8,
    "target_col": pl.Int8,
    "placed_row": pl.Int8,
    "placed_col": pl.Int8,
    "gardener": pl.Boolean,
    "expansion_points": pl.Int8,
    "noble_col": pl.Int8,
    "noble_from": pl.Int8,
    "noble_to": pl.Int8,
    "noble_points": pl.Int8,
    "score": pl.Int16,
    "reshuffles": pl.Int8,
    "supply_left": pl.Int16,
}


def run_arms(out: Path, arms: list[Arm], workers: int, chunk_size: int | None = None) -> None:
    with LocalExecutor(workers) as executor:
        execute(plan(out, arms, force=False), executor, ["test"], chunk_size)


def table(run_dir: Path, name: str) -> pl.DataFrame:
    keys = ["game_id", "seat"] if name == "results" else ["game_id", "turn"]
    return pl.read_parquet(run_dir / name / "*.parquet").sort(keys)


def test_one_and_two_workers_and_any_chunk_size_give_identical_logs(tmp_path, monkeypatch):
    monkeypatch.setattr(run_module, "IN_DRIVER_GAMES", 0)  # two workers, however few games
    options = dict(games=24, seed=11, expansion=True, duplicate_reshuffle=True)
    arms = sweep([3], **options)
    run_arms(tmp_path / "w1", arms, workers=1, chunk_size=24)
    run_arms(tmp_path / "w2", arms, workers=2, chunk_size=5)
    run_arms(tmp_path / "w1c7", arms, workers=1, chunk_size=7)
    for name in ("results", "turns"):
        one = table(tmp_path / "w1", name)
        assert one.height > 0
        assert one.equals(table(tmp_path / "w2", name))
        assert one.equals(table(tmp_path / "w1c7", name))
    assert len(list((tmp_path / "w2" / "results").glob("*.parquet"))) == 5


def test_only_a_small_run_of_compiled_strategies_that_do_not_search_plays_in_the_driver():
    def config(games: int, strategy: str, engine: str = "compiled"):  # its engine settled
        return build_config(n_players=2, games=games, strategies=[strategy], engine=engine)

    small = [config(1000, "heuristic"), config(1000, "random")]
    assert in_driver(small)
    assert not in_driver([*small, config(run_module.IN_DRIVER_GAMES, "heuristic")])
    assert not in_driver([config(10, "lookahead")])
    assert not in_driver([config(10, "heuristic", "python")])


def test_any_game_replays_from_its_logged_seed(tmp_path):
    arms = sweep([2], games=6, seed=3)
    run_arms(tmp_path / "r", arms, workers=1)
    results = table(tmp_path / "r", "results")
    config = arms[0].config
    for game_id, seed, totals in (
        results.group_by("game_id", "game_seed").agg(pl.col("total")).sort("game_id").iter_rows()
    ):
        assert seed == game_seed(3, game_id)
        state = play_game(GAME, config.game(), config.specs(), seed)
        assert state.returns() == totals


def test_results_and_turns_follow_the_run_format(tmp_path):
    arms = sweep([4], games=10, seed=5, expansion=True)
    run_arms(tmp_path / "r", arms, workers=1, chunk_size=4)
    results = pl.scan_parquet(str(tmp_path / "r" / "results" / "*.parquet")).collect()
    turns = pl.scan_parquet(str(tmp_path / "r" / "turns" / "*.parquet")).collect()
    for frame, spec in ((results, RESULT_COLUMNS), (turns, TURN_COLUMNS)):
        for column, dtype in spec.items():
            assert frame.schema[column] == dtype, column
    assert results.height == 40 and turns.height == 10 * 18 * 4
    assert results["game_id"].n_unique() == 10
    sources = ["noble_points", "expansion_points", "row_bonus", "column_bonus", "mission_points"]
    assert results.select((pl.sum_horizontal(sources) == pl.col("total")).all()).item()
    assert results.select((pl.col("winner") == (pl.col("rank") == 1)).all()).item()
    assert results["noble_rows"].list.len().unique().to_list() == [9]
    assert set(results["mission_a"]) | set(results["mission_b"]) <= set(SYMBOLS)
    assert results["expansion_side"].null_count() == 0
    assert turns["display"].list.len().unique().to_list() == [10]
    last = turns.filter(pl.col("round") == 18)["hand"].list.len().unique().to_list()
    assert last == [1] and turns["round"].max() == 18
    assert turns.filter(pl.col("noble_col").is_null())["noble_to"].null_count() == (
        turns["noble_col"].null_count()
    )
    assert turns.filter(pl.col("noble_col").is_not_null())["noble_points"].min() >= 1
    final = turns.group_by("game_id", "seat").agg(pl.col("score").last(), pl.col("turn").max())
    assert final["turn"].max() == 71


def test_manifest_embeds_components_and_lists_every_game_once(tmp_path):
    arms = sweep([2], games=13, seed=2, turn_log=False)
    run_arms(tmp_path / "r", arms, workers=2, chunk_size=4)
    manifest = read_json(tmp_path / "r" / "manifest.json")
    assert manifest["status"] == "complete"
    assert Components.from_manifest(manifest["components"]) == arms[0].config.components
    ranges = [tuple(p["games"]) for p in manifest["parts"]]
    assert ranges == [(0, 3), (4, 7), (8, 11), (12, 12)]  # first and last game ids
    assert [p["results_rows"] for p in manifest["parts"]] == [8, 8, 8, 2]
    assert not (tmp_path / "r" / "turns").exists()
    assert manifest["config"]["turn_log"] is False
    assert manifest["config"]["strategies"][0]["spec"] == resolve(DEFAULT_STRATEGY).text


def test_chunks_skip_done_parts_exactly():
    assert chunks(10, 4) == [(0, 4), (4, 8), (8, 10)]
    assert chunks(10, 4, done=[4]) == [(0, 4), (8, 10)]


def test_failed_games_are_recorded_and_the_run_goes_on(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(REPO))
    arms = sweep([2], games=12, strategies=["tests.faulty_strategy:Raising", "random"])
    run_arms(tmp_path / "r", arms, workers=2, chunk_size=5)
    manifest = read_json(tmp_path / "r" / "manifest.json")
    failures = manifest["failures"]
    results = table(tmp_path / "r", "results")
    assert failures, "the faulty strategy should have failed some games"
    assert len(failures) + results["game_id"].n_unique() == 12
    failed_ids = {f["game_id"] for f in failures}
    assert failed_ids.isdisjoint(set(results["game_id"]))
    for f in failures:
        assert f["game_seed"] == game_seed(1, f["game_id"])
        assert f["seat"] == 0 and f["kind"] == "strategy"
        assert "deliberate failure" in f["error"]
    log = (tmp_path / "r" / "errors.log").read_text()
    assert log.count("deliberate failure") >= 2 * len(failures)  # message and traceback


def test_an_illegal_choice_fails_the_game(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(REPO))
    arms = sweep([2], games=2, strategies=["tests.faulty_strategy:Illegal"])
    run_arms(tmp_path / "r", arms, workers=1)
    failures = read_json(tmp_path / "r" / "manifest.json")["failures"]
    assert [f["game_id"] for f in failures] == [0, 1]
    assert all("IllegalActionError" in f["error"] for f in failures)
    assert pl.read_parquet(tmp_path / "r" / "results" / "*.parquet").height == 0


def test_experiment_file_expands_arms(tmp_path):
    path = tmp_path / "exp.toml"
    path.write_text(
        'games = 5\nseed = 9\n[[arm]]\nname = "base"\nplayers = [2, 3]\n'
        '[[arm]]\nname = "exp"\nplayers = 2\nexpansion = true\nstrategy = ["random", "random"]\n'
    )
    arms = load_experiment(path)
    assert [a.name for a in arms] == ["base-p2", "base-p3", "exp"]
    assert [a.config.n_players for a in arms] == [2, 3, 2]
    assert all(a.config.games == 5 and a.config.seed == 9 for a in arms)
    assert arms[2].config.option("expansion") and not arms[0].config.option("expansion")
    run_arms(tmp_path / "out", arms, workers=1)
    index = json.loads((tmp_path / "out" / "index.json").read_text())
    assert [a["name"] for a in index["arms"]] == ["base-p2", "base-p3", "exp"]
    assert (tmp_path / "out" / "exp" / "results" / "part-00000.parquet").is_file()


def test_an_experiments_component_file_is_recorded_in_each_manifest(tmp_path):
    source = resources.files("sanssim.games.sanssouci").joinpath("components.toml").read_text()
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "mine.toml").write_text(source.replace("II = 5", "II = 6"))
    (tmp_path / "exp.toml").write_text(
        'games = 2\n[[arm]]\nname = "mine"\nplayers = 2\ncomponents = "data/mine.toml"\n'
        '[[arm]]\nname = "packaged"\nplayers = 2\n'
    )
    arms = load_experiment(tmp_path / "exp.toml")
    run_arms(tmp_path / "out", arms, workers=1)
    mine = read_json(tmp_path / "out" / "mine" / "manifest.json")
    assert mine["components_file"] == str((tmp_path / "data" / "mine.toml").resolve())
    assert mine["components"]["tiles"]["II"] == 6
    assert "components_file" not in read_json(tmp_path / "out" / "packaged" / "manifest.json")
    assert arms[0].config.fingerprint() != arms[1].config.fingerprint()


def test_the_summary_splits_a_shared_win_and_gives_intervals(tmp_path):
    (tmp_path / "results").mkdir()
    pl.DataFrame(
        {
            "game_id": [0, 0, 1, 1, 2, 2],
            "seat": [0, 1, 0, 1, 0, 1],
            "strategy": ["a", "b"] * 3,
            "total": [10, 10, 12, 8, 11, 9],
            "winner": [True, True, True, False, True, False],
        }
    ).write_parquet(tmp_path / "results" / "part-00000.parquet")
    part = {"name": "part-00000", "games": [0, 2], "rows": {"results": 6}}
    manifest = {"game": "g", "config": {"turn_log": False}, "components": {}, "games": 3}
    write_json(tmp_path / MANIFEST, {**manifest, "chunk_size": 3, "parts": [part]})
    rows = summary(tmp_path).to_dicts()
    assert [(r["seat"], r["strategy"], r["win_n"]) for r in rows] == [(0, "a", 3), (1, "b", 3)]
    assert [r["win_k"] for r in rows] == [2.5, 0.5]  # the tied game counts half for each
    assert [r["total_mean"] for r in rows] == [11.0, 9.0]
    for r in rows:
        assert r["win_lo"] < r["win_p"] < r["win_hi"]
        assert r["total_lo"] < r["total_mean"] < r["total_hi"]


@pytest.mark.parametrize(
    "text, message",
    [
        ("[[arm]]\nplayers = 5\n", "played by 2, 3, 4 players"),
        ("[[arm]]\nbogus = 1\n", "unknown key 'bogus'"),
        ("games = 3\n", "no [[arm]]"),
        ("[[arm]]\nstrategy = 'nope'\n", "unknown sanssouci strategy 'nope'"),
        ("[[arm\n", "invalid TOML"),
        ('[[arm]]\nname = "a"\n[[arm]]\nname = "a"\n', "used twice"),
    ],
)
def test_bad_experiment_files_are_refused(tmp_path, text, message):
    path = tmp_path / "exp.toml"
    path.write_text(text)
    with pytest.raises(RunError, match=message.replace("[", r"\[")):
        load_experiment(path)


def test_config_validation():
    with pytest.raises(RunError, match="one per seat"):
        build_config(n_players=3, strategies=["random", "random"])
    with pytest.raises(RunError, match="at least 1"):
        build_config(n_players=2, games=0)
    config = build_config(n_players=3, garden_sides="2A")
    assert config.option("garden_sides") == "2A"
    assert config.to_dict()["garden_sides"] == ["2A", "2A", "2A"]
    assert config.to_dict()["tile_set"] == "II+III"


def _start(out: Path, *args: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.Popen(
        [*SANSSIM, "run", "--out", str(out), *args],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def test_a_killed_run_resumes_without_redoing_or_duplicating_games(tmp_path):
    args = ["--players", "2", "--games", "40", "--chunk-size", "2", "--seed", "4"]
    slow = ["-s", "tests.faulty_strategy:Slow"]
    out = tmp_path / "killed"
    proc = _start(out, *args, *slow, "--workers", "2")
    manifest = out / "manifest.json"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if manifest.is_file() and len(read_json(manifest)["parts"]) >= 3:
            break
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    killed = read_json(manifest)
    assert killed["status"] == "incomplete", "the run finished before it could be killed"
    for name in ("results", "turns"):
        for part in (out / name).glob("*.parquet"):
            pl.read_parquet(part)  # every visible part is complete
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    resumed = subprocess.run(
        [*SANSSIM, "run", "--resume", "--out", str(out), "--workers", "2"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert resumed.returncode == 0, resumed.stderr
    done = read_json(manifest)
    assert done["status"] == "complete"
    assert all(part in done["parts"] for part in killed["parts"]), "a finished part changed"
    ranges = sorted(tuple(p["games"]) for p in done["parts"])
    assert ranges == [(s, s + 1) for s in range(0, 40, 2)]
    reference = tmp_path / "reference"
    proc = _start(reference, *args, *slow, "--workers", "1")
    assert proc.wait() == 0
    for name in ("results", "turns"):
        got, want = table(out, name), table(reference, name)
        assert got.height == want.height > 0
        assert got.equals(want)
    assert table(out, "results").select(pl.struct("game_id", "seat").is_unique().all()).item()


def _workers_of(pid: int) -> list[int]:
    """Pool worker processes of `pid`, found by parent id in /proc."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            cmdline = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if int(fields[1]) == pid and b"spawn_main" in cmdline:
            found.append(int(stat.parent.name))
    return found


def test_a_killed_worker_s_chunk_is_played_again_on_a_fresh_worker(tmp_path):
    """A worker killed once (out of memory, say) loses only its chunk, played again; a chunk
    that kills twice stops the run (tests/test_workers.py)."""
    out = tmp_path / "run"
    args = ["--players", "2", "--games", "60", "--chunk-size", "2"]
    proc = subprocess.Popen(
        [
            *SANSSIM,
            "run",
            "--out",
            str(out),
            "--workers",
            "2",
            *args,
            "-s",
            "tests.faulty_strategy:Slow",
        ],
        env={**os.environ, "PYTHONPATH": str(REPO)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    manifest = out / "manifest.json"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        workers = _workers_of(proc.pid)
        if len(workers) == 2 and manifest.is_file() and read_json(manifest)["parts"]:
            break
        time.sleep(0.05)
    os.kill(workers[0], signal.SIGKILL)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 0, stderr
    assert "a worker process died playing games" in stderr and "played again" in stderr
    assert read_json(manifest)["status"] == "complete"
    results = table(out, "results")
    assert results["game_id"].to_list() == sorted(2 * list(range(60)))


def test_ctrl_c_keeps_finished_parts_and_says_how_to_resume(tmp_path):
    out = tmp_path / "run"
    proc = subprocess.Popen(
        [*SANSSIM, "run", "--out", str(out), "--workers", "2", "--players", "2"]
        + ["--games", "60", "--chunk-size", "2", "-s", "tests.faulty_strategy:Slow"],
        env={**os.environ, "PYTHONPATH": str(REPO)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    manifest = out / "manifest.json"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if manifest.is_file() and read_json(manifest)["parts"]:
            break
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)  # what the terminal sends on Ctrl-C
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert f"sanssim run --resume --out {out}" in stderr
    assert "Traceback" not in stderr
    kept = read_json(manifest)["parts"]
    assert kept and read_json(manifest)["status"] == "incomplete"
    assert len(list((out / "results").glob("*.parquet"))) >= len(kept)


def test_a_bug_of_ours_is_logged_with_what_replays_it(tmp_path, monkeypatch):
    import sanssim.runner.job as job

    real = job.play_game

    def broken(game_type, game, specs, seed, *args):
        if seed == game_seed(1, 2):
            raise ZeroDivisionError("bug in our code")
        return real(game_type, game, specs, seed, *args)

    monkeypatch.setattr(job, "play_game", broken)
    run_arms(tmp_path / "r", sweep([2], games=4, engine="python"), workers=1)
    (failure,) = read_json(tmp_path / "r" / "manifest.json")["failures"]
    assert failure["kind"] == "internal" and failure["game_id"] == 2
    assert failure["game_seed"] == game_seed(1, 2) and failure["seat"] is None
    text = (tmp_path / "r" / "errors.log").read_text()
    assert "ZeroDivisionError: bug in our code" in text
    assert f"game 2 (game_seed {game_seed(1, 2)})" in text
    assert f"replay_game({json.dumps(str((tmp_path / 'r').resolve()))}, 2)" in text
    assert table(tmp_path / "r", "results")["game_id"].unique().to_list() == [0, 1, 3]
