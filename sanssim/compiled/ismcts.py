"""`ismcts` on the compiled cores: the tree of `sanssim.strategies.ismcts`, once for all games.

A core makes its game's search with `searcher`, from hooks: numba functions over the
game's own state arrays, each taking `ctx` (a tuple of the game's tables and scratch
space) first:

- `determinize(ctx, root, world, g)`: `world`, sampled from what the seat to move at
  `root` knows (`view.determinize`), its draws from the searcher's stream `g`;
- `options(ctx, world, width, out)`: how many options the node tries, written to `out`
  in their order (the rollout strategy's `width` best, else the legal ones);
- `play(ctx, world, action)`; `over(world)`: no one has a choice; `mover(world)`;
- `roll(ctx, world, g, uniform)`: the seat to move plays one decision by the rollout
  strategy (uniformly at random when `uniform`), its draws from `g`;
- `outcome(ctx, world, ranks, totals)`: each seat's rank and total as the world stands
  (final at the end; the current standing after a cut-off rollout, `depth`).

The hooks are frozen into the search as globals are (numba caches it; a jitted
function passed as an argument instead would make the search uncachable). A decision
holds a fresh tree in flat arrays, a node per iteration at most: its action, first
child and next sibling (a node's children form a list, found by action), visits and
availability, and the reward totals per seat. The draws, the option order, the
expansion, UCB's strict `>`, the float sums and the final ranking are the Python
strategy's (its docstring lists them), so the search chooses what it chooses.

The decision allocates its tree and scratch once; each iteration's descent, rollout
and backup is a kernel (`sanssim.compiled.kernel`), as must be every hook but
`determinize` (called once an iteration, outside it), so that the rollouts' thousands
of hook calls count no references.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

import numba as nb
import numpy as np

from sanssim.compiled.kernel import kernel
from sanssim.compiled.lowered import empty, larger, smaller

# A seat's search parameters (`parameters`), in one float64 row.
I_ITERATIONS, I_C, I_WIDTH, I_UNIFORM, I_MARGIN, I_DEPTH = range(6)
PARAMS = 6
# A node's integer fields.
ACTION, FIRST, NEXT, VISITS, AVAILABLE = range(5)
# The search's counters: nodes used, the root's option count (-1: not known yet).
USED, ROOT_OPTIONS = range(2)


def parameters(params: Mapping[str, Any]) -> np.ndarray:
    """An `ismcts` spec's parameters as the search reads them."""
    row = np.zeros(PARAMS, dtype=np.float64)
    row[I_ITERATIONS] = params["iterations"]
    row[I_C] = params["c"]
    row[I_WIDTH] = params["width"]
    row[I_UNIFORM] = params["rollout"] == "random"
    row[I_MARGIN] = params["reward"] == "margin"
    row[I_DEPTH] = params["depth"]
    return row


@kernel
def best_first(scores: np.ndarray, n: np.int64, k: np.int64, order: np.ndarray) -> np.int64:
    """`order[:k]`: the indices of the `k` highest of `scores[:n]`, highest first, equal
    scores in index order (the head of a stable sort by -score, as `explain` ranks),
    without sorting the rest; how many were written (`min(k, n)`)."""
    kept = 0
    if k < 1:
        return kept
    for i in range(n):
        score = scores[i]
        if kept == k and not score > scores[order[kept - 1]]:
            continue
        j = kept if kept < k else k - 1
        while j > 0 and scores[order[j - 1]] < score:
            order[j] = order[j - 1]
            j -= 1
        order[j] = i
        kept = smaller(k, kept + 1)
    return kept


@kernel
def child(nodes: np.ndarray, node: np.int64, action: np.int64) -> np.int64:
    """The child of `node` reached by `action`, or -1."""
    at = nodes[node, FIRST]
    while at >= 0:
        if nodes[at, ACTION] == action:
            return at
        at = nodes[at, NEXT]
    return at


@kernel
def step(
    nodes: np.ndarray,
    totals: np.ndarray,
    used: np.int64,
    node: np.int64,
    options: np.ndarray,
    k: np.int64,
    mover: np.int64,
    c: float,
    found: np.ndarray,
) -> np.int64:
    """One step down from `node` among `options[:k]`: a new child for the first option
    never tried (at `used`), else the child of the highest UCB value for `mover` (the
    first of equals); every child that was an option counts one more availability.
    The child taken."""
    untried = -1
    for i in range(k):
        found[i] = child(nodes, node, options[i])
        if found[i] < 0 and untried < 0:
            untried = i
    if untried >= 0:
        pick = untried
        new_node(nodes, totals, used, options[untried], nodes[node, FIRST])
        nodes[node, FIRST] = used
        found[untried] = used
    else:
        pick = 0
        best = -np.inf
        for i in range(k):
            at = found[i]
            visits = nodes[at, VISITS]
            explore = math.sqrt(math.log(nodes[at, AVAILABLE]) / visits)
            value = totals[at, mover] / visits + c * explore
            if value > best:
                pick, best = i, value
    for i in range(k):
        if found[i] >= 0:
            nodes[found[i], AVAILABLE] += 1
    return found[pick]


@kernel(forceinline=True)
def new_node(
    nodes: np.ndarray, totals: np.ndarray, at: np.int64, action: np.int64, sibling: np.int64
) -> None:
    """Node `at`, reached by `action`, childless, never visited, its next sibling `sibling`.
    The tree is allocated empty, each node set as it is made: numba's `np.zeros` costs a
    cold compile about 0.1 CPU-s for each type it makes."""
    nodes[at, ACTION] = action
    nodes[at, FIRST] = -1
    nodes[at, NEXT] = sibling
    nodes[at, VISITS] = 0
    nodes[at, AVAILABLE] = 0
    for q in range(totals.shape[1]):
        totals[at, q] = 0.0


@kernel
def side_firsts(sides: np.ndarray, firsts: np.ndarray) -> np.int64:
    """`firsts[:m]`: each side's first seat, in seat order; `m`, the number of sides."""
    m = 0
    for seat in range(sides.shape[0]):
        new = True
        for j in range(m):
            if sides[firsts[j]] == sides[seat]:
                new = False
        if new:
            firsts[m] = seat
            m += 1
    return m


@kernel
def rewards(
    margin: bool,
    ranks: np.ndarray,
    totals: np.ndarray,
    sides: np.ndarray,
    firsts: np.ndarray,
    m: np.int64,
    out: np.ndarray,
) -> None:
    """`out[seat]`, in [0, 1]: the share of other sides it ranks above (a tie half), or
    its final margin over the best other side scaled by twice the largest total
    (`firsts[:m]`: `side_firsts`)."""
    n = sides.shape[0]
    if margin:
        largest = 1.0
        for seat in range(n):
            largest = larger(largest, abs(totals[seat]))
        scale = 2.0 * largest
        for seat in range(n):
            best = np.int64(-(1 << 62))
            for j in range(m):
                if sides[firsts[j]] != sides[seat]:
                    best = larger(best, totals[firsts[j]])
            out[seat] = smaller(1.0, larger(0.0, 0.5 + (totals[seat] - best) / scale))
        return
    share = 1.0 / larger(1, m - 1)
    for seat in range(n):
        beaten = 0.0
        for j in range(m):
            other = firsts[j]
            if sides[other] != sides[seat]:
                if ranks[seat] < ranks[other]:
                    beaten += 1.0
                elif ranks[seat] == ranks[other]:
                    beaten += 0.5
        out[seat] = share * beaten


def searcher(
    determinize: Callable[..., None],
    options: Callable[..., int],
    play: Callable[..., None],
    over: Callable[..., bool],
    mover: Callable[..., int],
    roll: Callable[..., None],
    outcome: Callable[..., None],
) -> Callable[..., int]:
    """A game's compiled `IsmctsStrategy.terms` from its hooks (the module docstring):
    `search(ctx, root, legal, g, p, sides, room, visits, means)` searches with
    parameters `p` (`parameters`), writes each option of `legal` (the root's, in
    order) its visits and mean reward, and returns the chosen one; `room` bounds a
    node's options, `sides` gives each seat's side."""

    @kernel
    def iterate(ctx, world, g, p, sides, firsts, m, nodes, totals, counters, path,
                first, tried, found, ranks, scores, reward) -> None:  # type: ignore[no-untyped-def]  # fmt: skip
        """One iteration in the sampled `world`: descend, expand, roll out, back up."""
        width = np.int64(p[I_WIDTH])
        c = p[I_C]
        cut = np.int64(p[I_DEPTH])
        node = np.int64(0)  # not the literal 0: `step` would compile for it too
        path[0] = 0
        depth = 1
        while not over(world):
            if node > 0:
                k = options(ctx, world, width, tried)
                here = tried
            else:  # the root's options, the same in every world (the seat's own)
                if counters[ROOT_OPTIONS] < 0:
                    counters[ROOT_OPTIONS] = options(ctx, world, width, first)
                k = counters[ROOT_OPTIONS]
                here = first
            used = counters[USED]
            node = step(nodes, totals, used, node, here, k, mover(world), c, found)
            play(ctx, world, nodes[node, ACTION])
            path[depth] = node
            depth += 1
            if node == used:
                counters[USED] = used + 1
                break
        played = 0
        while not over(world) and (cut < 1 or played < cut):
            roll(ctx, world, g, p[I_UNIFORM] != 0.0)
            played += 1
        outcome(ctx, world, ranks, scores)
        rewards(p[I_MARGIN] != 0.0, ranks, scores, sides, firsts, m, reward)
        for i in range(depth):
            at = path[i]
            nodes[at, VISITS] += 1
            for q in range(sides.shape[0]):
                totals[at, q] += reward[q]

    @nb.njit(cache=True, inline="always")
    def search(ctx, root, legal, g, p, sides, room, visits, means):  # type: ignore[no-untyped-def]
        n = sides.shape[0]
        iterations = larger(1, np.int64(p[I_ITERATIONS]))
        nodes = empty((iterations + 1, 5), np.int64)
        totals = empty((iterations + 1, n), np.float64)
        new_node(nodes, totals, np.int64(0), np.int64(-1), np.int64(-1))  # the root
        counters = empty(2, np.int64)
        counters[USED] = 1
        counters[ROOT_OPTIONS] = -1
        path = empty(iterations + 1, np.int64)
        world = root.copy()  # for `determinize` to fill: cheaper to compile than empty_like
        first = empty(room, np.int64)
        tried = empty(room, np.int64)
        found = empty(room, np.int64)
        ranks = empty(n, np.int64)
        scores = empty(n, np.int64)
        reward = empty(n, np.float64)
        firsts = empty(n, np.int64)
        m = side_firsts(sides, firsts)
        for _ in range(iterations):
            determinize(ctx, root, world, g)
            iterate(ctx, world, g, p, sides, firsts, m, nodes, totals, counters, path,
                    first, tried, found, ranks, scores, reward)  # fmt: skip
        seat = mover(root)
        best = 0
        best_score = -np.inf
        for i in range(legal.shape[0]):
            at = child(nodes, np.int64(0), legal[i])
            visits[i] = nodes[at, VISITS] if at >= 0 else 0
            means[i] = totals[at, seat] / visits[i] if visits[i] else 0.0
            if visits[i] + means[i] > best_score:
                best, best_score = i, visits[i] + means[i]
        return legal[best]

    return search
