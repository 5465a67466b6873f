"""Engine speed: the compiled core alone, and the game through pyspiel against OpenSpiel's
built-in C++ goofspiel measured in the same run.

    python benchmarks/engine_speed.py            # prints a Markdown table
    python benchmarks/engine_speed.py --quick    # a shorter run

(a) Full uniformly random 2-player games per second inside the core: chance sampled,
    moves drawn uniformly, everything in C without the GIL (`Rules.random_games`).
(b) `apply_action` and `clone` through pyspiel, per call: random trajectories are
    recorded first, then replayed (apply) and their states cloned, for gutenberg and for
    goofspiel (13 cards, flat joint actions at its simultaneous nodes). Ratios are
    gutenberg / goofspiel, so they do not depend on the machine's speed.
"""
from __future__ import annotations

import argparse
import random
import time

import pyspiel

import gutenberg_ai


def record_games(game, n: int, seed: int):
    """Action sequences of n uniformly random games."""
    rng = random.Random(seed)
    games = []
    for _ in range(n):
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
        games.append(actions)
    return games


def time_apply(game, games, repeats: int) -> float:
    """Seconds per apply_action, replaying recorded games (the loop itself included,
    the same for both games)."""
    best = float("inf")
    calls = sum(len(g) for g in games)
    for _ in range(repeats):
        t = time.perf_counter()
        for actions in games:
            state = game.new_initial_state()
            apply = state.apply_action
            for a in actions:
                apply(a)
        best = min(best, time.perf_counter() - t)
    return best / calls


def sample_states(game, games, per_game: int):
    states = []
    for actions in games:
        state = game.new_initial_state()
        marks = set(range(0, len(actions), max(1, len(actions) // per_game)))
        for i, a in enumerate(actions):
            if i in marks:
                states.append(state.clone())
            state.apply_action(a)
    return states


def time_clone(states, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        for s in states:
            s.clone()
        best = min(best, time.perf_counter() - t)
    return best / len(states)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    n_core = 2000 if args.quick else 20000
    n_games = 5 if args.quick else 30
    repeats = 3 if args.quick else 5

    gut = gutenberg_ai.load_game(players=2)
    rules = gut.rules
    rules.random_games(200, 1)  # warm up
    t = time.perf_counter()
    rules.random_games(n_core, 12345)
    core_rate = n_core / (time.perf_counter() - t)

    goof = pyspiel.load_game("goofspiel")
    gut_games = record_games(gut, n_games, 1)
    goof_games = record_games(goof, n_games * 10, 2)
    gut_apply = time_apply(gut, gut_games, repeats)
    goof_apply = time_apply(goof, goof_games, repeats)
    # The floor of the Python-shell route: pyspiel calling a Python _apply_action that
    # does nothing (the pybind11 trampoline alone).
    from gutenberg_ai.game import GutenbergState
    real = GutenbergState._apply_action
    GutenbergState._apply_action = lambda self, action: None
    try:
        floor_apply = time_apply(gut, gut_games, repeats)
    finally:
        GutenbergState._apply_action = real
    gut_clone = time_clone(sample_states(gut, gut_games, 20), repeats)
    goof_clone = time_clone(sample_states(goof, goof_games, 20), repeats)
    mean_len = sum(map(len, gut_games)) / len(gut_games)

    print("| measure | gutenberg | goofspiel (C++) | ratio | bar |")
    print("| --- | --- | --- | --- | --- |")
    print(f"| random 2-player games/s inside the core, one core | {core_rate:,.0f} | | | >= 5,000 |")
    print(f"| apply_action through pyspiel | {gut_apply * 1e6:.2f} us | {goof_apply * 1e6:.2f} us "
          f"| {gut_apply / goof_apply:.2f}x | <= 3x |")
    print(f"| (floor: a no-op Python _apply_action through pyspiel) | {floor_apply * 1e6:.2f} us "
          f"| | {floor_apply / goof_apply:.2f}x | |")
    print(f"| clone through pyspiel | {gut_clone * 1e6:.2f} us | {goof_clone * 1e6:.2f} us "
          f"| {gut_clone / goof_clone:.2f}x | <= 8x |")
    print(f"\n(random 2-player game: {mean_len:.0f} actions on average, chance included)")


if __name__ == "__main__":
    main()
