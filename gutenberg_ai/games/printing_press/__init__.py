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
    catalogue         path to a catalogue JSON file ("" for the built-in one)
"""
from __future__ import annotations

import functools
import os

from . import names
from ._core import IllegalActionError, Rules
from .catalogue import CatalogueError, default_catalogue, load_catalogue

GAME_NAME = "printing_press"
DEFAULTS = {"players": 2, "variant": "basic", "characters": True, "one_token": False,
            "automa_wins_ties": False, "hard_board": False, "rounds": 3, "catalogue": ""}
SOLO_OPTIONS = ("one_token", "automa_wins_ties", "hard_board")


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
    if not 1 <= p["players"] <= 4:
        raise ParameterError(f"players: {p['players']} is out of range (1-4; 1 is the solo game)")
    if not 1 <= p["rounds"] <= 3:
        raise ParameterError(f"rounds: {p['rounds']} is out of range (1-3)")
    if p["variant"] not in names.VARIANTS:
        raise ParameterError(f"variant: {p['variant']!r} is not one of {', '.join(names.VARIANTS)}")
    for name in ("characters",) + SOLO_OPTIONS:
        if not isinstance(p[name], bool):
            raise ParameterError(f"{name}: {p[name]!r} is not true or false")
    for name in SOLO_OPTIONS:
        if p[name] and p["players"] != 1:
            raise ParameterError(f"{name}: a solo difficulty option, but players is {p['players']}")
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
    return Rules(catalogue, players=p["players"], variant=p["variant"], characters=p["characters"],
                 one_token=p["one_token"], automa_wins_ties=p["automa_wins_ties"],
                 hard_board=p["hard_board"], rounds=p["rounds"])


__all__ = ["CatalogueError", "DEFAULTS", "GAME_NAME", "IllegalActionError", "ParameterError",
           "Rules", "check_parameters", "default_catalogue", "load_catalogue", "make_rules", "names"]
