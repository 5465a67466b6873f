"""Lead Letter Printers's small variant (cfr-mini) and OpenSpiel's CFR family on it."""
import json

import pyspiel
import pytest

import gutenberg_ai
from gutenberg_ai.search import cfr
from gutenberg_ai.games.lead_letter_printers import variants

# Measured (benchmarks/README.md, "CFR"): CFR+ brings the average
# policy to about 3e-5 exploitable in 100 iterations, CFR to 5e-4 in 300.
CFR_PLUS_50 = 0.01


@pytest.fixture(scope="module")
def game():
    return cfr.variant_game(game="lead-letter-printers")


def test_the_shipped_position_is_the_scripts():
    with open(cfr.variant_path("lead-letter-printers")) as f:
        assert json.load(f) == variants.cfr_mini_position()


def test_the_variant_is_the_second_players_last_turn_of_a_one_round_game(game):
    state = game.new_initial_state()
    core = gutenberg_ai.core_of(state)
    assert game.get_parameters()["rounds"] == 1 and game.num_players() == 2
    assert core.step_name() == "Action phase, turn 2 of 2: Shop or Reset" and state.current_player() == 1
    assert core.problems() == []


def test_the_tree_is_small_and_fit_for_the_solvers(game):
    audit = cfr.audit_tree(game, tensors=True)
    assert (audit.decision_nodes, audit.chance_nodes, audit.terminals) == (1196, 12, 347)
    assert audit.ok, (audit.recall_violations[:1], audit.legal_mismatches[:1], audit.tensor_mismatches[:1])
    assert set(audit.info_states) == {0, 1}            # both players decide
    assert max(audit.histories_per_info_state) == 1    # every draw from here is face up


def test_cfr_lowers_exploitability(game):
    uniform = pyspiel.exploitability(game, pyspiel.UniformRandomPolicy(game))
    plus = cfr.solve(game, "cfr+", iterations=50, checkpoints=5)
    values = [v for _, _, v in plus.curve]
    assert values == sorted(values, reverse=True) and values[-1] < CFR_PLUS_50 < uniform
    vanilla = cfr.solve(game, "cfr", iterations=10)
    assert plus.exploitability < vanilla.exploitability < uniform


def test_the_cfr_bot_plays_the_lead_letter_printers_variant(game):
    bots = [gutenberg_ai.make_bot("cfr", game, p, iterations=20, seed=p) for p in range(2)]
    state = game.new_initial_state()
    returns = pyspiel.evaluate_bots(state, bots, 4)
    assert sum(returns) == pytest.approx(0.0)
    with pytest.raises(ValueError, match=r"small variant only .*game='lead-letter-printers'"):
        gutenberg_ai.make_bot("cfr", pyspiel.load_game("lead_letter_printers"), 0)
