"""Every file a person gives is untrusted: catalogues, positions, game records and
serialized states. Hostile or careless files get errors that name each place (all of a
file's problems at once, one short line each), never a traceback, never code run."""
import copy
import json
import pathlib

import pytest

from gutenberg_ai.games.gutenberg.catalogue import CatalogueError, default_catalogue, load_catalogue
from gutenberg_ai.common.jsonfile import MAX_DEPTH, MAX_PROBLEMS, MAX_SHOWN, show

BUILTIN = pathlib.Path(default_catalogue().path)


def catalogue_data() -> dict:
    return json.loads(BUILTIN.read_text(encoding="utf-8"))


def catalogue_error(tmp_path, data=None, text=None) -> CatalogueError:
    path = tmp_path / "box.json"
    if text is None:
        text = json.dumps(data)
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    with pytest.raises(CatalogueError) as info:
        load_catalogue(path)
    return info.value


def lines_of(error) -> list[str]:
    return str(error).split("\n")


# ---------------------------------------------------------------------------------------
# Messages: bounded, one line each, no escape codes
# ---------------------------------------------------------------------------------------
def test_show_bounds_and_escapes_values():
    assert show("x" * 500).endswith("...") and len(show("x" * 500)) == MAX_SHOWN
    assert show([1] * 1000).endswith("...") and len(show([1] * 1000)) == MAX_SHOWN
    assert "\x1b" not in show("\x1b[2J") and "\\x1b" in show("\x1b[2J")
    assert "\n" not in show({"a\nb": "c\u202ed"})
    assert show(3.0) == "3.0" and show("A") == "'A'"


# ---------------------------------------------------------------------------------------
# Catalogues
# ---------------------------------------------------------------------------------------
def test_catalogue_reports_every_problem_with_its_place(tmp_path):
    data = catalogue_data()
    data["printing"][3]["letters"] = "AXO"
    data["printing"][3]["guilders"] = 3.0            # a whole-number float where an int goes
    data["refinement"][9]["colour_fame"] = 1e400     # inf
    data["gears"][4]["sectors"][1] = {"reward": "gain_ink", "inks": ["red", "gold"]}
    data["rules"]["guilders_per_point"] = "3"
    data["characters"]["tiles"][2] = "x" * 5000
    del data["board"]["3"]["draft"]
    e = catalogue_error(tmp_path, text=json.dumps(data).replace("Infinity", "1e400"))
    assert e.problems == [
        ("printing[3].letters", "'X' is not a letter (A, I, O, U)"),
        ("printing[3].guilders", "guilders must be a whole number, got 3.0"),
        ("refinement[9].colour_fame", "fame must be a whole number, got 1e400"),
        ("gears[4].sectors[1]", "gain_ink indicates exactly one ink, got 2"),
        ("board[\"3\"]", "missing key 'draft'"),
        ("rules.guilders_per_point", "guilders must be a whole number, got '3'"),
        ("characters.tiles[2]", f"{show('x' * 5000)} is not 'Charlotte Guillard' "
                                "(tile 2's special rule)"),
    ]
    assert lines_of(e)[0] == "box.json: printing[3].letters: 'X' is not a letter (A, I, O, U)"
    assert len(lines_of(e)) == 7 and all(len(line) < 200 for line in lines_of(e))


def test_catalogue_lists_at_most_a_screenful_of_problems(tmp_path):
    data = catalogue_data()
    for card in data["printing"]:
        card["guilders"] = -1
    e = catalogue_error(tmp_path, data)
    assert len(e.problems) == 50
    assert len(lines_of(e)) == MAX_PROBLEMS + 1
    assert lines_of(e)[-1] == f"box.json: ... and {50 - MAX_PROBLEMS} more problems"


@pytest.mark.parametrize("text,where,reason", [
    ("[" * 100000 + "]" * 100000, f"line 1, column {MAX_DEPTH + 1}", "nested more than"),
    ('{"about":\n ' + "[" * 1000 + "]" * 1000 + "}", f"line 2, column {MAX_DEPTH + 1}",
     "nested more than"),
    ('{"about": ' + "[" * 100 + "]" * 100 + "}", "about" + "[0]" * (MAX_DEPTH - 1),
     f"nested more than {MAX_DEPTH} levels deep"),
    ('{"about": "x", "about": "y"}', "top level", "key 'about' is given twice"),
    ('{"about": NaN}', "about", "must be text, got a number"),
    ('{"about": ' + "9" * 5000 + "}", "about", "must be text, got a number"),
    (b'{"about": "\xff"}', "byte 11", "not UTF-8 text"),
])
def test_hostile_catalogue_json(tmp_path, text, where, reason):
    e = catalogue_error(tmp_path, text=text)
    assert any(w == where and reason in r for w, r in e.problems), str(e)
    assert all(len(line) < 300 for line in lines_of(e))


def test_whole_number_floats_are_not_integers_in_a_catalogue(tmp_path):
    data = catalogue_data()
    data["automa"]["start"] = [2.0, 1, 2, 1, 1]
    e = catalogue_error(tmp_path, data)
    assert e.problems == [("automa.start[0]", "markers must be a whole number, got 2.0")]


# ---------------------------------------------------------------------------------------
# Positions
# ---------------------------------------------------------------------------------------
from gutenberg_ai.games.gutenberg.position import PositionError, load_position  # noqa: E402

POSITIONS = pathlib.Path(__file__).resolve().parents[1] / "gutenberg_ai" / "games" / "gutenberg" / "data" / "positions"


def position_data(name="plan-round1-2p") -> dict:
    return json.loads((POSITIONS / f"{name}.json").read_text(encoding="utf-8"))


def position_error(tmp_path, data=None, text=None) -> PositionError:
    path = tmp_path / "table.json"
    path.write_text(json.dumps(data) if text is None else text, encoding="utf-8")
    with pytest.raises(PositionError) as info:
        load_position(path)
    return info.value


def test_position_reports_every_schema_problem_at_once(tmp_path):
    data = position_data("turn-inks-round3-3p")
    data["round"] = 3.0                                   # a whole-number float
    data["players"][0]["fame"] = 12.0
    data["players"][1]["guilders"] = "1e400"
    data["players"][2]["types"] = ["A", "I"]
    data["players"][2]["guilder"] = 3
    data["board"]["inks"][0][2] = "teal"
    data["players"][2]["inks"] = {"purple": 1, "red": -2}   # one of a value's forms, wrong twice
    text = json.dumps(data).replace('"1e400"', "1e400")
    e = position_error(tmp_path, text=text)
    assert e.problems == [
        ("round", "must be a whole number, got 3.0"),
        ("board.inks[0][2]", "'teal' is not one of blue, silver, gold, red"),
        ("players[0].fame", "must be a whole number, got 12.0"),
        ("players[1].guilders", "must be a whole number, got 1e400"),
        ("players[2]", "unknown key 'guilder' (expected name, fame, guilders, types, inks, "
                       "specialties, track, orders, gears, patronage, character, "
                       "character_put_back, wild_ink, plantin_swapped, plan, gear_markers_used)"),
        ("players[2].types", "must be text, got [\"A\", \"I\"]"),
        ("players[2].inks", "unknown key 'purple' (expected blue, silver, gold, red)"),
        ("players[2].inks.red", "-2 is out of range (0-48)"),
    ]
    assert str(e).split("\n")[0] == "table.json: round: must be a whole number, got 3.0"


def test_position_reports_every_consistency_problem_of_independent_parts(tmp_path):
    data = position_data("turn-inks-round3-3p")
    data["players"][1]["orders"][0][1] = "R77"           # a card id out of range
    data["board"]["printing"] = ["P" + "9" * 5000]      # an id int() cannot convert
    data["players"][0]["orders"][0][0] = "P13"           # a card in two places...
    data["players"][1]["orders"][0][0] = "P13"
    e = position_error(tmp_path, data)
    assert [w for w, _ in e.problems] == ["board.printing[0]", "players[1].orders[0][0]",
                                          "players[1].orders[0][1]"]
    assert e.problems[0][1].startswith("'P99999") and len(e.problems[0][1]) < 120

    data = position_data("turn-inks-round3-3p")
    data["players"][1]["track"] = 3                      # beyond the highest specialty
    data["players"][2]["character"] = "caxton"           # Caxton twice
    data["first_player"] = 2
    data["players"][0]["plan"] = [2, 2, 2, 2, 2]         # ...and plans that do not add up
    e = position_error(tmp_path, data)
    assert [w for w, _ in e.problems] == ["players[1].track", "players[2].character", "players[0].plan"]


@pytest.mark.parametrize("text,where,reason", [
    ("[" * 100000 + "]" * 100000, f"line 1, column {MAX_DEPTH + 1}", "nested more than"),
    ('{"comment": ' + "[" * 1000 + "]" * 1000 + "}", f"line 1, column {12 + MAX_DEPTH}",
     "nested more than"),
    ('{"comment": ' + "[" * 40 + "]" * 40 + "}", "comment" + "[0]" * (MAX_DEPTH - 1),
     "nested more than"),
    ('{"format": "gutenberg-position", "format": "x"}', "top level", "key 'format' is given twice"),
    ('{"round": NaN}', "round", "must be a whole number, got NaN"),
    ('{"comment": "a\x01b"}', "line 1, column 15", "invalid JSON: a control character ('\\x01') inside a string"),
    ('{"round": ' + "9" * 5000 + "}", "round", "99999"),
    ('{"round": ' + "9" * 5000 + "}", "round", "is out of range (1-6)"),     # a whole number, too big
    ('{"round": -1e400}', "round", "must be a whole number, got -1e400"),
    ('{"players": [' + "1," * 100 + "1]}", "players", "101 entries: nothing in a position has "
                                                      "more than 50"),
    ("[]", "top level", "must be an object"),
])
def test_hostile_position_json(tmp_path, text, where, reason):
    e = position_error(tmp_path, text=text)
    assert any(w == where and reason in r for w, r in e.problems), str(e)
    assert all(len(line) < 300 for line in str(e).split("\n"))


@pytest.mark.parametrize("name, load, error, what", [
    ("box.json", load_catalogue, CatalogueError, "a catalogue"),
    ("table.json", load_position, PositionError, "a position"),
])
def test_a_huge_file_is_refused_without_reading_it_all(tmp_path, name, load, error, what):
    path = tmp_path / name
    with open(path, "w") as f:
        f.write('{"about": "' + "x" * (50 << 20) + '"}')
    with pytest.raises(error) as info:
        load(path)
    assert str(info.value) == f"{name}: more than 1,048,576 bytes: too large for {what}"


@pytest.mark.parametrize("name,reason", [
    ("\x1b[2J", "contains the control character '\\x1b': names are plain text"),
    ("Anna\nTom", "contains the control character '\\n'"),
    ("\u202eannA", "contains the direction character '\\u202e'"),
    ("Ann\u200fa", "contains the direction character '\\u200f'"),
    ("Anna\u2028Tom", "contains the line separator '\\u2028'"),
    ("A" * 41, "41 characters, at most 40 allowed"),
])
def test_position_names_are_plain_text(name, reason):
    data = position_data()
    data["players"][0]["name"] = name
    with pytest.raises(PositionError) as info:
        load_position(data)
    assert info.value.where == "players[0].name" and reason in info.value.reason


@pytest.mark.parametrize("path, edit, where, reason", [
    ("gutenberg/data/positions/plan-round1-2p.json", lambda d: d["players"][0].update(name=""),
     "players[0].name", "should be non-empty"),
    ("printing_press/data/positions/close-round1-2p.json", lambda d: d["players"][1].update(name=""),
     "players[1].name", "should be non-empty"),
    ("lead_letter_printers/data/positions/table-3p.json", lambda d: d.update(names=["Anna", ""]),
     "names[1]", "should be non-empty"),
    ("lead_letter_printers/data/positions/table-3p.json", lambda d: d.update(names=["Anna", "Kate"]),
     "names", "2 names for 3 players"),
])
def test_a_name_is_given_whole_or_left_out_in_every_game(path, edit, where, reason):
    """An empty name, or a list of names short of the players, is refused as every
    game refuses it (not shown as "player K" in one game and refused in another)."""
    from gutenberg_ai.games.positionfile import load_position as load_any
    data = json.loads((pathlib.Path(gutenberg_ai.games.__file__).parent / path).read_text())
    edit(data)
    with pytest.raises(PositionError) as info:
        load_any(data)
    assert any(w == where and reason in r for w, r in info.value.problems), info.value.problems


def _arrived_twice(d):
    d["seats"][0]["tradesmen"][0]["arrived"] = 5
    d["seats"][1]["tradesmen"][0]["arrived"] = 5


@pytest.mark.parametrize("path, edit, where, reason", [
    # Printing Press: each Select Cards step deals one card more than the seats (p.9):
    # round 2, step 4 of 3 players has dealt at most 4 x (6 + 4) = 40.
    ("printing_press/data/positions/cards-round2-3p.json",
     lambda d: d.update(cards_out=[c for c in range(1, 91) if c not in d["offer"]][:60]),
     "cards_out", "but 10 Select Cards steps of 4 cards deal at most 40"),
    # Lead Letter Printers: each round's preparation takes at least a player's worth of
    # orders off the display, so round 9 of 3 players follows 24 gone at least.
    ("lead_letter_printers/data/positions/table-3p.json", lambda d: d.update(round=9),
     "round", "each round's preparation takes at least 3 orders off the display (bought or discarded), 24 by now"),
    ("lead_letter_printers/data/positions/table-3p.json", _arrived_twice,
     "seats[1].tradesmen[0].arrived", "5, as seats[0].tradesmen[0]: one tradesman arrives at a time"),
])
def test_a_position_the_rules_cannot_reach_is_refused(path, edit, where, reason):
    from gutenberg_ai.games.positionfile import load_position as load_any
    data = json.loads((pathlib.Path(gutenberg_ai.games.__file__).parent / path).read_text())
    load_any(copy.deepcopy(data))        # the shipped position loads
    edit(data)
    with pytest.raises(PositionError) as info:
        load_any(data)
    assert any(w == where and reason in r for w, r in info.value.problems), info.value.problems


def test_markup_in_a_name_is_text():
    data = position_data()
    data["players"][0]["name"] = "[/]"
    assert load_position(data).names[0] == "[/]"


def test_a_record_given_as_a_position_says_so(tmp_path):
    record = {"format": "gutenberg-record", "version": 1, "game": {"players": 2}, "seats": [],
              "actions": []}
    e = position_error(tmp_path, record)
    assert e.problems == [("format", "this is a game record, not a position (replay it with "
                                     "`gutenberg-ai replay`, or give a position file)")]


# ---------------------------------------------------------------------------------------
# Game records
# ---------------------------------------------------------------------------------------
import os  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402

import gutenberg_ai  # noqa: E402
from gutenberg_ai.games.records import (GameRecord, RecordError, load_record, play_bots,  # noqa: E402
                                  replay, seat_entry)


def recorded(tmp_path, name="record.json", **params) -> tuple[object, pathlib.Path]:
    game = gutenberg_ai.load_game(**params)
    bots = [gutenberg_ai.make_bot("random", game, seat, seed=seat) for seat in range(game.num_players())]
    record = GameRecord(game, 3, [seat_entry(s, "random", s) for s in range(game.num_players())], "test")
    state = play_bots(game, bots, 3, record)
    path = tmp_path / name
    record.save(path)
    return state, path


def record_problems(data) -> list:
    with pytest.raises(RecordError) as info:
        replay(load_record(data))
    return info.value.problems


@pytest.fixture(scope="module")
def finished(tmp_path_factory) -> dict:
    _, path = recorded(tmp_path_factory.mktemp("rec"), players=2, rounds=1)
    return json.loads(path.read_text())


@pytest.mark.parametrize("edit,problem", [
    (lambda d: d["result"].update(ranks=[2, 1] if d["result"]["ranks"] == [1, 2] else [1, 2]),
     "result.ranks"),
    (lambda d: d["result"].pop("state_digest"), "result.state_digest"),
    (lambda d: d["result"].update(state_digest="0" * 64), "result.state_digest"),
    (lambda d: d["result"].update(state_digest="xyz"), "result.state_digest"),
    (lambda d: d.update(finished=False), "finished"),
    (lambda d: d.update(result=None), "finished"),
    (lambda d: d.update(result=None, finished=False), "result"),       # the game is over
    (lambda d: d["result"].update(winners=[0, 0]), "result.winners"),
    (lambda d: d["result"].update(winners=[5]), "result.winners"),
    (lambda d: d["seats"][1].update(seat=7), "seats[1].seat"),
    (lambda d: d["seats"][1].update(seat=0), "seats[1].seat"),
    (lambda d: d["actions"][5].update(player=3), "actions[5].player"),
    (lambda d: d["actions"][5].update(action=10 ** 40), "actions[5].action"),
    (lambda d: d["actions"][5].update(text="x" * 10000), "actions[5].text"),
    (lambda d: d["seats"][0].update(player="\x1b[2J"), "seats[0].player"),
    (lambda d: d.update(version=1.0), "version"),
    (lambda d: d.update(seed=3.0), "seed"),
])
def test_replay_checks_the_whole_record(finished, edit, problem):
    data = copy.deepcopy(finished)
    edit(data)
    problems = record_problems(data)
    assert problem in [w for w, _ in problems], problems
    assert all(len(r) < 300 and "\x1b" not in r for _, r in problems)


@pytest.mark.parametrize("game, where, reason", [
    ("gutenberg", "game.rounds", "is out of range (1-6)"),
    ("gutenberg", "game.players", "is out of range (2-4"),
    ("gutenberg", "game.automa", "is out of range (0 or 1"),
    ("printing-press", "game.rounds", "is out of range (1-3)"),
    ("lead-letter-printers", "game.players", "is out of range (2-4"),
    ("gutenberg", "actions[5].action", "is out of range"),
    ("gutenberg", "actions[5].player", "is out of range"),
])
def test_a_whole_number_of_more_digits_than_a_field_holds_is_shown_as_written(tmp_path, game, where, reason):
    # json reads more than 30 digits as a number no field holds (jsonfile._Number, an inf).
    _, path = recorded(tmp_path, game=game, players=2, rounds=1)
    data = json.loads(path.read_text())
    part, key = where.rsplit(".", 1)
    (data["game"] if part == "game" else data["actions"][5])[key] = "HUGE"
    path.write_text(json.dumps(data).replace('"HUGE"', "9" * 400))
    with pytest.raises(RecordError) as info:
        load_record(path)
    [(field, problem)] = info.value.problems
    assert field == where and problem.startswith("9" * (MAX_SHOWN - 3) + "... " + reason), problem


def test_replay_refuses_a_stop_outside_the_records_actions(finished):
    record = load_record(finished)
    n = len(finished["actions"])
    for to in (-1, n + 1, 10 ** 9):
        with pytest.raises(ValueError, match=f"^to: {to} is not between 0 and {n} .the record's actions.$"):
            replay(record, to=to)
    assert replay(record, to=0).history() == [] and replay(record, to=n).is_terminal()


@pytest.mark.parametrize("seats, problem", [
    (["random", "random"], "seats[0]: an object {\"seat\": ..., \"player\": ...}, got 'random'"),
    ([{"seat": 0, "player": "random"}], "seats: [{\"seat\": 0, \"player\": \"random\"}] is not a list of 2 seat"),
    ([{"seat": 0, "player": "random"}, {"seat": 0, "player": "human"}], "seats[1].seat: seat 0 is also seats[0]"),
    ([{"seat": 0, "player": "random"}, {"seat": 1, "player": 7}], "seats[1].player: 7 is not a name"),
])
def test_a_game_record_refuses_seats_a_record_cannot_hold(seats, problem):
    game = gutenberg_ai.load_game(players=2, rounds=1)
    with pytest.raises(ValueError) as info:
        GameRecord(game, 7, seats)
    assert str(info.value).startswith(problem), info.value


def test_an_escape_code_in_a_records_text_is_refused_as_text_not_as_a_name(finished):
    data = copy.deepcopy(finished)
    data["actions"][5]["text"] = "take \x1b[2J"
    data["seats"][0]["player"] = "\x1b[2J"
    problems = dict(record_problems(data))
    assert problems["actions[5].text"].endswith("contains the control character '\\x1b': texts are plain text")
    assert problems["seats[0].player"].endswith("names are plain text")


def test_a_record_reports_every_problem_at_once(finished):
    data = copy.deepcopy(finished)
    data["seats"][0]["seat"] = "zero"
    data["actions"][2]["action"] = 3.0
    data["actions"][4]["player"] = None
    data["result"].pop("state_digest")
    data["finished"] = "yes"
    with pytest.raises(RecordError) as info:
        load_record(data)
    assert [w for w, _ in info.value.problems] == [
        "seats[0].seat", "actions[2].action", "actions[4].player", "finished",
        "result.state_digest"]


def test_a_record_reports_every_bad_game_parameter(finished):
    data = copy.deepcopy(finished)
    data["game"]["players"] = 9
    data["game"]["rounds"] = -1
    with pytest.raises(RecordError) as info:
        load_record(data)
    assert info.value.problems == [
        ("game.players", "9 is out of range (2-4 without the automa; 1 plays against it)"),
        ("game.rounds", "-1 is out of range (1-6)")]


@pytest.mark.parametrize("game, params, names", [
    ("gutenberg", {"players": 9, "rounds": 0}, ["players", "rounds"]),
    ("printing-press", {"players": 9, "rounds": 0, "variant": "x"}, ["players", "rounds", "variant"]),
    ("lead-letter-printers", {"players": 1, "rounds": -1}, ["players", "rounds"]),
])
def test_every_bad_rules_parameter_is_named_at_once(game, params, names):
    with pytest.raises(ParameterError) as info:
        gutenberg_ai.load_game(game, **params)
    assert [name for name, _ in info.value.problems] == names
    assert str(info.value).startswith(f"{names[0]}: ")


def test_a_position_given_as_a_record_says_so(tmp_path):
    with pytest.raises(RecordError, match="this is a position, not a game record"):
        load_record(POSITIONS / "plan-round1-2p.json")


def test_hostile_record_files(tmp_path):
    path = tmp_path / "record.json"
    path.write_text("[" * 5000 + "]" * 5000)
    with pytest.raises(RecordError, match="nested more than"):
        load_record(path)
    with open(path, "w") as f:
        f.write('{"actions": [' + "1," * (9 << 20) + "1]}")
    with pytest.raises(RecordError, match="too large for a game record"):
        load_record(path)


def test_a_record_carries_its_catalogue_and_replays_from_anywhere_without_temporary_files(
        tmp_path, monkeypatch):
    data = catalogue_data()
    data["printing"][0]["guilders"] = 17
    mine = tmp_path / "mine.json"
    mine.write_text(json.dumps(data))
    state, path = recorded(tmp_path, catalogue=str(mine), players=2, rounds=1)
    mine.unlink()                                           # the record needs no file
    record = json.loads(path.read_text())
    assert record["version"] == 3 and record["catalogue"]["printing"][0]["guilders"] == 17
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    # The temporary folder of this test alone (the command's and this process's), so
    # that what other programs do in /tmp meanwhile does not count.
    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    out = subprocess.run([sys.executable, "-m", "gutenberg_ai", "replay", str(path), "--quiet"],
                         cwd=elsewhere, capture_output=True, text=True, timeout=300,
                         env={**os.environ, "TMPDIR": str(temp)})
    assert out.returncode == 0, out.stderr
    assert "The replay reaches the recorded final state" in out.stdout
    again = replay(load_record(path))
    assert gutenberg_ai.core_of(again) .to_dict() == gutenberg_ai.core_of(state).to_dict()
    assert sorted(os.listdir(temp)) == []                   # no temporary file left
    assert sorted(os.listdir(elsewhere)) == []


def test_a_record_from_a_position_replays_without_the_position_file(tmp_path):
    position = tmp_path / "table.json"
    position.write_text((POSITIONS / "fulfil-round6-2p.json").read_text())
    state, path = recorded(tmp_path, position=str(position))
    position.write_text("{}")                               # changed on disk since
    again = replay(load_record(path))
    assert gutenberg_ai.core_of(again).to_dict() == gutenberg_ai.core_of(state).to_dict()


def test_a_version_1_record_with_the_built_in_catalogue_replays(finished):
    data = copy.deepcopy(finished)
    data["version"] = 1
    del data["game"]["name"]            # version 1 and 2 records are Gutenberg's, unnamed
    data["game"]["catalogue"] = ""
    del data["catalogue"]
    assert replay(load_record(data)).is_terminal()
    data["game"]["catalogue"] = "/somewhere/box.json"
    assert [w for w, _ in record_problems(data)] == ["game.catalogue"]


# ---------------------------------------------------------------------------------------
# The arena trusts no record it finds
# ---------------------------------------------------------------------------------------
from gutenberg_ai.tools import arena  # noqa: E402


def arena_settings(**kw) -> arena.ArenaSettings:
    return arena.ArenaSettings(**{**dict(bots=["heuristic", "random"], players=2, games=2,
                                         seconds=None, iterations=20, rounds=1, seed=4), **kw})


def record_paths(out) -> list[pathlib.Path]:
    return sorted((pathlib.Path(out) / "games" / "heuristic-vs-random").glob("game-*.json"))


def test_arena_checks_each_record_against_its_schedule_and_its_replay(tmp_path):
    out = tmp_path / "out"
    s = arena_settings(games=4)
    first = arena.run_arena(s, str(out))
    assert first["run"]["played"] == 4 and first["run"]["mismatches"] == []
    paths = record_paths(out)
    good = [json.loads(p.read_text()) for p in paths]
    # 0: another result; 1: the record of game 0 copied over game 1; 2: other seeds;
    # 3: not JSON at all
    tampered = copy.deepcopy(good[0])
    tampered["result"]["scores"] = [s + 1 for s in tampered["result"]["scores"]]
    paths[0].write_text(json.dumps(tampered))
    paths[1].write_text(json.dumps(good[0]))
    other = copy.deepcopy(good[2])
    other["seats"][0]["seed"] += 1
    paths[2].write_text(json.dumps(other))
    paths[3].write_text("[" * 10000)
    again = arena.run_arena(s, str(out))
    run = again["run"]
    assert (run["played"], run["replayed"], run["skipped"]) == (4, 4, 0)
    reasons = {m["path"].split("/")[-1]: m["reason"] for m in run["mismatches"]}
    assert "result.scores: the record says" in reasons["game-0000.json"]
    assert "another match or game number" in reasons["game-0001.json"]
    assert "other bot seeds" in reasons["game-0002.json"]
    assert "nested more than" in reasons["game-0003.json"]
    assert [json.loads(p.read_text()) for p in paths][1:3] != [good[0], other]
    third = arena.run_arena(s, str(out))             # what it wrote checks out
    assert third["run"]["skipped"] == 4 and third["run"]["mismatches"] == []
    assert third["standings"] == first["standings"]


def test_arena_writes_its_settings_only_once_they_are_valid(tmp_path):
    out = tmp_path / "out"
    with pytest.raises(arena.ArenaError, match="options: smmcts: unknown") as refused:
        arena.run_arena(arena_settings(bots=["heuristic", "smmcts"],
                                       options={"smmcts": {"cutof": 3}}), str(out))
    assert str(refused.value).count("smmcts: ") == 1   # the bot is named once
    with pytest.raises(arena.ArenaError, match="'ismcts' is not among the bots"):
        arena.run_arena(arena_settings(options={"ismcts": {}}), str(out))
    with pytest.raises(arena.ArenaError, match="seed: 1.5 is not a whole number"):
        arena.run_arena(arena_settings(seed=1.5), str(out))
    assert not (out / arena.SETTINGS_FILE).exists()
    out.mkdir()
    for text in ("[" * 100000, '{"settings": [1]}', "\x00"):
        (out / arena.SETTINGS_FILE).write_text(text)
        with pytest.raises(arena.ArenaError, match="arena.json"):
            arena.run_arena(arena_settings(), str(out))


def test_a_claimed_game_is_left_to_its_arena_and_a_dead_arena_s_claim_is_taken_over(tmp_path):
    out = tmp_path / "out"
    s = arena_settings(games=3)
    claim = out / "games" / "heuristic-vs-random" / "game-0001.claim"
    claim.parent.mkdir(parents=True)
    claim.write_text(json.dumps({"pid": os.getpid(), "host": __import__("socket").gethostname()}))
    run = arena.run_arena(s, str(out))["run"]
    assert (run["played"], run["elsewhere"]) == (2, 1)
    assert [p.name for p in record_paths(out)] == ["game-0000.json", "game-0002.json"]
    assert claim.exists()                                 # not ours to release
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()
    claim.write_text(json.dumps({"pid": int(dead), "host": __import__("socket").gethostname()}))
    run = arena.run_arena(s, str(out))["run"]
    assert (run["played"], run["skipped"], run["elsewhere"]) == (1, 2, 0)
    assert not claim.exists() and len(record_paths(out)) == 3


def test_two_arenas_on_one_folder_play_each_game_once(tmp_path):
    out = tmp_path / "out"
    arena.run_arena(arena_settings(games=1, rounds=3), str(out))    # the settings file is there
    code = ("import json, sys; from gutenberg_ai.tools import arena; "
            "s = arena.ArenaSettings(bots=['heuristic', 'random'], players=2, games=40, "
            "seconds=None, iterations=20, rounds=3, seed=4); "
            "print(json.dumps(arena.run_arena(s, sys.argv[1])['run']))")
    runs = [subprocess.Popen([sys.executable, "-c", code, str(out)], stdout=subprocess.PIPE,
                             text=True) for _ in range(2)]
    done = [json.loads(p.communicate(timeout=600)[0]) for p in runs]
    # game 0 was there already; each other game played by one arena (the two run at
    # once: each plays some, and finds the other's finished or claimed)
    assert sum(r["played"] for r in done) == 39, done
    assert all(r["mismatches"] == [] for r in done)
    assert len(record_paths(out)) == 40
    assert not list((out / "games").rglob("*.claim"))


# ---------------------------------------------------------------------------------------
# Names from files are text: never markup, never escape codes
# ---------------------------------------------------------------------------------------
def run_cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "gutenberg_ai", *args], capture_output=True,
                          text=True, timeout=600, cwd=cwd)


def test_hint_shows_a_name_with_markup_as_text(tmp_path):
    data = position_data("turn-inks-round3-3p")
    data["players"][1]["name"] = "[/]"
    data["players"][0]["name"] = "[bold red]Kate"
    path = tmp_path / "table.json"
    path.write_text(json.dumps(data))
    out = run_cli("hint", str(path), "--iterations", "30", "--board")
    assert out.returncode == 0, out.stderr
    assert "[/] (player 1) to decide: take inks" in out.stdout
    assert "[bold red]Kate (player 0)" in out.stdout


def test_folder_and_file_names_with_markup_are_printed_as_text(tmp_path):
    """Names the user gives (an output folder, a record) are printed as they are: rich's
    markup would have raised on "[/x]" after the games were written."""
    out = run_cli("arena", "--bots", "random,heuristic", "--games", "1", "--rounds", "1", "--jobs", "1",
                  "--out", "ar[/x]", cwd=tmp_path)
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
    assert "ar[/x]" in out.stdout
    record = next((tmp_path / "ar[/x]").glob("games/*/game-*.json"))
    named = tmp_path / "g[red]r.json"
    named.write_text(record.read_text())
    out = run_cli("review", named.name, "--iterations", "5", cwd=tmp_path)
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
    assert "Review of g[red]r.json" in out.stdout
    out = run_cli("selfplay", "--games", "1", "--rounds", "1", "--iterations", "3", "--jobs", "1",
                  "--out", "sp[/x]", cwd=tmp_path)
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
    assert "sp[/x]" in out.stdout


@pytest.mark.parametrize("command, game, option, said", [
    ("selfplay", "gutenberg", ["--variant", "advanced"], "variant: Gutenberg has no variants"),
    ("selfplay", "lead-letter-printers", ["--automa"], "automa: Lead Letter Printers has no automa setting"),
    ("arena", "lead-letter-printers", ["--no-characters"],
     "characters: Lead Letter Printers has no characters to leave out"),
    ("study", "lead-letter-printers", ["--no-characters"],
     "characters: Lead Letter Printers has no characters to leave out"),
])
def test_a_setting_the_game_lacks_is_refused_not_ignored(tmp_path, command, game, option, said):
    args = {"selfplay": ["selfplay", "--iterations", "3"], "arena": ["arena", "--bots", "random,heuristic"],
            "study": ["study", "balance", "--bot", "heuristic"]}[command]
    out = run_cli(*args, "--game", game, *option, "--games", "1", "--rounds", "1", "--out", "out", cwd=tmp_path)
    assert out.returncode == 2 and said in out.stderr and "Traceback" not in out.stderr, out.stderr
    assert not (tmp_path / "out").exists()          # nothing written


def test_train_refuses_a_folder_for_its_files_before_training(tmp_path):
    (tmp_path / "data").mkdir()
    out = run_cli("train", str(tmp_path / "data"), "--out", "w.npz", "--report", str(tmp_path), cwd=tmp_path)
    assert out.returncode == 2 and "--report: " in out.stderr and "is a folder" in out.stderr, out.stderr
    out = run_cli("train", str(tmp_path / "data"), "--out", str(tmp_path), cwd=tmp_path)
    assert out.returncode == 2 and "--out: " in out.stderr and "is a folder" in out.stderr, out.stderr


def test_train_writes_over_nothing_but_weights_and_reports_and_makes_no_folder(tmp_path):
    """Its --out and --report are checked before any record is read: a file of another
    kind is not written over, a missing folder is refused (not made), and the epochs
    and hidden units are bounded."""
    (tmp_path / "data").mkdir()
    (tmp_path / "game.json").write_text('{"format": "gutenberg-record"}')
    for args, said in [(("--out", "game.json"), "--out: game.json exists and is not a weights file"),
                       (("--out", "w.npz", "--report", "game.json"), "--report: game.json exists and is not a "
                                                                      "training report"),
                       (("--out", "w.npz", "--report", "w.npz"), "--report: w.npz is the weights file"),
                       (("--out", "nosuch/w.npz"), "--out: nosuch/w.npz: no folder"),
                       (("--out", "w.npz", "--report", "nosuch/r.json"), "--report: nosuch/r.json: no folder"),
                       (("--out", "w.npz", "--epochs", "10001"), "--epochs: 10001 is more than 10,000"),
                       (("--out", "w.npz", "--hidden", "257"), "--hidden: 257 is more than 256"),
                       (("data/", "--out", "w.npz"), "DIR: data/ is data again: give each folder once")]:
        out = run_cli("train", "data", *args, cwd=tmp_path)
        assert out.returncode == 2 and said in out.stderr and "Traceback" not in out.stderr, (args, out.stderr)
    assert (tmp_path / "game.json").read_text() == '{"format": "gutenberg-record"}'
    assert not (tmp_path / "nosuch").exists()


def test_a_suite_file_far_larger_than_any_suite_is_refused_at_once(tmp_path):
    """A suite's file is bounded near what 1,000 positions take (the shipped ones are
    under 250 KB): a 9 MB file is refused by its size, before it is parsed."""
    from gutenberg_ai.tools import suite
    path = tmp_path / "big.json"
    path.write_text("[" + "1," * (suite.MAX_SUITE_BYTES // 2) + "1]")
    out = run_cli("suite", "--game", "printing-press", "--bot", "heuristic", "--suite", str(path), cwd=tmp_path)
    assert out.returncode == 2 and "big.json: more than 8,388,608 bytes: too large for a benchmark suite" in out.stderr


def test_serve_on_a_port_in_use_says_which():
    import socket
    pytest.importorskip("fastapi")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        out = run_cli("serve", "--port", str(port))
    assert out.returncode != 0 and f"cannot listen on 127.0.0.1:{port}" in out.stderr
    assert "Traceback" not in out.stderr


def test_play_refuses_an_ai_it_would_not_use():
    out = run_cli("play", "--players", "1", "--ai", "random", "--seed", "1")
    assert out.returncode == 2 and "--ai: a game of one person has no AI seat" in out.stderr
    out = run_cli("play", "--ai", "cfr", "--seed", "1")      # the small variant's solver only
    assert out.returncode == 2 and "'cfr' is not one of" in out.stderr


def test_demo_prints_no_seed_for_a_game_it_refuses():
    out = run_cli("demo", "--variant", "advanced", "--seed", "3")
    assert out.returncode == 2 and out.stdout == "" and "--variant: Gutenberg has no such parameter" in out.stderr


def test_hint_refuses_a_name_with_escape_codes_in_one_line(tmp_path):
    data = position_data("turn-inks-round3-3p")
    data["players"][1]["name"] = "\x1b[2J"
    path = tmp_path / "table.json"
    path.write_text(json.dumps(data))
    out = run_cli("hint", str(path), "--iterations", "30")
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr == ("gutenberg-ai hint: table.json: players[1].name: '\\x1b[2J' contains "
                          "the control character '\\x1b': names are plain text\n")


def test_the_board_shows_names_as_text_and_escapes_control_characters():
    import io

    from rich.console import Console

    from gutenberg_ai.interfaces import tui
    pos = load_position(position_data("turn-inks-round3-3p"))
    console = Console(file=io.StringIO(), force_terminal=True, width=120)
    console.print(tui.game_view(pos.state, 0, ["[/]", "\x1b[2J", "[bold]x[/bold]"]))
    text = console.file.getvalue()
    assert "[/]" in text and "[bold]x[/bold]" in text
    assert "\x1b[2J" not in text and "\\x1b[2J" in text


def test_every_problem_of_a_file_is_a_line_of_the_command_line_error(tmp_path):
    data = position_data()
    data["players"][0]["fame"] = 1.0
    data["players"][1]["guilders"] = -1
    path = tmp_path / "table.json"
    path.write_text(json.dumps(data))
    out = run_cli("hint", str(path))
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.splitlines() == [
        "gutenberg-ai hint: table.json: players[0].fame: must be a whole number, got 1.0",
        "gutenberg-ai hint: table.json: players[1].guilders: -1 is out of range (0-999)"]


def test_a_record_given_to_hint_says_so(tmp_path):
    _, path = recorded(tmp_path, players=2, rounds=1)
    out = run_cli("hint", str(path))
    assert out.returncode == 2 and "this is a game record, not a position" in out.stderr
    out = run_cli("replay", str(POSITIONS / "plan-round1-2p.json"))
    assert out.returncode == 2 and "this is a position, not a game record" in out.stderr
    # Given as a --position, a record is pointed to what that command does with one: play
    # goes on from it; a followed table's save (one person's view) is followed on.
    out = run_cli("play", "--position", str(path))
    assert out.returncode == 2 and "not a position (play on from it with `gutenberg-ai play --resume FILE`" \
        in out.stderr, out.stderr
    followed = tmp_path / "followed.json"
    followed.write_text(json.dumps({**json.loads(path.read_text()), "viewer": 0}))
    out = run_cli("table", "--position", str(followed))
    assert out.returncode == 2 and "this is a followed game's record, not a position (follow the game on with " \
        "`gutenberg-ai table --resume FILE`" in out.stderr, out.stderr


@pytest.mark.parametrize("game", ["gutenberg", "printing_press", "lead_letter_printers"])
def test_a_suite_given_to_hint_says_so(game):
    suite = sorted((POSITIONS.parents[2] / game / "data").glob("suite-v*.json"))[-1]
    out = run_cli("hint", str(suite))
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.strip() == (f"gutenberg-ai hint: {suite.name}: format: this is a benchmark suite, not a "
                                  "position (score a bot on it with `gutenberg-ai suite --suite FILE`, or give a "
                                  "position file)")
    out = run_cli("replay", str(suite))
    assert out.returncode == 2 and out.stderr.strip() == (
        f"gutenberg-ai replay: {suite.name}: format: this is a benchmark suite, not a game record (score a bot "
        "on it with `gutenberg-ai suite --suite FILE`)")


def test_a_position_given_as_a_suite_says_so():
    out = run_cli("suite", "--bot", "random", "--suite", str(POSITIONS / "plan-round1-2p.json"))
    assert out.returncode == 2 and out.stderr.strip() == (
        "gutenberg-ai suite: plan-round1-2p.json: format: this is a position, not a benchmark suite (a suite is "
        "made by `python -m gutenberg_ai.tools.suite make`)")


from gutenberg_ai import games  # noqa: E402
from gutenberg_ai.common.jsonfile import FileDataError  # noqa: E402
from gutenberg_ai.games.positionfile import load_position as load_any_position  # noqa: E402
from gutenberg_ai.tools.suite import load_suite  # noqa: E402

_GAME_DATA = {g.key: pathlib.Path(g.data_folder) for g in games.GAMES.values()}


@pytest.mark.parametrize("key", sorted(_GAME_DATA))
def test_a_catalogue_and_the_other_files_of_the_program_are_told_apart(key, tmp_path):
    g, data = games.get(key), _GAME_DATA[key]
    catalogue = data / "catalogue.json"
    title = g.title
    # A catalogue given as a position, a record, a suite: named, one problem.
    with pytest.raises(PositionError) as info:
        load_any_position(catalogue, game=key)
    assert info.value.problems == [("format", f"this is a catalogue of {title}, not a position (give it "
                                              "with --catalogue, or give a position file)")]
    with pytest.raises(RecordError) as record_info:
        load_record(catalogue)
    assert record_info.value.problems == [("format", f"this is a catalogue of {title}, not a game record "
                                                     "(give it with --catalogue)")]
    with pytest.raises(FileDataError) as suite_info:
        load_suite(key, path=str(catalogue))
    assert suite_info.value.problems == [("format", f"this is a catalogue of {title}, not a benchmark suite "
                                                    "(a suite is made by `python -m gutenberg_ai.tools.suite make`)")]
    # A position, a record, a suite (its lists longer than a catalogue's), another
    # game's catalogue given as this game's catalogue: named, one problem.
    record = tmp_path / "record.json"
    record.write_text(json.dumps({"format": "gutenberg-record", "actions": list(range(5000))}))
    given = {sorted((data / "positions").glob("*.json"))[0]: "a position",
             record: "a game record", sorted(data.glob("suite-v*.json"))[-1]: "a benchmark suite"}
    for path, what in given.items():
        with pytest.raises(g.catalogues.CatalogueError) as catalogue_info:
            g.catalogues.load_catalogue(path)
        (where, reason), = catalogue_info.value.problems
        assert where == "format" and reason.startswith(f"this is {what}, not a catalogue (")
    for other in set(_GAME_DATA) - {key}:
        with pytest.raises(g.catalogues.CatalogueError) as other_info:
            g.catalogues.load_catalogue(_GAME_DATA[other] / "catalogue.json")
        assert other_info.value.problems == [("top level", f"this is a catalogue of {games.get(other).title}, "
                                                           f"not of {title} (give it with --game {other})")]


def test_a_position_given_as_a_catalogue_is_one_line_on_the_command_line():
    out = run_cli("demo", "--catalogue", str(POSITIONS / "plan-round1-2p.json"))
    assert out.returncode == 2 and out.stderr.strip() == (
        "gutenberg-ai demo: catalogue: plan-round1-2p.json: format: this is a position, not a catalogue (ask "
        "for a hint with `gutenberg-ai hint`, or play from it with `gutenberg-ai play --position`)")
    out = run_cli("hint", str(BUILTIN))
    assert out.returncode == 2 and out.stderr.strip() == (
        "gutenberg-ai hint: catalogue.json: format: this is a catalogue of Gutenberg, not a position (give it "
        "with --catalogue, or give a position file)")


def test_every_line_of_a_catalogue_parameters_problems_names_the_parameter(tmp_path):
    path = tmp_path / "box.json"
    path.write_text(json.dumps({"printing": 1, "refinement": 2}))
    out = run_cli("demo", "--catalogue", str(path))
    lines = out.stderr.splitlines()
    assert out.returncode == 2 and len(lines) > 1
    assert all(line.startswith("gutenberg-ai demo: catalogue: box.json: ") for line in lines), lines


# ---------------------------------------------------------------------------------------
# Game parameters: a path with a comma, a file changed on disk
# ---------------------------------------------------------------------------------------
import pyspiel  # noqa: E402

from gutenberg_ai import core_of, rules_of  # noqa: E402
from gutenberg_ai.games.gutenberg.game import ParameterError, register_data, sources_of  # noqa: E402


@pytest.mark.parametrize("name,refused", [("a,b.json", "','"), ("x=y.json", "'='"),
                                          ("p(.json", "unbalanced parentheses"),
                                          ("p(1).json", None), ("sp ace.json", None),
                                          ("cat(1)", "ends with '\\)', which an OpenSpiel game string reads as a game")])
@pytest.mark.parametrize("game_name", ["gutenberg", "gutenberg_py"])
def test_a_path_an_openspiel_game_string_cannot_carry_is_refused(tmp_path, name, refused, game_name):
    path = tmp_path / name
    path.write_text((POSITIONS / "plan-round1-2p.json").read_text())
    if refused:
        with pytest.raises((ParameterError, pyspiel.SpielError), match=refused):
            pyspiel.load_game(game_name, {"position": str(path)})
        return
    game = pyspiel.load_game(game_name, {"position": str(path)})
    again = pyspiel.load_game(str(game))                      # the game string round-trips
    assert again.get_parameters()["position"] == str(path)
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    if game_name == "gutenberg":
        g2, s2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
        assert core_of(s2) == core_of(state)


@pytest.mark.parametrize("game_name", ["gutenberg", "gutenberg_py"])
def test_a_file_changed_on_disk_makes_a_new_game_and_the_old_one_keeps_its_data(tmp_path, game_name):
    path = tmp_path / "table.json"
    data = position_data()
    data["players"][0]["fame"] = 11
    path.write_text(json.dumps(data))
    old = pyspiel.load_game(game_name, {"position": str(path)})
    old_state = old.new_initial_state()
    old_state.apply_action(old_state.legal_actions()[0])
    data["players"][0]["fame"] = 22
    path.write_text(json.dumps(data))
    new = pyspiel.load_game(game_name, {"position": str(path)})
    fame = lambda state: core_of(state).to_dict()["players"][0]["fame"]     # noqa: E731
    assert fame(new.new_initial_state()) == 22
    assert fame(old.new_initial_state()) == fame(old_state) == 11
    assert rules_of(old).new_state().to_dict()["players"][0]["fame"] == 11
    assert sources_of(old)["position"]["players"][0]["fame"] == 11
    back = old.deserialize_state(old_state.serialize())
    assert core_of(back) == core_of(old_state)
    with pytest.raises(pyspiel.SpielError, match="written for another game"):
        new.deserialize_state(old_state.serialize())
    path.unlink()                                             # gone: the games live on
    assert fame(old.new_initial_state()) == 11 and rules_of(new) is not rules_of(old)


def test_a_catalogue_changed_on_disk_does_not_change_the_games_loaded_before(tmp_path):
    path = tmp_path / "box.json"
    data = catalogue_data()
    data["printing"][0]["guilders"] = 17
    path.write_text(json.dumps(data))
    old = gutenberg_ai.load_game(catalogue=str(path))
    data["printing"][0]["guilders"] = 3
    path.write_text(json.dumps(data))
    new = gutenberg_ai.load_game(catalogue=str(path))
    assert rules_of(old).catalogue.printing[0].guilders == 17
    assert rules_of(new).catalogue.printing[0].guilders == 3
    assert sources_of(old)["catalogue"]["printing"][0]["guilders"] == 17


def test_data_registered_in_memory_is_a_game_parameter():
    key = register_data(position_data())
    game = gutenberg_ai.load_game(position=key)
    assert core_of(game.new_initial_state()).current_player() == 0
    with pytest.raises(ParameterError, match="registered in another process"):
        gutenberg_ai.games.gutenberg.game.check_parameters({"position": "sha256:" + "0" * 64})


# ---------------------------------------------------------------------------------------
# Serialized states: rebuilt and checked, never unpickled
# ---------------------------------------------------------------------------------------
class _Evil:
    marker = ""

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def _pickled_state(marker: str) -> str:
    import base64
    import pickle
    evil = _Evil()
    evil.marker = marker
    payload = base64.b64encode(pickle.dumps({"_core": evil})).decode()
    return f"history=\nmove_number=0\n__dict__={payload}"


def _played(game, n=60, seed=1):
    import random
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(n):
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("game_name", ["gutenberg", "gutenberg_py"])
def test_a_pickled_state_is_refused_and_never_run(tmp_path, game_name):
    marker = tmp_path / "ran"
    game = pyspiel.load_game(game_name, {"players": 2})
    with pytest.raises(pyspiel.SpielError):
        game.deserialize_state(_pickled_state(str(marker)))
    assert not marker.exists()
    assert "__dict__" not in _played(game).serialize()        # the shell writes no pickle


def _hostile_texts(good: str) -> list:
    lines = good.split("\n")
    rules = next(i for i, line in enumerate(lines) if line.startswith("rules "))
    return [
        ("", None),                                           # the initial state
        ("x" * 10_000, "not an action"),
        ("\x1b[2J", "not an action"),
        ("-1", "not an action"),
        ("1.5", "not an action"),
        ("99999999999999999999", "not an action"),
        ("0\n" * 100_000, "not a legal action|more actions than a game"),
        ("\n".join(lines[:rules] + ["0"] + lines[rules:]), "not a legal action|already over"),
        ("\n".join(lines[:-1] + ["core " + "ab" * 10]), "does not match"),
        ("\n".join(lines[:-1] + ["core zz"]), "does not match"),
        ("\n".join(lines + lines[-1:]), "a second 'core' line"),
        ("\n".join(lines[:rules] + ["rules " + "0" * 64] + lines[rules + 1:]), "another game"),
        ("\n".join(lines[:rules] + ["start_plan 0 1 1 1 1 3"] + lines[rules:]), "start plan|no such plan"),
        ("start_plan 0 99 1 1 1 3", "no such plan"),
        ("start_plan 0 100 1 1 1 3", "a seat and 5 numbers"),
        ("start_plan x", "a seat and 5 numbers"),
    ]


@pytest.mark.parametrize("game_name", ["gutenberg", "gutenberg_py"])
def test_hostile_serialized_states_get_a_clear_error(game_name):
    game = pyspiel.load_game(game_name, {"players": 2})
    good = _played(game).serialize()
    assert core_of(game.deserialize_state(good)) == core_of(_played(game))
    for text, error in _hostile_texts(good):
        if error is None:
            assert game.deserialize_state(text).history() == []
            continue
        with pytest.raises(pyspiel.SpielError) as info:
            game.deserialize_state(text)
        message = str(info.value)
        assert __import__("re").search(error, message), (text[:60], message)
        assert len(message) < 300 and "\x1b" not in message and message.count("\n") == 0


@pytest.mark.parametrize("game_name", ["gutenberg", "gutenberg_py"])
def test_resampling_redraws_hidden_plans_of_a_position_and_the_sample_survives_serialization(
        tmp_path, game_name):
    import random
    data = position_data("turn-inks-round3-3p")
    data["step"] = {"kind": "plan", "player": 0}
    for p in data["players"]:
        p.pop("plan")
        for g in p.get("gears", []):
            g.pop("used", None)
    data["players"][2]["plan"] = "hidden"                 # the first player committed, unseen
    path = tmp_path / "hidden.json"
    path.write_text(json.dumps(data))
    game = pyspiel.load_game(game_name, {"position": str(path)})
    state = game.new_initial_state()
    assert state.current_player() == 0
    plans = set()
    for seed in range(12):
        sample = state.resample_from_infostate(0, random.Random(seed).random)
        plan = tuple(core_of(sample).to_dict()["players"][2]["plan"])
        assert sum(plan) == core_of(sample).to_dict()["players"][2]["markers"]
        plans.add(plan)
        back = game.deserialize_state(sample.serialize())
        assert core_of(back) == core_of(sample)
        later = sample.clone()
        later.apply_action(later.legal_actions()[0])       # player 0 commits; player 1 next
        assert core_of(game.deserialize_state(later.serialize())) == core_of(later)
        resampled_again = later.resample_from_infostate(1, random.Random(seed).random)
        assert core_of(game.deserialize_state(resampled_again.serialize())) == \
            core_of(resampled_again)
    assert len(plans) > 6                                 # redrawn, not the stand-in
    # the same sampler gives the same sample in both games
    other = pyspiel.load_game("gutenberg" if game_name == "gutenberg_py" else "gutenberg_py",
                              {"position": str(path)})
    a = state.resample_from_infostate(0, random.Random(5).random)
    b = other.new_initial_state().resample_from_infostate(0, random.Random(5).random)
    assert core_of(a).to_dict() == core_of(b).to_dict()


# ---------------------------------------------------------------------------------------
# Fame and every bound agree: the schema, the core, the game's utilities
# ---------------------------------------------------------------------------------------
from gutenberg_ai.games.gutenberg import _core  # noqa: E402
from gutenberg_ai.games.gutenberg.position import position_of, position_schema  # noqa: E402


def test_the_schema_s_bounds_are_the_core_s():
    limits = _core.LIMITS
    player = position_schema()["$defs"]["player"]["properties"]
    assert player["fame"]["maximum"] == limits["MAX_FAME"]
    assert player["guilders"]["maximum"] == limits["MAX_GUILDERS"]
    assert player["types"]["maxLength"] == limits["MAX_TYPES"]
    assert player["orders"]["maxItems"] == limits["MAX_ORDERS"]
    assert player["patronage"]["anyOf"][0]["maximum"] == limits["MAX_PATRONAGE"]
    plan = position_schema()["$defs"]["plan"]["anyOf"]
    assert plan[1]["items"]["maximum"] == limits["MAX_ROW"]
    assert all(v["maximum"] == limits["MAX_ROW"] for v in plan[0]["properties"].values())
    assert position_schema()["properties"]["game"]["properties"]["markers"]["maximum"] == \
        limits["MAX_MARKERS"]


@pytest.mark.parametrize("returns", ["score", "margin", "win"])
@pytest.mark.parametrize("game_name", ["gutenberg", "gutenberg_py"])
def test_a_game_from_the_richest_position_stays_within_its_bounds(tmp_path, returns, game_name):
    import random
    data = position_data("turn-inks-round3-3p")
    for p in data["players"]:
        p["fame"], p["guilders"] = _core.LIMITS["MAX_FAME"], _core.LIMITS["MAX_GUILDERS"]
    path = tmp_path / "rich.json"
    path.write_text(json.dumps(data))
    game = pyspiel.load_game(game_name, {"position": str(path), "returns": returns})
    assert game.max_game_length() >= 3 * _core.LIMITS["MAX_GUILDERS"]
    for seed in range(3):
        rng = random.Random(seed)
        state, n = game.new_initial_state(), 0
        while not state.is_terminal():
            d = core_of(state).to_dict()
            assert all(p["fame"] <= 999 and p["guilders"] <= 999 for p in d["players"])
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                legal = state.legal_actions()
                # a buyer: types whenever it can, else anything
                buys = [a for a in legal if _core.ACTIONS["BUY"] <= a < _core.ACTIONS["BUY"] + 4]
                state.apply_action(rng.choice(buys) if buys and rng.random() < 0.9
                                   else rng.choice(legal))
            n += 1
            if not state.is_terminal() and not state.is_chance_node() and n % 50 == 0:
                try:
                    saved = position_of(core_of(state))
                except PositionError:       # a step a position file cannot hold
                    continue
                assert position_of(load_position(saved).state) == saved   # the schema holds it
        assert n <= game.max_game_length()
        assert all(game.min_utility() <= r <= game.max_utility() for r in state.returns())
        assert max(core_of(state).final_scores()) <= gutenberg_ai.games.gutenberg.game.max_final_score(
            rules_of(game).catalogue)


# ---------------------------------------------------------------------------------------
# Wrong values anywhere: an error that names the place, never another exception
# ---------------------------------------------------------------------------------------
from json_places import is_container_at, places, replaced  # noqa: E402

HOSTILE = [None, True, 3.0, -1, 10 ** 40, float("inf"), "x" * 300, "\x1b[2J", [], {},
           [[[[[[]]]]]], {"a": 1}]


@pytest.mark.parametrize("name", ["turn-inks-round3-3p", "solo-automa-round4", "inline-cards-2p"])
def test_any_wrong_value_in_a_position_is_an_error_naming_a_place(name):
    base = position_data(name)
    spots = [w for w in places(base) if w]
    for i, where in enumerate(spots):
        for new in HOSTILE[i % 6::6]:
            try:
                load_position(replaced(base, where, new))
            except PositionError as e:
                assert e.problems and all(len(r) < 400 and "\x1b" not in r for _, r in e.problems)
    everything = base
    for i, where in enumerate(spots):                  # wrong types everywhere at once
        # (a place inside a value already replaced by a non-container is gone)
        if len(where) >= 2 and is_container_at(everything, where[:-1]):
            everything = replaced(everything, where, HOSTILE[i % len(HOSTILE)])
    with pytest.raises(PositionError) as info:
        load_position(everything)
    assert len(info.value.problems) > 10


def test_any_wrong_value_in_a_catalogue_is_an_error_naming_a_place():
    from gutenberg_ai.games.gutenberg.catalogue import parse_catalogue
    base = catalogue_data()
    spots = [w for w in places(base) if w]
    for i, where in enumerate(spots[::9]):
        try:
            parse_catalogue(replaced(base, where, HOSTILE[i % len(HOSTILE)]), "box.json")
        except CatalogueError as e:
            assert e.problems and all(len(r) < 400 and "\x1b" not in r for _, r in e.problems)


def test_any_wrong_value_in_a_record_is_an_error_naming_a_place(finished):
    spots = [w for w in places(finished)
              if w and not (len(w) > 1 and w[0] == "actions" and w[1] > 6)]
    for i, where in enumerate(spots):
        data = replaced(finished, where, HOSTILE[i % len(HOSTILE)])
        try:
            replay(load_record(data))
        except RecordError as e:
            assert e.problems and all(len(r) < 400 and "\x1b" not in r for _, r in e.problems)
