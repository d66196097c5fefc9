"""Component data as the shared layer knows it: how a game reads its packaged file, a
user's copy and a run manifest's record, and the data of a game that has none."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from sanssim.errors import ComponentError


@dataclass(frozen=True, slots=True)
class ComponentData:
    """A game's component data: `load(path)` reads the packaged default (None) or a user's
    file, validated; `from_manifest(data)` the record a run's manifest keeps of it."""

    load: Callable[[str | Path | None], Any]
    from_manifest: Callable[[dict[str, Any]], Any]


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


def parse_component_text(
    text: str, source: str, from_dict: Callable[[Any], Any], json_too: bool = False
) -> Any:
    """Component data from a file's text (TOML; with `json_too`, JSON for a `.json`
    source, the manifest's layout), validated by `from_dict`; a one-line ComponentError
    naming `source` for a file that does not parse or validate."""
    as_json = json_too and source.endswith(".json")
    try:
        data = json.loads(text) if as_json else tomllib.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
        first = str(exc).splitlines()[0]
        kind = "JSON" if as_json else "TOML"
        raise ComponentError(f"{source}: cannot parse (invalid {kind}): {first}") from None
    try:
        return from_dict(data)
    except ComponentError as exc:
        raise ComponentError(f"{source}: {exc}") from None


def packaged_text(package: str, name: str) -> str:
    """A data file shipped inside a game's package."""
    return resources.files(package).joinpath(name).read_text(encoding="utf-8")
