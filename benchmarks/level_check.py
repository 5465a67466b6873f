"""Are moves a hint calls "level" really level? Over a game's suite positions, how often a
longer search (the reference) tells apart two moves the hint called level, and how often
it does not confirm a move the hint called behind.

    python benchmarks/level_check.py --game gutenberg --iterations 1000 --reference 10000
    python benchmarks/level_check.py --game printing-press --iterations 300 --reference 3000 --positions 9
    python benchmarks/level_check.py --game printing-press --version 4 --iterations 20000 --positions 60

At each position (the suite's first `--positions`), for each way of hinting:

- "before": the hint as it was: one tree, a move's interval its mean +- 1.96 batch-mean
  standard errors, level with the best when the two intervals overlap;
- "now": the hint's rules now (hints.interval_of, hints.level_with: Student's t for the
  batches that tried the move, level by the 95% test of the difference) over HINT_TREES
  trees;
- "gumbel": "now" with root_selection="gumbel";

the hint's search (`--iterations`, seed 0) names the best move and, among its top 5,
the moves level with it and those behind it. The reference is one search of
`--reference` iterations (seed 1, HINT_TREES trees, today's root), judged by the rules of
"now" over all its moves; on a suite whose positions keep references with intervals
(version 4, `--version 4`), the position's first reference instead, as the suite keeps
it (its moves given at least MIN_SHARE of its search). A level pair is *separated* when the reference has an
interval for both and does not call them level; a behind pair is *unconfirmed* when the
reference calls the two level or ranks the move behind above the best. Moves the
reference has no interval for are counted apart ("unknown"). Prints one JSON line per
way of hinting, with the counts.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from gutenberg_ai import games  # noqa: E402
from gutenberg_ai.games import core_of  # noqa: E402
from gutenberg_ai.search import hints  # noqa: E402
from gutenberg_ai.tools.suite import load_suite, position_state, references_of, shipped_versions  # noqa: E402

TOP = 5


def interval_before(mean, se, measure, visits, parts):
    """The hint's interval as it was: mean +- 1.96 standard errors (Wilson where all
    batches agreed), whatever the number of batches."""
    from gutenberg_ai.common.stats import wilson
    if mean is None or se is None or visits < hints.MIN_VISITS:
        return None
    if se == 0:
        return wilson(mean * visits, visits) if measure == "win" else None
    lo, hi = mean - 1.96 * se, mean + 1.96 * se
    return (max(0.0, lo), min(1.0, hi)) if measure == "win" else (lo, hi)


def level_before(best, best_interval, value, interval):
    """Level as it was: the two intervals overlap."""
    if best_interval is None or interval is None:
        return None
    return interval[0] <= best_interval[1] and best_interval[0] <= interval[1]


WAYS = {
    "before": (dict(trees=1), {}, dict(interval=interval_before, level=level_before)),
    "now": (dict(trees=hints.HINT_TREES), {}, {}),
    "gumbel": (dict(trees=hints.HINT_TREES), dict(root_selection="gumbel"), {}),
}


def searched(core, iterations, seed, trees, options):
    g = games.of(core)
    return g.core.search(core, "smmcts", iterations=iterations, seed=seed, threads=1, trees=trees,
                         batches=g.core.BATCHES, returns="score" if core.num_players == 1 else "win", **options)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="gutenberg")
    ap.add_argument("--iterations", type=int, default=1000, help="the hint's search")
    ap.add_argument("--reference", type=int, default=10000, help="the reference search")
    ap.add_argument("--positions", type=int, default=20, help="the suite's first N positions")
    ap.add_argument("--ways", default=",".join(WAYS), help=f"of {', '.join(WAYS)}")
    ap.add_argument("--version", type=int, default=None, help="the suite's version (default: the game's current)")
    args = ap.parse_args(argv)
    ways = args.ways.split(",")
    try:
        args.game = games.get(args.game).key
    except ValueError as e:
        ap.error(f"--{e}")
    if not 1 <= args.iterations <= 10**7 or not 1 <= args.reference <= 10**8 or not 1 <= args.positions <= 10**4:
        ap.error("--iterations 1-10^7, --reference 1-10^8, --positions 1-10^4")
    if not ways or set(ways) - set(WAYS):
        ap.error(f"--ways: some of {', '.join(WAYS)}, comma-separated")
    if args.version is not None and args.version not in shipped_versions(args.game):
        ap.error(f"--version: {args.game} ships suites {', '.join(map(str, shipped_versions(args.game)))}")
    suite = load_suite(args.game, args.version)
    counts = {w: dict(level=0, separated=0, level_unknown=0, behind=0, unconfirmed=0, behind_unknown=0)
              for w in ways}
    for pos in suite["positions"][:args.positions]:
        core = core_of(position_state(suite, pos))
        to_act = core.current_player()
        measure = "fame" if core.num_players == 1 else "win"
        kept = references_of(pos)[0]
        if all("interval" in m for m in kept["moves"]):
            reference = {m["action"]: (m["value"], tuple(m["interval"]) if m["interval"] else None)
                         for m in kept["moves"]}
        else:
            ref = searched(core, args.reference, 1, hints.HINT_TREES, {})
            ref_shown, ref_iv, _ = hints.judged(ref["moves"], measure, to_act)
            reference = {m["action"]: (m[measure][to_act], iv) for m, iv in zip(ref_shown, ref_iv)}
        for w in ways:
            search_args, options, rules = WAYS[w]
            result = searched(core, args.iterations, 0, search_args["trees"], options)
            shown, _, levels = hints.judged(result["moves"][:TOP], measure, to_act, **rules)
            c = counts[w]
            best = shown[0]["action"]
            for m, level in zip(shown[1:], levels[1:]):
                if level is None:
                    continue
                kind = "level" if level else "behind"
                c[kind] += 1
                (vb, ivb), (vm, ivm) = reference.get(best, (None, None)), reference.get(m["action"], (None, None))
                if ivb is None or ivm is None:
                    c[f"{kind}_unknown"] += 1
                    continue
                hi, hi_iv, lo, lo_iv = (vb, ivb, vm, ivm) if vb >= vm else (vm, ivm, vb, ivb)
                told_apart = hints.level_with(hi, hi_iv, lo, lo_iv) is False
                if level and told_apart:
                    c["separated"] += 1
                if not level and (not told_apart or vm > vb):
                    c["unconfirmed"] += 1
        print(json.dumps({"position": pos["id"], **{w: dict(counts[w]) for w in ways}}), file=sys.stderr)
    for w in ways:
        print(json.dumps({"game": args.game, "version": suite["version"], "way": w, "iterations": args.iterations,
                          "reference": args.reference,
                          "positions": min(args.positions, len(suite["positions"])), **counts[w]}))


if __name__ == "__main__":
    main()
