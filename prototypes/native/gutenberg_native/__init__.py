"""Gutenberg as a native (C++) OpenSpiel game: a prototype.

    import gutenberg_native, pyspiel
    game = pyspiel.load_game("gutenberg_native", {"players": 2, "rounds": 6})

Importing registers nothing by itself (the C++ registration runs when the extension is
loaded); it sets the built-in catalogue, which the games loaded afterwards copy.

Needs gutenberg_ai importable (the repository root on sys.path): the rules' Python
helpers (names, catalogue) come from there.
"""
from __future__ import annotations

import importlib.metadata
import os

import pyspiel

from gutenberg_native import _build_info

# The extension is compiled against one pyspiel.so: check before loading it.
if (importlib.metadata.version("open_spiel") != _build_info.OPEN_SPIEL_VERSION
        or os.path.realpath(pyspiel.__file__) != os.path.realpath(_build_info.PYSPIEL_SO)):
    raise ImportError(
        f"gutenberg_native was built against open_spiel {_build_info.OPEN_SPIEL_VERSION} "
        f"({_build_info.PYSPIEL_SO}); this is {importlib.metadata.version('open_spiel')} "
        f"({pyspiel.__file__}): rebuild it (prototypes/native/build.sh)")

from gutenberg_ai import _core  # noqa: E402
from gutenberg_ai.catalogue import load_catalogue  # noqa: E402

from gutenberg_native import _native  # noqa: E402

GAME_NAME = "gutenberg_native"


def set_catalogue(catalogue=None) -> int:
    """Use this catalogue (a Catalogue, a path, or None for the built-in one) for the
    games loaded from now on; games already loaded keep theirs."""
    if catalogue is None or isinstance(catalogue, (str, bytes)) or hasattr(catalogue, "__fspath__"):
        catalogue = load_catalogue(catalogue or None)
    return _native.set_catalogue(catalogue)


set_catalogue()
_DEFAULT = load_catalogue()


def core_of(state, catalogue=None) -> "_core.CoreState":
    """The compiled core state (gutenberg_ai._core.CoreState) of a native state: a copy
    of its struct, taken from the last line of state.serialize() (about 9 us in the
    middle of a game). `catalogue` must be the one the game was loaded with (default:
    the built-in one): a native state does not say which it is."""
    last = state.serialize().rsplit("\n", 1)[-1]
    if not last.startswith("core "):
        raise ValueError("not a gutenberg_native state")
    data = bytes.fromhex(last[5:])
    game = state.get_game()
    params = game.get_parameters()
    rules = _rules(catalogue or _DEFAULT, params["players"], params["rounds"])
    return _core._rebuild_state(rules, data)


_RULES_CACHE: dict = {}


def _rules(catalogue, players, rounds):
    key = (id(catalogue), players, rounds)
    if key not in _RULES_CACHE:
        _RULES_CACHE[key] = _core.Rules(catalogue, players, rounds)
    return _RULES_CACHE[key]
