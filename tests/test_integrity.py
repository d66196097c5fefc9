"""Runs that cannot lie: damaged run directories, hostile strategies, growing a run."""

from __future__ import annotations

import hashlib
import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from sanssim.cli import main
from sanssim.runformat import ERRORS_LOG, MANIFEST

HOSTILE = "tests.faulty_strategy:Hostile"


def invoke(*args: str):
    return CliRunner().invoke(main, list(args))


def small_run(out: Path, *options: str, games: int = 10) -> Path:
    args = ["run", "--players", "2", "--games", str(games), "--chunk-size", "4"]
    result = invoke(*args, "--workers", "1", "-s", "random", "--out", str(out), *options)
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return small_run(tmp_path_factory.mktemp("good") / "run")


def _copy(run: Path, to: Path) -> Path:
    return Path(shutil.copytree(run, to))


def _manifest(run: Path) -> dict:
    return json.loads((run / MANIFEST).read_text())


def _one_line_error(result, *words: str) -> None:
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("sanssim: error:"), result.output
    assert "Traceback" not in result.output
    for word in words:
        assert word in lines[0], lines[0]


def test_the_manifest_lists_each_part_with_rows_bytes_and_digest(good: Path) -> None:
    part = _manifest(good)["parts"][0]
    for table in ("results", "turns"):
        data = (good / table / f"{part['name']}.parquet").read_bytes()
        assert part["bytes"][table] == len(data)
        assert part["digests"][table] == hashlib.sha256(data).hexdigest()
        assert (
            part["rows"][table] == pl.read_parquet(good / table / f"{part['name']}.parquet").height
        )


def _missing(run: Path) -> str:
    (run / "results" / "part-00001.parquet").unlink()
    return "results/part-00001.parquet is missing"


def _stray(run: Path) -> str:
    shutil.copy(run / "results" / "part-00001.parquet", run / "results" / "part-00001 (1).parquet")
    return "part-00001 (1).parquet is not listed in the manifest"


def _truncated(run: Path) -> str:
    path = run / "turns" / "part-00002.parquet"
    path.write_bytes(path.read_bytes()[:200])
    return "turns/part-00002.parquet differs from the manifest"


def _foreign(run: Path, tmp: Path) -> str:
    other = small_run(tmp / "other", "--seed", "9")
    shutil.copy(other / "results" / "part-00000.parquet", run / "results" / "part-00000.parquet")
    return "results/part-00000.parquet differs from the manifest"


@pytest.mark.parametrize("damage", ["missing", "stray", "truncated", "foreign"])
def test_a_damaged_run_is_one_line_for_report_show_and_check_and_resume_repairs_it(
    good: Path, tmp_path: Path, damage: str
) -> None:
    run = _copy(good, tmp_path / "run")
    if damage == "foreign":
        expected = _foreign(run, tmp_path)
    else:
        expected = {"missing": _missing, "stray": _stray, "truncated": _truncated}[damage](run)
    _one_line_error(invoke("report", str(run), "--out", str(tmp_path / "rep")), expected)
    assert not (tmp_path / "rep").exists()
    _one_line_error(invoke("show", str(run), "--game", "5"), expected)
    _one_line_error(invoke("check", str(run)), expected)
    if damage == "stray":  # not named like a part: resume leaves the user's file alone
        _one_line_error(invoke("run", "--resume", "--out", str(run)), "not a part of this run")
        (run / "results" / "part-00001 (1).parquet").unlink()
    else:
        resumed = invoke("run", "--resume", "--out", str(run))
        assert resumed.exit_code == 0, resumed.output
        assert "played again a missing or damaged part" in resumed.output
    checked = invoke("check", str(run))
    assert checked.exit_code == 0 and checked.output.endswith("ok\n"), checked.output
    for table, order in (("results", "seat"), ("turns", "turn")):
        repaired = pl.read_parquet(run / table).sort("game_id", order)
        assert repaired.equals(pl.read_parquet(good / table).sort("game_id", order))


def test_check_replays_games_and_catches_a_part_rewritten_with_its_digest(
    good: Path, tmp_path: Path
) -> None:
    run = _copy(good, tmp_path / "run")
    path = run / "results" / "part-00000.parquet"
    frame = pl.read_parquet(path).with_columns(pl.col("total") + 1)
    frame.write_parquet(path)
    manifest = _manifest(run)
    manifest["parts"][0]["bytes"]["results"] = path.stat().st_size
    manifest["parts"][0]["digests"]["results"] = hashlib.sha256(path.read_bytes()).hexdigest()
    (run / MANIFEST).write_text(json.dumps(manifest))
    _one_line_error(invoke("check", str(run), "--sample", "10"), "differ from the engine's replay")


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda m: m.pop("parts"), "lacks `parts`"),
        (lambda m: m.pop("chunk_size"), "lacks `chunk_size`"),
        (lambda m: m.update(config=[]), "`config` is list"),
        (lambda m: m.update(game=5), "`game` is int"),
        (lambda m: m["parts"][0].update(games="x"), "parts[0] `games`"),
    ],
)
def test_a_manifest_with_wrong_fields_is_one_line(good, tmp_path, change, words) -> None:
    run = _copy(good, tmp_path / "run")
    manifest = _manifest(run)
    change(manifest)
    (run / MANIFEST).write_text(json.dumps(manifest))
    _one_line_error(invoke("report", str(run), "--out", str(tmp_path / "rep")), words)
    _one_line_error(invoke("check", str(run)), words)


def test_a_grown_run_equals_a_run_of_that_size(good: Path, tmp_path: Path) -> None:
    run = _copy(good, tmp_path / "run")
    grown = invoke("run", "--resume", "--out", str(run), "--games", "17", "--workers", "1")
    assert grown.exit_code == 0, grown.output
    fresh = small_run(tmp_path / "fresh", games=17)
    assert _manifest(run)["run_id"] == _manifest(fresh)["run_id"]
    for table, order in (("results", "seat"), ("turns", "turn")):
        a = pl.read_parquet(run / table).sort("game_id", order)
        b = pl.read_parquet(fresh / table).sort("game_id", order)
        assert a.equals(b) and a["game_id"].n_unique() == 17
    assert invoke("check", str(run)).exit_code == 0
    shrink = invoke("run", "--resume", "--out", str(run), "--games", "5")
    _one_line_error(shrink, "cannot shrink")


@pytest.mark.parametrize("how", ["exit", "interrupt", "base", "swallow", "engine"])
def test_a_hostile_strategy_fails_only_its_game(tmp_path: Path, how: str) -> None:
    out = tmp_path / "run"
    args = ["run", "--players", "2", "--games", "3", "--workers", "1", "--out", str(out)]
    result = invoke(
        *args, "-s", f"{HOSTILE}:how={how}", "-s", "random", "--decision-timeout", "0.2"
    )
    assert result.exit_code == 0, result.output
    failures = _manifest(out)["failures"]
    assert [f["game_id"] for f in failures] == [0, 1, 2]
    kind = "internal" if how == "engine" else "strategy"
    assert {f["kind"] for f in failures} == {kind} and {f["seat"] for f in failures} == {0}
    if how == "swallow":  # its replay would wait for the default timeout
        return
    log = (out / ERRORS_LOG).read_text()
    replay = next(line for line in log.splitlines() if line.startswith("  replay: "))
    command = shlex.split(replay.removeprefix("  replay: "))
    assert command[0] == "python"
    ran = subprocess.run(
        [sys.executable, *command[1:]], capture_output=True, text=True, check=False, timeout=120
    )
    assert ran.returncode != 0 and "GameFailure" in ran.stderr, ran.stderr  # raised again


def test_a_strategy_that_prints_writes_to_errors_log(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["run", "--players", "2", "--games", "2", "--workers", "1", "--out", str(out)]
    result = invoke(*args, "-s", f"{HOSTILE}:how=print", "-s", "random")
    assert result.exit_code == 0, result.output
    assert "hello from a strategy" not in result.output
    log = (out / ERRORS_LOG).read_text()
    assert "hello from a strategy" in log and "and on stderr" in log
    assert _manifest(out)["failures"] == []


def test_a_strategy_whose_constructor_raises_is_to_blame(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["run", "--players", "2", "--games", "2", "--workers", "1", "--out", str(out)]
    result = invoke(*args, "-s", "tests.faulty_strategy:FailsToStart", "-s", "random")
    assert result.exit_code == 0, result.output
    failures = _manifest(out)["failures"]
    assert [(f["kind"], f["seat"], f["turn"]) for f in failures] == [("strategy", 0, None)] * 2
    assert "cannot start" in failures[0]["error"]


def test_a_decision_timeout_with_workers_fails_the_game_and_the_run_goes_on(
    tmp_path: Path,
) -> None:
    out = tmp_path / "run"
    args = ["run", "--players", "2", "--games", "4", "--workers", "2", "--chunk-size", "2"]
    result = invoke(
        *args, "--out", str(out), "-s", f"{HOSTILE}:how=loop", "-s", "random",
        "--decision-timeout", "0.2",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    failures = _manifest(out)["failures"]
    assert len(failures) == 4 and all("DecisionTimeout" in f["error"] for f in failures)
    assert _manifest(out)["status"] == "complete"


def test_a_live_lock_is_refused_and_a_dead_ones_taken_over(good: Path, tmp_path: Path) -> None:
    import socket

    from sanssim.runformat import LOCK

    run = _copy(good, tmp_path / "run")
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        host = socket.gethostname()
        (run / LOCK).write_text(json.dumps({"pid": sleeper.pid, "host": host, "since": "t"}))
        refused = invoke("run", "--resume", "--out", str(run))
        _one_line_error(refused, f"being written by pid {sleeper.pid} on {host}")
    finally:
        sleeper.kill()
        sleeper.wait()
    resumed = invoke("run", "--resume", "--out", str(run))  # its owner is dead: taken over
    assert resumed.exit_code == 0, resumed.output
    assert not (run / LOCK).exists()


def test_workers_beyond_the_cores_are_capped_and_tournament_refuses_zero(tmp_path) -> None:
    from sanssim.runner.executor import default_workers

    asked = default_workers() + 3
    result = invoke(
        "run", "--players", "2", "--games", "2", "-s", "random", "--workers", str(asked),
        "--out", str(tmp_path / "run"),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert f"--workers {asked} capped at the {default_workers()} cores" in result.output
    zero = invoke("tournament", "--strategies", "random,greedy", "--workers", "0")
    _one_line_error(zero, "--workers must be at least 1")


def test_workers_exit_soon_after_their_driver_is_killed(tmp_path: Path) -> None:
    import os
    import signal
    import time

    out = tmp_path / "run"
    driver = subprocess.Popen(
        [sys.executable, "-m", "sanssim.cli", "run", "--players", "2", "--games", "400",
         "--workers", "2", "--chunk-size", "2", "-s", "tests.faulty_strategy:Slow",
         "--out", str(out)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while not (out / "results").is_dir() and time.monotonic() < deadline:
        time.sleep(0.2)
    time.sleep(1)
    children = subprocess.run(
        ["pgrep", "-P", str(driver.pid)], capture_output=True, text=True, check=False
    ).stdout.split()
    assert children, "the driver started no workers"
    os.kill(driver.pid, signal.SIGKILL)
    driver.wait()
    deadline = time.monotonic() + 10
    alive = [int(pid) for pid in children]
    while alive and time.monotonic() < deadline:
        time.sleep(0.2)
        alive = [pid for pid in alive if Path(f"/proc/{pid}").exists() and not _zombie(pid)]
    left = [Path(f"/proc/{pid}/cmdline").read_text()[:90] for pid in alive]
    assert not alive, f"workers {left} outlived their driver"


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z"
    except OSError:
        return False


@pytest.mark.parametrize(
    "files, args, words",
    [
        ({"e.toml": '[[arm]]\nname = "a"\nplayers = []\n'}, ["--config", "e.toml"], "players = []"),
        ({"e.toml": '[[arm]]\nname = "a"\nstrategy = 5\n'}, ["--config", "e.toml"], "got 5"),
        ({"badmod.py": "def broken(:\n"}, ["-s", "badmod:X"], "SyntaxError"),
        ({"raisemod.py": "raise RuntimeError('boom')\n"}, ["-s", "raisemod:X"], "boom"),
        ({}, ["--games", str(10**12)], "games must be at most"),
        ({}, ["-s", "lookahead:rollouts=0"], "rollouts must be at least 1"),
        ({}, ["-s", "heuristic:mission=nan"], "mission must be finite"),
        ({}, ["--out", "/proc/sanssim-x"], "cannot write /proc/sanssim-x"),
    ],
)
def test_bad_input_is_one_line_and_writes_nothing(tmp_path, monkeypatch, files, args, words):
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    out = [] if "--out" in args else ["--out", "out"]
    result = invoke(
        "run",
        "--workers",
        "1",
        *(["--players", "2"] if "--config" not in args else []),
        *args,
        *out,
    )
    _one_line_error(result, words)
    assert "--resume" not in result.output
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("command", ["run", "tournament", "tune", "report"])
def test_an_empty_out_is_refused_and_nothing_is_written(tmp_path, monkeypatch, command):
    """`--out ''` would be the current folder: refused as a usage error, nothing written."""
    monkeypatch.chdir(tmp_path)
    first = {
        "run": ["run", "--games", "5"],
        "tournament": ["tournament", "--strategies", "random,greedy", "--games", "2"],
        "tune": ["tune", "-s", "heuristic:option=0.1..0.4", "--against", "random"],
        "report": ["report", str(tmp_path / "missing")],
    }[command]
    result = CliRunner().invoke(main, [*first, "--out", ""])
    assert result.exit_code == 2 and "must not be empty" in result.output
    assert list(tmp_path.iterdir()) == []


def test_a_run_logged_before_turns_had_actions_checks_and_reports_but_is_not_resumed(
    good: Path, tmp_path: Path
) -> None:
    """Schema 2 turns have no `actions`: still a sound run, but a resume would write parts
    of another form into the same table."""
    run = _copy(good, tmp_path / "run")
    manifest = _manifest(run)
    for part in manifest["parts"]:
        path = run / "turns" / f"{part['name']}.parquet"
        pl.read_parquet(path).drop("actions").write_parquet(path, statistics=False)
        part["bytes"]["turns"] = path.stat().st_size
        part["digests"]["turns"] = hashlib.sha256(path.read_bytes()).hexdigest()
    manifest["schema_version"] = 2
    (run / MANIFEST).write_text(json.dumps(manifest))
    checked = invoke("check", str(run), "--sample", "3")
    assert checked.exit_code == 0 and checked.output.endswith("ok\n"), checked.output
    manifest["parts"] = manifest["parts"][:1]
    manifest["status"] = "incomplete"
    (run / MANIFEST).write_text(json.dumps(manifest))
    _one_line_error(invoke("run", "--resume", "--out", str(run)), "cannot be resumed")
    assert _manifest(run)["parts"] == manifest["parts"]  # nothing written
