"""What the shared search strategies have in common: the game's rollout strategy, and
playing a sampled world on to the end of the game.

The rollout strategy is the game's `GameType.rollout_strategy` (its `heuristic`);
a game that declares none is played on uniformly at random. Both share the
searcher's random stream, so a search is reproducible from the searcher's seed.
"""

from __future__ import annotations

from typing import Any

from sanssim.strategies.base import Strategy
from sanssim.strategies.random import RandomStrategy


class PlayOut(Strategy):
    """A strategy that plays sampled worlds to the end with a rollout policy."""

    _heuristic: Strategy | None = None
    _policy: Strategy | None = None
    _looked_up = False

    @property
    def random_rollouts(self) -> bool:
        """Whether rollouts are uniformly random even when the game has a rollout strategy."""
        return False

    @property
    def heuristic(self) -> Strategy | None:
        """The game's rollout strategy, sharing this player's random stream; None when the
        game declares none."""
        if not self._looked_up:
            game_type = self.game_type
            if game_type is None:
                raise RuntimeError(f"{self.name} needs its game: make it through a StrategySpec")
            cls = game_type.strategies().get(game_type.rollout_strategy)
            if cls is not None:
                self._heuristic = cls(self.rng)
                self._heuristic.game_type = game_type
            self._looked_up = True
        return self._heuristic

    @property
    def policy(self) -> Strategy:
        """The rollout policy: the game's rollout strategy, else uniform random play."""
        if self._policy is None:
            heuristic = self.heuristic
            if heuristic is None or self.random_rollouts:
                self._policy = RandomStrategy(self.rng)
                self._policy.game_type = self.game_type
            else:
                self._policy = heuristic
        return self._policy

    def play_out(self, state: Any, depth: int = 0) -> None:
        """Every seat plays `state` on by the rollout policy until the game ends, or for
        `depth` decisions when `depth` is positive."""
        policy = self.policy
        views = [self.game_type.view(state, p) for p in range(state.n)]  # type: ignore[union-attr]
        played = 0
        while state.legal and (depth < 1 or played < depth):
            state.apply_action(policy.choose(views[state.current], state.legal))
            played += 1
