"""`sanssim run` from the command line: bad input, output directories, the summary."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest
from click.testing import CliRunner

from sanssim.cli import main

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
    assert "0 games played" in again.output
    assert json.loads((in_tmp / "out" / "manifest.json").read_text())["parts"] == manifest["parts"]


def test_resume_refuses_run_options(in_tmp):
    assert invoke("run", *SMALL, "--players", "2", "--out", "out").exit_code == 0
    result = invoke("run", "--resume", "--out", "out", "--games", "9")
    assert result.exit_code == 2 and "drop --games" in result.stderr


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
    assert "12 games played" in result.stdout
    assert "sanssim show sweep/p2 --game 0" in result.stdout


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
    mixed = invoke("run", "--config", "exp.toml", "--out", "exp", "--games", "9")
    assert mixed.exit_code == 2 and "drop --games" in mixed.stderr
    resumed = invoke("run", "--workers", "1", "--resume", "--out", "exp")
    assert resumed.exit_code == 0 and "0 games played" in resumed.stdout
    adv = json.loads((in_tmp / "exp" / "adv" / "manifest.json").read_text())
    assert adv["config"]["expansion"] is True and adv["config"]["n_players"] == 3
