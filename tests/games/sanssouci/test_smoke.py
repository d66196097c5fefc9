from sanssim.games.sanssouci import Game, GameConfig
from sanssim.games.sanssouci.plugin import GAME
from sanssim.runner.play import play_game
from sanssim.strategies import resolve


def test_random_game_ends_after_18_rounds():
    state = play_game(GAME, Game(GameConfig(n_players=3)), [resolve("random")] * 3, seed=7)
    assert state.is_terminal()
    assert state.turn == 54
