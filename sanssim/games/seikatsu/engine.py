"""The Seikatsu forward model: fixed parameters (`Game`) and a mutable `State`.

Spaces are small ints, the index of a cell in `components.cells`; the garden
is a set of bit masks over them (occupied, the frontier of empty spaces next
to a tile, one mask per bird, per flower, and the koi). A tile kind is
``bird * n_flowers + flower`` for a garden tile and `koi_kind` (the last one)
for a koi. An action is ``kind * n_cells + cell``: two identical tiles are one
choice, and in tournament mode the koi is always a face-up koi (koi never
enter the bag there, so a hand never holds one).

All chance comes from one stream, `stream(seed, "bag")`: it shuffles the
garden tiles for the start tiles, then (standard game) the bag once the koi
are added. Nothing random happens after the deal, so a state needs no
generator of its own and the bag order is its only future chance.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from sanssim.games.engine import EngineGame, EngineState
from sanssim.games.seikatsu.components import (
    KOI,
    NEIGHBOUR_STEPS,
    Components,
    coordinate,
    default_components,
)
from sanssim.games.seikatsu.config import GameConfig
from sanssim.seeding import stream

PLAY, END = range(2)
PHASE_NAMES = ("play", "end")
HAND_SIZE = 2
EMPTY = -1
BAG_STREAM = "bag"  # the name of the game's one stream of chance
CHUNKS = 4  # lookups that turn a frontier mask into actions (ceil(cells / 4) bits each)


class TurnRecord(NamedTuple):
    """What one turn did, for logs and replays (kept only when recording).

    Tiles are kinds, spaces cell indices; -1 means none (no koi bird, no draw).
    """

    turn: int
    seat: int
    hand: tuple[int, ...]
    koi_held: int
    tile: int
    cell: int
    koi_bird: int
    bird_points: int
    drawn: int
    score: int
    bag_left: int


@dataclass(frozen=True, slots=True)
class Breakdown:
    """A seat's score by source; bird, flower and row points are its side's."""

    bird_points: int
    own_bird_points: int
    flower_points: int
    row_points: tuple[int, ...]
    koi_played: int

    @property
    def total(self) -> int:
        return self.bird_points + self.flower_points


@lru_cache(maxsize=8)
def _action_tables(n_cells: int, n_kinds: int) -> tuple[int, tuple[tuple[tuple[int, ...], ...]]]:
    """(bits per chunk, ACTIONS[kind][chunk][bits]): the actions of a kind for the
    cells set in one chunk of the frontier mask; 4 chunks of 9 bits for 36 cells."""
    width = -(-n_cells // CHUNKS)
    tables = tuple(
        tuple(
            tuple(
                tuple(
                    kind * n_cells + chunk * width + i
                    for i in range(width)
                    if bits >> i & 1 and chunk * width + i < n_cells
                )
                for bits in range(1 << width)
            )
            for chunk in range(CHUNKS)
        )
        for kind in range(n_kinds)
    )
    return width, tables


class Game(EngineGame[GameConfig, Components]):
    """A Seikatsu design: its rules and components, and the tables derived from them (cells
    and neighbours, pagoda rows, sides and teams, the tile bag)."""

    packaged = default_components

    def derive(self) -> None:
        comps = self.components
        n = self.config.n_players
        cells = comps.cells
        index = {c: i for i, c in enumerate(cells)}
        nf = len(comps.flowers)
        koi_kind = len(comps.birds) * nf
        around = (((q + dq, r + dr) for dq, dr in NEIGHBOUR_STEPS) for q, r in cells)
        neighbours = tuple(tuple(index[c] for c in near if c in index) for near in around)
        pagodas = comps.pagodas
        # ROWS[p][k]: mask of row k (k = 0 .. 2 * radius, i.e. coordinate -radius .. radius)
        radius = comps.radius
        rows = tuple(
            tuple(
                sum(1 << i for i, c in enumerate(cells) if coordinate(c, p.axis) == k - radius)
                for k in range(2 * radius + 1)
            )
            for p in pagodas
        )
        names = [p.name for p in pagodas]
        seat_pagoda = tuple(names.index(name) for name in comps.seat_pagodas[n])
        side = comps.teams.get(n, tuple(range(n)))
        n_sides = max(side) + 1
        last_seat = tuple(max(s for s in range(n) if side[s] == k) for k in range(n_sides))
        set_ = self._set
        set_("cells", cells)
        set_("index", index)
        set_("n_cells", len(cells))
        set_("n_flowers", nf)
        set_("koi_kind", koi_kind)
        set_("kind_names", tuple(f"{b}:{f}" for b in comps.birds for f in comps.flowers) + (KOI,))
        set_("kind_bird", tuple(k // nf for k in range(koi_kind)) + (EMPTY,))
        set_("kind_flower", tuple(k % nf for k in range(koi_kind)) + (EMPTY,))
        set_("neighbours", neighbours)
        set_("neighbour_mask", tuple(sum(1 << j for j in nb) for nb in neighbours))
        set_("rows", rows)
        set_("row_of", tuple(tuple(coordinate(c, p.axis) + radius for c in cells) for p in pagodas))
        set_("seat_pagoda", seat_pagoda)
        set_("side", side)
        set_("n_sides", n_sides)
        set_("side_pagoda", tuple(seat_pagoda[side.index(k)] for k in range(n_sides)))
        set_("last_seat", last_seat)
        set_("set_points", self.config.set_points or comps.set_points)
        set_("tie_break", self.config.tie_break or comps.tie_break)
        set_("starts", tuple(index[c] for c in comps.start_spaces[n]))
        set_("turns", len(cells) - len(comps.start_spaces[n]))
        names_to_kind = {name: k for k, name in enumerate(self.kind_names)}
        tiles = sorted(names_to_kind[t] for t in comps.tiles)
        set_("garden_tiles", tuple(t for t in tiles if t != koi_kind))
        set_("koi_dealt", comps.tournament_koi[n] if self.config.tournament else (0,) * n)
        width, actions = _action_tables(len(cells), koi_kind + 1)
        set_("chunk_bits", width)
        set_("actions", actions)

    def kind(self, name: str) -> int:
        """Tile kind of a tile code (`tanager:tulip`, `koi`)."""
        return self.kind_names.index(name)

    def cell(self, q: int, r: int) -> int:
        return self.index[(q, r)]

    def action(self, tile: str, q: int, r: int) -> int:
        """The action playing tile code `tile` on space (q, r)."""
        return self.kind(tile) * self.n_cells + self.index[(q, r)]

    def row_points(self, pagoda: int, flowers: list[int], koi: int) -> list[int]:
        """Each row of `pagoda`: the largest flower set plus the row's koi, scored."""
        points = self.set_points
        out = []
        for row in self.rows[pagoda]:
            koi_in_row = (koi & row).bit_count()
            out.append(points[max([(f & row).bit_count() for f in flowers]) + koi_in_row])
        return out

    def ranks_of(self, totals: list[int]) -> list[int]:
        """Each seat's rank from its side's total: total first, then the tie-break of
        the component data (or the house rule) by each side's last seat in turn order;
        never shared."""
        later = self.tie_break == "later_in_turn_order"
        last = self.last_seat
        order = sorted(
            range(self.n_sides),
            key=lambda k: (totals[k], last[k] if later else -last[k]),
            reverse=True,
        )
        rank = [0] * self.n_sides
        for place, side in enumerate(order, start=1):
            rank[side] = place
        return [rank[side] for side in self.side]


class State(EngineState):
    """One game in progress. Mutated in place by `apply_action`; `clone` to branch."""

    phases = PHASE_NAMES
    __slots__ = (
        "board", "occupied", "frontier", "birds", "flowers", "koi", "bag", "hands",
        "koi_held", "side_score", "own_points", "koi_played", "start_tiles",
    )  # fmt: skip

    game: Game
    log: list[TurnRecord]

    def _deal(self, seed: int) -> None:
        game = self.game
        n = self.n
        rng = stream(seed, BAG_STREAM)
        self.board = [EMPTY] * game.n_cells
        self.occupied = 0
        self.frontier = 0
        self.birds = [0] * (game.koi_kind // game.n_flowers)
        self.flowers = [0] * game.n_flowers
        self.koi = 0
        self.side_score = [0] * game.n_sides
        self.own_points = [0] * n
        self.koi_played = [0] * n
        bag = list(game.garden_tiles)
        rng.shuffle(bag)
        self.start_tiles = [bag.pop() for _ in game.starts]
        for cell, kind in zip(game.starts, self.start_tiles, strict=True):
            self._put(kind, cell)
        if game.config.tournament:
            self.koi_held = list(game.koi_dealt)
        else:
            self.koi_held = [0] * n
            bag += [game.koi_kind] * game.components.koi_count
            bag.sort()
            rng.shuffle(bag)
        self.hands = [[bag.pop() for _ in range(HAND_SIZE)] for _ in range(n)]
        self.bag = bag
        self.phase = PLAY
        self._start_turn()

    # ------------------------------------------------------------------ the garden

    def _put(self, kind: int, cell: int) -> None:
        """Place a tile without scoring (start tiles, and the second half of a play)."""
        game = self.game
        bit = 1 << cell
        self.board[cell] = kind
        if kind == game.koi_kind:
            self.koi |= bit
        else:
            self.birds[game.kind_bird[kind]] |= bit
            self.flowers[game.kind_flower[kind]] |= bit
        self.occupied |= bit
        self.frontier = (self.frontier | game.neighbour_mask[cell]) & ~self.occupied

    def bird_points(self, kind: int, cell: int) -> tuple[int, int]:
        """(points, koi bird) for playing `kind` on `cell` now; koi bird -1 unless a koi scores.

        A garden tile scores 1 + m for m >= 1 matching neighbours; a koi takes the
        bird with most matches, ties to the first in bird order.
        """
        game = self.game
        near = game.neighbour_mask[cell]
        if kind != game.koi_kind:
            m = (near & self.birds[game.kind_bird[kind]]).bit_count()
            return (m + 1 if m else 0), EMPTY
        best, bird = 0, EMPTY
        for b, mask in enumerate(self.birds):
            m = (near & mask).bit_count()
            if m > best:
                best, bird = m, b
        return (best + 1 if best else 0), bird

    # ------------------------------------------------------------------ decisions

    def _apply(self, action: int) -> None:
        """Play a legal choice, then every following turn that has a single choice."""
        self._play(action)
        while len(self.legal) == 1:
            self._play(self.legal[0])

    def _start_turn(self) -> None:
        game = self.game
        p = self.current
        kinds = sorted(set(self.hands[p]))
        if self.koi_held[p] and game.koi_kind not in kinds:
            kinds.append(game.koi_kind)
        f = self.frontier
        legal: list[int] = []
        width = game.chunk_bits
        low = (1 << width) - 1
        f0, f1, f2, f3 = f & low, (f >> width) & low, (f >> 2 * width) & low, f >> 3 * width
        for kind in kinds:
            t0, t1, t2, t3 = game.actions[kind]
            legal += t0[f0] + t1[f1] + t2[f2] + t3[f3]
        self.legal = legal

    def _play(self, action: int) -> None:
        game = self.game
        kind, cell = divmod(action, game.n_cells)
        p = self.current
        hand = self.hands[p]
        before = tuple(hand) if self.record else ()
        koi_held = self.koi_held[p]
        if kind == game.koi_kind and koi_held:
            self.koi_held[p] = koi_held - 1
        else:
            hand.remove(kind)
        points, koi_bird = self.bird_points(kind, cell)
        if kind == game.koi_kind:
            self.koi_played[p] += 1
        self._put(kind, cell)
        side = game.side[p]
        if points:
            self.own_points[p] += points
            self.side_score[side] += points
        drawn = EMPTY
        if self.bag:
            drawn = self.bag.pop()
            hand.append(drawn)
        if self.record:
            self.log.append(
                TurnRecord(
                    self.turn,
                    p,
                    before,
                    koi_held,
                    kind,
                    cell,
                    koi_bird,
                    points,
                    drawn,
                    self.side_score[side],
                    len(self.bag),
                )  # fmt: skip
            )
        self.turn += 1
        if self.turn == game.turns:
            self.phase = END
            self.legal = []
            return
        self.current = p + 1 if p + 1 < self.n else 0
        self._start_turn()

    # ------------------------------------------------------------------ scores

    def flower_rows(self, pagoda: int) -> list[int]:
        """Flower points of each row of `pagoda` (index into components.pagodas) now."""
        return self.game.row_points(pagoda, self.flowers, self.koi)

    def breakdown(self, seat: int) -> Breakdown:
        """Score of seat `seat` by source, flowers counted as if the game ended now."""
        game = self.game
        rows = self.flower_rows(game.seat_pagoda[seat])
        return Breakdown(
            bird_points=self.side_score[game.side[seat]],
            own_bird_points=self.own_points[seat],
            flower_points=sum(rows),
            row_points=tuple(rows),
            koi_played=self.koi_played[seat],
        )

    def side_rows(self) -> list[list[int]]:
        """Flower points of each row of each side's pagoda, as if the game ended now."""
        return [self.flower_rows(pagoda) for pagoda in self.game.side_pagoda]

    def side_totals(self) -> list[int]:
        """Bird points plus flower points of each side (seat, or team in 4 players)."""
        return [
            score + sum(rows) for score, rows in zip(self.side_score, self.side_rows(), strict=True)
        ]

    def returns(self) -> list[int]:
        """Final totals per seat; in team games each seat gets its team's total."""
        totals = self.side_totals()
        return [totals[side] for side in self.game.side]

    def ranks(self) -> list[int]:
        """1 = best, never shared between sides: total, then place in turn order."""
        return self.game.ranks_of(self.side_totals())

    # ------------------------------------------------------------------ names and copies

    def describe(self, action: object) -> str:
        """A readable name for an action: `<tile> on (q, r)`."""
        game = self.game
        if type(action) is not int or not 0 <= action < game.n_cells * (game.koi_kind + 1):
            return repr(action)
        kind, cell = divmod(action, game.n_cells)
        q, r = game.cells[cell]
        return f"{game.kind_names[kind]} on ({q}, {r})"

    def clone(self) -> State:
        """An independent copy (the bag order is the only chance state)."""
        c = self._branch()
        c.board = list(self.board)
        c.occupied = self.occupied
        c.frontier = self.frontier
        c.birds = list(self.birds)
        c.flowers = list(self.flowers)
        c.koi = self.koi
        c.bag = list(self.bag)
        c.hands = [list(h) for h in self.hands]
        c.koi_held = list(self.koi_held)
        c.side_score = list(self.side_score)
        c.own_points = list(self.own_points)
        c.koi_played = list(self.koi_played)
        c.start_tiles = list(self.start_tiles)
        return c


Game.state_class = State
