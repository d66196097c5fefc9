"""`ismcts`: single-observer information-set Monte Carlo tree search.

Cowling, Powley & Whitehouse (2012), "Information Set Monte Carlo Tree Search",
IEEE TCIAIG 4(2), algorithm SO-ISMCTS, over the game protocol alone (it plays
plug-in games). Every iteration:

1. samples a world from what the deciding seat knows (`view.determinize`): the
   hidden cards and the order of every future draw are fixed in that world, so
   chance needs no nodes of its own and an action's outcome is the world's;
2. descends ONE tree shared by all worlds, keyed by the actions from the root.
   A node's options in a world are the rollout strategy's `width` best of the
   options legal there (all of them with `width=0`). The seat to move in the
   world picks the option whose child has the highest
   `mean reward of the mover + c * sqrt(ln(availability) / visits)` (counts as
   before this descent); a child's availability counts the descents through its
   parent in which it was an option (an opponent's options depend on its hidden
   hand, so they differ between worlds, and a child is judged only against the
   descents it could have had);
3. adds one child, for the first option (in the rollout strategy's order) never
   tried at that node, then plays the world on to the end with the rollout
   policy: the game's rollout strategy (`heuristic`) or, with `rollout=random`
   or for a game that declares none, uniform random play. With `depth=N` the
   rollout stops after N decisions (a cut-off rollout) and the world is scored
   as it stands: the reward reads the game's `ranks()` and `returns()` there,
   its current standing, instead of the final one;
4. backs up one reward per seat along the path (max^n: every node holds the
   reward vector and each mover reads its own component), so 3 and 4 players
   and Seikatsu's teams (a side shares its total and rank) need nothing else.

Choices, measured on small samples on a loaded machine (`scripts/ladder.py`,
2 players, both seatings, 95% Wilson intervals):

- `width=4`, a deviation from plain SO-ISMCTS: plain UCB over 20-40 options
  spreads 100 iterations a few visits per option and lost to `heuristic`
  (Seikatsu: 0 of 20 games); with the 4 best options it won 50% [30, 70] of 20.
- `reward=win` (default): the share of the other sides a seat ranks above at the
  end, a tie counting half (the game's `ranks()`, tie-breaks included), so 1 or
  0 for a 2-player win or loss. `reward=margin`: the final margin (own total
  minus the best other side's, the best other's minus own where the lowest total
  wins) over twice the largest absolute total, shifted to [0, 1]. Its spread
  follows the game's score scale (a few hundredths in Seikatsu), so `c` would
  need setting per game; at `iterations=50` in Seikatsu (100 games, the same
  seeds) the win reward won 54.0% [44.3, 63.4] against `heuristic`, the margin
  50.0% [40.4, 59.6] with `c=0.1` and 45.0% [35.6, 54.8] with `c=0.7`; in
  Sanssouci at the default budget against `lookahead` (20 games) the win reward
  won 35.0% [18.1, 56.7], the margin with `c=0.1` 50.0% [29.9, 70.1]. No
  difference is established: the win reward is kept as it needs no per-game
  scale.
- `iterations=100`, `c=0.7` (about 1/sqrt 2, for rewards in [0, 1]): not tuned.

The choice is the most visited option: `explain` scores each option by its
visits plus its mean reward (in [0, 1]), so the ranking is by visits with the
mean reward breaking ties, and `terms` shows the two apart for `show
--explain`. All randomness (worlds, rollouts) comes from the player's own
`rng`: the same seed makes the same choices, and the search reads nothing the
view does not show, so a change to hidden parts of the true state cannot change
a choice.

The compiled version (`sanssim.compiled.ismcts`, on every built-in game's core)
chooses exactly what this one chooses (`tests/compiled/test_ismcts_cores.py`), as it
keeps: the draws
in this order per iteration (`determinize`, then the rollout strategy's
`explain` at every tree step and its `choose` through the rollout); the option
order (the rollout strategy's ranking cut to `width`, else the legal order); the
first untried option expanded; strict `>` in UCB (the first maximum wins); the
rewards and their float sums in path order; the final sort by visits plus mean
reward, stable in the legal order.
"""

from __future__ import annotations

import math
from typing import Any

from sanssim.strategies.base import Param
from sanssim.strategies.playout import PlayOut


class Node:
    """One tree node: the action sequence from the root leads here."""

    __slots__ = ("available", "children", "totals", "visits")

    def __init__(self, n_players: int) -> None:
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.available = 0
        self.totals = [0.0] * n_players


class IsmctsStrategy(PlayOut):
    name = "ismcts"
    summary = (
        "information-set Monte Carlo tree search: one tree over sampled worlds, "
        "UCB with availability counts, heuristic rollouts, a reward per seat"
    )
    params = (
        Param("iterations", 100, "sampled worlds per decision, each one descent and rollout"),
        Param("c", 0.7, "UCB exploration constant (rewards lie in [0, 1])"),
        Param("width", 4, "how many of the rollout strategy's best options a node tries (0: all)"),
        Param(
            "depth",
            0,
            "rollout decisions before the world is scored as it stands (0: to the game's end)",
            minimum=0,
        ),
        Param(
            "rollout",
            "heuristic",
            "rollout policy: the game's rollout strategy (heuristic) or uniform random",
            ("heuristic", "random"),
        ),
        Param(
            "reward",
            "win",
            "reward per seat: share of other sides beaten (win) or scaled final margin",
            ("win", "margin"),
        ),
    )
    tie_break = "the first in the order of the legal options (equal visits and mean reward)"

    @property
    def random_rollouts(self) -> bool:
        return self.rollout == "random"

    def scoring(self) -> str:
        tried = f"the rollout strategy's {self.width} best options searched" if self.width else ""
        return (
            f"visits of {max(1, self.iterations)} sampled worlds plus the mean {self.reward} "
            f"reward (0 to 1) over them: the most visited is chosen"
            + (f"; {tried}, the others show 0" if tried else "")
        )

    def choose(self, view: Any, legal: list[int]) -> int:
        return self.explain(view, legal)[0][0]

    def explain(self, view: Any, legal: list[int]) -> list[tuple[int, float]]:
        """Every legal option by visits plus mean reward, best first."""
        return [(a, sum(terms.values())) for a, terms in self.terms(view, legal)]

    def terms(self, view: Any, legal: list[int]) -> list[tuple[int, dict[str, float]]]:
        """Every legal option's visits and mean reward, best first."""
        root = self.search(view)
        seat = view.seat
        scored = []
        for action in legal:
            child = root.children.get(action)
            visits = child.visits if child else 0
            mean = child.totals[seat] / visits if visits else 0.0
            scored.append((action, {"visits": float(visits), "mean reward": mean}))
        scored.sort(key=lambda item: -(item[1]["visits"] + item[1]["mean reward"]))
        return scored

    def search(self, view: Any) -> Node:
        """The tree after `iterations` descents, each in a world sampled from `view`."""
        game_type = self.game_type
        if game_type is None:
            raise RuntimeError("ismcts needs its game: make it through a StrategySpec")
        sides = game_type.sides(view.game)
        root = Node(view.n_players)
        for _ in range(max(1, self.iterations)):
            world = view.determinize(self.rng)
            path = self._descend(root, world)
            if world.legal:
                self.play_out(world, self.depth)
            rewards = self._rewards(world, sides)
            for node in path:
                node.visits += 1
                totals = node.totals
                for p, r in enumerate(rewards):
                    totals[p] += r
        return root

    def _descend(self, root: Node, world: Any) -> list[Node]:
        """Select down the tree in `world` (applying the actions to it) and expand one
        node; the path from the root, the new node last."""
        node = root
        path = [root]
        while world.legal:
            legal = self._options(world)
            children = node.children
            untried = [a for a in legal if a not in children]
            if untried:
                action = untried[0]
                children[action] = Node(world.n)
            else:
                action = self._select(children, legal, world.current)
            for a in legal:
                child = children.get(a)
                if child is not None:
                    child.available += 1
            world.apply_action(action)
            node = children[action]
            path.append(node)
            if untried:
                break
        return path

    def _options(self, world: Any) -> list[int]:
        """The options a node tries in `world`: the rollout strategy's `width` best (all
        the legal ones, in their order, with `width=0` or no rollout strategy)."""
        heuristic = self.heuristic
        if self.width < 1 or heuristic is None or len(world.legal) <= self.width:
            return list(world.legal)
        view = self.game_type.view(world, world.current)  # type: ignore[union-attr]
        return [a for a, _ in heuristic.explain(view, list(world.legal))[: self.width]]

    def _select(self, children: dict[int, Node], legal: list[int], mover: int) -> int:
        """The legal child with the highest UCB value for `mover` (the first on ties)."""
        c = self.c
        best, best_value = legal[0], -math.inf
        for action in legal:
            child = children[action]
            visits = child.visits
            value = child.totals[mover] / visits + c * math.sqrt(math.log(child.available) / visits)
            if value > best_value:
                best, best_value = action, value
        return best

    def _rewards(self, world: Any, sides: tuple[int, ...]) -> list[float]:
        """Each seat's reward at the end of `world`, in [0, 1]."""
        first = {}
        for seat, side in enumerate(sides):
            first.setdefault(side, seat)
        if self.reward == "margin":
            totals = world.returns()
            if self.game_type.lowest_wins:  # type: ignore[union-attr]
                totals = [-t for t in totals]  # ahead is below: the margin turned round
            scale = 2.0 * max(1.0, *(abs(t) for t in totals))
            out = []
            for seat, side in enumerate(sides):
                best = max(totals[o] for s, o in first.items() if s != side)
                out.append(min(1.0, max(0.0, 0.5 + (totals[seat] - best) / scale)))
            return out
        ranks = world.ranks()
        share = 1.0 / max(1, len(first) - 1)
        return [
            share
            * sum(
                1.0 if ranks[seat] < ranks[o] else 0.5 if ranks[seat] == ranks[o] else 0.0
                for s, o in first.items()
                if s != side
            )
            for seat, side in enumerate(sides)
        ]
