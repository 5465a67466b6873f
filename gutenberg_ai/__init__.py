"""gutenberg-ai: compiled rules engines, search bots and move hints for three printing board
games, Gutenberg (Granna, 2022), Printing Press (Granna, 2023) and Lead Letter Printers
(A-games), each a native OpenSpiel game.

    import gutenberg_ai
    game = gutenberg_ai.load_game(players=2)        # or pyspiel.load_game("gutenberg", {...})
    game = gutenberg_ai.load_game("printing-press", players=3)
    state = game.new_initial_state()
    core = gutenberg_ai.core_of(state)              # the compiled state, for reading
    gutenberg_ai.hint(state_at_a_decision)          # ranked moves from a search
    gutenberg_ai.make_bot("smmcts", game, 0)        # a pyspiel.Bot
    game, pos = gutenberg_ai.load_position("my_table.json")   # any game's position file
    record = gutenberg_ai.load_record("game.json")  # a game record; replay(record) plays it again

This module is the public surface: the names in __all__ are documented, typed and kept.
Below it the package is cut in layers whose imports point one way (README, "Layout"):
gutenberg_ai.common (no game), gutenberg_ai.games (the table of games, each game's
folder, position files and records), gutenberg_ai.search (bots, hints, CFR, learned
evaluations), gutenberg_ai.tools (arena, studies, suite, review, self-play, plots, Ray)
and gutenberg_ai.interfaces (the command line, the terminal table, the web page).

Importing the package registers two OpenSpiel games with the same rules, parameters and
behaviour: "gutenberg", native C++ (gutenberg_ai.games.gutenberg._core), and "gutenberg_py", a Python
shell over the same core (gutenberg_ai.games.gutenberg.game); and the native games of Printing
Press, "printing_press" (gutenberg_ai.games.printing_press), and Lead Letter Printers,
"lead_letter_printers" (gutenberg_ai.games.lead_letter_printers); the table of games is
gutenberg_ai.games.
"""
import ctypes
import importlib.metadata
import os
from typing import Any

import pyspiel


def _open_spiel_for_core() -> None:
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

from gutenberg_ai._version import __version__  # noqa: E402
from gutenberg_ai import games  # noqa: E402
from gutenberg_ai.common.jsonfile import FileDataError  # noqa: E402
from gutenberg_ai.games import core_of, rules_of  # noqa: E402  (any game's)
from gutenberg_ai.games.gamedata import ParameterError  # noqa: E402
from gutenberg_ai.games.gutenberg import names  # noqa: E402
from gutenberg_ai.games.gutenberg._core import IllegalActionError  # noqa: E402  (registers "gutenberg")
from gutenberg_ai.games.gutenberg.catalogue import CatalogueError, load_catalogue  # noqa: E402
from gutenberg_ai.games.gutenberg.game import (  # noqa: E402  (registers "gutenberg_py")
    GAME_NAME, PY_GAME_NAME, GutenbergGame, GutenbergState)
from gutenberg_ai.games.gutenberg.names import solo_title  # noqa: E402
from gutenberg_ai.games.lead_letter_printers import game as _lead_letter_printers  # noqa: E402,F401  (registers "lead_letter_printers")
from gutenberg_ai.games.positionfile import PositionError, load_position  # noqa: E402
from gutenberg_ai.games.printing_press import game as _printing_press  # noqa: E402,F401  (registers "printing_press")
from gutenberg_ai.games.records import GameRecord, RecordError, load_record, replay  # noqa: E402
from gutenberg_ai.search.bots import BOT_NAMES, make_bot  # noqa: E402
from gutenberg_ai.search.hints import Hint, hint  # noqa: E402


def load_game(game: str = games.DEFAULT_GAME, **params: Any) -> pyspiel.Game:
    """The native OpenSpiel game `game` (a key of the games table: "gutenberg",
    "printing-press", "lead-letter-printers") with these parameters, checked first: a
    ParameterError names the one at fault. Each game's parameters are its module's
    DEFAULTS (gutenberg_ai.games.gutenberg.game, ...).

        gutenberg_ai.load_game(players=2)                      # Gutenberg
        gutenberg_ai.load_game("printing-press", players=3, variant="advanced")
    """
    g = games.get(game)
    g.rules_module.check_parameters(params)
    return g.load(**params)


def save_position(state: pyspiel.State, path: str | os.PathLike, viewer: int | None = None) -> dict:
    """Write any game's state at a decision as its position file (the game's own
    format); with `viewer`, only what that seat has seen (hidden facts left out or
    redrawn, as the game's position module says). Returns the data written. Nothing is
    written that the game's loader would refuse: a viewer that is not a seat, or one
    whose view is not a position (Printing Press: not the player to decide, whose own
    tokens would be hidden from them), is a ValueError and `path` is left as it was."""
    g = games.of(state)
    if viewer is not None:
        seats = core_of(state).num_players
        if isinstance(viewer, bool) or not isinstance(viewer, int) or not 0 <= viewer < seats:
            raise ValueError(f"viewer: {viewer!r} is not a seat of this game (0-{seats - 1})")
        # What a viewer does not see is written as hidden: the view is read back first,
        # against the catalogue the game plays with (a file's, registered data or the
        # built-in one: the rules hold it). A state no position records is refused by
        # position_of as it is without a viewer.
        view = g.positions.position_of(state, viewer=viewer)
        try:
            load_position(view, catalogue=core_of(state).rules.catalogue)
        except PositionError as e:
            raise ValueError(f"viewer: the position as player {viewer} knows it is not one a position file "
                             f"holds ({e.where + ': ' if e.where else ''}{e.reason})") from None
    return g.positions.save_position(state, path, viewer=viewer)


__all__ = [
    "BOT_NAMES", "CatalogueError", "FileDataError", "GAME_NAME", "GameRecord", "GutenbergGame",
    "GutenbergState", "Hint", "IllegalActionError", "PY_GAME_NAME", "ParameterError",
    "PositionError", "RecordError", "__version__", "core_of", "games", "hint", "load_catalogue",
    "load_game", "load_position", "load_record", "make_bot", "names", "replay", "rules_of",
    "save_position", "solo_title",
]
