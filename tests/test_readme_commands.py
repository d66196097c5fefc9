"""Every sanssim command line in the README's code blocks runs (issue 19: an example that
failed had rotted unseen).

The README is read when the tests run, so lines added later are checked too. Each line runs
in order in one scratch folder (later lines read the runs earlier ones wrote), shrunk to a
test's size: `--games` and `--budget` small (a tune with `--candidates 2`, an NTBEA tune
with `--batch 5`), `--workers 1`, and an experiment file cut to the arms its `diff:` targets
name (the canonical experiment has 18 arms of the slowest strategy). Lines that are not sanssim
commands (`make`, `scripts/*.py`, Python and TOML snippets) are not run; a line that needs
a Ray cluster (`--address`) cannot run here and is listed as skipped by name.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from sanssim.cli import main

README = Path(__file__).resolve().parent.parent / "README.md"
GAMES = "20"  # enough for `show ... --game 12`
PRECISION_GAMES = "200"  # the least cap --precision takes
BUDGET = "600"
WORKERS = ("run", "tune", "tournament")  # the commands that take --workers
STRATEGY_FILE = "example_strategy.py"  # the README's strategy example, saved under this name


def _blocks() -> list[str]:
    return re.findall(r"^ *```[^\n]*\n(.*?)^ *```", README.read_text(encoding="utf-8"), re.S | re.M)


def _commands() -> list[str]:
    """The sanssim command lines of every code block, continuation lines joined."""
    lines = []
    for block in _blocks():
        for line in block.replace("\\\n", " ").splitlines():
            words = line.split("#")[0].strip()
            if re.match(r"^(\.venv/bin/)?sanssim ", words):
                lines.append(words)
    return lines


def _strategy_example() -> str:
    """The README's example strategy module (the block that defines a Strategy class)."""
    return next(b for b in _blocks() if "(Strategy):" in b)


def _shrunk(line: str) -> list[str]:
    """The line's arguments at a test's size."""
    words = shlex.split(_placeholders(line))[1:]
    small = PRECISION_GAMES if "--precision" in words else GAMES
    for flag, value in (("--games", small), ("--budget", BUDGET)):
        if flag in words:
            words[words.index(flag) + 1] = value
    if words[0] == "tune":
        words += ["--batch", "5"] if "ntbea" in words else ["--candidates", "2"]
    if words[0] in WORKERS:
        words += ["--workers", "1"]
    if "--config" in words:
        at = words.index("--config") + 1
        words[at] = _cut(Path(README.parent / words[at]), " ".join(words))
    return words


def _placeholders(line: str) -> str:
    """`runs/<tune dir>`: the newest tune written so far; other `<name>`s a fixed name."""
    tunes = sorted(p.parent for p in Path("runs").glob("*/tune.json"))
    if tunes:
        line = line.replace("runs/<tune dir>", str(tunes[-1]))
    return re.sub(r"<[^>]+>", "example", line)


def _cut(experiment: Path, line: str) -> str:
    """A copy of the experiment with only the `[[arm]]` tables whose arms a `diff:` target
    names (all of them when none does)."""
    head, *arms = experiment.read_text(encoding="utf-8").split("[[arm]]")
    named = re.findall(r"diff:([^:]+):", line)
    kept = [arm for arm in arms if not named or any(f"{_name(arm)}-" in pair for pair in named)]
    copy = Path(f"cut-{experiment.name}")
    copy.write_text("[[arm]]".join([head, *kept]), encoding="utf-8")
    return str(copy)


def _name(arm: str) -> str:
    found = re.search(r'^name = "([^"]+)"', arm, re.M)
    assert found, arm
    return found[1]


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("readme")
    (folder / STRATEGY_FILE).write_text(_strategy_example(), encoding="utf-8")
    return folder


def test_the_readme_has_commands_to_check() -> None:
    assert len(_commands()) >= 10


@pytest.mark.parametrize("line", _commands())
def test_a_readme_command_runs(line: str, scratch: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if "--address" in line:
        pytest.skip("needs a Ray cluster at the given address")
    monkeypatch.chdir(scratch)
    monkeypatch.syspath_prepend(str(scratch))
    result = CliRunner().invoke(main, _shrunk(line))
    assert result.exit_code == 0, f"{line}\n{result.output}"
