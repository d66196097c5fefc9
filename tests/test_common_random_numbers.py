"""Common random numbers: two arms with the same master seed that differ only in a rule or in
component data play the same deals wherever the rule does not touch the deal.

The expectations come from how each engine draws its chance (README, "Sources of chance"):

- Seikatsu draws from one named stream, `bag`: first a shuffle of the garden tiles that gives
  the start tiles, then, in the standard game only, the koi are added and the bag is shuffled
  again before the hands are dealt.
- Splendor draws each level's deck from its own stream (`deck1`, `deck2`, `deck3`) and the
  nobles from `nobles`; nothing random happens after the deal.
- Sanssouci keeps one `random.Random(game_seed)` (its games must stay identical to earlier
  versions), drawn in this order: garden sides (only when they are dealt at random), the
  supply shuffle, duplicate-reshuffle redraws at setup (only when a colour's two squares
  match), each seat's deck, the missions, the expansion boards; in play, only
  duplicate-reshuffle redraws draw. A rule that adds or removes a draw shifts every draw
  after it: those draws are no longer shared by design. (Python's generator can fall back
  into step a few draws later, so a shifted part sometimes coincides by chance; the tests
  only ask that it differs in most games.)

Strategies draw from their own stream per seat (`strategy_rng(game_seed, seat)`), the same in
both arms, so where the deal is shared and no strategy reads the rule that differs, the games
are the same turn for turn until the rule first acts.
"""

from __future__ import annotations

import dataclasses
import statistics
from typing import Any

import polars as pl
import pytest

from sanssim.runner.config import build_config
from sanssim.runner.play import game_seed, play_game

GAMES = 40
MASTER = 11


def _deal(game: str, n: int, seed: int, components: Any = None, **options: Any) -> Any:
    """The dealt state of one game of the arm."""
    config = build_config(game=game, n_players=n, components=components, options=options)
    return config.game().new_state(seed)


def _play(
    game: str, n: int, seed: int, strategy: str = "random", components: Any = None, **options: Any
) -> tuple[pl.DataFrame, list[int]]:
    """The turns one game of the arm logs, as the runner writes them (without run_id), and
    its final totals."""
    config = build_config(
        game=game, n_players=n, strategies=strategy, components=components, options=options
    )
    engine = config.game()
    final = play_game(config.game_type, engine, config.specs(), seed, record=True)
    return config.game_type.turn_frame("crn", engine, [(0, final)]).drop("run_id"), final.returns()


def _turns(game: str, n: int, seed: int, strategy: str = "random", **options: Any) -> pl.DataFrame:
    return _play(game, n, seed, strategy, **options)[0]


def _seeds(count: int = GAMES) -> list[int]:
    return [game_seed(MASTER, i) for i in range(count)]


def _mostly(flags: list[bool]) -> bool:
    """A shifted draw differs in at least 80% of the games (and there were games)."""
    return len(flags) > 0 and sum(flags) >= 0.8 * len(flags)


# ---------------------------------------------------------------- Seikatsu


@pytest.mark.parametrize("n", [2, 3, 4])
def test_seikatsu_standard_and_tournament_share_the_start_tiles_only(n: int) -> None:
    """The first shuffle of `bag` gives the start tiles in both modes; the standard game then
    adds the koi and shuffles again, so its hands come from another order."""
    for seed in _seeds():
        standard = _deal("seikatsu", n, seed)
        tournament = _deal("seikatsu", n, seed, tournament=True)
        assert standard.start_tiles == tournament.start_tiles
        assert standard.hands != tournament.hands


def test_seikatsu_components_that_only_score_share_every_turn() -> None:
    """Set points only score flower rows at the end: the bag, every turn and every bird point
    are the same; only the flower points differ."""
    packaged = build_config(game="seikatsu", n_players=3).components
    steeper = dataclasses.replace(packaged, set_points=tuple(2 * p for p in packaged.set_points))
    changed = 0
    for seed in _seeds(10):
        turns, totals = _play("seikatsu", 3, seed)
        steep_turns, steep_totals = _play("seikatsu", 3, seed, components=steeper)
        assert turns.equals(steep_turns)
        changed += totals != steep_totals
    assert changed > 0


# ---------------------------------------------------------------- Splendor


def _splendor_deal(state: Any) -> tuple:
    return ([list(d) for d in state.decks], list(state.display), state.nobles_in_play)


def test_splendor_target_points_share_the_deal_and_every_turn_until_one_game_ends() -> None:
    """The target only decides when the game ends: the deal is the same and the game to 15 is
    the game to 18 cut short (no strategy reads the target)."""
    longer = 0
    for seed in _seeds(15):
        assert _splendor_deal(_deal("splendor", 2, seed, target_points=15)) == _splendor_deal(
            _deal("splendor", 2, seed, target_points=18)
        )
        short = _turns("splendor", 2, seed, "greedy", target_points=15)
        long = _turns("splendor", 2, seed, "greedy", target_points=18)
        assert long.height >= short.height
        assert long.head(short.height).equals(short)
        longer += long.height > short.height
    assert longer > 0


def test_splendor_token_counts_share_the_deal() -> None:
    """Token counts touch no stream: decks, display and nobles are the same."""
    for seed in _seeds():
        assert _splendor_deal(_deal("splendor", 3, seed)) == _splendor_deal(
            _deal("splendor", 3, seed, gem_tokens=7, gold_tokens=3)
        )


def test_splendor_round_cap_shares_the_deal() -> None:
    for seed in _seeds():
        assert _splendor_deal(_deal("splendor", 2, seed)) == _splendor_deal(
            _deal("splendor", 2, seed, max_rounds=30)
        )


def test_splendor_card_data_changes_only_the_decks_of_the_levels_it_touches() -> None:
    """Decks shuffle card ids level by level: changed points keep every deck; a card moved
    from level 1 to level 2 changes those two decks and keeps level 3's."""
    packaged = build_config(game="splendor", n_players=2).components
    first = next(i for i, c in enumerate(packaged.cards) if c.level == 1)
    cards = list(packaged.cards)
    cards[first] = dataclasses.replace(cards[first], points=cards[first].points + 1)
    richer = dataclasses.replace(packaged, cards=tuple(cards))
    cards[first] = dataclasses.replace(cards[first], level=2)
    moved = dataclasses.replace(packaged, cards=tuple(cards))
    for seed in _seeds():
        base = _deal("splendor", 2, seed)
        assert _splendor_deal(_deal("splendor", 2, seed, components=richer)) == _splendor_deal(base)
        shifted = _deal("splendor", 2, seed, components=moved)
        assert shifted.decks[2] == base.decks[2] and shifted.decks[:2] != base.decks[:2]


def test_splendor_more_nobles_extend_the_same_noble_order() -> None:
    """`nobles` shuffles all nobles and lays out the first k: 3 nobles are the first 3 of 4."""
    for seed in _seeds():
        three = _deal("splendor", 2, seed, nobles=3)
        four = _deal("splendor", 2, seed, nobles=4)
        assert four.nobles_in_play[:3] == three.nobles_in_play
        assert [list(d) for d in three.decks] == [list(d) for d in four.decks]


# ---------------------------------------------------------------- Sanssouci


def _sides(state: Any) -> list[int]:
    return [s.garden for s in state.setup]


def _first_seat(state: Any) -> tuple:
    """Seat 0's hand and deck: the first draws after the supply and any setup redraw."""
    return list(state.hands[0]), list(state.decks[0])


def _base_deal(state: Any) -> tuple:
    """Everything the base game deals after the garden sides."""
    return (
        list(state.supply),
        list(state.display),
        [list(h) for h in state.hands],
        [list(d) for d in state.decks],
        list(state.missions),
    )


@pytest.mark.parametrize("n", [2, 4])
def test_sanssouci_expansion_shares_the_whole_base_deal(n: int) -> None:
    """The expansion draws its boards last, so garden sides, supply, display, hands, decks and
    missions are the base game's; play differs from the first turn (side choices first)."""
    for seed in _seeds():
        base = _deal("sanssouci", n, seed)
        expansion = _deal("sanssouci", n, seed, expansion=True)
        assert _sides(base) == _sides(expansion)
        assert _base_deal(base) == _base_deal(expansion)
        assert len(set(expansion.exp_board)) == n


def test_sanssouci_duplicate_reshuffle_shares_the_deal_until_the_first_redraw() -> None:
    """Garden sides and the supply shuffle come before any redraw, so they are always shared.
    A redraw at setup draws from the stream before the decks and missions, which then differ;
    without one the whole deal is shared and the game is the same turn for turn up to the
    first refill that redraws (that turn's own record differs only in `reshuffles`), and the
    next turn starts from another display."""
    seen = {"shared deal": 0, "diverged in play": 0}
    shifted = []
    for seed in _seeds():
        base = _deal("sanssouci", 2, seed)
        house = _deal("sanssouci", 2, seed, duplicate_reshuffle=True)
        assert _sides(base) == _sides(house)
        if house.reshuffles:
            assert base.display != house.display
            shifted.append(_first_seat(base) != _first_seat(house))
            continue
        seen["shared deal"] += 1
        assert _base_deal(base) == _base_deal(house)
        a = _turns("sanssouci", 2, seed)
        b = _turns("sanssouci", 2, seed, duplicate_reshuffle=True)
        redraws = b.filter(pl.col("reshuffles") > 0)["turn"]
        if redraws.is_empty():
            assert a.equals(b)
            continue
        seen["diverged in play"] += 1
        first = redraws[0]
        same = pl.col("turn") < first
        assert a.filter(same).equals(b.filter(same))
        at = pl.col("turn") == first
        assert a.filter(at).drop("reshuffles").equals(b.filter(at).drop("reshuffles"))
        after = pl.col("turn") == first + 1
        assert a.filter(after)["display"].to_list() != b.filter(after)["display"].to_list()
    assert all(seen.values()) and _mostly(shifted), (seen, shifted)


def test_sanssouci_tile_set_shares_only_the_garden_sides() -> None:
    """Another tile set shuffles a supply of another size: every draw after it shifts."""
    shifted = []
    for seed in _seeds():
        base = _deal("sanssouci", 2, seed)
        more = _deal("sanssouci", 2, seed, tile_set="II+III")
        assert _sides(base) == _sides(more)
        shifted.append(_first_seat(base) != _first_seat(more))
    assert _mostly(shifted)


def test_sanssouci_fixed_garden_sides_share_everything_but_the_sides() -> None:
    """Fixed sides draw nothing: two arms on different fixed sides share supply, display,
    hands, decks and missions; against random sides (which draw first) nothing is shared."""
    shifted = []
    for seed in _seeds():
        one = _deal("sanssouci", 2, seed, garden_sides="1A")
        other = _deal("sanssouci", 2, seed, garden_sides="2B")
        dealt = _deal("sanssouci", 2, seed)
        assert _sides(one) != _sides(other)
        assert _base_deal(one) == _base_deal(other)
        shifted.append(one.supply != dealt.supply)
    assert _mostly(shifted)


@pytest.mark.parametrize(("game", "n"), [("sanssouci", 3), ("seikatsu", 2), ("splendor", 2)])
def test_strategy_line_ups_share_the_whole_deal(game: str, n: int) -> None:
    """The deal is drawn before any strategy exists and strategies draw from their own
    streams, so arms that differ only in who plays deal the same games; the first turn sees
    the same position."""
    for seed in _seeds(10):
        first = [_turns(game, n, seed, s).head(1) for s in ("random", "greedy")]
        shared = [c for c in first[0].columns if c in ("hand", "display", "koi_held")]
        assert shared and first[0].select(shared).equals(first[1].select(shared))


# ---------------------------------------------------------------- figures for the README


def measure(games: int = 2000, played: int = 300) -> dict[str, str]:
    """The shares quoted in README "Sources of chance": how often Sanssouci's duplicate
    reshuffle leaves the deal alone, when it first redraws in play, and how often a shifted
    stream still coincides."""
    out = {}
    for n in (2, 4):
        redraws = shifted_seat = shifted_missions = 0
        for seed in _seeds(games):
            base = _deal("sanssouci", n, seed)
            house = _deal("sanssouci", n, seed, duplicate_reshuffle=True)
            if house.reshuffles:
                redraws += 1
                shifted_seat += _first_seat(base) != _first_seat(house)
                shifted_missions += base.missions != house.missions
        out[f"{n}p deals without a setup redraw"] = f"{games - redraws} of {games}"
        out[f"{n}p after a setup redraw, seat 0's cards differ"] = f"{shifted_seat / redraws:.1%}"
        out[f"{n}p after a setup redraw, missions differ"] = f"{shifted_missions / redraws:.1%}"
        firsts = []
        for seed in _seeds(played):
            if _deal("sanssouci", n, seed, duplicate_reshuffle=True).reshuffles:
                continue
            turns = _turns("sanssouci", n, seed, duplicate_reshuffle=True)
            firsts += turns.filter(pl.col("reshuffles") > 0)["turn"].head(1).to_list()
        median = statistics.median(firsts)
        out[f"{n}p first redraw in play, random players (turn from 0, median)"] = (
            f"{median} of {18 * n} turns ({len(firsts)} games)"
        )
    same = sum(
        _deal("sanssouci", 2, seed, garden_sides="1A").decks == _deal("sanssouci", 2, seed).decks
        for seed in _seeds(games // 2)
    )
    out["2p random against fixed sides, decks unchanged"] = f"{same / (games // 2):.1%}"
    return out


if __name__ == "__main__":
    for name, value in measure().items():
        print(f"{name}: {value}")
