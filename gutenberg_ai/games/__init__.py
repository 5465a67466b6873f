"""The printing games of the project, in one table.

Everything that is not a game's rules (the search, bots, hints, records, replay, the
arena, position files, the play loop, the command line) is written once and asks this
table about the game at hand. A game is one entry here and one folder of its own (its
compiled core in ext/, its Python module, catalogue, positions, board drawing and docs);
docs/new-game.md says what it must provide.

    from gutenberg_ai import games
    g = games.get("gutenberg")            # by its command-line name
    g = games.of(state)                   # by a pyspiel game or state, native or shell
    g.core                                # its compiled core: Rules, CoreState, search, ...
    games.core_of(state)                  # the compiled state of any game's state

The games layer: this table, and what every game's files share.

gamedata       what a game's Python module needs written once: data known by content,
               parameters checked by name, serialized states
positionfile   position files of every game: reading, errors with their places, the format
records        game records: writing, strict replay, records as a player saw them
gutenberg/, printing_press/, lead_letter_printers/
               each game's own folder: its module, catalogue, positions, words and view

May import: gutenberg_ai.common only (and each game its own folder).
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from importlib import resources
from types import ModuleType
from typing import Any

import pyspiel


class _ViewWithDefaults:
    """A game's view module, falling back on gutenberg_ai.games.view_defaults."""

    def __init__(self, module: ModuleType):
        self._module = module

    def __getattr__(self, name: str) -> Any:
        try:
            return getattr(self._module, name)
        except AttributeError:
            from gutenberg_ai.games import view_defaults
            return getattr(view_defaults, name)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _ViewWithDefaults) and other._module is self._module

    def __hash__(self) -> int:
        return hash(self._module)


@dataclass(frozen=True)
class PrintingGame:
    """One game of the project: its names and where its parts live."""
    key: str                 # its name on the command line ("gutenberg", "printing-press")
    spiel_name: str          # the native OpenSpiel game's short name
    title: str               # its name in words
    module: str              # its Python module: DEFAULTS, check_parameters, rules_for, game_info
    core_module: str         # its compiled core (Rules, CoreState, search, heuristic_move, ...)
    shell_name: str = ""     # a Python shell OpenSpiel game over the same core, if any
    score_word: str = "points"   # what its score is called ("fame")
    # The tools' game-specific parts (docs/new-game.md says what each module provides):
    view_module: str = ""        # its table drawn with rich, and its words at the prompt (tui)
    position_module: str = ""    # its position files: schema, loader, writer
    position_format: str = ""    # the "format" its position files declare
    start_format: str = ""       # another format its position tools read: a start file (a deal's history)
    cards_module: str = ""       # looking a card up by what it shows (`gutenberg-ai cards`)

    @property
    def core(self) -> ModuleType:
        """The compiled core module."""
        return importlib.import_module(self.core_module)

    @property
    def rules_module(self) -> ModuleType:
        """The game's Python module (parameters, rules, information)."""
        return importlib.import_module(self.module)

    @property
    def view(self) -> _ViewWithDefaults:
        """Its table drawn with rich and its words at the prompt (gutenberg_ai.interfaces
        call it): the game's view module, and gutenberg_ai.games.view_defaults for what
        it leaves out."""
        return _ViewWithDefaults(importlib.import_module(self.view_module))

    @property
    def positions(self) -> ModuleType:
        """Its position-file module (load_position, position_from_data, save_position, ...)."""
        return importlib.import_module(self.position_module)

    @property
    def cards(self) -> ModuleType:
        """Its card lookup (find_cards, closest_cards, ...)."""
        return importlib.import_module(self.cards_module)

    @property
    def data_folder(self) -> str:
        """The data/ folder beside its Python module (suites, weights, positions)."""
        return str(resources.files(self.module.rpartition(".")[0]) / "data")

    def load(self, **params: Any) -> pyspiel.Game:
        """The native OpenSpiel game with these parameters; a bad one is a SpielError
        naming it (a ParameterError for a whole number the bindings cannot carry)."""
        from gutenberg_ai.games.gamedata import refuse_wide_ints
        module = importlib.import_module(self.module)   # registers the game
        refuse_wide_ints(params, module.check_parameters, self.spiel_name)
        return pyspiel.load_game(self.spiel_name, params)


GAMES = {
    "gutenberg": PrintingGame(
        key="gutenberg", spiel_name="gutenberg", title="Gutenberg",
        module="gutenberg_ai.games.gutenberg.game", core_module="gutenberg_ai.games.gutenberg._core",
        shell_name="gutenberg_py", score_word="fame",
        view_module="gutenberg_ai.games.gutenberg.view", position_module="gutenberg_ai.games.gutenberg.position",
        position_format="gutenberg-position", cards_module="gutenberg_ai.games.gutenberg.cards"),
    "printing-press": PrintingGame(
        key="printing-press", spiel_name="printing_press", title="Printing Press",
        module="gutenberg_ai.games.printing_press.game",
        core_module="gutenberg_ai.games.printing_press._core",
        view_module="gutenberg_ai.games.printing_press.view",
        position_module="gutenberg_ai.games.printing_press.position",
        position_format="printing-press-position", start_format="printing-press-start",   # game.py's START_FORMAT
        cards_module="gutenberg_ai.games.printing_press.cards"),
    "lead-letter-printers": PrintingGame(
        key="lead-letter-printers", spiel_name="lead_letter_printers", title="Lead Letter Printers",
        module="gutenberg_ai.games.lead_letter_printers.game",
        core_module="gutenberg_ai.games.lead_letter_printers._core",
        view_module="gutenberg_ai.games.lead_letter_printers.view",
        position_module="gutenberg_ai.games.lead_letter_printers.position",
        position_format="lead-letter-printers-position",
        cards_module="gutenberg_ai.games.lead_letter_printers.cards"),
}
DEFAULT_GAME = "gutenberg"


def get(key: str) -> PrintingGame:
    """The game named `key` on the command line; ValueError lists the known ones."""
    try:
        return GAMES[key]
    except (KeyError, TypeError):
        raise ValueError(f"game: {key!r} is not one of {', '.join(GAMES)}") from None


def of_position(data: Any) -> PrintingGame | None:
    """The game whose position files have the `format` of decoded JSON `data`, or None."""
    fmt = data.get("format") if isinstance(data, dict) else None
    for g in GAMES.values():
        if fmt and fmt in (g.position_format, g.start_format):
            return g
    return None


def of(game_or_state: pyspiel.Game | pyspiel.State | Any) -> PrintingGame:
    """The game of a pyspiel game or state (native or Python shell) or of a compiled
    state (a game's CoreState); TypeError for anything else."""
    if isinstance(game_or_state, pyspiel.State):
        game_or_state = game_or_state.get_game()
    if isinstance(game_or_state, pyspiel.Game):
        name = game_or_state.get_type().short_name
        for g in GAMES.values():
            if name in (g.spiel_name, g.shell_name):
                return g
        raise TypeError(f"not a game of this project ({', '.join(GAMES)}): {name!r}")
    module = type(game_or_state).__module__
    for g in GAMES.values():
        if module == g.core_module:
            return g
    raise TypeError(f"not a game or state of this project: {type(game_or_state).__name__}")


def rules_of(game: pyspiel.Game) -> Any:
    """The compiled rules (the game's core Rules) of a loaded game, native or Python: the
    game's own (the files it was made of may have changed since)."""
    return of(game).rules_module.rules_of(game)


def returns_mode_of(game: pyspiel.Game) -> str:
    """The returns a loaded game gives ("win", "score" or "margin"), native or Python."""
    return of(game).rules_module.returns_mode_of(game)


def core_of(state: pyspiel.State | Any) -> Any:
    """The compiled state (the game's CoreState) of a game state, for reading (a
    CoreState is returned as it is). Of a Python shell state: its own core (changing it
    changes the state). Of a native state: a copy of its struct (see the game module's
    core_of and docs/native.md)."""
    return of(state).rules_module.core_of(state)
