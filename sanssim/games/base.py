"""What the runner, `show`, the shared strategies and the report know of a game.

A game package declares one `GameType`: its name, player range, options (from
which the command line, experiment files and `--help` are derived), component
data, strategies, log tables, replay and pictures for `show`, and its report
sections. Nothing outside `sanssim/games/<game>/` knows more of a game than this.
"""

from __future__ import annotations

import contextlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from sanssim.errors import ComponentError, ConfigError
from sanssim.games.logs import (
    ACTIONS,
    ACTIONS_TYPE,
    COMMON_RESULTS,
    COMMON_TURNS,
    record_columns,
    replay_actions,
    results_frame,
    scores,
    turns_frame,
    with_actions,
)

if TYPE_CHECKING:
    import polars as pl

    from sanssim.analysis.section import Context, Section
    from sanssim.compiled import Core
    from sanssim.strategies.base import Strategy

OptionValue = bool | int | float | str | None
_TRUE, _FALSE = ("true", "1", "yes", "on"), ("false", "0", "no", "off")


@dataclass(frozen=True, slots=True)
class Option:
    """A game option: one command-line flag, one experiment-file key, one config key.

    `kind` is the type of its values; a `None` default means the game resolves it
    from the player count (the manifest records the resolved value).
    """

    name: str
    kind: type
    default: OptionValue
    help: str
    choices: tuple[str, ...] = ()
    label: str = ""  # how reports name it before its value (default: its name in words)

    @property
    def report_label(self) -> str:
        return self.label or self.name.replace("_", " ")

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    def parse(self, value: object, game: str) -> OptionValue:
        """A value from the command line (text) or an experiment file (TOML value)."""
        if value is None:
            return None
        kind = self.kind
        if isinstance(value, str) and kind is not str:
            text = value.strip().lower()
            if kind is bool and text in _TRUE + _FALSE:
                return text in _TRUE
            with contextlib.suppress(ValueError):
                value = kind(text) if kind is not bool else value
        if kind is bool:
            ok = isinstance(value, bool)
        else:
            numeric = (int, float) if kind is float else kind
            ok = isinstance(value, numeric) and not isinstance(value, bool)
        if not ok:
            raise ConfigError(
                f"{game} option {self.name} must be {_KIND_NAMES[kind]}, got {value!r}"
            )
        if self.choices and value not in self.choices:
            raise ConfigError(
                f"{game} option {self.name} must be one of {', '.join(self.choices)}, got {value!r}"
            )
        return float(value) if kind is float else value  # type: ignore[arg-type]


_KIND_NAMES = {bool: "true or false", int: "an integer", float: "a number", str: "text"}


class GameState(Protocol):
    """What the runner, `show`, the shared strategies and the reports use of a game in
    progress (`sanssim.games.engine.EngineState` implements it)."""

    game: Engine
    n: int
    phase: int
    turn: int
    current: int
    legal: list[int]

    @property
    def round(self) -> int: ...
    def apply_action(self, action: int) -> None: ...
    def legal_actions(self) -> list[int]: ...
    def is_terminal(self) -> bool: ...
    def returns(self) -> list[int]: ...
    def ranks(self) -> list[int]: ...
    def describe(self, action: object) -> str: ...
    def clone(self) -> GameState: ...


class Engine(Protocol):
    """A game's fixed parameters as the layers above it use them (`new_game`'s result;
    `sanssim.games.engine.EngineGame` implements it)."""

    config: Any
    components: Any

    @property
    def n_players(self) -> int: ...
    def new_state(self, seed: int, record: bool = False) -> GameState: ...


class View(Protocol):
    """What a strategy sees: one seat's window on a game in progress."""

    seat: int

    @property
    def n_players(self) -> int: ...
    @property
    def current(self) -> int: ...
    @property
    def turn(self) -> int: ...
    def legal_actions(self) -> list[int]: ...
    def describe(self, action: int) -> str: ...
    def determinize(self, rng: Any) -> GameState: ...


@dataclass(frozen=True, slots=True)
class Group:
    """A grouped per-game measure for `sanssim tune --objective spread:NAME`: `values(results,
    game)` gives one row per observation with `game_id`, `group` (text) and `value` (float),
    from a run's results and the game it played (`new_game`'s: its options, as house rules may
    change what a value is, and its component data)."""

    doc: str
    values: Callable[[pl.LazyFrame, Engine], pl.LazyFrame]


class GameType(ABC):
    """One game's declaration and the small protocol every layer above it uses."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[Option, ...]] = ()
    # Results columns that add up to `total`, for the generic "points by source" section.
    sources: ClassVar[tuple[str, ...]] = ()
    # Options whose resolved value every results row carries (read from there by reports;
    # the others are read from each run's manifest).
    options_in_results: ClassVar[tuple[str, ...]] = ()
    # Figures of the game's own report sections to show with the key findings (after the
    # seat advantage), when a section made them.
    headline_figures: ClassVar[tuple[str, ...]] = ()
    # The game's strategy that the shared look-ahead uses to rank options and play rollouts.
    rollout_strategy: ClassVar[str] = "heuristic"
    # Shared strategies' parameters as this game plays them by default, where it measured
    # better with its own: {strategy name: {parameter: value}} (`sanssim strategies` shows them).
    strategy_defaults: ClassVar[Mapping[str, Mapping[str, Any]]] = {}
    # The score direction: True for a game where the lowest total wins (ranks, `winner`,
    # margins, search strategies and reports all follow it).
    lowest_wins: ClassVar[bool] = False
    # A game's own results and turns columns and their types, after the common ones
    # (`sanssim.games.logs`): `result_columns` fills the first, `turn_columns` the second.
    # A common column named here takes this type (a game whose files always had it).
    result_columns_schema: ClassVar[Mapping[str, Any]] = {}
    turn_columns_schema: ClassVar[Mapping[str, Any]] = {}
    # The columns' order in the game's files when it is not the common columns first (a
    # game keeping the order its files had before the shared layer); `actions` stays last.
    result_order: ClassVar[tuple[str, ...]] = ()
    turn_order: ClassVar[tuple[str, ...]] = ()
    # The game's PlayerView class.
    view_class: ClassVar[type]

    @property
    def result_schema(self) -> Mapping[str, Any]:
        """The results table's columns and types (the game's run-format spec)."""
        return _ordered({**COMMON_RESULTS, **self.result_columns_schema}, self.result_order)

    @property
    def turn_schema(self) -> Mapping[str, Any]:
        """The turns table's columns and types (the game's run-format spec), the chosen
        actions last."""
        return {**self._turn_rows_schema, ACTIONS: ACTIONS_TYPE}

    @property
    def _turn_rows_schema(self) -> dict[str, Any]:
        return _ordered({**COMMON_TURNS, **self.turn_columns_schema}, self.turn_order)

    def option(self, name: str) -> Option:
        for option in self.options:
            if option.name == name:
                return option
        known = ", ".join(o.name for o in self.options) or "none"
        raise ConfigError(f"{self.name} has no option {name!r} (options: {known})")

    def check_players(self, n_players: int) -> None:
        if not self.min_players <= n_players <= self.max_players:
            counts = ", ".join(map(str, range(self.min_players, self.max_players + 1)))
            raise ConfigError(f"{self.name} is played by {counts} players, not {n_players}")

    # ---------------------------------------------------------------- components

    def load_components(self, path: str | Path | None = None) -> Any:
        """The packaged component data (None) or a user's file, validated. By default the
        game has none."""
        if path is not None:
            raise ConfigError(f"{self.name} has no component data to read from {path}")
        return NO_COMPONENTS

    def components_from_manifest(self, data: Mapping[str, Any]) -> Any:
        """The component data a run recorded in its manifest."""
        return NO_COMPONENTS

    def components_label(self, components: Any) -> str:
        """How reports name component data: the packaged default or a user's file."""
        source = getattr(components, "source", None)
        return f"components {Path(source).name}" if source else "default components"

    # ---------------------------------------------------------------- configuration

    @abstractmethod
    def new_game(
        self, n_players: int, options: Mapping[str, OptionValue], components: Any
    ) -> Engine:
        """The engine's fixed-parameter game; raises ConfigError for a design the rules
        do not allow."""

    def config_options(
        self, n_players: int, options: Mapping[str, OptionValue], components: Any
    ) -> dict[str, Any]:
        """The options as the manifest records them, defaults resolved."""
        return {o.name: options.get(o.name, o.default) for o in self.options}

    def options_from_config(self, config: Mapping[str, Any]) -> dict[str, OptionValue]:
        """The inverse of `config_options`: option values from a manifest's config."""
        return {o.name: config[o.name] for o in self.options if o.name in config}

    # ---------------------------------------------------------------- play

    def view(self, state: GameState, seat: int) -> View:
        """What `seat` may see of `state` (a PlayerView with `determinize`)."""
        return self.view_class(state, seat)

    def sides(self, game: Engine) -> tuple[int, ...]:
        """Each seat's side: seats of one side (a team) share a total and a rank. By
        default every seat is its own side."""
        return tuple(range(game.n_players))

    @abstractmethod
    def strategies(self) -> Mapping[str, type[Strategy]]:
        """The game's own strategies by name (the shared ones are added by the registry)."""

    def core(self) -> Core | None:
        """The game's compiled engine (`sanssim.compiled.Core`), if it has one: it plays the
        same games as the Python engine, faster. Default: none."""
        return None

    # ---------------------------------------------------------------- logs

    def result_frame(
        self,
        run_id: str,
        game: Engine,
        strategies: Sequence[str],
        finished: list[tuple[int, int, GameState]],
    ) -> pl.DataFrame:
        """One results row per (game, seat) of finished (game_id, game_seed, state)."""
        scored = scores(finished) | self.result_columns(game, finished)
        return results_frame(
            run_id, self.name, game.n_players, strategies, len(finished), scored, self.result_schema
        )

    def result_columns(
        self, game: Engine, finished: list[tuple[int, int, GameState]]
    ) -> dict[str, list[Any]]:
        """The game's own results columns (`result_columns_schema`), one value per (game,
        seat) in the order of `finished`."""
        return {}

    def turn_frame(
        self, run_id: str, game: Engine, games: list[tuple[int, GameState]]
    ) -> pl.DataFrame:
        """One turns row per turn of recorded (game_id, state), its chosen actions last."""
        columns = self.turn_columns(game, games)
        frame = turns_frame(run_id, game.n_players, columns, self._turn_rows_schema)
        return with_actions(frame, games)

    def turn_columns(self, game: Engine, games: list[tuple[int, GameState]]) -> dict[str, Any]:
        """Each turn's `game_id`, `turn`, `seat`, `score` and the game's own columns
        (`turn_columns_schema`), in the order of `games`: by default from the engine's turn
        records (`state.log`, one dict a turn with `turn`, `seat`, `score` and those)."""
        return record_columns(games, ["turn", "seat", "score", *self.turn_columns_schema])

    def replay(
        self, game: Engine, game_id: int, seed: int, results: pl.DataFrame, turns: pl.DataFrame
    ) -> GameState:
        """The logged game re-applied to a fresh deal, every turn checked against the log;
        raises SanssimError at the first disagreement."""
        return replay_actions(
            game, game_id, seed, turns, self.turn_frame, self.same_turn_value, self.apply_logged
        )

    def apply_logged(self, state: GameState, action: int, row: Mapping[str, Any]) -> None:
        """One logged action applied (`row` is its turn's log row, for a game whose choices
        carry more than the action id)."""
        state.apply_action(action)

    def same_turn_value(self, column: str, engine: Any, logged: Any) -> bool:
        """Whether a replayed turn's value agrees with the logged one."""
        return engine == logged

    # ---------------------------------------------------------------- show

    def show(
        self,
        game: Engine,
        results: pl.DataFrame,
        turns: pl.DataFrame,
        final: GameState,
        turn: int | None,
        seat: int | None,
    ) -> list[str]:
        """Lines picturing the game turn by turn (or one turn), legend first. By default
        each turn in words (`describe` of its actions), then the `picture` after it."""
        seed = results["game_seed"][0]
        out = self.legend(final)
        out += replayed_show(
            game, seed, turns, turn, seat, self._apply_turn, self.picture, self.turn_line
        )
        picture = self.final_picture(final)
        out += ["", "final position:", picture] if picture else []
        out += ["", "final scores:"]
        return out + [self.score_line(r) for r in results.iter_rows(named=True)]

    def _apply_turn(self, state: GameState, row: dict[str, Any]) -> None:
        """A logged turn's actions applied, named as the engine describes them."""
        row["described"] = []
        for action in row[ACTIONS] or ():
            row["described"].append(state.describe(action))
            self.apply_logged(state, action, row)

    def legend(self, final: GameState) -> list[str]:
        """Lines explaining the pictures' symbols, before the first turn."""
        return []

    def score_line(self, row: Mapping[str, Any]) -> str:
        """One seat's final results row in words."""
        lower = " (lowest wins)" if self.lowest_wins else ""
        return (
            f"  seat {row['seat']} ({row['strategy']}): total {row['total']}{lower}, "
            f"rank {row['rank']}"
        )

    def turn_line(self, row: Mapping[str, Any]) -> str:
        """One logged turn in words: by default its actions as the engine names them."""
        chosen = "; ".join(row.get("described") or ()) or "no choice"
        return (
            f"turn {row['turn']} (round {row['round']}) seat {row['seat']}: {chosen}; "
            f"score {row['score']}"
        )

    def picture(self, state: GameState) -> str:
        """The position in text, for `show`."""
        return ""

    def final_picture(self, state: GameState) -> str:
        """The final position in text, for `show` (by default as every turn's)."""
        return self.picture(state)

    def position_lines(self, view: View) -> list[str]:
        """What the acting player sees before a decision, for `show --explain`."""
        return []

    # ---------------------------------------------------------------- report

    def report_sections(self) -> Sequence[Callable[[Context], Section]]:
        """The game's own report sections, after the generic ones."""
        return ()

    def groups(self) -> Mapping[str, Group]:
        """Grouped measures by name, whose spread `sanssim tune` can minimise."""
        return {}


def _ordered(schema: dict[str, Any], order: tuple[str, ...]) -> dict[str, Any]:
    """A schema in the given column order (every column named once), or as it is."""
    if not order:
        return schema
    if sorted(order) != sorted(schema):
        raise ValueError(f"column order {order} does not name the columns {tuple(schema)}")
    return {name: schema[name] for name in order}


def read_component_file(path: str | Path) -> str:
    """A component data file's text, or a one-line ComponentError naming it."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ComponentError(f"cannot read component file {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        where = f"byte {exc.start} is {exc.object[exc.start]:#04x}"
        raise ComponentError(f"component file {path} is not UTF-8 text ({where})") from None


@dataclass(frozen=True, slots=True)
class NoComponents:
    """The component data of a game that has none."""

    source: None = None

    def to_dict(self) -> dict[str, Any]:
        return {}


NO_COMPONENTS = NoComponents()


def replayed_show(
    game: Engine,
    seed: int,
    turns: pl.DataFrame,
    turn: int | None,
    seat: int | None,
    apply_turn: Callable[[Any, dict[str, Any]], None],
    picture: Callable[[Any], str],
    turn_line: Callable[[Mapping[str, Any]], str],
) -> list[str]:
    """`show` for a game whose pictures come from the engine state: the logged turns are
    applied one by one to a fresh deal (already checked against the log), and the
    position is drawn after every shown turn."""
    state = game.new_state(seed, record=True)  # replaying a turn may read its record
    rows = turns.sort("turn").to_dicts()
    out: list[str] = []
    for row in rows:
        apply_turn(state, row)
        if turn is not None and row["turn"] != turn:
            continue
        if seat is not None and row["seat"] != seat:
            continue
        out += ["", turn_line(row), picture(state)]
    return out


class SeatView:
    """What every game's PlayerView shares: a read-only window on a live state through
    one seat's eyes. A game's view adds what that seat may see of its own game and
    `determinize`; it must never hand out `_state`."""

    __slots__ = ("_state", "seat")

    def __init__(self, state: GameState, seat: int) -> None:
        self._state = state
        self.seat = seat

    @property
    def game(self) -> Engine:
        return self._state.game

    @property
    def n_players(self) -> int:
        return self._state.n

    @property
    def phase(self) -> int:
        return self._state.phase

    @property
    def turn(self) -> int:
        return self._state.turn

    @property
    def round(self) -> int:
        return self._state.round

    @property
    def current(self) -> int:
        return self._state.current

    def legal_actions(self) -> list[int]:
        s = self._state
        return list(s.legal) if s.current == self.seat else []

    def describe(self, action: int) -> str:
        return self._state.describe(action)
