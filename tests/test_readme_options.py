"""The README's table of games names exactly the options each game declares.

Read at test time (other changes add README lines): the row whose `--game` cell is a
game's name must list every flag of that game's options, and no other.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sanssim.games import game_names, get_game

README = Path(__file__).resolve().parents[1] / "README.md"
_FLAG = re.compile(r"`(--[a-z0-9-]+)`")


def readme_flags(text: str) -> dict[str, set[str]]:
    """Game name -> the flags in the options cell of its row of the games table."""
    found: dict[str, set[str]] = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or not cells[1].startswith("`"):
            continue
        name = cells[1].split("`")[1]
        found[name] = set(_FLAG.findall(cells[3]))
    return found


@pytest.mark.parametrize("game", game_names())
def test_readme_lists_each_games_declared_options(game: str) -> None:
    declared = {o.flag for o in get_game(game).options}
    listed = readme_flags(README.read_text(encoding="utf-8"))
    assert game in listed, f"README's games table has no row for {game}"
    assert listed[game] == declared, (
        f"README omits {sorted(declared - listed[game])}, "
        f"lists undeclared {sorted(listed[game] - declared)}"
    )


def test_a_missing_flag_is_caught() -> None:
    row = "| **Splendor** | `splendor` | [x](x) | `--target-points`; seat `--later-seat-gold` |"
    assert readme_flags(row) == {"splendor": {"--target-points", "--later-seat-gold"}}
