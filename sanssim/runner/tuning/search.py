"""What every tune method shares: its settings, the checked tune (space, objective,
candidates, schedule), the search written to tune.json, the playing of candidates' arms and
the final re-measurement on fresh deals.

Each candidate evaluation is one or more arms of the usual run format in one experiment
directory (`index.json`), played by `sanssim.runner.run.execute`, so any executor, resume
and `sanssim report` work on it. `tune.json` beside them holds the search.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from sanssim import __version__
from sanssim.analysis import objective as obj
from sanssim.analysis.objective import Objective
from sanssim.games import GameType
from sanssim.games.base import OptionValue
from sanssim.rundir import scan
from sanssim.runformat import MANIFEST, RESULTS, TUNE, TURNS
from sanssim.runner.batch import check_out_dir
from sanssim.runner.config import Arm, build_config
from sanssim.runner.executor import Executor
from sanssim.runner.files import now, read_json, write_json
from sanssim.runner.run import Plan, execute, identity, index_entries, write_index
from sanssim.runner.tuning.space import Candidate, Dimension, TunedStrategy, TuneError
from sanssim.seeding import derive_seed

DEFAULT_CANDIDATES = 16
DEFAULT_FINALISTS = 3
DEFAULT_BATCH = 50  # deals per evaluation of --method ntbea
HALVING, NTBEA = "halving", "ntbea"
METHODS = (HALVING, NTBEA)
FINAL_SHARE = 0.3  # of the budget, for the final re-measurement on fresh deals
MIN_DEALS = 20  # fewest deals a candidate may be measured on in a round
Progress = Callable[[str, int, int], AbstractContextManager[Callable[[int], None]]]


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
    if not force and (out / TUNE).is_file():
        raise TuneError(f"{out} holds this tune already: finish it with --resume")


def load_settings(out: Path) -> Settings:
    """`--resume`: the settings a tune directory was started with."""
    if not (out / TUNE).is_file():
        raise TuneError(f"nothing to resume: {out} holds no {TUNE}")
    return Settings.from_dict(read_json(out / TUNE).get("settings", {}))


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
    play(
        search, played, [by_id[i] for i in measured], "final", tune.final_deals, executor, progress
    )
    for cid in measured:
        deals[cid] = stack(search.deals[cid][before.get(cid, 0) :])
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


def stack(frames: list[pl.DataFrame]) -> pl.DataFrame:
    """A candidate's deals of several rounds (a group unseen in a round counts nothing)."""
    return pl.concat(frames, how="diagonal_relaxed").fill_null(0.0)


def play(
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
        manifest = read_json(path / MANIFEST)
        results = scan(path, manifest, RESULTS, deep=False)
        turns = scan(path, manifest, TURNS, deep=False) if arm.config.turn_log else None
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
