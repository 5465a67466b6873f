"""Searches at fixed decisions of a game, for counting instructions per search iteration
with callgrind (repeatable on a loaded machine):

    valgrind --tool=callgrind python benchmarks/search_cost.py 10 --game printing-press
    valgrind --tool=callgrind python benchmarks/search_cost.py 40 --game printing-press --options '{"cutoff": 100, "epsilon": 0.03}'
    valgrind --tool=callgrind python benchmarks/search_cost.py 10 --game lead-letter-printers --players 3

A seeded game of heuristic players (`--players`, default 2) is played and its 20th, 40th,
60th and 80th decisions are searched with `ismcts` (seed 5) for N iterations and the
options given (JSON; default: the game's own). The difference of the "Collected" counts
of two runs, divided by 4 times the difference of their N, is the cost of an iteration;
`callgrind_annotate` on the longer run says where it goes.
"""
import argparse
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from gutenberg_ai import games  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("iterations", type=int, help="iterations a search")
    ap.add_argument("--game", default="printing-press", help="the game (gutenberg_ai.games)")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--options", default="{}", help="search options, JSON (default: the game's own)")
    args = ap.parse_args(argv)
    options = json.loads(args.options)
    g = games.get(args.game)
    rules = g.rules_module.rules_of(g.load(players=args.players))
    state = rules.new_state()
    rng = random.Random(1)
    decision = searched = 0
    while not state.is_terminal() and searched < 4:
        if state.is_chance():
            state.apply(state.sample_chance(rng.randrange(1 << 30)))
            continue
        if decision in (20, 40, 60, 80):
            g.core.search(state, "ismcts", iterations=args.iterations, seed=5, **options)
            searched += 1
        state.apply(g.core.heuristic_move(state, rng.randrange(1 << 30)))
        decision += 1


if __name__ == "__main__":
    main()
