"""Gumbel root selection against today's root: the game's suite at equal iterations, and
games between the two at equal time per move.

    python benchmarks/gumbel_compare.py --game gutenberg --iterations 300 --games 8 --seconds 0.1
    python benchmarks/gumbel_compare.py --game printing-press --iterations 100 --games 4 --seconds 0.2

Suite: `smmcts` with `root_selection` "tree" and "gumbel", the same seed and iteration
budget, scored by gutenberg_ai.tools.suite.score_bot (agreement with the reference
move, win chance lost). Games: 2 players, "gumbel" in seat 0 in even games and in seat
1 in odd ones, the same deal for each pair (chance seeded by the pair), `--seconds` a
move each; "gumbel"'s score is 1 a win, 1/2 a shared win, with its Wilson interval.
With a time budget the games depend on the machine's load: both bots share it.
Prints JSON lines.
"""
import argparse
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from gutenberg_ai import games  # noqa: E402
from gutenberg_ai.common.stats import wilson  # noqa: E402
from gutenberg_ai.search.bots import make_bot  # noqa: E402
from gutenberg_ai.tools.suite import score_bot  # noqa: E402


def root_factory(root_selection):
    def factory(game, seat, seed, budget, **options):
        return make_bot("smmcts", game, seat, seed=seed, root_selection=root_selection, **budget, **options)
    factory.__name__ = f"smmcts-{root_selection}"
    return factory


def game_score(game, seconds, pair, gumbel_seat):
    """Gumbel's score in one game (1 a win, 1/2 shared, 0 a loss)."""
    bots = [make_bot("smmcts", game, p, seed=pair * 2 + p, seconds=seconds,
                     root_selection="gumbel" if p == gumbel_seat else "tree") for p in range(2)]
    rng = random.Random(pair)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(bots[state.current_player()].step(state))
    returns = state.returns()
    top = max(returns)
    winners = [p for p in range(2) if returns[p] == top]
    return (1.0 / len(winners)) if gumbel_seat in winners else 0.0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="gutenberg")
    ap.add_argument("--iterations", type=int, default=300, help="suite: iterations a move")
    ap.add_argument("--games", type=int, default=8, help="games (even: seats swapped)")
    ap.add_argument("--seconds", type=float, default=0.1, help="games: seconds a move")
    ap.add_argument("--skip-suite", action="store_true")
    args = ap.parse_args(argv)
    try:
        args.game = games.get(args.game).key
    except ValueError as e:
        ap.error(f"--{e}")
    if not 1 <= args.iterations <= 10**7 or not 0 <= args.games <= 10**4 or not 0 < args.seconds <= 600:
        ap.error("--iterations 1-10^7, --games 0-10^4, --seconds in (0, 600]")
    if not args.skip_suite:
        for root in ("tree", "gumbel"):
            r = score_bot(f"smmcts-{root}", args.game, seed=0, factory=root_factory(root),
                          iterations=args.iterations)
            print(json.dumps({"game": args.game, "suite": root, "iterations": args.iterations, **r["overall"]}),
                  flush=True)
    if args.games:
        game = games.get(args.game).load(players=2)
        scores = [game_score(game, args.seconds, g // 2, g % 2) for g in range(args.games)]
        lo, hi = wilson(sum(scores), len(scores))
        print(json.dumps({"game": args.game, "games": len(scores), "seconds": args.seconds,
                          "gumbel_score": sum(scores) / len(scores), "interval": [round(lo, 3), round(hi, 3)]}))


if __name__ == "__main__":
    main()
