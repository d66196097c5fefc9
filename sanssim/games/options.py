"""Game options: one declaration gives the command-line flag, the experiment-file key and
the config key, and parses the values of all three."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

from sanssim.errors import ConfigError

OptionValue = bool | int | float | str | None
_TRUE, _FALSE = ("true", "1", "yes", "on"), ("false", "0", "no", "off")


@dataclass(frozen=True, slots=True)
class Option:
    """A game option: one command-line flag, one experiment-file key, one config key.

    `kind` is the type of its values; a `None` default means the game resolves it
    from the player count (the manifest records the resolved value).
    """

    name: str
    kind: type
    default: OptionValue
    help: str
    choices: tuple[str, ...] = ()
    label: str = ""  # how reports name it before its value (default: its name in words)

    @property
    def report_label(self) -> str:
        return self.label or self.name.replace("_", " ")

    @property
    def flag(self) -> str:
        return "--" + self.name.replace("_", "-")

    def parse(self, value: object, game: str) -> OptionValue:
        """A value from the command line (text) or an experiment file (TOML value)."""
        if value is None:
            return None
        kind = self.kind
        if isinstance(value, str) and kind is not str:
            text = value.strip().lower()
            if kind is bool and text in _TRUE + _FALSE:
                return text in _TRUE
            with contextlib.suppress(ValueError):
                value = kind(text) if kind is not bool else value
        if kind is bool:
            ok = isinstance(value, bool)
        else:
            numeric = (int, float) if kind is float else kind
            ok = isinstance(value, numeric) and not isinstance(value, bool)
        if not ok:
            raise ConfigError(
                f"{game} option {self.name} must be {_KIND_NAMES[kind]}, got {value!r}"
            )
        if self.choices and value not in self.choices:
            raise ConfigError(
                f"{game} option {self.name} must be one of {', '.join(self.choices)}, got {value!r}"
            )
        return float(value) if kind is float else value  # type: ignore[arg-type]


_KIND_NAMES = {bool: "true or false", int: "an integer", float: "a number", str: "text"}
