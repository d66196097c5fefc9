"""Splendor run logs: finished games to the results and turns tables of the run-format
spec (`run-format-splendor.md`), and logged turns back to a game (`replay`).

Frames are built column-wise: one attribute read per turn, then whole-column polars work,
so logging costs a small fraction of playing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import polars as pl

from sanssim.errors import IllegalActionError, SanssimError
from sanssim.games.columns import block_lists, fixed_lists
from sanssim.games.logs import check_turn_rows
from sanssim.games.splendor.engine import (
    ACTION_NAMES,
    BUY,
    BUY_RESERVED,
    END_REASONS,
    GOLD,
    MAIN,
    MAX_RESERVED,
    N_GEMS,
    N_LEVELS,
    N_SLOTS,
    NOBLE,
    NOBLE_CHOICE,
    PACK_BITS,
    PASS,
    R_ACTION,
    R_BONUSES,
    R_CARD,
    R_DECK_LEFT,
    R_DISPLAY,
    R_DRAWN,
    R_NOBLE,
    R_PAYMENT,
    R_POINTS,
    R_RESERVED,
    R_RETURNED,
    R_SLOT,
    R_SOURCE,
    R_SUPPLY,
    R_TAKEN,
    R_TOKENS,
    RECORD_WIDTH,
    RESERVE,
    RESERVE_BLIND,
    RETURN,
    SOURCE_NAMES,
    TAKE2,
    TAKE_DIFF,
    TAKE_SETS,
    Game,
    State,
)

I8, I16 = pl.Int8(), pl.Int16()

RESULT_SCHEMA: dict[str, pl.DataType] = {
    "run_id": pl.String(),
    "game": pl.String(),
    "game_id": pl.Int64(),
    "game_seed": pl.Int64(),
    "n_players": I8,
    "target_points": I16,
    "max_rounds": I16,
    "gem_tokens": I8,
    "gold_tokens": I8,
    "nobles_in_play": pl.List(I8),
    "seat": I8,
    "strategy": pl.String(),
    "points": I16,
    "total": I16,
    "card_points": I16,
    "noble_points": I16,
    "cards_bought": I8,
    "nobles": I8,
    "bonuses": pl.List(I8),
    "tokens": pl.List(I8),
    "reserved_left": I8,
    "rounds": I16,
    "turns_taken": I16,
    "passes": I16,
    "rank": I8,
    "winner": pl.Boolean(),
    "end_reason": pl.String(),
    "hit_round_cap": pl.Boolean(),
}

TURN_SCHEMA: dict[str, pl.DataType] = {
    "run_id": pl.String(),
    "game_id": pl.Int64(),
    "turn": I16,
    "round": I16,
    "seat": I8,
    "action": pl.String(),
    "gems_taken": pl.List(I8),
    "gold_taken": I8,
    "card_id": I16,
    "card_from": pl.String(),
    "slot": I8,
    "payment": pl.List(I8),
    "gems_returned": pl.List(I8),
    "noble_id": I8,
    "points": I16,
    "score": I16,
    "tokens": pl.List(I8),
    "bonuses": pl.List(I8),
    "reserved": pl.List(I16),
    "display": pl.List(I16),
    "drawn_card_id": I16,
    "deck_left": pl.List(I8),
    "supply": pl.List(I8),
}


def result_frame(
    run_id: str,
    game: Game,
    strategies: Sequence[str],
    finished: list[tuple[int, int, State]],
) -> pl.DataFrame:
    """One row per (game, seat), built column by column."""
    noble_value = game.noble_points
    cols: dict[str, list[Any]] = {name: [] for name in RESULT_SCHEMA}
    for game_id, seed, state in finished:
        n = state.n
        ranks = state.ranks()
        rounds = state.round
        reason = END_REASONS[state.end_reason]
        cols["game_id"] += [game_id] * n
        cols["game_seed"] += [seed] * n
        cols["nobles_in_play"] += state.nobles_in_play * n
        cols["seat"] += range(n)
        cols["strategy"] += strategies[:n]
        cols["points"] += state.points
        noble_points = [sum(noble_value[x] for x in ns) for ns in state.nobles]
        cols["card_points"] += [p - q for p, q in zip(state.points, noble_points, strict=True)]
        cols["noble_points"] += noble_points
        cols["cards_bought"] += state.cards_bought
        cols["nobles"] += [len(ns) for ns in state.nobles]
        for bonus, tokens in zip(state.bonus, state.tokens, strict=True):
            cols["bonuses"] += bonus
            cols["tokens"] += tokens
        cols["reserved_left"] += [len(r) for r in state.reserved]
        cols["rounds"] += [rounds] * n
        cols["passes"] += state.passes
        cols["rank"] += ranks
        cols["winner"] += [r == 1 for r in ranks]
        cols["end_reason"] += [reason] * n
    return result_columns_frame(run_id, game, cols)


def result_columns_frame(run_id: str, game: Game, cols: dict[str, Any]) -> pl.DataFrame:
    """The results frame from its per-row columns (lists or numpy arrays; list columns
    flat, row after row), the constant and derived columns added here; the compiled core
    builds its frames through this too."""
    cfg = game.config
    cols = dict(cols)
    rows = len(cols["seat"])
    constants = {
        "run_id": run_id,
        "game": "splendor",
        "n_players": cfg.n_players,
        "target_points": cfg.target_points,
        "max_rounds": cfg.max_rounds,
        "gem_tokens": cfg.resolved_gem_tokens,
        "gold_tokens": cfg.gold_tokens,
    }
    for name, value in constants.items():
        cols[name] = [value] * rows
    cols["total"] = cols["points"]
    cols["turns_taken"] = cols["rounds"]
    cols["hit_round_cap"] = [r == "round_cap" for r in cols["end_reason"]]
    widths = {"nobles_in_play": cfg.resolved_nobles, "bonuses": N_GEMS, "tokens": N_GEMS + 1}
    return pl.DataFrame(
        {
            name: fixed_lists(cols[name], widths[name], dtype.inner).alias(name)  # type: ignore[attr-defined]
            if name in widths
            else pl.Series(name, cols[name], dtype=dtype)
            for name, dtype in RESULT_SCHEMA.items()
        }
    )


def turn_frame(run_id: str, game: Game, games: list[tuple[int, State]]) -> pl.DataFrame:
    """One row per turn: every game's flat record (`RECORD_WIDTH` ints a turn) becomes one
    int matrix, and each column a slice of it; no Python work per turn."""
    flat: list[int] = []
    game_ids = []
    turns = []
    for game_id, state in games:
        flat += state.log
        game_ids.append(game_id)
        turns.append(len(state.log) // RECORD_WIDTH)
    # polars converts a list of ints fastest; numpy then slices the matrix for free
    table = pl.Series(flat, dtype=pl.Int32).to_numpy().reshape(-1, RECORD_WIDTH)
    return turn_table_frame(run_id, game, game_ids, turns, table)


def turn_table_frame(
    run_id: str, game: Game, game_ids: Sequence[int], turns: Sequence[int], table: np.ndarray
) -> pl.DataFrame:
    """The turns frame from the games' records as one int32 matrix (a row a turn, games
    in order, `turns[i]` rows for game `game_ids[i]`); the compiled core's path too."""
    rows = len(table)
    starts = np.cumsum(turns) - turns
    turn_numbers = np.arange(rows) - np.repeat(starts, turns)
    n = game.n_players

    def column(k: int, dtype: pl.DataType, nulls: bool = False) -> pl.Series:
        """-1 means 'none' in the records: null in the table."""
        s = pl.Series(table[:, k])
        return (s.set(s < 0, None) if nulls else s).cast(dtype)  # type: ignore[arg-type]

    def lists(k: int, width: int, dtype: pl.DataType, nulls: bool = False) -> pl.Series:
        return block_lists(table[:, k : k + width], dtype, nulls)

    def counts(k: int) -> np.ndarray:
        """Six token counts unpacked from the record's packed int."""
        shifts = np.arange(N_GEMS + 1) * PACK_BITS
        return table[:, k, None] >> shifts & (1 << PACK_BITS) - 1

    def names(k: int, table_names: tuple[str, ...]) -> pl.Series:
        return pl.Series(table[:, k]).replace_strict(
            range(len(table_names)), list(table_names), default=None, return_dtype=pl.String
        )

    taken = counts(R_TAKEN)
    held = table[:, R_RESERVED : R_RESERVED + MAX_RESERVED]  # ids first, EMPTY padding last
    reserved = pl.select(
        pl.lit(block_lists(held, I16)).list.head(pl.lit(pl.Series((held >= 0).sum(axis=1))))
    ).to_series()
    points = column(R_POINTS, I16)
    out = {
        "run_id": pl.repeat(run_id, rows, dtype=pl.String, eager=True),
        "game_id": pl.Series(np.repeat(np.array(game_ids, dtype=np.int64), turns)),
        "turn": pl.Series(turn_numbers, dtype=I16),
        "round": pl.Series(turn_numbers // n + 1, dtype=I16),
        "seat": pl.Series(turn_numbers % n, dtype=I8),
        "action": names(R_ACTION, ACTION_NAMES),
        "gems_taken": block_lists(taken, I8),
        "gold_taken": pl.Series(taken[:, GOLD], dtype=I8),
        "card_id": column(R_CARD, I16, nulls=True),
        "card_from": names(R_SOURCE, SOURCE_NAMES),
        "slot": column(R_SLOT, I8, nulls=True),
        "payment": block_lists(counts(R_PAYMENT), I8),
        "gems_returned": block_lists(counts(R_RETURNED), I8),
        "noble_id": column(R_NOBLE, I8, nulls=True),
        "points": points,
        "score": points,
        "tokens": lists(R_TOKENS, N_GEMS + 1, I8),
        "bonuses": lists(R_BONUSES, N_GEMS, I8),
        "reserved": reserved,
        "display": lists(R_DISPLAY, N_SLOTS, I16, nulls=True),
        "drawn_card_id": column(R_DRAWN, I16, nulls=True),
        "deck_left": lists(R_DECK_LEFT, N_LEVELS, I8),
        "supply": lists(R_SUPPLY, N_GEMS + 1, I8),
    }
    return pl.DataFrame({name: out[name].alias(name) for name in TURN_SCHEMA})


def replay(game: Game, game_id: int, seed: int, turns: pl.DataFrame) -> State:
    """Re-apply a logged game's choices to a fresh deal and check every turn against the log.

    Raises SanssimError (one line) at the first turn where the engine and the log disagree.
    """
    state = game.new_state(seed, record=True)
    logged = turns.sort("turn")
    for row in logged.iter_rows(named=True):
        try:
            replay_turn(state, row)
        except (IllegalActionError, ValueError, TypeError) as exc:
            raise SanssimError(
                f"game {game_id} turn {row['turn']}: the log is not a legal game ({exc})"
            ) from None
    if not state.is_terminal():
        raise SanssimError(f"game {game_id}: the log stops at turn {state.turn}, the game goes on")
    run_id = logged["run_id"][0] if logged.height else ""
    replayed = turn_frame(run_id, game, [(game_id, state)])
    check_turn_rows(game_id, replayed, logged)
    if replayed.height != logged.height:
        raise SanssimError(
            f"game {game_id}: the log has {logged.height} turns, the engine {replayed.height}"
        )
    return state


def replay_turn(state: State, row: dict[str, Any]) -> None:
    """Apply one logged turn's choices (raises ValueError when they cannot be applied)."""
    turn = row["turn"]
    if state.turn > turn:
        return  # a turn of forced choices, played by the engine itself
    if state.is_terminal() or state.turn != turn:
        raise ValueError(f"the engine is at turn {state.turn}, not {turn}")
    while state.turn == turn and not state.is_terminal():
        if state.phase == MAIN:
            action = _main_action(state, row)
            if BUY <= action < PASS:
                state.apply_buy(action, list(row["payment"]))
            else:
                state.apply_action(action)
        elif state.phase == NOBLE_CHOICE:
            if row["noble_id"] is None:
                raise ValueError("a noble must visit, the log names none")
            state.apply_action(NOBLE + row["noble_id"])
        else:
            done = state.returned_this_turn
            left = [want - got for want, got in zip(row["gems_returned"], done, strict=True)]
            colour = next((c for c, k in enumerate(left) if k > 0), None)
            if colour is None:
                raise ValueError("tokens must be returned, the log returns no more")
            state.apply_action(RETURN + colour)


def _main_action(state: State, row: dict[str, Any]) -> int:
    """The engine action a logged turn names."""
    kind = row["action"]
    taken = row["gems_taken"]
    if kind == "take3":
        return TAKE_DIFF + TAKE_SETS.index(tuple(c for c in range(N_GEMS) if taken[c]))
    if kind == "take2":
        return TAKE2 + next(c for c in range(N_GEMS) if taken[c])
    source = row["card_from"]
    if kind == "reserve":
        return RESERVE + row["slot"]
    if kind == "reserve_blind":
        return RESERVE_BLIND + SOURCE_NAMES.index(source) - SOURCE_NAMES.index("deck:1")
    if kind == "buy":
        if source == "display":
            return BUY + row["slot"]
        return BUY_RESERVED + state.reserved[state.current].index(row["card_id"])
    if kind == "pass":
        return PASS
    raise ValueError(f"unknown action {kind!r}")
