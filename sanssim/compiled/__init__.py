"""Compiled play: numba cores that play whole chunks of games, identical to the Python engines.

A built-in game may offer a `Core` (its `GameType.core()`): given the engine's `Game`, the
seats' `StrategySpec`s and the chunk's game ids and seeds, it plays every game in compiled
code and returns the same polars frames, column for column and row for row, that the
Python path (`GameType.result_frame` / `turn_frame` over `play_game`) gives for those
games. The Python engine stays the reference: a core that disagrees with it is wrong.

Randomness is `sanssim.compiled.rng`, Python's MT19937 replicated draw for draw, seeded
from the same derived seeds (`sanssim.seeding`) as the Python engine and strategies.

This module itself never imports numba: it picks the engine for a chunk
(`core_for`), compiles a core once in the driver (`prepare`, one progress line the
first time), and keeps numba's on-disk cache in a user cache directory
(`NUMBA_CACHE_DIR` when set). Without numba every run plays in Python after one
warning line.
"""

from __future__ import annotations

import gc
import hashlib
import inspect
import os
import shutil
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from sanssim.errors import ConfigError

if TYPE_CHECKING:
    import polars as pl

    from sanssim.games.base import GameType
    from sanssim.strategies.base import StrategySpec

AUTO, COMPILED, PYTHON = ENGINES = ("auto", "compiled", "python")
# A core's strategy families (`Core.family`): what a chunk of simple seats needs (random,
# greedy, heuristic), and that with the searches (lookahead, ismcts) too.
SIMPLE, SEARCHING = "simple", "searching"


def strategy_family(specs: Sequence[StrategySpec] | None) -> str:
    """`SEARCHING` when a seat plays lookahead or ismcts (or for every strategy: None),
    else `SIMPLE`: a core compiles each family on its own, so that a run of simple seats
    never compiles the searches."""
    from sanssim.strategies.ismcts import IsmctsStrategy
    from sanssim.strategies.lookahead import LookaheadStrategy

    if specs is None or any(s.cls in (LookaheadStrategy, IsmctsStrategy) for s in specs):
        return SEARCHING
    return SIMPLE


def searching(specs: Sequence[StrategySpec]) -> bool | None:
    """A core play loop's `searching` argument: True when a seat searches, else None,
    which lets numba prune the searches' branch unseen (neither typed nor compiled)."""
    return True if strategy_family(specs) == SEARCHING else None


def cache_dir() -> Path:
    """Where numba keeps compiled code: $NUMBA_CACHE_DIR, else the user cache directory."""
    given = os.environ.get("NUMBA_CACHE_DIR")
    if given:
        return Path(given)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "sanssim" / "numba"


# Before numba is imported (the cores import it through this package), so that its
# cache lands in the user cache directory rather than beside the installed sources; numba
# imported earlier reads its configuration instead, as the cores' modules are decorated.
os.environ.setdefault("NUMBA_CACHE_DIR", str(cache_dir()))
if "numba" in sys.modules:
    sys.modules["numba"].config.CACHE_DIR = os.environ["NUMBA_CACHE_DIR"]


@dataclass(frozen=True, slots=True)
class CoreChunk:
    """What a core played: the results frame, the turns frame (None without a turn log)."""

    results: pl.DataFrame
    turns: pl.DataFrame | None


class ChunkRefused(RuntimeError):
    """A chunk a core cannot play as the Python engine would (a game in which a strategy
    raises in Python, say): the runner plays that chunk in Python, which records the
    failure with its seed."""


class Core(Protocol):
    """One game's compiled fast path; `title` names it in the first compile's line."""

    title: str

    def supports(self, specs: Sequence[StrategySpec]) -> bool:
        """True when every seat's strategy (with its parameters) has a compiled form."""

    def family(self, specs: Sequence[StrategySpec] | None) -> str:
        """The name of the compiled entry points a chunk of `specs` plays on (None: of
        every strategy the core has); each family compiles on its own, when first needed,
        so that a run of simple strategies never compiles the searches."""

    def compile(self, family: str) -> None:
        """Compile (or load from the on-disk cache) everything a chunk of `family` needs."""

    def play_chunk(
        self,
        game: Any,
        specs: Sequence[StrategySpec],
        run_id: str,
        strategies: Sequence[str],
        games: Sequence[tuple[int, int]],
        record: bool,
    ) -> CoreChunk:
        """Play `games` ((game_id, game_seed) pairs) and return the Python path's frames."""

    def decide(self, state: Any, spec: StrategySpec, g: Any) -> int:
        """What `spec`'s compiled form chooses at a Python engine's `state`, drawing from
        the compiled generator `g` (`rng`) as the Python strategy draws from its own."""

    def search_terms(
        self, state: Any, spec: StrategySpec, g: Any
    ) -> list[tuple[int, float, float]]:
        """An `ismcts` spec's compiled search at `state`: each legal choice with its visits
        and mean reward, in legal order."""


@cache
def numba_available() -> bool:
    """Whether numba imports here; the first time it does not, one warning line."""
    try:
        import numba  # noqa: F401
    except ImportError as exc:
        print(
            f"sanssim: warning: numba cannot be imported ({exc}); playing in Python",
            file=sys.stderr,
        )
        return False
    return True


def core_for(game_type: GameType, specs: Sequence[StrategySpec], engine: str) -> Core | None:
    """The core that plays a chunk on `engine`, or None for the Python engine: `auto` takes
    the game's core when it has every seat's strategy compiled; `compiled` insists."""
    if engine not in ENGINES:
        raise ConfigError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    if engine == PYTHON:
        return None
    core = game_type.core()
    if core is not None and core.supports(specs) and numba_available():
        return core
    if engine == AUTO:
        return None
    if core is None:
        why = f"{game_type.name} has no compiled engine"
    elif not core.supports(specs):
        named = ", ".join(sorted({spec.name for spec in specs}))
        why = f"not every strategy of {named} has a compiled form"
    else:
        why = "numba cannot be imported"
    raise ConfigError(f"--engine compiled: {why}")


def prepare(core: Core, specs: Sequence[StrategySpec] | None = None) -> None:
    """Compile what a chunk of `specs` needs on `core` (None: every strategy), or load it
    from the cache, once in this process, saying so the first time it compiles for these
    sources on this machine.

    numba checks a cached function against its own file only, not against the constants it
    reads from other modules; so when any source of the core changed, its cached code is
    dropped first, and the whole core compiles afresh."""
    family = core.family(specs)
    if (type(core), family) in _PREPARED:
        return
    with _compiling_alone(core) as sources:
        marker = cache_dir() / f"{sources}-{family}.ready"
        if not marker.exists():
            print(f"compiling {core.title}, first run only", file=sys.stderr, flush=True)
            _forget_stale(core, sources)
        with _few_collections():
            core.compile(family)
        marker.touch()
    _PREPARED.add((type(core), family))


def forget_stale(core: Core) -> None:
    """Drop `core`'s cached code if other sources compiled it, as `prepare` does before it
    compiles, without compiling: for a process that calls a core's cached functions
    directly, not through `prepare` (a test suite's workers, before their first test), so
    that no other process's first `prepare` drops the cache files it is writing."""
    with _compiling_alone(core) as sources:
        _forget_stale(core, sources)


def _forget_stale(core: Core, sources: str) -> None:
    """`forget_stale` under the core's lock, `sources` its sources' name: once for these
    sources (a marker says so), since later compiles for them are theirs to keep."""
    checked = cache_dir() / f"{sources}.checked"
    if not checked.exists():
        _drop_cached(_source_folders(core))
        checked.touch()


@contextmanager
def _compiling_alone(core: Core) -> Iterator[str]:
    """The name of `core`'s current sources (`_digest`), while holding the core's lock (an
    exclusive lock on a file, released when the process ends, however it ends) as its
    cache is checked, dropped or written: two processes preparing one core at once (two
    runs started together, a test suite's workers) would otherwise drop each other's cache
    files as they are written. The second waits for the first's compile, then loads it.
    Without `fcntl` (Windows), no lock."""
    name = f"sanssim-{type(core).__name__}"
    sources = f"{name}-{_digest(_source_folders(core))}"
    lock = cache_dir() / f"{name}.lock"
    lock.parent.mkdir(parents=True, exist_ok=True)
    try:
        import fcntl
    except ImportError:
        yield sources
        return
    with open(lock, "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        yield sources


_PREPARED: set[tuple[type, str]] = set()


@contextmanager
def _few_collections() -> Iterator[None]:
    """Python's cycle collector run rarely: numba's compiler makes millions of objects,
    most of them alive for a whole compile, and at the default thresholds the collector
    scans them over and over (about 2 of a Sanssouci core's 16 CPU-s). It runs as usual
    again afterwards, and collects the compile's cycles then."""
    thresholds = gc.get_threshold()
    gc.set_threshold(100_000, 50, 1_000)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)


def _source_folders(core: Core) -> list[Path]:
    """The folders of every module a core's compiled code may read: its game's package
    (the core's package's parent) and this one."""
    game = Path(os.path.abspath(inspect.getfile(type(core)))).parents[1]  # as numba names it
    here = Path(os.path.abspath(__file__)).parent
    return sorted({p.parent for p in game.rglob("*.py")} | {here})


def _digest(folders: list[Path]) -> str:
    """Changes whenever a source in `folders`, numba's version or Python's changes, and
    differs between checkouts: numba keys its cache by a source's path, so a marker left by
    one checkout's compile must not vouch for another's (or a stale one at the same path)."""
    import numba

    digest = hashlib.sha256(f"{numba.__version__} {sys.version}".encode())
    for folder in folders:
        for path in sorted(folder.glob("*.py")):
            digest.update(str(path).encode() + path.read_bytes())
    return digest.hexdigest()[:16]


def _drop_cached(folders: list[Path]) -> None:
    """Remove numba's cache entries for the modules in `folders`, wherever numba keeps
    them: one cache folder per source folder under the cache directory, or beside the
    sources."""
    from numba.core.caching import _CacheLocator

    for folder in folders:
        subpath = _CacheLocator.get_suitable_cache_subpath(str(folder / "x.py"))
        shutil.rmtree(cache_dir() / subpath, ignore_errors=True)
        for cached in folder.glob("__pycache__/*.nb[ic]"):
            cached.unlink(missing_ok=True)
