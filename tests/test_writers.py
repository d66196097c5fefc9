"""What writes a run, a tune or a report keeps: `--force` waits for the lock, and a full
disk leaves earlier output as it was and nothing half-written."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

from sanssim.runformat import LOCK, MANIFEST
from tests.test_integrity import _one_line_error, invoke, small_run


def test_force_on_a_run_being_written_is_refused_and_destroys_nothing(tmp_path: Path) -> None:
    run = small_run(tmp_path / "run")
    before = sorted(p.relative_to(run) for p in run.rglob("*"))
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        owner = {"pid": sleeper.pid, "host": socket.gethostname(), "since": "t"}
        (run / LOCK).write_text(json.dumps(owner))
        forced = invoke("run", "--players", "3", "--games", "2", "--force", "--out", str(run))
        _one_line_error(forced, f"being written by pid {sleeper.pid}")
    finally:
        sleeper.kill()
        sleeper.wait()
    (run / LOCK).unlink()
    assert sorted(p.relative_to(run) for p in run.rglob("*")) == before
    assert json.loads((run / MANIFEST).read_text())["config"]["n_players"] == 2
    replaced = invoke("run", "--players", "3", "--games", "2", "-s", "random", "--workers", "1",
                      "--force", "--out", str(run))  # fmt: skip
    assert replaced.exit_code == 0, replaced.output
    assert json.loads((run / MANIFEST).read_text())["config"]["n_players"] == 3
    assert not (run / LOCK).exists()


def _full_disk(monkeypatch, method: str, after: int, name: str = "") -> None:
    """`Path.<method>` fails with ENOSPC from its `after`-th call on (on files named
    `name`, when given), as on a disk that has just filled up."""
    import errno
    import os

    real = getattr(Path, method)
    calls = []

    def full(self: Path, *args: object, **kwargs: object) -> object:
        if not name or self.name.startswith(name) or self.name.startswith(f".{name}"):
            calls.append(self)
            if len(calls) >= after:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(self))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Path, method, full)


def _one_error_line(result) -> str:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if "sanssim: error:" in line]
    assert len(errors) == 1, result.output
    return errors[0]


def _contents(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_a_full_disk_during_a_report_keeps_the_earlier_report(tmp_path, monkeypatch) -> None:
    run = small_run(tmp_path / "run")
    report = tmp_path / "rep"
    assert invoke("report", str(run), "--out", str(report)).exit_code == 0
    before = _contents(report)
    _full_disk(monkeypatch, "write_text", 1, "report.html")
    line = _one_error_line(invoke("report", str(run), "--out", str(report)))
    assert "No space left on device" in line
    assert _contents(report) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rep", "run"]  # no stage left
    _full_disk(monkeypatch, "write_text", 1, "report.json")  # a first report: nothing left
    _one_error_line(invoke("report", str(run), "--out", str(tmp_path / "none")))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rep", "run"]


TUNE_ARGS = ["tune", "--players", "2", "-s", "random", "--param", "column_bonus_points=0..9",
             "--objective", "seat-balance", "--budget", "300", "--candidates", "2",
             "--workers", "1"]  # fmt: skip


def test_a_full_disk_during_a_tune_leaves_whole_files_and_resume_finishes(
    tmp_path, monkeypatch
) -> None:
    out = tmp_path / "tune"
    _full_disk(monkeypatch, "write_bytes", 4)  # after a few parts and manifests
    line = _one_error_line(invoke(*TUNE_ARGS, "--out", str(out)))
    assert "No space left on device" in line and "tune --resume" in line
    monkeypatch.undo()
    assert not [p for p in out.rglob("*") if ".tmp-" in p.name], "a half-written file is left"
    for path in out.rglob("*.json"):
        json.loads(path.read_text())
    resumed = invoke("tune", "--resume", "--out", str(out), "--workers", "1")
    assert resumed.exit_code == 0, resumed.output
    fresh = tmp_path / "fresh"
    assert invoke(*TUNE_ARGS, "--out", str(fresh)).exit_code == 0
    done, want = (json.loads((d / "tune.json").read_text()) for d in (out, fresh))
    for key in ("candidates", "rounds", "final", "spent"):
        assert done[key] == want[key]


def test_force_replaces_a_finished_tune_once_it_holds_the_lock(tmp_path) -> None:
    out = tmp_path / "tune"
    assert invoke(*TUNE_ARGS, "--out", str(out)).exit_code == 0
    again = invoke(*TUNE_ARGS, "--seed", "2", "--out", str(out))
    _one_line_error(again, "holds a different run")
    forced = invoke(*TUNE_ARGS, "--seed", "2", "--force", "--out", str(out))
    assert forced.exit_code == 0, forced.output
    assert json.loads((out / "tune.json").read_text())["settings"]["seed"] == 2
