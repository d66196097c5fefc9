"""What a batch runs: one arm's resolved configuration, and experiments of several arms.

Everything here is validated before anything is written, so a mistake in a
command or an experiment file costs nothing but a one-line message.
"""

from __future__ import annotations

import copy
import hashlib
import json
import math
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from sanssim.compiled import AUTO, ENGINES
from sanssim.errors import SanssimError
from sanssim.games import DEFAULT_GAME, GameType, game_names, get_game
from sanssim.games.base import OptionValue
from sanssim.strategies import StrategySpec, resolve

DEFAULT_STRATEGY = "heuristic"
DEFAULT_PLAYERS = (2, 3, 4)
DEFAULT_GAMES = 1000
DEFAULT_SEED = 1
ARM_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


class RunError(SanssimError):
    """A run that cannot start: bad options, bad experiment file, unusable output directory."""


MAX_GAMES = 10**9  # per arm: beyond it the plan's list of chunks no longer fits in memory


@dataclass(frozen=True)
class RunConfig:
    """One arm: a game and player count, how many games from which master seed, who plays,
    with which of the game's options.

    `strategies` holds one canonical spec per seat; `options` the game's options as
    (name, value) pairs, only those given (the game resolves the rest).
    `components_file` names the file the component data came from (None: the packaged
    data); it is provenance only, so it is no part of the configuration compared on resume.
    `engine` (`auto`, `compiled`, `python`) says how the games are played, not which: both
    engines play the same games, so it is no part of the configuration either.
    """

    n_players: int
    games: int = DEFAULT_GAMES
    seed: int = DEFAULT_SEED
    strategies: tuple[str, ...] = ()
    options: tuple[tuple[str, OptionValue], ...] = ()
    turn_log: bool = True
    game_name: str = DEFAULT_GAME
    components: Any = field(default=None, compare=False, repr=False)
    components_file: str | None = field(default=None, compare=False)
    engine: str = field(default=AUTO, compare=False)
    # Seconds a strategy may take for one decision (0: no limit; None: the command's). Like
    # the engine it changes no game that finishes, so it is no part of the configuration.
    decision_timeout: float | None = field(default=None, compare=False)

    @property
    def game_type(self) -> GameType:
        return get_game(self.game_name)

    def option(self, name: str) -> OptionValue:
        return dict(self.options).get(name, self.game_type.option(name).default)

    def game(self) -> Any:
        return self.game_type.new_game(self.n_players, dict(self.options), self.components)

    def specs(self) -> list[StrategySpec]:
        return [resolve(text, self.game_name) for text in self.strategies]

    def to_dict(self) -> dict[str, Any]:
        """The canonical form stored in the manifest and compared on resume (a copy of the
        one built on the first call: a tune asks for it several times an arm)."""
        return copy.deepcopy(self._canonical)

    @cached_property
    def _canonical(self) -> dict[str, Any]:
        game_type = self.game_type
        return {
            "game": self.game_name,
            "n_players": self.n_players,
            "games": self.games,
            "seed": self.seed,
            "strategies": [spec.to_dict() for spec in self.specs()],
            **game_type.config_options(self.n_players, dict(self.options), self.components),
            "turn_log": self.turn_log,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], components: Any) -> RunConfig:
        """Rebuild from a manifest's `config` (and its component data); a manifest written
        before sanssim knew several games is a run of the default game."""
        try:
            game_type = get_game(data.get("game", DEFAULT_GAME))
            return build_config(
                game=game_type.name,
                n_players=data["n_players"],
                games=data["games"],
                seed=data["seed"],
                strategies=[s["spec"] for s in data["strategies"]],
                turn_log=data["turn_log"],
                components=components,
                options=game_type.options_from_config(data),
            )
        except (KeyError, TypeError) as exc:
            raise RunError(f"manifest config is incomplete: {exc!r}") from None

    def fingerprint(self) -> str:
        """A short id that changes whenever anything that shapes the output changes.

        The game's name is left out: its component data already tell games apart, and
        runs of the default game keep the ids they had before sanssim knew other games.
        """
        return self._fingerprint

    @cached_property
    def _fingerprint(self) -> str:
        config = {k: v for k, v in self._canonical.items() if k != "game"}
        text = json.dumps(
            {"config": config, "components": self.components.to_dict()}, sort_keys=True
        )
        return hashlib.sha256(text.encode()).hexdigest()[:12]


@dataclass(frozen=True)
class Arm:
    """A named configuration; `name` None means the run directory is the output itself."""

    name: str | None
    config: RunConfig


def build_config(
    *,
    game: str = DEFAULT_GAME,
    n_players: int,
    games: int = DEFAULT_GAMES,
    seed: int = DEFAULT_SEED,
    strategies: Sequence[str] | str = (DEFAULT_STRATEGY,),
    turn_log: bool = True,
    components: Any = None,
    components_file: str | None = None,
    engine: str = AUTO,
    decision_timeout: float | None = None,
    options: Mapping[str, object] | None = None,
    **more_options: object,
) -> RunConfig:
    """Validate every field and resolve every strategy; raises SanssimError subclasses.

    The game's options come in `options` or as keywords (`expansion=True`)."""
    options = {**(options or {}), **more_options}
    if not isinstance(game, str):
        raise RunError(f"game must be a name ({', '.join(game_names())}), got {game!r}")
    game_type = get_game(game)
    for name, value in (("games", games), ("seed", seed), ("player count", n_players)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise RunError(f"{name} must be an integer, got {value!r}")
    game_type.check_players(n_players)
    if games < 1:
        raise RunError(f"games must be at least 1, got {games}")
    if games > MAX_GAMES:
        raise RunError(f"games must be at most {MAX_GAMES:,} per arm, got {games:,}")
    if seed < 0:
        raise RunError(f"seed must be 0 or more, got {seed}")
    if not isinstance(turn_log, bool):
        raise RunError(f"turn_log must be true or false, got {turn_log!r}")
    if engine not in ENGINES:
        raise RunError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    if decision_timeout is not None and (
        not isinstance(decision_timeout, int | float)
        or isinstance(decision_timeout, bool)
        or not 0 <= decision_timeout < math.inf
    ):
        raise RunError(
            f"decision_timeout must be seconds, 0 or more (0: no limit), got {decision_timeout!r}"
        )
    if isinstance(strategies, str):
        strategies = [strategies]
    if not strategies or not all(isinstance(s, str) for s in strategies):
        raise RunError(f"strategy must be a spec or a list of specs, got {strategies!r}")
    if len(strategies) not in (1, n_players):
        raise RunError(
            f"give one strategy for all seats or one per seat ({n_players}), got {len(strategies)}"
        )
    specs = [resolve(s, game).text for s in strategies]
    if len(specs) == 1:
        specs *= n_players
    parsed = tuple(
        (name, game_type.option(name).parse(value, game))
        for name, value in options.items()
        if value is not None
    )
    config = RunConfig(
        n_players=n_players,
        games=games,
        seed=seed,
        strategies=tuple(specs),
        options=parsed,
        turn_log=turn_log,
        game_name=game,
        components=components if components is not None else game_type.load_components(),
        components_file=components_file,
        engine=engine,
        decision_timeout=None if decision_timeout is None else float(decision_timeout),
    )
    config.game()  # the game's own checks of the design
    return config


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


# Keys of an experiment file that every game has; each game adds its options' names.
COMMON_KEYS = (
    "game", "players", "games", "seed", "strategy", "turn_log", "components", "engine",
    "decision_timeout",
)  # fmt: skip


def load_experiment(path: str | Path, games: int | None = None) -> list[Arm]:
    """Arms from a TOML file: top-level keys are defaults, each `[[arm]]` overrides them.

    Keys are those every game has (`COMMON_KEYS`) and the options of the arm's game. An
    arm with a list of player counts becomes one arm per count (`name-p3`). `games`, when
    given, overrides every arm's games (`--games` beside `--config`: with `--precision`
    it is the cap).
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
    arms: list[Arm] = []
    for i, raw in enumerate(raw_arms):
        if not isinstance(raw, dict):
            raise RunError(f"{path}: arm #{i + 1} must be a table")
        options = {**data, **raw, **({} if games is None else {"games": games})}
        name = options.pop("name", f"arm{i + 1}")
        if not isinstance(name, str) or not ARM_NAME.match(name):
            raise RunError(f"{path}: arm name {name!r} must be letters, digits, '-', '_' or '.'")
        try:
            arms.extend(_experiment_arms(path, name, options))
        except SanssimError as exc:
            raise RunError(f"{path}: arm {name!r}: {exc}") from None
    names = [a.name for a in arms]
    for arm_name in names:
        if names.count(arm_name) > 1:
            raise RunError(f"{path}: arm name {arm_name!r} used twice")
    return arms


def game_options(game_type: GameType, given: Mapping[str, object]) -> dict[str, object]:
    """The given option values that belong to `game_type`; an option of another game, or
    of none, is an error naming where it belongs."""
    own = {o.name for o in game_type.options}
    for key in given:
        if key in own:
            continue
        owners = [g for g in game_names() if key in {o.name for o in get_game(g).options}]
        if owners:
            raise RunError(
                f"{key.replace('_', '-')} is an option of {' and '.join(owners)}, "
                f"not of {game_type.name}"
            )
        known = ", ".join(["name", *COMMON_KEYS, *sorted(own)])
        raise RunError(f"unknown key {key!r} (known: {known})")
    return dict(given)


def _experiment_arms(path: Path, name: str, options: dict[str, Any]) -> list[Arm]:
    game = options.pop("game", DEFAULT_GAME)
    if not isinstance(game, str):
        raise RunError(f"game must be a name ({', '.join(game_names())}), got {game!r}")
    game_type = get_game(game)
    players = options.pop("players", list(DEFAULT_PLAYERS))
    counts = players if isinstance(players, list) else [players]
    if not counts:
        raise RunError("players = [] names no player count")
    strategy = options.get("strategy", DEFAULT_STRATEGY)
    texts = strategy if isinstance(strategy, list) else [strategy]
    if not texts or not all(isinstance(t, str) for t in texts):
        raise RunError(f"strategy must be a spec or a list of specs, got {strategy!r}")
    components = options.pop("components", None)
    components_file = None
    if components is not None:
        if not isinstance(components, str):
            raise RunError("components must be a file path")
        source = path.parent / components
        components = game_type.load_components(source)
        components_file = str(source.resolve())
    common = {
        "strategies": options.pop("strategy", DEFAULT_STRATEGY),
        **{
            k: options.pop(k)
            for k in ("games", "seed", "turn_log", "engine", "decision_timeout")
            if k in options
        },
    }
    configs = [
        build_config(
            game=game,
            n_players=n,
            components=components,
            components_file=components_file,
            options=game_options(game_type, options),
            **common,
        )
        for n in counts
    ]
    if isinstance(players, list):
        return [Arm(f"{name}-p{c.n_players}", c) for c in configs]
    return [Arm(name, configs[0])]
