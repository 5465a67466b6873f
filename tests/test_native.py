"""What is particular to the native game "gutenberg" (C++ in gutenberg_ai.games.gutenberg._core): C++
algorithms run on it, errors cross from C++ with the game's words, serialization carries
the struct, core_of reads it, and the package refuses a mismatched open_spiel."""
import random
import subprocess
import sys
from importlib import resources

import pyspiel
import pytest

import gutenberg_ai
from gutenberg_ai import core_of, rules_of
from every_game import play_random


def advance(state, seed, until):
    """Seeded random moves and draws until `until(core)` holds."""
    return play_random(state, random.Random(seed), stop=lambda s: until(core_of(s)))


def test_both_games_are_registered():
    names = pyspiel.registered_names()
    assert "gutenberg" in names and "gutenberg_py" in names
    assert type(gutenberg_ai.load_game()) is pyspiel.Game   # C++, not a Python subclass


@pytest.mark.parametrize("params, hidden", [({"players": 2}, 0), ({"players": 3}, 2),
                                            ({"players": 1, "automa": 1}, 0)])
def test_cpp_ismcts_plays_moves(params, hidden):
    # C++ ISMCTS resamples the hidden plans and character tiles through the core on every
    # simulation (on the Python shell it crashes: it calls back into Python without the GIL).
    game = pyspiel.load_game("gutenberg", params)
    state = advance(game.new_initial_state(), 3,
                    lambda c: c.phase == "plan" and c.to_dict()["step"] == hidden and not c.is_chance())
    bot = pyspiel.ISMCTSBot(7, pyspiel.RandomRolloutEvaluator(1, 7), 1.4, 40, -1,
                            pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT, False, False)
    for _ in range(3):
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


def test_illegal_actions_name_the_action_and_change_nothing():
    game = gutenberg_ai.load_game(players=3, rounds=1)
    state = advance(game.new_initial_state(), 1, lambda c: c.phase == "plan" and c.to_dict()["step"] == 1)
    before = (state.history(), state.serialize())
    for action, words in ((0, r"action 0 \(plan: orders 0, inks 0, .*\) is not legal now \(plan\); legal: "),
                          (10 ** 12, r"action 1000000000000 is out of range"),
                          (-3, r"action -3 is out of range")):
        with pytest.raises(pyspiel.SpielError, match=words):
            state.apply_action(action)
        assert (state.history(), state.serialize()) == before
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0] if not state.is_chance_node()
                           else state.chance_outcomes()[0][0])
    with pytest.raises(pyspiel.SpielError, match="the game is over"):
        state.apply_action(0)


def test_serialization_carries_the_struct_and_refuses_a_tampered_one():
    game = gutenberg_ai.load_game(players=2, automa=1)
    state = advance(game.new_initial_state(), 2, lambda c: c.round == 2)
    text = state.serialize()
    assert text.splitlines()[-1] == "core " + core_of(state).to_bytes().hex()
    assert game.deserialize_state(text).history() == state.history()
    tampered = text[:-1] + ("0" if text[-1] != "0" else "1")
    with pytest.raises(pyspiel.SpielError, match="does not match the history"):
        game.deserialize_state(tampered)


def test_core_of_reads_native_and_python_states():
    for name in ("gutenberg", "gutenberg_py"):
        game = pyspiel.load_game(name, {"players": 3})
        state = advance(game.new_initial_state(), 4, lambda c: c.phase == "execute")
        core = core_of(state)
        assert core.rules is rules_of(game)
        assert core.legal_actions() == state.legal_actions()
        assert core.to_dict()["round"] == 1
    with pytest.raises(TypeError, match="not a game of this project"):
        core_of(pyspiel.load_game("tic_tac_toe").new_initial_state())


def test_rules_are_made_once_per_catalogue_path_and_parameters(tmp_path, monkeypatch):
    one, two = gutenberg_ai.load_game(players=2), gutenberg_ai.load_game(players=2, rounds=6)
    assert rules_of(one) is rules_of(two)
    assert rules_of(one) is not rules_of(gutenberg_ai.load_game(players=3))
    path = tmp_path / "mine.json"
    path.write_text(resources.files("gutenberg_ai.games.gutenberg").joinpath("data/catalogue.json").read_text())
    monkeypatch.chdir(tmp_path)
    mine = gutenberg_ai.load_game(catalogue="mine.json")
    assert rules_of(mine) is rules_of(gutenberg_ai.load_game(catalogue=str(path)))
    assert rules_of(mine) is not rules_of(one)


def test_a_mismatched_open_spiel_is_refused_before_loading_the_extension():
    code = """
import sys, types
fake = types.ModuleType("gutenberg_ai._build_info")
fake.OPEN_SPIEL_VERSION, fake.PYSPIEL_SO_SIZE = "1.9.9", 123
sys.modules["gutenberg_ai._build_info"] = fake
try:
    import gutenberg_ai
except ImportError as e:
    print("refused:", e)
print("_core loaded:", "gutenberg_ai.games.gutenberg._core" in sys.modules)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "refused: gutenberg_ai.games.gutenberg._core was built against open_spiel 1.9.9" in out.stdout, out.stderr
    assert "_core loaded: False" in out.stdout


def test_a_game_from_a_position_reports_the_parameters_it_plays():
    """A position file sets players, rounds, characters and automa: both games report
    those, not the defaults, and reloading from the reported parameters gives the same
    game."""
    from gutenberg_ai.search import cfr
    path = cfr.variant_path()
    native = pyspiel.load_game("gutenberg", {"position": path})
    shell = pyspiel.load_game("gutenberg_py", {"position": path})
    params = native.get_parameters()
    assert params == shell.get_parameters()
    assert (params["players"], params["rounds"], params["characters"]) == (2, 1, False)
    again = pyspiel.load_game("gutenberg", params)
    assert again.get_parameters() == params and again.max_game_length() == native.max_game_length()
