"""What the shared search strategies have in common: a rollout policy, and playing a
sampled world on to the end of the game with it.

The policy is the game's rollout strategy (`GameType.rollout_strategy`, its
`heuristic`), or uniformly random play for a game that declares none. It shares
the searcher's random stream, so a search is reproducible from the searcher's seed.
"""

from __future__ import annotations

from typing import Any

from sanssim.strategies.base import Strategy
from sanssim.strategies.random import RandomStrategy


class PlayOut(Strategy):
    """A strategy that plays sampled worlds to the end with a rollout policy."""

    _policy: Strategy | None = None

    def rollout_class(self) -> type[Strategy]:
        """The rollout policy's class: the game's rollout strategy, else random play."""
        game_type = self.game_type
        if game_type is None:
            raise RuntimeError(f"{self.name} needs its game: make it through a StrategySpec")
        return game_type.strategies().get(game_type.rollout_strategy, RandomStrategy)

    @property
    def policy(self) -> Strategy:
        """The rollout policy, sharing this player's random stream."""
        if self._policy is None:
            self._policy = self.rollout_class()(self.rng)
            self._policy.game_type = self.game_type
        return self._policy

    def play_out(self, state: Any) -> None:
        """Every seat plays `state` on by the rollout policy until the game ends."""
        policy = self.policy
        views = [self.game_type.view(state, p) for p in range(state.n)]  # type: ignore[union-attr]
        while state.legal:
            state.apply_action(policy.choose(views[state.current], state.legal))
