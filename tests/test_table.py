"""The table as a newcomer meets it: `gutenberg-ai` alone, new deals, records that keep
what a player has not seen, resuming, positions whose plans are hidden, hints that say
how sure they are, a table that fits a 100x40 terminal, the prompt at a real terminal,
--catalogue, and looking a card up by what it shows."""
import io
import json
import os
import pathlib
import pty
import random
import re
import select
import subprocess
import sys
import time

import pytest
from rich.console import Console

import gutenberg_ai
from gutenberg_ai.interfaces import tui
from gutenberg_ai.games.gutenberg import _core, names, view
from gutenberg_ai.interfaces.play import Session, Settings
from gutenberg_ai.games.records import load_record, replay
from every_game import cli, play_random, random_step

DATA = pathlib.Path(gutenberg_ai.__file__).parent / "games" / "gutenberg" / "data"
POSITIONS = DATA / "positions"


# -- the command ----------------------------------------------------------------------------
def test_the_command_alone_prints_help_and_has_a_version():
    out = subprocess.run([sys.executable, "-m", "gutenberg_ai"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.startswith("usage: gutenberg-ai")
    for command in ("demo", "play", "replay", "hint", "arena", "cards"):
        assert f"\n    {command} " in out.stdout
    assert "=== Setup ===" not in out.stdout   # not a demo game
    version = cli("--version")
    assert version.returncode == 0 and version.stdout.strip() == f"gutenberg-ai {gutenberg_ai.__version__}"


def test_a_new_deal_every_game_unless_a_seed_is_given():
    seeds = set()
    for _ in range(2):
        out = cli("demo", "--rounds", "1", "--quiet")
        assert out.returncode == 0, out.stderr
        seed = int(re.match(r"Seed (\d+), a new deal \(play it again with --seed \1\)", out.stdout).group(1))
        seeds.add(seed)
        again = cli("demo", "--rounds", "1", "--quiet", "--seed", str(seed))
        assert again.stdout.splitlines()[0] == f"Seed {seed}"
        assert again.stdout.splitlines()[1:] == out.stdout.splitlines()[1:]   # the printed seed replays it
    assert len(seeds) == 2
    out = cli("play", "--rounds", "1", "--iterations", "10", stdin="quit\n")
    assert re.search(r"Seed \d+, a new deal", out.stdout)


# -- records that keep what a player has not seen, and resuming --------------------------------
def _plan_step_session(tmp_path, answers_at_plan):
    """A 3-player game, seat 1 the person (with seed 5 someone plans before seat 1),
    played to its first plan commitment (past the free-action windows before the plans),
    where `answers_at_plan` are typed."""
    console = Console(file=io.StringIO(), width=100)
    game = gutenberg_ai.load_game(players=3, rounds=1)
    answers = list(answers_at_plan)

    def answer(prompt):
        core = gutenberg_ai.core_of(session.state)
        if core.phase == "plan" and core.step_name() == "plan" and answers:
            return answers.pop(0)
        return "1"

    session = Session(game, Settings(human=1, ai=("heuristic",), iterations=20, seed=5), console, read_line=answer)
    return session


def test_a_record_saved_mid_game_hides_what_the_player_has_not_seen(tmp_path):
    seen, full = tmp_path / "seen.json", tmp_path / "full.json"
    session = _plan_step_session(tmp_path, [f"save {seen}", f"save --full {full}", "quit"])
    assert session.run() == 0
    hidden, whole = json.loads(seen.read_text()), json.loads(full.read_text())
    assert hidden["viewer"] == 1 and "viewer" not in whole
    assert hidden["seed"] is None and all("seed" not in e for e in hidden["seats"])   # seeds would deal it again
    assert whole["seed"] == 5 and len(hidden["actions"]) == len(whole["actions"])
    masked = [i for i, e in enumerate(hidden["actions"]) if e.get("hidden")]
    assert masked
    for i in masked:
        e, w = hidden["actions"][i], whole["actions"][i]
        assert set(e) == {"player", "by", "hidden"} and e["player"] == w["player"]
        assert w["text"] not in seen.read_text()     # the plan or the tile is nowhere in the file
    kinds = {whole["actions"][i]["text"].split(":")[0].split(" ")[0] for i in masked}
    assert kinds == {"draw", "plan"}   # the others' character tiles, and the plan committed before seat 1's
    assert whole["actions"][masked[-1]]["player"] != 1
    # what is shown stays: seat 1's own tiles, the tiles kept, every card dealt
    assert [e["text"] for e in hidden["actions"] if "keep" in e.get("text", "")] == \
        [e["text"] for e in whole["actions"] if "keep" in e["text"]]
    # both replay; the one with hidden entries with its hidden draws dealt again
    replay(load_record(full))
    state = replay(load_record(seen))
    assert gutenberg_ai.core_of(state).phase == "plan"
    out = cli("replay", str(seen))
    assert out.returncode == 0 and "did not see (dealt at random" in out.stdout


def test_an_option_after_the_file_is_refused_not_taken_into_its_name(tmp_path):
    """`save game.json --full` (play) and `save game.json --full` (the table, which has no
    --full) wrote a file named "game.json --full"; the option is refused, nothing written."""
    seen = tmp_path / "seen.json"
    session = _plan_step_session(tmp_path, [f"save {seen} --full", f"save-position {seen} --x", "quit"])
    assert session.run() == 0
    said = session.console.file.getvalue()
    assert "save: --full is not an option here" in said and "save-position: --x is not an option here" in said
    assert not list(tmp_path.iterdir())
    out = cli("table", "--game", "printing-press", "--seed", "1", "--save", str(tmp_path / "t.json"),
              stdin=f"save {seen} --full\nquit\n")
    assert "save: --full is not an option here" in out.stdout, out.stdout[-500:]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.json"]


def test_a_game_resumes_from_a_record_full_or_as_seen(tmp_path):
    seen, full = tmp_path / "seen.json", tmp_path / "full.json"
    assert _plan_step_session(tmp_path, [f"save {seen}", f"save --full {full}", "quit"]).run() == 0
    # a full record: the same seed and the same moves give the game the first session would have
    end_a, end_b = tmp_path / "a.json", tmp_path / "b.json"
    out = cli("play", "--resume", str(full), "--save", str(end_a), stdin="1\n" * 400)
    assert out.returncode == 0, out.stderr
    assert "Final score sheet" in out.stdout and "Seed 5" in out.stdout
    a = json.loads(end_a.read_text())
    assert a["finished"] and a["actions"][:len(json.loads(full.read_text())["actions"])] == \
        json.loads(full.read_text())["actions"]
    assert cli("play", "--resume", str(full), "--save", str(end_b), stdin="1\n" * 400).returncode == 0
    assert json.loads(end_b.read_text())["actions"] == a["actions"]
    assert cli("replay", str(end_a), "--quiet").returncode == 0
    # as seen: the hidden tiles are dealt again, the hidden plan is chosen again by its AI
    out = cli("play", "--resume", str(seen), "--save", str(end_b), "--seed", "9", stdin="1\n" * 400)
    assert out.returncode == 0, out.stderr
    assert "draws you had not seen dealt at random" in out.stdout
    assert re.search(r"\d+ plans? committed before you saved, chosen again", out.stdout)
    assert "commits a plan (hidden until every plan is committed)" in out.stdout   # chosen again, unseen
    b = json.loads(end_b.read_text())
    assert b["finished"] and [e["player"] for e in b["seats"]] == ["heuristic", "human", "heuristic"]
    assert cli("replay", str(end_b), "--quiet").returncode == 0
    # the record decides the game
    out = cli("play", "--resume", str(seen), "--players", "2")
    assert out.returncode == 2 and "leave out --players" in out.stderr
    out = cli("play", "--resume", str(seen), "--seat", "0")
    assert out.returncode == 2 and "saved by player 1" in out.stderr


def test_leaving_with_save_writes_what_the_player_has_seen(tmp_path):
    path = tmp_path / "left.json"
    out = cli("play", "--players", "3", "--rounds", "1", "--iterations", "10", "--seed", "5", "--seat", "1",
              "--save", str(path), stdin="1\n1\n1\n1\nquit\n")
    assert out.returncode == 0 and "as you have seen it, written to" in out.stdout
    data = json.loads(path.read_text())
    assert data["viewer"] == 1 and any(e.get("hidden") for e in data["actions"])


def test_a_position_with_a_hidden_plan_lets_the_ai_plan_it(tmp_path):
    data = json.loads((POSITIONS / "plan-round1-2p.json").read_text())
    data["players"][0]["plan"] = "hidden"            # Anna planned first; Tom does not know how
    data["step"] = {"kind": "plan", "player": 1}
    data.pop("$schema")
    path = tmp_path / "tom.json"
    path.write_text(json.dumps(data))
    record = tmp_path / "game.json"
    out = cli("play", "--position", str(path), "--seat", "1", "--iterations", "30", "--seed", "2",
              "--save", str(record), stdin="quit\n")
    assert out.returncode == 0, out.stderr
    assert "The position hides the plan of Anna (player 0): planned again now" in out.stdout
    assert "Anna (player 0, smmcts) commits a plan (hidden until every plan is committed)" in out.stdout
    saved = json.loads(record.read_text())
    assert saved["position"]["step"] == {"kind": "plan", "player": 0} and "plan" not in saved["position"]["players"][0]
    assert saved["actions"][0]["player"] == 0 and saved["actions"][0].get("hidden")   # its plan, unseen by Tom
    # the plan is the AI's choice (its bot, seeded from the game's seed, at the rewound position)
    full = tmp_path / "full.json"
    cli("play", "--position", str(path), "--seat", "1", "--iterations", "30", "--seed", "2",
        stdin=f"save --full {full}\nquit\n")
    chosen = json.loads(full.read_text())["actions"][0]
    rewound = tmp_path / "rewound.json"
    rewound.write_text(json.dumps(saved["position"]))
    game = gutenberg_ai.load_game(position=str(rewound))
    bot = gutenberg_ai.make_bot("smmcts", game, 0, seed=2 + 1 + 0, iterations=30)
    assert chosen["text"].startswith("plan: ") and chosen["action"] == bot.step(game.new_initial_state())


def test_plans_the_position_gives_after_a_hidden_one_are_kept(tmp_path):
    """Three players: the first in plan order hid their plan, the second's is known.
    Replanning from the first keeps the second's plan as the file gives it."""
    from gutenberg_ai.games.gutenberg.position import plan_order
    from gutenberg_ai.games.gutenberg.position import save_position
    game = gutenberg_ai.load_game(players=3, characters=False)
    state = game.new_initial_state()
    rng = random.Random(3)
    play_random(state, rng, stop=lambda s: not s.is_chance_node() and gutenberg_ai.core_of(s).step_name() == "plan")
    order = plan_order(gutenberg_ai.core_of(state).to_dict())
    state.apply_action(state.legal_actions()[0])
    state.apply_action(state.legal_actions()[5])
    core = gutenberg_ai.core_of(state)
    path = tmp_path / "table.json"
    data = save_position(core, path, viewer=order[2])
    assert data["players"][order[0]]["plan"] == data["players"][order[1]]["plan"] == "hidden"
    given = core.to_dict()["players"][order[1]]["plan"]
    data["players"][order[1]]["plan"] = given
    path.write_text(json.dumps(data))
    full = tmp_path / "full.json"
    out = cli("play", "--position", str(path), "--seat", str(order[2]), "--iterations", "20", "--seed", "1",
              stdin=f"save --full {full}\nquit\n")
    assert out.returncode == 0, out.stderr
    assert f"player {order[0]} (smmcts) commits a plan (hidden" in out.stdout
    assert f"player {order[1]} (smmcts): plan: " in out.stdout and "(as the position gives it)" in out.stdout
    first, second = json.loads(full.read_text())["actions"][:2]
    assert (first["player"], second["player"]) == (order[0], order[1])
    assert list(_core.plan_of(second["action"])) == given


# -- hints ----------------------------------------------------------------------------------
def test_hint_json_carries_iterations_and_intervals_and_the_table_marks_level_moves():
    out = cli("hint", str(POSITIONS / "plan-round1-2p.json"), "--iterations", "600", "--top", "6", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["iterations"] == 600 and data["budget"] == {"iterations": 600}
    assert data["measure"] == "win probability"
    for h in data["hints"]:
        if h["interval"] is not None:
            lo, hi = h["interval"]
            assert 0 <= lo <= h["win_probability"] <= hi <= 1
    assert any(h["level"] for h in data["hints"][1:])   # hundreds of plans at 600 iterations
    table = cli("hint", str(POSITIONS / "plan-round1-2p.json"), "--iterations", "600", "--top", "6")
    assert "vs best" in table.stdout and "level" in table.stdout and "95% interval" in table.stdout
    solo = cli("hint", str(POSITIONS / "solo-automa-round4.json"), "--iterations", "600", "--json")
    data = json.loads(solo.stdout)
    assert data["measure"] == "expected fame"
    assert all(h["win_probability"] is None for h in data["hints"])
    assert data["hints"][0]["interval"][1] > 1   # an interval of fame, not of a share
    table = cli("hint", str(POSITIONS / "solo-automa-round4.json"), "--iterations", "600")
    assert " win " not in table.stdout.split("\n", 2)[2] and "expected final fame" in table.stdout


def test_hint_shows_progress_at_a_terminal():
    seen = []
    from gutenberg_ai.games.gutenberg.position import load_position
    hints = gutenberg_ai.hint(load_position(POSITIONS / "plan-round1-2p.json").state,
                              seconds=0.5, progress=lambda n, s: seen.append((n, s)))
    assert len(seen) >= 3 and seen == sorted(seen) and seen[-1][0] == hints.iterations
    console = Console(file=io.StringIO(), force_terminal=True, width=100)
    with tui.search_progress(console, "searching", iterations=1000) as update:
        update(500, 0.1)
        update(1000, 0.2)
    assert "iterations" in console.file.getvalue()
    with tui.search_progress(Console(file=io.StringIO()), "searching", iterations=10) as update:
        assert update is None   # not a terminal: nothing drawn


# -- the table fits a 100x40 terminal ---------------------------------------------------------
# The board rows each decision is about (tui._OFFER; a plan step shows them all).
OFFER_LABELS = {"take orders": ("printing", "refinement"), "take inks": ("inks 0/1/2g",),
                "develop specialties": ("spec. cards",), "improve printing house": ("new gears",),
                "patronage": ("patronage",), "plan": ("printing", "refinement", "inks 0/1/2g", "new gears")}


def _screens(players, seed, automa=0):
    """Every decision's screen of a game played by random choices at width 100, from
    the rule above it to the prompt."""
    out = io.StringIO()
    console = Console(file=out, width=100, highlight=False)
    game = gutenberg_ai.load_game(players=players, automa=automa)
    rng = random.Random(seed)
    screens = []

    def answer(prompt):
        text = out.getvalue()
        start = text.rfind("\n", 0, text.rfind("Your decision: ")) + 1
        screens.append((gutenberg_ai.core_of(session.state).step_name(), text[start:].rstrip("\n").split("\n")))
        out.seek(0)
        out.truncate()
        return str(rng.randrange(len(session.state.legal_actions())) + 1)

    session = Session(game, Settings(human=0, ai=("heuristic",), seed=seed), console, read_line=answer)
    assert session.run() == 0
    return screens


@pytest.mark.parametrize("players, automa", [(1, 1), (2, 0), (3, 0), (4, 0), (3, 1)])
def test_every_decision_fits_a_100_by_40_terminal_with_the_offer_and_your_holdings(players, automa):
    screens = _screens(players, seed=players + 10 * automa, automa=automa)
    assert len(screens) > 30
    for step, lines in screens:
        shown = "\n".join(lines)
        assert len(lines) + 1 <= 40, f"{step}: {len(lines) + 1} lines\n{shown}"   # + the prompt's line
        assert max(len(line) for line in lines) <= 100, shown
        assert "\nholds " in shown and "\norders " in shown and "\nspecialties " in shown, shown   # yours
        for label in OFFER_LABELS.get(step, ()):
            assert re.search(rf"\n{re.escape(label)} +\S", shown), f"{step}: no {label}\n{shown}"


def test_letters_read_as_letters_and_moves_say_what_they_give():
    assert view.types_text([1, 3, 0, 1]) == "A I I I U"
    game = gutenberg_ai.load_game(players=2)
    state = game.new_initial_state()
    rng = random.Random(4)
    seen = set()
    while not state.is_terminal() and len(seen) < 3:
        if state.is_chance_node():
            state.apply_action(random_step(state, rng))
            continue
        core = gutenberg_ai.core_of(state)
        d = core.to_dict()
        p = d["players"][core.current_player()]
        for a in state.legal_actions():
            text = tui.move_text(core, a, state.action_to_string(state.current_player(), a))
            if _core.ACTIONS["USE_GEAR"] <= a < _core.ACTIONS["PASS"]:
                k = a - _core.ACTIONS["USE_GEAR"]
                sector = core.rules.catalogue.gears[p["gear"][k]].sectors[p["gear_active"][k]]
                assert text.endswith(": " + gutenberg_ai.games.gutenberg.catalogue.describe_sector(sector))
                seen.add("gear")
            elif _core.ACTIONS["INKS"] <= a < _core.ACTIONS["SPECIALTY"]:
                x, m = divmod(a - _core.ACTIONS["INKS"], 3)
                inks = [names.INKS[c] for c in d["ink_space"][x] if c >= 0][:m + 1]
                assert text.endswith(f"({', '.join(inks)})")
                seen.add("inks")
            elif _core.ACTIONS["CHARACTER"] <= a < _core.ACTIONS["SHIFT"]:
                assert names.CHARACTER_ABILITIES[a - _core.ACTIONS["CHARACTER"]] in text
                seen.add("character")
        state.apply_action(rng.choice(state.legal_actions()))
    assert seen == {"gear", "inks", "character"}


def test_the_automa_says_what_it_removed_and_help_explains_characters_and_gears():
    out = cli("play", "--players", "1", "--rounds", "2", "--iterations", "10", "--seed", "1",
              stdin="help characters\nhelp gears\n" + "1\n" * 300)
    assert out.returncode == 0, out.stderr
    took = re.findall(r"automa: automa execution card: space (\d) - takes (.+)", out.stdout)
    kinds = {re.match(r"[PRSG]\d+|ink set|the patronage reward", what).group(0)[0] for _, what in took}
    assert {"P", "R", "i", "S", "G"} <= kinds   # every action's space, said with what it held
    assert all(what.startswith(f"ink set {space} ") for space, what in took if what.startswith("ink set"))
    for name, ability in zip(names.CHARACTERS, names.CHARACTER_ABILITIES):
        assert f"{name}: {ability[:30]}" in " ".join(out.stdout.split())
    for kind in names.GEAR_KINDS:
        assert f"{kind.replace('_', ' ')}: {names.GEAR_REWARDS[kind][:25]}" in " ".join(out.stdout.split())


# -- the prompt at a real terminal -----------------------------------------------------------
PROMPT = r"your move> (\x1b\[[0-9;?]*[A-Za-z])*$"   # the prompt, last on the screen (escape codes aside)


class Terminal:
    """The command on a pseudo-terminal of 100x40, as a person runs it."""

    def __init__(self, *args):
        master, slave = pty.openpty()
        env = dict(os.environ, COLUMNS="100", LINES="40", TERM="xterm")
        self.proc = subprocess.Popen([sys.executable, "-m", "gutenberg_ai", *args], stdin=slave, stdout=slave,
                                     stderr=slave, env=env, close_fds=True, start_new_session=True)
        os.close(slave)
        self.master = master
        self.text = ""

    def read_until(self, pattern, timeout=120):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.master], [], [], 0.2)
            if ready:
                try:
                    self.text += os.read(self.master, 65536).decode(errors="replace")
                except OSError:
                    break
            if re.search(pattern, self.text):
                return
        raise AssertionError(f"no {pattern!r} in:\n{self.text[-3000:]}")

    def type(self, keys: str):
        os.write(self.master, keys.encode())

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        os.close(self.master)


def test_input_typed_while_the_ai_thinks_is_not_played_and_the_prompt_has_history():
    # seat 1: the AI at seat 0 chooses its character first, for 3 seconds
    term = Terminal("play", "--seat", "1", "--seconds", "3", "--seed", "3", "--rounds", "1")
    try:
        term.read_until("is thinking")
        term.type("1\n")                     # typed ahead while the AI thinks
        term.read_until("your move> ")
        time.sleep(1.0)
        term.read_until("your move> ")
        assert "you: characters: keep" not in term.text   # not played
        term.type("help\n")
        term.read_until(r"help gears[\s\S]*" + PROMPT)   # the prompt again: input() is waiting
        mark = len(term.text)
        term.type("\x1b[A\n")                # up arrow: the last line again (readline's history)
        term.read_until(r"help gears[\s\S]*help gears[\s\S]*" + PROMPT)
        assert "is not a move or a command" not in term.text[mark:]
        term.type("quit\n")
        term.read_until("You left the game.")
    finally:
        term.close()


# -- --catalogue and cards -------------------------------------------------------------------
def _my_box(tmp_path):
    """A copy of the catalogue with printing card 0 reading as my box's card does."""
    data = json.loads((DATA / "catalogue.json").read_text())
    data["printing"][0]["letters"] = "UUUUU"
    data["printing"][0]["guilders"] = 19
    path = tmp_path / "my_box.json"
    path.write_text(json.dumps(data))
    return path


def test_catalogue_on_play_hint_and_arena(tmp_path):
    box = _my_box(tmp_path)
    out = cli("cards", "U U U U U 19 guilders", "--catalogue", str(box))
    assert out.returncode == 0 and "P0 " in out.stdout and "[U U U U U] 19g" in out.stdout
    assert cli("cards", "U U U U U 19 guilders").returncode == 1   # not in the built-in catalogue
    record = tmp_path / "game.json"
    out = cli("play", "--catalogue", str(box), "--rounds", "1", "--iterations", "10", "--seed", "1",
              "--save", str(record), stdin="quit\n")
    assert out.returncode == 0, out.stderr
    assert json.loads(record.read_text())["catalogue"]["printing"][0]["letters"] == "UUUUU"   # carried as data
    out = cli("hint", str(POSITIONS / "plan-round1-2p.json"), "--catalogue", str(box), "--iterations", "50",
              "--board")
    assert out.returncode == 0, out.stderr
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    for command in (["play"], ["hint", str(POSITIONS / "plan-round1-2p.json")],
                    ["arena", "--bots", "heuristic,random", "--out", str(tmp_path / "a")]):
        out = cli(*command, "--catalogue", str(broken))
        assert out.returncode == 2 and "broken.json" in out.stderr and "Traceback" not in out.stderr
    out = cli("arena", "--bots", "heuristic,random", "--games", "1", "--rounds", "1", "--jobs", "1",
              "--catalogue", str(box), "--out", str(tmp_path / "arena"))
    assert out.returncode == 0, out.stderr
    (game,) = (tmp_path / "arena" / "games").rglob("game-*.json")
    assert json.loads(game.read_text())["catalogue"]["printing"][0]["letters"] == "UUUUU"
    out = cli("arena", "--bots", "heuristic,random", "--games", "1", "--rounds", "1", "--jobs", "1",
              "--catalogue", str(box), "--out", str(tmp_path / "arena"))
    assert out.returncode == 0 and "0 played now" in out.stdout, out.stdout   # its record is the scheduled game


def test_cards_finds_a_card_by_what_it_shows():
    cat = gutenberg_ai.games.gutenberg.catalogue.default_catalogue()
    for card in cat.printing[::7]:
        words = " ".join(sorted(card.letters)) + f" {card.guilders} guilders"
        out = cli("cards", words, "--json")
        found = json.loads(out.stdout)
        assert found[0]["card"] == f"P{card.id}", words
    card = cat.refinement[12]
    colour = " ".join(ink for ink, n in card.colour.items() for _ in range(n))
    deco = " ".join(f"{sp} {names.ROMAN[lv]}" for sp, lv in card.decoration.items())
    found = json.loads(cli("cards", "refinement", colour, deco, "--json").stdout)
    assert "R12" in [f["card"] for f in found]
    assert all(f["kind"] == "refinement" for f in found)
    letters = cat.printing[11].letters
    found = json.loads(cli("cards", "printing", "--letters", ",".join(letters), "--json").stdout)
    assert [f["card"] for f in found] == [f"P{c.id}" for c in cat.printing if sorted(c.letters) == sorted(letters)]
    gear = cat.gears[3]
    sector = gear.sectors[0]
    found = json.loads(cli("cards", "gear", sector.reward.replace("_", " "), *sector.indicates, "--json").stdout)
    assert "G3" in [f["card"] for f in found]
    out = cli("cards", "A A A A A A A")
    assert out.returncode == 1 and "No card shows all of that." in out.stdout and "The closest:" in out.stdout
    out = cli("cards", "--letters", "X")
    assert out.returncode == 2 and "'X' is not one of A, I, O, U" in out.stderr
