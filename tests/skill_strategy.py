"""A strategy of known strength for the tuning tests: greedy with probability `skill`,
random otherwise, so that more skill wins more (greedy beats random 99.7% of games)."""

from sanssim.games.sanssouci.strategies.greedy import GreedyStrategy
from sanssim.strategies import Param, Strategy


class Skilled(Strategy):
    name = "skilled"
    summary = "greedy with probability skill, else random"
    params = (Param("skill", 0.0, "probability of a greedy choice"),)

    def __init__(self, rng, **params):
        super().__init__(rng, **params)
        self.greedy = GreedyStrategy(rng)

    def choose(self, view, legal):
        if self.rng.random() < self.skill:
            return self.greedy.choose(view, legal)
        return self.rng.choice(legal)
