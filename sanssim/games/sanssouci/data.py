"""Component data files: the packaged default and users' own copies."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from sanssim.games.components import packaged_text, parse_component_text, read_component_file
from sanssim.games.sanssouci.components import Components

DEFAULT_FILE = "components.toml"


def load_components(path: str | Path | None = None) -> Components:
    """Read and validate a component data file; None means the packaged default."""
    if path is None:
        return default_components()
    return parse_components(read_component_file(path), str(path))


def parse_components(text: str, source: str = "<string>") -> Components:
    return parse_component_text(text, source, Components.from_dict)


@lru_cache(maxsize=1)
def default_components() -> Components:
    return parse_components(packaged_text(__package__, DEFAULT_FILE), DEFAULT_FILE)
