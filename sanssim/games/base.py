"""What the runner, `show`, the shared strategies and the report know of a game.

A game package declares one `GameType`: its name, player range, options (from
which the command line, experiment files and `--help` are derived), component
data, strategies, log tables, replay and pictures for `show`, and its report
sections. Nothing outside `sanssim/games/<game>/` knows more of a game than this.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from sanssim.errors import ConfigError
from sanssim.games.components import (
    NO_COMPONENTS,
    ComponentData,
    NoComponents,
    parse_component_text,
    read_component_file,
)
from sanssim.games.logs import (
    ACTIONS,
    ACTIONS_TYPE,
    COMMON_RESULTS,
    COMMON_TURNS,
    OwnColumns,
    record_columns,
    replay_actions,
    results_frame,
    scores,
    turns_frame,
    with_actions,
)
from sanssim.games.options import Option, OptionValue
from sanssim.games.protocol import Engine, GameState, SeatView, View
from sanssim.games.show import Show

if TYPE_CHECKING:
    import polars as pl

    from sanssim.analysis.section import Context, Section
    from sanssim.compiled import Core
    from sanssim.strategies.base import Strategy


@dataclass(frozen=True, slots=True)
class Group:
    """A grouped per-game measure for `sanssim tune --objective spread:NAME`: `values(results,
    game)` gives one row per observation with `game_id`, `group` (text) and `value` (float),
    from a run's results and the game it played (`new_game`'s: its options, as house rules may
    change what a value is, and its component data)."""

    doc: str
    values: Callable[[pl.LazyFrame, Engine], pl.LazyFrame]


class GameType(Show, ABC):
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
    # A game's own results and turns columns (`sanssim.games.logs.OwnColumns`).
    columns: ClassVar[OwnColumns] = OwnColumns()
    # The game's PlayerView class.
    view_class: ClassVar[type]
    # The game's own strategies (`Strategy` classes, each with its `name`).
    own_strategies: ClassVar[tuple[type[Strategy], ...]] = ()
    # How the game reads its component data (None: it has none).
    component_data: ClassVar[ComponentData | None] = None

    @property
    def result_schema(self) -> Mapping[str, Any]:
        """The results table's columns and types (the game's run-format spec)."""
        own = self.columns
        return _ordered({**COMMON_RESULTS, **own.result_types}, own.result_order)

    @property
    def turn_schema(self) -> Mapping[str, Any]:
        """The turns table's columns and types (the game's run-format spec), the chosen
        actions last."""
        return {**self._turn_rows_schema, ACTIONS: ACTIONS_TYPE}

    @property
    def _turn_rows_schema(self) -> dict[str, Any]:
        own = self.columns
        return _ordered({**COMMON_TURNS, **own.turn_types}, own.turn_order)

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
        """The packaged component data (None) or a user's file, validated (`component_data`;
        by default the game has none)."""
        if self.component_data is not None:
            return self.component_data.load(path)
        if path is not None:
            raise ConfigError(f"{self.name} has no component data to read from {path}")
        return NO_COMPONENTS

    def components_from_manifest(self, data: Mapping[str, Any]) -> Any:
        """The component data a run recorded in its manifest."""
        if self.component_data is not None:
            return self.component_data.from_manifest(dict(data))
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

    def strategies(self) -> Mapping[str, type[Strategy]]:
        """The game's own strategies by name (the shared ones are added by the registry)."""
        return {cls.name: cls for cls in self.own_strategies}

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
        fill = self.columns.results
        scored = scores(finished) | (dict(fill(game, finished)) if fill else {})
        return results_frame(
            run_id, self.name, game.n_players, strategies, scored, self.result_schema
        )

    def turn_frame(
        self, run_id: str, game: Engine, games: list[tuple[int, GameState]]
    ) -> pl.DataFrame:
        """One turns row per turn of recorded (game_id, state), its chosen actions last."""
        own = self.columns
        if own.turns is not None:
            columns = own.turns(game, games)
        else:
            columns = record_columns(games, ["turn", "seat", "score", *own.turn_types])
        frame = turns_frame(run_id, game.n_players, columns, self._turn_rows_schema)
        return with_actions(frame, games)

    def replay(
        self, game: Engine, game_id: int, seed: int, results: pl.DataFrame, turns: pl.DataFrame
    ) -> GameState:
        """The logged game re-applied to a fresh deal, every turn checked against the log;
        raises SanssimError at the first disagreement."""
        return replay_actions(
            game, game_id, seed, turns, self.turn_frame, self.same_turn_value, self.apply_logged
        )

    def same_turn_value(self, column: str, engine: Any, logged: Any) -> bool:
        """Whether a replayed turn's value agrees with the logged one."""
        return engine == logged

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


__all__ = [
    "NO_COMPONENTS",
    "ComponentData",
    "Engine",
    "GameState",
    "GameType",
    "Group",
    "NoComponents",
    "OwnColumns",
    "Option",
    "OptionValue",
    "SeatView",
    "View",
    "parse_component_text",
    "read_component_file",
]
