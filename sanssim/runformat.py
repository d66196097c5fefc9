"""The run directory's names and versions (see docs/run-format.md), at the bottom of the
layering: the runner writes them and analysis reads them, so both import them from here."""

from __future__ import annotations

from typing import Any

# 2: a part's `games` is its [first, last] game-id range (1: [first, end)), and parts
# give `results_rows` and `turns_rows`. 3: every turn row ends with its `actions`.
SCHEMA_VERSION = 3
SCHEMA_VERSIONS = (1, 2, 3)  # the versions analysis reads
ACTIONS = "actions"  # the turns column of each turn's choices
ACTIONS_SINCE = 3  # the first version whose turns carry `actions`
MANIFEST = "manifest.json"
INDEX = "index.json"
TUNE = "tune.json"
ERRORS_LOG = "errors.log"
LOCK = ".sanssim.lock"  # pid and host of the process writing the directory
RESULTS, TURNS = "results", "turns"  # the tables, one directory of parts each
TEMP_MARK = ".tmp-"  # in the name of a file (or a report folder) still being written


def part_name(start: int, size: int) -> str:
    """The file stem of the part whose first game is `start`, in chunks of `size`."""
    return f"part-{start // size:05d}"


def part_span(part: dict[str, Any], schema_version: int) -> tuple[int, int]:
    """A part's [start, stop) game ids, whichever manifest version wrote it."""
    first, last = part["games"]
    return first, last + 1 if schema_version >= 2 else last
