"""Quality per second: a hint's first move at each position of a game's suite, scored
against the suite's references (agreement with the best move, and with any move the
references cannot tell from it; win chance lost a decision).

    python benchmarks/hint_quality.py --game printing-press --version 4 --seconds 2 --threads 1
    python benchmarks/hint_quality.py --game gutenberg --iterations 4000 --seeds 0,1,2
    python benchmarks/hint_quality.py --game lead-letter-printers --options '{"cutoff": 20}'

At each position the hint (`gutenberg_ai.hint`, the search `gutenberg-ai hint` runs, with
`--seconds` or `--iterations`, `--threads`, seed `s + k` at the suite's k-th position)
names its move (hints.HintBot): by default the first of the five a person reads
(hints.HINT_TOP, ranked by their measure), with `--top 1` the search's most searched
move; the suite scores that move as it scores a bot's
(gutenberg_ai.tools.suite.score_bot: on a strong suite, a position whose two references
disagree counts in the win chance lost only; a move the references did not measure is
searched alone, on a strong suite for at most suite.alone_iterations; one they searched little and valued
far below their best, for their whole budget: suite.rechecked). The targets: agreement at least 80% and at
most 0.5 points (0.005) of win chance lost a decision, a 2-second hint on one core.
With a seconds budget the result depends on the machine and its load: give one idle core
per thread. Prints one JSON line per seed, then the mean over the seeds; `--out DIR` keeps
each position's row (suite.score_bot's), to see where a hint loses.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from gutenberg_ai import games  # noqa: E402
from gutenberg_ai.common import limits  # noqa: E402
from gutenberg_ai.search.bots import checked_search_options, native_search  # noqa: E402
from gutenberg_ai.search.hints import HINT_BOTS, HINT_TOP, HintBot  # noqa: E402
from gutenberg_ai.tools.suite import score_bot, shipped_versions  # noqa: E402


def hint_factory(threads: int, trees: int | None, bot: str = "smmcts", top: int = HINT_TOP,
                 search_options: dict | None = None):
    """A bot factory for score_bot whose move is the first of the hint of `bot` (one of
    hints.HINT_BOTS) showing `top` moves, its search given `search_options` (the core's
    SEARCH_OPTIONS) beside the hint's defaults."""
    def make(game, seat, seed, budget, **options):
        return HintBot(game, seat, seed=seed, top=top, bot=bot, seconds=budget.get("seconds"),
                       iterations=budget.get("iterations"), threads=threads, trees=trees,
                       **(search_options or {}))
    make.__name__ = "hint"
    return make


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="gutenberg")
    ap.add_argument("--version", type=int, default=None, help="the suite's version (default: the game's current)")
    group = ap.add_mutually_exclusive_group()
    group.add_argument("--seconds", type=float, default=None, help="the hint's seconds (default 2)")
    group.add_argument("--iterations", type=int, default=None, help="the hint's iterations instead")
    ap.add_argument("--threads", type=int, default=1, help="the hint's threads (default 1)")
    ap.add_argument("--trees", type=int, default=None, help="the hint's trees (default: the hint's own)")
    ap.add_argument("--seeds", default="0", help="comma-separated seeds (default 0)")
    ap.add_argument("--bot", default="smmcts", choices=HINT_BOTS, help="the hint's search (default smmcts, the hint's own)")
    ap.add_argument("--top", type=int, default=HINT_TOP,
                    help=f"the moves the hint shows, its move the first (default {HINT_TOP}, as a person reads it; "
                         "1: the most searched)")
    ap.add_argument("--options", default="{}",
                    help='search options of the hint as JSON (the core\'s SEARCH_OPTIONS), e.g. \'{"cutoff": 20}\'; '
                         'Lead Letter Printers\' "weights" too')
    ap.add_argument("--out", default=None,
                    help="keep each position's row (its move, what it lost) in DIR/seed-S/positions/ID.json; "
                         "the same command goes on from the rows found there")
    args = ap.parse_args(argv)
    try:
        game = games.get(args.game)
        args.game = game.key
        search_options = json.loads(args.options)
        if not isinstance(search_options, dict):
            raise ValueError("--options: a JSON object of search options")
        # a bad option: its error now (the learned bot's own options under the given ones)
        checked_search_options(game.core, native_search(args.bot, search_options, game.core, False)[1], "--options")
        if args.seconds is None and args.iterations is None:
            args.seconds = 2.0
        limits.check_budget(args.seconds, args.iterations)
        limits.check_threads(args.threads)
        if args.trees is not None:
            limits.check_whole(args.trees, "trees", 1, 64)
        limits.check_whole(args.top, "top", 1, 100)
        seeds = [limits.check_seed(int(s)) for s in args.seeds.split(",")]
        if not 1 <= len(seeds) <= 100:
            raise ValueError("seeds: 1 to 100 of them")
    except ValueError as e:
        ap.error(str(e))
    if args.version is not None and args.version not in shipped_versions(args.game):
        ap.error(f"--version: {args.game} ships suites {', '.join(map(str, shipped_versions(args.game)))}")
    budget = {"seconds": args.seconds} if args.seconds is not None else {"iterations": args.iterations}
    results = []
    for seed in seeds:
        r = score_bot("hint", args.game, seed=seed, version=args.version,
                      factory=hint_factory(args.threads, args.trees, args.bot, args.top, search_options),
                      out=os.path.join(args.out, f"seed-{seed}") if args.out else None, **budget)
        results.append(r["overall"])
        print(json.dumps({"game": args.game, "bot": args.bot, "suite_version": r["suite_version"], "seed": seed, **budget,
                          "threads": args.threads, "top": args.top, "options": search_options, **r["overall"],
                          "players": {n: v for n, v in r.get("players", {}).items()}}), flush=True)
    def mean(key):
        values = [r[key] for r in results if r.get(key) is not None]
        return round(sum(values) / len(values), 4) if values else None
    print(json.dumps({"game": args.game, "seeds": seeds, **budget, "threads": args.threads,
                      "agreement": mean("agreement"), "agreement_among_best": mean("agreement_among_best"),
                      "mean_lost": mean("mean_lost"),
                      "mean_score_lost": mean("mean_score_lost")}))


if __name__ == "__main__":
    main()
