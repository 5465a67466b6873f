"""What the network's rollouts cost, robust to a machine whose speed moves: at the
positions of benchmarks/learned.py, the best of `--repeats` CPU times of a search with
the network in the rollouts (`rollout="learned"`) and of the hand-written search, in
turn in one process; the ratio is of those best times.

    python benchmarks/rollout_cost.py --game gutenberg --players 1
    python benchmarks/rollout_cost.py --game gutenberg --code /path/to/other/checkout

`--code` times another checkout's build (its gutenberg_ai, built in place) with this
script: two builds run one after the other compare, where learned.py's medians moved
with the machine's speed within a run.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="gutenberg", choices=("gutenberg", "printing-press", "lead-letter-printers"))
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--iterations", type=int, default=1500)
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--code", default=HERE, help="the checkout whose build is timed (default: this one)")
    args = p.parse_args()
    sys.path.insert(0, os.path.abspath(args.code))
    sys.path.insert(1, HERE)
    from benchmarks.learned import positions
    from gutenberg_ai import games
    import gutenberg_ai
    core = games.get(args.game).core
    states = positions(args.game, args.seed, players=args.players)
    searches = {"hand-written": {}, "network rollouts": dict(model="default", rollout="learned")}
    best = {name: [float("inf")] * len(states) for name in searches}
    for _ in range(args.repeats):
        for i, c in enumerate(states):
            for name, options in searches.items():
                t = time.process_time()
                core.search(c, iterations=args.iterations, seed=3, **options)
                best[name][i] = min(best[name][i], time.process_time() - t)
    hand, net = sum(best["hand-written"]), sum(best["network rollouts"])
    n = args.iterations * len(states)
    print(f"{args.game}, {args.players} players, {len(states)} positions, build {os.path.normpath(os.path.dirname(gutenberg_ai.__file__))}:"
          f" hand-written {hand / n * 1e6:.1f} µs an iteration, network rollouts {net / n * 1e6:.1f} µs"
          f" ({hand / net:.2f}x the hand-written search's speed)")


if __name__ == "__main__":
    main()
