"""Search speed: iterations per second of the native ISMCTS and SM-MCTS at the first plan
of a 2-player game, against OpenSpiel's Python ISMCTS on the same position in the same
run, and two threads against one.

    python benchmarks/search_speed.py              # about a minute
    python benchmarks/search_speed.py --quick

(a) Iterations/s of one search thread, from a fresh tree, for `--seconds`: with random
    rollouts to the end of the game (like for like with OpenSpiel's bot) and with the
    bots' defaults (heuristic priors, heuristic rollouts cut off after 100 decisions and
    evaluated).
(b) OpenSpiel's `ISMCTSBot` (Python) with its random-rollout evaluator, simulations/s on
    the same position, through `resample_from_infostate` (the first plan of a game: the
    first player to plan, so nothing is hidden yet; its cost is the same either way).
(c) Root parallelism: iterations in `--seconds` of wall clock with 2 threads against 1,
    with the process's CPU seconds, so a busy machine shows (one core's worth of CPU for
    two threads means the other core was taken). Trials alternate; the best of each is
    reported.

Prints a Markdown table; the ratios do not depend on the machine's speed, the thread
ratio does depend on having two idle cores.
"""
from __future__ import annotations

import argparse
import os
import random
import resource
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import numpy as np  # noqa: E402

import gutenberg_ai  # noqa: E402
from gutenberg_ai import _core  # noqa: E402


def first_plan(seed: int):
    """A pyspiel state at the first plan decision of a seeded 2-player game (past the
    free actions before the plans)."""
    game = gutenberg_ai.load_game(players=2)
    state = game.new_initial_state()
    rng = random.Random(seed)
    while gutenberg_ai.core_of(state).step_name() != "plan":
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return game, state


def cpu_seconds() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def native_rate(core, algorithm, seconds, threads=1, **options):
    cpu = cpu_seconds()
    r = _core.search(core, algorithm, seconds=seconds, seed=1, threads=threads, **options)
    return r["iterations"] / r["seconds"], r["iterations"], cpu_seconds() - cpu


def openspiel_rate(game, state, seconds):
    from open_spiel.python.algorithms import ismcts
    from open_spiel.python.algorithms.mcts import RandomRolloutEvaluator
    bot = ismcts.ISMCTSBot(game, RandomRolloutEvaluator(1, np.random.RandomState(1)), 2.0, 1,
                           random_state=np.random.RandomState(2))
    bot.reset()
    bot._root_node = bot.create_new_node(state)
    n = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        bot.run_simulation(bot.sample_root_state(state))
        n += 1
    return n / (time.perf_counter() - started), n


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="seconds per measurement")
    ap.add_argument("--trials", type=int, default=3, help="alternating trials of 1 and 2 threads")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args(argv)
    if args.quick:
        args.seconds, args.trials = 1.0, 2
    game, state = first_plan(args.seed)
    core = gutenberg_ai.core_of(state)
    os_rate, os_n = openspiel_rate(game, state, args.seconds)
    rows = []
    for algorithm in ("ismcts", "smmcts"):
        for label, options in (("random rollouts to the end", dict(rollout="random", cutoff=0)),
                               ("bot defaults", {})):
            rate, n, _ = native_rate(core, algorithm, args.seconds, **options)
            rows.append((f"{algorithm}, {label}", rate, rate / os_rate))
    print("| search (1 thread, first plan of a 2-player game) | iterations/s | vs OpenSpiel ISMCTS | bar |")
    print("| --- | --- | --- | --- |")
    print(f"| OpenSpiel Python ISMCTS, random rollouts | {os_rate:,.0f} | 1x | |")
    for label, rate, ratio in rows:
        print(f"| {label} | {rate:,.0f} | {ratio:,.0f}x | >= 50x |")

    print("\n| threads (ismcts, bot defaults) | iterations | CPU s / wall s | ratio | bar |")
    print("| --- | --- | --- | --- | --- |")
    best = {1: (0, 0.0), 2: (0, 0.0)}
    for _ in range(args.trials):
        for threads in (1, 2):
            rate, n, cpu = native_rate(core, "ismcts", args.seconds, threads=threads)
            if n > best[threads][0]:
                best[threads] = (n, cpu / args.seconds)
    for threads in (1, 2):
        n, load = best[threads]
        ratio = n / best[1][0]
        print(f"| {threads} | {n:,} | {load:.2f} | {ratio:.2f}x | {'>= 1.7x' if threads == 2 else ''} |")
    print(f"\n{args.seconds:g} s per measurement, best of {args.trials} trials for threads; "
          f"OpenSpiel: {os_n} simulations; load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
