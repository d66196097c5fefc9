"""Worker processes: a game that kills its worker, a worker replaced after a decision
timeout, how many workers a run may use."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from sanssim.cli import main
from sanssim.runformat import MANIFEST
from sanssim.runner.pool import Pool
from tests.faulty_strategy import KILL_ANYWHERE, timed_out_pid

KILLER = "tests.faulty_strategy:KillsItsWorker"


def _manifest(run: Path) -> dict:
    return json.loads((run / MANIFEST).read_text())


def test_a_game_that_kills_its_worker_twice_is_recorded_and_resume_finishes(tmp_path):
    out = tmp_path / "run"
    args = ["run", "--players", "2", "--games", "6", "--chunk-size", "2", "--workers", "2",
            "-s", KILLER, "-s", "random", "--out", str(out)]  # fmt: skip
    first = CliRunner().invoke(main, args)
    assert first.exit_code == 1, first.output
    errors = [line for line in first.output.splitlines() if "sanssim: error:" in line]
    assert len(errors) == 1 and "killed its worker process 2 times (exit code 7)" in errors[0]
    assert f"--resume --out {out}" in errors[0]
    killed = _manifest(out)["killed"]
    assert len(killed) == 1 and f"game {killed[0]['game_id']} of games" in errors[0]
    command = shlex.split(errors[0].split("replay it: ")[1].split("; finished parts")[0])
    ran = subprocess.run(
        [sys.executable, *command[1:]], env={**os.environ, KILL_ANYWHERE: "1"}, check=False
    )
    assert ran.returncode == 7  # the command reproduces the death
    for _ in range(6):  # each resume records the next game that kills, then finishes
        resumed = CliRunner().invoke(main, ["run", "--resume", "--out", str(out)])
        if resumed.exit_code == 0:
            break
        assert resumed.exit_code == 1 and "killed its worker process 2 times" in resumed.output
    manifest = _manifest(out)
    assert manifest["status"] == "complete"
    dead = sorted(k["game_id"] for k in manifest["killed"])
    assert [f["game_id"] for f in manifest["failures"] if f["kind"] == "killed"] == dead
    played = {row for p in (out / "results").glob("*.parquet") for row in _ids(p)}
    assert played == set(range(6)) - set(dead)
    checked = CliRunner().invoke(main, ["check", str(out)])
    assert checked.exit_code == 0 and checked.output.endswith("ok\n"), checked.output


def _ids(part: Path) -> set[int]:
    import polars as pl

    return set(pl.read_parquet(part)["game_id"].to_list())


def test_a_worker_is_replaced_after_a_decision_timeout_and_the_pool_keeps_its_size():
    pool = Pool(2)
    try:
        pids = list(pool.map(timed_out_pid, [(k, k + 1) for k in range(4)]))
        assert len(set(pids)) == 4, "a worker played on after its strategy timed out"
        assert len(pool._idle) + len(pool._busy) <= 2
    finally:
        pool.close()


def test_an_experiment_file_sets_the_decision_timeout_and_resume_keeps_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "e.toml").write_text(
        "players = 2\ngames = 2\ndecision_timeout = 0.2\n"
        'strategy = ["tests.faulty_strategy:Hostile:how=loop", "random"]\n[[arm]]\nname = "a"\n'
    )
    result = CliRunner().invoke(main, ["run", "--config", "e.toml", "--workers", "1", "--out", "o"])
    assert result.exit_code == 0, result.output
    manifest = _manifest(tmp_path / "o" / "a")
    assert manifest["decision_timeout"] == 0.2
    assert [f["error"].split(":")[0] for f in manifest["failures"]] == ["DecisionTimeout"] * 2
    from sanssim.runner.run import config_from

    assert config_from(tmp_path / "o" / "a").decision_timeout == 0.2
    (tmp_path / "bad.toml").write_text('decision_timeout = -1\n[[arm]]\nname = "a"\n')
    bad = CliRunner().invoke(main, ["run", "--config", "bad.toml", "--out", "b"])
    assert bad.exit_code == 2 and "decision_timeout must be seconds, 0 or more" in bad.output
    assert not (tmp_path / "b").exists()


def test_a_timeout_for_games_on_the_compiled_engine_is_said_not_ignored(tmp_path):
    args = ["run", "--players", "2", "--games", "2", "-s", "random", "--workers", "1"]
    timed = ["--decision-timeout", "5"]
    compiled = CliRunner().invoke(
        main, [*args, "--engine", "compiled", *timed, "--out", str(tmp_path / "c")]
    )
    assert compiled.exit_code == 0, compiled.output
    said = [line for line in compiled.output.splitlines() if "does not apply" in line]
    assert len(said) == 1 and "compiled engine" in said[0]
    python = CliRunner().invoke(
        main, [*args, "--engine", "python", *timed, "--out", str(tmp_path / "p")]
    )
    assert python.exit_code == 0 and "does not apply" not in python.output
