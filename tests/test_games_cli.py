"""Every game on the command line, written once: a seeded demo saves a record that names
its game and replays; the record is refused by another game and, changed by hand, refused
naming the field. Each game's file keeps what is its own (tests/test_cli.py,
test_pp_cli.py, test_llp_cli.py, test_table.py)."""
import json
import re

import pytest

from gutenberg_ai import games
from every_game import KEYS, cli

# Each game's demo: its options, words its full output shows, its record's game fields,
# and a hand-made change to the record's game with the field the refusal names.
DEMOS = {
    "gutenberg": dict(options=["--rounds", "1"], shows=["=== Round 1 ==="]),
    "printing-press": dict(options=[], shows=["=== Round 3 ===", re.compile(r"^0 +\d+ +\d+ +\d+ +\d+ +\d+$", re.M)],
                           record={"variant": "basic"}, change=("variant", "expert")),
    "lead-letter-printers": dict(options=["--rounds", "2"], shows=["composing sticks"]),
}


@pytest.mark.parametrize("key", KEYS)
def test_a_demo_is_seeded_saves_a_record_naming_its_game_and_replays(key, tmp_path):
    demo = DEMOS.get(key, {})
    path = tmp_path / "demo.json"
    args = ("demo", "--game", key, "--seed", "3", "--bots", "heuristic", *demo.get("options", []))
    out = cli(*args, "--save", str(path))
    assert out.returncode == 0, out.stderr
    assert re.search(r"Winner: player \d|Shared win", out.stdout)
    for words in demo.get("shows", []):
        assert (words.search(out.stdout) if isinstance(words, re.Pattern) else words in out.stdout), words
    again = cli(*args, "--quiet")
    seed, *sheet = again.stdout.splitlines()
    assert again.returncode == 0 and seed == "Seed 3" and sheet
    assert out.stdout.splitlines()[-1 - len(sheet):-1] == sheet      # the same game's score sheet
    record = json.loads(path.read_text())
    assert record["version"] == 3 and record["game"]["name"] == key and record["result"]["scores"]
    assert demo.get("record", {}).items() <= record["game"].items()
    replayed = cli("replay", str(path), "--quiet")
    assert replayed.returncode == 0, replayed.stderr
    assert "Final score sheet" in replayed.stdout and "reaches the recorded final state" in replayed.stdout
    other = next(k for k in KEYS if k != key)
    wrong = cli("replay", str(path), "--game", other)
    assert wrong.returncode == 2 and f"is a game of {games.get(key).title}" in wrong.stderr
    # A record changed by hand is refused, naming the field.
    field, value = demo.get("change", (None, None))
    if field:
        record["game"][field] = value
    record["actions"][5]["action"] = 99999
    path.write_text(json.dumps(record))
    bad = cli("replay", str(path))
    assert bad.returncode == 2 and (f"game.{field}" if field else "actions[5]") in bad.stderr
    assert "Traceback" not in bad.stderr
