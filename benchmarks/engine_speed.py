"""Engine speed: the compiled core alone, and the games through pyspiel against
OpenSpiel's built-in C++ goofspiel measured in the same run.

    python benchmarks/engine_speed.py            # prints a Markdown table
    python benchmarks/engine_speed.py --quick    # a shorter run
    python benchmarks/engine_speed.py --game printing-press   # any game of the table

(a) Full uniformly random games per second (2 players unless --players) inside the core: chance sampled,
    moves drawn uniformly, everything in C without the GIL (`Rules.random_games`); and
    the CPU time of an action there (chance included), the best of several runs: CPU
    time, not the wall clock, so that other work on the machine does not count.
(b) `apply_action` and `clone` through pyspiel, per call, for the native game
    ("gutenberg", "printing_press"), its Python shell if it has one ("gutenberg_py") and
    goofspiel (13 cards, flat joint actions at its simultaneous nodes). Random trajectories are recorded first, then
    replayed with `state.apply_action` (the Python loop included, the same for all), and
    states sampled along them are cloned. Both Gutenberg games replay the same
    trajectories. Each figure is the best of several repeats, interleaved across the
    games so that a slow spell of the machine hits all alike. Ratios are against
    goofspiel, so they do not depend on the machine's speed.
(c) OpenSpiel's C++ ISMCTSBot on the native game at the first decision: simulations per
    second (each resamples the hidden information and plays one random rollout).
"""
from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import pyspiel  # noqa: E402

import gutenberg_ai  # noqa: E402
from gutenberg_ai import games as _games  # noqa: E402
from _common import core_game_length, random_games  # noqa: E402  (benchmarks/_common.py)


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


def ismcts_rate(game, simulations: int) -> float:
    state = game.new_initial_state()
    while state.is_chance_node() or not state.legal_actions():
        state.apply_action(state.chance_outcomes()[0][0])
    bot = pyspiel.ISMCTSBot(1, pyspiel.RandomRolloutEvaluator(1, 1), 1.4, simulations, -1,
                            pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT, False, False)
    t = time.perf_counter()
    bot.step(state)
    return simulations / (time.perf_counter() - t)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--game", default=_games.DEFAULT_GAME, choices=sorted(_games.GAMES),
                        help="the game of the table (default: %(default)s)")
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    n_core = 2000 if args.quick else 20000
    n_games = 5 if args.quick else 30
    repeats = 3 if args.quick else 7
    g = _games.get(args.game)

    native = g.load(players=args.players)
    rules = gutenberg_ai.rules_of(native)
    rules.random_games(200, 1)  # warm up
    t = time.perf_counter()
    rules.random_games(n_core, 12345)
    core_rate = n_core / (time.perf_counter() - t)
    core_cpu = float("inf")
    for _ in range(repeats):
        t = time.process_time()
        rules.random_games(n_core // 2, 12345)
        core_cpu = min(core_cpu, (time.process_time() - t) / (n_core // 2))
    core_actions = core_game_length(rules, 100, 7)

    goof = pyspiel.load_game("goofspiel")
    recorded = random_games(native, n_games, 1)
    workloads = {f"{g.spiel_name} (native C++)": (native, recorded)}
    if g.shell_name:
        workloads[f"{g.shell_name} (Python shell)"] = (
            pyspiel.load_game(g.shell_name, {"players": args.players}), recorded)
    workloads["goofspiel (C++)"] = (goof, random_games(goof, n_games * 10, 2))
    states = {name: sample_states(game, games, 20) for name, (game, games) in workloads.items()}
    best_apply = dict.fromkeys(workloads, float("inf"))
    best_clone = dict.fromkeys(workloads, float("inf"))
    for _ in range(repeats):
        for name, (game, games) in workloads.items():
            best_apply[name] = min(best_apply[name], apply_once(game, games))
            best_clone[name] = min(best_clone[name], clone_once(states[name]))
    apply = {n: best_apply[n] / sum(map(len, workloads[n][1])) for n in workloads}
    clone = {n: best_clone[n] / len(states[n]) for n in workloads}
    base = "goofspiel (C++)"

    print(f"{g.title}: random {args.players}-player games inside the core, one core: "
          f"{core_rate:,.0f} games/s (bar: >= 5,000); {core_cpu / core_actions * 1e9:.0f} ns of CPU "
          f"an action ({core_actions:.0f} actions a game, chance included; best of {repeats})\n")
    print("| through pyspiel | apply_action | ratio to goofspiel | clone | ratio to goofspiel |")
    print("| --- | --- | --- | --- | --- |")
    for name in workloads:
        print(f"| {name} | {apply[name] * 1e6:.2f} us | {apply[name] / apply[base]:.2f}x "
              f"| {clone[name] * 1e6:.2f} us | {clone[name] / clone[base]:.2f}x |")
    print("| bar | | <= 3x | | <= 8x |")
    sims = 300 if args.quick else 2000
    print(f"\nC++ ISMCTSBot on the native game, {args.players} players, first decision: "
          f"{ismcts_rate(native, sims):,.0f} simulations/s ({sims} simulations, one random "
          f"rollout each)")
    mean_len = sum(map(len, recorded)) / len(recorded)
    print(f"\n(random {args.players}-player game: {mean_len:.0f} actions on average, chance "
          f"included; {n_games} games, best of {repeats})")


if __name__ == "__main__":
    main()
