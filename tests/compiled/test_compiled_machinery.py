"""What every compiled core shares: the engine choice, compile-once, numba's cache, the
fallback to Python without numba."""

from __future__ import annotations

import gc
import sys
import threading
import time
from pathlib import Path

import pytest

import sanssim.compiled as compiled
from sanssim.errors import ConfigError
from sanssim.games import get_game
from sanssim.games.sanssouci.core import SanssouciCore
from sanssim.strategies import resolve

GAME = get_game("sanssouci")


class CountingCore:
    """A core that only counts its compiles."""

    title = "the counting engine"

    def __init__(self) -> None:
        self.compiles = 0

    def supports(self, specs: object) -> bool:
        return True

    def family(self, specs: object) -> str:
        return "all"

    def compile(self, family: str) -> None:
        self.compiles += 1


def test_the_cache_lives_in_the_user_cache_directory(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert compiled.cache_dir() == tmp_path / "sanssim" / "numba"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine"))
    assert compiled.cache_dir() == tmp_path / "mine"


def test_a_core_compiles_once_saying_so_the_first_time(monkeypatch, tmp_path, capsys) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    core = CountingCore()
    compiled.prepare(core)  # type: ignore[arg-type]
    compiled.prepare(core)  # type: ignore[arg-type]
    assert core.compiles == 1
    assert capsys.readouterr().err == "compiling the counting engine, first run only\n"
    monkeypatch.setattr(compiled, "_PREPARED", set())  # a new process: loads the cache
    compiled.prepare(core)  # type: ignore[arg-type]
    assert core.compiles == 2 and capsys.readouterr().err == ""


def test_cached_code_is_dropped_once_for_new_sources(monkeypatch, tmp_path) -> None:
    """numba cannot tell that a constant a cached function reads from another module has
    changed: a core's cached code is dropped before the first compile for new sources,
    and kept from then on (by `prepare` and by `forget_stale` alike)."""
    from numba.core.caching import _CacheLocator

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    core = CountingCore()
    folder = compiled._source_folders(core)[0]  # type: ignore[arg-type]
    cached = tmp_path / _CacheLocator.get_suitable_cache_subpath(str(folder / "x.py")) / "f.nbi"

    def write_cached() -> None:
        cached.parent.mkdir(parents=True, exist_ok=True)
        cached.touch()

    def new_process() -> None:
        monkeypatch.setattr(compiled, "_PREPARED", set())

    new_process()
    write_cached()  # left by a compile of other sources
    compiled.prepare(core)  # type: ignore[arg-type]
    assert not cached.exists()
    write_cached()  # this compile's
    new_process()
    compiled.prepare(core)  # type: ignore[arg-type]
    compiled.forget_stale(core)  # type: ignore[arg-type]
    assert cached.exists() and core.compiles == 2
    monkeypatch.setattr(compiled, "_digest", lambda folders: "edited")
    compiled.forget_stale(core)  # type: ignore[arg-type]
    assert not cached.exists()
    write_cached()
    new_process()
    compiled.prepare(core)  # type: ignore[arg-type]
    assert cached.exists() and core.compiles == 3


class SlowCore(CountingCore):
    """A core whose compile takes a while, noting the most compiles ever in progress."""

    def __init__(self) -> None:
        super().__init__()
        self.running = self.most = 0

    def compile(self, family: str) -> None:
        self.running += 1
        self.most = max(self.most, self.running)
        time.sleep(0.3)
        self.compiles += 1
        self.running -= 1


def test_two_preparing_at_once_take_turns(monkeypatch, tmp_path, capsys) -> None:
    """Two runs started together into an empty cache: the first compiles, the second waits
    and then loads (each drops and writes the cache alone, under a lock on a file)."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    core = SlowCore()
    both = [threading.Thread(target=compiled.prepare, args=(core,)) for _ in range(2)]
    for thread in both:
        thread.start()
    for thread in both:
        thread.join()
    assert core.compiles == 2 and core.most == 1
    assert capsys.readouterr().err == "compiling the counting engine, first run only\n"


class FailingCore(CountingCore):
    """A core whose compile fails, noting the cycle collector's thresholds meanwhile."""

    def compile(self, family: str) -> None:
        self.during = gc.get_threshold()
        raise RuntimeError("numba failed")


def test_the_collector_runs_rarely_during_a_compile_and_as_before_after(
    monkeypatch, tmp_path
) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    outside = gc.get_threshold()
    gc.set_threshold(700, 10, 10)  # Python's defaults, whatever the test session set
    try:
        core = FailingCore()
        with pytest.raises(RuntimeError, match="numba failed"):
            compiled.prepare(core)  # type: ignore[arg-type]
        assert core.during[0] >= 100 * 700
        assert gc.get_threshold() == (700, 10, 10)
    finally:
        gc.set_threshold(*outside)


def test_auto_takes_the_core_only_for_compiled_strategies() -> None:
    compiled_specs = [resolve("random"), resolve("heuristic:path=1")]
    assert isinstance(compiled.core_for(GAME, compiled_specs, "auto"), SanssouciCore)
    assert compiled.core_for(GAME, compiled_specs, "python") is None
    other = [resolve("random"), resolve("tests.skill_strategy:Skilled")]
    assert compiled.core_for(GAME, other, "auto") is None
    with pytest.raises(ConfigError, match="not every strategy"):
        compiled.core_for(GAME, other, "compiled")
    with pytest.raises(ConfigError, match="engine must be one of"):
        compiled.core_for(GAME, compiled_specs, "fast")


def test_without_numba_runs_play_in_python_after_one_warning(monkeypatch, capsys) -> None:
    monkeypatch.setitem(sys.modules, "numba", None)  # `import numba` raises ImportError
    compiled.numba_available.cache_clear()
    try:
        specs = [resolve("random")] * 2
        assert compiled.core_for(GAME, specs, "auto") is None
        assert compiled.core_for(GAME, specs, "auto") is None
        with pytest.raises(ConfigError, match="numba cannot be imported"):
            compiled.core_for(GAME, specs, "compiled")
        (line,) = capsys.readouterr().err.splitlines()
        assert line.startswith("sanssim: warning: numba cannot be imported")
    finally:
        compiled.numba_available.cache_clear()
