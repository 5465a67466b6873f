"""Speed through pyspiel: the native game "gutenberg_native", the Python-registered
"gutenberg" and OpenSpiel's C++ goofspiel, measured in one process.

    cd prototypes/native && python bench.py            # prints a Markdown table
    python bench.py --quick

The method of benchmarks/engine_speed.py: uniformly random trajectories are recorded
first, then replayed with `state.apply_action` (seconds per call, the Python loop
included, the same for all games) and states sampled along them are cloned with
`state.clone()`; the best of several repeats. The gutenberg trajectories are recorded
once and replayed in both gutenberg games, so both do exactly the same work. Repeats
are interleaved across the games so that a slow spell of the machine hits all alike.
Ratios are against goofspiel (13 cards) measured in the same run.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# The repository (or a snapshot of it made by build.sh): gutenberg_ai, benchmarks.
ROOT = os.path.abspath(os.environ.get("GUTENBERG_ROOT") or os.path.join(HERE, "..", ".."))
sys.path[:0] = [HERE, ROOT, os.path.join(ROOT, "benchmarks")]

import pyspiel  # noqa: E402

import gutenberg_ai  # noqa: E402
import gutenberg_native  # noqa: E402
from engine_speed import record_games, sample_states  # noqa: E402  (the same method)


def apply_once(game, games) -> float:
    t = time.perf_counter()
    for actions in games:
        state = game.new_initial_state()
        apply = state.apply_action
        for a in actions:
            apply(a)
    return time.perf_counter() - t


def clone_once(states) -> float:
    t = time.perf_counter()
    for s in states:
        s.clone()
    return time.perf_counter() - t


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    n_games = 5 if args.quick else 30
    repeats = 3 if args.quick else 7

    native = pyspiel.load_game("gutenberg_native", {"players": 2})
    python = gutenberg_ai.load_game(players=2)
    goof = pyspiel.load_game("goofspiel")
    gut_games = record_games(native, n_games, 1)
    goof_games = record_games(goof, n_games * 10, 2)
    workloads = {
        "gutenberg_native": (native, gut_games),
        "gutenberg (Python shell)": (python, gut_games),
        "goofspiel (C++)": (goof, goof_games),
    }
    states = {name: sample_states(game, games, 20) for name, (game, games) in workloads.items()}
    best_apply = {name: float("inf") for name in workloads}
    best_clone = {name: float("inf") for name in workloads}
    for _ in range(repeats):
        for name, (game, games) in workloads.items():
            best_apply[name] = min(best_apply[name], apply_once(game, games))
            best_clone[name] = min(best_clone[name], clone_once(states[name]))
    per_apply = {n: best_apply[n] / sum(map(len, workloads[n][1])) for n in workloads}
    per_clone = {n: best_clone[n] / len(states[n]) for n in workloads}

    base = "goofspiel (C++)"
    print("| game, through pyspiel | apply_action | ratio to goofspiel | clone | ratio to goofspiel |")
    print("| --- | --- | --- | --- | --- |")
    for name in workloads:
        print(f"| {name} | {per_apply[name] * 1e6:.2f} us | {per_apply[name] / per_apply[base]:.2f}x "
              f"| {per_clone[name] * 1e6:.2f} us | {per_clone[name] / per_clone[base]:.2f}x |")
    mean_len = sum(map(len, gut_games)) / len(gut_games)
    # Search inside C++: OpenSpiel's ISMCTS (random rollouts to the end of the game,
    # a resample of the hidden plans per simulation) at the first decision.
    state = native.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    sims = 300 if args.quick else 2000
    bot = pyspiel.ISMCTSBot(1, pyspiel.RandomRolloutEvaluator(1, 1), 1.4, sims, -1,
                            pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT, False, False)
    t = time.perf_counter()
    bot.step(state)
    ismcts_rate = sims / (time.perf_counter() - t)
    print(f"\nC++ ISMCTSBot on gutenberg_native, 2 players, first decision: "
          f"{ismcts_rate:,.0f} simulations/s ({sims} simulations, one random rollout each)")
    print(f"\n(bars: apply <= 3x, clone <= 8x; random 2-player gutenberg game: {mean_len:.0f} "
          f"actions on average, chance included; {n_games} games, best of {repeats})")


if __name__ == "__main__":
    main()
