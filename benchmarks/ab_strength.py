"""Strength of two checkouts at equal time: the same arena run by each (the same games,
deals, seats and seeds), compared game by game.

    # in each checkout, side by side so that both meet the same load:
    python benchmarks/strength.py --games 100 --seconds 0.1 --jobs 1 --pairings ismcts:smmcts \\
        --options '{"smmcts": {"iterations": 2000, "seconds": 1000}}' --out OUT
    # then, from either checkout:
    python benchmarks/ab_strength.py BASE_OUT THIS_OUT [--games N]

With a time budget a move, a faster search runs more iterations of the same search; a
fixed opponent with a fixed budget of iterations (which plays the same in both checkouts
when their searches are the same) is the yardstick. For each pairing A:B of the arenas'
settings (which must be equal): A's score in each game (1 a win, 1/2 a shared win, 0 a
loss), A's rate in each arena with Wilson's 95% interval (the arena's), and the
difference this - base, game by game on the same deal and seat, with its 95% interval
(mean of the per-game differences +- 1.96 standard errors). Only the games both arenas
finished, from the first on, are counted (`--games` fewer); every record is checked
against the schedule and replayed (`arena.examine`), so a record that does not check out
stops the count with its reason.
"""
from __future__ import annotations

import argparse
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from gutenberg_ai.common import stats  # noqa: E402
from gutenberg_ai.tools import arena  # noqa: E402
from gutenberg_ai.common.jsonfile import FileDataError, read_json  # noqa: E402


def settings_of(out: str) -> dict:
    data, _, _ = read_json(os.path.join(out, arena.SETTINGS_FILE), FileDataError, 1 << 20, "arena settings")
    if not isinstance(data, dict) or not isinstance(data.get("settings"), dict):
        raise SystemExit(f"{out}/{arena.SETTINGS_FILE}: no settings in it")
    return data["settings"]


def scores(out: str, settings: dict, games: int) -> dict:
    """{(match, game): A's score} for the games 0, 1, ... finished and checked in `out`,
    up to the first that is not (with the reason, if a record was there)."""
    try:
        s = arena.ArenaSettings(**settings, games=games)
        arena.validate(s)
    except (TypeError, ValueError) as e:
        raise SystemExit(f"{out}/{arena.SETTINGS_FILE}: not an arena's settings ({e})") from None
    got, stops = {}, {}
    for task in arena.schedule(s):
        if task["match"] in stops:
            continue
        found, why = arena.examine(os.path.join(out, task["path"]), task)
        if found is None:
            stops[task["match"]] = f"game {task['game']}: " + (why or "not played")
            continue
        a, b = task["lineup"]
        ra, rb = (found["ranks"][found["seats"].index(x)] for x in (a, b))
        got[(task["match"], task["game"])] = 1.0 if ra < rb else 0.5 if ra == rb else 0.0
    return got, stops


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("base", help="the base checkout's arena directory")
    ap.add_argument("this", help="this checkout's arena directory")
    ap.add_argument("--games", type=int, default=None, help="count at most the first N games of each match")
    args = ap.parse_args(argv)
    sb, st = settings_of(args.base), settings_of(args.this)
    if sb != st:
        raise SystemExit(f"the arenas were not run with the same settings: {sb} against {st}")
    limit = args.games or 100_000    # the count stops at the first game not in both
    base, base_stops = scores(args.base, sb, limit)
    this, this_stops = scores(args.this, st, limit)
    print("| A | B | games | A's rate, base | 95% interval | A's rate, this | 95% interval | "
          "this - base | 95% interval | games that differ |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for lineup in arena.lineups(sb["bots"], sb["players"], sb["pairings"]):
        match = arena.match_id(lineup)
        keys = []
        for g in range(limit):
            if (match, g) not in base or (match, g) not in this:
                break
            keys.append((match, g))
        n = len(keys)
        if n == 0:
            print(f"| {lineup[0]} | {lineup[1]} | 0 | | | | | | | |")
            continue
        xb = [base[k] for k in keys]
        xt = [this[k] for k in keys]
        d = [t - b for t, b in zip(xt, xb)]
        mean = sum(d) / n
        sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1)) if n > 1 else float("inf")
        half = 1.96 * sd / math.sqrt(n)
        lb, hb = stats.wilson(sum(xb), n)
        lt, ht = stats.wilson(sum(xt), n)
        print(f"| {lineup[0]} | {lineup[1]} | {n} | {sum(xb) / n:.1%} | {lb:.1%}-{hb:.1%} | {sum(xt) / n:.1%} | "
              f"{lt:.1%}-{ht:.1%} | {mean:+.1%} | {mean - half:+.1%} to {mean + half:+.1%} | "
              f"{sum(x != 0 for x in d)} |")
    for name, stops in (("base", base_stops), ("this", this_stops)):
        for match, why in sorted(stops.items()):
            print(f"\n{name} ({match}) counted up to {why}")


if __name__ == "__main__":
    main()
