"""`--engine`: the compiled and the Python engine write the same run, and either may finish
a run the other began; the manifest says which engine played each part."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner
from polars.testing import assert_frame_equal
from positions import default_data, dump_toml
from test_sanssouci_core import user_components

from sanssim.cli import main

ORDER = {"results": ["game_id", "seat"], "turns": ["game_id", "turn"]}


def run(out: Path, *args: str) -> None:
    result = CliRunner().invoke(main, ["run", "--workers", "1", "--out", str(out), *args])
    assert result.exit_code == 0, result.output


def tables(out: Path) -> dict[str, pl.DataFrame]:
    return {t: pl.read_parquet(out / t / "*.parquet").sort(o) for t, o in ORDER.items()}


def engines(out: Path) -> set[str]:
    return {part["engine"] for part in json.loads((out / "manifest.json").read_text())["parts"]}


def test_both_engines_write_the_same_run(tmp_path: Path) -> None:
    user_components(tmp_path)
    args = ["--players", "3", "--games", "30", "--seed", "3", "--expansion", "--tile-set", "II"]
    args += ["-s", "heuristic:decay=0.5", "-s", "greedy", "-s", "random"]
    args += ["--components", str(tmp_path / "mine.toml"), "--chunk-size", "7"]
    run(tmp_path / "py", *args, "--engine", "python")
    run(tmp_path / "nb", *args, "--engine", "compiled")
    run(tmp_path / "auto", *args)
    assert engines(tmp_path / "py") == {"python"}
    assert engines(tmp_path / "nb") == engines(tmp_path / "auto") == {"compiled"}
    want = tables(tmp_path / "py")
    for other in ("nb", "auto"):
        for name, df in tables(tmp_path / other).items():
            assert_frame_equal(df, want[name])
    manifests = [json.loads((tmp_path / d / "manifest.json").read_text()) for d in ("py", "nb")]
    assert manifests[0]["run_id"] == manifests[1]["run_id"]
    assert manifests[0]["config"] == manifests[1]["config"]


def _cut(out: Path, keep: int) -> None:
    """Leave the run as if it had been stopped after its first `keep` parts."""
    path = out / "manifest.json"
    manifest = json.loads(path.read_text())
    for part in manifest["parts"][keep:]:
        for table in ORDER:
            (out / table / f"{part['name']}.parquet").unlink()
    manifest["parts"] = manifest["parts"][:keep]
    manifest["status"] = "incomplete"
    path.write_text(json.dumps(manifest))


@pytest.mark.parametrize(("first", "then"), [("python", "compiled"), ("compiled", "python")])
def test_a_run_resumes_on_the_other_engine(tmp_path: Path, first: str, then: str) -> None:
    args = ["--players", "4", "--games", "24", "--chunk-size", "6", "-s", "random"]
    run(tmp_path / "whole", *args, "--engine", first)
    run(tmp_path / "cut", *args, "--engine", first)
    _cut(tmp_path / "cut", 2)
    run(tmp_path / "cut", "--resume", "--engine", then)
    assert engines(tmp_path / "cut") == {first, then}
    whole = tables(tmp_path / "whole")
    for name, df in tables(tmp_path / "cut").items():
        assert_frame_equal(df, whole[name])


def test_compiled_refuses_a_strategy_without_a_compiled_form(tmp_path: Path) -> None:
    out = tmp_path / "never"
    result = CliRunner().invoke(
        main,
        ["run", "--players", "2", "--games", "2", "-s", "tests.skill_strategy:Skilled"]
        + ["--engine", "compiled", "--workers", "1", "--out", str(out)],
    )
    assert result.exit_code == 2
    assert "--engine compiled: not every strategy" in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert not (out / "manifest.json").exists()


def test_an_experiment_names_its_engine(tmp_path: Path) -> None:
    (tmp_path / "mine.toml").write_text(dump_toml(default_data()), encoding="utf-8")
    experiment = tmp_path / "exp.toml"
    experiment.write_text(
        'games = 6\nstrategy = "random"\nplayers = 2\n'
        '[[arm]]\nname = "py"\nengine = "python"\n'
        '[[arm]]\nname = "nb"\ncomponents = "mine.toml"\n',
        encoding="utf-8",
    )
    out = tmp_path / "exp"
    result = CliRunner().invoke(main, ["run", "--config", str(experiment), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert engines(out / "py") == {"python"} and engines(out / "nb") == {"compiled"}
    for name, df in tables(out / "py").items():
        assert_frame_equal(df.drop("run_id"), tables(out / "nb")[name].drop("run_id"))
