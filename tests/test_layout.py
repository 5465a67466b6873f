"""Each game lives in its own place, registered in one table; Gutenberg's modules keep
their old names (from before the games had folders) as aliases of the same modules."""
import importlib

import pyspiel

import gutenberg_ai
from gutenberg_ai import games


def test_every_game_of_the_table_has_its_parts_in_its_own_folder():
    for g in games.GAMES.values():
        folder = f"gutenberg_ai.games.{g.key.replace('-', '_')}"
        for module in (g.module, g.core_module, g.view_module, g.position_module, g.cards_module):
            assert module.startswith(folder + "."), (g.key, module)
            importlib.import_module(module)
        assert g.load().get_type().short_name == g.spiel_name


def test_gutenbergs_old_module_names_are_the_same_modules():
    for name in ("_core", "game", "catalogue", "names", "position", "cards", "view"):
        old = importlib.import_module(f"gutenberg_ai.{name}")
        new = importlib.import_module(f"gutenberg_ai.games.gutenberg.{name}")
        assert old is new and getattr(gutenberg_ai, name) is new
    from gutenberg_ai.position import load_position   # the README's older spelling
    assert load_position is importlib.import_module("gutenberg_ai.games.gutenberg.position").load_position


def test_the_native_games_are_registered_by_importing_the_package():
    names = {t.short_name for t in pyspiel.registered_games()}
    assert {"gutenberg", "gutenberg_py", "printing_press"} <= names
