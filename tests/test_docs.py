"""docs/run-format.md documents every column each game logs.

Each game has a section `## <Game>` with subsections `### results ...` and
`### turns ...`; a column counts as documented when it appears backquoted in the
first cell of a table row there. To cover another game, add it to `SCHEMAS`.
"""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl
import pytest

from sanssim.games.sanssouci.plugin import GAME as SANSSOUCI
from sanssim.games.seikatsu.plugin import GAME as SEIKATSU
from sanssim.games.splendor.plugin import GAME as SPLENDOR

RUN_FORMAT = Path(__file__).resolve().parents[1] / "docs" / "run-format.md"

Schema = dict[str, pl.DataType]

# game section title -> (results schema, turns schema)
SCHEMAS: dict[str, tuple[Schema, Schema]] = {
    "Sanssouci": (SANSSOUCI.result_schema, SANSSOUCI.turn_schema),
    "Seikatsu": (SEIKATSU.result_schema, SEIKATSU.turn_schema),
    "Splendor": (SPLENDOR.result_schema, SPLENDOR.turn_schema),
}
TABLES = ("results", "turns")

_BACKQUOTED = re.compile(r"`([^`]+)`")
_SEPARATOR = re.compile(r"^\|[\s:|-]+\|$")


def _section(lines: list[str], level: int, title: str) -> list[str]:
    """The lines under the heading of this level whose title starts with `title`,
    up to the next heading of the same or a higher level."""
    marks = "#" * level
    inside = fenced = False
    found: list[str] = []
    for line in lines:
        if line.startswith("```"):
            fenced = not fenced
        heading = None if fenced else re.match(r"^(#+)\s+(.*)$", line)
        if heading and len(heading.group(1)) <= level:
            if inside:
                break
            inside = heading.group(1) == marks and heading.group(2).startswith(title)
            continue
        if inside:
            found.append(line)
    return found


def _table_names(lines: list[str]) -> set[str]:
    """Backquoted names in the first cell of each table row (header and separator skipped)."""
    names: set[str] = set()
    rows = [line.strip() for line in lines if line.strip().startswith("|")]
    for i, row in enumerate(rows):
        if _SEPARATOR.match(row) or (i + 1 < len(rows) and _SEPARATOR.match(rows[i + 1])):
            continue
        first_cell = row.strip("|").split("|")[0]
        names.update(_BACKQUOTED.findall(first_cell))
    return names


def documented_columns(markdown: str, game: str) -> dict[str, set[str]]:
    """Per table, the columns the game's section of the run format documents."""
    game_lines = _section(markdown.splitlines(), 2, game)
    return {table: _table_names(_section(game_lines, 3, table)) for table in TABLES}


def missing_columns(
    markdown: str, game: str, results: Schema, turns: Schema
) -> dict[str, list[str]]:
    """Per table, the logged columns the game's section does not document."""
    documented = documented_columns(markdown, game)
    logged = dict(zip(TABLES, (results, turns), strict=True))
    return {table: [c for c in logged[table] if c not in documented[table]] for table in TABLES}


@pytest.fixture(scope="module")
def run_format() -> str:
    return RUN_FORMAT.read_text(encoding="utf-8")


@pytest.mark.parametrize("game", sorted(SCHEMAS))
def test_every_logged_column_is_documented(run_format: str, game: str) -> None:
    results, turns = SCHEMAS[game]
    assert missing_columns(run_format, game, results, turns) == {"results": [], "turns": []}


@pytest.mark.parametrize("game", sorted(SCHEMAS))
def test_a_made_up_column_is_reported_missing(run_format: str, game: str) -> None:
    results, turns = SCHEMAS[game]
    made_up = {**results, "made_up_column": pl.Int8()}
    also_made_up = {**turns, "another_made_up_column": pl.String()}
    assert missing_columns(run_format, game, made_up, also_made_up) == {
        "results": ["made_up_column"],
        "turns": ["another_made_up_column"],
    }


def test_columns_count_only_in_their_own_game_and_table() -> None:
    markdown = "\n".join(
        [
            "# Run format",
            "| column | type | meaning |",
            "|---|---|---|",
            "| `top_level` | str | outside any game |",
            "## Alpha",
            "### results: one row per seat",
            "| column | type | meaning |",
            "|---|---|---|",
            "| `score` | int16 | see also `mentioned` |",
            "A prose mention of `prose_only` is not a table row.",
            "```python",
            "# a comment in a code block is not a heading",
            "```",
            "### turns",
            "| `turn` | int16 | |",
            "## Beta",
            "### results",
            "| column | type | meaning |",
            "|---|---|---|",
            "| `beta_only` | str | |",
        ]
    )
    assert documented_columns(markdown, "Alpha") == {"results": {"score"}, "turns": {"turn"}}
    schema: Schema = {name: pl.Int8() for name in ("score", "mentioned", "prose_only", "beta_only")}
    assert missing_columns(markdown, "Alpha", schema, {"turn": pl.Int16()}) == {
        "results": ["mentioned", "prose_only", "beta_only"],
        "turns": [],
    }
    assert missing_columns(markdown, "Gamma", {"score": pl.Int8()}, {}) == {
        "results": ["score"],
        "turns": [],
    }
