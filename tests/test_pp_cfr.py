"""Printing Press's small variant (cfr-mini) and OpenSpiel's CFR family on it, where it is
its own (tests/test_games_cfr.py checks what every game's variant shares)."""

import pytest

import gutenberg_ai
from gutenberg_ai.search import cfr

# Measured (benchmarks/README.md, "CFR"): a uniform policy is 0.83 exploitable
# (test_games_cfr.py); external-sampling MCCFR brings it to 0.41 in 200 iterations (seed 1).
UNIFORM = 0.832


@pytest.fixture(scope="module")
def game():
    return cfr.variant_game(game="printing-press")


def test_the_variant_is_the_last_step_after_the_first_players_turn(game):
    state = game.new_initial_state()
    core = gutenberg_ai.core_of(state)
    d = core.to_dict()
    assert game.get_parameters()["variant"] == "advanced" and game.get_parameters()["rounds"] == 1
    assert core.phase == "Select Cards" and d["step"] == 4 and d["turn"] == 1
    assert sum(1 for x in d["offer"] if x >= 0) == 2
    assert sum(d["bag"]) == 2
    assert core.problems() == []


def test_external_sampling_mccfr_is_seeded_and_learns(game):
    a = cfr.solve(game, "mccfr-external", iterations=200, seed=1)
    b = cfr.solve(game, "mccfr-external", iterations=200, seed=1)
    assert a.exploitability == pytest.approx(b.exploitability)
    assert a.exploitability < 0.5 * UNIFORM
