"""The solo game: the score of a bot against the automa, over many seeded games: for
Gutenberg with the rulebook's titles, for Printing Press (whose goal is more points than
the automa) with the automa's score and the bot's win rate.

    python benchmarks/solo.py --games 100 --iterations 300 --jobs 2
    python benchmarks/solo.py --game printing-press --games 100 --iterations 100 --jobs 1
    python benchmarks/solo.py --bot heuristic --games 1000 --by-character

Each game is seeded (chance and bot), so a run is reproducible; an iteration budget
makes it independent of the machine's speed.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


# The bots whose budget is the core's search's: iterations (or seconds) a move.
NATIVE_SEARCH = ("ismcts", "smmcts", "learned")


def play(task):
    import pyspiel
    import gutenberg_ai
    from gutenberg_ai import games
    game_key, bot_name, budget, extra, seed = task
    game = games.get(game_key).load(players=1)
    options = budget if bot_name in NATIVE_SEARCH else {}
    bot = gutenberg_ai.make_bot(bot_name, game, 0, seed=seed, **options, **extra)
    state = game.new_initial_state()
    pyspiel.evaluate_bots(state, [bot], seed)
    core = gutenberg_ai.core_of(state)
    automa = core.automa_score() if hasattr(core, "automa_score") else None
    # Gutenberg's character (None where the game has none, or it was played without).
    character = core.character(0) if hasattr(core, "character") else None
    return core.final_scores()[0], automa, character


def main(argv=None):
    from gutenberg_ai import games
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default=games.DEFAULT_GAME, choices=sorted(games.GAMES))
    ap.add_argument("--bot", default="smmcts")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--iterations", type=int, default=300)
    ap.add_argument("--seconds", type=float, default=None, help="seconds a move instead of iterations")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--options", default="{}", help='JSON: more options of the bot, e.g. {"cutoff": 0}')
    ap.add_argument("--by-character", action="store_true", help="Gutenberg: the mean score by the character played")
    args = ap.parse_args(argv)
    extra = json.loads(args.options)
    import gutenberg_ai
    from gutenberg_ai.common.stats import wilson
    started = time.perf_counter()
    budget = {"seconds": args.seconds} if args.seconds else {"iterations": args.iterations}
    tasks = [(args.game, args.bot, budget, extra, args.seed + g) for g in range(args.games)]
    from gutenberg_ai.common.pool import run_each
    results = run_each(play, [(task,) for task in tasks], args.jobs)
    wall = time.perf_counter() - started
    scores = [s for s, _, _ in results]
    budget = (f"{args.seconds:g} s a move, " if args.seconds else f"{args.iterations} iterations a move, ") \
        if args.bot in NATIVE_SEARCH else ""
    print(f"{games.get(args.game).title}: {args.bot}{' ' + json.dumps(extra) if extra else ''}, "
          f"{budget}{args.games} solo games (seeds {args.seed}-"
          f"{args.seed + args.games - 1}), {args.jobs} jobs, {wall:.0f} s")
    print(f"mean {statistics.mean(scores):.1f}, sd {statistics.pstdev(scores):.1f}, "
          f"min {min(scores)}, median {statistics.median(scores)}, max {max(scores)}\n")
    automa = [a for _, a, _ in results]
    if all(a is not None for a in automa):
        # The rulebook's goal: more points than the automa (a tie is no win).
        wins = sum(s > a for s, a, _ in results)
        lo, hi = wilson(wins, len(results))
        print(f"automa: mean {statistics.mean(automa):.1f}, sd {statistics.pstdev(automa):.1f}; "
              f"the bot wins {wins}/{len(results)} = {wins / len(results):.1%} "
              f"(95% interval {lo:.1%}-{hi:.1%}); mean margin "
              f"{statistics.mean(s - a for s, a, _ in results):+.1f}")
        return
    if args.by_character:
        by = {}
        for score, _, character in results:
            by.setdefault(character, []).append(score)
        print("| character | games | mean |")
        print("| --- | --- | --- |")
        for character, own in sorted(by.items(), key=lambda kv: -statistics.mean(kv[1])):
            print(f"| {character} | {len(own)} | {statistics.mean(own):.1f} |")
        print()
    titles = Counter(gutenberg_ai.solo_title(s) for s in scores)
    print("| title | scores | games |")
    print("| --- | --- | --- |")
    bounds = [lo for lo, _ in gutenberg_ai.games.gutenberg.names.SOLO_TITLES] + [None]
    for (lo, name), hi in zip(gutenberg_ai.games.gutenberg.names.SOLO_TITLES, bounds[1:]):
        span = f"{lo}-{hi - 1}" if hi else f"{lo}+"
        print(f"| {name} | {span} | {titles.get(name, 0)} |")


if __name__ == "__main__":
    main()
