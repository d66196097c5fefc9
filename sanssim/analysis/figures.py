"""Matplotlib figures for reports: titled, labelled with units, one idea each."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache, wraps
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

if TYPE_CHECKING:
    import matplotlib.pyplot as plt

DPI = 110

# The worker that draws figures inside `in_background`, and the figures it has been given.
_worker: ProcessPoolExecutor | None = None
_pending: list[Future] = []


@contextmanager
def in_background() -> Iterator[None]:
    """Figures drawn inside the block are rendered by one worker process while the caller
    goes on computing its tables (a report's sections spend a large part of their time in
    matplotlib, which holds one core), and are all on disk when the block ends; a figure that
    failed raises there. One worker, so the second of two cores does the drawing; it starts
    in a fresh interpreter (no fork of polars' threads), about a second that the first
    figures do not wait for. Where no worker can start, figures are drawn in place."""
    global _worker
    if _worker is not None:  # nested: the outer block waits
        yield
        return
    try:
        _worker = ProcessPoolExecutor(1, multiprocessing.get_context("spawn"))
        _pending.append(_worker.submit(_ready))  # start it (imports) while data loads
    except (OSError, NotImplementedError):
        _worker = None
        yield
        return
    try:
        yield
        for future in _pending:
            future.result()
    finally:
        _pending.clear()
        _worker.shutdown(cancel_futures=True)
        _worker = None


def _ready() -> None:
    """The worker's first task: import matplotlib."""
    _pyplot()


@cache
def _pyplot() -> Any:
    """matplotlib's pyplot on the file backend, imported when the first figure is drawn
    (about 2 CPU-seconds, which a command that draws none, or draws them in the
    background worker, does not pay)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot

    return matplotlib.pyplot


def _deferred(draw: Callable[..., None]) -> Callable[..., None]:
    """`draw` runs in the worker inside `in_background` (its arguments are plain values and
    `Series`, which pickle), else in place. The worker runs this same wrapper, in place."""

    @wraps(draw)
    def drawn(*args: Any, **kwargs: Any) -> None:
        if _worker is None:
            draw(*args, **kwargs)
        else:
            _pending.append(_worker.submit(drawn, *args, **kwargs))

    return drawn


@dataclass(frozen=True)
class Series:
    """One line or set of points: a label and, per category or x, mean and 95% bounds
    (None where there is no estimate)."""

    label: str
    mean: list[float | None]
    lo: list[float | None]
    hi: list[float | None]
    colour: str | None = None


def aligned(
    frame: pl.DataFrame, key: str, keys: list, value: str, scale: float = 1.0
) -> list[float | None]:
    """Values of `value` in the order of `keys` (None for a key the frame lacks)."""
    lookup = dict(zip(frame[key].to_list(), frame[value].to_list(), strict=True))
    return [None if lookup.get(k) is None else scale * lookup[k] for k in keys]


def series(
    label: str,
    frame: pl.DataFrame,
    key: str,
    keys: list,
    name: str,
    colour: str | None = None,
    scale: float = 1.0,
    centre: str = "mean",
) -> Series:
    """A Series of the interval columns `name_{centre,lo,hi}` in the order of `keys`."""
    return Series(
        label,
        *(aligned(frame, key, keys, f"{name}_{k}", scale) for k in (centre, "lo", "hi")),
        colour=colour,
    )


def _save(fig: plt.Figure, path: Path) -> None:
    fig.savefig(path, dpi=DPI, bbox_inches="tight")
    _pyplot().close(fig)


def _legend(ax: plt.Axes, series: list[Series]) -> None:
    """Below the axes, so it never hides data; always there, to name the arms shown."""
    if series:
        ax.figure.legend(fontsize=8, loc="outside lower center", ncol=2)


def _errors(s: Series, keep: list[int]) -> list[list[float]]:
    """Bar lengths below and above each point. Rounding (a Wilson bound of a rate of 1) or a
    biased estimate (a bootstrapped maximum) can put the point just outside its interval;
    the bar then starts at the point."""
    return [
        [max(0.0, s.mean[i] - s.lo[i]) for i in keep],  # type: ignore[operator]
        [max(0.0, s.hi[i] - s.mean[i]) for i in keep],  # type: ignore[operator]
    ]


@_deferred
def intervals(
    path: Path,
    title: str,
    categories: list[str],
    series: list[Series],
    xlabel: str,
    reference: float | None = None,
) -> None:
    """Horizontal point-and-interval chart, one row per category, series dodged."""
    height = max(3.0, 0.35 * len(categories) * max(1, len(series) ** 0.5) + 1.5)
    fig, ax = _pyplot().subplots(figsize=(8, height), layout="constrained")
    step = 0.8 / len(series)
    for k, s in enumerate(series):
        keep = [i for i, m in enumerate(s.mean) if m is not None and s.lo[i] is not None]
        ys = [i - 0.4 + step * (k + 0.5) for i in keep]
        means = [s.mean[i] for i in keep]
        err = _errors(s, keep)
        ax.errorbar(
            means, ys, xerr=err, fmt="o", capsize=3, markersize=4, label=s.label, color=s.colour
        )
    if reference is not None:
        ax.axvline(reference, color="grey", linestyle="--", linewidth=1)
    ax.set_yticks(range(len(categories)), categories)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    _legend(ax, series)
    _save(fig, path)


@_deferred
def lines(
    path: Path,
    title: str,
    x: list[float],
    series: list[Series],
    xlabel: str,
    ylabel: str,
    points: tuple[str, ...] = (),
) -> None:
    """Lines with shaded 95% bands over a common x axis; the series labelled in `points` as
    unconnected dots (single noisy measurements)."""
    fig, ax = _pyplot().subplots(figsize=(8, 4.5), layout="constrained")
    for s in series:
        if s.label in points:
            ax.plot(x, s.mean, "o", markersize=3, alpha=0.5, label=s.label, color=s.colour)
            continue
        (line,) = ax.plot(x, s.mean, marker="o", markersize=3, label=s.label, color=s.colour)
        ax.fill_between(x, s.lo, s.hi, alpha=0.2, color=line.get_color())
    ax.xaxis.set_major_locator(_pyplot().MaxNLocator(integer=True))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    _legend(ax, series)
    _save(fig, path)


@_deferred
def panels(
    path: Path,
    title: str,
    x: list[str] | list[int],
    panels: dict[str, list[Series]],
    xlabel: str,
    zero: tuple[str, ...] = (),
) -> None:
    """Small multiples: one panel per measure (its name is the panel's y label), series
    as lines with interval bars over shared x values: categories, or numbers drawn at their
    value. The panels named in `zero` get a zero line, so a small gap is seen at its scale."""
    n = len(panels)
    cols = min(3, n)
    rows = -(-n // cols)
    fig, axes = _pyplot().subplots(
        rows, cols, figsize=(4.2 * cols, 3.6 * rows), squeeze=False, layout="constrained"
    )
    numeric = all(isinstance(v, int | float) for v in x)
    at = list(x) if numeric else list(range(len(x)))
    for ax, (ylabel, series) in zip(axes.flat, panels.items(), strict=False):
        for s in series:
            xs = [i for i, m in enumerate(s.mean) if m is not None and s.lo[i] is not None]
            means = [s.mean[i] for i in xs]
            err = _errors(s, xs)
            ax.errorbar(
                [at[i] for i in xs],
                means,
                yerr=err,
                marker="o",
                capsize=3,
                markersize=4,
                label=s.label,
                color=s.colour,
            )
        step = -(-len(x) // 9)
        ax.set_xticks(at[::step], [str(v) for v in x[::step]])
        if ylabel in zero:
            ax.axhline(0, color="grey", linestyle="--", linewidth=1)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.grid(alpha=0.3)
    for ax in list(axes.flat)[n:]:
        ax.set_visible(False)
    first = next(iter(panels.values()))
    if first:
        handles, labels = axes.flat[0].get_legend_handles_labels()
        fig.legend(handles, labels, fontsize=8, loc="outside lower center", ncol=2)
    fig.suptitle(title)
    _save(fig, path)
