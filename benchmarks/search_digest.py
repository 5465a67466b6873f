"""A digest of what the search does at fixed decisions, to check that a change meant to
keep behaviour (a refactor, a speed-up) keeps it: run it on both checkouts and compare.

    python benchmarks/search_digest.py                 # prints one JSON line per decision
    python benchmarks/search_digest.py | sha256sum     # the same digest: the same search
    python benchmarks/search_digest.py --game printing-press
    python benchmarks/search_digest.py --game lead-letter-printers --param factory_tops=false

For 2 and 3 players, `ismcts` and `smmcts`: a seeded random game is played and every
30th decision (the first included, 4 a game) is searched with 300 iterations and seed 5;
each line gives the players, the algorithm, the decision's number, the visits of the
five most visited moves and the iterations cut short (mismatches). Another game than
Gutenberg (`--game`) is searched with `ismcts` only (without a simultaneous step its
`smmcts` is the same search) and with its own search defaults. `--param NAME=VALUE`
(repeatable) gives the game a parameter besides the players, e.g. a rule of the game
that a checkout from before it was added played without (Lead Letter Printers's
factory_tops=false: the factory piles drawn as from a face-down deck).
"""
import argparse
import json
import random
import sys
import os

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import gutenberg_ai  # noqa: E402
from gutenberg_ai import games  # noqa: E402


def parse_param(text):
    """(name, value) of NAME=VALUE, the value read as JSON (false, 3, "basic"), or as
    text where it is not JSON (basic)."""
    name, _, value = text.partition("=")
    try:
        return name, json.loads(value)
    except json.JSONDecodeError:
        return name, value


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="gutenberg", help="the game (gutenberg_ai.games)")
    ap.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                    help="a game parameter, its value as JSON (false, 3) or text")
    args = ap.parse_args(argv)
    params = dict(parse_param(p) for p in args.param)
    g = games.get(args.game)
    algorithms = ("ismcts", "smmcts") if args.game == "gutenberg" else ("ismcts",)
    for players in (2, 3):
        for algorithm in algorithms:
            rules = gutenberg_ai.rules_of(g.load(**params, players=players))
            state = rules.new_state()
            rng = random.Random(players)
            decision = 0
            while not state.is_terminal() and decision < 120:
                if state.is_chance():
                    state.apply(state.sample_chance(rng.randrange(1 << 30)))
                    continue
                if decision % 30 == 0:
                    result = g.core.search(state, algorithm, iterations=300, seed=5)
                    print(json.dumps([players, algorithm, decision,
                                      [(m["action"], m["visits"]) for m in result["moves"][:5]],
                                      result["mismatches"]]))
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
                decision += 1


if __name__ == "__main__":
    main()
