"""The Ray executor: the same run as the local one, lost workers retried, resume across both;
the same for a tune (halving and NTBEA).

One local Ray of 2 CPUs serves the whole module; `sanssim run --executor ray`
in this process joins it instead of starting its own. Without Ray these tests
are skipped, except under CI (`CI` set), where a missing Ray fails them.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from sanssim.cli import main
from sanssim.runformat import MANIFEST, TUNE
from sanssim.runner.executor import LocalExecutor
from sanssim.runner.files import read_json, write_json
from sanssim.runner.ray_executor import MAX_RETRIES, RayExecutor

REPO = Path(__file__).resolve().parent.parent
KEYS = {"results": ["game_id", "seat"], "turns": ["game_id", "turn"]}


@pytest.fixture(scope="module")
def ray_local():
    try:
        import ray
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("Ray is missing under CI: install the extra (make test EXTRAS=test,ray)")
        pytest.skip("Ray is not installed (pip install 'sanssim[ray]')")
    ray.init(
        address="local",
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        configure_logging=False,
    )
    yield ray
    ray.shutdown()


def sanssim(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["run", *args])
    return result.exit_code, result.output


def run(out: Path, *args: str) -> Path:
    code, output = sanssim("--out", str(out), *args)
    assert code == 0, output
    return out


def tables(run_dir: Path) -> dict[str, pl.DataFrame]:
    return {
        name: pl.read_parquet(run_dir / name / "*.parquet").sort(keys)
        for name, keys in KEYS.items()
        if (run_dir / name).is_dir()
    }


def assert_same_run(got: Path, want: Path, logged: tuple[str, ...] = tuple(KEYS)) -> None:
    """Identical rows in every table (`logged`: the tables the run writes), and the same run
    in the manifest (parts may differ)."""
    got_tables, want_tables = tables(got), tables(want)
    assert got_tables.keys() == want_tables.keys() == set(logged)
    for name, frame in want_tables.items():
        assert frame.height > 0
        assert got_tables[name].equals(frame), name
    same = ("config", "components", "run_id", "status", "failures")
    got_manifest, want_manifest = read_json(got / MANIFEST), read_json(want / MANIFEST)
    assert {k: got_manifest[k] for k in same} == {k: want_manifest[k] for k in same}
    assert want_manifest["status"] == "complete"


def truncate(run_dir: Path, keep: int) -> None:
    """Leave the run as a kill would: its first `keep` parts listed and on disk, no others."""
    manifest = read_json(run_dir / MANIFEST)
    for part in manifest["parts"][keep:]:
        for name in KEYS:
            (run_dir / name / f"{part['name']}.parquet").unlink()
    manifest["parts"] = manifest["parts"][:keep]
    manifest["status"] = "incomplete"
    write_json(run_dir / MANIFEST, manifest)


GAME = ["--games", "30", "--seed", "7", "--expansion", "--duplicate-reshuffle"]


def test_ray_and_local_runs_are_identical(ray_local, tmp_path):
    args = ["--players", "2,3", *GAME, "-s", "heuristic"]
    ray_run = run(tmp_path / "ray", *args, "--executor", "ray", "--chunk-size", "4")
    local = run(tmp_path / "local", *args, "--workers", "1")
    for arm in ("p2", "p3"):
        assert_same_run(ray_run / arm, local / arm)
    assert len(read_json(ray_run / "p2" / MANIFEST)["parts"]) == 8


@pytest.mark.parametrize(
    ("game", "options"),
    [("seikatsu", ["--tournament"]), ("splendor", ["--target-points", "12"])],
)
def test_every_game_plays_the_same_on_ray_and_resumes_locally(ray_local, tmp_path, game, options):
    args = ["--game", game, "--players", "3", "--games", "20", "--seed", "5", *options]
    ray_run = run(tmp_path / "ray", *args, "-s", "greedy", "--executor", "ray", "--chunk-size", "3")
    local = run(tmp_path / "local", *args, "-s", "greedy", "--workers", "1")
    assert_same_run(ray_run, local)
    truncate(ray_run, keep=2)
    assert_same_run(run(ray_run, "--resume", "--workers", "1"), local)


def test_a_lost_worker_costs_only_its_chunk(ray_local, tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(REPO))
    marker = tmp_path / "killed-worker"
    crash = ["-s", f"tests.crashing_strategy:KillsItsWorker:marker={marker}"]
    args = ["--players", "2", *GAME, "--chunk-size", "5", *crash]
    ray_run = run(tmp_path / "ray", *args, "--executor", "ray")
    (pid,) = map(int, marker.read_text().split())
    assert pid != os.getpid()
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # the worker really died, and its chunk was played again
    assert_same_run(ray_run, run(tmp_path / "local", *args, "--workers", "1"))


def test_a_chunk_that_keeps_losing_its_worker_stops_the_run_and_resume_finishes_it(
    ray_local, tmp_path, monkeypatch
):
    monkeypatch.syspath_prepend(str(REPO))
    marker = tmp_path / "killed-workers"
    crash = ["-s", f"tests.crashing_strategy:KillsItsWorker:marker={marker},always=true"]
    args = ["--players", "2", *GAME, "--chunk-size", "15", *crash]
    out = tmp_path / "run"
    code, output = sanssim("--out", str(out), *args, "--executor", "ray", "--workers", "1")
    assert code == 1
    lost = f"\nsanssim: error: games (0-14|15-29) lost their Ray worker {MAX_RETRIES + 1} times"
    assert re.search(lost, output)
    assert f"sanssim run --resume --out {out}" in output
    assert len(marker.read_text().split()) >= MAX_RETRIES + 1  # both chunks kill theirs
    assert read_json(out / MANIFEST)["status"] == "incomplete"
    run(out, "--resume", "--workers", "1")  # locally the strategy never kills
    assert_same_run(out, run(tmp_path / "local", *args, "--workers", "1"))


def test_a_local_run_resumes_on_ray(ray_local, tmp_path):
    args = ["--players", "3", *GAME, "--chunk-size", "4"]
    reference = run(tmp_path / "reference", *args, "--workers", "1")
    partial = run(tmp_path / "partial", *args, "--workers", "1")
    truncate(partial, keep=3)
    run(partial, "--resume", "--executor", "ray")
    assert_same_run(partial, reference)


def test_a_ray_run_resumes_locally_in_a_fresh_process(ray_local, tmp_path):
    """The CLI's own local Ray (started and shut down by the command) plays the first part."""
    args = ["--players", "2", *GAME, "--chunk-size", "4"]
    partial = tmp_path / "partial"
    started = subprocess.run(
        [sys.executable, "-m", "sanssim.cli", "run", "--out", str(partial), *args]
        + ["--executor", "ray", "--workers", "2"],
        env={k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"},  # a local Ray
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert started.returncode == 0, started.stderr
    assert "2 workers" in started.stdout
    truncate(partial, keep=2)
    run(partial, "--resume", "--workers", "2")
    assert_same_run(partial, run(tmp_path / "reference", *args, "--workers", "1"))


def test_a_strategy_the_workers_cannot_import_is_one_line(ray_local, tmp_path, monkeypatch):
    """What a cluster node without the strategy's module installed gives."""
    (tmp_path / "driver_only.py").write_text(
        "from sanssim.strategies.random import RandomStrategy as Only\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))  # the driver's path, not the workers'
    code, output = sanssim(
        "--out", str(tmp_path / "r"), "--players", "2", "--games", "4", "-s", "driver_only:Only"
    )
    assert code == 0, output
    code, output = sanssim(
        "--out",
        str(tmp_path / "ray"),
        "--players",
        "2",
        "--games",
        "4",
        "-s",
        "driver_only:Only",
        "--executor",
        "ray",
    )
    last = output.rstrip("\n").rsplit("\n", 1)[-1]  # after the progress bar
    assert code == 2
    assert last.startswith("sanssim: error: a Ray worker cannot play game")
    assert "cannot import strategy module 'driver_only'" in last


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize(
    "address, message",
    [
        (f"127.0.0.1:{_closed_port()}", "cannot reach Ray at 127.0.0.1:"),
        ("head-node", "is not host:port"),
    ],
    ids=["closed-port", "not-host-port"],  # the port differs between collections
)
def test_a_bad_address_is_one_line_and_writes_nothing(ray_local, tmp_path, address, message):
    out = tmp_path / "run"
    code, output = sanssim("--out", str(out), "--executor", "ray", "--address", address)
    assert code == 2
    assert output.startswith("sanssim: error: ") and output.count("\n") == 1
    assert message in output
    assert not out.exists()


def test_without_ray_the_ray_executor_is_one_line(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now raises ImportError
    out = tmp_path / "run"
    code, output = sanssim("--out", str(out), "--players", "2", "--executor", "ray")
    assert code == 2
    assert output == "sanssim: error: the ray executor needs Ray: pip install 'sanssim[ray]'\n"
    assert not out.exists()


def test_address_needs_the_ray_executor(tmp_path):
    code, output = sanssim("--out", str(tmp_path / "run"), "--address", "auto")
    assert (code, output) == (2, "sanssim: error: --address needs --executor ray\n")


# ---------------------------------------------------------------- tune

# Two rounds of halving (3 contenders and the default, then 2 and the default) and a final
# re-measurement: 398 games. seat-balance needs no turn log, so arms write results only.
TUNE_ARGS = ["--players", "2", "--param", "column_bonus_points=2..5", "--objective",
             "seat-balance", "--finalists", "1", "--budget", "400", "--seed", "4"]  # fmt: skip
SEARCH = ("settings", "space", "objective", "schedule", "candidates", "rounds", "final", "spent")


def tune(out: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["tune", "--out", str(out), *args])
    return result.exit_code, result.output


def assert_same_tune(got: Path, want: Path) -> None:
    """The same search in tune.json, and every arm the same run."""
    got_search, want_search = (json.loads((d / TUNE).read_text()) for d in (got, want))
    assert want_search["status"] == got_search["status"] == "complete"
    assert {k: got_search[k] for k in SEARCH} == {k: want_search[k] for k in SEARCH}
    arms = [a["name"] for a in read_json(want / "index.json")["arms"]]
    assert [a["name"] for a in read_json(got / "index.json")["arms"]] == arms
    assert len(arms) == 4 + 3 + 2  # the rounds' candidates and the final's
    for arm in arms:
        assert_same_run(got / arm, want / arm, logged=("results",))


@pytest.fixture(scope="module")
def local_tune(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("tune") / "local"
    code, output = tune(out, *TUNE_ARGS, "--workers", "1")
    assert code == 0, output
    return out


def test_a_tune_is_the_same_on_ray_and_locally(ray_local, tmp_path, local_tune):
    out = tmp_path / "ray"
    code, output = tune(out, *TUNE_ARGS, "--executor", "ray")
    assert code == 0, output
    assert "re-measured on fresh deals" in output
    assert_same_tune(out, local_tune)
    # chunks sized for Ray's 2 workers, not the local run's 1: the parts differ, not the games
    assert len(read_json(out / "c000-r0" / MANIFEST)["parts"]) == 7
    assert len(read_json(local_tune / "c000-r0" / MANIFEST)["parts"]) == 4


def interrupt_after(monkeypatch, executor: type, chunks: int) -> None:
    """Ctrl-C once `chunks` chunks of the whole tune have been handed back (parts written)."""
    real = executor.map_chunks
    done = [0]

    def cut(self, fn, todo, here=False):
        for result in real(self, fn, todo, here):
            if done[0] == chunks:
                raise KeyboardInterrupt
            done[0] += 1
            yield result

    monkeypatch.setattr(executor, "map_chunks", cut)


@pytest.mark.parametrize(
    ("first", "then", "chunks", "rounds"),
    [
        (["--workers", "1"], ["--executor", "ray"], 18, 1),  # in round 1's first arm
        (["--executor", "ray"], ["--workers", "1"], 10, 0),  # in round 0's second arm
    ],
    ids=["local-then-ray", "ray-then-local"],
)
def test_an_interrupted_tune_resumes_on_the_other_executor(
    ray_local, tmp_path, monkeypatch, local_tune, first, then, chunks, rounds
):
    """Stopped in its first round too: tune.json is written before any game."""
    out = tmp_path / "cut"
    with monkeypatch.context() as patch:
        interrupt_after(patch, RayExecutor if "ray" in first else LocalExecutor, chunks)
        code, output = tune(out, *TUNE_ARGS, *first)
    assert code == 130, output
    assert f"sanssim tune --resume --out {out}" in output
    cut = json.loads((out / TUNE).read_text())
    assert (cut["status"], len(cut["rounds"])) == ("incomplete", rounds)
    code, output = tune(out, "--resume", *then)
    assert code == 0, output
    assert_same_tune(out, local_tune)


# An NTBEA walk of 84 small evaluations (random players, 5 deals each) and its final step.
NTBEA_ARGS = ["--players", "2", "-s", "random", "--param", "column_bonus_points=2..5",
              "--objective", "seat-balance", "--method", "ntbea", "--batch", "5",
              "--finalists", "1", "--budget", "600", "--seed", "4"]  # fmt: skip
WALK = ("settings", "space", "objective", "schedule", "evaluations", "model", "final", "spent")


def test_an_ntbea_walk_is_the_same_on_ray_and_locally(ray_local, tmp_path):
    searches = []
    for name, executor in (("local", ["--workers", "1"]), ("ray", ["--executor", "ray"])):
        code, output = tune(tmp_path / name, *NTBEA_ARGS, *executor)
        assert code == 0, output
        searches.append(json.loads((tmp_path / name / TUNE).read_text()))
    local, ray = searches
    assert local["status"] == ray["status"] == "complete" and len(local["evaluations"]) > 20
    assert {k: ray[k] for k in WALK} == {k: local[k] for k in WALK}
    arms = [a["name"] for a in read_json(tmp_path / "local" / "index.json")["arms"]]
    assert [a["name"] for a in read_json(tmp_path / "ray" / "index.json")["arms"]] == arms
    for arm in arms[:: max(1, len(arms) // 10)]:
        assert_same_run(tmp_path / "ray" / arm, tmp_path / "local" / arm, logged=("results",))
