"""Printing Press on the command line, driven as a user would (a demo and its record
replayed: tests/test_games_cli.py): the demo's options, a game in the terminal (moves by
number and by row and column, hint, undo, save, save-position, the end), hints from a
position of a real table, records replayed (also one saved as a player saw it, and
resumed), an arena, and files of one game refused by the other."""
import io
import json
import pathlib
import random
import re

import pyspiel
import pytest
from rich.console import Console

from gutenberg_ai import games
from gutenberg_ai.search.bots import make_bot
from gutenberg_ai.games import core_of
from gutenberg_ai.interfaces.play import Session, Settings
from gutenberg_ai.games.records import GameRecord, draw_chance, load_record, replay, seat_entry
from every_game import cli

pytestmark = pytest.mark.skipif("printing_press" not in pyspiel.registered_names(),
                                reason="the native game printing_press is not built in")

PP = games.get("printing-press")
POSITIONS = pathlib.Path(__file__).parent.parent / "gutenberg_ai" / "games" / "printing_press" / "data" / "positions"
CARDS = POSITIONS / "cards-round2-3p.json"
CLOSE = POSITIONS / "close-round1-2p.json"
GUTENBERG_POSITION = pathlib.Path(__file__).parent.parent / "gutenberg_ai" / "games" / "gutenberg" / "data" / "positions" / \
    "fulfil-round6-2p.json"


# -- demo and replay (tests/test_games_cli.py: a seeded demo's record replays) --------------------
def test_demo_refuses_an_option_the_game_does_not_know():
    out = cli("demo", "--game", "printing-press", "--automa")
    assert out.returncode == 2 and "--automa: Printing Press has no such parameter" in out.stderr
    out = cli("demo", "--variant", "advanced")
    assert out.returncode == 2 and "--variant: Gutenberg has no such parameter" in out.stderr
    out = cli("demo", "--game", "printing-press", "--rounds", "4")
    assert out.returncode == 2 and "rounds" in out.stderr and "Traceback" not in out.stderr


def test_a_solo_demo_plays_against_the_automa():
    out = cli("demo", "--game", "printing-press", "--players", "1", "--bots", "heuristic", "--seed", "2", "--quiet",
              "--variant", "advanced")
    assert out.returncode == 0, out.stderr
    assert re.search(r"^automa +\d+$", out.stdout, re.M)
    # Nobody played: the verdict names the bot's seat, not "you".
    assert re.search(r"player 0 beats the automa|The automa wins|A tie with the automa", out.stdout)
    assert "You beat" not in out.stdout and "you do not win" not in out.stdout
    # Played out, the game says each card the automa's rules took, and the rule.
    out = cli("demo", "--game", "printing-press", "--players", "1", "--bots", "heuristic", "--seed", "3")
    assert out.returncode == 0, out.stderr
    assert len(re.findall(r"^  automa: took card \d+ \(.*\) into column \d: the rule '", out.stdout, re.M)) >= 8


def test_the_solo_game_made_harder_as_the_rulebook_offers(tmp_path):
    """p.17: 1 setup token instead of 3, the automa wins ties, the solo board's 5-4-3-1
    side, in any combination: options of demo, play and table that make the game's
    parameters (kept in the record), shown in the heading; refused for 2 players and
    for another game, by name."""
    out = cli("demo", "--game", "printing-press", "--players", "1", "--bots", "heuristic", "--seed", "2",
              "--quiet", "--hard-board", "--automa-wins-ties", "--save", str(tmp_path / "d.json"))
    assert out.returncode == 0, out.stderr
    game = json.loads((tmp_path / "d.json").read_text())["game"]
    assert (game["hard_board"], game["automa_wins_ties"], game["one_token"]) == (True, True, False)
    out = cli("play", "--game", "printing-press", "--players", "1", "--one-token", "--seed", "2", stdin="quit\n")
    assert out.returncode == 0, out.stderr
    assert "harder: 1 setup token (not 3)" in " ".join(out.stdout.split())
    out = cli("table", "--game", "printing-press", "--players", "1", "--one-token", "--hard-board",
              "--save", str(tmp_path / "t.json"), stdin="quit\n")
    assert out.returncode == 0, out.stderr
    game = json.loads((tmp_path / "t.json").read_text())["game"]
    assert (game["hard_board"], game["automa_wins_ties"], game["one_token"]) == (True, False, True)
    out = cli("demo", "--game", "printing-press", "--players", "2", "--hard-board", "--quiet")
    assert out.returncode == 2 and "hard_board: a solo difficulty option, but players is 2" in out.stderr
    out = cli("demo", "--players", "1", "--one-token", "--quiet")
    assert out.returncode == 2 and "--one-token: Gutenberg has no such parameter" in out.stderr


# -- a game in the terminal ------------------------------------------------------------------------
def test_a_scripted_game_reaches_the_score_sheet_and_its_record_replays(tmp_path):
    path = tmp_path / "game.json"
    stdin = "help\nhelp characters\nboard\nmoves\n" + "1\n" * 600
    out = cli("play", "--game", "printing-press", "--ai", "heuristic", "--seed", "1", "--save", str(path), stdin=stdin)
    assert out.returncode == 0, out.stderr
    assert "help symbols" in out.stdout and "Yolande Bonhomme: A once, go first in a step" in out.stdout
    assert "Final score sheet" in out.stdout and "round 3" in out.stdout
    assert "tableau" in out.stdout and "\nplate " in out.stdout
    record = load_record(str(path))
    assert record["game"]["name"] == "printing-press" and record["finished"]
    assert core_of(replay(record)).is_terminal()


def _session(tmp_path, answers, players=3, human=1, seed=5):
    """A game of Printing Press with `human` the person, whose answers come from
    `answers(core, legal)` (None: the first move)."""
    console = Console(file=io.StringIO(), width=100, highlight=False)
    game = PP.load(players=players)

    def read(prompt):
        s = session.state
        return answers(core_of(s), s.legal_actions()) or "1"

    session = Session(game, Settings(human=human, ai=("heuristic",), iterations=30, seed=seed), console, read_line=read)
    return session, console


def test_a_row_and_a_column_place_a_card_hint_and_undo_at_the_prompt(tmp_path):
    said = {"typed": 0, "hint": 0, "undo": 0, "quit": 0}

    def answers(core, legal):
        d = core.to_dict()
        if core.phase == "Select Cards" and d["sub"] == 1 and d["held"] == 0 and d["players"][1]["pieces"]:
            if not said["hint"]:
                said["hint"] = 1
                return "hint"
            if not said["typed"]:
                said["typed"] = 1
                from gutenberg_ai.games.printing_press import _core
                printed = int(core.rules.catalogue.cards[d["taken"]].vertical)
                place = [a for a in legal if _core.ACTIONS["PLACE"] <= a < _core.ACTIONS["UNDER"]
                         and (a - _core.ACTIONS["PLACE"]) // _core.NUM_ANCHORS == printed][0]
                r, c = _core.anchor_cell((place - _core.ACTIONS["PLACE"]) % _core.NUM_ANCHORS)
                said["where"] = (r + 1, c + 1)
                return f"{r + 1} {c + 1}"
            if not said["undo"]:
                said["undo"] = 1
                return "undo"
            said["quit"] = 1
            return "quit"
        return None

    session, console = _session(tmp_path, answers)
    assert session.run() == 0
    text = " ".join(console.file.getvalue().split())
    assert said["quit"] and "Hints (" in text and "points" in text
    r, c = said["where"]
    # (a row or column 0 or below also says how far it is from row 1 or column 1)
    assert re.search(rf"(vertically|horizontally) at row {r}( \([^)]*\))?, column {c}\b", text), (r, c)
    assert "Undone: " in text


def test_what_the_person_saves_hides_the_others_tokens_and_resumes(tmp_path):
    seen, full, position = tmp_path / "seen.json", tmp_path / "full.json", tmp_path / "table.json"
    steps = [f"save {seen}", f"save --full {full}", f"save-position {position}", "quit"]

    def answers(core, legal):
        if core.round == 2 and core.phase == "Select Cards" and core.to_dict()["sub"] == 0 and steps:
            return steps.pop(0)
        return None

    session, console = _session(tmp_path, answers)
    assert session.run() == 0
    hidden, whole = json.loads(seen.read_text()), json.loads(full.read_text())
    masked = [i for i, e in enumerate(hidden["actions"]) if e.get("hidden")]
    assert masked and hidden["viewer"] == 1 and hidden["seed"] is None
    kinds = {whole["actions"][i]["text"].split(" for ")[0].split(":")[0] for i in masked}
    assert kinds <= {"setup token", "token drawn by player 0", "token drawn by player 2",
                     "keep the", "Caxton"} or all("player 1" not in whole["actions"][i]["text"] for i in masked)
    for i in masked:
        assert whole["actions"][i]["player"] != 1 and "player 1" not in whole["actions"][i]["text"]
    # the hidden draws are dealt again as they fit the record; the full one replays exactly
    state = replay(load_record(str(seen)))
    assert core_of(state).round == 2
    assert core_of(replay(load_record(str(full)))).round == 2
    out = cli("replay", str(seen), "--quiet")
    assert out.returncode == 0, out.stderr
    # resumed: the person goes on from where they saved
    out = cli("play", "--resume", str(seen), "--ai", "heuristic", "--seed", "4", stdin="1\n" * 600)
    assert out.returncode == 0, out.stderr
    assert "draws you had not seen dealt at random" in out.stdout and "Final score sheet" in out.stdout
    wrong = cli("play", "--resume", str(seen), "--game", "gutenberg")
    assert wrong.returncode == 2 and "is a game of Printing Press" in wrong.stderr
    # the position the person saved: theirs to see, the others' tokens hidden; a hint reads it
    data = json.loads(position.read_text())
    assert data["format"] == "printing-press-position" and data["step"]["player"] == 1
    assert "hidden" not in json.dumps(data["players"][1])
    hint = cli("hint", str(position), "--iterations", "200", "--json")
    assert hint.returncode == 0, hint.stderr
    assert json.loads(hint.stdout)["game"] == "printing-press"


def test_every_decision_of_a_game_in_the_terminal_fits_100_by_40():
    out = io.StringIO()
    console = Console(file=out, width=100, highlight=False)
    game = PP.load(players=4)
    rng = random.Random(4)
    screens = []

    def answer(prompt):
        text = out.getvalue()
        start = text.rfind("\n", 0, text.rfind("Your decision: ")) + 1
        screens.append((core_of(session.state).step_name(), text[start:].rstrip("\n").split("\n")))
        out.seek(0)
        out.truncate()
        return str(rng.randrange(len(session.state.legal_actions())) + 1)

    session = Session(game, Settings(human=0, ai=("heuristic",), seed=4), console, read_line=answer)
    assert session.run() == 0
    assert len(screens) > 30
    for step, lines in screens:
        shown = "\n".join(lines)
        assert len(lines) + 1 <= 40, f"{step}: {len(lines) + 1} lines\n{shown}"
        assert max(len(line) for line in lines) <= 100, shown


# -- hints from a position of a real table ---------------------------------------------------------
def test_hint_on_the_shipped_positions_as_a_table_and_as_json():
    out = cli("hint", "--game", "printing-press", str(CARDS), "--iterations", "300", "--top", "3")
    assert out.returncode == 0, out.stderr
    assert "Anna (player 0) to decide: Select Cards, step 4/6: take a card" in out.stdout
    assert "take card" in out.stdout and "win" in out.stdout
    out = cli("hint", str(CLOSE), "--iterations", "300", "--json", "--seed", "1")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["game"] == "printing-press" and data["player"] == 0 and data["step"]["kind"] == "close"
    assert data["iterations"] == 300 and data["hints"]
    again = cli("hint", str(CLOSE), "--iterations", "300", "--json", "--seed", "1")
    assert json.loads(again.stdout) == data               # an iteration budget is reproducible
    board = cli("hint", str(CLOSE), "--iterations", "50", "--board")
    assert "tableau" in board.stdout and "Walter" in board.stdout


def test_hint_refuses_a_file_of_the_other_game_or_a_hostile_one(tmp_path):
    out = cli("hint", "--game", "printing-press", str(GUTENBERG_POSITION))
    assert out.returncode == 2 and "a position of Gutenberg, not of Printing Press" in out.stderr
    out = cli("hint", "--game", "gutenberg", str(CARDS))
    assert out.returncode == 2 and "a position of Printing Press, not of Gutenberg" in out.stderr
    data = json.loads(CARDS.read_text())
    data["players"][0]["tableau"][0] = "\x1b[31mred"
    data["players"][2]["side"] = "C"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    out = cli("hint", str(bad))
    assert out.returncode == 2 and "\x1b" not in out.stderr and "Traceback" not in out.stderr
    lines = out.stderr.strip().splitlines()
    assert any("players[0].tableau[0]" in line for line in lines) and \
        any("players[2].side" in line for line in lines)


def test_play_from_a_position_deals_the_hidden_tokens_with_the_seed():
    out = cli("play", "--position", str(CARDS), "--ai", "heuristic", "--seed", "8", stdin="quit\n")
    assert out.returncode == 0, out.stderr
    assert "hides tokens of Kate (player 1), John (player 2): dealt at random (seed 8)" in " ".join(out.stdout.split())
    assert "Select Cards, step 4/6" in out.stdout


# -- the arena ---------------------------------------------------------------------------------------
def test_a_tiny_arena_of_printing_press_writes_its_tables_and_resumes(tmp_path):
    args = ("arena", "--game", "printing-press", "--bots", "heuristic,random", "--games", "2", "--jobs", "1",
            "--out", str(tmp_path), "--rounds", "1")
    out = cli(*args)
    assert out.returncode == 0, out.stderr
    assert "2 games: 2 played now" in out.stdout and "mean points" in out.stdout
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["settings"]["game"] == "printing-press"
    records = sorted((tmp_path / "games").rglob("*.json"))
    assert len(records) == 2 and all(json.loads(r.read_text())["game"]["name"] == "printing-press" for r in records)
    assert "(Printing Press)" in (tmp_path / "summary.md").read_text()
    again = cli(*args)
    assert "0 played now" in again.stdout and "2 found finished" in again.stdout
    other = cli("arena", "--bots", "heuristic,random", "--games", "2", "--jobs", "1", "--out", str(tmp_path))
    assert other.returncode == 2 and "game" in other.stderr


def test_records_of_every_player_count_saved_as_seen_replay():
    for players in (1, 2, 4):
        game = PP.load(players=players)
        bots = [make_bot("heuristic", game, s, seed=s) for s in range(players)]
        record = GameRecord(game, players, [seat_entry(s, "heuristic") for s in range(players)])
        state = game.new_initial_state()
        while not state.is_terminal():
            p = state.current_player()
            a = draw_chance(state, players) if p == -1 else bots[p].step(state)
            record.add(state, a)
            state.apply_action(a)
            if len(record.actions) in (120, 220):
                data = record.to_dict(viewer=players - 1, state=state)
                assert any(e.get("hidden") for e in data["actions"]) or players == 1
                assert core_of(replay(load_record(data))).round == core_of(state).round
        record.finish(state)
        assert core_of(replay(load_record(record.to_dict()))).is_terminal()


def test_play_from_a_position_names_the_ai_seats_by_the_files_names():
    position = pathlib.Path(games.__file__).parent / "printing_press" / "data" / "positions" / "close-round1-2p.json"
    out = cli("play", "--position", str(position), "--seat", "1", "--iterations", "20", "--seed", "1", stdin="quit\n")
    assert out.returncode == 0, out.stderr
    assert "Pat (player 0, smmcts): " in out.stdout and "player 0 (smmcts)" not in out.stdout
