"""Correctness checks of the native game "gutenberg_native" (prototype).

    cd prototypes/native && python check.py          # after python setup.py build_ext --inplace

1. parity: random games replayed in "gutenberg" (the Python-registered game) and in
   "gutenberg_native" give the same players, legal actions, chance outcomes, words,
   observation and information-state strings and tensors, and returns;
2. pyspiel.random_sim_test(game, 2, serialize=True) for 2-4 players;
3. illegal actions, clone independence, serialize / pickle round trips, core_of;
4. ResampleFromInfostate: the others' plans redrawn, the result equals replaying its
   own history, the resampling player's information state unchanged;
5. OpenSpiel's C++ ISMCTS (pyspiel.ISMCTSBot) plays moves, including at hidden plans;
   the same on the Python game, in a subprocess (it is expected to fail there).
"""
from __future__ import annotations

import os
import pickle
import random
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# The repository (or a snapshot of it made by build.sh): gutenberg_ai, benchmarks.
ROOT = os.path.abspath(os.environ.get("GUTENBERG_ROOT") or os.path.join(HERE, "..", ".."))
sys.path[:0] = [HERE, ROOT]

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402

import gutenberg_ai  # noqa: E402  (registers "gutenberg")
import gutenberg_native  # noqa: E402  (registers "gutenberg_native")


def random_actions(game, seed):
    rng = random.Random(seed)
    state = game.new_initial_state()
    actions = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            a = rng.choices(outcomes, probs)[0]
        else:
            a = rng.choice(state.legal_actions())
        actions.append(a)
        state.apply_action(a)
    return actions


def check_parity(players, seed, every=25):
    py = gutenberg_ai.load_game(players=players)
    nat = pyspiel.load_game("gutenberg_native", {"players": players})
    actions = random_actions(nat, seed)
    a, b = py.new_initial_state(), nat.new_initial_state()
    for i, action in enumerate(actions + [None]):
        assert a.current_player() == b.current_player(), i
        assert a.is_terminal() == b.is_terminal(), i
        if a.is_chance_node():
            assert a.chance_outcomes() == b.chance_outcomes(), i
        elif not a.is_terminal():
            assert a.legal_actions() == b.legal_actions(), i
        if action is not None and not a.is_terminal():
            assert a.action_to_string(action) == b.action_to_string(action), i
        if i % every == 0 or action is None or a.core.phase == "plan":
            assert str(a) == str(b), i
            for p in range(players):
                assert a.information_state_string(p) == b.information_state_string(p), (i, p)
                assert a.observation_string(p) == b.observation_string(p), (i, p)
                assert np.array_equal(a.observation_tensor(p), b.observation_tensor(p)), (i, p)
                assert np.array_equal(a.information_state_tensor(p),
                                      b.information_state_tensor(p)), (i, p)
        if action is not None:
            a.apply_action(action)
            b.apply_action(action)
    assert a.returns() == b.returns()
    assert a.core.to_bytes() == gutenberg_native.core_of(b).to_bytes()
    return len(actions)


def advance_to_hidden_plans(state, seed, hidden=1):
    """Random moves until `hidden` plans have been committed in a plan step."""
    rng = random.Random(seed)
    while True:
        core = gutenberg_native.core_of(state)
        if core.phase == "plan" and core.to_dict()["step"] == hidden:
            return state
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def check_api():
    game = pyspiel.load_game("gutenberg_native", {"players": 3, "rounds": 2})
    state = game.new_initial_state()
    before = state.serialize()
    try:
        state.apply_action(999999)
        raise AssertionError("an illegal action was accepted")
    except pyspiel.SpielError as e:
        assert "not legal" in str(e)
    assert state.serialize() == before
    for bad in ({"players": 5}, {"rounds": 0}):
        try:
            pyspiel.load_game("gutenberg_native", bad)
            raise AssertionError(f"{bad} accepted")
        except pyspiel.SpielError as e:
            assert next(iter(bad)) in str(e)
    advance_to_hidden_plans(state, 3, hidden=2)
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert state.serialize() != clone.serialize()
    again = game.deserialize_state(state.serialize())
    assert again.serialize() == state.serialize() and str(again) == str(state)
    restored = pickle.loads(pickle.dumps(state))
    assert restored.serialize() == state.serialize()
    assert restored.get_game().get_parameters() == {"players": 3, "rounds": 2}
    # A tampered core line is refused.
    text = state.serialize()
    bad = text[:-1] + ("0" if text[-1] != "0" else "1")
    try:
        game.deserialize_state(bad)
        raise AssertionError("a tampered core was accepted")
    except pyspiel.SpielError:
        pass


def check_resample(players, seed):
    game = pyspiel.load_game("gutenberg_native", {"players": players})
    state = advance_to_hidden_plans(game.new_initial_state(), seed, hidden=players - 1)
    me = state.current_player()
    rng = np.random.default_rng(seed)
    changed = 0
    for _ in range(20):
        sample = state.resample_from_infostate(me, rng.random)
        assert sample.information_state_string(me) == state.information_state_string(me)
        assert sample.legal_actions() == state.legal_actions()
        replay = game.new_initial_state()
        for a in sample.history():
            replay.apply_action(a)
        assert replay.serialize() == sample.serialize()
        changed += sample.history() != state.history()
    assert changed > 0
    return changed


def check_ismcts(game_name, params, steps=4, sims=100):
    game = pyspiel.load_game(game_name, params)
    evaluator = pyspiel.RandomRolloutEvaluator(1, 7)
    bot = pyspiel.ISMCTSBot(7, evaluator, 1.4, sims, -1,
                            pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT, False, False)
    state = game.new_initial_state()
    rng = random.Random(5)
    moves = []
    t = time.perf_counter()
    while len(moves) < steps and not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
            continue
        a = bot.step(state)
        assert a in state.legal_actions()
        moves.append(a)
        state.apply_action(a)
    return moves, time.perf_counter() - t


def check_ismcts_at_hidden_plans(sims=100):
    game = pyspiel.load_game("gutenberg_native", {"players": 3})
    state = advance_to_hidden_plans(game.new_initial_state(), 11, hidden=2)
    evaluator = pyspiel.RandomRolloutEvaluator(1, 3)
    bot = pyspiel.ISMCTSBot(3, evaluator, 1.4, sims, -1,
                            pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT, False, False)
    a = bot.step(state)
    assert a in state.legal_actions()
    return a


PY_ISMCTS = """
import sys; sys.path[:0] = [{root!r}]
import pyspiel, gutenberg_ai
game = pyspiel.load_game("gutenberg", {{"players": 2, "rounds": 1}})
state = game.new_initial_state()
while state.is_chance_node():
    state.apply_action(state.chance_outcomes()[0][0])
bot = pyspiel.ISMCTSBot(1, pyspiel.RandomRolloutEvaluator(1, 1), 1.4, 20, -1,
                        pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT, False, False)
print("action", bot.step(state))
"""


def main():
    for players in (2, 3, 4):
        for seed in (1, 2):
            n = check_parity(players, seed)
            print(f"parity {players} players, seed {seed}: {n} actions, identical")
    for players in (2, 3, 4):
        game = pyspiel.load_game("gutenberg_native", {"players": players})
        t = time.perf_counter()
        pyspiel.random_sim_test(game, 2, serialize=True, verbose=False)
        print(f"random_sim_test gutenberg_native {players} players: passed "
              f"({time.perf_counter() - t:.1f} s)")
    check_api()
    print("illegal action, bad parameters, clone, serialize, pickle, tampered core: ok")
    for players in (2, 3, 4):
        changed = check_resample(players, players)
        print(f"resample_from_infostate {players} players: consistent ({changed}/20 redrawn)")
    moves, secs = check_ismcts("gutenberg_native", {"players": 2})
    print(f"C++ ISMCTSBot on gutenberg_native: {len(moves)} moves {moves} "
          f"(100 simulations each, {secs:.2f} s)")
    print(f"C++ ISMCTSBot at a node with 2 hidden plans (3 players): action "
          f"{check_ismcts_at_hidden_plans()}")
    proc = subprocess.run([sys.executable, "-c", PY_ISMCTS.format(root=ROOT)],
                          capture_output=True, text=True, timeout=300)
    tail = (proc.stdout + proc.stderr).strip().splitlines()[-1:] or [""]
    print(f"C++ ISMCTSBot on the Python game 'gutenberg' (subprocess): exit code "
          f"{proc.returncode}: {tail[0][:200]}")


if __name__ == "__main__":
    main()
