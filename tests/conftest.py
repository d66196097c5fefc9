"""Shared fixtures: small run directories written by `sanssim run`."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from sanssim import compiled
from sanssim.cli import main
from sanssim.games import game_names, get_game

# Each game's test folder is importable from every test (the compiled cores' tests share its
# positions), whatever order pytest collects the folders in.
sys.path[:0] = [str(p) for p in sorted((Path(__file__).parent / "games").iterdir()) if p.is_dir()]


@pytest.fixture(scope="session", autouse=True)
def _no_stale_compiled_code() -> None:
    """Each test process drops stale compiled code before its first test: many tests call
    a core's cached functions directly, and a drop by another worker's first `prepare`
    would remove the cache files they are writing."""
    for name in game_names():
        core = get_game(name).core()
        if core is not None:
            compiled.forget_stale(core)


def sanssim_run(
    out: Path, *options: str, players: str = "2", games: int = 40, seed: int = 1
) -> Path:
    """Run `sanssim run` in one process (random players unless `-s` is given); fail the
    test if it fails."""
    args = ["run", "--players", players, "--games", str(games), "--seed", str(seed)]
    args += [] if "-s" in options else ["-s", "random"]
    args += ["--workers", "1", "--out", str(out), *options]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="session")
def make_run() -> Callable[..., Path]:
    """`sanssim_run` for tests that need a run of their own."""
    return sanssim_run


@pytest.fixture(scope="session")
def run_2p(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return sanssim_run(tmp_path_factory.mktemp("runs") / "base-2p", games=300)


@pytest.fixture(scope="session")
def sweep(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A player-count sweep (p2, p3 and index.json) plus one arm per variant and the other
    half of a crossed players x tile-set design; one arm has no turn log."""
    root = tmp_path_factory.mktemp("sweep") / "sweep"
    sanssim_run(root, players="2,3", games=60, seed=2)
    sanssim_run(root / "expansion", "--expansion", games=60, seed=3)
    sanssim_run(root / "reshuffle", "--duplicate-reshuffle", games=60, seed=4)
    sanssim_run(root / "p3-II", "--tile-set", "II", players="3", games=40, seed=6)
    sanssim_run(root / "p2-II+III", "--tile-set", "II+III", "--no-turn-log", games=40, seed=7)
    return root
