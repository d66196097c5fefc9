"""JSON files written whole: a reader sees the old file or the new one, never a part.

The run directory's manifest, index and tune files are rewritten after every part, so
each is written under a temporary name and renamed into place.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sanssim.runformat import TEMP_MARK
from sanssim.runner.config import RunError

# Manifest fields that playing never changes (their text is encoded once per `run_batch`).
UNCHANGING = ("config", "components")


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def write_atomic(path: Path, data: bytes) -> None:
    """Readers see either no file or the whole file, never a partial one."""
    temp = path.with_name(f".{path.name}{TEMP_MARK}{os.getpid()}")
    try:
        temp.write_bytes(data)
        os.replace(temp, path)
    except BaseException:  # a full disk or an interrupt: leave no half-written file
        with contextlib.suppress(OSError):
            temp.unlink(missing_ok=True)
        raise


def write_json(path: Path, data: dict[str, Any], fixed: Mapping[str, str] | None = None) -> None:
    """`data` as indented JSON; `fixed`: the `json_value` texts of some of its top-level
    values, which never change while a run writes its manifest after every part (the
    component data are most of a manifest's bytes), so are not encoded again."""
    if not fixed or not data:
        write_atomic(path, (json.dumps(data, indent=2) + "\n").encode())
        return
    items = (
        f"  {json.dumps(key)}: {fixed[key] if key in fixed else json_value(value)}"
        for key, value in data.items()
    )
    write_atomic(path, ("{\n" + ",\n".join(items) + "\n}\n").encode())


def json_value(value: Any) -> str:
    """A top-level value of `write_json`'s file as `json.dumps(..., indent=2)` writes it
    there, one level in (JSON strings hold no raw newline)."""
    return json.dumps(value, indent=2).replace("\n", "\n  ")


@functools.lru_cache(maxsize=64)
def _indented(compact: str) -> str:
    """`json_value` of the value whose compact JSON is `compact`, remembered by that text."""
    return json_value(json.loads(compact))


def unchanging_texts(manifest: dict[str, Any]) -> dict[str, str]:
    """`write_json`'s `fixed` for a manifest: the indented texts of its UNCHANGING values,
    remembered by their compact JSON (which the C encoder writes several times faster),
    since a tune's many small arms share their component data."""
    return {key: _indented(json.dumps(manifest[key])) for key in UNCHANGING if key in manifest}


def read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RunError(f"cannot read {path}: {exc}") from None
    if not isinstance(data, dict):
        raise RunError(f"{path} is not a sanssim manifest")
    return data
