"""The native game "gutenberg" and the Python shell "gutenberg_py" are one game: random
games replayed in both agree at every step on the player to act, the legal actions, the
chance outcomes and their probabilities, the words, the information-state strings, the
struct, a resample drawn with the same number, and the returns; on the observation
strings and tensors, the information-state tensors and str(state) at every plan and
character step and every few steps besides."""
import random

import numpy as np
import pyspiel
import pytest

from gutenberg_ai import core_of
from every_game import play_random

CASES = [
    ({"players": 2}, 1),
    ({"players": 3}, 2),
    ({"players": 4}, 3),
    ({"players": 2, "automa": 1}, 4),
    ({"players": 1, "automa": 1}, 5),
    ({"players": 3, "characters": False, "returns": "margin"}, 6),
    ({"players": 2, "rounds": 2, "returns": "score"}, 7),
]


def random_actions(game, seed):
    return play_random(game.new_initial_state(), random.Random(seed)).history()


def test_the_two_games_have_the_same_parameters_and_defaults():
    native, python = pyspiel.load_game("gutenberg"), pyspiel.load_game("gutenberg_py")
    assert native.get_type().parameter_specification == python.get_type().parameter_specification
    assert native.get_parameters() == python.get_parameters()


@pytest.mark.parametrize("params, seed", CASES)
def test_native_and_python_games_agree(params, seed, every=20):
    nat, py = pyspiel.load_game("gutenberg", params), pyspiel.load_game("gutenberg_py", params)
    for method in ("get_parameters", "num_players", "num_distinct_actions", "max_chance_outcomes",
                   "max_game_length", "min_utility", "max_utility", "observation_tensor_shape",
                   "information_state_tensor_shape"):
        assert getattr(nat, method)() == getattr(py, method)(), method
    assert nat.get_type().utility == py.get_type().utility
    players = nat.num_players()
    rng = random.Random(seed)
    a, b = nat.new_initial_state(), py.new_initial_state()
    for i, action in enumerate(random_actions(nat, seed) + [None]):
        where = (i, action)
        assert a.current_player() == b.current_player(), where
        assert a.is_terminal() == b.is_terminal(), where
        assert core_of(a) == core_of(b), where
        core = core_of(b)
        if a.is_chance_node():
            assert a.chance_outcomes() == b.chance_outcomes(), where
        elif not a.is_terminal():
            legal = a.legal_actions()
            assert legal == b.legal_actions(), where
            for x in rng.sample(legal, min(5, len(legal))):
                assert a.action_to_string(a.current_player(), x) == b.action_to_string(b.current_player(), x), where
        if action is not None:
            assert a.action_to_string(a.current_player(), action) == \
                b.action_to_string(b.current_player(), action), where
        for p in range(players):
            assert a.information_state_string(p) == b.information_state_string(p), (where, p)
        if core.phase in ("plan", "characters") or i % every == 0 or action is None:
            assert str(a) == str(b), where
            for p in range(players):
                assert a.observation_string(p) == b.observation_string(p), (where, p)
                assert np.array_equal(a.observation_tensor(p), b.observation_tensor(p)), (where, p)
                assert np.array_equal(a.information_state_tensor(p), b.information_state_tensor(p)), (where, p)
            # The same number from the sampler gives the same resampled state.
            u = rng.random()
            p = rng.randrange(players)
            ra, rb = a.resample_from_infostate(p, lambda: u), b.resample_from_infostate(p, lambda: u)
            assert ra.history() == rb.history() and core_of(ra) == core_of(rb), (where, p)
            assert ra.information_state_string(p) == a.information_state_string(p), (where, p)
        if action is not None:
            a.apply_action(action)
            b.apply_action(action)
    assert a.returns() == b.returns()


def test_python_shell_random_sim_test():
    game = pyspiel.load_game("gutenberg_py", {"players": 2, "rounds": 2})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
