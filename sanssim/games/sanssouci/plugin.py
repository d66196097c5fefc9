"""Sanssouci's declaration: options, components, strategies, logs, show and report."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import polars as pl

from sanssim.errors import ConfigError
from sanssim.games.base import ComponentData, GameType, Group, Option, OptionValue
from sanssim.games.sanssouci import log
from sanssim.games.sanssouci.actions import EMPTY
from sanssim.games.sanssouci.components import MAX_TILES_PER_SYMBOL, SYMBOLS, TILE_SETS, Components
from sanssim.games.sanssouci.config import (
    COLUMN_BONUS,
    DEFAULT_TILE_SET,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MIN_TILES_PER_SYMBOL,
    MISSION_POINTS,
    ROW_BONUS,
    GameConfig,
)
from sanssim.games.sanssouci.data import load_components
from sanssim.games.sanssouci.engine import Game, State
from sanssim.games.sanssouci.render import (
    LEGEND,
    display_line,
    position_after,
    render_garden,
    render_state,
)
from sanssim.games.sanssouci.strategies.greedy import GreedyStrategy
from sanssim.games.sanssouci.strategies.heuristic import HeuristicStrategy, TunedHeuristicStrategy
from sanssim.games.sanssouci.view import PlayerView

if TYPE_CHECKING:
    from sanssim.games.sanssouci.core import SanssouciCore

RANDOM_SIDES = "random"
DEFAULT_ROW_POINTS = ",".join(map(str, ROW_BONUS.values()))
DEFAULT_MISSION_POINTS = ",".join(map(str, MISSION_POINTS))
# Options recorded in the manifest only when they differ from the rulebook (the house rules;
# `tiles_per_symbol` only when given, in place of `tile_set`), so that runs without them
# keep their run ids.
HOUSE_RULES = (
    "tiles_per_symbol",
    "row_bonus_points",
    "column_bonus_points",
    "seat_bonus",
    "mission_row_points",
)


def _integers(text: object, count: int, what: str) -> tuple[int, ...]:
    """`count` comma-separated integers, or a one-line ConfigError naming `what` they are."""
    try:
        values = tuple(int(v) for v in str(text).split(","))
    except ValueError:
        values = ()
    if len(values) != count:
        raise ConfigError(f"{what}, got {text!r}")
    return values


def parse_row_points(text: object) -> tuple[int, ...]:
    """`8,7,6,5,4`: the end bonus of a complete row 2, 3, 4, 5 and 6."""
    return _integers(text, len(ROW_BONUS), "row bonus must be 5 integers (rows 2-6) like 8,7,6,5,4")


def parse_mission_points(text: object) -> tuple[int, ...]:
    """`1,2,3,4,5,6`: what a mission pays when its noble ends in row 1, 2, ..., 6."""
    return _integers(
        text, len(MISSION_POINTS), "mission points must be 6 integers (rows 1-6) like 1,2,3,4,5,6"
    )


def parse_garden_sides(policy: object, n_players: int) -> tuple[str, ...] | None:
    """`random`, one side id for every seat, or a comma-separated id per seat."""
    if policy is None or policy == RANDOM_SIDES:
        return None
    if not isinstance(policy, str):
        raise ConfigError(f"garden sides must be 'random' or side ids, got {policy!r}")
    ids = [s.strip() for s in policy.split(",")]
    if len(ids) == 1:
        return tuple(ids) * n_players
    if len(ids) != n_players:
        raise ConfigError(
            f"give one garden side for all seats or one per seat ({n_players}), got {len(ids)}"
        )
    return tuple(ids)


def mission_points(results: pl.LazyFrame, game: Game) -> pl.LazyFrame:
    """One row per mission held: game_id, its symbol (`group`) and its points (`value`, by
    the game's mission table from the row of the noble in the symbol's column)."""
    columns = pl.LazyFrame(
        [
            (side.id, symbol, c)
            for side in game.components.garden_sides
            for c, symbol in enumerate(side.columns)
        ],
        schema={"garden_side": pl.String, "group": pl.String, "col": pl.Int64},
        orient="row",
    )
    paid = dict(enumerate(map(float, game.config.mission_points)))
    row = pl.col("noble_rows").list.get(pl.col("col")).cast(pl.Int64)
    return (
        results.select(
            "game_id", "garden_side", "noble_rows", group=pl.concat_list("mission_a", "mission_b")
        )
        .explode("group")
        .join(columns, on=["garden_side", "group"])
        .select("game_id", "group", value=row.replace_strict(paid, return_dtype=pl.Float64))
    )


def _given(options: Mapping[str, OptionValue], name: str, default: int) -> int:
    value = options.get(name)
    return default if value is None else value  # type: ignore[return-value]


class Sanssouci(GameType):
    name = "sanssouci"
    title = "Sanssouci"
    min_players, max_players = MIN_PLAYERS, MAX_PLAYERS
    options = (
        Option("expansion", bool, False, "play the advanced game (expansion boards)"),
        Option("duplicate_reshuffle", bool, False, "house rule: redraw matching pairs"),
        Option(
            "tile_set",
            str,
            None,
            "printed tiles used; by players: "
            + ", ".join(f"{s} at {n}" for n, s in DEFAULT_TILE_SET.items()),
            TILE_SETS,
            label="tiles",
        ),
        Option(
            "tiles_per_symbol",
            int,
            None,
            f"any tile supply: {MIN_TILES_PER_SYMBOL}-{MAX_TILES_PER_SYMBOL} tiles of each of "
            "the 9 symbols instead of a tile set (not with --tile-set)",
            label="tiles per symbol",
        ),
        Option(
            "garden_sides",
            str,
            RANDOM_SIDES,
            "`random`, one side id for every seat, or one id per seat (`1A,2B,...`)",
            label="sides",
        ),
        Option(
            "row_bonus_points",
            str,
            DEFAULT_ROW_POINTS,
            "house rule: end bonus of a complete row 2,3,4,5,6",
            label="row bonuses",
        ),
        Option(
            "column_bonus_points",
            int,
            COLUMN_BONUS,
            "house rule: end bonus per complete column",
            label="column bonus",
        ),
        Option(
            "seat_bonus",
            int,
            0,
            "seat compensation: seat k starts with k times this many points",
        ),
        Option(
            "mission_row_points",
            str,
            DEFAULT_MISSION_POINTS,
            "house rule: what a mission pays when its noble ends in row 1,2,3,4,5,6 (terrace 0)",
            label="mission points",
        ),
    )
    sources = log.SOURCES
    options_in_results = ("expansion", "duplicate_reshuffle", "tile_set")
    headline_figures = ("missions_rank",)
    view_class = PlayerView
    own_strategies = (GreedyStrategy, HeuristicStrategy, TunedHeuristicStrategy)
    component_data = ComponentData(load_components, Components.from_manifest)
    columns = log.COLUMNS

    def new_game(
        self, n_players: int, options: Mapping[str, OptionValue], components: Components
    ) -> Game:
        config = GameConfig(
            n_players=n_players,
            expansion=bool(options.get("expansion", False)),
            duplicate_reshuffle=bool(options.get("duplicate_reshuffle", False)),
            tile_set=options.get("tile_set"),  # type: ignore[arg-type]
            tiles_per_symbol=options.get("tiles_per_symbol"),  # type: ignore[arg-type]
            garden_sides=parse_garden_sides(options.get("garden_sides"), n_players),
            row_bonus_points=parse_row_points(
                options.get("row_bonus_points") or DEFAULT_ROW_POINTS
            ),
            column_bonus_points=_given(options, "column_bonus_points", COLUMN_BONUS),
            seat_bonus=_given(options, "seat_bonus", 0),
            mission_row_points=parse_mission_points(
                options.get("mission_row_points") or DEFAULT_MISSION_POINTS
            ),
        )
        return Game(config, components)

    def config_options(
        self, n_players: int, options: Mapping[str, OptionValue], components: Components
    ) -> dict[str, Any]:
        config = self.new_game(n_players, options, components).config
        sides = config.garden_sides
        supply = (
            {"tile_set": config.resolved_tile_set}
            if config.tiles_per_symbol is None
            else {"tiles_per_symbol": config.tiles_per_symbol}
        )
        recorded = {
            "expansion": config.expansion,
            "duplicate_reshuffle": config.duplicate_reshuffle,
            **supply,
            "garden_sides": RANDOM_SIDES if sides is None else list(sides),
        }
        house = {
            "row_bonus_points": ",".join(map(str, config.row_bonus_points)),
            "column_bonus_points": config.column_bonus_points,
            "seat_bonus": config.seat_bonus,
            "mission_row_points": ",".join(map(str, config.mission_row_points)),
        }
        return recorded | {k: v for k, v in house.items() if v != self.option(k).default}

    def options_from_config(self, config: Mapping[str, Any]) -> dict[str, OptionValue]:
        options = super().options_from_config(config)
        for name in HOUSE_RULES:
            options.setdefault(name, self.option(name).default)
        sides = options.get("garden_sides")
        if isinstance(sides, list):
            options["garden_sides"] = ",".join(sides)
        return options

    def core(self) -> SanssouciCore:
        from sanssim.games.sanssouci.core import SanssouciCore

        return SanssouciCore()

    def legend(self, final: State) -> list[str]:
        """The symbols, the rules played and each seat's garden side, expansion side and
        missions."""
        config, comps = final.game.config, final.game.components
        on = {True: "on", False: "off"}
        lines = [
            "legend: " + LEGEND,
            f"{config.n_players} players, tile set {config.resolved_tile_set}, expansion "
            f"{on[config.expansion]}, duplicate reshuffle {on[config.duplicate_reshuffle]}",
        ]
        for seat in range(final.n):
            exp = final.exp_side[seat]
            lines.append(
                f"seat {seat}: garden {comps.garden_sides[final.setup[seat].garden].id}  "
                f"expansion {'-' if exp == EMPTY else comps.expansion_sides[exp].id}  "
                f"missions {', '.join(SYMBOLS[m] for m in final.missions[seat])}"
            )
        return lines

    def turn_line(self, row: Mapping[str, Any]) -> str:
        """The card played, the tile taken and placed, the noble moved; then the display
        the turn started from."""
        card = row["card"] + (" (as joker)" if row["card_wild"] else "")
        if row["slot"] is None:
            take = "no tile to take (card discarded)"
        else:
            where = f"row {row['placed_row']} col {row['placed_col']}"
            placed = f"gardener to {where}" if row["gardener"] else f"to {where}"
            take = f"takes {row['tile']} from slot {row['slot']}, {placed}"
            if row["expansion_points"]:
                take += f" ({row['expansion_points']:+d} expansion)"
        noble = "no noble moves"
        if row["noble_col"] is not None:
            noble = (
                f"noble of col {row['noble_col']} row {row['noble_from']} -> {row['noble_to']} "
                f"(+{row['noble_points']})"
            )
        return (
            f"turn {row['turn']} (round {row['round']}) seat {row['seat']} plays {card}: "
            f"{take}; {noble}; score {row['score']}\n"
            f"display before: {display_line(row['display'])}"
        )

    def position(self, state: State, rows: list[dict[str, Any]], index: int) -> State:
        return position_after(state, rows, index)

    def picture(self, state: State, seats: Sequence[int]) -> str:
        return "\n".join(
            f"seat {s} after turn {state.turn - 1}: score {state.score[s]}\n"
            + render_garden(state, s)
            for s in seats
        )

    def final_picture(self, state: State) -> str:
        return render_state(state)

    def score_line(self, row: Mapping[str, Any]) -> str:
        points = row.get("handicap_points")  # older runs lack the column
        handicap = f", handicap {points}" if points else ""
        return (
            f"  seat {row['seat']}: {row['total']} (nobles {row['noble_points']}, expansion "
            f"{row['expansion_points']}, rows {row['row_bonus']}, columns {row['column_bonus']}, "
            f"missions {row['mission_points']}{handicap}), {row['gardeners']} gardeners, "
            f"rank {row['rank']}"
        )

    def position_lines(self, view: PlayerView) -> list[str]:
        comps = view.game.components
        hand = ", ".join(comps.deck[c].code for c in view.hand)
        missions = ", ".join(SYMBOLS[m] for m in view.missions)
        return [
            f"seat {view.seat} holds {hand}; missions {missions}; score {view.score(view.seat)}",
            view.picture(),
        ]

    def groups(self) -> dict[str, Group]:
        return {
            "mission": Group(
                "points of a mission card held, grouped by its symbol (by the row of the "
                "noble in that symbol's column at the end)",
                mission_points,
            )
        }

    def report_sections(self) -> tuple:
        from sanssim.games.sanssouci import balance, flow, missions, tiles

        return (missions.build, balance.build, tiles.build, flow.build)


GAME = Sanssouci()
