"""The excerpts of docs/at-the-table.md's walkthroughs, made by the code: a recorded game
(tests/test_table_follow.py's `recorded`: heuristic bots, seed 3) followed through the
terminal loop (`TableSession`, 100x40, table seed 0 as `gutenberg-ai table` has it,
500-iteration hints), the recording's words typed at each prompt and, at the prompts the
doc shows, the doc's words (refused entries, card lookups, hints, a fix). Prints the
excerpts the doc shows, each as a ``` block.

    python docs/at-the-table/walkthrough.py --game gutenberg
"""
from __future__ import annotations

import argparse
import io
import re
import sys
from pathlib import Path

from rich.console import Console

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from test_table_follow import recorded

from gutenberg_ai.interfaces.table import FollowedGame
from gutenberg_ai.interfaces.table_terminal import TableSession

BUDGET = {"iterations": 500}
SEED = 0

# game -> players, your seat, names, the words typed at (entry index, prompt kind) or at
# the first prompt starting with a text, before the recording's (the last of them, when
# not a command, is the entry itself), and the
# excerpts: (first line, last line, last included), regular expressions on the transcript;
# `fix`: also `fix 1` at the third deal (fix_excerpt).
WALKS = {
    "gutenberg": dict(
        players=2, seat=1, names=["Tom", "Ann"],
        typed={(0, "chance"): ["P19"],
               (1, "chance"): ["draw P19 [I U U] 4g", "A O O U 5 guilders"],
               "your move (characters)": ["hint"],
               "Tom's move (take orders)": ["hint Tom"]},
        excerpts=[(r"^what came up \(setup: deal\)\? P19", r"^2\. chance", True),
                  (r"^your move \(characters\)\? hint", r"^\d+\. you: characters", True),
                  (r"^your move \(plan\)\? plan", r"^Tom's move \(take orders\)\? take", False)],
        fix=True),
    "printing-press": dict(
        players=3, seat=2, names=["Ann", "Tom", "Eve"],
        typed={(28, "chance"): ["deal card 6 (initiative | illuminating | typesetting)",
                                "card woodcutting O illuminating"],
               "Tom's move (character sides)": ["hint Tom"]},
        excerpts=[(r"^what came up \(character tiles\)\? character tile for player 2",
                   r"^Tom's move \(character sides\)\? Charlotte", False),
                  (r"^28\. chance: deal card", r"^29\. chance", True),
                  (r"^your move \(Close Frames\)\? close", None, True)]),
    "lead-letter-printers": dict(
        players=4, seat=0, names=["Eve", "Ann", "Tom", "Max"],
        typed={(99, "chance"): ["lead letter B 2 lead"],
               "your move (tradesmen setup)": ["hint"]},
        excerpts=[(r"^the level I factories' pile shows$", r"^1\. chance", True),
                  (r"^Ann's move \(Action phase, turn 1 of 2: Shop or Reset\)\? Reset", r"^101\. chance", True),
                  (r"^your move \(tradesmen setup\)\? hint", r"^your move \(tradesmen setup\)\? setup", False),
                  (r"^Tom's move \(game end: last optional actions\)\? pass", None, True)]),
}


def session(key: str, read_line) -> tuple:
    """The recorded game `key` (its record) and a terminal loop following it from the
    walk's seat, `read_line` typing, into a 100x40 console of its own."""
    walk = WALKS[key]
    game, record, _ = recorded(key, walk["players"])
    console = Console(file=io.StringIO(), width=100, height=40)
    followed = FollowedGame(game, walk["seat"], seed=SEED, names=walk["names"])
    return record, TableSession(followed, console, read_line, budget=BUDGET)


def transcript(key: str) -> str:
    """The whole terminal transcript of following the recorded game `key` by hand."""
    typed = {k: list(v) for k, v in WALKS[key]["typed"].items()}
    box = []

    def read_line(prompt):
        followed = box[0].followed
        kind, value = followed.next_turn()
        n = value if kind == "reveal" else len(followed.entries)
        for where in ((n, kind), *(p for p in typed if isinstance(p, str) and prompt.startswith(p))):
            if typed.get(where):
                return typed[where].pop(0)
        return acts[n]["text"]

    record, table = session(key, read_line)
    acts = record.actions
    box.append(table)
    code = table.run()
    entries = table.followed.entries
    if code != 0 or [e.action for e in entries if e.entered] != \
            [a["action"] for a, e in zip(acts, entries) if e.entered]:
        raise SystemExit(f"{key}: the followed game is not the recorded one (exit {code})")
    return table.console.file.getvalue()


def excerpt(lines: list, start: str, stop: str | None, inclusive: bool) -> list:
    """The lines from the first matching `start` to the next matching `stop` (`inclusive`:
    with that line); `stop` None: from the last matching `start` to the end."""
    found = [k for k, line in enumerate(lines) if re.search(start, line)]
    i = found[-1] if stop is None else found[0]
    end = len(lines) if stop is None else \
        next(k for k in range(i + 1, len(lines)) if re.search(stop, lines[k])) + inclusive
    return [line.rstrip() for line in lines[i:end]]


def fix_excerpt(key: str) -> list:
    """`fix 1` at the third deal, entry 1 corrected to the card entry 2 drew."""
    lines = []
    record, table = session(key, lambda prompt: lines.pop(0))
    first, second = (a["text"] for a in record.actions[:2])
    lines += [first, second, "fix 1", second, "quit"]
    table.run()
    out = table.console.file.getvalue().splitlines()
    return excerpt(out, r"\? fix 1", r"^\d+\. corrected to", True) + \
        [line.rstrip() for line in out if "left out" in line]


def excerpts(key: str) -> list:
    """The doc's excerpts of the walk through `key`, each a ``` block."""
    lines = transcript(key).splitlines()
    shown = [excerpt(lines, *spec) for spec in WALKS[key]["excerpts"]]
    if WALKS[key].get("fix"):
        shown.append(fix_excerpt(key))
    return ["```\n" + "\n".join(block) + "\n```" for block in shown]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(WALKS), required=True)
    args = parser.parse_args(argv)
    for block in excerpts(args.game):
        print(block + "\n")


if __name__ == "__main__":
    main()
