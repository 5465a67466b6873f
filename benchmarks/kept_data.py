"""What a long-running process keeps of the files it is sent: a server is sent position
after position (each another file: the shipped positions with a name changed), makes a
game of each (`position_game`, as `POST /api/tables` and `play --position` do) and drops
it. Prints, every `--step` files, the rules made of files' data still held
(`gamedata.rules_kept`), the native games' rules held, the files' bytes kept and the
process's peak resident memory.

    python benchmarks/kept_data.py                  # 1,500 files of each game
    python benchmarks/kept_data.py --files 300 --game printing-press

Memory that grows with the files sent is a leak a server cannot afford; bounded, the
figures level off (docs/native.md, "Files are read once").
"""
from __future__ import annotations

import argparse
import copy
import gc
import json
import os
import resource
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from gutenberg_ai import games  # noqa: E402
from gutenberg_ai.games import gamedata  # noqa: E402
from gutenberg_ai.games.positionfile import position_game  # noqa: E402

SHIPPED = {"gutenberg": "plan-round1-2p.json", "printing-press": "close-round1-2p.json",
           "lead-letter-printers": "round2-3p.json"}


def shipped_position(key: str) -> dict:
    """The shipped position SHIPPED names for the game `key`, decoded."""
    with open(os.path.join(games.get(key).data_folder, "positions", SHIPPED[key]), encoding="utf-8") as f:
        return json.load(f)


def another_file(data: dict, i: int) -> dict:
    """The position with another comment and, where players are listed, another name for
    the first: another file, and other rules (the rules keep the names)."""
    out = copy.deepcopy(data)
    out["comment"] = f"copy {i}"
    if isinstance(out.get("players"), list):
        out["players"][0]["name"] = f"Printer {i}"
    return out


def held(core) -> tuple[int, int, int]:
    """(rules held, native games' rules held, files' bytes kept); in a build before these
    were bounded (run from its checkout), the sizes of its tables."""
    if hasattr(gamedata, "rules_kept"):
        return gamedata.rules_kept(), core._native_rules_held(), gamedata._data_bytes
    return (len(gamedata._RULES), len(core._NATIVE_RULES),
            sum(len(b) for b in gamedata._DATA.values()))


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", choices=sorted(SHIPPED), action="append",
                    help="a game (repeatable; default all three)")
    ap.add_argument("--files", type=int, default=1500, help="files sent, each game (1-100000)")
    ap.add_argument("--step", type=int, default=300, help="a line every this many files")
    args = ap.parse_args()
    if not 1 <= args.files <= 100_000 or not 1 <= args.step <= args.files:
        ap.error("--files must be 1-100000 and --step 1 to --files")
    print("| game | files sent | rules held | native games' rules held | files' bytes kept | peak memory |")
    print("| --- | --- | --- | --- | --- | --- |")
    for key in args.game or sorted(SHIPPED):
        g = games.get(key)
        data = shipped_position(key)
        for i in range(1, args.files + 1):
            position_game(another_file(data, i), seed=1)
            if i % args.step == 0:
                gc.collect()
                rules, native, kept = held(g.core)
                print(f"| {g.title} | {i:,} | {rules} | {native} | {kept:,} | {peak_mb():.0f} MB |", flush=True)


if __name__ == "__main__":
    main()
