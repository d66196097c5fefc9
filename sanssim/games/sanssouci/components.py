"""Component data: the fixed facts of the printed game, validated once on load.

The engine never hard-codes a fact the rules file marks as an assumption; it
reads it from a `Components` value built here from the data file's contents.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sanssim.errors import ComponentError

SYMBOLS: tuple[str, ...] = (
    "labyrinth",
    "statue",
    "pavilion",
    "topiary",
    "stairway",
    "fountain",
    "rose_arch",
    "herb_garden",
    "vineyard",
)
# Display colours in slot order; colour index i feeds garden row i + 2.
COLOURS: tuple[str, ...] = ("white", "gray", "orange", "fuchsia", "turquoise")
NUMERALS: tuple[str, ...] = ("II", "III", "IV")
TILE_SETS: tuple[str, ...] = ("II", "II+III", "II+III+IV")
N_ROWS = 6
N_COLS = 9
EXPANSION_TOP_ROW = 3
MARK_TOKENS: dict[str, tuple[str, int]] = {
    "+1": ("symbol", 1),
    "+2": ("symbol", 2),
    "+3": ("symbol", 3),
    "G": ("gardener", 3),
    "-2": ("penalty", -2),
    "-3": ("penalty", -3),
    ".": ("none", 0),
}
MARKED_SQUARES = 12
# The most tiles of one symbol in any supply (a printed set or `tiles_per_symbol`): the
# rules play far fewer, and every tile is drawn, logged and counted.
MAX_TILES_PER_SYMBOL = 20
MAX_BOARD = 99  # board numbers, printed on the sides (the game has four boards)
# A player plays one card in each of the 18 rounds (hand of 2, one draw after each turn).
DECK_SIZE = 18

JOKER = "joker"


@dataclass(frozen=True, slots=True)
class Card:
    """A player card; `kind` is 'symbol', 'pair' or 'joker'."""

    code: str
    kind: str
    symbol: int = -1
    colours: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class GardenSide:
    id: str
    board: int
    columns: tuple[str, ...]
    extra: tuple[tuple[int, int], ...]

    @property
    def preprinted(self) -> tuple[tuple[int, int], ...]:
        """All 15 pre-printed squares: row 1 plus the six extra ones."""
        return tuple((1, c) for c in range(N_COLS)) + self.extra

    def column_of(self, symbol: str) -> int:
        return self.columns.index(symbol)


@dataclass(frozen=True, slots=True)
class Mark:
    kind: str
    value: int


@dataclass(frozen=True, slots=True)
class ExpansionSide:
    id: str
    board: int
    stairway_index: int
    marks: tuple[tuple[Mark, ...], ...]  # 4 rows (garden rows 3-6) of 4 squares

    def first_column(self, garden: GardenSide) -> int:
        return garden.column_of("stairway") - self.stairway_index


@dataclass(frozen=True, slots=True)
class Components:
    tiles: dict[str, int]
    deck: tuple[Card, ...]
    garden_sides: tuple[GardenSide, ...]
    expansion_sides: tuple[ExpansionSide, ...]

    def garden_side(self, side_id: str) -> GardenSide:
        for side in self.garden_sides:
            if side.id == side_id:
                return side
        known = ", ".join(s.id for s in self.garden_sides)
        raise ComponentError(f"unknown garden side {side_id!r} (known: {known})")

    def tiles_per_symbol(self, tile_set: str) -> int:
        return sum(self.tiles[n] for n in tile_set.split("+"))

    def to_dict(self) -> dict[str, Any]:
        """The manifest form: complete enough to check a run without the package."""
        return {
            "tiles": dict(self.tiles),
            "deck": [c.code for c in self.deck],
            "garden_sides": [
                {
                    "id": s.id,
                    "board": s.board,
                    "columns": list(s.columns),
                    "preprinted": [list(sq) for sq in s.preprinted],
                }
                for s in self.garden_sides
            ],
            "expansion_sides": [
                {
                    "id": e.id,
                    "board": e.board,
                    "stairway_index": e.stairway_index,
                    "squares": [
                        {
                            "row": EXPANSION_TOP_ROW + r,
                            "offset": k,
                            "kind": m.kind,
                            "value": m.value,
                        }
                        for r, row in enumerate(e.marks)
                        for k, m in enumerate(row)
                    ],
                }
                for e in self.expansion_sides
            ],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Components:
        """Build and validate; every problem names the entry and what is wrong."""
        if not isinstance(data, dict):
            raise ComponentError("component data must be a table")
        if data.get("schema") != 1:
            raise ComponentError(
                f"unsupported component schema {data.get('schema')!r} (expected 1)"
            )
        tiles = _parse_tiles(data.get("tiles"))
        deck = _parse_deck(data.get("deck"))
        gardens = tuple(
            _parse_garden_side(i, raw) for i, raw in enumerate(_list(data, "garden_side"))
        )
        expansions = tuple(
            _parse_expansion_side(i, raw) for i, raw in enumerate(_list(data, "expansion_side"))
        )
        _check_unique("garden_side", [s.id for s in gardens])
        _check_unique("expansion_side", [e.id for e in expansions])
        _check_boards("garden_side", gardens)
        _check_boards("expansion_side", expansions)
        for garden in gardens:
            for exp in expansions:
                _check_fit(garden, exp)
        return cls(tiles, deck, gardens, expansions)

    @classmethod
    def from_manifest(cls, data: dict[str, Any]) -> Components:
        """Rebuild from `to_dict` output (a run's manifest), validated like a data file."""
        tokens = {mark: token for token, mark in MARK_TOKENS.items()}
        try:
            return cls.from_dict(
                {
                    "schema": 1,
                    "tiles": data["tiles"],
                    "deck": {"cards": data["deck"]},
                    "garden_side": [
                        {
                            "id": s["id"],
                            "board": s["board"],
                            "columns": s["columns"],
                            "extra": [sq for sq in s["preprinted"] if sq[0] != 1],
                        }
                        for s in data["garden_sides"]
                    ],
                    "expansion_side": [
                        {
                            "id": e["id"],
                            "board": e["board"],
                            "stairway_index": e["stairway_index"],
                            "marks": [
                                " ".join(
                                    tokens[(sq["kind"], sq["value"])]
                                    for sq in e["squares"]
                                    if sq["row"] == row
                                )
                                for row in range(EXPANSION_TOP_ROW, N_ROWS + 1)
                            ],
                        }
                        for e in data["expansion_sides"]
                    ],
                }
            )
        except (KeyError, TypeError) as exc:
            raise ComponentError(f"manifest component data is incomplete: {exc!r}") from None


def _list(data: dict[str, Any], key: str) -> list[Any]:
    value = data.get(key)
    if not isinstance(value, list) or not value:
        raise ComponentError(f"missing or empty [[{key}]] list")
    return value


def _parse_tiles(raw: Any) -> dict[str, int]:
    if not isinstance(raw, dict):
        raise ComponentError("missing [tiles] table")
    if set(raw) != set(NUMERALS):
        raise ComponentError(f"[tiles] must give exactly {', '.join(NUMERALS)}, got {sorted(raw)}")
    for numeral, count in raw.items():
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise ComponentError(f"[tiles] {numeral} must be a positive integer, got {count!r}")
        if count > MAX_TILES_PER_SYMBOL:
            raise ComponentError(
                f"[tiles] {numeral} must be at most {MAX_TILES_PER_SYMBOL} per symbol, got {count}"
            )
    total = sum(raw.values())
    if total > MAX_TILES_PER_SYMBOL:
        raise ComponentError(
            f"[tiles] II+III+IV give {total} tiles of each symbol, "
            f"more than the {MAX_TILES_PER_SYMBOL} any supply may hold"
        )
    return {n: raw[n] for n in NUMERALS}


def parse_card(code: str) -> Card:
    """A card from its code; a bad code's error says what the valid codes are."""
    if code == JOKER:
        return Card(code, "joker")
    kind, _, rest = code.partition(":")
    if kind == "symbol":
        if rest in SYMBOLS:
            return Card(code, "symbol", symbol=SYMBOLS.index(rest))
        raise ComponentError(
            f"bad card code {code!r}: unknown symbol {rest!r} (symbols: {', '.join(SYMBOLS)})"
        )
    if kind == "pair":
        return _pair_card(code, rest)
    raise ComponentError(
        f"bad card code {code!r}: expected 'symbol:<symbol>', 'pair:<colour>+<colour>' or '{JOKER}'"
    )


def _pair_card(code: str, rest: str) -> Card:
    """A two-colour card: two different colours, named in display order."""
    a, _, b = rest.partition("+")
    order = ", ".join(COLOURS)
    unknown = [c for c in (a, b) if c not in COLOURS]
    if unknown:
        raise ComponentError(
            f"bad card code {code!r}: unknown colour {unknown[0]!r} "
            f"(write 'pair:<colour>+<colour>' with two of {order}, in that order)"
        )
    if a == b:
        raise ComponentError(f"bad card code {code!r}: the two colours must differ")
    i, j = COLOURS.index(a), COLOURS.index(b)
    if i > j:
        raise ComponentError(
            f"bad card code {code!r}: colours go in display order {order}: write 'pair:{b}+{a}'"
        )
    return Card(code, "pair", colours=(i, j))


def _parse_deck(raw: Any) -> tuple[Card, ...]:
    """Any DECK_SIZE valid cards, in any mix of kinds and with repeats (a house rule may
    trade symbol cards for jokers, say); the printed mix is only the default."""
    if not isinstance(raw, dict) or not isinstance(raw.get("cards"), list):
        raise ComponentError("missing [deck] cards list")
    cards = tuple(
        parse_card(c) if isinstance(c, str) else parse_card(repr(c)) for c in raw["cards"]
    )
    if len(cards) != DECK_SIZE:
        raise ComponentError(f"deck must hold {DECK_SIZE} cards (one per round), got {len(cards)}")
    return cards


def _side_header(kind: str, i: int, raw: Any) -> tuple[str, int, str]:
    """The id and board every side has, and how error messages name the side."""
    where = f"{kind} #{i + 1}"
    if not isinstance(raw, dict):
        raise ComponentError(f"{where} must be a table")
    side_id = raw.get("id")
    if not isinstance(side_id, str) or not side_id:
        raise ComponentError(f"{where} needs a non-empty string id")
    where = f"{kind} {side_id!r}"
    board = raw.get("board")
    if not isinstance(board, int) or isinstance(board, bool) or not 1 <= board <= MAX_BOARD:
        raise ComponentError(f"{where}: board must be an integer 1-{MAX_BOARD}, got {board!r}")
    return side_id, board, where


def _parse_garden_side(i: int, raw: Any) -> GardenSide:
    side_id, board, where = _side_header("garden_side", i, raw)
    columns = raw.get("columns")
    if not isinstance(columns, list) or sorted(columns, key=str) != sorted(SYMBOLS):
        raise ComponentError(f"{where}: columns must list each of the 9 symbols once")
    extra = raw.get("extra")
    if not isinstance(extra, list) or len(extra) != 6:
        raise ComponentError(f"{where}: extra must list exactly six [row, col] squares")
    squares = []
    for sq in extra:
        if (
            not isinstance(sq, list)
            or len(sq) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in sq)
            or not 2 <= sq[0] <= N_ROWS
            or not 0 <= sq[1] < N_COLS
        ):
            raise ComponentError(f"{where}: extra square {sq!r} is not [row 2-6, col 0-8]")
        squares.append((sq[0], sq[1]))
    if len({c for _, c in squares}) != 6:
        raise ComponentError(f"{where}: the six extra squares must show six different symbols")
    return GardenSide(side_id, board, tuple(columns), tuple(squares))


def _parse_expansion_side(i: int, raw: Any) -> ExpansionSide:
    side_id, board, where = _side_header("expansion_side", i, raw)
    index = raw.get("stairway_index")
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index <= 3:
        raise ComponentError(f"{where}: stairway_index must be 0-3, got {index!r}")
    rows = raw.get("marks")
    if not isinstance(rows, list) or len(rows) != 4 or not all(isinstance(r, str) for r in rows):
        raise ComponentError(f"{where}: marks must be four strings (rows 3-6)")
    marks = []
    for r, text in enumerate(rows):
        tokens = text.split()
        if len(tokens) != 4:
            raise ComponentError(f"{where}: marks row {r + 3} must have 4 squares, got {text!r}")
        for tok in tokens:
            if tok not in MARK_TOKENS:
                known = " ".join(MARK_TOKENS)
                raise ComponentError(
                    f"{where}: unknown mark {tok!r} in row {r + 3} (known: {known})"
                )
        marks.append(tuple(Mark(*MARK_TOKENS[t]) for t in tokens))
    marked = sum(m.kind != "none" for row in marks for m in row)
    if marked != MARKED_SQUARES:
        raise ComponentError(f"{where}: {marked} squares are marked, expected {MARKED_SQUARES}")
    return ExpansionSide(side_id, board, index, tuple(marks))


def _check_unique(what: str, ids: list[str]) -> None:
    seen = set()
    for i in ids:
        if i in seen:
            raise ComponentError(f"duplicate {what} {i!r}")
        seen.add(i)


def _check_boards(what: str, sides: tuple[GardenSide, ...] | tuple[ExpansionSide, ...]) -> None:
    per_board: dict[int, int] = {}
    for s in sides:
        per_board[s.board] = per_board.get(s.board, 0) + 1
    for board, count in sorted(per_board.items()):
        if count != 2:
            raise ComponentError(f"{what} board {board} has {count} sides, expected 2")
    if len(per_board) < 4:
        raise ComponentError(f"{what}: need 4 boards for 4 players, got {len(per_board)}")


def _check_fit(garden: GardenSide, exp: ExpansionSide) -> None:
    first = exp.first_column(garden)
    if first < 0 or first + 4 > N_COLS:
        raise ComponentError(
            f"expansion_side {exp.id!r} does not fit on garden_side {garden.id!r}: "
            f"it would cover columns {first}..{first + 3}"
        )
    for row, col in garden.extra:
        if row >= EXPANSION_TOP_ROW and first <= col < first + 4:
            raise ComponentError(
                f"garden_side {garden.id!r}: pre-printed square [{row}, {col}] lies under "
                f"expansion_side {exp.id!r}"
            )
