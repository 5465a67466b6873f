"""Lead Letter Printers's small variant (cfr-mini), where it is its own
(tests/test_games_cfr.py checks what every game's variant shares: the tree, CFR, the bot)."""

import pytest

import gutenberg_ai
from gutenberg_ai.search import cfr


@pytest.fixture(scope="module")
def game():
    return cfr.variant_game(game="lead-letter-printers")


def test_the_variant_is_the_second_players_last_turn_of_a_one_round_game(game):
    state = game.new_initial_state()
    core = gutenberg_ai.core_of(state)
    assert game.get_parameters()["rounds"] == 1 and game.num_players() == 2
    assert core.step_name() == "Action phase, turn 2 of 2: Shop or Reset" and state.current_player() == 1
    assert core.problems() == []
