"""`sanssim run --resume --out RUN --games N`: a finished run extended to more games.

Every game's seed derives from the master seed and its id alone, so games 0..n-1 of a
run of N games are those of the run of n: the grown run keeps its parts, relabelled
with the new run id (which covers `games`), and plays the rest. A last, shorter chunk
is played again whole, so every part covers the chunk its name says. The new manifest
is written first: a grow cut short leaves parts whose digests no longer match, which
the next resume plays again.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import polars as pl

from sanssim.rundir import digest, parquet_bytes
from sanssim.runformat import MANIFEST, part_span
from sanssim.runner.config import Arm, RunError
from sanssim.runner.files import read_json, write_atomic, write_json
from sanssim.runner.run import Plan, identity, index_entries, write_index


def grow(run_plan: Plan, games: int, command: list[str]) -> Plan:
    """The plan of `run_plan` with `games` games per arm, its directories relabelled."""
    if run_plan.precision is not None:
        raise RunError("a run to a --precision sets its own games; it cannot be grown")
    arms = []
    for arm, run_dir in zip(run_plan.arms, run_plan.dirs, strict=True):
        if games < arm.config.games:
            raise RunError(
                f"{run_dir} holds {arm.config.games:,} games; --games {games:,} cannot shrink it"
            )
        grown = Arm(arm.name, replace(arm.config, games=games))
        if games > arm.config.games:
            _relabel(run_dir, grown)
        arms.append(grown)
    if run_plan.experiment:
        write_index(run_plan.out, index_entries(arms), command)
    return replace(run_plan, arms=tuple(arms))


def _relabel(run_dir: Path, arm: Arm) -> None:
    manifest = read_json(run_dir / MANIFEST)
    version = manifest.get("schema_version", 1)
    size = manifest["chunk_size"]
    spans = [part_span(p, version) for p in manifest["parts"]]
    kept = [p for p, (a, b) in zip(manifest["parts"], spans, strict=True) if b - a == size]
    dropped = [(a, b) for a, b in spans if b - a != size]
    manifest.update(identity(arm.config))
    manifest["games"] = arm.config.games
    manifest["status"] = "incomplete"
    manifest["parts"] = kept
    manifest["failures"] = [
        f for f in manifest["failures"] if not any(a <= f["game_id"] < b for a, b in dropped)
    ]
    write_json(run_dir / MANIFEST, manifest)
    for part in kept:
        for table in part.get("digests", {}) or manifest["tables"]:
            path = run_dir / table / f"{part['name']}.parquet"
            data = _with_run_id(path, manifest["run_id"])
            write_atomic(path, data)
            part.setdefault("bytes", {})[table] = len(data)
            part.setdefault("digests", {})[table] = digest(data)
        write_json(run_dir / MANIFEST, manifest)


def _with_run_id(path: Path, run_id: str) -> bytes:
    frame = pl.read_parquet(path)
    return parquet_bytes(frame.with_columns(pl.lit(run_id, frame.schema["run_id"]).alias("run_id")))
