"""`sanssim show` for every game: the logged turns re-applied to a fresh deal, each shown
turn in words and the position after it drawn by the game's picture hook.

A game writes only hooks: `legend` (lines before the first turn), `turn_line` (a logged
turn in words), `picture` (a position in text, for the seats the shown lines concern),
`score_line` (a final results row in words) and, for a game whose pictures are better
drawn from the log than from the replayed state, `position`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from sanssim.runformat import ACTIONS

if TYPE_CHECKING:
    import polars as pl

    from sanssim.games.protocol import Engine, GameState, View


class Show:
    """The shared `show` driver and its hooks, a part of `GameType`."""

    lowest_wins: bool

    def apply_logged(self, state: GameState, action: int, row: Mapping[str, Any]) -> None:
        """One logged action applied (`row` is its turn's log row, for a game whose choices
        carry more than the action id)."""
        state.apply_action(action)

    def show(
        self,
        game: Engine,
        results: pl.DataFrame,
        turns: pl.DataFrame,
        final: GameState,
        turn: int | None,
        seat: int | None,
    ) -> list[str]:
        """Lines picturing the game turn by turn (or one turn), legend first: each turn in
        words, then the `picture` after it. One turn (`turn`) is drawn for every seat, a
        followed seat (`seat`) keeps to its own turns (with `turn`: that turn) and its own
        position; otherwise the acting seat's."""
        seed = results["game_seed"][0]
        out = self.legend(final)
        state = game.new_state(seed, record=True)  # replaying a turn may read its record
        rows = turns.sort("turn").to_dicts()
        for index, row in enumerate(rows):
            self._apply_turn(state, row)
            if turn is not None and row["turn"] != turn:
                continue
            if seat is not None and turn is None and row["seat"] != seat:
                continue
            if seat is not None:
                seats: Sequence[int] = [seat]
            else:
                seats = [row["seat"]] if turn is None else range(game.n_players)
            position = self.position(state, rows, index)
            out += ["", self.turn_line(row), self.picture(position, seats)]
        picture = self.final_picture(final)
        out += ["", "final position:", picture] if picture else []
        out += ["", "final scores:"]
        return out + [self.score_line(r) for r in results.iter_rows(named=True)]

    def _apply_turn(self, state: GameState, row: dict[str, Any]) -> None:
        """A logged turn's actions applied, named as the engine describes them."""
        row["described"] = []
        for action in row[ACTIONS] or ():
            row["described"].append(state.describe(action))
            self.apply_logged(state, action, row)

    def legend(self, final: GameState) -> list[str]:
        """Lines explaining the pictures' symbols, before the first turn."""
        return []

    def score_line(self, row: Mapping[str, Any]) -> str:
        """One seat's final results row in words."""
        lower = " (lowest wins)" if self.lowest_wins else ""
        return (
            f"  seat {row['seat']} ({row['strategy']}): total {row['total']}{lower}, "
            f"rank {row['rank']}"
        )

    def turn_line(self, row: Mapping[str, Any]) -> str:
        """One logged turn in words: by default its actions as the engine names them."""
        chosen = "; ".join(row.get("described") or ()) or "no choice"
        return (
            f"turn {row['turn']} (round {row['round']}) seat {row['seat']}: {chosen}; "
            f"score {row['score']}"
        )

    def position(self, state: GameState, rows: list[dict[str, Any]], index: int) -> GameState:
        """The position to draw after the logged turn `rows[index]`: by default the replayed
        state (a turn whose every choice was forced is taken with the turn before it)."""
        return state

    def picture(self, state: GameState, seats: Sequence[int]) -> str:
        """The position in text, for `show` (`seats`: those the shown lines concern)."""
        return ""

    def final_picture(self, state: GameState) -> str:
        """The final position in text, for `show` (by default as every turn's, all seats)."""
        return self.picture(state, range(state.n))

    def position_lines(self, view: View) -> list[str]:
        """What the acting player sees before a decision, for `show --explain`."""
        return []
