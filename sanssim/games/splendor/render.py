"""Plain-text pictures of a Splendor position, for debugging and `sanssim show`."""

from __future__ import annotations

from sanssim.games.splendor.actions import EMPTY, END, END_REASONS, PHASE_NAMES, SLOTS_PER_LEVEL
from sanssim.games.splendor.components import TOKEN_NAMES
from sanssim.games.splendor.engine import State

SHORT = ("W", "U", "G", "R", "K", "*")  # white, blue (U), green, red, black (K), gold
LEGEND = (
    "colours: W white  U blue  G green  R red  K black  * gold;  card: #id Lv bonus+points "
    "cost;  '??' a blind reservation nobody else has seen"
)


def tokens_text(counts: list[int] | tuple[int, ...]) -> str:
    return " ".join(f"{SHORT[c]}{n}" for c, n in enumerate(counts))


def cost_text(cost: tuple[int, ...]) -> str:
    return "".join(f"{n}{SHORT[c]}" for c, n in enumerate(cost) if n) or "free"


def card_text(state: State, card: int) -> str:
    """`#76 L3 U+4 6W3U3K`: id, level, bonus colour and points, cost."""
    c = state.game.components.cards[card]
    return f"#{card} L{c.level} {SHORT[c.bonus]}+{c.points} {cost_text(c.cost)}"


def noble_text(state: State, noble: int) -> str:
    n = state.game.components.nobles[noble]
    return f"noble {noble} ({n.points}p: {cost_text(n.requirement)})"


def render_display(state: State) -> str:
    """The 12 display slots by level, level 3 on top as on the table."""
    lines = []
    for level in (3, 2, 1):
        first = (level - 1) * SLOTS_PER_LEVEL
        cells = []
        for slot in range(first, first + SLOTS_PER_LEVEL):
            card = state.display[slot]
            cells.append(f"[{slot:>2}] " + ("--" if card == EMPTY else card_text(state, card)))
        deck = len(state.decks[level - 1])
        lines.append(f"level {level} (deck {deck:>2}): " + "  ".join(cells))
    return "\n".join(lines)


def render_player(state: State, seat: int, reveal: bool = True) -> str:
    """One seat: points, tokens, bonuses, bought cards, reservations, nobles."""
    blind = state.blind[seat]
    reserved = [
        "??" if (card in blind and not reveal) else card_text(state, card)
        for card in state.reserved[seat]
    ]
    bonuses = " ".join(f"{SHORT[c]}{n}" for c, n in enumerate(state.bonus[seat]))
    nobles = ", ".join(str(n) for n in state.nobles[seat]) or "none"
    lines = [
        f"seat {seat}: {state.points[seat]} points, {state.cards_bought[seat]} cards bought, "
        f"nobles {nobles}",
        f"  tokens   {tokens_text(state.tokens[seat])}  ({sum(state.tokens[seat])}/10)",
        f"  bonuses  {bonuses}",
        "  reserved " + ("; ".join(reserved) or "none"),
        "  cards    " + (" ".join(f"#{c}" for c in state.tableau[seat]) or "none"),
    ]
    return "\n".join(lines)


def render_state(state: State, reveal: bool = True) -> str:
    """The whole table; `reveal=False` hides blind reservations as the other seats see them."""
    if state.phase == END:
        progress = f"game over after {state.round} rounds ({END_REASONS[state.end_reason]})"
    else:
        progress = (
            f"round {state.round}  turn {state.turn}  seat {state.current} to play "
            f"({PHASE_NAMES[state.phase]} decision)"
        )
    supply = "  ".join(f"{name} {n}" for name, n in zip(TOKEN_NAMES, state.supply, strict=True))
    table = "; ".join(noble_text(state, n) for n in state.table) or "none"
    out = [progress, f"supply: {supply}", f"nobles: {table}", render_display(state)]
    for seat in range(state.n):
        out.append("")
        out.append(render_player(state, seat, reveal))
    out.append("")
    out.append(LEGEND)
    return "\n".join(out)
