"""Strength: 2-player matches between bots, seats swapped, with 95% Wilson intervals.

    python benchmarks/strength.py --games 200 --seconds 0.1 --jobs 2 \
        --pairings smmcts:random,smmcts:heuristic,ismcts:random,ismcts:heuristic
    python benchmarks/strength.py --games 40 --seconds 0.5 --pairings smmcts:openspiel-ismcts

Each pairing A:B plays `--games` games: in game 2k A sits in seat 0 and in game 2k+1 in
seat 1, both games with the chance seed k (`pyspiel.evaluate_bots`), so each deal is
played from both seats. A's score is 1 for a win, 1/2 for a shared win, 0 for a loss
(the game's "win" returns); the interval is Wilson's on that rate. Games run in
`--jobs` processes; with a time budget per move, the figures depend on how busy the
machine is, so jobs should not exceed the idle cores. Prints a Markdown table.
"""
from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

TARGETS = {"random": 0.99, "heuristic": 0.80, "openspiel-ismcts": 0.80}


def wilson(wins: float, n: int, z: float = 1.96):
    """The 95% Wilson score interval of a rate of wins/n."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def play_one(task):
    """One game: (a, b, options, a_seat, chance_seed, game_seed) -> result dict."""
    import pyspiel
    import gutenberg_ai
    from gutenberg_ai.bots import make_bot
    a, b, options, a_seat, chance_seed, bot_seed = task
    game = gutenberg_ai.load_game(players=2)
    labels = [b, b]
    labels[a_seat] = a
    # "name@variant" is bot `name` with the options given for the whole label.
    bots = [make_bot(label.split("@")[0], game, seat, seed=bot_seed + seat,
                     **{**options.get(label.split("@")[0], {}), **options.get(label, {})})
            for seat, label in enumerate(labels)]
    state = game.new_initial_state()
    started = time.perf_counter()
    returns = pyspiel.evaluate_bots(state, bots, chance_seed)   # plays on `state` itself
    return dict(a=a, b=b, a_seat=a_seat, chance_seed=chance_seed, returns=list(returns),
                fame=state.core.final_scores(), seconds=time.perf_counter() - started)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pairings", default="ismcts:random,smmcts:random,ismcts:heuristic,smmcts:heuristic",
                    help="comma-separated A:B pairs (A is the bot measured); a bot label "
                         "name@variant takes the --options given for that label")
    ap.add_argument("--games", type=int, default=200, help="games per pairing (even: seats swapped)")
    ap.add_argument("--seconds", type=float, default=0.1, help="seconds per move of every search bot")
    ap.add_argument("--iterations", type=int, default=None, help="iterations per move instead of seconds")
    ap.add_argument("--options", default="{}", help='JSON: extra options per bot name, e.g. {"smmcts": {"cutoff": 60}}')
    ap.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 1)), help="parallel processes")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", default=None, help="also write every game's result to this file")
    args = ap.parse_args(argv)

    budget = {"iterations": args.iterations} if args.iterations else {"seconds": args.seconds}
    options = {name: dict(budget) for name in ("ismcts", "smmcts", "openspiel-ismcts", "openspiel-mcts")}
    for name, extra in json.loads(args.options).items():
        options.setdefault(name, {}).update(extra)
    pairings = [tuple(p.split(":")) for p in args.pairings.split(",") if p]
    tasks = []
    for a, b in pairings:
        for g in range(args.games):
            tasks.append((a, b, options, g % 2, args.seed + g // 2, args.seed * 7919 + g))
    started = time.perf_counter()
    results = []
    with mp.Pool(args.jobs) as pool:
        for r in pool.imap_unordered(play_one, tasks, chunksize=1):
            results.append(r)
            if len(results) % 20 == 0:
                print(f"{len(results)}/{len(tasks)} games, {time.perf_counter() - started:.0f} s",
                      file=sys.stderr, flush=True)
    wall = time.perf_counter() - started
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(args=vars(args), results=results), f)

    budget_text = f"{args.iterations} iterations" if args.iterations else f"{args.seconds:g} s"
    print(f"| A | B | games | A wins | shared | A losses | A's rate | 95% interval | target | met | mean fame A-B |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for a, b in pairings:
        rs = [r for r in results if r["a"] == a and r["b"] == b]
        wins = sum(1 for r in rs if r["returns"][r["a_seat"]] > 0 and r["returns"][r["a_seat"]] == max(r["returns"])
                   and r["returns"].count(max(r["returns"])) == 1)
        losses = sum(1 for r in rs if r["returns"][r["a_seat"]] < 0)
        shared = len(rs) - wins - losses
        rate = (wins + 0.5 * shared) / len(rs)
        lo, hi = wilson(wins + 0.5 * shared, len(rs))
        target = TARGETS.get(b.split("@")[0]) if "@" not in b else None
        met = "" if target is None else ("yes" if rate >= target else "no")
        fame_a = sum(r["fame"][r["a_seat"]] for r in rs) / len(rs)
        fame_b = sum(r["fame"][1 - r["a_seat"]] for r in rs) / len(rs)
        print(f"| {a} | {b} | {len(rs)} | {wins} | {shared} | {losses} | {rate:.1%} | "
              f"{lo:.1%}-{hi:.1%} | {'' if target is None else f'>= {target:.0%}'} | {met} | "
              f"{fame_a:.1f}-{fame_b:.1f} |")
    print(f"\n{len(results)} games, {budget_text} per move, {args.jobs} jobs, {wall:.0f} s wall clock")


if __name__ == "__main__":
    main()
