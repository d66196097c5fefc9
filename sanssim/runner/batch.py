"""Game-agnostic batch machinery: chunks of game ids, part files, the manifest, resume.

Workers return finished parts as bytes; only this driver writes, and every
file appears under its final name complete (temporary name, then rename). The
manifest is rewritten the same way after each part, so a run killed at any
moment is a valid run of the parts it lists and `resume` plays only the rest.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from sanssim import __version__
from sanssim.rundir import damage, digest, strays, tables_of
from sanssim.runformat import (
    ACTIONS_SINCE,
    ERRORS_LOG,
    INDEX,
    LOCK,
    MANIFEST,
    SCHEMA_VERSION,
    TEMP_MARK,
    TURNS,
    part_name,
    part_span,
)
from sanssim.runner.config import RunError
from sanssim.runner.executor import Executor
from sanssim.runner.files import now, read_json, unchanging_texts, write_atomic, write_json
from sanssim.runner.pool import ChunkKills, WorkerLost

MAX_CHUNK = 1000
CHUNKS_PER_WORKER = 4
PART_FILE = re.compile(r"part-\d{5,}\.parquet")


@dataclass(frozen=True)
class Part:
    """A finished chunk: one Parquet file's bytes per table, plus the games that failed."""

    start: int
    stop: int
    tables: dict[str, bytes]
    rows: dict[str, int]
    failures: tuple[dict[str, Any], ...]
    engine: str = "python"  # which engine played it (information only: the games are the same)
    output: str = ""  # what the chunk's strategies printed


class Job(Protocol):
    """What a game module gives the batch: how many games, which tables, how to play a chunk."""

    @property
    def games(self) -> int: ...

    @property
    def tables(self) -> tuple[str, ...]: ...

    def play_chunk(self, start: int, stop: int) -> Part: ...

    def skipping(self, killed: dict[int, str]) -> Job:
        """The job with these games (id: error) recorded as failed, not played."""


@dataclass(frozen=True)
class Outcome:
    run_dir: Path
    played: int  # games played by this call (failed ones included)
    done: int  # games finished in the run so far
    failed: int  # failed games in the run so far
    seconds: float
    replayed: tuple[str, ...] = ()  # listed parts found missing or damaged, played again


def chunk_size_for(games: int, workers: int) -> int:
    """Enough chunks to keep every worker busy to the end; chunk size never changes results."""
    return max(1, min(MAX_CHUNK, -(-games // (workers * CHUNKS_PER_WORKER))))


def chunks(games: int, size: int, done: Iterable[int] = ()) -> list[tuple[int, int]]:
    """Contiguous game-id ranges not yet done; chunk k always covers games k*size..(k+1)*size-1."""
    skip = set(done)
    return [(s, min(s + size, games)) for s in range(0, games, size) if s not in skip]


def check_writable(path: Path) -> None:
    """Can `path` be written, or created like `mkdir -p` (missing parents too)? Refuse
    a parent that is a file and a place this user may not write, before anything is
    written."""
    existing = next(p for p in (path, *path.parents) if p.exists() or p.is_symlink())
    if existing == path and not path.is_dir():
        raise RunError(f"{path} exists and is not a directory")
    if not existing.is_dir():
        raise RunError(f"cannot create {path}: {existing} is not a directory")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise RunError(f"cannot write {path}: no permission to write in {existing}")


def check_out_dir(path: Path, identity: dict[str, Any], marker: str, force: bool) -> bool:
    """May this run write into `path`? True: it holds this same run, to be continued.

    `identity` is what makes two runs the same (compared with the marker file's
    copy); anything else in the directory is refused unless `force`.
    """
    check_writable(path)
    if not path.exists():
        return False
    if not any(p.name != LOCK for p in path.iterdir()):
        return False
    if force:  # cleared once its lock is held (`lock.holding`), never before
        check_removable(path)
        return False
    marker_file = path / marker
    if not marker_file.is_file():
        other = INDEX if marker == MANIFEST else MANIFEST
        if (path / other).is_file():
            held = "several arms" if other == INDEX else "a single run"
            wanted = "a single run" if other == INDEX else "several arms"
            reason = f"holds {held} ({other}), this command runs {wanted}"
        else:
            reason = f"is not empty and is not a sanssim run (no {marker})"
        raise RunError(f"{path} {reason}; choose another --out or use --force to overwrite it")
    existing = read_json(marker_file)
    found = differences({k: existing.get(k) for k in identity}, identity)
    if found:
        shown = "; ".join(found[:3]) + ("; ..." if len(found) > 3 else "")
        raise RunError(
            f"{path} holds a different run ({shown}); "
            "choose another --out or use --force to overwrite it"
        )
    if marker == MANIFEST:
        resumable(path, existing)
    return True


def differences(old: Any, new: Any, path: str = "") -> list[str]:
    """Where two JSON values differ, leaf by leaf: `games: 200 there, 300 now`."""
    if isinstance(old, dict) and isinstance(new, dict):
        keys = list(new) + [k for k in old if k not in new]
        return [d for k in keys for d in differences(old.get(k), new.get(k), f"{path}{k}.")]
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        return [
            d
            for i, (a, b) in enumerate(zip(old, new, strict=True))
            for d in differences(a, b, f"{path}{i}.")
        ]
    if old == new:
        return []
    return [f"{path.rstrip('.')}: {_short(old)} there, {_short(new)} now"]


def _short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def check_removable(path: Path) -> None:
    """`--force` refuses the directories it would surely be a mistake to clear."""
    resolved = path.resolve()
    protected = {Path.home().resolve(), Path.cwd().resolve(), Path(resolved.anchor)}
    if resolved in protected or resolved in Path.cwd().resolve().parents:
        raise RunError(f"refusing to overwrite {path}: it is the home, working or root directory")


def clear_dir(path: Path, keep: str) -> None:
    """`--force`, once `path`'s lock (`keep`) is held: remove everything else in it."""
    check_removable(path)
    for entry in path.iterdir():
        if entry.name == keep:
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry)
        else:
            entry.unlink()


def init_run(run_dir: Path, job: Job, header: dict[str, Any], chunk_size: int) -> None:
    """Create the run directory with a manifest listing no parts yet.

    `header` holds the manifest fields that describe the run (config, components, ...).
    """
    run_dir.mkdir(parents=True, exist_ok=True)
    manifest = {
        "schema_version": SCHEMA_VERSION,
        "sanssim_version": __version__,
        "created": now(),
        **header,
        "games": job.games,
        "chunk_size": chunk_size,
        "tables": list(job.tables),
        "status": "incomplete",
        "parts": [],
        "failures": [],
    }
    write_json(run_dir / MANIFEST, manifest, unchanging_texts(manifest))


def games_done(manifest: dict[str, Any]) -> int:
    version = manifest.get("schema_version", 1)
    return sum(stop - start for start, stop in (part_span(p, version) for p in manifest["parts"]))


def run_batch(
    run_dir: Path,
    job: Job,
    executor: Executor,
    progress: Callable[[int], None] | None = None,
    until: int | None = None,
    here: bool = False,
) -> Outcome:
    """Play every chunk the manifest does not list yet (only those starting below game
    `until`, when given), writing parts as they finish; `here`: see `Executor.map_chunks`."""
    start_time = datetime.now(UTC)
    manifest = read_json(run_dir / MANIFEST)
    chunk_size = manifest["chunk_size"]
    for table in job.tables:
        (run_dir / table).mkdir(exist_ok=True)
        for stale in (run_dir / table).glob(f".*{TEMP_MARK}*"):
            stale.unlink()
    for stale in run_dir.glob(f".{MANIFEST}{TEMP_MARK}*"):
        stale.unlink()
    replayed = _drop_damaged(run_dir, manifest)
    todo = chunks(job.games, chunk_size, (p["games"][0] for p in manifest["parts"]))
    if until is not None:
        todo = [chunk for chunk in todo if chunk[0] < until]
    _upgrade(manifest)
    fixed = unchanging_texts(manifest)
    played = 0
    killed = {k["game_id"]: k["error"] for k in manifest.get("killed", [])}
    try:
        for part in executor.map_chunks(job.skipping(killed).play_chunk, todo, here):
            played += _write_part(run_dir, job, manifest, part, chunk_size, fixed)
            if progress is not None:
                progress(part.stop - part.start)
    except ChunkKills as exc:
        raise _record_kill(run_dir, manifest, exc) from None
    return Outcome(
        run_dir=run_dir,
        played=played,
        done=games_done(manifest),
        failed=len(manifest["failures"]),
        seconds=(datetime.now(UTC) - start_time).total_seconds(),
        replayed=replayed,
    )


def _write_part(
    run_dir: Path,
    job: Job,
    manifest: dict[str, Any],
    part: Part,
    chunk_size: int,
    fixed: Mapping[str, str],
) -> int:
    """A finished chunk's files, then the manifest that lists them; the games it held."""
    name = part_name(part.start, chunk_size)
    for table, data in part.tables.items():
        write_atomic(run_dir / table / f"{name}.parquet", data)
    tables = list(part.tables)
    if part.failures or part.output:
        _log_failures(run_dir, part)
    manifest["parts"].append(
        {
            "name": name,
            "games": [part.start, part.stop - 1],
            "results_rows": part.rows.get("results", 0),
            "turns_rows": part.rows.get("turns", 0),
            "rows": part.rows,
            "failed": len(part.failures),
            "engine": part.engine,
            "bytes": {t: len(part.tables[t]) for t in tables},
            "digests": {t: digest(part.tables[t]) for t in tables},
        }
    )
    manifest["parts"].sort(key=lambda p: p["games"][0])
    manifest["failures"].extend(
        {k: v for k, v in f.items() if k != "traceback"} for f in part.failures
    )
    manifest["failures"].sort(key=lambda f: f["game_id"])
    manifest["updated"] = now()
    if games_done(manifest) == job.games:
        manifest["status"] = "complete"
    write_json(run_dir / MANIFEST, manifest, fixed)
    return part.stop - part.start


def _record_kill(run_dir: Path, manifest: dict[str, Any], exc: ChunkKills) -> WorkerLost:
    """A game that killed its worker twice is listed under `killed`, so that `--resume`
    records it as failed and plays the rest of its chunk; the error says how to replay it."""
    if exc.game is None:
        return exc
    manifest.setdefault("killed", []).append({"game_id": exc.game, "error": str(exc)})
    manifest["updated"] = now()
    write_json(run_dir / MANIFEST, manifest)
    return WorkerLost(f"{exc}; recorded as failed; replay it: {replay_command(run_dir, exc.game)}")


def _drop_damaged(run_dir: Path, manifest: dict[str, Any]) -> tuple[str, ...]:
    """Resuming a run it owns: a listed part that is missing or damaged is dropped from
    the manifest (with its failures) so that it is played again; an unlisted file named
    like a part is removed (its chunk is played again); any other stray file is refused."""
    found = list(damage(run_dir, manifest))
    names = {d.part for d in found}
    for d in found:
        manifest["failures"] = [
            f for f in manifest["failures"] if not d.start <= f["game_id"] < d.stop
        ]
    manifest["parts"] = [p for p in manifest["parts"] if p["name"] not in names]
    for stray in strays(run_dir, manifest):
        if not PART_FILE.fullmatch(stray.name):
            raise RunError(f"{stray} is not a part of this run; move it out of {run_dir} to resume")
        stray.unlink()
    if found:
        manifest["status"] = "incomplete"
        write_json(run_dir / MANIFEST, manifest)
    return tuple(f"{d.part} ({d.reason})" for d in found)


def resumable(run_dir: Path, manifest: dict[str, Any]) -> None:
    """Turns logged without `actions` cannot be finished with turns that have them: one
    table, one form."""
    if manifest.get("schema_version", 1) < ACTIONS_SINCE and TURNS in tables_of(manifest):
        raise RunError(
            f"{run_dir} was logged by an older sanssim, whose turns lack `actions`; "
            "it cannot be resumed: run it again into a new directory"
        )


def _upgrade(manifest: dict[str, Any]) -> None:
    """A run written by an older sanssim, resumed: its parts in today's form."""
    if manifest.get("schema_version", 1) >= SCHEMA_VERSION:
        return
    for part in manifest["parts"]:
        start, stop = part_span(part, 1)
        part["games"] = [start, stop - 1]
        part["results_rows"] = part["rows"].get("results", 0)
        part["turns_rows"] = part["rows"].get("turns", 0)
    manifest["schema_version"] = SCHEMA_VERSION


def replay_command(run_dir: Path, game_id: int) -> str:
    """A shell command that plays one game of the run again (and fails as it failed)."""
    call = "from sanssim.runner.check import replay_game; "
    call += f"replay_game({json.dumps(str(run_dir.resolve()))}, {game_id})"
    return f"python -c {shlex.quote(call)}"


def _log_failures(run_dir: Path, part: Part) -> None:
    """errors.log keeps what the manifest leaves out: the traceback, a command that
    replays the game (and raises its error again), and what strategies printed."""
    with open(run_dir / ERRORS_LOG, "a", encoding="utf-8") as log:
        for f in part.failures:
            log.write(
                f"[{now()}] {f['kind']} failure: game {f['game_id']} (game_seed {f['game_seed']}), "
                f"seat {f['seat']} ({f['strategy']}), turn {f['turn']}: {f['error']}\n"
                f"  replay: {replay_command(run_dir, f['game_id'])}\n{f['traceback']}\n"
            )
        if part.output:
            log.write(f"[{now()}] output of games {part.start}..{part.stop - 1}:\n{part.output}\n")
