"""Instructions per search iteration of a game's own search, counted by valgrind's
callgrind (the same count on a loaded machine as on an idle one), and where they go.

    python benchmarks/search_cost.py --game printing-press
    python benchmarks/search_cost.py --game printing-press --base /path/to/checkout
    python benchmarks/search_cost.py --game printing-press --options '{"cutoff": 100}'
    python benchmarks/search_cost.py --game printing-press --profile 25

A seeded game of heuristic players (`--players`, default 2) is played and its 20th, 40th, 60th and 80th
decisions are searched with `ismcts` (seed 5) for `--iterations` iterations each, with
the options given (JSON; default: the game's own). Only the search's `iterate` is counted
(--toggle-collect), so Python's start-up, the game's set-up and the tree's are left out;
the count is divided by the iterations run. `--base` counts another built checkout too
(its package first on the path) and prints the ratio. `--profile K` prints the K
functions of this checkout's core with the most instructions, inclusive of what they
call (callgrind_annotate), for the breakdown of an iteration.

Needs valgrind.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DECISIONS = (20, 40, 60, 80)


def child(args):
    """The searches, in this process (the checkout first on sys.path); prints JSON."""
    import random
    from gutenberg_ai import games
    g = games.get(args.game)
    rules = g.rules_module.rules_of(g.load(players=args.players))
    state = rules.new_state()
    rng = random.Random(1)
    decision = iterations = 0
    options = json.loads(args.options)
    while not state.is_terminal() and decision <= DECISIONS[-1]:
        if state.is_chance():
            state.apply(state.sample_chance(rng.randrange(1 << 30)))
            continue
        if decision in DECISIONS:
            r = g.core.search(state, "ismcts", iterations=args.iterations, seed=5, **options)
            iterations += r["iterations"]
        state.apply(g.core.heuristic_move(state, rng.randrange(1 << 30)))
        decision += 1
    print(json.dumps({"package": os.path.dirname(games.__file__), "iterations": iterations}))


def count(checkout, args, profile=0):
    """(instructions per iteration, the top `profile` lines of callgrind_annotate)."""
    env = dict(os.environ, PYTHONPATH=checkout, OPENBLAS_NUM_THREADS="1")
    with tempfile.TemporaryDirectory() as tmp:
        out_file = os.path.join(tmp, "out")
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out_file}",
               "--toggle-collect=*_core_iterate*", sys.executable, os.path.abspath(__file__),
               "--child", "--game", args.game, "--players", str(args.players), "--iterations", str(args.iterations),
               "--options", args.options]
        p = subprocess.run(cmd, cwd=checkout, env=env, capture_output=True, text=True)
        if p.returncode != 0:
            raise SystemExit(f"{checkout}: valgrind failed:\n{p.stderr[-2000:]}")
        lines = []
        if profile:
            a = subprocess.run(["callgrind_annotate", "--inclusive=yes", out_file],
                               capture_output=True, text=True, check=True).stdout
            lines = [line for line in a.splitlines() if re.search(r"\.cpp:__pyx_f_\w*_core_", line)][:profile]
    out = json.loads(p.stdout.strip().splitlines()[-1])
    if os.path.realpath(out["package"]) != os.path.realpath(os.path.join(checkout, "gutenberg_ai", "games")):
        raise SystemExit(f"{checkout}: imported gutenberg_ai from {out['package']}")
    m = re.search(r"Collected : (\d+)", p.stderr)
    if not m or int(m.group(1)) == 0 or out["iterations"] == 0:
        raise SystemExit(f"{checkout}: nothing counted in the search's iterate")
    return int(m.group(1)) / out["iterations"], lines


def short(line):
    """An annotate line as 'instructions (share) function', the function's name unmangled
    enough to read."""
    m = re.match(r"\s*([\d,]+) \(\s*([\d.]+)%\)\s+\S*?:__pyx_f_\w*?_core_(\w+)", line)
    return f"{m.group(1):>16} {m.group(2):>6}%  {m.group(3)}" if m else line


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="printing-press", help="the game's key (games table)")
    ap.add_argument("--players", type=int, default=2, help="players of the seeded game (default 2)")
    ap.add_argument("--iterations", type=int, default=50, help="iterations per searched decision")
    ap.add_argument("--options", default="{}", help="search options, JSON (default: the game's)")
    ap.add_argument("--base", help="another checkout (built) to compare with")
    ap.add_argument("--profile", type=int, default=0, metavar="K",
                    help="print the K functions with the most instructions (inclusive)")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if not 1 <= args.iterations <= 100_000:
        ap.error("--iterations: from 1 to 100000")
    if not 1 <= args.players <= 4:
        ap.error("--players: from 1 to 4")
    try:
        if not isinstance(json.loads(args.options), dict):
            raise ValueError
    except ValueError:
        ap.error("--options: a JSON object of search options")
    if args.child:
        return child(args)
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian/Ubuntu: apt-get install valgrind)")
    checkouts = {"this": HERE} if not args.base else {"base": os.path.abspath(args.base), "this": HERE}
    per = {}
    for name, path in checkouts.items():
        per[name], lines = count(path, args, args.profile if name == "this" else 0)
        print(f"{name}: {per[name]:,.0f} instructions an iteration ({path})")
        for line in lines:
            print("  " + short(line))
    if args.base:
        print(f"this/base: {per['this'] / per['base']:.3f}x")
    print(f"{args.game}, {args.players} players, decisions {DECISIONS} of a seeded heuristic game, ismcts "
          f"{args.iterations} iterations each, options {args.options}")


if __name__ == "__main__":
    main()
