"""The small variant (a game started from a shipped position) and the CFR solvers on
Gutenberg's (tests/test_games_cfr.py checks what every game's variant shares: CFR+, the
cfr bot)."""
import collections
import json

import pyspiel
import pytest

import gutenberg_ai
from gutenberg_ai.search import cfr

@pytest.fixture(scope="module")
def game():
    return cfr.variant_game()


def test_the_variant_starts_at_its_position(game):
    state = game.new_initial_state()
    core = gutenberg_ai.core_of(state)
    assert core.round == 1 and core.phase == "plan" and state.current_player() == 0
    assert game.num_players() == 2
    # One marker each: five plans, one per row.
    assert len(state.legal_actions()) == 5
    assert {tuple(gutenberg_ai.games.gutenberg._core.plan_of(a)) for a in state.legal_actions()} == {
        tuple(1 if r == row else 0 for r in range(5)) for row in range(5)}


@pytest.mark.parametrize("name", ["gutenberg", "gutenberg_py"])
def test_position_parameter_in_both_games(name):
    game = pyspiel.load_game(name, {"position": cfr.variant_path()})
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_position_parameter_errors(tmp_path):
    with pytest.raises(Exception, match="position: no file"):
        gutenberg_ai.load_game(position=str(tmp_path / "missing.json"))
    bad = tmp_path / "bad.json"
    data = json.loads(open(cfr.variant_path()).read())
    data["players"][0]["fame"] = -3
    bad.write_text(json.dumps(data))
    with pytest.raises(Exception, match=r"position: .*players\[0\]\.fame"):
        gutenberg_ai.load_game(position=str(bad))
    with pytest.raises(Exception, match="players: 3, but the position is a game with players 2"):
        gutenberg_ai.load_game(position=cfr.variant_path(), players=3)


def test_mccfr_runs_and_is_seeded(game):
    a = cfr.solve(game, "mccfr-external", iterations=30, seed=3)
    b = cfr.solve(game, "mccfr-external", iterations=30, seed=3)
    assert a.exploitability == pytest.approx(b.exploitability)
    with pytest.raises(ValueError, match="algorithm"):
        cfr.solve(game, "cfr++", iterations=1)


def test_solve_refuses_budgets_out_of_bounds_before_any_work():
    # Not a game: the solver is never made when a budget is refused.
    for kwargs, what in [(dict(iterations=10**12), "iterations"), (dict(iterations=0), "iterations"),
                         (dict(iterations=2, checkpoints=10**9), "checkpoints"),
                         (dict(iterations=2, checkpoints=3), "checkpoints"),
                         (dict(iterations=2, checkpoints=-1), "checkpoints"),
                         (dict(iterations=2, seed=-1), "seed"),
                         (dict(iterations=2, seed=2**63), "seed"),
                         (dict(iterations=2, seed=True), "seed")]:
        with pytest.raises(ValueError, match=f"^{what}: "):
            cfr.solve(object(), "cfr+", **kwargs)
    # OpenSpiel's MCCFR solvers take 32-bit seeds; the Python sampler any seed.
    with pytest.raises(ValueError, match="seed: 2147483648 is not a whole number from 0 to 2,147,483,647"):
        cfr.solve(object(), "mccfr-external", iterations=2, seed=2**31)
    kuhn = pyspiel.load_game("kuhn_poker")
    assert cfr.solve(kuhn, "mccfr-outcome-other", iterations=2, seed=2**63 - 1).iterations == 2


def test_solve_records_its_checkpoints():
    kuhn = pyspiel.load_game("kuhn_poker")
    assert [it for it, _, _ in cfr.solve(kuhn, "cfr+", iterations=3, checkpoints=3).curve] == [1, 2, 3]
    assert [it for it, _, _ in cfr.solve(kuhn, "cfr+", iterations=3, checkpoints=2).curve] == [2, 3]
    assert [it for it, _, _ in cfr.solve(kuhn, "cfr+", iterations=3).curve] == [3]


def test_the_variant_is_fit_for_cfr(game):
    # Perfect recall of the information-state strings, legal actions equal within an
    # information state, chance probabilities positive and summing to 1, over the tree.
    audit = cfr.audit_tree(game, tensors=False)
    assert audit.ok, (audit.recall_violations[:3], audit.legal_mismatches[:3], audit.chance_errors[:3])
    assert audit.decision_nodes == sum(n * k for n, k in audit.histories_per_info_state.items())
    # The hidden plan: player 1 does not see which plan player 0 committed, so player 0's
    # plans lead to one information state of player 1's.
    root = game.new_initial_state()
    seen_by_1 = collections.Counter(root.child(a).information_state_string(1) for a in root.legal_actions())
    assert max(seen_by_1.values()) > 1
    assert max(audit.histories_per_info_state) >= max(seen_by_1.values())
    # The tensors group histories as the strings do (below player 0's first plan: the
    # tensors are long, the whole tree takes seconds).
    below = game.new_initial_state().child(game.new_initial_state().legal_actions()[0])
    assert cfr.audit_tree(game, root=below).ok


def test_the_audit_finds_what_breaks_perfect_recall(game):
    # Below both players' first plans (a 25th of the tree).
    below = game.new_initial_state()
    for _ in range(2):
        below = below.child(below.legal_actions()[0])
    # The observation alone forgets the past: histories with different pasts meet.
    audit = cfr.audit_tree(game, key=lambda state, player: state.observation_string(player),
                           tensors=False, root=below)
    assert audit.recall_violations and not audit.chance_errors
    # One key for every state of a player: the tensor tells them apart.
    merged = cfr.audit_tree(game, key=lambda state, player: f"p{player}", root=below)
    assert merged.recall_violations and merged.legal_mismatches and merged.tensor_mismatches
    with pytest.raises(ValueError, match="more than 100 nodes"):
        cfr.audit_tree(game, max_nodes=100)


def test_the_audit_refuses_a_tree_too_large_before_it_starts(game):
    # A tree past the bound is found by counting alone: no node is audited.
    keyed = []
    with pytest.raises(ValueError, match=r"^audit_tree: the game tree has more than 100 nodes \(max_nodes\): "
                                         r"audit_tree walks small games only"):
        cfr.audit_tree(game, key=lambda state, player: keyed.append(player) or "", max_nodes=100)
    assert keyed == []
    # A whole game: refused within seconds (it took minutes and gigabytes to reach the bound).
    with pytest.raises(ValueError, match="more than 500,000 nodes"):
        cfr.audit_tree(gutenberg_ai.load_game(players=2))
    for bad in (0, True, 10**12, 1.5):
        with pytest.raises(ValueError, match="audit_tree: max_nodes: "):
            cfr.audit_tree(game, max_nodes=bad)


def test_outcome_sampling_study_is_openspiels_sampler():
    # On Kuhn poker (uniform play: 0.458) both averages converge like OpenSpiel's own
    # outcome sampling (0.024 after 10,000 iterations, seed 0).
    kuhn = pyspiel.load_game("kuhn_poker")
    study = cfr.OutcomeSamplingStudy(kuhn, seed=0)
    study.run(20_000)
    assert pyspiel.exploitability(kuhn, study.average_policy("update")) < 0.06
    assert pyspiel.exploitability(kuhn, study.average_policy("other")) < 0.06
    again = cfr.OutcomeSamplingStudy(kuhn, seed=0)
    again.run(20_000)
    assert again.regrets == study.regrets and again.average == study.average
    with pytest.raises(ValueError, match="two-player zero-sum"):
        cfr.OutcomeSamplingStudy(pyspiel.load_game("kuhn_poker", {"players": 3}))


def test_outcome_sampling_converges_with_the_average_at_the_other_players_nodes(game):
    # docs/search.md, "Why outcome sampling freezes": the same episodes, two averages.
    # OpenSpiel's stays near 0.49 (0.4890 after 50,000 iterations, 0.4885 after
    # 200,000); the other player's average falls (0.1784, 0.0675).
    result = cfr.solve(game, "mccfr-outcome-other", iterations=30_000, seed=0)
    update = pyspiel.exploitability(game, result.solver.average_policy("update"))
    assert update > 0.45
    assert result.exploitability < update - 0.1
