"""Printing Press's small variant (cfr-mini) and OpenSpiel's CFR family on it."""
import json

import pyspiel
import pytest

import gutenberg_ai
from gutenberg_ai.search import cfr
from gutenberg_ai.games.printing_press import variants

# Measured (benchmarks/README.md, "CFR"): a uniform policy is 0.83 exploitable;
# CFR+ brings it to 0.0135 in 20 iterations, CFR to 0.082; external-sampling MCCFR to
# 0.41 in 200 iterations (seed 1).
UNIFORM = 0.832
CFR_PLUS_20 = 0.02


@pytest.fixture(scope="module")
def game():
    return cfr.variant_game(game="printing-press")


def test_the_shipped_start_file_is_the_scripts():
    with open(cfr.variant_path("printing-press")) as f:
        assert json.load(f) == variants.cfr_mini_start()


def test_the_variant_is_the_last_step_after_the_first_players_turn(game):
    state = game.new_initial_state()
    core = gutenberg_ai.core_of(state)
    d = core.to_dict()
    assert game.get_parameters()["variant"] == "advanced" and game.get_parameters()["rounds"] == 1
    assert core.phase == "Select Cards" and d["step"] == 4 and d["turn"] == 1
    assert sum(1 for x in d["offer"] if x >= 0) == 2
    assert sum(d["bag"]) == 2
    assert core.problems() == []


def test_the_tree_is_small_and_fit_for_the_solvers(game):
    audit = cfr.audit_tree(game, tensors=True)
    assert (audit.decision_nodes, audit.chance_nodes, audit.terminals) == (3987, 6, 56310)
    assert audit.ok, (audit.recall_violations[:1], audit.legal_mismatches[:1], audit.tensor_mismatches[:1])
    # Imperfect information: the other player's drawn tokens merge histories.
    assert max(audit.histories_per_info_state) > 1


def test_cfr_lowers_exploitability(game):
    uniform = pyspiel.exploitability(game, pyspiel.UniformRandomPolicy(game))
    assert uniform == pytest.approx(UNIFORM, abs=1e-3)
    plus = cfr.solve(game, "cfr+", iterations=20, checkpoints=4)
    values = [v for _, _, v in plus.curve]
    assert values == sorted(values, reverse=True) and values[-1] < CFR_PLUS_20 < uniform
    vanilla = cfr.solve(game, "cfr", iterations=10)
    assert plus.exploitability < vanilla.exploitability < uniform


def test_external_sampling_mccfr_is_seeded_and_learns(game):
    a = cfr.solve(game, "mccfr-external", iterations=200, seed=1)
    b = cfr.solve(game, "mccfr-external", iterations=200, seed=1)
    assert a.exploitability == pytest.approx(b.exploitability)
    assert a.exploitability < 0.5 * UNIFORM


def test_the_cfr_bot_plays_the_printing_press_variant(game):
    bots = [gutenberg_ai.make_bot("cfr", game, p, iterations=5, seed=p) for p in range(2)]
    state = game.new_initial_state()
    returns = pyspiel.evaluate_bots(state, bots, 4)
    assert sum(returns) == pytest.approx(0.0) and state.is_terminal()
    start = game.new_initial_state()
    moves = {gutenberg_ai.make_bot("cfr", game, start.current_player(), iterations=5, seed=9).step(start)
             for _ in range(2)}
    assert len(moves) == 1 and moves <= set(start.legal_actions())
    with pytest.raises(ValueError, match=r"small variant only .*game='printing-press'"):
        gutenberg_ai.make_bot("cfr", pyspiel.load_game("printing_press"), 0)
