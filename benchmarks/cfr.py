"""CFR-style solvers on the small variant: exploitability against time.

    python benchmarks/cfr.py                 # a few minutes
    python benchmarks/cfr.py --quick
    python benchmarks/cfr.py --game printing-press

The variant is gutenberg_ai.search.cfr's shipped position of the game (Gutenberg's
data/positions/cfr-mini.json: one round of a 2-player game, one initiative marker each;
Printing Press's: the last Select Cards step of a 1-round 2-player game). Exploitability
is OpenSpiel's (`pyspiel.exploitability`: the mean over the players of what a best response gains
against the average policy) in the game's win/loss utility (-1..1). A uniformly random
policy is the reference. "mccfr-outcome-other" is OpenSpiel's outcome sampler re-written
in Python with the average taken at the other player's nodes (gutenberg_ai.search.cfr,
docs/search.md "Why outcome sampling freezes"); the others are OpenSpiel's C++ solvers.
"""
from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import pyspiel  # noqa: E402

from gutenberg_ai.search import cfr  # noqa: E402

RUNS = {"cfr+": 300, "cfr": 300, "mccfr-external": 3000, "mccfr-outcome": 100000,
        "mccfr-outcome-other": 100000}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--game", default="gutenberg", choices=sorted(cfr.VARIANTS))
    args = parser.parse_args()
    game = cfr.variant_game(game=args.game)
    uniform = pyspiel.exploitability(game, pyspiel.UniformRandomPolicy(game))
    print(f"uniform random policy: exploitability {uniform:.4f}\n")
    print("| solver | iterations | seconds | exploitability |")
    print("| --- | --- | --- | --- |")
    for algorithm, iterations in RUNS.items():
        if args.quick:
            iterations //= 10
        result = cfr.solve(game, algorithm, iterations, seed=1, checkpoints=5)
        for it, seconds, value in result.curve:
            print(f"| {algorithm} | {it} | {seconds:.1f} | {value:.4f} |")


if __name__ == "__main__":
    main()
