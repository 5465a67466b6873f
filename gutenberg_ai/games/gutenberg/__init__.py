"""Gutenberg (Granna, 2022): the compiled rules, the catalogue and the game's words.

    from gutenberg_ai.games.gutenberg import make_rules
    rules = make_rules({"players": 3})
    state = rules.new_state()            # a CoreState: chance nodes, decisions, scoring
    state.apply(state.legal_actions()[0])

The rules are ext/gutenberg/core.pyx (the action encoding is at its top), compiled as
gutenberg_ai.games.gutenberg._core, which also registers the native OpenSpiel game
"gutenberg"; .game checks the parameters and registers the Python shell "gutenberg_py".
The catalogue (the components the rulebook shows only as pictures) is
data/catalogue.json, loaded by .catalogue; position files are .position; the table
drawn in the terminal is .view; looking a card up is .cards. Rulings:
docs/gutenberg/rulings.md; the catalogue: docs/gutenberg/catalogue.md; position files:
docs/gutenberg/positions.md.
"""
from __future__ import annotations

from . import names
from ._core import IllegalActionError, Rules
from .catalogue import CatalogueError, default_catalogue, load_catalogue
from .game import DEFAULTS, GAME_NAME, ParameterError, check_parameters, rules_for


def make_rules(params: dict | None = None) -> Rules:
    """The compiled rules for these parameters (a bad parameter, or a bad catalogue
    file with all its problems, raises ParameterError)."""
    return rules_for(dict(params or {}))


__all__ = ["CatalogueError", "DEFAULTS", "GAME_NAME", "IllegalActionError", "ParameterError",
           "Rules", "check_parameters", "default_catalogue", "load_catalogue", "make_rules", "names"]
