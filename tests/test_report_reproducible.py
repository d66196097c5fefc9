"""`sanssim report` gives the same numbers, to the last digit, however the rows of a run
reach polars: the order rows are written in (workers, chunk sizes, a resumed run) and the
order polars' threads meet them in must not show in any estimate.

Each game plays a small experiment; a copy of it has every part file's rows shuffled. Both
are reported on, recording every estimate and interval (each `fmt.Num`) at 17 significant
digits: the two records, and the two report.md files, must be identical."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from click.testing import CliRunner

from sanssim.analysis import fmt
from sanssim.analysis.report import write_report
from sanssim.cli import main
from sanssim.rundir import digest, parquet_bytes
from sanssim.runformat import MANIFEST

GAMES = 150
CHUNK = 40  # several part files per arm, the last one shorter
ARMS = {
    "sanssouci": '[[arm]]\nname = "tiles-6"\nplayers = [3]\ntiles_per_symbol = 6\n',
    "seikatsu": '[[arm]]\nname = "tournament"\nplayers = [2, 3]\ntournament = true\n',
    "splendor": '[[arm]]\nname = "gems-4"\nplayers = [3]\ngem_tokens = 4\n',
}


def _experiment(root: Path, game: str) -> Path:
    config = root / f"{game}.toml"
    config.write_text(
        f'game = "{game}"\ngames = {GAMES}\nseed = 11\nstrategy = "random"\n\n'
        f'[[arm]]\nname = "base"\nplayers = [2, 3]\n\n{ARMS[game]}'
    )
    out = root / "runs"
    args = ["run", "--config", str(config), "--out", str(out), "--workers", "1"]
    result = CliRunner().invoke(main, [*args, "--chunk-size", str(CHUNK)])
    assert result.exit_code == 0, result.output
    return out


def _shuffled(runs: Path, copy: Path, seed: int) -> Path:
    """A copy of the experiment with the rows of every part file in another order, its
    manifests' digests and sizes updated to match."""
    shutil.copytree(runs, copy)
    for path in copy.rglob(MANIFEST):
        manifest = json.loads(path.read_text())
        for part in manifest["parts"]:
            for table in part["digests"]:
                file = path.parent / table / f"{part['name']}.parquet"
                rows = pl.read_parquet(file)
                data = parquet_bytes(rows.sample(fraction=1.0, shuffle=True, seed=seed))
                file.write_bytes(data)
                part["digests"][table], part["bytes"][table] = digest(data), len(data)
        path.write_text(json.dumps(manifest, indent=2))
    return copy


def _report(runs: Path, out: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], str]:
    """Every estimate the report states, at full precision, and its report.md with the
    runs' path taken out."""
    numbers: list[str] = []
    original = fmt.Num.__new__

    def recorded(cls: type, value: float, lo: float, hi: float, *args: Any, **kw: Any) -> str:
        numbers.append(f"{value:.17g} [{lo:.17g}, {hi:.17g}]")
        return original(cls, value, lo, hi, *args, **kw)

    with monkeypatch.context() as patch:
        patch.setattr(fmt.Num, "__new__", recorded)
        write_report([runs], out, ["sanssim", "report", "RUNS"])
    return numbers, (out / "report.md").read_text().replace(str(runs), "RUNS")


@pytest.mark.parametrize("game", sorted(ARMS))
def test_shuffled_rows_give_the_same_report_to_the_last_digit(
    game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs = _experiment(tmp_path, game)  # tmp_path/runs, copied to tmp_path/shuffled/runs
    numbers, text = _report(runs, tmp_path / "report", monkeypatch)
    assert len(numbers) > 100  # the record reaches the report's tables
    copy = _shuffled(runs, tmp_path / "shuffled" / runs.name, seed=1)
    again, text_again = _report(copy, tmp_path / "report-shuffled", monkeypatch)
    changed = [(a, b) for a, b in zip(numbers, again, strict=True) if a != b]
    assert changed == [], f"{len(changed)} of {len(numbers)} estimates changed: {changed[:3]}"
    assert text_again == text
