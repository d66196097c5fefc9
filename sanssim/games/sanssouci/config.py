"""What a Sanssouci game is played with (`GameConfig`): player count, variants, the tile
supply, garden sides and the house rules for tuning, and the checks that refuse a design
the rules do not allow. Apart from the engine because the plug-in's options and the
tile tables read it without playing a game.
"""

from __future__ import annotations

from dataclasses import dataclass

from sanssim.errors import ComponentError, ConfigError
from sanssim.games.sanssouci.actions import N_SLOTS
from sanssim.games.sanssouci.components import (
    MAX_TILES_PER_SYMBOL,
    N_ROWS,
    SYMBOLS,
    TILE_SETS,
    Components,
)

ROW_BONUS = {2: 8, 3: 7, 4: 6, 5: 5, 6: 4}
COLUMN_BONUS = 5
BONUS_ROWS = tuple(ROW_BONUS)
MISSION_POINTS = tuple(range(1, N_ROWS + 1))  # a mission pays its noble's row 1-6
MIN_PLAYERS, MAX_PLAYERS = 2, 4
DEFAULT_TILE_SET = {2: "II", 3: "II+III", 4: "II+III+IV"}
# `tiles_per_symbol` bounds: 2 per symbol (18 tiles) still fills the 10-slot display.
MIN_TILES_PER_SYMBOL = 2


@dataclass(frozen=True, slots=True)
class GameConfig:
    """What a game is played with. `garden_sides`: None deals random distinct
    boards on a random side; one id puts every seat on that side; n ids give
    each seat its own."""

    n_players: int = 2
    expansion: bool = False
    duplicate_reshuffle: bool = False
    tile_set: str | None = None
    # Any tile supply: this many tiles of each symbol instead of a printed tile set.
    tiles_per_symbol: int | None = None
    garden_sides: tuple[str, ...] | None = None
    # House rules for tuning; the defaults are the rulebook's.
    row_bonus_points: tuple[int, ...] = tuple(ROW_BONUS.values())  # rows 2-6
    column_bonus_points: int = COLUMN_BONUS
    seat_bonus: int = 0  # seat k starts with k * seat_bonus points
    mission_row_points: tuple[int, ...] = MISSION_POINTS  # noble in row 1-6 (terrace: 0)

    @property
    def row_points(self) -> dict[int, int]:
        """End bonus by garden row (2-6) for a complete row."""
        return dict(zip(BONUS_ROWS, self.row_bonus_points, strict=True))

    @property
    def mission_points(self) -> tuple[int, ...]:
        """Points a mission pays by its noble's row, 0 (the terrace) to 6."""
        return (0, *self.mission_row_points)

    @property
    def resolved_tile_set(self) -> str:
        """The printed set in play (`II+III`), or `N per symbol` for a `tiles_per_symbol`
        supply."""
        if self.tiles_per_symbol is not None:
            return f"{self.tiles_per_symbol} per symbol"
        return self.tile_set or DEFAULT_TILE_SET.get(self.n_players, "II")

    def per_symbol(self, components: Components) -> int:
        """Tiles of each symbol in the supply."""
        if self.tiles_per_symbol is not None:
            return self.tiles_per_symbol
        return components.tiles_per_symbol(self.resolved_tile_set)

    def validate(self, components: Components) -> None:
        n = self.n_players
        if not isinstance(n, int) or isinstance(n, bool) or not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise ConfigError(f"player count must be 2, 3 or 4, got {n!r}")
        if self.tile_set is not None and self.tile_set not in TILE_SETS:
            raise ConfigError(
                f"tile set must be one of {', '.join(TILE_SETS)}, got {self.tile_set!r}"
            )
        per = self.tiles_per_symbol
        if per is not None:
            if self.tile_set is not None:
                raise ConfigError("give a tile set or tiles per symbol, not both")
            if (
                not isinstance(per, int)
                or isinstance(per, bool)
                or not (MIN_TILES_PER_SYMBOL <= per <= MAX_TILES_PER_SYMBOL)
            ):
                raise ConfigError(
                    f"tiles per symbol must be an integer {MIN_TILES_PER_SYMBOL}-"
                    f"{MAX_TILES_PER_SYMBOL}, got {per!r}"
                )
        if isinstance(self.garden_sides, str):
            raise ConfigError(
                f"garden sides must be a tuple of side ids, got {self.garden_sides!r}"
            )
        if self.garden_sides is not None:
            if len(self.garden_sides) not in (1, n):
                raise ConfigError(
                    f"give one garden side for all seats or one per seat ({n}), "
                    f"got {len(self.garden_sides)}"
                )
            for side_id in self.garden_sides:
                try:
                    components.garden_side(side_id)
                except ComponentError as exc:
                    raise ConfigError(str(exc)) from None
        boards = len({s.board for s in components.garden_sides})
        if self.garden_sides is None and boards < n:
            raise ConfigError(f"{n} players need {n} garden boards, the components have {boards}")
        if self.expansion and len({e.board for e in components.expansion_sides}) < n:
            raise ConfigError(f"{n} players need {n} expansion boards")
        bonuses = self.row_bonus_points
        if (
            not isinstance(bonuses, tuple)
            or len(bonuses) != len(BONUS_ROWS)
            or not all(_is_points(v) for v in bonuses)
        ):
            raise ConfigError(f"row bonus must be 5 integers 0-100 (rows 2-6), got {bonuses!r}")
        if not _is_points(self.column_bonus_points):
            raise ConfigError(
                f"column bonus must be an integer 0-100, got {self.column_bonus_points!r}"
            )
        if not _is_points(self.seat_bonus):
            raise ConfigError(f"seat bonus must be an integer 0-100, got {self.seat_bonus!r}")
        missions = self.mission_row_points
        if (
            not isinstance(missions, tuple)
            or len(missions) != N_ROWS
            or not all(_is_points(v) for v in missions)
        ):
            raise ConfigError(
                f"mission points must be 6 integers 0-100 (rows 1-6), got {missions!r}"
            )
        tiles = self.per_symbol(components) * len(SYMBOLS)
        if tiles < N_SLOTS:
            raise ConfigError(f"tile set {self.resolved_tile_set} has only {tiles} tiles")


def _is_points(value: object) -> bool:
    """A bonus: an integer small enough for the int16 score columns."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 100
