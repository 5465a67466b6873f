"""Lead Letter Printers on the command line, driven as a user would (a demo and its record
replayed: tests/test_games_cli.py): a game in the terminal to its score sheet (help,
board, save-position), hints from a position file (the shipped one, and one a player
saved), play from a position, the cards lookup, an arena, and hostile files refused."""
import json
import pathlib

from gutenberg_ai.games import core_of
from gutenberg_ai.games.records import load_record, replay
from every_game import cli, random_step

POSITION = pathlib.Path(__file__).parent.parent / "gutenberg_ai" / "games" / "lead_letter_printers" / "data" / \
    "positions" / "round2-3p.json"
GAME = ("--game", "lead-letter-printers")


def test_a_scripted_game_reaches_the_score_sheet_and_saves_a_position_for_a_hint(tmp_path):
    record, saved = tmp_path / "game.json", tmp_path / "table.json"
    stdin = f"help\nhelp turn\nboard\nsave-position {saved}\n" + "1\n" * 800
    out = cli("play", *GAME, "--rounds", "1", "--ai", "heuristic", "--seed", "1", "--save", str(record), stdin=stdin)
    assert out.returncode == 0, out.stderr
    assert "help scoring" in out.stdout and "Action phase: two turns each" in out.stdout
    assert "column 1" in out.stdout and "the pile shows" in out.stdout and "trading tile" in out.stdout
    assert "Final score sheet" in out.stdout and "composing sticks" in out.stdout
    data = json.loads(saved.read_text())
    assert data["format"] == "lead-letter-printers-position" and data["seen_by"] == 0 and data["rounds"] == 1
    assert core_of(replay(load_record(str(record)))).is_terminal()
    hint = cli("hint", str(saved), "--iterations", "40", "--json", "--seed", "2")
    assert hint.returncode == 0, hint.stderr
    assert json.loads(hint.stdout)["game"] == "lead-letter-printers" and json.loads(hint.stdout)["hints"]


def test_hint_on_the_shipped_position_as_a_table_and_as_json():
    out = cli("hint", *GAME, str(POSITION), "--iterations", "60", "--top", "3", "--board")
    assert out.returncode == 0, out.stderr
    assert "to decide:" in out.stdout and "Anna" in out.stdout and "row 1" in out.stdout
    one = cli("hint", str(POSITION), "--iterations", "60", "--json", "--seed", "1")
    assert one.returncode == 0, one.stderr
    data = json.loads(one.stdout)
    assert data["game"] == "lead-letter-printers" and data["iterations"] == 60 and data["hints"]
    assert json.loads(cli("hint", str(POSITION), "--iterations", "60", "--json", "--seed", "1").stdout) == data


def test_hint_takes_the_evaluations_weights_as_search_options():
    from gutenberg_ai.games.lead_letter_printers import _core
    from gutenberg_ai.games.lead_letter_printers.game import SEARCH_WEIGHTS
    def hints(*more):
        out = cli("hint", str(POSITION), "--iterations", "120", "--json", "--seed", "1", *more)
        assert out.returncode == 0, out.stderr
        return json.loads(out.stdout)
    plain = hints()
    assert plain["options"] == {}
    own = {"weights": SEARCH_WEIGHTS}
    same = hints("--options", json.dumps(own))
    assert same["hints"] == plain["hints"] and same["options"] == own     # the searches' own: the same search
    other = hints("--options", json.dumps({"weights": _core.heuristic_weights()}))     # the greedy player's
    assert other["hints"] != plain["hints"]
    out = cli("hint", str(POSITION), "--options", '{"weights": {"FACTORY": 1}}')
    assert out.returncode == 2 and "'FACTORY' is not a weight" in out.stderr and "Traceback" not in out.stderr


def test_hint_refuses_a_hostile_or_another_games_file(tmp_path):
    out = cli("hint", "--game", "printing-press", str(POSITION))
    assert out.returncode == 2 and "a position of Lead Letter Printers, not of Printing Press" in out.stderr
    data = json.loads(POSITION.read_text())
    data["names"][0] = "\x1b[31mred"
    data["moves"][40] = 10 ** 6
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    out = cli("hint", str(bad))
    assert out.returncode == 2 and "\x1b" not in out.stderr and "Traceback" not in out.stderr
    assert "names[0]" in out.stderr


def test_play_from_a_position_starts_at_its_decision():
    out = cli("play", "--position", str(POSITION), "--ai", "heuristic", "--seed", "8", stdin="quit\n")
    assert out.returncode == 0, out.stderr
    assert "Round 2" in out.stdout


def test_cards_looks_a_technology_up():
    out = cli("cards", *GAME, "technology", "III", "marks")
    assert out.returncode == 0, out.stderr
    assert "technology" in out.stdout and "marks" in out.stdout
    assert cli("cards", *GAME, "zebra").returncode == 1
    # --top bounds the JSON as it does the table.
    listed = json.loads(cli("cards", *GAME, "technology", "--top", "2", "--json").stdout)
    assert len(listed) == 2 and len(json.loads(cli("cards", *GAME, "technology", "--json").stdout)) == 10


def test_a_tiny_arena_writes_its_tables(tmp_path):
    out = cli("arena", *GAME, "--bots", "heuristic,random", "--games", "2", "--jobs", "1", "--rounds", "1",
              "--out", str(tmp_path))
    assert out.returncode == 0, out.stderr
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["settings"]["game"] == "lead-letter-printers" and summary["games"] == 2
    assert "(Lead Letter Printers)" in (tmp_path / "summary.md").read_text()
    assert "2 players, 1 round," in (tmp_path / "summary.md").read_text()


def test_an_arena_of_whole_games_says_so(tmp_path):
    # rounds 0, the game's default, is the whole game (until the orders run out)
    out = cli("arena", *GAME, "--bots", "heuristic,random", "--games", "2", "--jobs", "1", "--out", str(tmp_path))
    assert out.returncode == 0, out.stderr
    assert "2 players, the whole game," in (tmp_path / "summary.md").read_text()


def test_a_record_saved_as_a_player_saw_it_replays_to_what_they_saw():
    import random
    from gutenberg_ai import games
    from gutenberg_ai.games.records import GameRecord, seat_entry
    llp = games.get("lead-letter-printers")
    A = llp.core.ACTIONS
    game = llp.load(players=2)
    for seed in range(200):
        rng = random.Random(seed)
        record = GameRecord(game, seed, [seat_entry(s, "random") for s in range(2)])
        state = game.new_initial_state()
        while not state.is_terminal():
            a = random_step(state, rng, prefer=lambda legal: [x for x in legal if A["FACTORY_PILE"] <= x < A["UP"]])
            record.add(state, a)
            state.apply_action(a)
            if not state.is_terminal() and not state.is_chance_node():
                data = record.to_dict(viewer=0, state=state)
                if any(e.get("hidden") for e in data["actions"]):
                    seen = core_of(replay(load_record(data)))
                    assert seen.observation_string(0) == core_of(state).observation_string(0)
                    return
    raise AssertionError("no random game drew factories unseen by player 0")


def test_the_demo_heads_each_round_once_in_order_and_the_end_is_the_last_rounds(tmp_path):
    """The last preparation draws count as a round 9 that is never played: no heading
    of its own, and the replay's last heading says round 8 (the game's 8 rounds)."""
    record = tmp_path / "llp.json"
    out = cli("demo", "--game", "lead-letter-printers", "--bots", "heuristic", "--seed", "11", "--save", str(record))
    assert out.returncode == 0, out.stderr
    rounds = [int(line.split()[2]) for line in out.stdout.splitlines() if line.startswith("=== Round ")]
    assert rounds == list(range(1, 9))
    out = cli("replay", str(record))
    assert out.returncode == 0 and "Round 8, end of the game" in out.stdout and "Round 9" not in out.stdout
