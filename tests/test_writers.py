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
