"""The space a tune searches: its dimensions (strategy parameters and game options, as ranges
or lists) and the candidate points halving measures (a grid, or a Latin hypercube sample)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sanssim.games import GameType
from sanssim.games.base import OptionValue
from sanssim.runner.config import RunError
from sanssim.seeding import derive_seed
from sanssim.strategies import resolve

GRID_DIMENSIONS = 2  # up to this many dimensions are searched on a grid


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
