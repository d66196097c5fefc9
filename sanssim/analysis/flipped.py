"""Findings marked where they are stated when another line-up changes them.

A robustness report (several line-ups on the same designs, `robustness.build`) writes its
verdicts to `VERDICTS` in its folder: per conclusion, the designs it concerns (each arm's
design without its line-up), the metric, and each line-up's verdict with the interaction
interval. Another report given that file (`sanssim report --robustness FILE`) looks up each
finding it states about the same designs under one of those line-ups, and where another
line-up changes it, appends a marker saying so. A change is a reversal (higher under one
line-up, lower under the other) or a verdict that differs while the interaction interval
(the line-up's conclusion minus the reference's) excludes zero; a verdict that differs
only in reaching significance, with an interaction that holds zero, is not a change: it is
what two samples of one effect give. The marker repeats the robustness run's own figures
(its line-ups, games and intervals), never the report's: a finding is marked only where a
robustness run of the same designs measured the change.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from sanssim.analysis.dataset import Dataset
from sanssim.analysis.errors import ReportError

VERDICTS = "robustness.json"
MARK = "⚑"
Entry = dict[str, Any]
UNCLEAR = "(no clear difference)"
OPPOSITE = {"(higher)", "(lower)"}


def design(data: Dataset, arm: str) -> dict[str, str]:
    """An arm's design without its line-up, as text: what makes two reports' arms the
    same design."""
    row = data.arms.filter(data.arms["arm"] == arm).row(0, named=True)
    return {c: str(row[c]) for c in data.design if c != "lineup"}


def entry(
    data: Dataset,
    kind: str,
    metric: str,
    arms: Sequence[str],
    label: str,
    by_lineup: dict[str, tuple[str, str, int]],
    interaction: dict[str, tuple[str, str]],
) -> Entry:
    """One conclusion for the verdicts file. `kind`: `seat_edge` or `effect`; `metric`: what
    it measures, in words; `arms`: the arms it concerns under one line-up (one for a seat
    edge; A then B for a change); `by_lineup`: verdict, estimate text and games per line-up;
    `interaction`: per line-up, its conclusion minus the reference line-up's, as text, and
    that interval's verdict."""
    return {
        "kind": kind,
        "metric": metric,
        "designs": [design(data, arm) for arm in arms],
        "label": label,
        "verdicts": {x: v for x, (v, _, _) in by_lineup.items()},
        "estimates": {x: text for x, (_, text, _) in by_lineup.items()},
        "games": {x: n for x, (_, _, n) in by_lineup.items()},
        "interaction": {x: text for x, (text, _) in interaction.items()},
        "interaction_verdicts": {x: v for x, (_, v) in interaction.items()},
    }


def write(out: Path, game: str, entries: list[Entry], reference: str) -> None:
    document = {"game": game, "reference": reference, "conclusions": entries}
    (out / VERDICTS).write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n")


def load(paths: Iterable[Path], game: str) -> tuple[Entry, ...]:
    """The conclusions of every verdicts file about `game` (other games' files add none)."""
    found: list[Entry] = []
    for path in paths:
        try:
            document = json.loads(Path(path).read_text(encoding="utf-8"))
            if document["game"] == game:
                reference = document["reference"]
                found += [
                    {**e, "source": str(path), "reference": reference}
                    for e in document["conclusions"]
                ]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ReportError(f"{path}: not a robustness verdicts file ({exc})") from None
    return tuple(found)


def marker(
    verdicts: Sequence[Entry], data: Dataset, kind: str, arms: Sequence[str], lineup: str
) -> str:
    """What to append to a finding about `arms` (played by `lineup`, in either order): each
    of its conclusions whose verdict another line-up changes, as the robustness run states
    it (its label, every line-up's estimate, the interaction); empty when none changed or no
    robustness run covers these designs under this line-up."""
    designs = [design(data, arm) for arm in arms] if verdicts else []
    notes = []
    for e in verdicts:
        same = e["designs"] in (designs, designs[::-1])
        if e["kind"] != kind or not same or lineup not in e["verdicts"]:
            continue
        if not any(_changes(e, lineup, x) for x in e["verdicts"]):
            continue
        shown = [
            f"{x}: {e['estimates'][x]}"
            + (f"; interaction {e['interaction'][x]}" if x in e["interaction"] else "")
            for x in e["verdicts"]
        ]
        notes.append(f"{e['label']}, {' | '.join(shown)} [{e['source']}]")
    return f" {MARK} Changes with other players: {' — '.join(notes)}." if notes else ""


def _changes(e: Entry, own: str, other: str) -> bool:
    """Whether line-up `other` changes the conclusion line-up `own` gives: the verdicts
    differ and either point opposite ways or the interaction interval between the two (when
    one of them is the reference) excludes zero."""
    a, b = e["verdicts"][own], e["verdicts"][other]
    if a == b:
        return False
    if {a, b} == OPPOSITE:
        return True
    reference = e["reference"]
    measured = other if own == reference else own if other == reference else None
    return e.get("interaction_verdicts", {}).get(measured, UNCLEAR) != UNCLEAR
