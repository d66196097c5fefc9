"""`sanssim tune` below the command line: search a space of strategy parameters and game
options for the candidate that best meets an objective, by simulation, within a budget.

The method, all of it deterministic for a given `--seed`:

- Candidates: every combination of a grid for one or two dimensions, a Latin hypercube
  sample for more, plus the default (the strategy's and the game's own values), which is
  measured alongside every round so that the best can be compared with it.
- Successive halving: in round r every surviving candidate plays the same deals (master
  seed derived from the tune seed and r: common random numbers, so the luck of the deal
  cancels between candidates); candidates are ranked on all the deals they played, and the
  better half goes on. The budget is spread evenly over the rounds, so survivors get more
  games as the field shrinks.
- Final re-measurement: the best few and the default play fresh deals (another master
  seed), which the selection never saw; the best (the top of the last round) is compared
  with the default on them, paired deal by deal.

Each candidate evaluation is one or more arms of the usual run format in one experiment
directory (`index.json`), played by `sanssim.runner.run.execute`, so any executor, resume
and `sanssim report` work on it. `tune.json` beside them holds the search.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from sanssim import __version__
from sanssim.analysis import objective as obj
from sanssim.analysis.objective import Objective
from sanssim.games import GameType, get_game
from sanssim.games.base import OptionValue
from sanssim.runformat import MANIFEST, RESULTS, TUNE, TURNS
from sanssim.runner.batch import check_out_dir, now, read_json, write_json
from sanssim.runner.config import Arm, RunError, build_config
from sanssim.runner.executor import Executor
from sanssim.runner.run import Plan, execute, identity, index_entries, write_index
from sanssim.seeding import derive_seed
from sanssim.strategies import resolve

DEFAULT_CANDIDATES = 16
DEFAULT_FINALISTS = 3
DEFAULT_BATCH = 50  # deals per evaluation of --method ntbea
HALVING, NTBEA = "halving", "ntbea"
METHODS = (HALVING, NTBEA)
FINAL_SHARE = 0.3  # of the budget, for the final re-measurement on fresh deals
MIN_DEALS = 20  # fewest deals a candidate may be measured on in a round
GRID_DIMENSIONS = 2  # up to this many dimensions are searched on a grid
Progress = Callable[[str, int, int], AbstractContextManager[Callable[[int], None]]]


class TuneError(RunError):
    """A tune that cannot start: a bad space, objective, budget or output directory."""


@dataclass(frozen=True)
class Dimension:
    """One searched parameter: a strategy parameter (`scope` "strategy", named
    `strategy:param`) or a game option (`scope` "game"), over `lo..hi` or listed values."""

    name: str
    key: str
    scope: str
    kind: type
    default: OptionValue
    lo: float | None = None
    hi: float | None = None
    values: tuple[OptionValue, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        domain = list(self.values) if self.values else [self.lo, self.hi]
        return {
            "name": self.name,
            "scope": self.scope,
            "kind": self.kind.__name__,
            "domain": domain,
            "range": not self.values,
            "default": self.default,
        }

    def grid(self, points: int) -> list[OptionValue]:
        """`points` values spread over the domain (every value of a list or a short int
        range)."""
        if self.values:
            return list(self.values)
        lo, hi = self.lo, self.hi
        assert lo is not None and hi is not None
        if self.kind is int and hi - lo + 1 <= points:
            return list(range(int(lo), int(hi) + 1))
        steps = [lo + (hi - lo) * i / max(1, points - 1) for i in range(points)]
        return list(dict.fromkeys(self.value_at(s) for s in steps))

    def sample(self, u: float) -> OptionValue:
        """The value at quantile u in [0, 1) of the domain (uniform)."""
        if self.values:
            return self.values[min(len(self.values) - 1, int(u * len(self.values)))]
        lo, hi = self.lo, self.hi
        assert lo is not None and hi is not None
        if self.kind is int:
            return int(lo) + min(int(hi - lo), int(u * (hi - lo + 1)))
        return self.value_at(lo + u * (hi - lo))

    def value_at(self, x: float) -> OptionValue:
        return round(x) if self.kind is int else float(f"{x:.6g}")


def parse_dimension(scope: str, name: str, key: str, kind: type, default: object, text: str,
                    parse_one: Callable[[str], OptionValue]) -> Dimension:  # fmt: skip
    """`lo..hi` (int or float kinds) or `a|b|c` (any kind): one-line TuneErrors otherwise."""
    text = text.strip()
    if "|" in text:
        values = tuple(dict.fromkeys(parse_one(v.strip()) for v in text.split("|")))
        if len(values) < 2:
            raise TuneError(f"{name}={text}: list at least two different values")
        return Dimension(name, key, scope, kind, default, values=values)  # type: ignore[arg-type]
    ends = text.split("..")
    if len(ends) != 2 or not all(e.strip() for e in ends):
        raise TuneError(f"{name}={text}: expected a range lo..hi or a list a|b|c")
    if kind not in (int, float):
        raise TuneError(f"{name}={text}: a {kind.__name__} takes a list a|b|c, not a range")
    bounds = []
    for bound in (e.strip() for e in ends):
        try:
            bounds.append(int(bound) if kind is int else float(bound))
        except ValueError:
            raise TuneError(f"{name}={text}: {bound!r} is not {kind.__name__}") from None
    lo, hi = bounds
    if not lo < hi:
        raise TuneError(f"{name}={text}: the range must have lo < hi")
    for bound in (lo, hi):
        parse_one(str(bound))  # the option's own checks (choices, type)
    return Dimension(name, key, scope, kind, default, lo=lo, hi=hi)  # type: ignore[arg-type]


def _searched(text: str) -> bool:
    return ".." in text or "|" in text


@dataclass(frozen=True)
class TunedStrategy:
    """A strategy spec with ranges: the strategy, its fixed parameters, its dimensions."""

    head: str
    fixed: tuple[tuple[str, str], ...]
    dimensions: tuple[Dimension, ...]

    def spec(self, values: Mapping[str, OptionValue]) -> str:
        params = [f"{k}={v}" for k, v in self.fixed]
        params += [f"{d.key}={values[d.name]}" for d in self.dimensions]
        return self.head + (":" + ",".join(params) if params else "")


def parse_strategy(text: str, game: str) -> TunedStrategy:
    """`heuristic:mission=0.5..3,path=1|2,skip=0.6`: ranges and lists become dimensions."""
    head, params = text.strip(), ""
    parts = head.split(":")
    if len(parts) > 1 and "=" in parts[-1]:
        head, params = ":".join(parts[:-1]), parts[-1]
    items = [p.strip() for p in params.split(",") if p.strip()]
    pairs = [item.partition("=") for item in items]
    fixed = tuple((k.strip(), v.strip()) for k, _, v in pairs if not _searched(v))
    spec = resolve(head + (":" + ",".join(f"{k}={v}" for k, v in fixed) if fixed else ""), game)
    declared = {p.name: p for p in spec.cls.params}
    dimensions = []
    for key, _, value in pairs:
        key = key.strip()
        if not _searched(value):
            continue
        if key not in declared:
            known = ", ".join(declared) or "none"
            raise TuneError(f"strategy {head!r} has no parameter {key!r} (parameters: {known})")
        param = declared[key]
        kind = type(param.default)
        dimensions.append(
            parse_dimension(
                "strategy",
                f"{head}:{key}",
                key,
                kind,
                param.default,
                value,
                lambda v, p=param: p.parse(v, head),
            )
        )
    names = [d.key for d in dimensions] + [k for k, _ in fixed]
    for key in names:
        if names.count(key) > 1:
            raise TuneError(f"strategy {head!r}: parameter {key!r} given twice")
    return TunedStrategy(head, fixed, tuple(dimensions))


def parse_param(text: str, game_type: GameType) -> Dimension:
    """`--param NAME=RANGE`: a game option over `lo..hi` or `a|b|c`."""
    name, eq, value = text.partition("=")
    name = name.strip().replace("-", "_")
    if not eq or not value.strip():
        raise TuneError(f"--param {text!r}: expected NAME=lo..hi or NAME=a|b|c")
    option = game_type.option(name)
    if option.kind is bool and ".." not in value and "|" not in value:
        raise TuneError(f"--param {text!r}: expected NAME=lo..hi or NAME=a|b|c")
    return parse_dimension(
        "game",
        name,
        name,
        option.kind,
        option.default,
        value,
        lambda v: option.parse(v, game_type.name),
    )


@dataclass(frozen=True)
class Settings:
    """Everything a tune is made of, as typed (kept in tune.json for `--resume`)."""

    game: str
    players: int
    strategies: tuple[str, ...]
    params: tuple[str, ...]
    objective: str | None
    against: str | None
    budget: int
    seed: int = 1
    candidates: int = DEFAULT_CANDIDATES
    finalists: int = DEFAULT_FINALISTS
    options: tuple[tuple[str, OptionValue], ...] = ()
    method: str = HALVING
    batch: int = DEFAULT_BATCH

    def to_dict(self) -> dict[str, Any]:
        data = {k: getattr(self, k) for k in self.__dataclass_fields__}
        data["options"] = dict(self.options)
        if self.method == HALVING:
            del data["batch"]  # an NTBEA setting
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Settings:
        """The settings of tune.json; one written before `method` existed is a halving."""
        optional = {"method", "batch"}
        try:
            values = {
                k: data[k] for k in cls.__dataclass_fields__ if k in data or k not in optional
            }
        except KeyError as exc:
            raise TuneError(f"{TUNE} lacks setting {exc}") from None
        values["strategies"] = tuple(values["strategies"])
        values["params"] = tuple(values["params"])
        values["options"] = tuple(values["options"].items())
        return cls(**values)


@dataclass(frozen=True)
class Candidate:
    """A point of the space; `id` 0 is the default."""

    id: int
    values: tuple[tuple[str, OptionValue], ...]

    @property
    def label(self) -> str:
        return f"c{self.id:03d}"

    @property
    def is_default(self) -> bool:
        return self.id == 0

    def describe(self) -> str:
        text = ", ".join(f"{k}={v}" for k, v in self.values)
        return f"{text} (default)" if self.is_default else text


@dataclass(frozen=True)
class Round:
    """A halving round: how many candidates it measures, on how many deals each."""

    candidates: int
    deals: int


@dataclass(frozen=True)
class Tune:
    """A checked tune: its space, objective, candidates and schedule."""

    settings: Settings
    game_type: GameType
    strategies: tuple[TunedStrategy, ...]
    game_dimensions: tuple[Dimension, ...]
    objective: Objective
    candidates: tuple[Candidate, ...]
    rounds: tuple[Round, ...]
    final_deals: int
    finalists: int
    components: Any = field(default=None, repr=False)

    @property
    def dimensions(self) -> tuple[Dimension, ...]:
        return (*(d for s in self.strategies for d in s.dimensions), *self.game_dimensions)

    @property
    def rotations(self) -> int:
        """Arms per evaluation: every seat of the tuned strategy against --against."""
        return self.settings.players if self.settings.against else 1

    def arms(self, candidate: Candidate, tag: str, deals: int) -> list[Arm]:
        """The arms measuring `candidate` on `deals` deals of round `tag` (one per seat
        rotation; rotation k plays the deals of master seed `round_seed(seed, tag-sk)`, the
        same for every candidate)."""
        values = dict(candidate.values)
        options = {
            **dict(self.settings.options),
            **{d.key: values[d.name] for d in self.game_dimensions if values[d.name] is not None},
        }
        specs = [s.spec(values) for s in self.strategies]
        n = self.settings.players
        lineups = (
            [
                [specs[0] if seat == k else self.settings.against for seat in range(n)]
                for k in range(n)
            ]
            if self.settings.against
            else [specs]
        )
        name = f"{candidate.label}-{tag}"
        return [
            Arm(
                f"{name}-s{k}" if self.settings.against else name,
                build_config(
                    game=self.game_type.name,
                    n_players=n,
                    games=deals,
                    seed=round_seed(self.settings.seed, deal_tag(tag, k)),
                    strategies=lineup,  # type: ignore[arg-type]
                    turn_log=self.objective.needs_turns,
                    components=self.components,
                    options=options,
                ),
            )
            for k, lineup in enumerate(lineups)
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
        from sanssim.runner import ntbea  # it builds on this module

        checked = ntbea.probes(dimensions)
        candidates = checked[:1]  # the default; the search adds the points it visits
        rounds: tuple[Round, ...] = ()
        final_deals, finalists = ntbea.schedule(settings, rotations).final
    else:
        candidates = checked = make_candidates(dimensions, settings.candidates, settings.seed)
        rounds, final_deals, finalists = schedule(
            len(candidates), settings.budget, rotations, settings.finalists
        )
    tune = Tune(
        settings, game_type, strategies, game_dimensions, objective, candidates,
        rounds, final_deals, finalists, components,
    )  # fmt: skip
    for candidate in checked:  # every candidate is a legal game before anything runs
        tune.arms(candidate, "check", 1)
    return tune


def make_candidates(
    dimensions: Sequence[Dimension], count: int, seed: int
) -> tuple[Candidate, ...]:
    """The default first, then a grid (one or two dimensions) or a Latin hypercube sample of
    `count` points (more dimensions), each distinct."""
    default = tuple((d.name, d.default) for d in dimensions)
    if len(dimensions) <= GRID_DIMENSIONS:
        points = max(2, round(count ** (1 / len(dimensions))))
        axes = [d.grid(points) for d in dimensions]
        rows: list[tuple[OptionValue, ...]] = [()]
        for axis in axes:
            rows = [(*row, v) for row in rows for v in axis]
    else:
        rng = random.Random(derive_seed(seed, "tune-candidates"))
        strata = []
        for _ in dimensions:
            order = list(range(count))
            rng.shuffle(order)
            strata.append(order)
        rows = [
            tuple(d.sample((strata[j][i] + rng.random()) / count) for j, d in enumerate(dimensions))
            for i in range(count)
        ]
    found = [default]
    for row in rows:
        values = tuple(zip((d.name for d in dimensions), row, strict=True))
        if values not in found:
            found.append(values)
    return tuple(Candidate(i, values) for i, values in enumerate(found))


def schedule(
    candidates: int, budget: int, rotations: int, finalists: int
) -> tuple[tuple[Round, ...], int, int]:
    """Rounds of successive halving (the default is kept in every round), the deals of the
    final re-measurement and the number of finalists, from the budget in games."""
    contenders = candidates - 1
    finalists = min(finalists, contenders)
    sizes = [contenders]
    while sizes[-1] > finalists:
        sizes.append(max(finalists, math.ceil(sizes[-1] / 2)))
    if len(sizes) > 1:
        sizes.pop()  # the last halving keeps the finalists; it needs no round of its own
    final_budget = int(budget * FINAL_SHARE)
    per_round = (budget - final_budget) / len(sizes)
    rounds = tuple(Round(s + 1, int(per_round // ((s + 1) * rotations))) for s in sizes)
    final_deals = final_budget // ((finalists + 1) * rotations)
    smallest = min(r.deals for r in rounds)
    if min(smallest, final_deals) < MIN_DEALS:
        need = math.ceil(
            MIN_DEALS * rotations * sum(r.candidates for r in rounds) / (1 - FINAL_SHARE)
        )
        raise TuneError(
            f"--budget {budget:,} is too small for {candidates} candidates: a round would "
            f"measure a candidate on fewer than {MIN_DEALS} deals (need about {need:,} games, "
            "or fewer --candidates)"
        )
    return rounds, final_deals, finalists


def round_seed(seed: int, tag: str) -> int:
    return derive_seed(seed, "tune", tag)


def deal_tag(tag: str, rotation: int) -> str:
    """The deals of one round's seat rotation (every candidate plays the same ones)."""
    return f"{tag}-s{rotation}"


@dataclass
class Search:
    """What a tune has measured so far, and how it went (tune.json)."""

    tune: Tune
    out: Path
    command: list[str]
    deals: dict[int, list[pl.DataFrame]] = field(default_factory=dict)
    rounds: list[dict[str, Any]] = field(default_factory=list)
    final: dict[str, Any] | None = None
    spent: int = 0

    def to_dict(self) -> dict[str, Any]:
        tune = self.tune
        final = self.final or {}
        final_estimates = final.get("estimates", {})
        halving = {  # each candidate's estimate after the last round it played
            int(cid): est for r in self.rounds for cid, est in r["estimates"].items()
        }
        candidates = [
            {
                "id": c.id,
                "label": c.label,
                "default": c.is_default,
                "values": dict(c.values),
                "rounds": sum(c.id in r["measured"] for r in self.rounds),
                "games": self._games(c.id),
                **({"halving": halving[c.id]} if c.id in halving else {}),
                **({"final": final_estimates[c.id]} if c.id in final_estimates else {}),
            }
            for c in tune.candidates
        ]
        return {
            "sanssim_version": __version__,
            "command": self.command,
            "updated": now(),
            "status": "complete" if self.final else "incomplete",
            "settings": tune.settings.to_dict(),
            "game": tune.game_type.name,
            "space": [d.to_dict() for d in tune.dimensions],
            "objective": {
                "text": tune.objective.text,
                "kind": tune.objective.kind,
                "goal": tune.objective.goal,
                "describe": tune.objective.describe(),
            },
            "budget": tune.settings.budget,
            "spent": self.spent,
            "schedule": {
                "rounds": [{"candidates": r.candidates, "deals": r.deals} for r in tune.rounds],
                "final_deals": tune.final_deals,
                "finalists": tune.finalists,
                "games_per_deal": tune.rotations,
            },
            "candidates": candidates,
            "rounds": self.rounds,
            **({"final": {k: v for k, v in final.items() if k != "estimates"}} if final else {}),
        }

    def _games(self, cid: int) -> int:
        measured = sum(r["deals"] for r in self.rounds if cid in r["measured"])
        if self.final and cid in self.final["measured"]:
            measured += self.final["deals"]
        return measured * self.tune.rotations

    def write(self) -> None:
        write_json(self.out / TUNE, self.to_dict())


def check_out(out: Path, tune: Tune, force: bool, resume: bool) -> None:
    """A new tune needs an empty (or forced) --out; a resumed one its own tune.json."""
    if resume:
        return
    check_out_dir(out, {"settings": tune.settings.to_dict()}, TUNE, force)
    if (out / TUNE).is_file():
        raise TuneError(f"{out} holds this tune already: finish it with --resume")


def load_settings(out: Path) -> Settings:
    """`--resume`: the settings a tune directory was started with."""
    if not (out / TUNE).is_file():
        raise TuneError(f"nothing to resume: {out} holds no {TUNE}")
    return Settings.from_dict(read_json(out / TUNE).get("settings", {}))


def run(
    tune: Tune,
    out: Path,
    executor: Executor,
    command: list[str],
    progress: Progress | None = None,
) -> Search:
    """Play the whole search (arms already complete are not played again) and write
    tune.json after every round."""
    if tune.settings.method == NTBEA:
        from sanssim.runner import ntbea

        return ntbea.run(tune, out, executor, command, progress)
    search = Search(tune, out, started_by(out, command))
    out.mkdir(parents=True, exist_ok=True)
    search.write()  # before any game: a tune cut short in its first round resumes too
    played: list[dict[str, Any]] = []  # index entries of the arms played so far
    alive = [c.id for c in tune.candidates]
    by_id = {c.id: c for c in tune.candidates}
    seed = tune.settings.seed
    for r, plan_round in enumerate(tune.rounds):
        tag = f"r{r}"
        measured = alive[: plan_round.candidates]
        arms = _play(
            search, played, [by_id[i] for i in measured], tag, plan_round.deals, executor, progress
        )
        estimates = {
            cid: obj.estimate(
                tune.objective, _stack(search.deals[cid]), derive_seed(seed, "ci", cid)
            )
            for cid in measured
        }
        ranked = _ranked(tune, measured, estimates)
        keep = tune.rounds[r + 1].candidates - 1 if r + 1 < len(tune.rounds) else tune.finalists
        alive = [0, *ranked[:keep]]
        search.rounds.append(
            {
                "round": r,
                "seeds": [round_seed(seed, deal_tag(tag, k)) for k in range(tune.rotations)],
                "deals": plan_round.deals,
                "measured": measured,
                "ranking": ranked,
                "kept": alive,
                "games": len(measured) * plan_round.deals * tune.rotations,
                "spent_after": search.spent,
                "estimates": {str(c): estimates[c].to_dict() for c in measured},
                "arms": [a.name for a in arms],
            }
        )
        search.write()
    remeasure(search, played, [c for c in alive if c != 0], executor, progress)
    return search


def started_by(out: Path, command: list[str]) -> list[str]:
    """The command of a tune: a resumed one's tune.json keeps the command that started it."""
    return read_json(out / TUNE).get("command", command) if (out / TUNE).is_file() else command


def remeasure(
    search: Search,
    played: list[dict[str, Any]],
    finalists: Sequence[int],
    executor: Executor,
    progress: Progress | None,
) -> None:
    """The final step: the finalists (best first) and the default play fresh deals; the best
    is compared with the default on them, paired deal by deal; tune.json is complete."""
    tune = search.tune
    seed = tune.settings.seed
    by_id = {c.id: c for c in tune.candidates}
    deals: dict[int, pl.DataFrame] = {}
    before = {cid: len(frames) for cid, frames in search.deals.items()}
    measured = [*finalists, 0]
    _play(
        search, played, [by_id[i] for i in measured], "final", tune.final_deals, executor, progress
    )
    for cid in measured:
        deals[cid] = _stack(search.deals[cid][before.get(cid, 0) :])
    finals = {
        cid: obj.estimate(tune.objective, deals[cid], derive_seed(seed, "final-ci", cid))
        for cid in measured
    }
    best = finalists[0]
    difference = obj.difference(tune.objective, deals[best], deals[0], derive_seed(seed, "diff"))
    better = difference.lo > 0 if tune.objective.sign > 0 else difference.hi < 0
    worse = difference.hi < 0 if tune.objective.sign > 0 else difference.lo > 0
    search.final = {
        "seeds": [round_seed(seed, deal_tag("final", k)) for k in range(tune.rotations)],
        "deals": tune.final_deals,
        "measured": measured,
        "estimates": {cid: e.to_dict() for cid, e in finals.items()},
        "best": best,
        "best_values": dict(by_id[best].values),
        "best_vs_default": {
            **difference.to_dict(),
            "paired": True,
            "verdict": "better" if better else "worse" if worse else "no clear difference",
        },
    }
    search.write()


def _stack(frames: list[pl.DataFrame]) -> pl.DataFrame:
    """A candidate's deals of several rounds (a group unseen in a round counts nothing)."""
    return pl.concat(frames, how="diagonal_relaxed").fill_null(0.0)


def _ranked(tune: Tune, ids: Sequence[int], estimates: Mapping[int, obj.Estimate]) -> list[int]:
    """Contenders (not the default) best first; ties by id."""
    sign = tune.objective.sign
    return sorted((c for c in ids if c != 0), key=lambda c: (-sign * estimates[c].estimate, c))


def _play(
    search: Search,
    played: list[dict[str, Any]],
    candidates: Sequence[Candidate],
    tag: str,
    deals: int,
    executor: Executor,
    progress: Progress | None,
    chunk_size: int | None = None,
    index: bool = True,
) -> list[Arm]:
    """Play the arms of `candidates` for one round and add their deals to the search.
    `played` holds the index entries of the arms played before; index.json lists them all
    (when `index`: a walk of many small steps writes it every few)."""
    tune = search.tune
    new = [(c, arm) for c in candidates for arm in tune.arms(c, tag, deals)]
    arms = tuple(arm for _, arm in new)
    dirs = tuple(search.out / a.name for a in arms)  # type: ignore[operator]
    continuing = tuple(
        check_out_dir(d, identity(a.config), MANIFEST, False)
        for a, d in zip(arms, dirs, strict=True)
    )
    played.extend(index_entries(arms))
    if index:
        write_index(search.out, played, search.command)
    plan = Plan(search.out, arms, dirs, continuing, indexed=False)
    execute(plan, executor, search.command, chunk_size, progress)
    by_candidate: dict[int, list[obj.Part]] = {}
    for k, (candidate, arm) in enumerate(new):
        path = search.out / arm.name  # type: ignore[operator]
        results = pl.scan_parquet(sorted((path / RESULTS).glob("*.parquet")))
        turns = (
            pl.scan_parquet(sorted((path / TURNS).glob("*.parquet")))
            if arm.config.turn_log
            else None
        )
        groups = None
        if tune.objective.grouped:
            groups = tune.game_type.groups()[tune.objective.group].values(
                results, arm.config.game()
            )
        seat = k % tune.rotations
        by_candidate.setdefault(candidate.id, []).append(
            obj.Part(deal_tag(tag, seat), results, turns, seat, groups)
        )
    for cid, parts in by_candidate.items():
        search.deals.setdefault(cid, []).append(tune.objective.per_deal(parts))
    search.spent += len(new) * deals
    return [arm for _, arm in new]
