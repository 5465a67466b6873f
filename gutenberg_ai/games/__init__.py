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
seen           what a player may be shown of an AI move's search (its other moves, its line)
gutenberg/, printing_press/, lead_letter_printers/
               each game's own folder: its module, catalogue, positions, words and view

May import: gutenberg_ai.common only (and each game its own folder).
"""
from __future__ import annotations

import importlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib import resources
from types import ModuleType
from typing import Any, ContextManager

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


# ---------------------------------------------------------------------------------------
# A card looked up by what it shows (`gutenberg-ai cards`): each game's cards module says
# which words a card shows and names it; the matching and the order are these.
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Match:
    """A card (plate, frame, technology, ...) that a query found."""
    kind: str
    id: int          # its number in the catalogue's list of its kind
    card: str        # how it is named: "P30" (as a position file writes it), "card 37"
    text: str        # what it shows, in the game's words
    missing: int     # words it shows that the query did not mention


def kinds_asked(kind: str | None, kinds: tuple) -> tuple:
    """The kinds a lookup searches: `kind`, or every one of `kinds` for None; ValueError
    for a kind the game does not have."""
    if kind is not None and kind not in kinds:
        raise ValueError(f"kind: {kind!r} is not one of {', '.join(kinds)}")
    return (kind,) if kind else kinds


def _scored(words: Counter, found: Iterable) -> Iterator[tuple[int, Match]]:
    """(how many of the query's `words` it shows, its Match) for each card of `found`:
    (kind, id, name, text, the words it shows) each."""
    for kind, i, name, text, shows in found:
        hit = sum(min(n, shows[w]) for w, n in words.items())
        yield hit, Match(kind, i, name, text, sum(shows.values()) - hit)


def cards_showing(words: Counter, found: Iterable, kinds: tuple, top: int | None = None) -> list[Match]:
    """The cards of `found` that show every word of `words`, closest first (the fewest
    other words, then the kind's place in `kinds`, then the id); with `top`, for when
    nothing shows every word: the `top` cards that show the most of them, in that order."""
    wanted = sum(words.values())
    scored = [(0 if top is None else -hit, m.missing, kinds.index(m.kind), m.id, m)
              for hit, m in _scored(words, found) if (hit == wanted if top is None else hit)]
    scored.sort(key=lambda x: x[:4])
    return [m for *_, m in scored[:top]]


def card_lookup(kinds: tuple, query_words: Callable[[str], Counter],
                found: Callable[[Any, tuple], Iterable]) -> tuple[Callable[..., list[Match]], Callable[..., list[Match]]]:
    """find_cards and closest_cards of a game's cards module: `query_words(query)` is a
    query in the cards' words, `found(catalogue, kinds)` (kind, id, name, text, the words
    it shows) of each card of `kinds` (of the built-in catalogue for None)."""
    def find_cards(query: str = "", kind: str | None = None, catalogue: Any = None) -> list[Match]:
        """The cards (or those of `kind`) that show every word of `query`, closest first;
        ValueError for a kind that does not exist."""
        return cards_showing(query_words(query), found(catalogue, kinds_asked(kind, kinds)), kinds)

    def closest_cards(query: str, kind: str | None = None, catalogue: Any = None, top: int = 5) -> list[Match]:
        """When nothing shows every word: the `top` cards that show the most of them."""
        return cards_showing(query_words(query), found(catalogue, kinds_asked(kind, kinds)), kinds, top)
    return find_cards, closest_cards


def _module_of(field: str, doc: str) -> property:
    """A PrintingGame property: the module that its field `field` names, imported."""
    return property(lambda game: importlib.import_module(getattr(game, field)), doc=doc)


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
    catalogue_module: str = ""   # its catalogue files: parse_catalogue, load_catalogue, SECTIONS

    # Its parts, each imported when first asked for (a game's modules load only if used).
    core = _module_of("core_module", "The compiled core module.")
    rules_module = _module_of("module", "The game's Python module (parameters, rules, information).")
    view = property(lambda game: _ViewWithDefaults(importlib.import_module(game.view_module)),
                    doc="Its table drawn with rich and its words at the prompt (gutenberg_ai.interfaces "
                        "call it): the game's view module, and gutenberg_ai.games.view_defaults for what "
                        "it leaves out.")
    positions = _module_of("position_module", "Its position-file module (load_position, "
                           "position_from_data, save_position, ...).")
    cards = _module_of("cards_module", "Its card lookup (find_cards, closest_cards, ...).")
    catalogues = _module_of("catalogue_module", "Its catalogue-file module (load_catalogue, SECTIONS, ...).")

    @property
    def data_folder(self) -> str:
        """The data/ folder beside its Python module (suites, weights, positions)."""
        return str(resources.files(self.module.rpartition(".")[0]) / "data")

    def load(self, **params: Any) -> pyspiel.Game:
        """The native OpenSpiel game with these parameters; a bad one is a SpielError
        naming it (a ParameterError for a whole number the bindings cannot carry)."""
        from gutenberg_ai.games.gamedata import refuse_wide_ints
        module = self.rules_module   # importing it registers the game
        refuse_wide_ints(params, module.check_parameters, self.spiel_name)
        return pyspiel.load_game(self.spiel_name, params)


def _in_folder(key: str, folder: str, title: str, **more: str) -> PrintingGame:
    """A game whose parts are the modules of its folder gutenberg_ai/games/<folder>/
    (game, _core, view, position, cards, catalogue), its native game named as the folder."""
    package = f"{__name__}.{folder}"
    return PrintingGame(key=key, spiel_name=folder, title=title, module=f"{package}.game",
                        core_module=f"{package}._core", view_module=f"{package}.view",
                        position_module=f"{package}.position", cards_module=f"{package}.cards",
                        catalogue_module=f"{package}.catalogue", **more)


GAMES = {
    "gutenberg": _in_folder("gutenberg", "gutenberg", "Gutenberg", shell_name="gutenberg_py",
                            score_word="fame", position_format="gutenberg-position"),
    "printing-press": _in_folder("printing-press", "printing_press", "Printing Press",
                                 position_format="printing-press-position",
                                 start_format="printing-press-start"),   # game.py's START_FORMAT
    "lead-letter-printers": _in_folder("lead-letter-printers", "lead_letter_printers", "Lead Letter Printers",
                                       position_format="lead-letter-printers-position"),
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


def of_catalogue(data: Any) -> PrintingGame | None:
    """The game whose catalogue files decoded JSON `data` looks like, or None: a
    catalogue declares no `format`, so it is known by its sections (an object without
    "format" that has every section of the game's catalogue, its SECTIONS)."""
    if not isinstance(data, dict) or "format" in data:
        return None
    for g in GAMES.values():
        if g.catalogue_module and all(key in data for key in g.catalogues.SECTIONS):
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


def rules_of(game: pyspiel.Game | pyspiel.State) -> Any:
    """The compiled rules (the game's core Rules) of a loaded game, native or Python, or
    of a state's game: the game's own (the files it was made of may have changed since)."""
    if isinstance(game, pyspiel.State):
        game = game.get_game()
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


def check_evaluation_weights(core_module: ModuleType, weights: Any, where: str = "weights") -> dict | None:
    """`weights` as a search takes them: {name: number} of the game's named evaluation
    weights (the core's HEURISTIC_WEIGHTS; Lead Letter Printers has them), checked all at
    once without changing the process's (ValueError naming each bad one, or a game whose
    evaluation names none); None (none given) stays None."""
    if weights is None:
        return None
    names = getattr(core_module, "HEURISTIC_WEIGHTS", None)
    if names is None:
        raise ValueError(f"{where}: this game's evaluation has no named weights to set "
                         "(Lead Letter Printers' has)")
    if not isinstance(weights, dict):
        raise ValueError(f"{where}: an object of weight -> number (known: {', '.join(names)})")
    before = core_module.heuristic_weights()
    try:
        core_module.set_heuristic_weights(weights)   # all or nothing: a bad one sets none
    except ValueError as e:
        raise ValueError(f"{where}: {e}") from None
    finally:
        core_module.set_heuristic_weights(before)
    return dict(weights)


def search_weights(core_module: ModuleType, weights: Any = None, where: str = "weights") -> dict | None:
    """The evaluation's weights a search of the game runs with: the game's own for its
    searches (SEARCH_WEIGHTS of its Python module, where it has them: Lead Letter
    Printers', tuned for the search; the core's defaults are the greedy heuristic
    player's) with `weights` over them, checked all at once (check_evaluation_weights).
    None where the game has none and none are given: the process's."""
    given = check_evaluation_weights(core_module, weights, where)
    game = next((g for g in GAMES.values() if g.core_module == core_module.__name__), None)
    own = getattr(game.rules_module, "SEARCH_WEIGHTS", None) if game is not None else None
    if own is None:
        return given
    return {**own, **(given or {})}


@contextmanager
def evaluation_weights(core_module: ModuleType, weights: dict | None) -> Iterator[None]:
    """The game's evaluation with `weights` (checked: check_evaluation_weights) over
    the process's for the time of the `with` (a search): the weights are the process's,
    so a bot that brings its own sets them for its search only, and another bot in the
    process searches with the ones it found. Nothing is changed for None or {}."""
    if not weights:
        yield
        return
    before = core_module.heuristic_weights()
    core_module.set_heuristic_weights(weights)
    try:
        yield
    finally:
        core_module.set_heuristic_weights(before)


def searching(core_module: ModuleType, weights: Any = None) -> ContextManager[None]:
    """For the time of the `with`, the evaluation as the game's searches run it:
    evaluation_weights with search_weights(core_module, weights) (checked first:
    ValueError before anything changes)."""
    return evaluation_weights(core_module, search_weights(core_module, weights))
