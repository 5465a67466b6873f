"""Every file a person gives is untrusted: catalogues, positions, game records and
serialized states. Hostile or careless files get errors that name each place (all of a
file's problems at once, one short line each), never a traceback, never code run."""
import copy
import json
import pathlib

import pytest

from gutenberg_ai.catalogue import CatalogueError, default_catalogue, load_catalogue
from gutenberg_ai.jsonfile import MAX_DEPTH, MAX_PROBLEMS, MAX_SHOWN, show

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


def test_huge_catalogue_file_is_refused_without_reading_it_all(tmp_path):
    path = tmp_path / "box.json"
    with open(path, "w") as f:
        f.write('{"about": "' + "x" * (50 << 20) + '"}')
    with pytest.raises(CatalogueError) as info:
        load_catalogue(path)
    assert str(info.value) == "box.json: more than 1,048,576 bytes: too large for a catalogue"


def test_whole_number_floats_are_not_integers_in_a_catalogue(tmp_path):
    data = catalogue_data()
    data["automa"]["start"] = [2.0, 1, 2, 1, 1]
    e = catalogue_error(tmp_path, data)
    assert e.problems == [("automa.start[0]", "markers must be a whole number, got 2.0")]
