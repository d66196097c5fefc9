"""Where everything lives in the core's flat arrays: a game state, the game's tables.

A state is one int64 array (`state_size(game)` long, clone = copy): a header of
scalars, the display, the legal choices' list, per-seat fields (four seats' room), the
turn being recorded, then the supply, top of the supply last. The game's fixed
parameters (`Game`'s tables and configuration) are another int64 array, packed
once per chunk by `pack_game`; its variable-length tables sit behind offsets
stored in its header. The numbers are module constants, so numba folds them in.
"""

from __future__ import annotations

import numpy as np

from sanssim.games.sanssouci.actions import HAND_SIZE, N_SLOTS, SIDE
from sanssim.games.sanssouci.components import SYMBOLS
from sanssim.games.sanssouci.engine import Game, State
from sanssim.games.sanssouci.garden import N_SQUARES

SEATS = 4
N_SYMBOLS = len(SYMBOLS)
DECK = 18
LEGAL_ROOM = N_SQUARES + 2


class _Offsets:
    """Hands out consecutive offsets: `take(k)` reserves k words."""

    def __init__(self) -> None:
        self.size = 0

    def take(self, k: int = 1) -> int:
        start = self.size
        self.size += k
        return start


# Turn record fields, in the order of log._RECORD_FIELDS, then the hand and the display.
(
    R_TURN, R_SEAT, R_CARD, R_CARD_WILD, R_SLOT, R_TILE, R_TARGET, R_PLACED, R_GARDENER,
    R_EXPANSION_POINTS, R_NOBLE_COL, R_NOBLE_FROM, R_NOBLE_TO, R_NOBLE_POINTS, R_SCORE,
    R_RESHUFFLES, R_SUPPLY_LEFT,
) = range(17)  # fmt: skip
R_HAND = 17
R_DISPLAY = R_HAND + HAND_SIZE
RECORD_WIDTH = R_DISPLAY + N_SLOTS

_s = _Offsets()
PHASE, TURN, CURRENT, FILLED, RESHUFFLES = (_s.take() for _ in range(5))
PENDING_TILE, PENDING_TARGET, SUPPLY_LEN, LEGAL_LEN, N, RECORD = (_s.take() for _ in range(6))
CHOICES = _s.take()  # a TAKE, PLACE or NOBLE decision's choices, as bits (`choices`)
DISPLAY = _s.take(N_SLOTS)
SLOT_OF_SYMBOL = _s.take(N_SYMBOLS)
LEGAL = _s.take(LEGAL_ROOM)
HAND_LEN = _s.take(SEATS)
HANDS = _s.take(SEATS * HAND_SIZE)
DECK_LEN = _s.take(SEATS)
DECKS = _s.take(SEATS * DECK)
MISSIONS = _s.take(max(SEATS * 2, N_SYMBOLS))  # two a seat; the deal shuffles all here
GARDEN = _s.take(SEATS)
EXP_BOARD = _s.take(SEATS)  # index into the sorted expansion boards
EXP_SIDE = _s.take(SEATS)
OCCUPIED = _s.take(SEATS)
GARDENERS = _s.take(SEATS)
REACH = _s.take(SEATS)
NOBLE_ROWS = _s.take(SEATS * 9)
NOBLE_ZONE = _s.take(SEATS)
SCORE = _s.take(SEATS)
NOBLE_POINTS = _s.take(SEATS)
EXPANSION_POINTS = _s.take(SEATS)
N_GARDENERS = _s.take(SEATS)
REC = _s.take(RECORD_WIDTH)
SUPPLY = _s.size

# The game's parameters: header, then tables at the offsets the header holds.
_g = _Offsets()
G_N, G_EXPANSION, G_RESHUFFLE, G_COLUMN_BONUS, G_SEAT_BONUS = (_g.take() for _ in range(5))
G_N_TILES, G_N_BOARDS, G_N_EXP, G_N_EXP_BOARDS, G_FIXED_SIDES = (_g.take() for _ in range(5))
G_ROW_POINTS = _g.take(7)  # by row 0-6 (rows 2-6 pay)
G_MISSION_POINTS = _g.take(7)  # by row 0 (terrace) to 6
G_CARD_KIND = _g.take(DECK)
G_CARD_SYMBOL = _g.take(DECK)
G_CARD_SLOTS = _g.take(DECK)
G_SIDES = _g.take(SEATS)  # the fixed garden side of each seat (with G_FIXED_SIDES)
G_TILES, G_BOARD_SIDES, G_PREPRINTED, G_TARGET, G_SYMBOL_COLUMN = (_g.take() for _ in range(5))
G_EXP_BOARD_SIDES, G_MARKS, G_SIDE_MARKS = (_g.take() for _ in range(3))
G_HEADER = _g.size
SIDES_PER_BOARD = 2


def state_size(game: Game) -> int:
    return SUPPLY + len(game.tiles) + 1


def pack_game(game: Game) -> np.ndarray:
    """The game's tables and configuration as one int64 array (see the module docstring)."""
    comps = game.components
    cfg = game.config
    n_gardens = len(comps.garden_sides)
    n_exp = len(comps.expansion_sides)
    boards = sorted({s.board for s in comps.garden_sides})
    exp_boards = sorted({e.board for e in comps.expansion_sides})
    tables: list[tuple[int, list[int]]] = [
        (G_TILES, list(game.tiles)),
        (
            G_BOARD_SIDES,
            [i for b in boards for i, s in enumerate(comps.garden_sides) if s.board == b],
        ),
        (G_PREPRINTED, [s.preprinted for s in game.setups]),
        (G_TARGET, [t for s in game.setups for t in s.target]),
        (G_SYMBOL_COLUMN, [c for s in game.setups for c in s.symbol_column]),
        (
            G_EXP_BOARD_SIDES,
            [i for b in exp_boards for i, e in enumerate(comps.expansion_sides) if e.board == b],
        ),
        (G_MARKS, _marks(game, n_gardens, n_exp)),
        (G_SIDE_MARKS, [sum(m.value for r in e.marks for m in r) for e in comps.expansion_sides]),
    ]
    header = [0] * G_HEADER
    header[G_N] = cfg.n_players
    header[G_EXPANSION] = int(cfg.expansion)
    header[G_RESHUFFLE] = int(cfg.duplicate_reshuffle)
    header[G_COLUMN_BONUS] = cfg.column_bonus_points
    header[G_SEAT_BONUS] = cfg.seat_bonus
    header[G_N_TILES] = len(game.tiles)
    header[G_N_BOARDS] = len(boards)
    header[G_N_EXP] = n_exp
    header[G_N_EXP_BOARDS] = len(exp_boards)
    for row, points in game.row_points.items():
        header[G_ROW_POINTS + row] = points
    for row, points in enumerate(game.mission_points):
        header[G_MISSION_POINTS + row] = points
    for i, _card in enumerate(comps.deck):
        header[G_CARD_KIND + i] = game.card_kind[i]
        header[G_CARD_SYMBOL + i] = game.card_symbol[i]
        header[G_CARD_SLOTS + i] = game.card_slots[i]
    if cfg.garden_sides is not None:
        ids = [s.id for s in comps.garden_sides]
        chosen = cfg.garden_sides
        if len(chosen) == 1:
            chosen = chosen * cfg.n_players
        header[G_FIXED_SIDES] = 1
        for seat, side_id in enumerate(chosen):
            header[G_SIDES + seat] = ids.index(side_id)
    body: list[int] = []
    for slot, values in tables:
        header[slot] = G_HEADER + len(body)
        body.extend(values)
    return np.array(header + body, dtype=np.int64)


def _marks(game: Game, n_gardens: int, n_exp: int) -> list[int]:
    """Per (garden side, expansion side): 54 landscape points, then 54 gardener points."""
    out: list[int] = []
    for garden in range(n_gardens):
        for exp in range(n_exp):
            land, gard = game.expansion_marks(garden, exp)
            out.extend(land)
            out.extend(gard)
    return out


def state_array(state: State) -> np.ndarray:
    """A Python engine's state in this layout (for tests and single decisions)."""
    game = state.game
    exp_boards = sorted({e.board for e in game.components.expansion_sides})
    st = np.zeros(state_size(game), dtype=np.int64)
    st[PHASE], st[TURN], st[CURRENT] = state.phase, state.turn, state.current
    st[FILLED], st[RESHUFFLES], st[N] = state.filled, state.reshuffles, state.n
    st[PENDING_TILE], st[PENDING_TARGET] = state.pending_tile, state.pending_target
    st[SUPPLY_LEN] = len(state.supply)
    st[SUPPLY : SUPPLY + len(state.supply)] = state.supply
    st[LEGAL_LEN] = len(state.legal)
    st[LEGAL : LEGAL + len(state.legal)] = state.legal
    if state.phase != SIDE:
        st[CHOICES] = sum(1 << action for action in state.legal)
    st[DISPLAY : DISPLAY + N_SLOTS] = state.display
    st[SLOT_OF_SYMBOL : SLOT_OF_SYMBOL + N_SYMBOLS] = state.slot_of_symbol
    for p in range(state.n):
        hand, deck = state.hands[p], state.decks[p]
        st[HAND_LEN + p], st[DECK_LEN + p] = len(hand), len(deck)
        st[HANDS + HAND_SIZE * p : HANDS + HAND_SIZE * p + len(hand)] = hand
        st[DECKS + DECK * p : DECKS + DECK * p + len(deck)] = deck
        st[MISSIONS + 2 * p : MISSIONS + 2 * p + 2] = state.missions[p]
        st[GARDEN + p] = state.setup[p].garden
        board = state.exp_board[p]
        st[EXP_BOARD + p] = -1 if board == -1 else exp_boards.index(board)
        st[EXP_SIDE + p] = state.exp_side[p]
        st[NOBLE_ROWS + 9 * p : NOBLE_ROWS + 9 * p + 9] = state.noble_rows[p]
        for at, values in (
            (OCCUPIED, state.occupied),
            (GARDENERS, state.gardeners),
            (REACH, state.reach),
            (NOBLE_ZONE, state.noble_zone),
            (SCORE, state.score),
            (NOBLE_POINTS, state.noble_points),
            (EXPANSION_POINTS, state.expansion_points),
            (N_GARDENERS, state.n_gardeners),
        ):
            st[at + p] = values[p]
    return st
