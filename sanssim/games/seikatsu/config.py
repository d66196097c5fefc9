"""What a Seikatsu game is played with, checked against the component data."""

from __future__ import annotations

from dataclasses import dataclass

from sanssim.errors import ConfigError
from sanssim.games.seikatsu.components import TIE_BREAKS, Components


@dataclass(frozen=True, slots=True)
class GameConfig:
    """What a game is played with: the player count and the tournament variant. House
    rules for tuning: `set_points` and `tie_break` override the component data's."""

    n_players: int = 2
    tournament: bool = False
    set_points: tuple[int, ...] | None = None
    tie_break: str | None = None

    def validate(self, components: Components) -> None:
        n = self.n_players
        counts = components.player_counts
        if not isinstance(n, int) or isinstance(n, bool) or n not in counts:
            raise ConfigError(
                f"player count must be one of {', '.join(map(str, counts))}, got {n!r}"
            )
        if not isinstance(self.tournament, bool):
            raise ConfigError(f"tournament must be true or false, got {self.tournament!r}")
        table = self.set_points
        size = len(components.set_points)
        if table is not None and (
            not isinstance(table, tuple)
            or len(table) != size
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in table)
            or not all(0 <= v <= 1000 for v in table)
        ):
            raise ConfigError(
                f"set points must be {size} integers 0-1000 (sets of 0..{size - 1}), got {table!r}"
            )
        if self.tie_break is not None and self.tie_break not in TIE_BREAKS:
            raise ConfigError(
                f"tie break must be one of {', '.join(TIE_BREAKS)}, got {self.tie_break!r}"
            )
