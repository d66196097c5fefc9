"""The rule parameters of a Splendor game (`GameConfig`, rules section 6) and the checks
that refuse a design the rules do not allow. Apart from the engine because the plug-in's
options and the report read them without playing a game.
"""

from __future__ import annotations

from dataclasses import dataclass

from sanssim.errors import ConfigError
from sanssim.games.splendor.actions import N_GEMS, TAKE_DIFF_GEMS, TOKEN_LIMIT
from sanssim.games.splendor.components import Components

MIN_PLAYERS, MAX_PLAYERS = 2, 4
DEFAULT_GEMS = {2: 4, 3: 5, 4: 7}


@dataclass(frozen=True, slots=True)
class GameConfig:
    """The rule parameters of rules section 6; None means the player-count default."""

    n_players: int = 2
    target_points: int = 15
    gem_tokens: int | None = None
    gold_tokens: int = 5
    nobles: int | None = None
    max_rounds: int = 100
    later_seat_gold: int = 0  # seat compensation: gold each seat after the first starts with
    later_seat_gems: int = 0  # and gem tokens, one of each colour from the first on
    ties_to_later_seat: bool = False  # seat compensation: a tie on points goes to the later seat
    first_turn_gems: int = TAKE_DIFF_GEMS  # seat compensation: gems seat 0's first take takes
    later_seat_limit: int = 0  # and tokens each later seat may hold beyond the 10-token limit

    @property
    def resolved_gem_tokens(self) -> int:
        return self.gem_tokens if self.gem_tokens is not None else DEFAULT_GEMS[self.n_players]

    @property
    def resolved_nobles(self) -> int:
        return self.nobles if self.nobles is not None else self.n_players + 1

    def validate(self, components: Components) -> None:
        n = self.n_players
        if not _is_int(n) or not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise ConfigError(f"player count must be 2, 3 or 4, got {n!r}")
        # upper bounds keep every logged count inside its column type (int8 / int16)
        _check_range("target_points", self.target_points, 1, 32767)
        _check_range("gold_tokens", self.gold_tokens, 0, 127)
        _check_range("max_rounds", self.max_rounds, 1, 32767 // n)
        if self.gem_tokens is not None:
            _check_range("gem_tokens", self.gem_tokens, 1, 127)
        limit = min(10, len(components.nobles))
        if self.nobles is not None:
            _check_range("nobles", self.nobles, 1, limit)
        elif n + 1 > limit:
            raise ConfigError(f"{n} players need {n + 1} nobles, the components have {limit}")
        _check_range("later_seat_gold", self.later_seat_gold, 0, 127)
        _check_range("later_seat_gems", self.later_seat_gems, 0, N_GEMS)
        _check_range("first_turn_gems", self.first_turn_gems, 1, TAKE_DIFF_GEMS)
        _check_range("later_seat_limit", self.later_seat_limit, 0, TOKEN_LIMIT)
        if not isinstance(self.ties_to_later_seat, bool):
            raise ConfigError(
                f"ties_to_later_seat must be true or false, got {self.ties_to_later_seat!r}"
            )
        if self.later_seat_gems and self.resolved_gem_tokens < n - 1:
            raise ConfigError(
                f"later_seat_gems for {n - 1} later seats needs {n - 1} tokens per colour, "
                f"there are {self.resolved_gem_tokens}"
            )
        if (n - 1) * self.later_seat_gold > self.gold_tokens:
            raise ConfigError(
                f"later_seat_gold {self.later_seat_gold} for {n - 1} later seats needs "
                f"{(n - 1) * self.later_seat_gold} gold tokens, there are {self.gold_tokens}"
            )

    def variants(self) -> dict[str, int | None]:
        """The manifest's `variants`: the rule parameters, defaults left as null; the seat
        compensation only when given, so that runs without it keep their run ids."""
        variants = {
            "target_points": self.target_points,
            "gem_tokens": self.gem_tokens,
            "gold_tokens": self.gold_tokens,
            "nobles": self.nobles,
            "max_rounds": self.max_rounds,
        }
        for name in (
            "later_seat_gold",
            "later_seat_gems",
            "ties_to_later_seat",
            "later_seat_limit",
        ):
            if getattr(self, name):
                variants[name] = getattr(self, name)
        if self.first_turn_gems != TAKE_DIFF_GEMS:
            variants["first_turn_gems"] = self.first_turn_gems
        return variants


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_range(name: str, value: object, low: int, high: int) -> None:
    if not _is_int(value) or not low <= value <= high:  # type: ignore[operator]
        raise ConfigError(f"{name} must be an integer {low}-{high}, got {value!r}")
