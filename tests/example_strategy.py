from sanssim.games.sanssouci import NOBLE, PASS
from sanssim.strategies import Param, Strategy


class DeepestNoble(Strategy):
    name = "deepest-noble"
    summary = "moves the noble that ends deepest; any other choice at random"
    params = (Param("min_row", 1, "pass rather than move a noble above this row"),)

    def choose(self, view, legal):
        if view.phase == NOBLE:
            # squares are numbered row by row, so the largest one is the deepest
            moves = [sq for sq in legal if sq != PASS and sq // 9 + 1 >= self.min_row]
            return max(moves, default=PASS)
        return self.rng.choice(legal)
