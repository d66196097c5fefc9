"""`sanssim run` from the command line: bad input, output directories, the summary."""

from __future__ import annotations

import errno
import json
import os
import re
from importlib import resources
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from sanssim.cli import main
from sanssim.cli.running import _rate, counted
from sanssim.runformat import MANIFEST

SMALL = ["--games", "6", "--workers", "1"]


def invoke(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def bad_components(tmp_path):
    source = resources.files("sanssim.games.sanssouci").joinpath("components.toml").read_text()
    (tmp_path / "bad.toml").write_text(source.replace("II = 5", "II = 0"))


@pytest.mark.parametrize(
    "args, message",
    [
        (["-s", "nosuch"], "unknown sanssouci strategy 'nosuch' (known: "),
        (["-s", "random:depth=3"], "has no parameter 'depth'"),
        (["--players", "5"], "sanssouci is played by 2, 3, 4 players, not 5"),
        (["--players", "two"], "player count must be 2, 3 or 4"),
        (["--players", "3", "-s", "random", "-s", "random"], "one per seat"),
        (["--garden-sides", "9Z", "--players", "2"], "unknown garden side '9Z'"),
        (["--config", "missing.toml"], "cannot read experiment file"),
        (["--config", "broken.toml"], "invalid TOML"),
        (["--components", "missing.toml"], "cannot read component file"),
        (["--components", "bad.toml"], "[tiles] II must be a positive integer"),
        (["--resume"], "nothing to resume: out holds no manifest.json"),
        (["--out", "broken.toml/run"], "cannot create broken.toml/run: broken.toml is not a"),
        (["--out", "broken.toml"], "broken.toml exists and is not a directory"),
        (["--resume", "--out", "broken.toml"], "broken.toml exists and is not a directory"),
        (["--games", "0"], "games must be at least 1"),
    ],
)
def test_bad_input_is_one_line_exit_2_and_writes_nothing(in_tmp, args, message):
    (in_tmp / "broken.toml").write_text("[[arm]\n")
    bad_components(in_tmp)
    before = sorted(p.name for p in in_tmp.iterdir())
    result = invoke("run", "--workers", "1", "--out", "out", *args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("sanssim: error: ")
    assert message in lines[0]
    assert "Traceback" not in result.output
    assert sorted(p.name for p in in_tmp.iterdir()) == before


def test_unknown_strategy_message_lists_the_known_ones(in_tmp):
    result = invoke("run", *SMALL, "-s", "nosuch")
    assert "random" in result.stderr.split("known:")[1]


def test_out_directory_with_other_content_is_refused_unless_forced(in_tmp):
    (in_tmp / "out").mkdir()
    (in_tmp / "out" / "notes.txt").write_text("mine")
    result = invoke("run", *SMALL, "--players", "2", "--out", "out")
    assert result.exit_code == 2
    assert "not a sanssim run" in result.stderr and "--force" in result.stderr
    assert (in_tmp / "out" / "notes.txt").read_text() == "mine"
    forced = invoke("run", *SMALL, "--players", "2", "--out", "out", "--force")
    assert forced.exit_code == 0, forced.output
    assert not (in_tmp / "out" / "notes.txt").exists()
    assert (in_tmp / "out" / "manifest.json").is_file()


def test_a_different_run_is_refused_with_the_difference(in_tmp):
    assert invoke("run", *SMALL, "--players", "2", "--out", "out").exit_code == 0
    result = invoke("run", *SMALL, "--players", "2", "--seed", "7", "--out", "out")
    assert result.exit_code == 2
    assert "seed: 1 there, 7 now" in result.stderr


def test_the_same_run_again_continues_and_redoes_nothing(in_tmp):
    first = invoke("run", *SMALL, "--players", "2", "--out", "out")
    manifest = json.loads((in_tmp / "out" / "manifest.json").read_text())
    again = invoke("run", *SMALL, "--players", "2", "--out", "out")
    assert first.exit_code == again.exit_code == 0
    assert "out is already complete (6 games), nothing to play" in again.output
    assert "games played" not in again.output
    assert json.loads((in_tmp / "out" / "manifest.json").read_text())["parts"] == manifest["parts"]


def _interrupt_after_first_part(run: Path) -> None:
    """Make a finished run look stopped after its first part, as Ctrl-C leaves it."""
    manifest = json.loads((run / "manifest.json").read_text())
    for part in manifest["parts"][1:]:
        for table in manifest["tables"]:
            (run / table / f"{part['name']}.parquet").unlink()
    manifest.update(parts=manifest["parts"][:1], status="incomplete")
    (run / "manifest.json").write_text(json.dumps(manifest))


ORIGINAL = ["--players", "2", "--games", "6", "--seed", "3", "--chunk-size", "2", "--out", "out"]


def test_resume_accepts_the_command_that_started_the_run(in_tmp):
    assert invoke("run", *ORIGINAL, "--workers", "1").exit_code == 0
    _interrupt_after_first_part(in_tmp / "out")
    resumed = invoke("run", *ORIGINAL, "--workers", "1", "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert "4 games played" in resumed.stdout
    manifest = json.loads((in_tmp / "out" / "manifest.json").read_text())
    assert manifest["status"] == "complete" and len(manifest["parts"]) == 3
    again = invoke("run", *ORIGINAL, "--workers", "1", "--resume")
    assert again.exit_code == 0
    assert "out is already complete (6 games), nothing to play" in again.stdout
    alone = invoke("run", "--resume", "--out", "out", "--workers", "1")
    assert alone.exit_code == 0 and "already complete" in alone.stdout


@pytest.mark.parametrize(
    "changed, shown",
    [
        (["--games", "9", "--seed", "4"], ["games: 6 there, 9 now", "seed: 3 there, 4 now"]),
        (["-s", "random"], ['strategies: "heuristic" there, "random" now']),
        (["--expansion"], ["expansion: false there, true now"]),
        (["--players", "2,3"], ["out holds a single run, this command runs arms p2, p3"]),
    ],
)
def test_resume_refuses_options_that_differ_naming_each(in_tmp, changed, shown):
    assert invoke("run", *ORIGINAL, "--workers", "1").exit_code == 0
    _interrupt_after_first_part(in_tmp / "out")
    before = (in_tmp / "out" / "manifest.json").read_text()
    result = invoke("run", *ORIGINAL, *changed, "--workers", "1", "--resume")
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("sanssim: error: ")
    for text in shown:
        assert text in lines[0]
    assert "--players" in changed or "n_players" not in lines[0]  # only what differs
    assert (in_tmp / "out" / "manifest.json").read_text() == before


def test_sweep_writes_one_run_per_player_count_and_a_summary(in_tmp):
    result = invoke("run", *SMALL, "--players", "2,3", "--out", "sweep")
    assert result.exit_code == 0, result.output
    index = json.loads((in_tmp / "sweep" / "index.json").read_text())
    assert [a["name"] for a in index["arms"]] == ["p2", "p3"]
    for arm in ("p2", "p3"):
        assert (in_tmp / "sweep" / arm / "manifest.json").is_file()
    summary = [line.split() for line in result.stdout.splitlines() if line.startswith("p")]
    assert [(row[0], row[1]) for row in summary] == [
        ("p2", "0"),
        ("p2", "1"),
        ("p3", "0"),
        ("p3", "1"),
        ("p3", "2"),
    ]
    assert re.search(r"12 games played in [\d.]+ s \([\d.,]+ games/s, 1 worker\)", result.stdout)
    assert "sanssim show sweep/p2 --game 0" in result.stdout
    interval = r"[\d.]+ \[[\d.]+, [\d.]+\]"
    with_intervals = re.compile(rf" {interval} {interval.replace(' ', '% ', 1)}$")
    assert all(with_intervals.search(" ".join(row)) for row in summary), result.stdout


def test_without_out_a_timestamped_run_goes_under_runs(in_tmp):
    result = invoke("run", "--workers", "1", "--games", "6")
    assert result.exit_code == 0, result.output
    (stamp,) = [p for p in (in_tmp / "runs").iterdir() if not p.is_symlink()]
    assert (in_tmp / "runs" / "latest").resolve() == stamp.resolve()
    assert sorted(p.name for p in stamp.iterdir()) == ["index.json", "p2", "p3", "p4"]


def test_failed_games_are_counted_in_the_summary(in_tmp, monkeypatch):
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parent.parent))
    result = invoke(
        "run", *SMALL, "--players", "2", "-s", "tests.faulty_strategy:Illegal", "--out", "out"
    )
    assert result.exit_code == 0
    assert "6 games failed" in result.stdout


def test_experiment_file_runs_every_arm_and_resumes(in_tmp):
    (in_tmp / "exp.toml").write_text(
        'games = 4\n[[arm]]\nname = "base"\nplayers = 2\n'
        '[[arm]]\nname = "adv"\nplayers = 3\nexpansion = true\nno_such = 1\n'
    )
    bad = invoke("run", "--workers", "1", "--config", "exp.toml", "--out", "exp")
    assert bad.exit_code == 2 and "unknown key 'no_such'" in bad.stderr
    assert not (in_tmp / "exp").exists()
    (in_tmp / "exp.toml").write_text((in_tmp / "exp.toml").read_text().replace("no_such = 1\n", ""))
    first = invoke("run", "--workers", "1", "--config", "exp.toml", "--out", "exp")
    assert first.exit_code == 0, first.output
    assert "8 games played" in first.stdout
    mixed = invoke("run", "--config", "exp.toml", "--out", "exp", "--seed", "9")
    assert mixed.exit_code == 2 and "drop --seed" in mixed.stderr
    resumed = invoke("run", "--workers", "1", "--resume", "--out", "exp")
    assert resumed.exit_code == 0 and "exp is already complete (8 games)" in resumed.stdout
    adv = json.loads((in_tmp / "exp" / "adv" / "manifest.json").read_text())
    assert adv["config"]["expansion"] is True and adv["config"]["n_players"] == 3
    again = invoke("run", "--workers", "1", "--config", "exp.toml", "--resume", "--out", "exp")
    assert again.exit_code == 0 and "already complete" in again.stdout
    (in_tmp / "exp.toml").write_text((in_tmp / "exp.toml").read_text().replace("3\n", "4\n"))
    other = invoke("run", "--workers", "1", "--config", "exp.toml", "--resume", "--out", "exp")
    assert other.exit_code == 2
    assert "n_players: 3 there, 4 now (arm adv)" in other.stderr
    (in_tmp / "exp.toml").write_text((in_tmp / "exp.toml").read_text().replace('"adv"', '"new"'))
    renamed = invoke("run", "--workers", "1", "--config", "exp.toml", "--resume", "--out", "exp")
    assert renamed.exit_code == 2
    assert "exp holds arms adv, base, this command runs arms base, new" in renamed.stderr


def test_missing_parents_of_out_are_created(in_tmp):
    result = invoke("run", *SMALL, "--players", "2", "--out", "new/deeper/out")
    assert result.exit_code == 0, result.output
    assert (in_tmp / "new" / "deeper" / "out" / "manifest.json").is_file()


@pytest.mark.parametrize("how", ["chmod", "simulated"])
def test_an_unwritable_out_is_one_line_exit_2(in_tmp, monkeypatch, how):
    locked = in_tmp / "locked"
    locked.mkdir()
    if how == "chmod":
        if os.geteuid() == 0:
            pytest.skip("root writes through chmod; the simulated case covers root")
        locked.chmod(0o555)
    else:
        real = os.access
        monkeypatch.setattr(
            os, "access", lambda p, mode: False if Path(p) == Path("locked") else real(p, mode)
        )
    try:
        result = invoke("run", *SMALL, "--players", "2", "--out", "locked/sub/out")
    finally:
        locked.chmod(0o755)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert lines == [
        "sanssim: error: cannot write locked/sub/out: no permission to write in locked"
    ]
    assert not any(locked.iterdir())


@pytest.mark.parametrize("failing, nth, parts_kept", [(".part-", 3, 1), (f".{MANIFEST}", 2, 0)])
def test_a_full_disk_stops_the_run_in_one_line_and_resume_finishes_it(
    in_tmp, monkeypatch, failing, nth, parts_kept
):
    real = Path.write_bytes
    writes = []

    def filling(path, data):
        """The disk fills up half-way through the nth write of a `failing` temporary file
        (the third part file is part 1's results; the second manifest lists part 0)."""
        if path.name.startswith(failing):
            writes.append(path)
            if len(writes) == nth:
                real(path, data[: len(data) // 2])
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        return real(path, data)

    args = ["--players", "2", "--games", "6", "--chunk-size", "2", "--workers", "1", "--out", "out"]
    with monkeypatch.context() as patched:
        patched.setattr(Path, "write_bytes", filling)
        result = invoke("run", *args)
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("sanssim: error: cannot write out/") and "No space left" in last
    assert "`sanssim run --resume --out out`" in last
    assert not [p for p in (in_tmp / "out").rglob("*") if ".tmp-" in p.name]
    manifest = json.loads((in_tmp / "out" / "manifest.json").read_text())
    assert len(manifest["parts"]) == parts_kept and manifest["status"] == "incomplete"
    resumed = invoke("run", "--resume", "--out", "out", "--workers", "1")
    assert resumed.exit_code == 0, resumed.output
    assert f"{6 - 2 * parts_kept} games played" in resumed.stdout
    results = pl.read_parquet(in_tmp / "out" / "results" / "*.parquet")
    assert sorted(results["game_id"].to_list()) == sorted(2 * list(range(6)))


def test_counts_and_rates_read_as_english():
    assert [counted(n, "arm") for n in (0, 1, 2, 1000)] == [
        "0 arms",
        "1 arm",
        "2 arms",
        "1,000 arms",
    ]
    assert [_rate(r) for r in (0.6, 9.94, 10.4, 1234.5)] == ["0.6", "9.9", "10", "1,234"]


def test_a_component_file_is_recorded_and_names_its_arm_in_the_report(in_tmp):
    source = resources.files("sanssim.games.sanssouci").joinpath("components.toml").read_text()
    (in_tmp / "mine.toml").write_text(source.replace("II = 5", "II = 6"))
    run = ["run", *SMALL, "--players", "2", "-s", "random"]
    assert invoke(*run, "--components", "mine.toml", "--out", "mine").exit_code == 0
    assert invoke(*run, "--out", "packaged").exit_code == 0
    manifest = json.loads((in_tmp / "mine" / "manifest.json").read_text())
    assert manifest["components_file"] == str(in_tmp.resolve() / "mine.toml")
    assert "components_file" not in json.loads((in_tmp / "packaged" / "manifest.json").read_text())
    assert invoke("report", "mine", "packaged", "--out", "both").exit_code == 0
    md = (in_tmp / "both" / "report.md").read_text()
    assert re.search(r"\| components mine\.toml \([0-9a-f]{8}\) \|", md)
    assert "| default components |" in md


def test_report_goes_next_to_its_run_and_refuses_to_overwrite_other_work(in_tmp):
    (in_tmp / "runs").mkdir()
    for name, seed in (("a", "1"), ("b", "2")):
        run = ["run", *SMALL, "--players", "2", "-s", "random", "--seed", seed]
        assert invoke(*run, "--out", f"runs/{name}").exit_code == 0
    first = invoke("report", "runs/a")
    assert first.exit_code == 0, first.output
    assert "written to runs/a-report" in first.stdout
    assert (in_tmp / "runs" / "a-report" / "report.md").is_file()
    assert not (in_tmp / "reports").exists()
    assert invoke("report", "runs/a").exit_code == 0  # the same runs: refreshed in place
    other = invoke("report", "runs/b", "--out", "runs/a-report")
    assert other.exit_code == 2
    assert other.stderr.strip() == (
        "sanssim: error: runs/a-report holds a report of other runs (a); "
        "choose another --out or use --force to replace it"
    )
    forced = invoke("report", "runs/b", "--out", "runs/a-report", "--force")
    assert forced.exit_code == 0, forced.output
    recorded = json.loads((in_tmp / "runs" / "a-report" / "report.json").read_text())
    assert recorded == {"runs": ["../b"]}
    (in_tmp / "runs").rename(in_tmp / "moved")  # runs and report moved (another checkout)
    assert invoke("report", "moved/b", "--out", "moved/a-report").exit_code == 0
