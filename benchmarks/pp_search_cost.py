"""Searches at fixed decisions of Printing Press, for counting instructions per search
iteration with callgrind (repeatable on a loaded machine):

    valgrind --tool=callgrind python benchmarks/pp_search_cost.py 10
    valgrind --tool=callgrind python benchmarks/pp_search_cost.py 40 '{"cutoff": 100, "epsilon": 0.03}'

A seeded 2-player game of heuristic players is played and its 20th, 40th, 60th and 80th
decisions are searched with `ismcts` (seed 5) for N iterations and the options given
(JSON; default: the game's own). The difference of the "Collected" counts of two runs,
divided by 4 times the difference of their N, is the cost of an iteration.
"""
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from gutenberg_ai import games  # noqa: E402


def main(argv):
    iterations = int(argv[0])
    options = json.loads(argv[1]) if len(argv) > 1 else {}
    g = games.get("printing-press")
    rules = g.rules_module.rules_of(g.load(players=2))
    state = rules.new_state()
    rng = random.Random(1)
    decision = searched = 0
    while not state.is_terminal() and searched < 4:
        if state.is_chance():
            state.apply(state.sample_chance(rng.randrange(1 << 30)))
            continue
        if decision in (20, 40, 60, 80):
            g.core.search(state, "ismcts", iterations=iterations, seed=5, **options)
            searched += 1
        state.apply(g.core.heuristic_move(state, rng.randrange(1 << 30)))
        decision += 1


if __name__ == "__main__":
    main(sys.argv[1:])
