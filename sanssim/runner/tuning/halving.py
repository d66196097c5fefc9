"""`sanssim tune --method halving` (the default), deterministic for a given `--seed`:

- Candidates: every combination of a grid for one or two dimensions, a Latin hypercube
  sample for more, plus the default (the strategy's and the game's own values), which is
  measured alongside every round so that the best can be compared with it.
- Successive halving: in round r every surviving candidate plays the same deals (master
  seed derived from the tune seed and r: common random numbers, so the luck of the deal
  cancels between candidates); candidates are ranked on all the deals they played, and the
  better half goes on. The budget is spread evenly over the rounds, so survivors get more
  games as the field shrinks.
- Final re-measurement: the best few and the default play fresh deals (another master
  seed), which the selection never saw; the best (the top of the last round) is compared
  with the default on them, paired deal by deal.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from sanssim.analysis import objective as obj
from sanssim.runner.executor import Executor
from sanssim.runner.tuning.search import (
    FINAL_SHARE,
    MIN_DEALS,
    Progress,
    Round,
    Search,
    Tune,
    TuneError,
    deal_tag,
    play,
    remeasure,
    round_seed,
    stack,
    started_by,
)
from sanssim.seeding import derive_seed


def schedule(
    candidates: int, budget: int, rotations: int, finalists: int
) -> tuple[tuple[Round, ...], int, int]:
    """Rounds of successive halving (the default is kept in every round), the deals of the
    final re-measurement and the number of finalists, from the budget in games."""
    contenders = candidates - 1
    finalists = min(finalists, contenders)
    sizes = [contenders]
    while sizes[-1] > finalists:
        sizes.append(max(finalists, math.ceil(sizes[-1] / 2)))
    if len(sizes) > 1:
        sizes.pop()  # the last halving keeps the finalists; it needs no round of its own
    final_budget = int(budget * FINAL_SHARE)
    per_round = (budget - final_budget) / len(sizes)
    rounds = tuple(Round(s + 1, int(per_round // ((s + 1) * rotations))) for s in sizes)
    final_deals = final_budget // ((finalists + 1) * rotations)
    smallest = min(r.deals for r in rounds)
    if min(smallest, final_deals) < MIN_DEALS:
        need = math.ceil(
            MIN_DEALS * rotations * sum(r.candidates for r in rounds) / (1 - FINAL_SHARE)
        )
        raise TuneError(
            f"--budget {budget:,} is too small for {candidates} candidates: a round would "
            f"measure a candidate on fewer than {MIN_DEALS} deals (need about {need:,} games, "
            "or fewer --candidates)"
        )
    return rounds, final_deals, finalists


def run(
    tune: Tune,
    out: Path,
    executor: Executor,
    command: list[str],
    progress: Progress | None = None,
) -> Search:
    """Play the rounds and the final re-measurement (arms already complete are not played
    again) and write tune.json after every round."""
    search = Search(tune, out, started_by(out, command))
    out.mkdir(parents=True, exist_ok=True)
    search.write()  # before any game: a tune cut short in its first round resumes too
    played: list[dict[str, Any]] = []  # index entries of the arms played so far
    alive = [c.id for c in tune.candidates]
    by_id = {c.id: c for c in tune.candidates}
    seed = tune.settings.seed
    for r, plan_round in enumerate(tune.rounds):
        tag = f"r{r}"
        measured = alive[: plan_round.candidates]
        arms = play(
            search, played, [by_id[i] for i in measured], tag, plan_round.deals, executor, progress
        )
        estimates = {
            cid: obj.estimate(
                tune.objective, stack(search.deals[cid]), derive_seed(seed, "ci", cid)
            )
            for cid in measured
        }
        ranked = _ranked(tune, measured, estimates)
        keep = tune.rounds[r + 1].candidates - 1 if r + 1 < len(tune.rounds) else tune.finalists
        alive = [0, *ranked[:keep]]
        search.rounds.append(
            {
                "round": r,
                "seeds": [round_seed(seed, deal_tag(tag, k)) for k in range(tune.rotations)],
                "deals": plan_round.deals,
                "measured": measured,
                "ranking": ranked,
                "kept": alive,
                "games": len(measured) * plan_round.deals * tune.rotations,
                "spent_after": search.spent,
                "estimates": {str(c): estimates[c].to_dict() for c in measured},
                "arms": [a.name for a in arms],
            }
        )
        search.write()
    remeasure(search, played, [c for c in alive if c != 0], executor, progress)
    return search


def _ranked(tune: Tune, ids: Sequence[int], estimates: Mapping[int, obj.Estimate]) -> list[int]:
    """Contenders (not the default) best first; ties by id."""
    sign = tune.objective.sign
    return sorted((c for c in ids if c != 0), key=lambda c: (-sign * estimates[c].estimate, c))
