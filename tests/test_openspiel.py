"""The game as OpenSpiel sees it: registration, parameters, the pyspiel API, hidden
plans, information states, resampling, serialization. Against the native "gutenberg";
tests/test_parity.py checks that the Python shell "gutenberg_py" behaves the same;
tests/test_games_openspiel.py checks what every game shares."""
import pickle
import random

import numpy as np
import pyspiel
import pytest
from importlib import resources

import gutenberg_ai
from gutenberg_ai import core_of, rules_of
from gutenberg_ai.games.gutenberg import _core
from gutenberg_ai.games.gutenberg.catalogue import default_catalogue
from gutenberg_ai.games.gutenberg.game import max_game_length
from every_game import play_random

A = _core.ACTIONS


def advance_to_plan(state, seed=0):
    """Play seeded random moves until the first plan decision."""
    return play_random(state, random.Random(seed), stop=lambda s: core_of(s).step_name() == "plan")


def test_small_variant_random_sim_test():
    game = pyspiel.load_game("gutenberg", {"players": 2, "rounds": 1, "returns": "score"})
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM


def test_load_game_defaults_and_info():
    game = gutenberg_ai.load_game()
    assert game.num_players() == 2
    assert game.get_parameters() == {"players": 2, "rounds": 6, "returns": "win", "characters": True,
                                     "automa": 0, "catalogue": "", "position": ""}
    assert game.num_distinct_actions() == A["NUM_ACTIONS"]
    assert game.max_chance_outcomes() == _core.CHANCE_OUTCOMES["NUM_CHANCE"]
    assert game.max_game_length() == max_game_length(2, 6, 0, default_catalogue().rules.starting_guilders)
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.observation_tensor_shape() == [_core.OBSERVATION_SIZE]
    assert game.information_state_tensor_shape() == [_core.OBSERVATION_SIZE + 2 * game.max_game_length()]


@pytest.mark.parametrize("name", ["gutenberg", "gutenberg_py"])
def test_one_player_is_the_solo_game_against_the_automa(name):
    # The README: "players 1-4 (default 2): the people; 1 is the solo game against the automa".
    game = pyspiel.load_game(name, {"players": 1})
    assert game.num_players() == 1
    params = game.get_parameters()
    assert (params["automa"], params["returns"]) == (1, "score")
    assert rules_of(game).automa and core_of(game.new_initial_state()).automa_seat == 1
    assert gutenberg_ai.load_game(players=1).get_parameters()["automa"] == 1
    assert pyspiel.load_game(name, {"players": 2}).get_parameters()["automa"] == 0
    assert pyspiel.load_game(name, {"players": 2, "automa": 1}).get_parameters()["automa"] == 1


def test_bad_catalogue_file_is_reported(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{ not json")
    with pytest.raises(Exception, match="catalogue"):
        gutenberg_ai.load_game(catalogue=str(path))


def test_catalogue_parameter_replaces_the_built_in(tmp_path):
    import json
    from importlib import resources
    data = json.loads(resources.files("gutenberg_ai.games.gutenberg").joinpath("data/catalogue.json").read_text())
    data["printing"][0]["guilders"] = 17
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data))
    game = gutenberg_ai.load_game(catalogue=str(path))
    assert rules_of(game).core_catalogue["printing"][0]["guilders"] == 17
    assert rules_of(gutenberg_ai.load_game()).core_catalogue["printing"][0]["guilders"] != 17


def test_illegal_action_raises_and_leaves_state_unchanged():
    state = advance_to_plan(gutenberg_ai.load_game().new_initial_state())
    before = (state.history(), core_of(state).to_bytes())
    with pytest.raises(pyspiel.SpielError, match=r"action \d+ \(.*\) is not legal now \(plan\)"):
        state.apply_action(A["PASS"])
    assert (state.history(), core_of(state).to_bytes()) == before
    # A plan for a different number of markers is illegal too.
    seven = _core.plan_index((1, 1, 1, 2, 2))
    assert state.current_player() == 0 and seven in state.legal_actions()
    eight = _core.plan_index((2, 2, 2, 1, 1))
    assert eight not in state.legal_actions()


def test_action_strings_name_the_step():
    state = advance_to_plan(gutenberg_ai.load_game().new_initial_state())
    text = state.action_to_string(0, A["PLAN"] + _core.plan_index((2, 1, 3, 1, 0)))
    assert text == "plan: orders 2, inks 1, specialties 3, gears 1, patronage 0"


def test_plans_are_hidden_until_all_have_committed():
    game = gutenberg_ai.load_game()
    state = advance_to_plan(game.new_initial_state())
    plan0 = A["PLAN"] + _core.plan_index((3, 0, 2, 2, 0))
    state.apply_action(plan0)
    # Player 1 decides next without seeing player 0's plan.
    assert state.current_player() == 1
    assert "hidden" in state.observation_string(1)
    assert "orders 3, inks 0, specialties 2, gears 2, patronage 0" in state.observation_string(0)
    assert str(plan0) not in state.information_state_string(1).split()[-1]
    assert state.information_state_string(1).endswith("0:?")
    assert state.information_state_string(0).endswith(f"0:{plan0}")
    # The tensors differ between a world with that plan and one with another plan.
    other = game.new_initial_state()
    for a in state.history()[:-1]:
        other.apply_action(a)
    other.apply_action(A["PLAN"] + _core.plan_index((0, 3, 2, 2, 0)))
    assert state.information_state_string(1) == other.information_state_string(1)
    assert state.observation_tensor(1) == other.observation_tensor(1)
    assert state.information_state_tensor(1) == other.information_state_tensor(1)
    assert state.observation_tensor(0) != other.observation_tensor(0)
    # After player 1 commits, both plans are public.
    state.apply_action(state.legal_actions()[0])
    assert "hidden" not in state.observation_string(1)


def test_resample_from_infostate_keeps_the_information_state():
    game = gutenberg_ai.load_game()
    state = advance_to_plan(game.new_initial_state(), seed=3)
    state.apply_action(A["PLAN"] + _core.plan_index((3, 0, 2, 2, 0)))
    key = state.information_state_string(1)
    seen = set()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(20):
        sample = state.resample_from_infostate(1, sampler)
        assert sample.information_state_string(1) == key
        seen.add(sample.history()[-1])
    assert len(seen) > 1  # the hidden plan really is resampled
    # Player 0 has seen every plan committed so far: they stay. (Player 1's character
    # tile put back at setup, which player 0 never saw, may be redrawn.)
    same = state.resample_from_infostate(0, sampler)
    assert same.information_state_string(0) == state.information_state_string(0)
    assert same.history()[-1] == state.history()[-1]


def test_openspiel_python_ismcts_plays_a_move():
    from open_spiel.python.algorithms import ismcts
    from open_spiel.python.algorithms.mcts import RandomRolloutEvaluator
    game = gutenberg_ai.load_game(rounds=1)
    state = advance_to_plan(game.new_initial_state(), seed=5)
    state.apply_action(state.legal_actions()[7])
    bot = ismcts.ISMCTSBot(game, RandomRolloutEvaluator(1, np.random.RandomState(1)), 1.4, 20,
                           random_state=np.random.RandomState(2))
    action = bot.step(state)
    assert action in state.legal_actions()


def test_clone_and_pickle_preserve_the_state():
    state = advance_to_plan(gutenberg_ai.load_game().new_initial_state(), seed=2)
    clone = state.clone()
    assert clone.history() == state.history() and core_of(clone) == core_of(state)
    clone.apply_action(clone.legal_actions()[0])
    assert core_of(clone) != core_of(state)  # independent copies
    restored = pickle.loads(pickle.dumps(core_of(state)))
    assert restored == core_of(state)
    game = state.get_game()
    assert core_of(game.deserialize_state(state.serialize())) == core_of(state)
    again = pickle.loads(pickle.dumps(state))
    assert again.history() == state.history() and core_of(again) == core_of(state)
    assert again.get_game().get_parameters() == game.get_parameters()


def test_returns_modes():
    for mode, check in (("win", lambda r: sum(r) == 0 and max(r) <= 1),
                        ("score", lambda r: min(r) >= 0),
                        ("margin", lambda r: abs(sum(r)) < 1e-9)):
        game = gutenberg_ai.load_game(players=3, rounds=2, returns=mode)
        state = play_random(game.new_initial_state(), random.Random(11))
        r = state.returns()
        assert check(r), (mode, r)
        assert r == core_of(state).returns(mode)
        if mode == "score":
            assert r == [float(v) for v in core_of(state).final_scores()]


def test_solo_game_returns_the_score():
    game = gutenberg_ai.load_game(players=1, automa=1)
    assert game.num_players() == 1 and game.get_parameters()["returns"] == "score"
    state = play_random(game.new_initial_state(), random.Random(4))
    assert state.returns() == [float(core_of(state).final_scores()[0])]


def play_until(state, phase, seed=0):
    return play_random(state, random.Random(seed), stop=lambda s: core_of(s).phase == phase)


def test_drawn_character_tiles_are_seen_by_their_owner_only():
    game = gutenberg_ai.load_game(players=3)
    state = game.new_initial_state()
    play_until(state, "characters")
    # Player 0's two draws.
    for _ in range(2):
        actions, _ = zip(*state.chance_outcomes())
        state.apply_action(actions[0])
    assert state.current_player() == 0
    mine = state.information_state_string(0).split()[-2:]
    theirs = state.information_state_string(1).split()[-2:]
    assert "?" not in "".join(mine) and theirs == ["-1:?", "-1:?"]
    drawn = [core_of(state).to_dict()["players"][0]["character_drawn"][k] for k in range(2)]
    names = [gutenberg_ai.games.gutenberg.names.CHARACTERS[x] for x in drawn]
    assert all(n in state.observation_string(0) for n in names)
    assert not any(n in state.observation_string(1) for n in names)
    assert state.observation_tensor(0) != state.observation_tensor(1)
    # Keeping one makes it public; the other stays hidden.
    keep = A["CHARACTER"] + drawn[1]
    state.apply_action(keep)
    assert f"character: {names[1]}" in state.observation_string(2)
    assert names[0] not in state.observation_string(2)
    # Resampling for player 2 changes player 0's hidden tile, keeps the kept one.
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    key = state.information_state_string(2)
    seen = set()
    for _ in range(30):
        sample = state.resample_from_infostate(2, sampler)
        assert sample.information_state_string(2) == key
        pair = core_of(sample).to_dict()["players"][0]["character_drawn"]
        assert drawn[1] in pair
        seen.add(frozenset(pair))
    assert len(seen) > 1


def test_automa_game_has_the_automa_as_a_chance_participant():
    game = gutenberg_ai.load_game(players=2, automa=1)
    state = game.new_initial_state()
    play_until(state, "reveal")
    # After the players' plans the automa's planning card is drawn by chance.
    assert state.is_chance_node()
    outcomes = [a for a, _ in state.chance_outcomes()]
    assert all(_core.CHANCE_OUTCOMES["AUTOMA_PLAN"] <= a < _core.CHANCE_OUTCOMES["AUTOMA_SPACE"] for a in outcomes)
    assert len(outcomes) == 10
    assert "Automa (seat 2)" in str(state)


def mid_plan_position(tmp_path, plan) -> str:
    """The shipped 2-player plan position with player 0's plan committed (`plan`, or
    "hidden") and player 1 to plan."""
    import json
    d = json.loads((resources.files("gutenberg_ai.games.gutenberg") / "data/positions/plan-round1-2p.json").read_text())
    d["step"] = {"kind": "plan", "player": 1}
    d["players"][0]["plan"] = plan
    path = tmp_path / "mid-plan.json"
    path.write_text(json.dumps(d))
    return str(path)


@pytest.mark.parametrize("name", ["gutenberg", "gutenberg_py"])
def test_resampling_a_game_that_starts_mid_plan_step(tmp_path, name):
    """A position can start after player 0 committed a plan: the game's history is
    empty, so there is no history entry to rewrite for that plan (the core once wrote
    before the start of the action list)."""
    path = mid_plan_position(tmp_path, {"orders": 2, "inks": 2, "specialties": 1, "gears": 1, "patronage": 1})
    state = pyspiel.load_game(name, {"position": path}).new_initial_state()
    assert state.current_player() == 1 and state.history() == []
    sample = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert sample.history() == [] and sample.information_state_string(1) == state.information_state_string(1)


@pytest.mark.parametrize("name", ["gutenberg", "gutenberg_py"])
def test_a_plan_committed_before_the_history_is_in_the_information_state_once_revealed(tmp_path, name):
    """No history entry holds a plan committed before the game's history began. Its
    player knows it, and after the reveal everybody does: a state and its resample for
    player 1 (player 0's hidden plan redrawn), after the same plan of player 1, give
    different turns, so their information state strings must differ (OpenSpiel's
    ISMCTSBot, keyed by them, once played a move of one world in the other: an illegal
    action). Before the reveal player 1's strings are the same, and player 0's carry its
    plan."""
    game = pyspiel.load_game(name, {"position": mid_plan_position(tmp_path, "hidden")})
    state = game.new_initial_state()
    sample = state.resample_from_infostate(1, random.Random(3).random)
    plans = [core_of(s).to_dict()["players"][0]["plan"] for s in (state, sample)]
    assert plans[0] != plans[1]
    assert state.information_state_string(1) == sample.information_state_string(1)
    assert state.information_state_string(0).endswith(" | 0 " + " ".join(map(str, plans[0])))
    commit = state.legal_actions()[5]
    for s in (state, sample):
        s.apply_action(commit)
        assert core_of(s).step_name() != "plan"
    assert state.legal_actions() != sample.legal_actions() or state.current_player() != sample.current_player()
    assert state.information_state_string(1) != sample.information_state_string(1)
    for s, plan in zip((state, sample), plans):
        assert s.information_state_string(1).endswith(" | 0 " + " ".join(map(str, plan)))


def test_openspiels_ismcts_searches_a_game_started_after_a_hidden_plan(tmp_path):
    """The C++ ISMCTSBot, whose tree is keyed by information state strings, plays player
    1's plan at such a position without an illegal move (it raised SpielError before the
    start plans were in the strings)."""
    state = pyspiel.load_game("gutenberg", {"position": mid_plan_position(tmp_path, "hidden")}).new_initial_state()
    bot = pyspiel.ISMCTSBot(1, pyspiel.RandomRolloutEvaluator(1, 2), 2.0, 3000, -1,
                            pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT, False, False)
    assert bot.step(state) in state.legal_actions()


@pytest.mark.parametrize("name", ["gutenberg", "gutenberg_py"])
def test_free_actions_before_the_plans_are_in_every_information_state(name):
    """A type bought in the free-action window before the plans is public; the plan
    committed after it is hidden, and a resample redraws the plan only."""
    game = pyspiel.load_game(name, {"players": 2, "characters": False})
    state = game.new_initial_state()
    play_random(state, random.Random(1), stop=lambda s: core_of(s).step_name() == "free actions before the plans")
    assert state.current_player() == 0
    buy = A["BUY"] + 3
    assert buy in state.legal_actions()
    state.apply_action(buy)
    while core_of(state).step_name() != "plan":
        state.apply_action(A["PASS"])
    plan = _core.plan_index((3, 0, 2, 2, 0))
    state.apply_action(plan)
    assert state.current_player() == 1
    info = state.information_state_string(1)
    assert info.endswith("0:?") and f"0:{buy}" in info.split()
    assert state.information_state_string(0).endswith(f"0:{plan}")
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    seen = set()
    for _ in range(10):
        sample = state.resample_from_infostate(1, sampler)
        assert sample.information_state_string(1) == info
        assert sample.history()[:-1] == state.history()[:-1]
        seen.add(sample.history()[-1])
    assert len(seen) > 1


@pytest.mark.parametrize("name", ["gutenberg", "gutenberg_py"])
def test_the_automas_markers_are_in_every_view_during_the_plan_step(name):
    """The automa has no screen: during the plan step its markers are in every player's
    observation, string and tensor alike; a person's committed plan is not."""
    game = pyspiel.load_game(name, {"players": 2, "automa": 1})
    state = play_until(game.new_initial_state(), "plan", seed=3)
    while core_of(state).step_name() != "plan":
        state.apply_action(A["PASS"])
    state.apply_action(state.legal_actions()[0])
    assert state.current_player() == 1
    core = core_of(state)
    automa = core.to_dict()["players"][2]["plan"]
    assert "Automa (seat 2): initiative markers" in state.observation_string(1)
    assert "hidden" in state.observation_string(1)
    # Two worlds that differ in the automa's markers only: every view tells them apart.
    d = core.to_dict()
    moved = list(automa)
    i = next(k for k in range(5) if moved[k] > 0)
    moved[i] -= 1
    moved[(i + 1) % 5] += 1
    d["players"][2]["plan"] = moved
    other = core.rules.state_from_dict(d)
    views = []
    for world in (core, other):
        out = np.zeros(_core.OBSERVATION_SIZE, np.float32)
        world.write_observation(1, out)
        views.append(out)
    assert not np.array_equal(views[0], views[1])
    assert state.observation_tensor(1) == list(views[0])
    # ... and two that differ in player 0's committed plan only: player 1 cannot.
    d = core.to_dict()
    d["players"][0]["plan"] = d["players"][0]["plan"][::-1]
    assert d["players"][0]["plan"] != core.to_dict()["players"][0]["plan"]
    hidden = core.rules.state_from_dict(d)
    out = np.zeros(_core.OBSERVATION_SIZE, np.float32)
    hidden.write_observation(1, out)
    assert np.array_equal(out, views[0])
