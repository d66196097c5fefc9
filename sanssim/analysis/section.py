"""What a report section produces, and the context sections are built in."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sanssim.analysis.dataset import Dataset
from sanssim.analysis.document import Block, Heading

# matplotlib's `tab10` and `tab20` colour maps, spelled out: a command that draws no figure
# (or draws them in the background worker) need not import matplotlib for them.
TEN_COLOURS = (
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
    "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
)  # fmt: skip
TWENTY_COLOURS = (
    "#1f77b4", "#aec7e8", "#ff7f0e", "#ffbb78", "#2ca02c", "#98df8a", "#d62728",
    "#ff9896", "#9467bd", "#c5b0d5", "#8c564b", "#c49c94", "#e377c2", "#f7b6d2",
    "#7f7f7f", "#c7c7c7", "#bcbd22", "#dbdb8d", "#17becf", "#9edae5",
)  # fmt: skip


@dataclass
class Context:
    """The dataset and the output folder; collects the figures written. `verdicts`: the
    conclusions of robustness runs (`flipped.load`), so a finding another line-up changed is
    marked where it is stated."""

    data: Dataset
    out: Path
    figures: list[Path] = field(default_factory=list)
    verdicts: tuple[dict[str, Any], ...] = ()

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


# More arms than this, and a section's key findings sum up across arms instead of one
# line per arm (the per-arm lines then close the section).
FEW_ARMS = 2
# A section's key findings: at most this many lines; the rest close the section.
MAX_KEY_FINDINGS = 4
CLOSING = "more findings close the section"  # the count line of a section's cut findings
# Key findings in all, the answer lines first (issue 19: a designer counted 14 for one
# two-arm question); the sections' findings keep at least MIN_FINDINGS, in section order,
# and the rest close their sections. At most MAX_ANSWERS answer lines, the largest.
MAX_FINDINGS = 8
MIN_FINDINGS = 3
MAX_ANSWERS = MAX_FINDINGS - MIN_FINDINGS


@dataclass(frozen=True)
class Answer:
    """A line that answers the question the arms ask, and its `size`: the largest effect it
    reports whose interval excludes zero, in standard deviations of the per-game values (see
    `paired.effect_size`), 0 when it establishes none; None for a verdict that is no one
    effect (a tuning search's verdict). The key findings open with the
    largest."""

    text: str
    size: float | None = None


def ranked(answers: list[Answer], limit: int) -> tuple[list[Answer], list[Answer]]:
    """The answers for the key findings, at most `limit`, and the smaller ones left over:
    largest established effect first (ties in the order given), the verdicts after them
    and never left over (a tune's verdict is the question its report asks)."""
    verdicts = [a for a in answers if a.size is None]
    effects = sorted((a for a in answers if a.size is not None), key=lambda a: -(a.size or 0.0))
    room = max(limit - len(verdicts), 0)
    return effects[:room] + verdicts, effects[room:]


@dataclass
class Section:
    """Blocks for the body, what was skipped, and one-line findings for the summary.

    `summary`, when set, stands for `findings` among the key findings: a few lines across
    arms instead of one per arm (the per-arm findings then close the section's body).
    `answer`: lines that answer the question the arms ask (the mission ranking under other
    component data, what fewer tiles do), put before every other finding, largest first.
    `lead`: blocks that open the key findings, for a verdict a line cannot hold (which
    conclusions another line-up changed, as a table)."""

    blocks: list[Block]
    skipped: list[Skipped] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)
    summary: list[str] | None = None
    answer: list[Answer] = field(default_factory=list)  # first among the key findings
    lead: list[Block] = field(default_factory=list)  # before the key findings' lines


def key_findings(section: Section) -> tuple[list[str], list[str]]:
    """What the section gives the key findings, and the per-arm findings left to close its
    body (none when every finding made the key findings)."""
    if section.summary is not None:
        return section.summary, section.findings
    if len(section.findings) <= MAX_KEY_FINDINGS:
        return section.findings, []
    shown = section.findings[: MAX_KEY_FINDINGS - 1]
    more = len(section.findings) - len(shown)
    title = next((b.text for b in section.blocks if isinstance(b, Heading)), "its section")
    return [*shown, f"{more} {CLOSING} “{title}”."], section.findings
