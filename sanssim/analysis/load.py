"""Finding and opening run directories (see the run-format spec), lazily.

Nothing here knows a game's columns: callers say which result columns they need.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from sanssim.analysis.errors import ReportError
from sanssim.rundir import RunDamaged, check_manifest, scan, tables_of
from sanssim.runformat import INDEX, MANIFEST, RESULTS, SCHEMA_VERSIONS, TURNS, part_span


@dataclass(frozen=True)
class Run:
    """One complete run directory: its manifest and lazy scans of its tables."""

    path: Path
    manifest: dict[str, Any]
    results: pl.LazyFrame
    turns: pl.LazyFrame | None

    @property
    def config(self) -> dict[str, Any]:
        config = self.manifest.get("config")
        return config if isinstance(config, dict) else {}

    @property
    def games(self) -> int:
        return _games_done(self.manifest) or 0

    @property
    def failures(self) -> int:
        """Games that failed (a strategy raised) and so have no rows."""
        failures = self.manifest.get("failures")
        return len(failures) if isinstance(failures, list) else 0


def discover(paths: list[Path]) -> list[Path]:
    """Run directories named directly, or the arms (sub-directories with a manifest)
    of a sweep's parent directory."""
    found: list[Path] = []
    for path in paths:
        if not path.is_dir():
            raise ReportError(f"{path}: no such directory")
        if (path / MANIFEST).is_file():
            found.append(path)
            continue
        arms = _in_experiment_order(path, sorted(p.parent for p in path.glob(f"*/{MANIFEST}")))
        if not arms:
            raise ReportError(f"{path}: not a run directory (no {MANIFEST}, no runs inside)")
        found.extend(arms)
    resolved = [p.resolve() for p in found]
    for i, p in enumerate(resolved):
        if p in resolved[:i]:
            raise ReportError(f"{found[i]}: run given twice")
    return found


def _in_experiment_order(parent: Path, arms: list[Path]) -> list[Path]:
    """An experiment's arms in the order its file gives them (its index), so that a
    report's pairs read first arm → second as the experiment wrote them; other directories
    after them, by name."""
    try:
        listed = json.loads((parent / INDEX).read_text(encoding="utf-8")).get("arms", [])
        order = [parent / entry["path"] for entry in listed]
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return arms
    return sorted(arms, key=lambda p: (order.index(p), "") if p in order else (len(order), p.name))


def open_run(path: Path, results_columns: list[str]) -> Run:
    """Check the manifest and the results schema; raise ReportError naming the problem."""
    manifest = _read_manifest(path)
    version = manifest.get("schema_version")
    if version not in SCHEMA_VERSIONS:
        raise ReportError(
            f"{path}: run schema version {version!r}, "
            f"this sanssim reads {SCHEMA_VERSIONS[-1]} or older"
        )
    try:
        check_manifest(path, manifest)
        _check_complete(path, manifest)
        results = scan(path, manifest, RESULTS)
        turns = scan(path, manifest, TURNS) if TURNS in tables_of(manifest) else None
    except RunDamaged as exc:
        raise ReportError(str(exc)) from None
    missing = [c for c in results_columns if c not in results.collect_schema().names()]
    if missing:
        raise ReportError(f"{path}: results lack column(s) {', '.join(missing)}")
    return Run(path, manifest, results, turns)


def _read_manifest(path: Path) -> dict[str, Any]:
    try:
        manifest = json.loads((path / MANIFEST).read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ReportError(f"{path}: unreadable {MANIFEST}: {exc}") from None
    if not isinstance(manifest, dict):
        raise ReportError(f"{path}: {MANIFEST} is not a JSON object")
    return manifest


def _games_done(manifest: dict[str, Any]) -> int | None:
    """Games in the finished parts (None: the parts are not readable)."""
    parts = manifest.get("parts")
    if not isinstance(parts, list):
        return None
    total = 0
    for part in parts:
        games = part.get("games") if isinstance(part, dict) else None
        if not (isinstance(games, list) and len(games) == 2):
            return None
        start, stop = part_span(part, manifest.get("schema_version", 1))
        total += stop - start
    return total


def _check_complete(path: Path, manifest: dict[str, Any]) -> None:
    """Complete means `status: complete` and parts holding all the planned `games`."""
    planned = manifest.get("games")
    done = _games_done(manifest)
    if manifest.get("status") != "complete":
        status = manifest.get("status", "missing")
        counts = f", {done} of {planned} games written" if done is not None else ""
        raise ReportError(f"{path}: the run is not complete (status {status}{counts})")
    if isinstance(planned, int) and done is not None and done != planned:
        raise ReportError(
            f"{path}: the manifest says complete but its parts hold {done} of {planned} games"
        )
