"""gutenberg-ai: a compiled rules engine, search bots and move hints for the board game
Gutenberg (Granna, 2022), playable through OpenSpiel.

    import gutenberg_ai
    game = gutenberg_ai.load_game(players=2)        # or pyspiel.load_game("gutenberg", {...})
    state = game.new_initial_state()
    gutenberg_ai.hint(state_at_a_decision)          # ranked moves from a search
    gutenberg_ai.make_bot("smmcts", game, 0)        # a pyspiel.Bot (gutenberg_ai.bots)

Importing the package registers the OpenSpiel game "gutenberg".
"""
import pyspiel

from gutenberg_ai import names
from gutenberg_ai._core import IllegalActionError
from gutenberg_ai.catalogue import CatalogueError, load_catalogue
from gutenberg_ai.game import GAME_NAME, GutenbergGame, GutenbergState, ParameterError
from gutenberg_ai.bots import BOT_NAMES, make_bot
from gutenberg_ai.hints import Hint, hint

__version__ = "0.1.0"


def load_game(**params) -> GutenbergGame:
    """The OpenSpiel game with these parameters (players, rounds, returns, characters,
    automa, catalogue; see gutenberg_ai.game)."""
    return pyspiel.load_game(GAME_NAME, params)


def solo_title(score: int) -> str:
    """The printing guild's title for a solo score (rulebook p.17): Student below 101,
    then Senior Student, Apprentice, Senior Apprentice, Junior Master, Master of
    Printing, and Guildmaster above 150."""
    title = names.SOLO_TITLES[0][1]
    for lowest, name in names.SOLO_TITLES:
        if score >= lowest:
            title = name
    return title


__all__ = [
    "BOT_NAMES", "CatalogueError", "GAME_NAME", "GutenbergGame", "GutenbergState", "Hint",
    "IllegalActionError", "ParameterError", "hint", "load_catalogue", "load_game", "make_bot",
    "names", "solo_title",
]
