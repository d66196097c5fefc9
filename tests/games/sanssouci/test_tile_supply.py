"""Any tile supply (`tiles_per_symbol`): the supply it builds, its checks, how a run records
it, and the tile-count report section's measures of what fewer tiles change."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from sanssim.analysis.report import write_report
from sanssim.analysis.section import MAX_FINDINGS
from sanssim.cli import main
from sanssim.errors import ConfigError
from sanssim.games.sanssouci import Game, GameConfig
from sanssim.games.sanssouci.data import default_components
from sanssim.games.sanssouci.plugin import GAME


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("per_symbol", [2, 3, 4, 11])
def test_tiles_per_symbol_builds_that_supply_whatever_the_player_count(n, per_symbol):
    game = Game(GameConfig(n_players=n, tiles_per_symbol=per_symbol, garden_sides=("1A",)))
    assert Counter(game.tiles) == {s: per_symbol for s in range(9)}
    state = game.new_state(seed=n)
    assert Counter(state.display + state.supply) == {s: per_symbol for s in range(9)}
    assert game.config.resolved_tile_set == f"{per_symbol} per symbol"


@pytest.mark.parametrize(
    "config, message",
    [
        (dict(tile_set="II", tiles_per_symbol=3), "not both"),
        (dict(tiles_per_symbol=1), "2-20, got 1"),
        (dict(tiles_per_symbol=21), "2-20, got 21"),
        (dict(tiles_per_symbol=True), "2-20, got True"),
    ],
)
def test_bad_tile_supplies_are_refused(config, message):
    with pytest.raises(ConfigError, match=message):
        Game(GameConfig(n_players=2, **config))


def test_a_short_supply_leaves_a_turn_without_a_tile_for_each_missing_tile():
    """27 tiles for 36 turns: at most 27 are placed, and every other turn takes none."""
    game = Game(GameConfig(n_players=2, tiles_per_symbol=3, garden_sides=("1A",)))
    state = game.new_state(seed=5, record=True)
    rng = random.Random(5)
    while state.legal:
        state.apply_action(rng.choice(state.legal))
    takes = [rec.slot != -1 for rec in state.log]
    assert len(takes) == 36 and sum(takes) <= 27
    assert sum(state.occupied[p].bit_count() - 15 for p in range(2)) == sum(takes)


def test_the_manifest_records_tiles_per_symbol_only_when_given():
    comps = default_components()
    plain = GAME.config_options(2, {}, comps)
    assert plain["tile_set"] == "II" and "tiles_per_symbol" not in plain
    given = GAME.config_options(2, {"tiles_per_symbol": 3}, comps)
    assert given["tiles_per_symbol"] == 3 and "tile_set" not in given
    options = GAME.options_from_config(given)
    assert (
        GAME.new_game(2, options, comps).tiles
        == Game(GameConfig(n_players=2, tiles_per_symbol=3), comps).tiles
    )


def test_cli_refuses_both_supplies_in_one_line_and_help_names_the_defaults(tmp_path: Path):
    out = tmp_path / "run"
    args = ["run", "--players", "2", "--games", "2", "--tile-set", "II", "--out", str(out)]
    result = CliRunner().invoke(main, [*args, "--tiles-per-symbol", "3"])
    assert result.exit_code == 2 and not out.exists()
    assert result.output.strip().count("\n") == 0 and "not both" in result.output
    text = " ".join(CliRunner().invoke(main, ["run", "--help"]).output.split())
    assert "by players: II at 2, II+III at 3, II+III+IV at 4" in text
    assert "--tiles-per-symbol" in text


@pytest.fixture(scope="module")
def short(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The rules' 45 tiles against 27 and 63 at 2 players, on the same deals."""
    root = tmp_path_factory.mktemp("short")
    (root / "x.toml").write_text(
        'games = 24\nseed = 3\nstrategy = "greedy"\n'
        '[[arm]]\nname = "base"\nplayers = 2\n'
        '[[arm]]\nname = "short"\nplayers = 2\ntiles_per_symbol = 3\n'
        '[[arm]]\nname = "more"\nplayers = 2\ntile_set = "II+III"\n'
    )
    out = root / "run"
    args = ["run", "--config", str(root / "x.toml"), "--out", str(out), "--workers", "1"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    return out


def test_tile_section_counts_the_turns_without_a_tile_from_the_log(short: Path, tmp_path: Path):
    write_report([short], tmp_path / "r", ["sanssim", "report"])
    md = (tmp_path / "r" / "report.md").read_text()
    section = md.split("## Tile count against player count")[1].split("\n## ")[0]
    turns = pl.read_parquet(short / "short" / "turns" / "*.parquet")
    per_game = turns.group_by("game_id").agg(pl.col("slot").is_null().sum())["slot"]
    row = next(r for r in section.splitlines() if r.startswith("| short |"))
    cells = row.split(" | ")
    assert cells[2:4] == ["27 (3 each)", "24"]
    if per_game.n_unique() == 1:
        assert cells[4] == f"{per_game[0]} in every game"
    else:
        assert cells[4].startswith(f"{per_game.mean():.2f} [")
    base = next(r for r in section.splitlines() if r.startswith("| base |"))
    assert base.split(" | ")[4] == "0 in every game"
    assert "36 at 2 players): the rules fix the length" in section
    assert "| base | 24 of 24 | 36 in every game | 18 in every game |" in md  # game length
    assert "| 2 players: 45 → 27 tiles | paired |" in section
    assert (tmp_path / "r" / "tile_count.png").is_file()


def test_tile_section_is_left_out_without_tile_arms(short: Path, tmp_path: Path):
    write_report([short / "base"], tmp_path / "r", ["sanssim", "report"])
    md = (tmp_path / "r" / "report.md").read_text()
    assert "## Tile count" not in md and not (tmp_path / "r" / "tile_count.png").exists()


def test_the_key_findings_open_with_the_largest_established_effect(short: Path, tmp_path: Path):
    """Issue 19: 27 tiles cost about 30 points a player, 63 tiles change little; the answers
    rank by size, so the first screen leads with fewer tiles, and the body repeats no finding."""
    write_report([short], tmp_path / "r", ["sanssim", "report"])
    md = (tmp_path / "r" / "report.md").read_text()
    key = md.split("## Key findings\n\n")[1].split("\n\n")[0].splitlines()
    assert len(key) <= MAX_FINDINGS
    first = next(i for i, line in enumerate(key) if "45 → 27 tiles" in line or "→ 3 per" in line)
    more = next(i for i, line in enumerate(key) if "tiles II → II+III (" in line)
    assert first == 0 and more > first
    assert key[0].startswith("- Fewer tiles, 2 players: 45 → 27 tiles") or "3 per symbol" in key[0]
    body = md.split("## Key findings")[1].split("\n\n", 2)[2].split("## Arms compared")[0]
    bullets = [line for line in body.splitlines() if line.startswith("- ")]
    repeated = {line for line in bullets if bullets.count(line) > 1}
    assert not repeated
