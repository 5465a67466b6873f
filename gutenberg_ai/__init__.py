"""gutenberg-ai: compiled rules engines, search bots and move hints for three printing board
games, Gutenberg (Granna, 2022), Printing Press (Granna, 2023) and Lead Letter Printers
(A-games), each a native OpenSpiel game.

    import gutenberg_ai
    game = gutenberg_ai.load_game(players=2)        # or pyspiel.load_game("gutenberg", {...})
    state = game.new_initial_state()
    core = gutenberg_ai.core_of(state)              # the compiled state, for reading
    gutenberg_ai.hint(state_at_a_decision)          # ranked moves from a search
    gutenberg_ai.make_bot("smmcts", game, 0)        # a pyspiel.Bot (gutenberg_ai.bots)

Importing the package registers two OpenSpiel games with the same rules, parameters and
behaviour: "gutenberg", native C++ (gutenberg_ai.games.gutenberg._core), and "gutenberg_py", a Python
shell over the same core (gutenberg_ai.games.gutenberg.game); and the native games of Printing
Press, "printing_press" (gutenberg_ai.games.printing_press), and Lead Letter Printers,
"lead_letter_printers" (gutenberg_ai.games.lead_letter_printers); the table of games is
gutenberg_ai.games.
"""
import ctypes
import importlib
import importlib.metadata
import os
import sys

import pyspiel


def _open_spiel_for_core():
    """Check that the installed open_spiel is the one gutenberg_ai.games.gutenberg._core was built
    against, and make pyspiel's symbols visible to it (see setup.py). A different
    open_spiel could load the extension and then corrupt memory, so it is refused."""
    try:
        from gutenberg_ai import _build_info
    except ImportError:
        raise ImportError("gutenberg_ai is not built: install it with `pip install -e .` "
                          "(or `python setup.py build_ext --inplace`)") from None
    try:
        version = importlib.metadata.version("open_spiel")
    except importlib.metadata.PackageNotFoundError:
        version = "(unknown)"
    size = os.path.getsize(pyspiel.__file__)
    if (version, size) != (_build_info.OPEN_SPIEL_VERSION, _build_info.PYSPIEL_SO_SIZE):
        raise ImportError(
            f"gutenberg_ai.games.gutenberg._core was built against open_spiel {_build_info.OPEN_SPIEL_VERSION} "
            f"(pyspiel.so of {_build_info.PYSPIEL_SO_SIZE} bytes), but this is open_spiel "
            f"{version} ({pyspiel.__file__}, {size} bytes): install open_spiel "
            f"{_build_info.OPEN_SPIEL_VERSION}, or reinstall gutenberg-ai to rebuild it")
    # Python loaded pyspiel.so with RTLD_LOCAL; promote it in place (no second copy).
    try:
        ctypes.CDLL(pyspiel.__file__, mode=os.RTLD_NOLOAD | os.RTLD_GLOBAL)
    except OSError as e:
        raise ImportError(f"cannot make pyspiel's symbols global for gutenberg_ai.games.gutenberg._core: {e}") from None


_open_spiel_for_core()

from gutenberg_ai.games.gutenberg import names  # noqa: E402
from gutenberg_ai.games.gutenberg._core import IllegalActionError  # noqa: E402  (registers "gutenberg")
from gutenberg_ai.games.gutenberg.catalogue import CatalogueError, load_catalogue  # noqa: E402
from gutenberg_ai.games.gutenberg.game import (  # noqa: E402  (registers "gutenberg_py")
    GAME_NAME, PY_GAME_NAME, GutenbergGame, GutenbergState, ParameterError)
from gutenberg_ai.games import core_of, rules_of  # noqa: E402  (any game's)
from gutenberg_ai.games.printing_press import game as _printing_press  # noqa: E402,F401  (registers "printing_press")
from gutenberg_ai.games.lead_letter_printers import game as _lead_letter_printers  # noqa: E402,F401  (registers "lead_letter_printers")
from gutenberg_ai.bots import BOT_NAMES, make_bot  # noqa: E402
from gutenberg_ai.hints import Hint, hint  # noqa: E402

__version__ = "0.1.0"


def load_game(**params) -> pyspiel.Game:
    """The native OpenSpiel game "gutenberg" with these parameters (players, rounds,
    returns, characters, automa, catalogue; see gutenberg_ai.games.gutenberg.game)."""
    from gutenberg_ai import games
    return games.get("gutenberg").load(**params)


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
    "IllegalActionError", "PY_GAME_NAME", "ParameterError", "core_of", "hint", "load_catalogue",
    "load_game", "make_bot", "names", "rules_of", "solo_title",
]

# Gutenberg's modules lived in the package itself before each game had a folder of its
# own (gutenberg_ai/games/gutenberg/); their old names still import the same modules.
for _name in ("_core", "game", "catalogue", "names", "position", "cards", "view"):
    sys.modules[f"{__name__}.{_name}"] = globals()[_name] = importlib.import_module(
        f"{__name__}.games.gutenberg.{_name}")
del _name
