"""The main command as a user runs it."""
import subprocess
import sys


def run(*args):
    return subprocess.run([sys.executable, "-m", "gutenberg_ai", *args], capture_output=True, text=True,
                          timeout=120)


def test_demo_plays_a_full_game_and_prints_the_score_sheet():
    out = run("demo", "--seed", "7")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "=== Setup ===" in text and "=== Round 6 ===" in text
    assert "plan: orders" in text and "draft: printing" in text
    assert "Winner" in text or "Shared win" in text
    assert text == run("demo", "--seed", "7").stdout  # seeded: the same game again
    assert text != run("demo", "--seed", "8").stdout


def test_demo_quiet_prints_only_the_score_sheet():
    out = run("demo", "--players", "3", "--rounds", "2", "--quiet")
    assert out.returncode == 0
    seed, *lines = out.stdout.strip().splitlines()
    assert seed.startswith("Seed ") and "a new deal" in seed   # no --seed: a fresh one, printed
    assert lines[0].split()[:2] == ["player", "fame"]
    assert [line.split()[0] for line in lines[1:4]] == ["0", "1", "2"]
    assert sum("played" in line for line in lines) == 3 and "Winner" in lines[-1] or "Shared" in lines[-1]
    assert "=== Round" not in out.stdout


def test_demo_solo_against_the_automa_gives_a_title():
    out = run("demo", "--players", "1", "--quiet", "--seed", "4")
    assert out.returncode == 0, out.stderr
    assert "Solo title: " in out.stdout
    assert "automa: automa planning card" in run("demo", "--players", "1", "--seed", "4").stdout


def test_a_solo_demo_says_where_the_automas_rules_chose():
    """Its planning card arrow by arrow, under the card; at each round's end but the last
    the marker it passed or received with the first player token (p.17); the patronage
    card it took and the rule that chose it."""
    out = run("demo", "--players", "1", "--seed", "3", "--bots", "heuristic")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    cards = [i for i, line in enumerate(lines) if line.startswith("  automa: automa planning card")]
    assert len(cards) == 6
    for i in cards:
        arrows = 0
        while lines[i + 1 + arrows].startswith(f"    arrow {arrows + 1}, "):
            arrows += 1
        assert arrows >= 2 and lines[i + 1 + arrows].startswith("    its markers now: ")
    assert sum("with the first player token" in line for line in lines) == 5
    assert "automa: received 1 initiative marker with the first player token" in out.stdout
    assert re.search(r"automa: took C\d+ .*: the rule 'if this round's planning card shows a patronage card", out.stdout)


def test_demo_plays_named_bots_reproducibly():
    args = ("demo", "--bots", "smmcts,heuristic", "--iterations", "60", "--rounds", "2", "--seed", "3")
    out = run(*args)
    assert out.returncode == 0, out.stderr
    assert "=== Round 2 ===" in out.stdout and ("Winner" in out.stdout or "Shared win" in out.stdout)
    assert out.stdout == run(*args).stdout                        # a search budget in iterations: seeded
    assert out.stdout != run("demo", "--rounds", "2", "--seed", "3").stdout   # random players differ


def test_demo_refuses_a_wrong_number_of_bots():
    out = run("demo", "--bots", "random,random,random")
    assert out.returncode == 2
    assert "3 bots for 2 players" in out.stderr and "Traceback" not in out.stderr
    out = run("demo", "--bots", "smmcts,alphazero")
    assert out.returncode == 2 and "'alphazero'" in out.stderr


def test_demo_rejects_bad_parameters_without_a_traceback():
    out = run("demo", "--players", "9")
    assert out.returncode == 2
    assert "players: 9 is out of range" in out.stderr and "Traceback" not in out.stderr


# -- the command line as a whole ------------------------------------------------------------
import re
import csv
import io
import json
import os
import pathlib

import pyspiel
import pytest
from rich.console import Console

import gutenberg_ai
from gutenberg_ai.games.gutenberg import _core
from gutenberg_ai.games.records import GameRecord, RecordError, load_record, play_bots, replay, seat_entry
from every_game import cli

POSITIONS = sorted((pathlib.Path(gutenberg_ai.__file__).parent / "games" / "gutenberg" / "data" / "positions").glob("*.json"))


def feed(*args, stdin="", timeout=120):
    """The command in a process of its own, as a user runs it."""
    return subprocess.run([sys.executable, "-m", "gutenberg_ai", *args], input=stdin, capture_output=True,
                          text=True, timeout=timeout)


@pytest.mark.parametrize("command", [[], ["demo"], ["play"], ["replay"], ["hint"], ["arena"], ["review"], ["study"],
                                     ["suite"], ["selfplay"], ["train"]])
def test_help_works_on_every_subcommand(command):
    out = (run if not command else cli)(*command, "--help")   # one real process is enough
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("usage: gutenberg-ai") and "--help" in out.stdout
    if command:
        assert "examples:" in out.stdout


def test_suite_help_says_what_scoring_costs_and_how_a_run_resumes():
    said = " ".join(cli("suite", "--help").stdout.split())
    assert "searched alone, about 10 CPU seconds each, so a run takes minutes whatever the budget" in said
    assert "--out keeps each position's result as it is scored (the same command resumes)" in said


@pytest.mark.parametrize("key", list(gutenberg_ai.games.GAMES))
def test_help_names_every_games_card_kinds_and_rounds(key):
    g = gutenberg_ai.games.get(key)
    kinds = " ".join(cli("cards", "--help").stdout.split())
    assert f"{g.title}: {', '.join(g.cards.KINDS)}" in kinds
    for command in ("demo", "play", "table"):
        rounds = " ".join(cli(command, "--help").stdout.split())
        assert f"{g.title} {g.rules_module.ROUNDS_WORDS}" in rounds, command
    assert "Lead Letter Printers 0-20, default 0: until the orders run out" in rounds


# -- play -----------------------------------------------------------------------------------
SCRIPT = "help\nnonsense\n999\n1 2\nundo\nhint\n1\nundo\n" + "1\n" * 400


def test_a_scripted_play_session_reaches_the_score_sheet_and_saves_a_record(tmp_path):
    record = tmp_path / "game.json"
    out = feed("play", "--rounds", "1", "--iterations", "30", "--seed", "3", "--save", str(record), stdin=SCRIPT)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "Traceback" not in out.stderr + text
    # the board, the menu, the commands and the messages for typos
    for words in ("Your decision", "patronage rewards", "you (player 0)", "player 1 (smmcts)", "orders",
                  "guilders", "fame", "save-position FILE", "'nonsense' is not a move or a command",
                  "there is no move 999", "type one move number (1-", "nothing to undo", "Hints", "Undone:", "plan:", "Final score sheet"):
        assert words in text, words
    assert "Winner: " in text or "Shared win: " in text
    data = json.loads(record.read_text())
    assert data["finished"] and data["command"] == "play" and data["seed"] == 3
    assert [s["player"] for s in data["seats"]] == ["human", "smmcts"]
    assert data["seats"][1]["options"] == {"iterations": 30}
    assert {a["by"] for a in data["actions"]} == {"chance", "human", "smmcts"}
    # the same seed and the same moves give the same game
    again = tmp_path / "again.json"
    assert cli("play", "--rounds", "1", "--iterations", "30", "--seed", "3", "--save", str(again),
                stdin=SCRIPT).returncode == 0
    assert json.loads(again.read_text())["actions"] == data["actions"]
    # and the record replays to the same end
    out = cli("replay", str(record), "--quiet")
    assert out.returncode == 0, out.stderr
    assert "The replay reaches the recorded final state" in out.stdout


def test_play_hides_the_plans_the_person_has_not_seen_and_takes_a_plan_as_five_numbers(tmp_path):
    console = Console(file=io.StringIO(), width=100)
    game = gutenberg_ai.load_game(players=3, rounds=1)
    from gutenberg_ai.interfaces.play import Session, Settings
    asked = []

    def answer(prompt):
        core = gutenberg_ai.core_of(session.state)
        if core.step_name() == "plan":                 # (not the free actions before it)
            asked.append(console.file.getvalue())   # the table as seat 1 saw it
            if len(asked) == 1:
                return f"save-position {tmp_path / 'table.json'}"
            if len(asked) == 2:
                return "9 9 9 9 9"
            markers = core.to_dict()["players"][1]["markers"]
            session.console.print("typed a plan")
            return f"{markers - 3} 1 1 1 0"
        if not os.path.exists(tmp_path / "mid.json"):
            return f"save {tmp_path / 'mid.json'}"
        return "1"

    session = Session(game, Settings(human=1, ai=("heuristic",), iterations=20, seed=5), console, read_line=answer)
    assert session.run() == 0
    text = console.file.getvalue()
    assert "typed a plan" in text and "Final score sheet" in text
    first = gutenberg_ai.core_of(session.state).to_dict()["first_player"]
    assert first != 1   # with seed 5 someone plans before seat 1, so there is a plan to hide:
    assert "commits a plan (hidden until every plan is committed)" in text   # in the log
    assert "hidden until every plan is committed" in asked[0]                  # on the board
    assert "you: plan: orders" in text
    assert "plan 9 9 9 9 9 is not legal: place all your" in text
    # save-position wrote what seat 1 may know: the plans before its own are hidden
    from gutenberg_ai.games.gutenberg.position import load_position
    table = load_position(tmp_path / "table.json")
    assert table.step == {"kind": "plan", "player": 1} and table.hidden_plans
    assert json.loads((tmp_path / "table.json").read_text())["players"][first]["plan"] == "hidden"
    mid = load_record(tmp_path / "mid.json")
    assert not mid["finished"] and mid["result"] is None
    replay(mid)   # a game saved half-way replays to where it was saved


def test_play_takes_a_move_by_its_words_as_the_table_does():
    """At the characters step (seed 3: Aldus Manutius and Hieronymus Vietor drawn), words
    that fit both moves name them; words that fit one play it; words that fit none are
    refused with what would work."""
    console = Console(file=io.StringIO(), width=100)
    game = gutenberg_ai.load_game(players=2, rounds=1)
    from gutenberg_ai.interfaces.play import Session, Settings
    lines = iter(["keep", "zzz", "0", "99999999", "9" * 30, "aldus", "quit"])
    session = Session(game, Settings(human=0, ai=("heuristic",), iterations=20, seed=3), console,
                      read_line=lambda prompt: next(lines))
    assert session.run() == 0
    text = " ".join(console.file.getvalue().split())
    assert "'keep' fits 2 entries" in text
    assert "'zzz' is not a move or a command: type a move number (1-2), the move's words, or help" in text
    assert "you: characters: keep Aldus Manutius" in text
    # a number that names no move gets one message, however many digits it has
    for number in ("0", "99999999", "999999999999..."):
        assert f"there is no move {number}: the moves are numbered 1 to 2" in text, number
    kept = [e for e in session.record.actions if e["by"] == "human"]
    assert len(kept) == 1 and "Aldus Manutius" in kept[0]["text"]


def test_play_refuses_words_after_a_command_that_takes_none():
    console = Console(file=io.StringIO(), width=100)
    game = gutenberg_ai.load_game(players=2, rounds=1)
    from gutenberg_ai.interfaces.play import Session, Settings
    lines = iter(["undo x", "board now", "quit please", "quit"])
    session = Session(game, Settings(human=0, ai=("heuristic",), iterations=20, seed=3), console,
                      read_line=lambda prompt: next(lines))
    assert session.run() == 0
    text = " ".join(console.file.getvalue().split())
    for line in ("undo x", "board now", "quit please"):
        command, word = line.split()
        assert f"{command} '{word}': {command} alone (it takes no words)" in text


def test_play_solo_against_the_automa_ends_with_a_title():
    out = cli("play", "--players", "1", "--rounds", "1", "--iterations", "20", stdin="1\n" * 300)
    assert out.returncode == 0, out.stderr
    assert "Automa" in out.stdout and "Solo title: " in out.stdout


def test_play_without_enough_input_stops_cleanly_and_bad_options_are_named():
    out = cli("play", "--rounds", "1", "--iterations", "20", stdin="1\n")
    assert out.returncode == 1 and "The input ended before the game did." in out.stdout
    assert "Traceback" not in out.stderr
    out = cli("play", "--players", "9")
    assert out.returncode == 2 and "players: 9 is out of range" in out.stderr and "Traceback" not in out.stderr
    out = cli("play", "--ai", "deep-blue")
    assert out.returncode == 2 and "'deep-blue' is not one of" in out.stderr
    out = cli("play", "--seat", "5")
    assert out.returncode == 2 and "seat: 5 is out of range (0-1)" in out.stderr


def test_quit_leaves_the_game_and_writes_the_record(tmp_path):
    record = tmp_path / "left.json"
    out = cli("play", "--rounds", "1", "--iterations", "20", "--save", str(record), stdin="1\nquit\n")
    assert out.returncode == 0 and "You left the game." in out.stdout
    assert not json.loads(record.read_text())["finished"]


# -- hint -----------------------------------------------------------------------------------
@pytest.mark.parametrize("path", POSITIONS, ids=lambda p: p.name)
def test_hint_on_the_shipped_positions_as_a_table_and_as_json(path):
    out = cli("hint", str(path), "--iterations", "150", "--top", "3")
    assert out.returncode == 0, out.stderr
    assert "to decide:" in out.stdout and "searched" in out.stdout
    out = cli("hint", str(path), "--iterations", "150", "--top", "3", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert 1 <= len(data["hints"]) <= 3 and data["iterations"] == 150
    assert abs(sum(h["share"] for h in data["hints"])) <= 1.0 + 1e-9
    first = data["hints"][0]
    assert set(first) == {"action", "text", "share", "win_probability", "expected_fame", "interval", "level",
                          "line", "standing"}
    # No --seed: a new one, said on stderr (stdout stays JSON) and given in the JSON.
    said = re.search(r"Seed (\d+), a new one \(--seed \1 uses it again\)", out.stderr)
    assert said and data["seed"] == int(said.group(1))
    again = cli("hint", str(path), "--iterations", "150", "--top", "3", "--json", "--seed", said.group(1))
    assert again.stdout == out.stdout and "Seed" not in again.stderr


def test_a_hint_whose_time_ran_out_before_an_iteration_says_nothing_was_searched():
    path = str(POSITIONS[0])
    out = cli("hint", path, "--seconds", "1e-300", "--seed", "1")
    assert out.returncode == 0, out.stderr
    assert "0 iterations" in out.stdout and "Nothing was searched" in out.stdout
    shares = re.findall(r"(\d+)%", out.stdout.split("Nothing was searched")[0])
    assert shares and set(shares) == {"0"}
    data = json.loads(cli("hint", path, "--seconds", "1e-300", "--seed", "1", "--json").stdout)
    assert data["iterations"] == 0 and {h["share"] for h in data["hints"]} == {0.0}


def test_hint_rejects_a_malformed_position_naming_the_field(tmp_path):
    data = json.loads(POSITIONS[0].read_text())
    bad = tmp_path / "bad.json"
    broken = dict(data)
    del broken["step"]
    bad.write_text(json.dumps(broken))
    out = cli("hint", str(bad))
    assert out.returncode == 2 and "bad.json: top level: missing key 'step'" in out.stderr
    assert "Traceback" not in out.stderr and out.stdout == ""
    broken = json.loads(json.dumps(data))
    broken["players"][0]["specialties"] = {"typesetting": 7}
    bad.write_text(json.dumps(broken))
    out = cli("hint", str(bad))
    assert out.returncode == 2 and "players[0].specialties.typesetting" in out.stderr
    bad.write_text("{not json")
    out = cli("hint", str(bad))
    assert out.returncode == 2 and "invalid JSON" in out.stderr
    out = cli("hint", str(tmp_path / "missing.json"))
    assert out.returncode == 2 and "Traceback" not in out.stderr


def test_hint_takes_search_options_and_refuses_wrong_ones():
    path = str(POSITIONS[0])
    out = cli("hint", path, "--iterations", "150", "--json", "--options", '{"uct_c": 3, "tree_policy": "uct"}')
    assert out.returncode == 0, out.stderr
    plain = cli("hint", path, "--iterations", "150", "--json")
    assert json.loads(out.stdout)["options"] == {"uct_c": 3, "tree_policy": "uct"}
    assert json.loads(out.stdout)["hints"] != json.loads(plain.stdout)["hints"]
    table = cli("hint", path, "--iterations", "150", "--seed", "4")
    assert "150 iterations, seed 4)" in table.stdout          # the seed said, so the hint can be had again
    for options, said in [('[1]', "an object of the search's options"),
                          ('{"seed": 3}', "seed: given by its own flag (--seed)"),
                          ('{"uct": 1}', "unknown search option(s) uct"),
                          ('{"trees": 2}', "trees: not a search option"),
                          ('{"uct_c": "x"}', "uct_c: 'x' is not a number"),
                          ('{"max_nodes": 1e15}', "max_nodes: "),
                          ('{"weights": {"A": 1}}', "weights: this game's evaluation has no named weights"),
                          ('{"uct_c": 1', "--options: line 1, column 12: invalid JSON"),
                          ('{"uct_c": 1, "uct_c": 2}', "--options: top level: key 'uct_c' is given twice")]:
        out = cli("hint", path, "--iterations", "150", "--options", options)
        assert out.returncode == 2 and said in out.stderr and "Traceback" not in out.stderr, (options, out.stderr)
    out = cli("hint", path, "--bot", "heuristic", "--options", '{"uct_c": 3}')
    assert out.returncode == 2 and "for the built-in searches" in out.stderr


# -- records and replay ---------------------------------------------------------------------
def _recorded_game(tmp_path, **params):
    game = gutenberg_ai.load_game(**params)
    bots = [gutenberg_ai.make_bot("heuristic", game, seat, seed=seat) for seat in range(game.num_players())]
    record = GameRecord(game, 11, [seat_entry(s, "heuristic", s) for s in range(game.num_players())], "test")
    state = play_bots(game, bots, 11, record)
    path = tmp_path / "record.json"
    record.save(path)
    return state, path


def test_a_record_replays_to_the_same_final_state(tmp_path):
    state, path = _recorded_game(tmp_path, players=3, rounds=2, automa=1)
    again = replay(load_record(path))
    assert gutenberg_ai.core_of(again).to_dict() == gutenberg_ai.core_of(state).to_dict()
    assert again.returns() == state.returns() and again.history() == state.history()
    out = cli("replay", str(path))
    assert out.returncode == 0, out.stderr
    n = len(json.loads(path.read_text())["actions"])
    assert f"After {n} of {n} actions" in out.stdout and "Final score sheet" in out.stdout
    assert "player 0 (heuristic): " in out.stdout and "chance: draw" in out.stdout
    out = cli("replay", str(path), "--to", "40", "--quiet")
    assert out.returncode == 0 and f"After 40 of {n} actions" in out.stdout
    out = cli("replay", str(path), "--step", stdin="\n\nq\n")
    assert out.returncode == 0 and "After" in out.stdout


def test_a_record_of_a_game_from_a_position_carries_the_position(tmp_path):
    state, path = _recorded_game(tmp_path, position=str(POSITIONS[1]))
    data = json.loads(path.read_text())
    assert data["position"]["format"] == "gutenberg-position"
    assert gutenberg_ai.core_of(replay(load_record(path))).to_dict() == gutenberg_ai.core_of(state).to_dict()


@pytest.mark.parametrize("edit, where", [
    (lambda d: d.pop("actions"), "top level: missing key 'actions'"),
    (lambda d: d.update(format="chess"), "format: 'chess' is not 'gutenberg-record'"),
    (lambda d: d["game"].update(rounds=9), "game.rounds: 9 is out of range"),
    (lambda d: d["actions"][3].update(action="x"), "actions[3].action: 'x' is not a whole number"),
    (lambda d: d["actions"][0].update(action=_core.ACTIONS["PASS"]), "actions[0].action: action 2989"),
    (lambda d: d["actions"][0].update(player=1), "actions[0].player: 1, but chance acts here"),
    (lambda d: d["actions"][0].update(text="draw a dragon"), "actions[0].text: 'draw a dragon'"),
    (lambda d: d["result"].update(scores=[1, 2]), "result.scores: the record says [1, 2]"),
    (lambda d: d["result"].update(scores=[1, 2, 3]), "result.scores: [1, 2, 3] is not a list of 2"),
    (lambda d: d["seats"][0].pop("player"), "seats[0].player"),
    (lambda d: d.update(seed=-1), "seed: -1 is not a seed"),
    (lambda d: d["seats"][1].update(seed=2**63), "seats[1].seed: 9223372036854775808 is not a seed"),
])
def test_a_malformed_record_is_rejected_naming_the_field(tmp_path, edit, where):
    _, path = _recorded_game(tmp_path, players=2, rounds=1)
    data = json.loads(path.read_text())
    edit(data)
    path.write_text(json.dumps(data))
    with pytest.raises(RecordError, match="record.json: " + __import__("re").escape(where)):
        replay(load_record(path))
    out = cli("replay", str(path))
    assert out.returncode == 2 and where in out.stderr and "Traceback" not in out.stderr


def test_demo_saves_a_record_that_replays(tmp_path):
    path = tmp_path / "demo.json"
    out = cli("demo", "--rounds", "1", "--quiet", "--save", str(path), "--bots", "ismcts,random", "--iterations", "30")
    assert out.returncode == 0, out.stderr
    seats = json.loads(path.read_text())["seats"]
    assert [(e["player"], e.get("options")) for e in seats] == [("ismcts", {"iterations": 30}), ("random", None)]
    assert cli("replay", str(path), "--quiet").returncode == 0


# -- arena ----------------------------------------------------------------------------------
def test_a_tiny_arena_writes_its_tables_and_resumes_without_replaying(tmp_path):
    out_dir = tmp_path / "results"
    args = ("arena", "--bots", "heuristic,random", "--games", "2", "--rounds", "1", "--out", str(out_dir), "--seed", "4")
    out = cli(*args, "--jobs", "2")
    assert out.returncode == 0, out.stderr
    assert "2 games: 2 played now" in out.stdout and "Standings" in out.stdout
    records = sorted((out_dir / "games" / "heuristic-vs-random").glob("*.json"))
    assert [r.name for r in records] == ["game-0000.json", "game-0001.json"]
    seats = [[s["player"] for s in json.loads(r.read_text())["seats"]] for r in records]
    assert seats == [["heuristic", "random"], ["random", "heuristic"]]          # seats rotated
    assert [json.loads(r.read_text())["seed"] for r in records] == [4, 4]       # one deal from both seats
    with open(out_dir / "standings.csv") as f:
        rows = list(csv.DictReader(f))
    assert [r["bot"] for r in rows] == ["heuristic", "random"]
    assert float(rows[1]["rating"]) == 0.0 and float(rows[0]["win_rate_low"]) <= float(rows[0]["win_rate"])
    with open(out_dir / "pairings.csv") as f:
        pairs = list(csv.DictReader(f))
    assert len(pairs) == 1 and pairs[0]["games"] == "2"
    summary = json.loads((out_dir / "summary.json").read_text())
    assert summary["games"] == 2 and summary["run"]["played"] == 2
    md = (out_dir / "summary.md").read_text()
    assert "| heuristic | 2 |" in md and "gutenberg-ai arena --bots heuristic,random" in md
    # The command the summary gives runs as written: without the budget no bot here takes.
    command = next(line.split() for line in md.splitlines() if "gutenberg-ai arena" in line)
    assert "--seconds" not in command and "--iterations" not in command
    again = cli(*command[1:], "--rounds", "1")
    assert again.returncode == 0 and "2 found finished" in again.stdout, again.stderr
    for r in records:
        assert cli("replay", str(r), "--quiet").returncode == 0
    # resuming: the finished games are read back, not played again
    stamps = [r.stat().st_mtime_ns for r in records]
    out = cli(*args, "--jobs", "1")
    assert out.returncode == 0, out.stderr
    assert "2 games: 0 played now" in out.stdout and "2 found finished" in out.stdout
    assert [r.stat().st_mtime_ns for r in records] == stamps
    # more games extend the run; other settings may not change under the same --out
    out = cli("arena", "--bots", "heuristic,random", "--games", "3", "--rounds", "1", "--out", str(out_dir),
              "--seed", "4", "--jobs", "1")
    assert out.returncode == 0 and "3 games: 1 played now" in out.stdout
    out = cli("arena", "--bots", "heuristic,random", "--games", "2", "--rounds", "2", "--out", str(out_dir),
              "--seed", "4")
    assert out.returncode == 2 and "played with rounds = 1, not 2" in out.stderr


def test_arena_rejects_bad_bots_and_options(tmp_path):
    out = cli("arena", "--bots", "heuristic,alphazero", "--out", str(tmp_path))
    assert out.returncode == 2 and "'alphazero' is not one of" in out.stderr
    out = cli("arena", "--bots", "heuristic", "--out", str(tmp_path))
    assert out.returncode == 2 and "at least 2 bots" in out.stderr
    out = cli("arena", "--bots", "heuristic,random", "--options", "{", "--out", str(tmp_path))
    assert out.returncode == 2 and "options: line 1, column 2: invalid JSON" in out.stderr
    out = cli("arena", "--bots", "heuristic,random", "--options", '{"random": {}, "random": {}}', "--out", str(tmp_path))
    assert out.returncode == 2 and "options: top level: key 'random' is given twice" in out.stderr


def test_arena_statistics():
    from gutenberg_ai.common import stats
    from gutenberg_ai.tools import arena
    lo, hi = stats.wilson(50, 100)
    assert abs(lo - 0.4038) < 1e-3 and abs(hi - 0.5962) < 1e-3
    assert stats.wilson(0, 0) == (0.0, 1.0)
    import numpy as np
    even = np.array([[0, 10.0], [10.0, 0]])
    p = arena.bradley_terry(even)
    assert abs(p[0] - p[1]) < 1e-9
    # A beats B 3 to 1, B beats C 3 to 1: A > B > C, and BT's A:B odds are those of the games
    wins = np.array([[0, 300.0, 0], [100.0, 0, 300.0], [0, 100.0, 0]])
    r = arena.elo(arena.bradley_terry(wins), anchor=2)
    assert r[0] > r[1] > r[2] == 0
    assert abs((r[0] - r[1]) - 400 * np.log10(3)) < 5
    # 3-player lineups when there are fewer bots than seats; rotations
    assert arena.lineups(["a", "b"], 3) == [("a", "a", "b"), ("a", "b", "b")]
    assert arena.game_seats(("a", "b", "c"), 4) == ["b", "c", "a"]


def test_a_reader_that_stops_early_stops_the_command_quietly():
    """`gutenberg-ai demo | head -1`: no "Broken pipe" message, the status of a program
    that SIGPIPE stopped."""
    proc = subprocess.Popen([sys.executable, "-m", "gutenberg_ai", "demo", "--seed", "3"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout.readline().startswith(b"Seed 3")
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=300) == 141 and err == b""


# -- what a new user reads -------------------------------------------------------------------
def piped(*args, cwd=None):
    """The command with its output piped (not a terminal), at no COLUMNS of the caller's."""
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    return subprocess.run([sys.executable, "-m", "gutenberg_ai", *args], capture_output=True, text=True,
                          timeout=120, env=env, cwd=cwd, stdin=subprocess.DEVNULL)


def test_piped_hints_keep_each_move_and_each_expected_step_whole_on_a_line():
    """Piped output is laid out PIPED_WIDTH wide (rich's 80 folded a plan in the middle),
    and the line the search expects is listed below the table a step at a time, each
    step whole, never folded mid-phrase inside a narrow column."""
    from gutenberg_ai.interfaces import tui
    position = str(POSITIONS[[p.name for p in POSITIONS].index("plan-round1-2p.json")])
    out = piped("hint", position, "--iterations", "600", "--top", "3", "--seed", "0")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert max(map(len, lines)) <= tui.PIPED_WIDTH and max(map(len, lines)) > 80
    hints = json.loads(piped("hint", position, "--iterations", "600", "--top", "3", "--json",
                             "--seed", "0").stdout)["hints"]
    from gutenberg_ai.games.positionfile import load_position, seat_names
    from gutenberg_ai.games.seen import named_step
    names = seat_names(load_position(position)[1].names)
    for h in hints:
        assert any(h["text"] in line for line in lines), h["text"]
        for step in h["line"][:4]:     # each seat by the position's name, as the title says it
            assert any(named_step(step, names) in line for line in lines), step
    assert out.stderr == ""       # no progress bar, no spinner, off a terminal


def test_a_wide_review_shows_a_step_whole_past_the_narrow_column(tmp_path):
    """At 160 columns the step column widens (up to 29 characters here): "tradesmen setup"
    (15) whole, not cut at 14 as a 100-column table cuts it."""
    from gutenberg_ai.interfaces.cli import REVIEW_STEP_MIN
    assert piped("demo", "--game", "lead-letter-printers", "--seed", "3", "--rounds", "1", "--bots", "heuristic",
                 "--quiet", "--save", "rec.json", cwd=tmp_path).returncode == 0
    for columns, whole in (("160", True), ("100", False)):
        out = subprocess.run([sys.executable, "-m", "gutenberg_ai", "review", "rec.json", "--iterations", "30",
                              "--seed", "1"], capture_output=True, text=True, timeout=300, cwd=tmp_path,
                             env=dict(os.environ, COLUMNS=columns), stdin=subprocess.DEVNULL)
        assert out.returncode == 0, out.stderr
        steps = {d["step"] for d in json.loads((tmp_path / "rec-review.json").read_text())["decisions"]}
        assert "tradesmen setup" in steps and len("tradesmen setup") > REVIEW_STEP_MIN
        assert (" tradesmen setup " in out.stdout) == whole, out.stdout[:2000]


def test_piped_review_is_a_table_of_whole_moves_not_a_word_a_line(tmp_path):
    assert piped("demo", "--seed", "7", "--rounds", "1", "--bots", "heuristic", "--quiet", "--save", "rec.json",
                 cwd=tmp_path).returncode == 0
    out = piped("review", "rec.json", "--iterations", "40", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    result = json.loads((tmp_path / "rec-review.json").read_text())
    rows = sum(1 for d in result["decisions"] if d["method"] != "only move")
    lines = out.stdout.splitlines()
    assert max(map(len, lines)) <= 120
    assert len(lines) < 3 * rows        # at 80 columns the moves took a word a line: 343 lines for 44 rows
    assert any("keep William Caxton" in line or "keep Helena Ungler" in line for line in lines)


def test_cards_reads_an_amount_of_fame_or_guilders_as_one_figure():
    """"2f" is 2 fame on the card, not a 2 somewhere and some fame somewhere else (R21
    shows 4f, 1f and a reward of 1g: no 2 fame)."""
    out = cli("cards", "refinement", "red", "2f", "--top", "40")
    assert out.returncode == 0, out.stderr
    rows = [line.split(None, 1) for line in out.stdout.splitlines() if re.match(r"\s+R\d+\s", line)]
    assert rows and "R21" not in [card for card, _ in rows]
    assert all(re.search(r"\b2f\b", shows) for _, shows in rows)
    assert re.findall(r"^\s+(P\d+)\s", cli("cards", "A", "I", "I", "U", "5", "guilders").stdout, re.M) == ["P30"]
    assert "P30" in cli("cards", "A", "I", "I", "U", "5g").stdout
    assert cli("cards", "A", "I", "I", "U", "3g").stdout.startswith("No card shows all of that.")   # P30 is 5g


def test_cards_names_the_words_it_did_not_understand():
    out = cli("cards", "blah", "red")
    assert out.returncode == 1
    assert "Not understood (no card shows it): blah" in out.stdout
    out = cli("cards", "refinement", "red", "2f", "zebra", "quux")
    assert "Not understood (no refinement card shows it): zebra, quux" in out.stdout
    out = cli("cards", "--game", "lead-letter-printers", "technology", "zebra")
    assert "zebra" in out.stdout and "Not understood" in out.stdout
    # A word is the person's text: its escape codes are shown escaped, never sent to the terminal.
    out = cli("cards", "\x1b[31mred")
    assert "\x1b" not in out.stdout and "Not understood (no card shows it): \\x1b[31mred" in out.stdout
    out = cli("cards", "--json", "--game", "printing-press", "\x1b]0;pwned\x07")
    assert "\x1b" not in out.stderr and "\\x1b]0;pwned\\x07" in out.stderr



@pytest.mark.parametrize("game", ["gutenberg", "printing-press", "lead-letter-printers"])
def test_cards_with_nothing_near_shows_no_table_and_points_to_none(game):
    out = cli("cards", "--game", game, "nosuchword")
    assert out.returncode == 1
    assert out.stdout.startswith("No card shows any of that.\nNot understood (no card shows it): nosuchword\n")
    assert "The closest" not in out.stdout and "above" not in out.stdout


def test_counts_of_one_are_singular():
    from gutenberg_ai.games.lead_letter_printers.catalogue import default_catalogue
    from gutenberg_ai.common.words import counted
    assert (counted(1, "mark"), counted(2, "mark"), counted(0, "guilder")) == ("1 mark", "2 marks", "0 guilders")
    out = cli("cards", "--game", "lead-letter-printers", "trading", "--top", "40").stdout
    out += cli("cards", "--game", "lead-letter-printers", "order", "--top", "40").stdout
    assert not re.search(r"\b1 (points|marks)\b", out) and re.search(r"\b1 point\b", out)
    cat = default_catalogue()
    texts = [cat.describe_tile(i) for i in range(cat.count("tile"))] + \
        [cat.describe_order(i) for i in range(cat.count("order"))]
    assert "trading tile 20 (1 paper + 1 mark -> 1 point)" in texts


def test_a_printing_press_character_side_says_what_it_does():
    """At the choice of a character's side, each side's move says its ability (the
    rulebook's p.18 in the view's words); a choice of characters, where there is one,
    says both sides of each."""
    from gutenberg_ai.interfaces import tui
    from gutenberg_ai.games.printing_press import _core as pp
    from gutenberg_ai.games.printing_press.view import CHARACTER_SIDES
    game = pyspiel.load_game("printing_press", {"players": 2})
    state = game.new_initial_state()
    seen = set()
    while not state.is_terminal() and "side" not in seen:
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
            continue
        legal = state.legal_actions()
        core = gutenberg_ai.core_of(state)
        texts = [tui.move_text(core, a, state.action_to_string(state.current_player(), a)) for a in legal]
        if all(pp.ACTIONS["CHARACTER"] <= a < pp.ACTIONS["SIDE"] for a in legal):
            seen.add("character")
            for text in texts:
                assert "(side A: " in text and "; side B: " in text, text
        if all(pp.ACTIONS["SIDE"] <= a < pp.ACTIONS["YES"] for a in legal):
            seen.add("side")
            a_side, b_side = CHARACTER_SIDES[core.character(state.current_player())]
            assert texts[0].endswith(": " + a_side) and texts[1].endswith(": " + b_side), texts
        state.apply_action(legal[0])
    assert "side" in seen


def test_a_demo_searches_each_game_at_its_own_budget(tmp_path):
    """A searching bot's default budget in a demo is the game's (cli.DEMO_ITERATIONS): a
    Printing Press or Lead Letter Printers move costs several Gutenberg moves, and 1,000
    iterations made their demo take minutes."""
    from gutenberg_ai.interfaces.cli import DEMO_ITERATIONS
    for game, budget in (("printing-press", 100), ("gutenberg", 1000)):
        record = tmp_path / f"{game}.json"
        out = cli("demo", "--game", game, "--bots", "smmcts,heuristic", "--rounds", "1", "--quiet", "--seed", "1",
                  "--save", str(record))
        assert out.returncode == 0, out.stderr
        assert json.loads(record.read_text())["seats"][0]["options"] == {"iterations": budget}
        assert DEMO_ITERATIONS[game] == budget


def test_files_to_write_and_empty_paths_are_refused_before_any_work(tmp_path, monkeypatch):
    """A file a command would write is checked before the work (a folder, a path under a
    file, the record being reviewed itself), as is a folder --out (a file, a path under a
    file: an OSError's "[Errno 17] File exists" after the bots were made), and an empty
    path is refused rather than taken as "none" (a new game where a resume was asked for)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "d1").mkdir()
    (tmp_path / "afile").write_text("x")
    demo = cli("demo", "--seed", "1", "--bots", "random", "--quiet", "--save", "game.json")
    assert demo.returncode == 0 and (tmp_path / "game.json").exists()
    record_before = (tmp_path / "game.json").read_text()
    for args, words in [(("demo", "--save", "d1"), "--save: d1 is a folder"),
                        (("demo", "--save", "afile/x.json"), "which is a file"),
                        (("demo", "--save", "nosuch/x.json"), "--save: nosuch/x.json: no folder"),
                        (("demo", "--save", ""), "--save: an empty path"),
                        (("play", "--resume", ""), "--resume: an empty path"),
                        (("play", "--position", ""), "--position: an empty path"),
                        (("table", "--resume", ""), "--resume: an empty path"),
                        (("review", "game.json", "--iterations", "5", "--out", "game"), "is the file read"),
                        (("arena", "--bots", "heuristic,random", "--out", "ar", "--pairings", ""), "none named"),
                        (("demo", "--game", ""), "'' is not one of"),
                        (("hint", ""), "a position: an empty path"),   # it was "cannot read '.'"
                        (("replay", ""), "a game record: an empty path"),
                        (("train", "", "--out", "w.npz"), "train: an empty path"),
                        (("selfplay", "--games", "1", "--out", ""), "--out: an empty path"),
                        (("arena", "--bots", "heuristic,random", "--out", ""), "--out: an empty path"),
                        (("arena", "--bots", "heuristic,random", "--out", "afile"), "--out: afile is a file, not a folder"),
                        (("train", "afile", "--out", "w.npz"), "train: afile is a file, not a folder"),
                        (("selfplay", "--games", "1", "--out", "afile/x"), "afile/x would be inside"),
                        (("suite", "--bot", "random", "--out", "afile"), "--out: afile is a file, not a folder")]:
        r = cli(*args)
        assert r.returncode == 2 and words in r.stderr and "Traceback" not in r.stderr, (args, r.stderr)
        assert not r.stdout.strip(), (args, r.stdout[:200])      # nothing played
    assert (tmp_path / "game.json").read_text() == record_before
    assert not (tmp_path / "ar").exists()


def test_a_named_pipe_with_no_writer_is_read_as_empty_not_waited_on(tmp_path):
    """`hint FIFO` where nobody writes: refused at once (it blocked for ever); a position
    from a pipe is refused saying to save it to a file (its game reads the file again)."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    r = subprocess.run([sys.executable, "-m", "gutenberg_ai", "hint", str(fifo)], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 2 and "not a file" in r.stderr and "Traceback" not in r.stderr, r.stderr


def test_a_long_or_escaped_line_at_the_prompt_is_not_read_nor_echoed_raw():
    """A line over the prompt's bound is refused (said in one line, read again), and a
    line fed to play is echoed with its escape codes shown, not sent to the terminal."""
    r = cli("play", "--game", "printing-press", "--players", "2", "--ai", "random", "--seed", "3", "--rounds", "1",
            stdin="x" * 5000 + "\n" + "\x1b[2J\x1b[31mzz\n")
    assert "a line of 5,000 characters: at most 1,000 are read here" in r.stdout
    assert "\x1b[2J" not in r.stdout and "\\x1b[2J" in r.stdout
    assert "x" * 1001 not in r.stdout


def test_an_error_quoting_what_was_typed_shows_its_escape_codes(tmp_path):
    """A path or an option typed with escape codes in it is quoted in the error with them
    shown (\\x1b), not sent to the terminal (--save's folder and argparse's unknown option
    were printed raw)."""
    for args, shown in [(("demo", "--save", str(tmp_path / "no\x1b[2Jdir" / "x.json")), "no\\x1b[2Jdir"),
                        (("demo", "--\x1b[31m"), "--\\x1b[31m")]:
        r = cli(*args)
        assert r.returncode == 2 and shown in r.stderr and "\x1b" not in r.stderr, (args, r.stderr)


def test_the_table_prompt_prints_names_as_they_are_not_as_markup(monkeypatch):
    """A name like "[bold red]Anna[/]" (a position's, or --names) is printed in the
    prompt as written: rich's markup in it is not applied (it was, at a terminal)."""
    from gutenberg_ai.interfaces.table import FollowedGame
    from gutenberg_ai.interfaces.table_terminal import TableSession
    game = gutenberg_ai.games.get("printing-press").load(players=2)
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=120)
    session = TableSession(FollowedGame(game, 1, 0, ["[bold red]Anna[/]", "Ben"]), console)
    monkeypatch.setattr("builtins.input", lambda prompt="": "quit")
    line = session.read_line("[bold red]Anna[/]'s move (orders)? ")
    assert line == "quit"
    assert "[bold red]Anna[/]'s move" in out.getvalue() and "\x1b[1;31m" not in out.getvalue()


def test_options_that_would_be_ignored_or_taken_as_the_default_are_refused(tmp_path, monkeypatch):
    """An option that does nothing where it is given, or an empty value, is refused
    naming it, not silently dropped or replaced by the default."""
    monkeypatch.chdir(tmp_path)
    demo = cli("demo", "--seed", "1", "--rounds", "1", "--bots", "random", "--quiet", "--save", "game.json")
    assert demo.returncode == 0
    n = len(json.loads((tmp_path / "game.json").read_text())["actions"])
    for args, words in [
            (("play", "--ai", ""), "name at least one bot"),
            (("play", "--ai", "smmcts,,heuristic"), "an empty bot name"),
            (("arena", "--bots", "heuristic,random", "--out", "ar", "--alpha", "0.1"), "give --sprt too"),
            (("suite", "--bot", "heuristic", "--jobs", "2"), "give --ray too"),
            (("tune", "--out", "tu", "--space", "{}"), "names no option to search"),
            (("tune", "--out", "tu", "--space", '{"uct_c": [0.5, 2]}', "--options", '{"uct_c": 1}'),
             "space.uct_c: also a fixed option"),
            (("replay", "game.json", "--to", str(n + 1)), f"--to {n + 1}: the record game.json has {n} actions"),
            (("study", "scaling", "--budgets", "50,50", "--out", "st"), "budgets: 50 given twice"),
            (("study", "scaling", "--budgets", "50,100", "--reference", "nosuch", "--out", "st"),
             "reference: bot 'nosuch' is not one of"),
            (("demo", "--catalogue", str(tmp_path)), "is a folder, not a file"),
            (("arena", "--bots", "heuristic,random,", "--out", "ar"), "an empty bot name"),
            (("arena", "--bots", "heuristic,random", "--pairings", "heuristic:random,,", "--out", "ar"),
             "an empty pairing"),
            (("arena", "--bots", "heuristic,random", "--sprt", "0,50", "--games", "5", "--out", "ar"),
             "games: 5 is odd"),
            (("study", "scaling", "--budgets", "10,,20", "--out", "st"), "an empty budget"),
            (("study", "balance", "--bot", "heuristic", "--iterations", "10", "--out", "st"),
             "--iterations: heuristic does not search"),
            (("suite", "--bot", "heuristic", "--iterations", "100"), "--iterations: heuristic does not search"),
            (("demo", "--bots", "random,heuristic", "--iterations", "5"),
             "--iterations: random and heuristic do not search: they take no budget (leave --iterations out)"),
            (("arena", "--bots", "heuristic,random", "--seconds", "1", "--out", "ar"),
             "--seconds: heuristic and random do not search: they take no budget (leave --seconds out)"),
            (("arena", "--bots", "heuristic@5,random", "--out", "ar"),
             "bot 'heuristic@5': heuristic does not search: it takes no budget (leave out @5)"),
            (("arena", "--bots", "smmcts@50,ismcts@50,random", "--seconds", "1", "--out", "ar"),
             "--seconds: smmcts@50 and ismcts@50 each name their own budget (leave --seconds out)"),
            (("study", "balance", "--bot", "smmcts@5", "--iterations", "5", "--out", "st"),
             "--iterations: smmcts@5 names its own budget (leave --iterations out)"),
            (("hint", "game.json", "--bot", "smmcts@100", "--iterations", "5"),
             "--bot: smmcts@100 names its own budget (leave out seconds and iterations)")]:
        r = cli(*args)
        assert r.returncode == 2 and words in r.stderr and "Traceback" not in r.stderr, (args, r.stderr)
    assert not any((tmp_path / d).exists() for d in ("ar", "tu", "st"))
    r = cli("replay", "game.json", "--to", str(n), "--quiet")
    assert r.returncode == 0 and f"After {n} of {n} actions" in r.stdout


def test_cards_as_json_says_on_stderr_what_it_did_not_understand():
    out = cli("cards", "--json", "zebra", "red")
    assert out.returncode == 1 and json.loads(out.stdout) == []
    assert "Not understood (no card shows it): zebra" in out.stderr


def test_an_arena_of_the_largest_seed_writes_records_that_replay(tmp_path, monkeypatch):
    """Every seed an arena derives (the deals', the bots') stays within the seeds a
    record takes, so its records replay and a second run finds them done."""
    monkeypatch.chdir(tmp_path)
    args = ("arena", "--bots", "heuristic,random", "--games", "2", "--rounds", "1", "--jobs", "1",
            "--seed", str(2**63 - 1), "--out", "big")
    assert cli(*args).returncode == 0
    records = sorted((tmp_path / "big" / "games").rglob("game-*.json"))
    assert len(records) == 2
    for path in records:
        out = cli("replay", str(path), "--quiet")
        assert out.returncode == 0, out.stderr
    again = cli(*args)
    assert again.returncode == 0 and "played again" not in again.stdout + again.stderr
    from gutenberg_ai.tools import arena
    with pytest.raises(arena.ArenaError, match="out: '' is not a folder's path"):
        arena.run_arena(arena.ArenaSettings(bots=["heuristic", "random"], games=1, rounds=1), "")
    with pytest.raises(arena.ArenaError, match="seed"):
        arena.run_arena(arena.ArenaSettings(bots=["heuristic", "random"], games=1, rounds=1, seed=2**64), "x")
    assert not (tmp_path / "x").exists()


def test_a_seen_record_with_a_wrong_late_entry_is_named_at_that_entry(tmp_path):
    """A record of what one player saw (hidden entries filled on replay) whose visible
    entry after every hidden one is wrong is named at that entry, with why, not at the
    first hidden entry as if nothing could be filled."""
    game = gutenberg_ai.load_game(players=2, rounds=1)
    bots = [gutenberg_ai.make_bot("heuristic", game, seat, seed=seat) for seat in range(2)]
    record = GameRecord(game, 11, [seat_entry(s, "heuristic", s) for s in range(2)], "test")
    final = play_bots(game, bots, 11, record)
    path = tmp_path / "seen.json"
    data = record.save(path, viewer=0, state=final)
    hidden = [i for i, e in enumerate(data["actions"]) if e.get("hidden")]
    assert hidden and replay(load_record(path)).is_terminal()
    k = max(i for i, e in enumerate(data["actions"]) if "text" in e and e["player"] == 0)
    assert k > hidden[-1]
    data["actions"][k]["text"] = "pass the port"
    path.write_text(json.dumps(data))
    with pytest.raises(RecordError) as info:
        replay(load_record(path))
    assert info.value.where == f"actions[{k}].text" and "'pass the port', but this game reads" in info.value.reason


def test_the_gutenberg_ai_script_finds_a_bot_of_your_own_in_the_working_folder(tmp_path):
    """docs/your-bot.md: module:factory is imported from Python's path, the working
    folder included. The installed script's own folder is on its path, not the working
    folder (`python -m` has it): the bot's module is found there all the same."""
    script = pathlib.Path(sys.executable).with_name("gutenberg-ai")
    if not script.exists():
        pytest.skip("the gutenberg-ai script is not installed beside this Python")
    (tmp_path / "mybot.py").write_text(
        "import numpy as np\n"
        "from open_spiel.python.bots.uniform_random import UniformRandomBot\n\n"
        "def make_bot(game, seat, seed, budget, **options):\n"
        "    return UniformRandomBot(seat, np.random.RandomState(seed))\n")
    out = subprocess.run([str(script), "arena", "--bots", "mybot:make_bot,random", "--games", "2", "--rounds", "1",
                          "--jobs", "1", "--out", "a"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "mybot:make_bot" in out.stdout and (tmp_path / "a" / "summary.json").exists()


def test_a_long_command_redirected_to_a_file_says_how_far_it_is_on_stderr(tmp_path):
    """Where the output is not a terminal the progress bar is a line now and then on
    stderr (at the start and the end at least); stdout keeps the tables alone. An arena
    of 3 players and 4 games says its seats are not balanced."""
    out = feed("arena", "--bots", "heuristic,random", "--players", "3", "--games", "4", "--rounds", "1",
               "--out", str(tmp_path / "a"))
    assert out.returncode == 0, out.stderr
    assert "arena: games 0/8, 0 min" in out.stderr and "arena: games 8/8, " in out.stderr
    assert "arena:" not in out.stdout
    said = " ".join(out.stdout.split())
    assert "Note: --games 4 is not a multiple of the 3 seats: the last deal of each match is played from 1 of its 3 " \
           "seatings" in said
    assert "seats" in out.stdout.split("Standings")[1].split("\n")[3]      # the column counts seats
    assert "Note: --games 4 is not a multiple of the 3 seats" in (tmp_path / "a" / "summary.md").read_text()


def test_an_arena_without_a_seed_takes_a_new_one_and_its_resume_the_same(tmp_path):
    """No --seed: a new seed, printed after the run; the same command into the same
    folder goes on with the seed recorded there (not another new one, whose games would
    not fit), and says so."""
    command = ("arena", "--bots", "heuristic,random", "--games", "2", "--rounds", "1", "--jobs", "1",
               "--out", str(tmp_path / "a"))
    first = feed(*command)
    assert first.returncode == 0, first.stderr
    said = re.search(r"Seed (\d+), a new one \(--seed \1 uses it again\)", first.stderr)
    assert said, first.stderr
    settings = json.loads((tmp_path / "a" / "arena.json").read_text())["settings"]
    assert settings["seed"] == int(said.group(1))
    again = feed(*command[:4], "4", *command[5:])       # two games more, into the same folder
    assert again.returncode == 0, again.stderr
    assert f"Seed {said.group(1)}, the seed of the earlier run in {tmp_path / 'a'}" in again.stderr
    assert "2 found finished" in again.stdout
    # Its settings file gone, a match's first record says the seed (its deal is the seed's).
    (tmp_path / "a" / "arena.json").unlink()
    third = feed(*command[:4], "4", *command[5:])
    assert third.returncode == 0 and f"Seed {said.group(1)}, the seed of the earlier run" in third.stderr
    assert "4 found finished" in third.stdout


def test_the_command_selfplay_suggests_is_one_line_to_copy(tmp_path):
    """However narrow the terminal, the train command after self-play is not broken
    across lines (a copied command must run)."""
    out = tmp_path / ("a-long-folder-name-" * 4) / "sp"
    said = cli("selfplay", "--games", "1", "--iterations", "5", "--rounds", "1", "--seed", "1", "--out", str(out))
    assert said.returncode == 0, said.stderr
    assert f"  gutenberg-ai train {out} --out WEIGHTS.npz" in said.stdout.splitlines(), said.stdout
