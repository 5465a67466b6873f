"""The Printing Press catalogue: the built-in file is the rulebook's counts and worked
examples; a file with problems is refused with every problem at once, each with its place;
a replacement catalogue changes the game."""
import json
from collections import Counter

import pytest

from gutenberg_ai.games.printing_press import CatalogueError, load_catalogue, make_rules, names
from gutenberg_ai.games.printing_press.catalogue import EXCERPT, parse_catalogue
from gutenberg_ai.common.jsonfile import MAX_PROBLEMS
from pp_helpers import (
    C, cat, setup,
)

BUILTIN = cat()


def raw():
    from importlib import resources
    path = resources.files("gutenberg_ai.games.printing_press") / "data" / "catalogue.json"
    return json.loads(path.read_text())


def test_the_builtin_catalogue_has_the_rulebooks_counts():
    assert len(BUILTIN.cards) == 90 and len(BUILTIN.plates) == 16 and len(BUILTIN.frames) == 16
    assert sum(BUILTIN.tokens.values()) == 48 and set(BUILTIN.tokens.values()) == {4}
    assert BUILTIN.initiative_cubes == 7
    assert all(len(c.squares) == 3 for c in BUILTIN.cards)
    assert Counter(c.orientation for c in BUILTIN.cards) == {"row": 45, "column": 45}
    assert BUILTIN.time_track["basic"].card_steps == 6 and BUILTIN.time_track["advanced"].card_steps == 5
    assert BUILTIN.solo_board.points == (4, 3, 2, 1) and BUILTIN.solo_board.hard_points == (5, 4, 3, 1)


def test_the_builtin_catalogue_looks_designed():
    """Balanced symbols on the cards, one plate per additional condition of the rulebook's
    page 19 (a~a i~i o~o u~u, four absent letters, four corners, a i in the middle
    column, o u in the middle row), each ink and specialty on 4 bonus slots, no two cards
    alike."""
    squares = Counter(q for c in BUILTIN.cards for q in c.squares)
    assert {squares[s] for s in names.SYMBOLS} == {19}
    assert len({tuple(sorted(c.squares)) for c in BUILTIN.cards}) == 90
    kinds = Counter((p.kind, p.letter) for p in BUILTIN.plates)
    assert kinds == Counter([("adjacent", x) for x in "AIOU"] + [("absent", x) for x in "AIOU"]
                            + [("corner", x) for x in "AIOU"] + [("middle column", x) for x in "AI"]
                            + [("middle row", x) for x in "OU"])
    assert {p.letter2 for p in BUILTIN.plates if p.kind == "adjacent"} == set("AIOU")
    assert Counter(b for f in BUILTIN.frames for b in f.bonus) == {s: 4 for s in names.INKS + names.SPECIALTIES}
    assert Counter(x for p in BUILTIN.plates for x in p.letters) == {x: 14 for x in "AIOU"}


def test_the_worked_examples_fit_the_catalogue():
    ch = BUILTIN.characters
    assert (ch["William Caxton"], ch["Helena Ungler"], ch["Johannes Gutenberg"]) == (3, 2, 1)
    assert len(set(ch.values())) == 5
    john_plate = BUILTIN.plates[15]
    assert (john_plate.letters, john_plate.points, john_plate.kind, john_plate.letter, john_plate.bonus) == \
        ("AAUI", 4, "middle row", "U", 2)
    john_frame = BUILTIN.frames[12]
    assert (john_frame.ink, john_frame.line, john_frame.ink_points) == ("grey", "bottom row", 3)
    assert (john_frame.specialties, john_frame.specialty_points) == (("typesetting", "woodcutting"), 4)


def test_descriptions():
    assert BUILTIN.describe_plate(15) == "plate 16: A A U I for 4, +2 if U in the middle row"
    assert BUILTIN.describe_frame(12).startswith("frame 13: grey in the bottom row 3, typesetting+woodcutting 4")
    card = BUILTIN.cards[36]
    text = BUILTIN.describe_card(36)
    assert text.startswith("card 37 (") and (" | " in text) == (card.orientation == "row")


def problems_of(data):
    with pytest.raises(CatalogueError) as e:
        parse_catalogue(data, "mine.json")
    return e.value


def test_every_problem_is_reported_at_once_with_its_place():
    data = raw()
    data["cards"][4]["squares"][1] = "purple"
    data["plates"][2]["additional"]["kind"] = "sideways"
    data["frames"][7]["bonus"] = ["red", "red"]
    data["tokens"]["A"] = "four"
    del data["solo_board"]["hard_points"]
    err = problems_of(data)
    places = [w for w, _ in err.problems]
    assert "cards[4].squares[1]" in places
    assert "plates[2].additional.kind" in places
    assert "frames[7].bonus" in places
    assert "tokens.A" in places
    assert "solo_board" in places
    text = str(err)
    assert all(line.startswith("mine.json: ") for line in text.splitlines())   # a line a problem
    assert len(text.splitlines()) == len(err.problems)
    assert "cards[4].squares[1]: 'purple'" not in text or "is not one of" in text
    assert "Traceback" not in text


def test_semantic_problems_after_the_shape():
    data = raw()
    data["cards"][3]["number"] = 7
    data["plates"][4]["additional"] = {"kind": "absent", "letter": "I", "points": 2}   # main: I O U
    data["tokens"]["A"] = 5
    data["characters"]["Yolande Bonhomme"] = 3
    data["time_track"]["advanced"]["card_steps"] = 6
    data["time_track"]["basic"]["bonus_after"] = [3, 4, 6]
    data["solo_board"]["choices"][0] = ["ink", "ink", "specialty"]
    data["initiative_cubes"] = 8
    err = problems_of(data)
    found = dict(err.problems)
    assert "must be 4" in found["cards[3].number"]
    assert "could never be met" in found["plates[4].additional"]
    assert "49 tokens" in found["tokens"]
    assert "initiative 3 is on another tile too" in found["characters['Yolande Bonhomme']"]
    assert "the rulebook has 5" in found["time_track.advanced.card_steps"]
    assert "solo_board.choices" in found and "initiative_cubes" in found
    assert len(err.problems) >= 8


def test_shape_problems_of_conditions():
    data = raw()
    data["plates"][0]["additional"] = {"kind": "corner", "letter": "A", "points": 3}        # no corner
    data["plates"][1]["additional"] = {"kind": "adjacent", "letter": "I", "points": 3}      # letters needed
    data["plates"][2]["letters"] = "OOX"
    err = problems_of(data)
    found = dict(err.problems)
    assert "missing key 'corner'" in found["plates[0].additional"]
    assert any("missing key 'letters'" in r for w, r in err.problems if w == "plates[1].additional")
    assert "letters A, I, O, U" in found["plates[2].letters"]


def test_long_values_are_cut_and_long_lists_bounded():
    data = raw()
    data["cards"][0]["squares"][0] = "x" * 500
    for i in range(1, 40):
        data["cards"][i]["orientation"] = "diagonal"
    err = problems_of(data)
    assert len(err.problems) == 40
    text = str(err)
    assert "x" * (EXCERPT + 1) not in text and "..." in text
    assert f"and {40 - MAX_PROBLEMS} more" in text
    assert len(text.splitlines()) == MAX_PROBLEMS + 1


def test_files_that_cannot_be_read(tmp_path):
    with pytest.raises(CatalogueError, match="cannot read"):
        load_catalogue(tmp_path / "none.json")
    bad = tmp_path / "bad.json"
    bad.write_text('{"tokens": {,}}')
    with pytest.raises(CatalogueError, match=r"bad.json: line 1, column 13: invalid JSON"):
        load_catalogue(bad)
    dup = tmp_path / "dup.json"
    dup.write_text(json.dumps(raw()).replace('"initiative_cubes": 7', '"initiative_cubes": 7, "initiative_cubes": 7'))
    with pytest.raises(CatalogueError, match="key 'initiative_cubes' is given twice"):
        load_catalogue(dup)
    with pytest.raises(CatalogueError, match="must be an object"):
        parse_catalogue([1, 2])


def test_a_replacement_catalogue_changes_the_game(tmp_path):
    data = raw()
    data["characters"]["Johannes Gutenberg"] = 9          # now the highest initiative value
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(data))
    R = make_rules({"players": 2, "catalogue": str(path)})
    s = setup(R, tiles=["Gutenberg", "Caxton"])
    s.apply(C["FRAME"] + 0)
    for f in (1, 2):
        s.apply(C["FRAME"] + f)
    for p in range(3):
        s.apply(C["PLATE"] + p)
    assert s.current_player() == 0                        # Gutenberg first now
    R2 = make_rules({"players": 2})
    t = setup(R2, tiles=["Gutenberg", "Caxton"])
    for f in range(3):
        t.apply(C["FRAME"] + f)
    for p in range(3):
        t.apply(C["PLATE"] + p)
    assert t.current_player() == 1


def test_the_core_catalogue_matches_the_data():
    core = make_rules({"players": 2}).core_catalogue
    assert core["initiative"] == [BUILTIN.characters[c] for c in names.CHARACTERS]
    assert core["cards"][36]["squares"] == [names.SQUARES.index(q) for q in BUILTIN.cards[36].squares]
    assert core["frames"][12]["specialties"] == 0b0011
    assert core["plates"][15]["letters"] == [2, 1, 0, 1]
    assert core["track"][1]["card_steps"] == 5
