"""Which settings make OpenSpiel's C++ ISMCTSBot and MCTSBot play best on our games:
each setting (the returns the search sees, its exploration constant uct_c) plays the
heuristic player through the arena (seats swapped, the same deals), and the table says
its score against it and its mean points. The bots' defaults (REFERENCE_SETTINGS in
gutenberg_ai/search/bots.py) come from this.

    python benchmarks/reference_bots.py --game gutenberg --games 6 --iterations 500 --out results/ref-g
    python benchmarks/reference_bots.py --game printing-press --games 6 --iterations 500 --out results/ref-pp
"""
import argparse
import functools

from gutenberg_ai.tools import arena
from gutenberg_ai import games
from gutenberg_ai.search.bots import make_bot

SETTINGS = [("openspiel-ismcts-cpp", "win", 2.0), ("openspiel-ismcts-cpp", "margin", 2.0),
            ("openspiel-ismcts-cpp", "margin", 10.0), ("openspiel-ismcts-cpp", "margin", 30.0),
            ("openspiel-ismcts-cpp", "score", 10.0), ("openspiel-ismcts-cpp", "score", 30.0),
            ("openspiel-ismcts-cpp", "score", 100.0),
            ("openspiel-mcts-cpp", "win", 2.0), ("openspiel-mcts-cpp", "margin", 10.0),
            ("openspiel-mcts-cpp", "score", 10.0), ("openspiel-mcts-cpp", "score", 30.0)]


def reference(name, returns, uct_c, game, seat, seed, budget):
    return make_bot(name, game, seat, seed=seed, returns=returns, uct_c=uct_c, **budget)


def label(name, returns, uct_c):
    return f"{name.replace('openspiel-', '').replace('-cpp', '')}-{returns}-c{uct_c:g}"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="gutenberg")
    p.add_argument("--games", type=int, default=6)
    p.add_argument("--iterations", type=int, default=500)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--out", required=True)
    p.add_argument("--only", default="", help="only these settings (labels, comma-separated)")
    args = p.parse_args()
    factories = {label(*s): functools.partial(reference, *s) for s in SETTINGS}
    if args.only:
        factories = {k: v for k, v in factories.items() if k in args.only.split(",")}
    names = list(factories)
    s = arena.ArenaSettings(bots=names + ["heuristic"], game=args.game, games=args.games,
                            rounds=games.get(args.game).rules_module.DEFAULTS["rounds"],
                            iterations=args.iterations, seconds=None, seed=0,
                            pairings=[[n, "heuristic"] for n in names])
    summary = arena.run_arena(s, args.out, args.jobs, factories=factories, plots=False)
    t = arena.tables([r for r in _results(args.out, s)], s, anchor_name="heuristic")
    print("| setting | games | score against the heuristic (95% interval) | mean points (heuristic's) |")
    print("| --- | --- | --- | --- |")
    for n in names:
        h = arena.head_to_head(t, n, "heuristic")
        print(f"| {n} | {h['games']} | {h['a_rate']:.0%} ({h['a_rate_low']:.0%}-{h['a_rate_high']:.0%}) | "
              f"{h['mean_fame_a']:.1f} ({h['mean_fame_b']:.1f}) |")
    print(f"\n{summary['run']['played']} games played, {summary['run']['seconds']} s")


def _results(out, s):
    import os
    from gutenberg_ai.games.records import load_record
    for task in arena.schedule(s):
        path = os.path.join(out, task["path"])
        if os.path.exists(path):
            yield arena.summary_of(load_record(path))


if __name__ == "__main__":
    main()
