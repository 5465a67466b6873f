"""Printing Press (Granna, 2023): the compiled rules, the catalogue and the game's words.

    from gutenberg_ai.games.printing_press import make_rules
    rules = make_rules({"players": 3, "variant": "advanced"})
    state = rules.new_state()            # a CoreState: chance nodes, decisions, scoring
    state.apply(state.legal_actions()[0])

The rules are ext/printing_press/core.pyx (the action encoding is at its top), compiled
as gutenberg_ai.games.printing_press._core; the catalogue (the components that the
rulebook shows only as pictures) is data/catalogue.json, loaded by .catalogue. How the
game is modelled: docs/printing_press/rules.md; rulings: docs/printing_press/rulings.md.

Parameters (check_parameters)
    players           1-4 (default 2); 1 is the solo game against the automa
    variant           "basic" (default; time track side A, 6 Select Cards steps) or
                      "advanced" (side B, 5 steps)
    characters        true (default): a random character tile each (solo: chosen);
                      false: no character tiles, the first player is seat 0
    one_token         solo difficulty: 1 setup token instead of 3 (default false)
    automa_wins_ties  solo difficulty: the automa wins initiative ties (default false)
    hard_board        solo difficulty: the 5-4-3-1 side of the solo board (default false)
    rounds            1-3 (default 3); fewer make small variants
    returns, catalogue, position: see .game (the OpenSpiel game "printing_press")
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
