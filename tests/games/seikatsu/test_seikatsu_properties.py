"""Whole seeded games checked against a slow reference written from the rules text.

The reference keeps the garden as a dict {(q, r): tile code} and recomputes
everything from scratch each time: legal spaces by scanning neighbours, birds
by counting matching codes, flowers by walking each row. It shares no code or
tables with the engine; it only takes the engine's deal (start tiles, hands,
bag order with the top of the bag last) as its starting point, and checks the
deal's contents itself.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from sanssim.games.seikatsu import Game, GameConfig, State

BIRDS = ["tanager", "waxwing", "white_eye", "flycatcher"]
FLOWERS = ["primrose", "plumeria", "tulip", "bluebell"]
SPACES = [
    (q, r)
    for q in range(-3, 4)
    for r in range(-3, 4)
    if max(abs(q), abs(r), abs(q + r)) <= 3 and (q, r) != (0, 0)
]
STEPS = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
AXIS = {"pink": lambda q, r: r, "blue": lambda q, r: q, "green": lambda q, r: -q - r}
SEAT_PAGODAS = {2: ["pink", "blue"], 3: ["pink", "blue", "green"],
                4: ["pink", "blue", "pink", "blue"]}  # fmt: skip
TURNS = {2: 34, 3: 33, 4: 32}


def near(space: tuple[int, int]) -> list[tuple[int, int]]:
    q, r = space
    return [(q + dq, r + dr) for dq, dr in STEPS if (q + dq, r + dr) in SPACES]


def bird(code: str) -> str | None:
    return None if code == "koi" else code.split(":")[0]


class Reference:
    """The rules, written plainly."""

    def __init__(self, n: int, tournament: bool, state: State) -> None:
        names = state.game.kind_names
        self.n = n
        self.garden = {state.game.cells[c]: names[k] for c, k in enumerate(state.board) if k >= 0}
        self.hands = [[names[k] for k in h] for h in state.hands]
        self.bag = [names[k] for k in state.bag]
        self.face_up = list(state.koi_held)
        self.points = [0] * n  # per seat
        tiles = list(self.garden.values()) + self.bag + [t for h in self.hands for t in h]
        tiles += ["koi"] * sum(self.face_up)
        assert Counter(tiles) == Counter(
            [f"{b}:{f}" for b in BIRDS for f in FLOWERS] * 2 + ["koi"] * 4
        )
        assert "koi" not in self.garden.values()
        if tournament:
            assert self.face_up == {2: [2, 2], 3: [1, 1, 2], 4: [1, 1, 1, 1]}[n]
            assert "koi" not in self.bag

    def legal(self, seat: int) -> set[tuple[str, tuple[int, int]]]:
        tiles = set(self.hands[seat]) | ({"koi"} if self.face_up[seat] else set())
        spaces = [
            s for s in SPACES if s not in self.garden and any(x in self.garden for x in near(s))
        ]
        return {(t, s) for t in tiles for s in spaces}

    def play(self, seat: int, code: str, space: tuple[int, int]) -> tuple[int, str | None, str]:
        if code == "koi" and self.face_up[seat]:
            self.face_up[seat] -= 1
        else:
            self.hands[seat].remove(code)
        around = [bird(self.garden[x]) for x in near(space) if x in self.garden]
        koi_bird = None
        if code == "koi":
            best = max(BIRDS, key=lambda b: (around.count(b), -BIRDS.index(b)))
            m = around.count(best)
            koi_bird = best if m else None
        else:
            m = around.count(bird(code))
        points = 1 + m if m >= 1 else 0
        self.points[seat] += points
        self.garden[space] = code
        drawn = self.bag.pop() if self.bag else None
        if drawn is not None:
            self.hands[seat].append(drawn)
        return points, koi_bird, drawn

    def side(self, seat: int) -> int:
        return seat % 2 if self.n == 4 else seat

    def side_birds(self, seat: int) -> int:
        return sum(self.points[s] for s in range(self.n) if self.side(s) == self.side(seat))

    def rows(self, pagoda: str) -> list[int]:
        out = []
        for k in range(-3, 4):
            row = [self.garden.get(s) for s in SPACES if AXIS[pagoda](*s) == k]
            counts = Counter(t.split(":")[1] for t in row if t and t != "koi")
            best = max(counts.values(), default=0) + row.count("koi")
            out.append(best * (best + 1) // 2)
        return out

    def total(self, seat: int) -> int:
        return self.side_birds(seat) + sum(self.rows(SEAT_PAGODAS[self.n][seat]))

    def ranks(self) -> list[int]:
        # sides by total, ties to the side whose last seat plays later
        sides = sorted({self.side(s) for s in range(self.n)})
        last = {k: max(s for s in range(self.n) if self.side(s) == k) for k in sides}
        order = sorted(sides, key=lambda k: (-self.total(last[k]), -last[k]))
        return [order.index(self.side(s)) + 1 for s in range(self.n)]


def decode(state: State) -> set[tuple[str, tuple[int, int]]]:
    game = state.game
    return {(game.kind_names[a // 36], game.cells[a % 36]) for a in state.legal}


CONFIGS = [(n, t) for n in (2, 3, 4) for t in (False, True)]


@pytest.mark.parametrize(
    "n,tournament", CONFIGS, ids=[f"{n}p-{'t' if t else 's'}" for n, t in CONFIGS]
)
def test_engine_agrees_with_the_reference_over_many_games(n, tournament):
    game = Game(GameConfig(n, tournament))
    names = game.kind_names
    for seed in range(300):
        state = game.new_state(seed, record=True)
        ref = Reference(n, tournament, state)
        rng = random.Random(seed)
        asked = {}
        while state.legal:
            asked[state.turn] = decode(state)
            # lean towards koi now and then so that koi turns are common
            koi = [a for a in state.legal if a // 36 == game.koi_kind]
            pool = koi if koi and rng.random() < 0.3 else state.legal
            state.apply_action(pool[int(rng.random() * len(pool))])
        assert len(state.log) == TURNS[n]
        for rec in state.log:
            seat = rec.turn % n
            assert rec.seat == seat
            assert sorted(names[k] for k in rec.hand) == sorted(ref.hands[seat])
            assert rec.koi_held == ref.face_up[seat]
            legal = ref.legal(seat)
            if rec.turn in asked:
                assert asked[rec.turn] == legal and len(legal) > 1
            else:
                assert len(legal) == 1  # only forced turns are played without asking
            move = (names[rec.tile], game.cells[rec.cell])
            assert move in legal
            points, koi_bird, drawn = ref.play(seat, *move)
            assert rec.bird_points == points
            assert (BIRDS[rec.koi_bird] if rec.koi_bird >= 0 else None) == koi_bird
            assert (names[rec.drawn] if rec.drawn >= 0 else None) == drawn
            assert rec.score == ref.side_birds(seat)
            assert rec.bag_left == len(ref.bag)
        assert state.returns() == [ref.total(s) for s in range(n)]
        assert state.ranks() == ref.ranks()
        for seat in range(n):
            b = state.breakdown(seat)
            assert list(b.row_points) == ref.rows(SEAT_PAGODAS[n][seat])
            assert b.own_bird_points == ref.points[seat]
            assert b.bird_points == ref.side_birds(seat)
