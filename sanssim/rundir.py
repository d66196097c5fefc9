"""A run directory read exactly as its manifest lists it, and checked (docs/run-format.md).

Below the runner and analysis alike: both read parts only through `part_files`, so a
missing, extra, truncated, altered or foreign part is one line naming the file, never
a number. Parts carry a SHA-256 digest of each file; runs written before digests are
checked by row counts, run id and game ids instead (`check` says which).
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from sanssim.errors import SanssimError
from sanssim.runformat import MANIFEST, RESULTS, TURNS, part_name, part_span

PARQUET = ".parquet"


class RunDamaged(SanssimError):
    """A run directory that does not hold what its manifest says."""


@dataclass(frozen=True)
class Damage:
    """One listed part that cannot be read as the manifest describes it."""

    part: str
    start: int
    stop: int
    reason: str


def parquet_bytes(frame: pl.DataFrame) -> bytes:
    """A part file's content, as every writer of parts writes it."""
    buffer = io.BytesIO()
    frame.write_parquet(buffer, statistics=False)  # no reader here filters by statistics
    return buffer.getvalue()


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def file_digest(path: Path) -> str:
    sha = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            sha.update(block)
    return sha.hexdigest()


def check_manifest(run_dir: Path, manifest: Any) -> None:
    """The fields every reader relies on, with their types; one line naming the first
    that is missing or wrong."""
    where = f"{run_dir / MANIFEST}"
    if not isinstance(manifest, dict):
        raise RunDamaged(f"{where} is not a JSON object")
    version = manifest.get("schema_version", 1)
    required: dict[str, type | tuple[type, ...]] = {
        "config": dict,
        "components": dict,
        "games": int,
        "chunk_size": int,
        "parts": list,
    }
    if isinstance(version, int) and version >= 2:
        required["game"] = str
    for key, kind in required.items():
        if key not in manifest:
            raise RunDamaged(f"{where} lacks `{key}`")
        value = manifest[key]
        if not isinstance(value, kind) or isinstance(value, bool):
            raise RunDamaged(f"{where}: `{key}` is {type(value).__name__}, not {_kind(kind)}")
    if manifest["chunk_size"] < 1 or manifest["games"] < 0:
        raise RunDamaged(f"{where}: `chunk_size` and `games` must be positive")
    for i, part in enumerate(manifest["parts"]):
        _check_part_entry(where, i, part, version)
    failures = manifest.get("failures", [])
    if not isinstance(failures, list) or not all(isinstance(f, dict) for f in failures):
        raise RunDamaged(f"{where}: `failures` is not a list of objects")


def _kind(kind: type | tuple[type, ...]) -> str:
    return kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)


def _check_part_entry(where: str, i: int, part: Any, version: Any) -> None:
    if not isinstance(part, dict):
        raise RunDamaged(f"{where}: parts[{i}] is not an object")
    games = part.get("games")
    if not (
        isinstance(games, list)
        and len(games) == 2
        and all(isinstance(g, int) and not isinstance(g, bool) for g in games)
    ):
        raise RunDamaged(f"{where}: parts[{i}] `games` is not a pair of game ids")
    if not isinstance(part.get("name"), str):
        raise RunDamaged(f"{where}: parts[{i}] has no `name`")
    if not isinstance(part.get("rows", {}), dict):
        raise RunDamaged(f"{where}: parts[{i}] `rows` is not an object")
    start, stop = part_span(part, version if isinstance(version, int) else 1)
    if stop <= start:
        raise RunDamaged(f"{where}: parts[{i}] `games` {games} is an empty range")


def tables_of(manifest: dict[str, Any]) -> list[str]:
    tables = manifest.get("tables")
    if isinstance(tables, list) and all(t in (RESULTS, TURNS) for t in tables):
        return list(tables)
    turn_log = manifest.get("config", {}).get("turn_log", True)
    return [RESULTS, TURNS] if turn_log else [RESULTS]


def damage(run_dir: Path, manifest: dict[str, Any], deep: bool = True) -> Iterator[Damage]:
    """Every listed part that is not on disk as the manifest describes it. `deep`: read
    each file to compare its digest (or, without one, its rows, run id and game ids)."""
    check_manifest(run_dir, manifest)
    version = manifest.get("schema_version", 1)
    size = manifest["chunk_size"]
    seen: set[str] = set()
    for part in manifest["parts"]:
        start, stop = part_span(part, version)
        name = part["name"]
        if name != part_name(start, size) or name in seen:
            expected = part_name(start, size)
            yield Damage(name, start, stop, f"{name} is listed for games {start}.. ({expected})")
            continue
        seen.add(name)
        for table in tables_of(manifest):
            reason = _part_problem(run_dir, manifest, part, table, start, stop, deep)
            if reason is not None:
                yield Damage(name, start, stop, f"{table}/{name}{PARQUET} {reason}")
                break


def _part_problem(
    run_dir: Path,
    manifest: dict[str, Any],
    part: dict[str, Any],
    table: str,
    start: int,
    stop: int,
    deep: bool,
) -> str | None:
    path = run_dir / table / f"{part['name']}{PARQUET}"
    if not path.is_file():
        return "is missing"
    if not deep:
        return None
    sizes, digests = part.get("bytes", {}), part.get("digests", {})
    if table in digests:
        actual = path.stat().st_size
        if actual != sizes.get(table, actual) or file_digest(path) != digests[table]:
            wanted = sizes.get(table, actual)
            size = f"{actual:,} bytes, not {wanted:,}: " if actual != wanted else ""
            return f"differs from the manifest ({size}truncated, altered or from another run)"
        return None
    rows = part.get("rows", {}).get(table)
    return _legacy_problem(path, rows, manifest.get("run_id"), (start, stop))


def _legacy_problem(
    path: Path, expected: int | None, run_id: str | None, span: tuple[int, int]
) -> str | None:
    """A part written before digests: its rows, run id and game ids must be the manifest's."""
    try:
        found = (
            pl.scan_parquet(path)
            .select(
                rows=pl.len(),
                lo=pl.col("game_id").min(),
                hi=pl.col("game_id").max(),
                runs=pl.col("run_id").unique().implode(),
            )
            .collect()
            .row(0, named=True)
        )
    except (pl.exceptions.PolarsError, OSError) as exc:
        return f"cannot be read ({str(exc).splitlines()[0]})"
    start, stop = span
    if expected is not None and found["rows"] != expected:
        return f"holds {found['rows']} rows, the manifest says {expected}"
    if run_id is not None and any(r != run_id for r in found["runs"]):
        return f"holds rows of run {found['runs'][0]}, not {run_id}"
    if found["rows"] and not (start <= found["lo"] and found["hi"] < stop):
        return f"holds games {found['lo']}..{found['hi']}, not {start}..{stop - 1}"
    return None


def strays(run_dir: Path, manifest: dict[str, Any]) -> list[Path]:
    """Files in the table folders that the manifest does not list (temporary files aside)."""
    listed = {f"{p['name']}{PARQUET}" for p in manifest["parts"]}
    return [
        path
        for table in tables_of(manifest)
        if (run_dir / table).is_dir()
        for path in sorted((run_dir / table).iterdir())
        if not path.name.startswith(".") and path.name not in listed
    ]


def verify(run_dir: Path, manifest: dict[str, Any], deep: bool = True) -> None:
    """Raise RunDamaged, naming the file, unless the run's parts are exactly the listed ones."""
    for found in damage(run_dir, manifest, deep):
        raise RunDamaged(f"{run_dir}: {found.reason}")
    extra = strays(run_dir, manifest)
    if extra:
        shown = extra[0].relative_to(run_dir)
        more = f" (and {len(extra) - 1} more)" if len(extra) > 1 else ""
        raise RunDamaged(
            f"{run_dir}: {shown}{more} is not listed in the manifest "
            "(a stray copy, or a part of another run)"
        )


def part_files(
    run_dir: Path, manifest: dict[str, Any], table: str, deep: bool = True
) -> list[Path]:
    """The table's files the manifest lists, in game-id order, after `verify`."""
    verify(run_dir, manifest, deep)
    if table not in tables_of(manifest):
        return []
    parts = sorted(manifest["parts"], key=lambda p: p["games"][0])
    return [run_dir / table / f"{p['name']}{PARQUET}" for p in parts]


def scan(run_dir: Path, manifest: dict[str, Any], table: str, deep: bool = True) -> pl.LazyFrame:
    """The table as one lazy frame of exactly the listed parts (empty parts list: an error)."""
    files = part_files(run_dir, manifest, table, deep)
    if not files:
        raise RunDamaged(f"{run_dir}: no {table} parts")
    return pl.scan_parquet(files)
