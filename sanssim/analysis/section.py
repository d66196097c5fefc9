"""What a report section produces, and the context sections are built in."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from sanssim.analysis.dataset import Dataset
from sanssim.analysis.document import Block


@dataclass
class Context:
    """The dataset and the output folder; collects the figures written."""

    data: Dataset
    out: Path
    figures: list[Path] = field(default_factory=list)

    def colour(self, arm: str) -> str:
        """The same colour for an arm in every figure."""
        return f"C{self.data.arm_labels.index(arm) % 10}"

    def figure(self, name: str) -> Path:
        path = self.out / f"{name}.png"
        self.figures.append(path)
        return path


@dataclass
class Skipped:
    section: str
    reason: str


@dataclass
class Section:
    """Blocks for the body, what was skipped, and one-line findings for the summary."""

    blocks: list[Block]
    skipped: list[Skipped] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)
