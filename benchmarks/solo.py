"""The solo game: the score of a bot against the automa, over many seeded games, with
the rulebook's titles.

    python benchmarks/solo.py --games 100 --iterations 300 --jobs 2

Each game is seeded (chance and bot), so a run is reproducible; an iteration budget
makes it independent of the machine's speed.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import statistics
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def play(task):
    import pyspiel
    import gutenberg_ai
    bot_name, iterations, extra, seed = task
    game = gutenberg_ai.load_game(players=1, automa=1)
    options = {"iterations": iterations} if bot_name in ("ismcts", "smmcts") else {}
    bot = gutenberg_ai.make_bot(bot_name, game, 0, seed=seed, **options, **extra)
    state = game.new_initial_state()
    pyspiel.evaluate_bots(state, [bot], seed)
    return gutenberg_ai.core_of(state).final_scores()[0]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bot", default="smmcts")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--iterations", type=int, default=300)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--options", default="{}", help='JSON: more options of the bot, e.g. {"cutoff": 0}')
    args = ap.parse_args(argv)
    extra = json.loads(args.options)
    import gutenberg_ai
    started = time.perf_counter()
    tasks = [(args.bot, args.iterations, extra, args.seed + g) for g in range(args.games)]
    with mp.get_context("spawn").Pool(args.jobs) as pool:
        scores = pool.map(play, tasks, chunksize=1)
    wall = time.perf_counter() - started
    titles = Counter(gutenberg_ai.solo_title(s) for s in scores)
    print(f"{args.bot}{' ' + json.dumps(extra) if extra else ''}, {args.iterations} iterations a move, "
          f"{args.games} solo games, {wall:.0f} s")
    print(f"mean {statistics.mean(scores):.1f}, sd {statistics.pstdev(scores):.1f}, "
          f"min {min(scores)}, median {statistics.median(scores)}, max {max(scores)}\n")
    print("| title | scores | games |")
    print("| --- | --- | --- |")
    bounds = [lo for lo, _ in gutenberg_ai.names.SOLO_TITLES] + [None]
    for (lo, name), hi in zip(gutenberg_ai.names.SOLO_TITLES, bounds[1:]):
        span = f"{lo}-{hi - 1}" if hi else f"{lo}+"
        print(f"| {name} | {span} | {titles.get(name, 0)} |")


if __name__ == "__main__":
    main()
