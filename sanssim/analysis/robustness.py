"""Report section: do the conclusions hold under another strategy line-up?

A balance finding measured with one strategy may be a fact about the strategy. When a
report holds the same designs played by several line-ups, each headline conclusion (the
first seat's edge in every design, and every one-facet change's effect on the mean score
and on the first seat's win rate) is computed once per line-up and set side by side; a
conclusion whose direction or significance differs between line-ups is flagged. The
report's key findings open with the verdict (`Section.lead`): how many held, and a table of
those that did not, with the interaction intervals; `played` names the line-ups on the
first screen in one sentence.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import polars as pl

from sanssim.analysis import flipped, fmt, interaction, paired
from sanssim.analysis.dataset import Dataset
from sanssim.analysis.document import Block, Heading, Para, Table
from sanssim.analysis.interaction import Term
from sanssim.analysis.pairs import LENGTH, facet_text, find_pairs, pair_games
from sanssim.analysis.section import Context, Section
from sanssim.analysis.stats import rate_table, win_share
from sanssim.strategies import StrategyError, resolve

TITLE = "Robustness: the conclusions under each strategy line-up"
EFFECTS = {
    "mean_total": ("mean score", 1.0, ""),
    "seat0_win": ("first seat's win rate", 100.0, " pp"),
}


@dataclass(frozen=True)
class Estimate:
    """One conclusion under one line-up: an estimate with its 95% interval and n."""

    value: float
    lo: float
    hi: float
    n: int
    scale: float = 1.0
    unit: str = ""

    @property
    def verdict(self) -> str:
        return fmt.verdict(self.lo, self.hi)

    def text(self) -> str:
        s = self.scale
        shown = fmt.interval(s * self.value, s * self.lo, s * self.hi, signed=True)
        return shown.then(f"{self.unit} {self.verdict}, n = {self.n}")


def _context(data: Dataset, arm: dict, skip: str | None = None) -> str:
    """A design without its line-up (and without `skip`), by the facets that vary."""
    varying = [c for c in _facets(data) if c != skip]
    parts = [
        f"{arm['n_players']}p" if c == "n_players" else " ".join(facet_text(data, c, arm))
        for c in varying
    ]
    return ", ".join(parts) or "every design"


def _facets(data: Dataset) -> list[str]:
    """The design facets that tell the designs apart, without the line-up and without one
    the others determine (the tiles that come with each player count): labels stay short."""
    kept = [c for c in data.design if c != "lineup" and data.arms[c].n_unique() > 1]
    for c in reversed(kept.copy()):
        others = [k for k in kept if k != c]
        if others and data.arms.group_by(others).agg(pl.col(c).n_unique())[c].max() == 1:
            kept.remove(c)
    return kept


# conclusion, line-up, estimate, its terms, and for the verdicts file: kind, metric, arms
Found = tuple[str, str, Estimate, list[Term], tuple[str, str, tuple[str, ...]]]
SEAT_EDGE = "first seat's edge over 1/players"


def _seat_edges(data: Dataset, games: pl.DataFrame) -> Iterator[Found]:
    """The first seat's win rate minus the fair share, per arm."""
    first = rate_table(
        data.results.with_columns(win=win_share()).filter(pl.col("seat") == 0),
        ["arm"],
        {"first": pl.col("win")},
    ).join(data.arms, on="arm")
    for r in first.iter_rows(named=True):
        fair = 1 / r["n_players"]
        low, high = r["first_lo"] - fair, r["first_hi"] - fair
        edge = Estimate(r["first_p"] - fair, low, high, r["first_n"], 100, " pp")
        label = f"{SEAT_EDGE}, {_context(data, r)}"
        terms = [interaction.term(games, r["arm"], "seat0_win")]
        yield label, r["strategies"], edge, terms, ("seat_edge", SEAT_EDGE, (r["arm"],))


def _effects(data: Dataset, games: pl.DataFrame) -> Iterator[Found]:
    """Each change of one facet other than the line-up, under every line-up that has both
    arms: its effect on the mean score and on the first seat's win rate."""
    rows = {r["arm"]: r for r in data.arms.iter_rows(named=True)}
    for pair in find_pairs(data):
        if pair.column == "lineup":
            continue
        first, second, logged = pair_games(data, pair)
        table = paired.compare(second, first, LENGTH if logged else None).table
        arm = rows[pair.first]
        where = _context(data, arm, pair.column)
        for r in table.filter(pl.col("metric").is_in(list(EFFECTS))).iter_rows(named=True):
            name, scale, unit = EFFECTS[r["metric"]]
            label = f"{pair.facet} {pair.change}: {name}, {where}"
            estimate = Estimate(r["diff"], r["lo"], r["hi"], r["n_a"], scale, unit)
            terms = [
                interaction.term(games, pair.second, r["metric"]),
                interaction.term(games, pair.first, r["metric"], -1.0),
            ]
            meta = ("effect", f"{pair.facet} {pair.change}: {name}", (pair.first, pair.second))
            yield label, arm["strategies"], estimate, terms, meta


Measured = dict[str, tuple[Estimate, list[Term], tuple[str, str, tuple[str, ...]]]]


def _interaction(by: Measured, x: str, ref: str) -> Estimate:
    """Line-up `x`'s conclusion minus the reference line-up's, paired where they share deals."""
    estimate, terms, _ = by[x]
    value, lo, hi, n = interaction.interval([*terms, *interaction.negated(by[ref][1])])
    return Estimate(value, lo, hi, n, estimate.scale, estimate.unit)


# How a conclusion did not hold, in the order the first screen lists them: the change
# another report marks where it states the finding (`flipped.marker`), a verdict that
# differs only in reaching significance (what two samples of one effect give), and a
# verdict that held while its size depends on the players.
CHANGES = f"{flipped.MARK} changes"
SIGNIFICANCE_ONLY = "significance only"
SIZE_ONLY = "size only"
DIFFERS = (CHANGES, SIGNIFICANCE_ONLY, SIZE_ONLY)


def _differs(by: Measured, gaps: dict[str, Estimate | None], ref: str) -> str | None:
    """How the conclusion did not hold (one of DIFFERS), None when it held in full: a
    change when two line-ups point opposite ways, or one's verdict differs from the
    reference's while their interaction interval excludes zero (`flipped`'s rule)."""
    verdicts = {x: e.verdict for x, (e, _, _) in by.items()}
    sized = _sized(gaps)
    if len(set(verdicts.values())) == 1:
        return SIZE_ONLY if sized else None
    measured = any(verdicts[x] != verdicts[ref] for x in sized)
    return CHANGES if measured or set(verdicts.values()) >= flipped.OPPOSITE else SIGNIFICANCE_ONLY


def _sized(gaps: dict[str, Estimate | None]) -> set[str]:
    """The line-ups whose interaction with the reference excludes zero."""
    return {x for x, g in gaps.items() if g is not None and g.verdict != flipped.UNCLEAR}


def build(ctx: Context) -> Section:
    data = ctx.data
    lineups = sorted(set(data.arms["strategies"]))  # the first is the reference
    if len(lineups) < 2:
        return Section([])
    games = interaction.per_game(data)
    found: dict[str, Measured] = {}
    for label, lineup, estimate, terms, meta in (
        *_seat_edges(data, games),
        *_effects(data, games),
    ):
        found.setdefault(label, {})[lineup] = (estimate, terms, meta)
    compared = {label: by for label, by in found.items() if len(by) > 1}
    if not compared:
        return Section([])
    ref, others = lineups[0], lineups[1:]
    rows, entries, hows, sized = [], [], [], 0
    for label, by in compared.items():
        gaps = {x: _interaction(by, x, ref) if x in by and ref in by else None for x in others}
        hows.append(_differs(by, gaps, ref))
        sized += bool(_sized(gaps))
        entries.append(_entry(data, label, by, gaps, ref))
        rows.append(
            [
                label,
                *(by[x][0].text() if x in by else "–" for x in lineups),
                *(g.text() if g is not None else "–" for g in gaps.values()),
                "held" if hows[-1] in (None, SIZE_ONLY) else "CHANGES",
            ]
        )
    table = Table(
        ["conclusion", *lineups, *(f"{x} − {ref}" for x in others), "verdict"], rows, measure=0
    )
    blocks: list[Block] = [
        Heading(2, TITLE),
        Para(
            "Each conclusion computed once per strategy line-up on otherwise equal designs: "
            "the first seat's win rate minus its fair share 1/players, and the effect of "
            "every one-facet change (B − A, paired by game when the arms share their deals) "
            "on the mean score and on the first seat's win rate. A conclusion holds when "
            "every line-up gives it the same verdict (higher, lower, or no clear difference "
            "at 95%); CHANGES flags one whose direction or significance differs, which makes "
            "it a finding about the strategies as much as about the game. The columns "
            f"marked − {ref} give the interaction: a line-up's conclusion minus {ref}'s, "
            "with its 95% interval, paired game by game where the line-ups played the same "
            "deals. An interval that excludes zero says the size of the conclusion depends "
            "on the players, even when both verdicts agree."
        ),
        table,
    ]
    flipped.write(ctx.out, data.game_type.name, entries, ref)
    return Section(blocks, lead=_lead(table, hows, lineups, sized))


def _lead(table: Table, hows: list[str | None], lineups: list[str], sized: int) -> list[Block]:
    """The key findings' opening: how many conclusions held, and those that did not hold in
    full (`hows`, one per row of the section's `table`) with the reference's estimate and
    each interaction as that table gives them, the changes first."""
    ref, k = lineups[0], len(lineups)
    rows = sorted(
        (
            [row[0], row[1], *row[k + 1 : 2 * k], how]
            for row, how in zip(table.rows, hows, strict=True)
            if how is not None
        ),
        key=lambda row: DIFFERS.index(row[-1]),
    )
    header = ["conclusion that did not hold in full", ref, *(f"{x} − {ref}" for x in lineups[1:])]
    shown = [Table([*header, "how"], rows, measure=0)] if rows else []
    counts = [hows.count(how) for how in DIFFERS]
    return [Para(_summary(lineups, len(hows), counts, sized)), *shown]


def _summary(lineups: list[str], compared: int, counts: list[int], sized: int) -> str:
    """How many conclusions held, how many of the others changed how (`counts`, one per
    DIFFERS), and in how many the size depends on the players."""
    ref = lineups[0]
    changes, significance, _ = counts
    how = []
    if changes:
        how.append(
            f"{changes} {CHANGES} (verdicts opposite, or different with an interaction interval "
            "that excludes zero: other reports mark these)"
        )
    if significance:
        how.append(f"{significance} in significance only (the interaction interval holds zero)")
    text = (
        f"Robustness: {compared - changes - significance} of {compared} conclusions held "
        f"under every strategy line-up ({', '.join(lineups)})"
    )
    if how:
        text += f"; {changes + significance} changed: {', '.join(how)}"
    text += (
        f". The size differs from {ref}'s (interaction interval excludes zero) in {sized} "
        f"of {compared}."
    )
    if how or sized:
        text += (
            f" Below, those that did not hold in full: {ref}'s estimate and each interaction (a "
            f"line-up's conclusion minus {ref}'s, paired by deal where they share them); all "
            f"{compared} follow in “{TITLE}”."
        )
    return text


def _entry(
    data: Dataset, label: str, by: Measured, gaps: dict[str, Estimate | None], ref: str
) -> flipped.Entry:
    """The conclusion for the verdicts file (`flipped`): every line-up's verdict, estimate
    and games, and each other line-up's interaction with the reference."""
    kind, metric, arms = next(iter(by.values()))[2]
    return flipped.entry(
        data,
        kind,
        metric,
        arms,
        label,
        {x: (e.verdict, e.text(), e.n) for x, (e, _, _) in by.items()},
        {x: (f"{x} − {ref} {g.text()}", g.verdict) for x, g in gaps.items() if g is not None},
    )


# A searching strategy's budget per decision, named on the first screen: `ismcts` at 100
# iterations and at 1,000 are different players.
BUDGETS = ("iterations", "rollouts")


def played(data: Dataset) -> str:
    """Which line-ups played, in one sentence for a report's first screen when several play
    many arms (each arm's line-up is then listed in the arms table at the end)."""
    arms = data.arms
    games = arms["games"]
    per_arm = (
        f"{games[0]:,} games per arm"
        if games.n_unique() == 1
        else f"{games.min():,} to {games.max():,} games per arm"
    )
    lineups = sorted(set(arms["strategies"]))
    designs = arms.select([c for c in data.design if c != "lineup"]).unique().height
    counts = [str(n) for n in sorted(set(arms["n_players"]))]
    at = counts[0] if len(counts) == 1 else f"{', '.join(counts[:-1])} and {counts[-1]}"
    names = [_named(data, x) for x in lineups]
    every = "" if any(" | " in x for x in lineups) else ", one strategy in every seat"
    each = "each played by" if designs * len(lineups) == arms.height else "played by"
    return (
        f"{arms.height} arms, {per_arm}: {designs} design{'s' if designs != 1 else ''} at "
        f"{at} players, {each} {', '.join(names[:-1])} and {names[-1]}{every}; each arm's "
        "line-up is listed in “Arms compared”."
    )


def _named(data: Dataset, lineup: str) -> str:
    """A line-up by its name, with a searching strategy's budget when the name omits it
    (the default): `ismcts (100 iterations)`."""
    if " | " in lineup:
        return f"{lineup} (seat by seat)"
    spec = data.arms.filter(pl.col("strategies") == lineup)["lineup"][0].split(" | ")[0]
    try:
        params = dict(resolve(spec, data.game_type.name).params)
    except StrategyError:
        return lineup
    shown = [f"{params[b]:,} {b}" for b in BUDGETS if b in params and f"{b}=" not in lineup]
    return f"{lineup} ({', '.join(shown)})" if shown else lineup
