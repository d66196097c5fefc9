"""What a report section produces, and the context sections are built in."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from matplotlib import colormaps
from matplotlib.colors import to_hex

from sanssim.analysis.dataset import Dataset
from sanssim.analysis.document import Block

TEN_COLOURS = tuple(to_hex(c) for c in colormaps["tab10"].colors)
TWENTY_COLOURS = tuple(to_hex(c) for c in colormaps["tab20"].colors)


@dataclass
class Context:
    """The dataset and the output folder; collects the figures written."""

    data: Dataset
    out: Path
    figures: list[Path] = field(default_factory=list)

    def colour(self, arm: str) -> str:
        """The same colour for an arm in every figure, a distinct one for up to 20 arms."""
        index = self.data.arm_labels.index(arm)
        if len(self.data.arm_labels) <= len(TEN_COLOURS):
            return TEN_COLOURS[index]
        return TWENTY_COLOURS[index % len(TWENTY_COLOURS)]

    def figure(self, name: str) -> Path:
        path = self.out / f"{name}.png"
        self.figures.append(path)
        return path


@dataclass
class Skipped:
    section: str
    reason: str


def skipped_without_turns(ctx: Context, what: str) -> list[Skipped]:
    """`what` is skipped for the arms whose runs have no turn log (`--no-turn-log`)."""
    missing = ctx.data.arms_without_turns()
    if not missing:
        return []
    return [Skipped(what, f"no turn log (--no-turn-log) for: {'; '.join(missing)}")]


@dataclass
class Section:
    """Blocks for the body, what was skipped, and one-line findings for the summary."""

    blocks: list[Block]
    skipped: list[Skipped] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)
