"""Speed of this checkout against another one (a rule change before and after), in CPU
time, so that a machine shared with other work does not decide the result.

    python benchmarks/ab_speed.py --base /path/to/other/checkout     # a few minutes
    python benchmarks/ab_speed.py --base ../main --repeats 3 --quick

Each measurement runs in a fresh process per checkout (the other checkout's package
first on the path: it must be built, `python setup.py build_ext --inplace` there), the
two checkouts alternating, `--repeats` times; the best (least CPU) of each is kept.
CPU seconds of the process, not wall time: a busy machine slows the wall clock of a
measurement but hardly its CPU time. Measured, in one core without the GIL:

- random games: full 2-player games of uniformly random moves (`Rules.random_games`),
  CPU per game and per action (the mean length of a random game is counted too);
- heuristic games: full 2-player games of the heuristic player (`policy_games`);
- search: `iterations` iterations of ismcts and smmcts at the first plan decision of a
  seeded 2-player game, with the bots' defaults and with random rollouts to the end
  (as `benchmarks/search_speed.py`): CPU per iteration.

With `--game` another game (its key, e.g. lead-letter-printers) is measured instead:
`iterations` iterations of `smmcts` at the search defaults of each checkout (as a hint
searches), at each of the game's shipped positions (its data/positions/*.json, each
checkout's own copy): CPU per iteration, and iterations per CPU second.

Prints a Markdown table: each checkout's figure and the ratio this/base (below 1: this
checkout is faster).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def positions_folder(checkout, game):
    """The folder of `game`'s shipped positions in `checkout` (its module's data/positions)."""
    return os.path.join(checkout, "gutenberg_ai", "games", game.replace("-", "_"), "data", "positions")


def child_position(args):
    """CPU per iteration of smmcts at the search defaults, at a shipped position."""
    import gutenberg_ai
    from gutenberg_ai.games.positionfile import load_position
    g, position = load_position(os.path.join(positions_folder(os.getcwd(), args.game),
                                             args.measure.split(":", 1)[1]))
    g.core.search(position.state, "smmcts", iterations=20, seed=1)    # warm up
    t = time.process_time()
    r = g.core.search(position.state, "smmcts", iterations=args.iterations, seed=1)
    print(json.dumps({"package": os.path.dirname(gutenberg_ai.__file__),
                      "cpu": (time.process_time() - t) / r["iterations"]}))


def child(args):
    """One measurement in this process (the checkout first on sys.path); prints JSON."""
    if args.measure.startswith("position:"):
        return child_position(args)
    import gutenberg_ai
    from _common import core_game_length, first_plan   # benchmarks/_common.py of this checkout
    try:
        from gutenberg_ai.games.gutenberg import _core
    except ImportError:          # checkouts from before the games' folders
        from gutenberg_ai import _core
    rules = gutenberg_ai.rules_of(gutenberg_ai.load_game(players=2))
    kind = args.measure
    out = {"package": os.path.dirname(gutenberg_ai.__file__)}
    if kind == "random":
        rules.random_games(50, 1)   # warm up
        t = time.process_time()
        rules.random_games(args.games, 12345)
        out["cpu"] = (time.process_time() - t) / args.games
        out["actions"] = core_game_length(rules, 50, 7)
    elif kind == "heuristic":
        t = time.process_time()
        _core.policy_games(rules, ["heuristic", "heuristic"], args.games // 10, seed=3)
        out["cpu"] = (time.process_time() - t) / (args.games // 10)
    else:
        algorithm, options = kind.split(":", 1)
        options = json.loads(options)
        state = first_plan(gutenberg_ai.load_game(players=2), gutenberg_ai.core_of, 1)
        core = gutenberg_ai.core_of(state)
        t = time.process_time()
        r = _core.search(core, algorithm, iterations=args.iterations, seed=1, **options)
        out["cpu"] = (time.process_time() - t) / r["iterations"]
    print(json.dumps(out))


MEASURES = [
    ("random games", "random", "game"),
    ("heuristic games", "heuristic", "game"),
    ("ismcts, bot defaults", 'ismcts:{}', "iteration"),
    ("ismcts, random rollouts to the end", 'ismcts:{"rollout": "random", "cutoff": 0}', "iteration"),
    ("smmcts, bot defaults", 'smmcts:{}', "iteration"),
    ("smmcts, random rollouts to the end", 'smmcts:{"rollout": "random", "cutoff": 0}', "iteration"),
]


def run(checkout, measure, args):
    env = dict(os.environ, PYTHONPATH=checkout)
    cmd = [sys.executable, os.path.abspath(__file__), "--child", "--measure", measure,
           "--games", str(args.games), "--iterations", str(args.iterations), "--game", args.game]
    p = subprocess.run(cmd, cwd=checkout, env=env, capture_output=True, text=True, check=True)
    out = json.loads(p.stdout.strip().splitlines()[-1])
    if os.path.realpath(out["package"]) != os.path.realpath(os.path.join(checkout, "gutenberg_ai")):
        raise SystemExit(f"{checkout}: imported gutenberg_ai from {out['package']}")
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", help="the other checkout (built)")
    ap.add_argument("--repeats", type=int, default=5, help="alternating runs per checkout (best kept)")
    ap.add_argument("--games", type=int, default=4000, help="random games per run (a tenth as many heuristic games)")
    ap.add_argument("--iterations", type=int, help="search iterations per run (default 20000; --game: 2000)")
    ap.add_argument("--game", default="gutenberg",
                    help="another game: smmcts at its shipped positions (default iterations 2000)")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--measure", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        return child(args)
    if not args.base:
        ap.error("--base: the checkout to compare with")
    iterations_given = args.iterations is not None
    if args.iterations is None:
        args.iterations = 20000 if args.game == "gutenberg" else 2000
    if args.quick:
        args.repeats, args.games = 2, 1000
        args.iterations = args.iterations if iterations_given else args.iterations // 4
    checkouts = {"base": os.path.abspath(args.base), "this": HERE}
    measures = MEASURES if args.game == "gutenberg" else [
        (f"smmcts, search defaults, {name}", f"position:{name}", "iteration")
        for name in sorted(f for f in os.listdir(positions_folder(HERE, args.game)) if f.endswith(".json"))]
    best = {}
    for _ in range(args.repeats):
        for label, measure, _unit in measures:
            for name, path in checkouts.items():
                out = run(path, measure, args)
                key = (label, name)
                if key not in best or out["cpu"] < best[key]["cpu"]:
                    best[key] = out
    print(f"| CPU time (best of {args.repeats}) | base | this | this/base |")
    print("| --- | --- | --- | --- |")
    for label, measure, unit in measures:
        a, b = best[(label, "base")]["cpu"], best[(label, "this")]["cpu"]
        print(f"| {label}, per {unit} | {a * 1e6:,.1f} us | {b * 1e6:,.1f} us | {b / a:.2f}x |")
        if measure.startswith("position:"):
            print(f"| {label}, iterations per CPU second | {1 / a:,.0f} | {1 / b:,.0f} | {a / b:.2f}x faster |")
        if measure == "random":
            na, nb = best[(label, "base")]["actions"], best[(label, "this")]["actions"]
            print(f"| random games, per action ({na:.0f} and {nb:.0f} actions a game) | "
                  f"{a / na * 1e9:,.0f} ns | {b / nb * 1e9:,.0f} ns | {(b / nb) / (a / na):.2f}x |")
    games = f"{args.games} random and {args.games // 10} heuristic games, " if args.game == "gutenberg" else ""
    print(f"\nbase: {checkouts['base']}; this: {checkouts['this']}; {games}{args.iterations} search "
          f"iterations a run; load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
