"""Instructions executed by the compiled core, counted by valgrind's callgrind: the same
count on a busy machine as on an idle one, so a before/after comparison needs no quiet
machine (the time an instruction takes is not counted: see ab_speed.py for CPU time).

    python benchmarks/instructions.py                          # this checkout
    python benchmarks/instructions.py --base /path/to/checkout # and another one (built)

Each workload runs in a fresh `valgrind --tool=callgrind` process per checkout (its
package first on the path), counting only inside the core's function named below
(--toggle-collect), so Python's start-up and the set-up are left out:

- random games: `Rules.random_games`, uniformly random 2-player games in the core;
  per game and per action (the mean length of a random game is counted too);
- heuristic games: `policy_games`, 2-player games of the heuristic player;
- ismcts / smmcts: one search at the first plan decision of a seeded 2-player game (as
  ab_speed.py), with the bots' defaults, with random rollouts to the end, and like for
  like (search_speed.py's options: UCT over every plan, no priors): per iteration (the
  search's `iterate`, the tree's set-up left out).

Needs valgrind. Prints a Markdown table.
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
# search_speed.py's like-for-like options (random rollouts to the end, UCT, every plan, no
# priors), written out: the base checkout's script may not have them.
LIKE_FOR_LIKE = dict(rollout="random", cutoff=0, tree_policy="uct", selection="uct", plan_candidates=0,
                     prior_weight=0.0)

# name, the child's measure, the function counted, the unit
WORKLOADS = [
    ("random games", "random", "__pyx_pw_*random_games*", "game"),   # (the Python wrapper: the
    # compiler may inline the function it wraps, __pyx_pf_*, into it)
    ("heuristic games", "heuristic", "__pyx_pw_*policy_games*", "game"),
    ("ismcts, bot defaults", 'ismcts:{}', "*_core_iterate*", "iteration"),
    ("ismcts, random rollouts to the end", 'ismcts:{"rollout": "random", "cutoff": 0}', "*_core_iterate*", "iteration"),
    ("smmcts, bot defaults", 'smmcts:{}', "*_core_iterate*", "iteration"),
    ("smmcts, random rollouts to the end", 'smmcts:{"rollout": "random", "cutoff": 0}', "*_core_iterate*", "iteration"),
    ("ismcts, like for like", "ismcts:" + json.dumps(LIKE_FOR_LIKE), "*_core_iterate*", "iteration"),
    ("smmcts, like for like", "smmcts:" + json.dumps(LIKE_FOR_LIKE), "*_core_iterate*", "iteration"),
]


def child(args):
    """One workload in this process (the checkout first on sys.path); prints JSON."""
    import gutenberg_ai
    from _common import core_game_length, first_plan   # benchmarks/_common.py of this checkout
    try:
        from gutenberg_ai.games.gutenberg import _core
    except ImportError:          # checkouts from before the games' folders
        from gutenberg_ai import _core
    rules = gutenberg_ai.rules_of(gutenberg_ai.load_game(players=2))
    out = {"package": os.path.dirname(gutenberg_ai.__file__)}
    if args.measure == "random":
        rules.random_games(args.games, 12345)
        out["units"] = args.games
        out["actions"] = core_game_length(rules, 100, 7)
    elif args.measure == "heuristic":
        _core.policy_games(rules, ["heuristic", "heuristic"], args.games // 10, seed=3)
        out["units"] = args.games // 10
    else:
        algorithm, options = args.measure.split(":", 1)
        state = first_plan(gutenberg_ai.load_game(players=2), gutenberg_ai.core_of, 1)
        r = _core.search(gutenberg_ai.core_of(state), algorithm, iterations=args.iterations, seed=1,
                         **json.loads(options))
        out["units"] = r["iterations"]
    print(json.dumps(out))


def count(checkout, measure, function, args):
    """(instructions counted, the child's JSON) of one workload in `checkout`."""
    env = dict(os.environ, PYTHONPATH=checkout, OPENBLAS_NUM_THREADS="1")
    with tempfile.TemporaryDirectory() as tmp:
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={os.path.join(tmp, 'out')}",
               f"--toggle-collect={function}", sys.executable, os.path.abspath(__file__), "--child",
               "--measure", measure, "--games", str(args.games), "--iterations", str(args.iterations)]
        p = subprocess.run(cmd, cwd=checkout, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"{checkout}: {measure}: valgrind failed:\n{p.stderr[-2000:]}")
    out = json.loads(p.stdout.strip().splitlines()[-1])
    if os.path.realpath(out["package"]) != os.path.realpath(os.path.join(checkout, "gutenberg_ai")):
        raise SystemExit(f"{checkout}: imported gutenberg_ai from {out['package']}")
    m = re.search(r"Collected : (\d+)", p.stderr)
    if not m or int(m.group(1)) == 0:
        raise SystemExit(f"{checkout}: {measure}: nothing counted in {function}")
    return int(m.group(1)), out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", help="another checkout (built) to compare with")
    ap.add_argument("--games", type=int, default=300, help="random games (a tenth as many heuristic games)")
    ap.add_argument("--iterations", type=int, default=1000, help="search iterations")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--measure", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        return child(args)
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian/Ubuntu: apt-get install valgrind)")
    checkouts = {"this": HERE}
    if args.base:
        checkouts = {"base": os.path.abspath(args.base), "this": HERE}
    names = list(checkouts)
    print("| instructions | " + " | ".join(names) + (" | this/base |" if args.base else " |"))
    print("| --- | " + " | ".join("---" for _ in names) + (" | --- |" if args.base else " |"))
    for label, measure, function, unit in WORKLOADS:
        per, actions = {}, {}
        for name, path in checkouts.items():
            n, out = count(path, measure, function, args)
            per[name] = n / out["units"]
            actions[name] = out.get("actions")
        cells = [f"{per[n]:,.0f}" for n in names]
        ratio = f" | {per['this'] / per['base']:.2f}x" if args.base else ""
        print(f"| {label}, per {unit} | " + " | ".join(cells) + ratio + " |")
        if measure == "random":
            cells = [f"{per[n] / actions[n]:,.0f} ({actions[n]:.0f} actions a game)" for n in names]
            ratio = (f" | {(per['this'] / actions['this']) / (per['base'] / actions['base']):.2f}x"
                     if args.base else "")
            print("| random games, per action | " + " | ".join(cells) + ratio + " |")
    print(f"\n{args.games} random and {args.games // 10} heuristic games, {args.iterations} search iterations; "
          + ", ".join(f"{n}: {p}" for n, p in checkouts.items()))


if __name__ == "__main__":
    main()
