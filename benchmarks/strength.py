"""Strength: 2-player matches between bots against the targets of the search issue,
played by the arena (`gutenberg-ai arena --pairings`, gutenberg_ai/tools/arena.py).

    python benchmarks/strength.py --games 200 --seconds 0.1 --jobs 2 --out results/strength \\
        --pairings smmcts:random,smmcts:heuristic,ismcts:random,ismcts:heuristic
    python benchmarks/strength.py --games 40 --seconds 0.5 --pairings smmcts:openspiel-ismcts
    python benchmarks/strength.py --game printing-press --games 100 --seconds 0.5 --jobs 1 \
        --pairings ismcts:openspiel-ismcts-cpp

This is the arena with only the pairings named (A is the bot measured): the schedule,
seat rotation, seeds, parallel games, records, resuming and the Wilson intervals are
the arena's. Each pairing A:B plays `--games` games: A sits in seat 0 in the even games
and in seat 1 in the odd ones, both with the same deal. A's score is 1 for a win, 1/2
for a shared win, 0 for a loss. This script only adds the targets column. With a time
budget per move the figures depend on how busy the machine is, so jobs should not
exceed the idle cores. Prints a Markdown table.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from gutenberg_ai.tools import arena  # noqa: E402
from gutenberg_ai import games

TARGETS = {"random": 0.99, "heuristic": 0.80, "openspiel-ismcts": 0.80}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="gutenberg", help="the game of the table (gutenberg_ai.games)")
    ap.add_argument("--variant", default="", help="Printing Press: basic or advanced")
    ap.add_argument("--pairings", default="ismcts:random,smmcts:random,ismcts:heuristic,smmcts:heuristic",
                    help="comma-separated A:B pairs (A is the bot measured)")
    ap.add_argument("--games", type=int, default=200, help="games per pairing (even: seats swapped)")
    ap.add_argument("--seconds", type=float, default=0.1, help="seconds per move of every search bot")
    ap.add_argument("--iterations", type=int, default=None, help="iterations per move instead of seconds")
    ap.add_argument("--options", default="{}", help='JSON: extra options per bot name, e.g. {"smmcts": {"cutoff": 60}}')
    ap.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 1)), help="parallel processes")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=None, help="the arena's directory (records and tables; default: a temporary one)")
    args = ap.parse_args(argv)

    pairings = [p.split(":") for p in args.pairings.split(",") if p]
    bots = list(dict.fromkeys(name for pair in pairings for name in pair))
    # Another game than Gutenberg plays its own full game (the arena's rounds are Gutenberg's).
    game = {"game": args.game, "rounds": games.get(args.game).rules_module.DEFAULTS["rounds"]} \
        if args.game != "gutenberg" else {}
    if args.variant:
        game["variant"] = args.variant
    settings = arena.ArenaSettings(bots=bots, players=2, games=args.games,
                                   seconds=None if args.iterations else args.seconds, iterations=args.iterations,
                                   seed=args.seed, options=json.loads(args.options), pairings=pairings, **game)
    out = args.out or tempfile.mkdtemp(prefix="strength-")
    summary = arena.run_arena(settings, out, jobs=args.jobs)

    print("| A | B | games | A wins | shared | A losses | A's rate | 95% interval | target | met | mean fame A-B |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for a, b in pairings:
        p = arena.head_to_head(summary, a, b)
        target = TARGETS.get(b)
        met = "" if target is None else ("yes" if p["a_rate"] >= target else "no")
        print(f"| {a} | {b} | {p['games']} | {p['a_wins']} | {p['shared']} | {p['a_losses']} | {p['a_rate']:.1%} | "
              f"{p['a_rate_low']:.1%}-{p['a_rate_high']:.1%} | {'' if target is None else f'>= {target:.0%}'} | "
              f"{met} | {p['mean_fame_a']:.1f}-{p['mean_fame_b']:.1f} |")
    print(f"\n{summary['games']} games, {arena.budget_text(summary['settings'])} per move, {args.jobs} jobs, "
          f"{summary['run']['seconds']:.0f} s wall clock; records and tables in {out}")
    print(f"The same games: {arena.command_line(summary['settings'], out, args.jobs)}")


if __name__ == "__main__":
    main()
