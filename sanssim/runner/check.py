"""`sanssim check RUN`: is a run directory what its manifest says, and does the engine agree?

Parts (listed, present, digests or, for old runs, rows, run id and game ids), the
tables' columns and types, the game ids against the failures, then a sample of games
played again from their seeds and compared row for row with the log.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from sanssim.rundir import RunDamaged, check_manifest, scan, tables_of, verify
from sanssim.runformat import ACTIONS, ACTIONS_SINCE, INDEX, MANIFEST, RESULTS, TURNS, part_span
from sanssim.runner.config import RunConfig, RunError
from sanssim.runner.files import read_json
from sanssim.runner.play import GameFailure, game_seed, play_game
from sanssim.runner.run import config_from

DEFAULT_SAMPLE = 5
TEXT = (pl.String, pl.Categorical, pl.Enum)


def run_dirs(path: Path) -> list[Path]:
    """The run directory itself, or every arm an experiment's index lists."""
    if (path / MANIFEST).is_file():
        return [path]
    if (path / INDEX).is_file():
        arms = read_json(path / INDEX).get("arms")
        if not isinstance(arms, list) or not all(isinstance(a, dict) for a in arms):
            raise RunDamaged(f"{path / INDEX}: `arms` is not a list of objects")
        return [path / str(arm.get("path", arm.get("name"))) for arm in arms]
    raise RunError(f"{path} is not a sanssim run directory (no {MANIFEST} or {INDEX})")


def check(path: Path, sample: int = DEFAULT_SAMPLE) -> list[str]:
    """One line per run directory saying what was checked; raises at the first problem."""
    return [check_run(run_dir, sample) for run_dir in run_dirs(path)]


def check_run(run_dir: Path, sample: int) -> str:
    if not (run_dir / MANIFEST).is_file():
        raise RunDamaged(f"{run_dir}: no {MANIFEST}")
    manifest = read_json(run_dir / MANIFEST)
    check_manifest(run_dir, manifest)
    verify(run_dir, manifest)
    config = config_from(run_dir)
    game_type = config.game_type
    schemas = {RESULTS: game_type.result_schema, TURNS: dict(game_type.turn_schema)}
    if manifest.get("schema_version", 1) < ACTIONS_SINCE:  # logged before turns had actions
        schemas[TURNS].pop(ACTIONS, None)
    frames = {t: scan(run_dir, manifest, t, deep=False) for t in tables_of(manifest)}
    for table, frame in frames.items():
        _check_schema(run_dir, table, frame.collect_schema(), schemas[table])
    ids = set(frames[RESULTS].select(pl.col("game_id").unique()).collect()["game_id"])
    expected = _expected_ids(manifest)
    if ids != expected:
        missing, extra = sorted(expected - ids)[:3], sorted(ids - expected)[:3]
        raise RunDamaged(
            f"{run_dir}: results lack game(s) {missing} or hold unlisted game(s) {extra}"
        )
    chosen = _sample(sorted(ids), sample)
    for game_id in chosen:
        _replay(run_dir, config, frames, game_id)
    legacy = any("digests" not in p for p in manifest["parts"])
    how = "rows, run id and game ids (written before digests)" if legacy else "digests"
    status = "" if manifest.get("status") == "complete" else f", {manifest.get('status')}"
    return (
        f"{run_dir}: ok ({len(ids):,} games in {len(manifest['parts'])} parts{status}; "
        f"parts checked by {how}; {len(chosen)} games replayed)"
    )


def _check_schema(
    run_dir: Path, table: str, found: pl.Schema, wanted: dict[str, pl.DataType]
) -> None:
    for name, dtype in wanted.items():
        if name not in found:
            raise RunDamaged(f"{run_dir}: {table} lack column `{name}`")
        have = found[name]
        text = isinstance(dtype, TEXT) or dtype in TEXT
        if have != dtype and not (text and (isinstance(have, TEXT) or have in TEXT)):
            raise RunDamaged(f"{run_dir}: {table} column `{name}` is {have}, not {dtype}")


def _expected_ids(manifest: dict) -> set[int]:
    version = manifest.get("schema_version", 1)
    failed = {f.get("game_id") for f in manifest.get("failures", [])}
    spans = (part_span(p, version) for p in manifest["parts"])
    return {g for start, stop in spans for g in range(start, stop) if g not in failed}


def _sample(ids: list[int], n: int) -> list[int]:
    """`n` game ids spread evenly over the run, the first and last included."""
    if n <= 0 or not ids:
        return []
    if n >= len(ids):
        return ids
    step = (len(ids) - 1) / max(1, n - 1)
    return sorted({ids[round(k * step)] for k in range(n)})


def _replay(
    run_dir: Path, config: RunConfig, frames: dict[str, pl.LazyFrame], game_id: int
) -> None:
    """Play the game again from its seed; its rows must be the logged ones."""
    game_type, game = config.game_type, config.game()
    logged = {t: f.filter(pl.col("game_id") == game_id).collect() for t, f in frames.items()}
    seed = int(logged[RESULTS]["game_seed"][0])
    run_id = str(logged[RESULTS]["run_id"][0])
    try:
        state = play_game(game_type, game, config.specs(), seed, TURNS in frames)
    except GameFailure as exc:
        raise RunDamaged(f"{run_dir}: game {game_id} fails when replayed: {exc}") from None
    again = {
        RESULTS: game_type.result_frame(run_id, game, config.strategies, [(game_id, seed, state)])
    }
    if TURNS in frames:
        turns = game_type.turn_frame(run_id, game, [(game_id, state)])
        again[TURNS] = turns.select(c for c in turns.columns if c in logged[TURNS].columns)
    for table, frame in again.items():
        order = "seat" if table == RESULTS else "turn"
        if not _same(logged[table].sort(order), frame.sort(order)):
            raise RunDamaged(
                f"{run_dir}: game {game_id}'s {table} rows differ from the engine's replay"
            )


def replay_game(run_dir: str | Path, game_id: int) -> Any:
    """Play game `game_id` of a run again from its seed (the command errors.log gives for
    a failed game): its failure is raised again, with the traceback."""
    config = config_from(Path(run_dir))
    if not 0 <= game_id < config.games:
        raise RunError(f"{run_dir} has games 0..{config.games - 1}, not {game_id}")
    seed = game_seed(config.seed, game_id)
    return play_game(config.game_type, config.game(), config.specs(), seed, config.turn_log)


def _same(a: pl.DataFrame, b: pl.DataFrame) -> bool:
    """Equal values column by column (text read back as String, whatever it was stored as)."""
    if a.columns != b.columns or a.height != b.height:
        return False
    cast = {c: pl.String for c, t in a.schema.items() if isinstance(t, TEXT) or t in TEXT}
    return a.cast(cast).equals(b.cast({c: pl.String for c in cast}))
