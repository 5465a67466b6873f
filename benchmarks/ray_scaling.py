"""Games per second against the number of workers: the arena's local process pool and a
local Ray cluster, the same games (the same schedule, the same seeds) each time.

    python benchmarks/ray_scaling.py --workers 1,2 --games 8 --iterations 50

Each point plays the whole schedule into a fresh folder and reports games/s (wall clock
of the run, the Ray cluster's start apart: its own column) and the ratio to one worker
of the pool measured in the same run. The records of every run are compared:
the same games whatever ran them (the time a game took left out).
"""
import argparse
import json
import os
import tempfile
import time

from gutenberg_ai.tools import arena
from gutenberg_ai import games


def records(out):
    found = {}
    for folder, _, files in os.walk(os.path.join(out, "games")):
        for name in files:
            if name.endswith(".json"):
                with open(os.path.join(folder, name)) as f:
                    data = json.load(f)
                data["arena"].pop("seconds")
                found[os.path.relpath(os.path.join(folder, name), out)] = data
    return found


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--workers", default="1,2")
    p.add_argument("--games", type=int, default=8, help="games a match (2 matches)")
    p.add_argument("--iterations", type=int, default=50)
    p.add_argument("--game", default="gutenberg")
    args = p.parse_args()
    s = arena.ArenaSettings(bots=["smmcts", "heuristic", "random"], game=args.game, games=args.games,
                            rounds=games.get(args.game).rules_module.DEFAULTS["rounds"],
                            iterations=args.iterations, seconds=None, seed=0,
                            pairings=[["smmcts", "heuristic"], ["smmcts", "random"]])
    n = len(arena.schedule(s))
    rows, reference, base = [], None, None
    import ray
    for runner in ("pool", "ray"):
        for workers in [int(w) for w in args.workers.split(",")]:
            with tempfile.TemporaryDirectory() as out:
                start = 0.0
                if runner == "ray":
                    t0 = time.perf_counter()
                    ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
                    start = time.perf_counter() - t0
                t0 = time.perf_counter()
                arena.run_arena(s, out, jobs=workers, ray="local" if runner == "ray" else None, plots=False)
                seconds = time.perf_counter() - t0
                if runner == "ray":
                    ray.shutdown()
                got = records(out)
                if reference is None:
                    reference = got
                same = got == reference
            rate = n / seconds
            base = base or rate
            rows.append((runner, workers, n, seconds, rate, rate / base, start, same))
    print("| runner | workers | games | seconds | games/s | x pool with 1 | cluster start (s) | same records |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for runner, workers, n, seconds, rate, ratio, start, same in rows:
        print(f"| {runner} | {workers} | {n} | {seconds:.1f} | {rate:.2f} | {ratio:.2f} | "
              f"{start:.1f} | {'yes' if same else 'NO'} |")
    print(f"\nload average at the end: {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
