"""`sanssim tune` below the command line: search a space of strategy parameters and game
options for the candidate that best meets an objective, by simulation, within a budget.

This module only dispatches to the method: `halving` (successive halving over a fixed set of
candidates) or `ntbea` (a walk of the space); what they share is in `search`, the space in
`space`.
"""

from __future__ import annotations

from pathlib import Path

from sanssim.analysis import objective as obj
from sanssim.games import get_game
from sanssim.runner.executor import Executor
from sanssim.runner.tuning import halving, ntbea
from sanssim.runner.tuning.search import (
    DEFAULT_BATCH,
    HALVING,
    METHODS,
    NTBEA,
    Progress,
    Round,
    Search,
    Settings,
    Tune,
    check_out,
    load_settings,
)
from sanssim.runner.tuning.space import TuneError, make_candidates, parse_param, parse_strategy
from sanssim.strategies import resolve

__all__ = [
    "DEFAULT_BATCH",
    "HALVING",
    "METHODS",
    "NTBEA",
    "Search",
    "Settings",
    "Tune",
    "TuneError",
    "check_out",
    "load_settings",
    "parse_param",
    "parse_strategy",
    "prepare",
    "run",
]


def prepare(settings: Settings) -> Tune:
    """Parse and check everything, build the candidates and the schedule; writes nothing."""
    game_type = get_game(settings.game)
    game_type.check_players(settings.players)
    if settings.budget < 1:
        raise TuneError(f"--budget must be a positive number of games, got {settings.budget}")
    if settings.candidates < 2:
        raise TuneError(f"--candidates must be at least 2, got {settings.candidates}")
    if settings.finalists < 1:
        raise TuneError(f"--finalists must be at least 1, got {settings.finalists}")
    if settings.method not in METHODS:
        raise TuneError(f"--method must be one of {', '.join(METHODS)}, got {settings.method!r}")
    texts = settings.strategies or ("heuristic",)
    strategies = tuple(parse_strategy(t, game_type.name) for t in texts)
    if len(strategies) not in (1, settings.players) or (settings.against and len(strategies) > 1):
        raise TuneError(
            "give one -s for every seat (or the tuned seat with --against), or one per seat"
        )
    if sum(bool(s.dimensions) for s in strategies) > 1:
        raise TuneError("give ranges in one -s spec only")
    if settings.against:
        resolve(settings.against, game_type.name)
    game_dimensions = tuple(parse_param(t, game_type) for t in settings.params)
    dimensions = [*(d for s in strategies for d in s.dimensions), *game_dimensions]
    if not dimensions:
        raise TuneError("nothing to tune: give a range in -s (name:param=lo..hi) or --param")
    names = [d.name for d in dimensions]
    for name in names:
        if names.count(name) > 1:
            raise TuneError(f"{name} is searched twice")
    for name, _ in settings.options:
        if name in {d.key for d in game_dimensions}:
            raise TuneError(f"{name} is both fixed and searched; drop one")
    objective = obj.parse(settings.objective, settings.against, game_type, settings.players)
    if len(strategies) == 1 and not settings.against:
        strategies = strategies * settings.players
    components = game_type.load_components()
    rotations = settings.players if settings.against else 1
    if settings.method == NTBEA:
        checked = ntbea.probes(dimensions)
        candidates = checked[:1]  # the default; the search adds the points it visits
        rounds: tuple[Round, ...] = ()
        final_deals, finalists = ntbea.schedule(settings, rotations).final
    else:
        candidates = checked = make_candidates(dimensions, settings.candidates, settings.seed)
        rounds, final_deals, finalists = halving.schedule(
            len(candidates), settings.budget, rotations, settings.finalists
        )
    tune = Tune(
        settings, game_type, strategies, game_dimensions, objective, candidates,
        rounds, final_deals, finalists, components,
    )  # fmt: skip
    for candidate in checked:  # every candidate is a legal game before anything runs
        tune.arms(candidate, "check", 1)
    return tune


def run(
    tune: Tune,
    out: Path,
    executor: Executor,
    command: list[str],
    progress: Progress | None = None,
) -> Search:
    """Play the whole search (arms already complete are not played again) and write
    tune.json as it goes."""
    method = ntbea if tune.settings.method == NTBEA else halving
    return method.run(tune, out, executor, command, progress)
