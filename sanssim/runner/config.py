"""What a batch runs: one arm's resolved configuration, and experiments of several arms.

Everything here is validated before anything is written, so a mistake in a
command or an experiment file costs nothing but a one-line message.
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from sanssim.games.sanssouci import Components, ConfigError, Game, GameConfig, SanssimError
from sanssim.games.sanssouci.data import load_components
from sanssim.games.sanssouci.engine import MAX_PLAYERS, MIN_PLAYERS
from sanssim.strategies import StrategySpec, resolve

DEFAULT_STRATEGY = "heuristic"
DEFAULT_PLAYERS = (2, 3, 4)
DEFAULT_GAMES = 1000
DEFAULT_SEED = 1
RANDOM_SIDES = "random"
ARM_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


class RunError(SanssimError):
    """A run that cannot start: bad options, bad experiment file, unusable output directory."""


@dataclass(frozen=True)
class RunConfig:
    """One arm: a player count, how many games from which master seed, who plays, which rules.

    `strategies` holds one canonical spec per seat; `garden_sides` None deals
    random sides, otherwise one id per seat.
    """

    n_players: int
    games: int = DEFAULT_GAMES
    seed: int = DEFAULT_SEED
    strategies: tuple[str, ...] = ()
    expansion: bool = False
    duplicate_reshuffle: bool = False
    tile_set: str | None = None
    garden_sides: tuple[str, ...] | None = None
    turn_log: bool = True
    components: Components = field(default=None, compare=False, repr=False)  # type: ignore[assignment]

    @property
    def game_config(self) -> GameConfig:
        return GameConfig(
            n_players=self.n_players,
            expansion=self.expansion,
            duplicate_reshuffle=self.duplicate_reshuffle,
            tile_set=self.tile_set,
            garden_sides=self.garden_sides,
        )

    def game(self) -> Game:
        return Game(self.game_config, self.components)

    def specs(self) -> list[StrategySpec]:
        return [resolve(text) for text in self.strategies]

    def to_dict(self) -> dict[str, Any]:
        """The canonical form stored in the manifest and compared on resume."""
        return {
            "n_players": self.n_players,
            "games": self.games,
            "seed": self.seed,
            "strategies": [spec.to_dict() for spec in self.specs()],
            "expansion": self.expansion,
            "duplicate_reshuffle": self.duplicate_reshuffle,
            "tile_set": self.game_config.resolved_tile_set,
            "garden_sides": RANDOM_SIDES if self.garden_sides is None else list(self.garden_sides),
            "turn_log": self.turn_log,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], components: Components) -> RunConfig:
        """Rebuild from a manifest's `config` (and its component data)."""
        try:
            sides = data["garden_sides"]
            return build_config(
                n_players=data["n_players"],
                games=data["games"],
                seed=data["seed"],
                strategies=[s["spec"] for s in data["strategies"]],
                expansion=data["expansion"],
                duplicate_reshuffle=data["duplicate_reshuffle"],
                tile_set=data["tile_set"],
                garden_sides=None if sides == RANDOM_SIDES else ",".join(sides),
                turn_log=data["turn_log"],
                components=components,
            )
        except (KeyError, TypeError) as exc:
            raise RunError(f"manifest config is incomplete: {exc!r}") from None

    def fingerprint(self) -> str:
        """A short id that changes whenever anything that shapes the output changes."""
        text = json.dumps(
            {"config": self.to_dict(), "components": self.components.to_dict()}, sort_keys=True
        )
        return hashlib.sha256(text.encode()).hexdigest()[:12]


@dataclass(frozen=True)
class Arm:
    """A named configuration; `name` None means the run directory is the output itself."""

    name: str | None
    config: RunConfig


def build_config(
    *,
    n_players: int,
    games: int = DEFAULT_GAMES,
    seed: int = DEFAULT_SEED,
    strategies: Sequence[str] = (DEFAULT_STRATEGY,),
    expansion: bool = False,
    duplicate_reshuffle: bool = False,
    tile_set: str | None = None,
    garden_sides: str | None = None,
    turn_log: bool = True,
    components: Components | None = None,
) -> RunConfig:
    """Validate every field and resolve every strategy; raises SanssimError subclasses."""
    for name, value in (("games", games), ("seed", seed), ("player count", n_players)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise RunError(f"{name} must be an integer, got {value!r}")
    if not MIN_PLAYERS <= n_players <= MAX_PLAYERS:
        raise ConfigError(f"player count must be 2, 3 or 4, got {n_players}")
    if games < 1:
        raise RunError(f"games must be at least 1, got {games}")
    if seed < 0:
        raise RunError(f"seed must be 0 or more, got {seed}")
    for name, value in (
        ("expansion", expansion),
        ("duplicate_reshuffle", duplicate_reshuffle),
        ("turn_log", turn_log),
    ):
        if not isinstance(value, bool):
            raise RunError(f"{name} must be true or false, got {value!r}")
    if tile_set is not None and not isinstance(tile_set, str):
        raise RunError(f"tile set must be a string, got {tile_set!r}")
    if isinstance(strategies, str):
        strategies = [strategies]
    if not strategies or not all(isinstance(s, str) for s in strategies):
        raise RunError(f"strategy must be a spec or a list of specs, got {strategies!r}")
    if len(strategies) not in (1, n_players):
        raise RunError(
            f"give one strategy for all seats or one per seat ({n_players}), got {len(strategies)}"
        )
    specs = [resolve(s).text for s in strategies]
    if len(specs) == 1:
        specs *= n_players
    config = RunConfig(
        n_players=n_players,
        games=games,
        seed=seed,
        strategies=tuple(specs),
        expansion=expansion,
        duplicate_reshuffle=duplicate_reshuffle,
        tile_set=tile_set,
        garden_sides=parse_garden_sides(garden_sides, n_players),
        turn_log=turn_log,
        components=components or load_components(),
    )
    config.game_config.validate(config.components)
    return config


def parse_garden_sides(policy: str | None, n_players: int) -> tuple[str, ...] | None:
    """`random`, one side id for every seat, or a comma-separated id per seat."""
    if policy is None or policy == RANDOM_SIDES:
        return None
    if not isinstance(policy, str):
        raise RunError(f"garden sides must be 'random' or side ids, got {policy!r}")
    ids = [s.strip() for s in policy.split(",")]
    if len(ids) == 1:
        return tuple(ids) * n_players
    if len(ids) != n_players:
        raise ConfigError(
            f"give one garden side for all seats or one per seat ({n_players}), got {len(ids)}"
        )
    return tuple(ids)


def parse_players(text: str) -> list[int]:
    """`4` or a sweep such as `2,3,4`."""
    try:
        counts = [int(p) for p in text.split(",")]
    except ValueError:
        raise RunError(
            f"player count must be 2, 3 or 4 (or a list like 2,3,4), got {text!r}"
        ) from None
    if len(set(counts)) != len(counts):
        raise RunError(f"player count listed twice in {text!r}")
    return counts


def sweep(players: Sequence[int], **options: Any) -> list[Arm]:
    """One arm per player count; a single count runs directly into the output directory."""
    arms = [Arm(f"p{n}", build_config(n_players=n, **options)) for n in players]
    if len(arms) == 1:
        return [replace(arms[0], name=None)]
    return arms


EXPERIMENT_KEYS = {
    "players",
    "games",
    "seed",
    "strategy",
    "expansion",
    "duplicate_reshuffle",
    "tile_set",
    "garden_sides",
    "turn_log",
    "components",
}


def load_experiment(path: str | Path) -> list[Arm]:
    """Arms from a TOML file: top-level option keys are defaults, each `[[arm]]` overrides.

    An arm with a list of player counts becomes one arm per count (`name-p3`).
    """
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise RunError(f"cannot read experiment file {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise RunError(f"experiment file {path} is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise RunError(f"{path}: invalid TOML: {exc}") from None
    raw_arms = data.pop("arm", None)
    if not isinstance(raw_arms, list) or not raw_arms:
        raise RunError(f"{path}: no [[arm]] tables")
    _check_keys(path, "top level", data)
    arms: list[Arm] = []
    for i, raw in enumerate(raw_arms):
        if not isinstance(raw, dict):
            raise RunError(f"{path}: arm #{i + 1} must be a table")
        options = dict(raw)
        name = options.pop("name", f"arm{i + 1}")
        if not isinstance(name, str) or not ARM_NAME.match(name):
            raise RunError(f"{path}: arm name {name!r} must be letters, digits, '-', '_' or '.'")
        _check_keys(path, f"arm {name!r}", options)
        arms.extend(_experiment_arms(path, name, {**data, **options}))
    names = [a.name for a in arms]
    for arm_name in names:
        if names.count(arm_name) > 1:
            raise RunError(f"{path}: arm name {arm_name!r} used twice")
    return arms


def _check_keys(path: Path, where: str, options: dict[str, Any]) -> None:
    unknown = sorted(set(options) - EXPERIMENT_KEYS)
    if unknown:
        raise RunError(
            f"{path}: {where}: unknown key {unknown[0]!r} "
            f"(known: name, {', '.join(sorted(EXPERIMENT_KEYS))})"
        )


def _experiment_arms(path: Path, name: str, options: dict[str, Any]) -> list[Arm]:
    players = options.pop("players", list(DEFAULT_PLAYERS))
    counts = players if isinstance(players, list) else [players]
    components = options.pop("components", None)
    if components is not None:
        if not isinstance(components, str):
            raise RunError(f"{path}: arm {name!r}: components must be a file path")
        components = load_components(path.parent / components)
    kwargs = {
        "strategies": options.pop("strategy", DEFAULT_STRATEGY),
        "components": components,
    }
    kwargs.update(options)
    try:
        configs = [build_config(n_players=n, **kwargs) for n in counts]
    except SanssimError as exc:
        raise RunError(f"{path}: arm {name!r}: {exc}") from None
    if isinstance(players, list):
        return [Arm(f"{name}-p{c.n_players}", c) for c in configs]
    return [Arm(name, configs[0])]
