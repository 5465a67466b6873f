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
  seeded 2-player game (`--players` 3 or 4: of a game of as many), with the bots' defaults and with random rollouts to the end
  (as `benchmarks/search_speed.py`): CPU per iteration.

Another game (`--game printing-press`, `--game lead-letter-printers`): the search
only, `ismcts` with the game's own defaults (seed 1, `iterations` a run) at each of the
game's shipped positions (gutenberg_ai/games/<game>/data/positions/, those at a
decision): CPU per iteration.

Prints a Markdown table: each checkout's figure and the ratio this/base (below 1: this
checkout is faster).
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def child(args):
    """One measurement in this process (the checkout first on sys.path); prints JSON."""
    import gutenberg_ai
    from _common import core_game_length, first_plan   # benchmarks/_common.py of this checkout
    try:
        from gutenberg_ai.games.gutenberg import _core
    except ImportError:          # checkouts from before the games' folders
        from gutenberg_ai import _core
    rules = gutenberg_ai.rules_of(gutenberg_ai.load_game(players=2))
    kind = args.measure
    out = {"package": os.path.dirname(gutenberg_ai.__file__)}
    if kind.startswith("position:"):
        from gutenberg_ai.games import core_of
        from gutenberg_ai.games.positionfile import load_position
        g, pos = load_position(kind.split(":", 1)[1], game=args.game)
        core = core_of(pos.state)
        t = time.process_time()
        r = g.core.search(core, "ismcts", iterations=args.iterations, seed=1)
        out["cpu"] = (time.process_time() - t) / r["iterations"]
    elif kind == "random":
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
        state = first_plan(gutenberg_ai.load_game(players=args.players), gutenberg_ai.core_of, 1)
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


def position_measures(game):
    """A game's shipped positions at a decision, as MEASURES' rows (this checkout's files)."""
    from gutenberg_ai import games
    from gutenberg_ai.games import core_of
    from gutenberg_ai.games.positionfile import load_position
    folder = os.path.join(os.path.dirname(games.get(game).rules_module.__file__), "data", "positions")
    rows = []
    for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
        core = core_of(load_position(path, game=game)[1].state)
        if not (core.is_chance() or core.is_terminal()):
            rows.append((f"ismcts, game defaults, {os.path.basename(path)}", f"position:{path}", "iteration"))
    return rows


def run(checkout, measure, args):
    env = dict(os.environ, PYTHONPATH=checkout)
    cmd = [sys.executable, os.path.abspath(__file__), "--child", "--measure", measure, "--game", args.game,
           "--games", str(args.games), "--iterations", str(args.iterations), "--players", str(args.players)]
    p = subprocess.run(cmd, cwd=checkout, env=env, capture_output=True, text=True, check=True)
    out = json.loads(p.stdout.strip().splitlines()[-1])
    if os.path.realpath(out["package"]) != os.path.realpath(os.path.join(checkout, "gutenberg_ai")):
        raise SystemExit(f"{checkout}: imported gutenberg_ai from {out['package']}")
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", help="the other checkout (built)")
    ap.add_argument("--game", default="gutenberg", help="another game: its search at its shipped positions")
    ap.add_argument("--repeats", type=int, default=5, help="alternating runs per checkout (best kept)")
    ap.add_argument("--games", type=int, default=4000, help="random games per run (a tenth as many heuristic games)")
    ap.add_argument("--iterations", type=int, default=20000, help="search iterations per run")
    ap.add_argument("--players", type=int, default=2, help="Gutenberg's searches: the first plan of a game of 2-4 players")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--measure", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        return child(args)
    if not args.base:
        ap.error("--base: the checkout to compare with")
    if args.quick:
        args.repeats, args.games, args.iterations = 2, 1000, 5000
    if not 1 <= args.repeats <= 100 or not 1 <= args.iterations <= 10**7 or not 10 <= args.games <= 10**6:
        ap.error("--repeats 1-100, --iterations 1-10^7, --games 10-10^6")
    if not 2 <= args.players <= 4:
        ap.error("--players: 2, 3 or 4")
    measures = MEASURES
    if args.game != "gutenberg":
        sys.path.insert(0, HERE)
        measures = position_measures(args.game)
    checkouts = {"base": os.path.abspath(args.base), "this": HERE}
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
        rate = (lambda x: f" ({1 / x:,.0f}/s)") if unit == "iteration" else (lambda x: "")
        print(f"| {label}, per {unit} | {a * 1e6:,.1f} us{rate(a)} | {b * 1e6:,.1f} us{rate(b)} | {b / a:.2f}x |")
        if measure == "random":
            na, nb = best[(label, "base")]["actions"], best[(label, "this")]["actions"]
            print(f"| random games, per action ({na:.0f} and {nb:.0f} actions a game) | "
                  f"{a / na * 1e9:,.0f} ns | {b / nb * 1e9:,.0f} ns | {(b / nb) / (a / na):.2f}x |")
    games_run = f"{args.games} random and {args.games // 10} heuristic games, " if args.game == "gutenberg" else ""
    at = f" at the first plan of a {args.players}-player game" if args.game == "gutenberg" else ""
    print(f"\n{args.game}; base: {checkouts['base']}; this: {checkouts['this']}; {games_run}"
          f"{args.iterations} search iterations a run{at}; load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
