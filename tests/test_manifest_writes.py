"""What makes a tune's many small arms cheap to write must not change a byte of them: the
manifest's unchanging texts, a configuration's canonical form built once, and a started
pool playing the small runs after it."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from sanssim.games import get_game
from sanssim.runner.config import build_config
from sanssim.runner.executor import LocalExecutor, default_workers
from sanssim.runner.files import unchanging_texts, write_json
from tests.test_integrity import small_run


def test_a_manifest_written_with_its_unchanging_texts_is_byte_for_byte_json_dumps(
    tmp_path: Path,
) -> None:
    manifest = json.loads((small_run(tmp_path / "run") / "manifest.json").read_text())
    manifest["failures"] = [{"game_id": 3, "error": 'naïve "quoted"\nline'}]
    manifest["empty"] = {}
    for _ in range(2):  # the second time from the remembered texts
        write_json(tmp_path / "m.json", manifest, unchanging_texts(manifest))
        expected = json.dumps(manifest, indent=2) + "\n"
        assert (tmp_path / "m.json").read_text() == expected


def test_a_configuration_built_once_still_hands_out_its_own_copy() -> None:
    game_type = get_game("sanssouci")
    config = build_config(
        n_players=2, games=10, strategies=["heuristic"] * 2, components=game_type.load_components()
    )
    first = config.to_dict()
    first["strategies"][0]["spec"] = "changed"
    assert config.to_dict()["strategies"][0]["spec"] != "changed"
    assert config.fingerprint() == config.fingerprint()


def _pid(start: int, stop: int) -> int:
    return os.getpid()


@pytest.mark.skipif(default_workers() < 2, reason="needs two cores for two workers")
def test_workers_once_started_play_the_small_runs_too() -> None:
    with LocalExecutor(2) as executor:
        assert set(executor.map_chunks(_pid, [(0, 1)], here=True)) == {os.getpid()}
        list(executor.map_chunks(_pid, [(0, 1), (1, 2)]))
        assert os.getpid() not in set(executor.map_chunks(_pid, [(0, 1)], here=True))
