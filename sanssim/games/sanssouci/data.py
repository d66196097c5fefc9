"""Component data files: the packaged default and users' own copies."""

from __future__ import annotations

import tomllib
from functools import lru_cache
from importlib import resources
from pathlib import Path

from sanssim.errors import ComponentError
from sanssim.games.base import read_component_file
from sanssim.games.sanssouci.components import Components

DEFAULT_FILE = "components.toml"


def load_components(path: str | Path | None = None) -> Components:
    """Read and validate a component data file; None means the packaged default."""
    if path is None:
        return default_components()
    return parse_components(read_component_file(path), str(path))


def parse_components(text: str, source: str = "<string>") -> Components:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ComponentError(f"{source}: invalid TOML: {exc}") from None
    try:
        return Components.from_dict(data)
    except ComponentError as exc:
        raise ComponentError(f"{source}: {exc}") from None


@lru_cache(maxsize=1)
def default_components() -> Components:
    text = resources.files(__package__).joinpath(DEFAULT_FILE).read_text(encoding="utf-8")
    return parse_components(text, DEFAULT_FILE)
