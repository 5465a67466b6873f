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
    catalogue   path to a catalogue JSON file ("" for the built-in one)
"""
from __future__ import annotations

import functools
import os

from . import names
from ._core import IllegalActionError, Rules
from .catalogue import CatalogueError, default_catalogue, load_catalogue

GAME_NAME = "lead_letter_printers"
DEFAULTS = {"players": 2, "rounds": 0, "catalogue": ""}


class ParameterError(ValueError):
    """A bad game parameter; the message names it."""


def check_parameters(params: dict) -> dict:
    """The parameters with defaults filled in; ParameterError names a bad one."""
    unknown = sorted(set(params) - set(DEFAULTS))
    if unknown:
        raise ParameterError(f"unknown game parameter(s) {', '.join(map(repr, unknown))}; "
                             f"known: {', '.join(DEFAULTS)}")
    p = {**DEFAULTS, **params}
    for name in ("players", "rounds"):
        if isinstance(p[name], bool) or not isinstance(p[name], int):
            raise ParameterError(f"{name}: {p[name]!r} is not a whole number")
    if not 2 <= p["players"] <= 4:
        raise ParameterError(f"players: {p['players']} is out of range (2-4)")
    if not 0 <= p["rounds"] <= 20:
        raise ParameterError(f"rounds: {p['rounds']} is out of range (0-20; 0 plays until the orders run out)")
    if not isinstance(p["catalogue"], str):
        raise ParameterError(f"catalogue: {p['catalogue']!r} is not a path")
    if p["catalogue"] and not os.path.isfile(p["catalogue"]):
        raise ParameterError(f"catalogue: no file at {p['catalogue']!r}")
    return p


@functools.lru_cache(maxsize=16)
def _catalogue(path: str):
    return load_catalogue(path or None)


def make_rules(params: dict | None = None) -> Rules:
    """The compiled rules for these parameters (checked; a bad catalogue file raises
    CatalogueError listing its problems)."""
    p = check_parameters(dict(params or {}))
    catalogue = _catalogue(os.path.abspath(p["catalogue"]) if p["catalogue"] else "")
    return Rules(catalogue, players=p["players"], rounds=p["rounds"])


__all__ = ["CatalogueError", "DEFAULTS", "GAME_NAME", "IllegalActionError", "ParameterError",
           "Rules", "check_parameters", "default_catalogue", "load_catalogue", "make_rules", "names"]
