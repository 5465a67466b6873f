"""Lead Letter Printers (A-games, 2022): the compiled rules, the catalogue and the game's
words.

    from gutenberg_ai.games.lead_letter_printers import make_rules
    rules = make_rules({"players": 3})
    state = rules.new_state()            # a CoreState: chance nodes, decisions, scoring
    state.apply(state.legal_actions()[0])

The rules are ext/lead_letter_printers/core.pyx (the action encoding is at its top),
compiled as gutenberg_ai.games.lead_letter_printers._core; the catalogue (the components
that the rulebook shows only as pictures) is data/catalogue.json, loaded by .catalogue.
How the game is modelled: docs/lead_letter_printers/rules.md; rulings:
docs/lead_letter_printers/rulings.md; what is reconstructed: catalogue.md there.

Parameters (check_parameters)
    players     2-4 (default 2)
    rounds      0 (default): until the orders run out, the game; 1-20: a small variant
                that ends with the final scoring after that many rounds
    factory_tops  true (default): the factory piles lie face up, each top in view;
                false: drawn as from a face-down deck
    returns, catalogue, position: see .game (the OpenSpiel game "lead_letter_printers")
"""
from __future__ import annotations

from . import names
from ._core import IllegalActionError, Rules
from .catalogue import CatalogueError, default_catalogue, load_catalogue
from .game import DEFAULTS, GAME_NAME, ParameterError, check_parameters, rules_for


def make_rules(params: dict | None = None) -> Rules:
    """The compiled rules for these parameters (checked by game.setup: a bad parameter,
    or a bad catalogue file with all its problems, raises ParameterError)."""
    return rules_for(dict(params or {}))


__all__ = ["CatalogueError", "DEFAULTS", "GAME_NAME", "IllegalActionError", "ParameterError",
           "Rules", "check_parameters", "default_catalogue", "load_catalogue", "make_rules", "names"]
