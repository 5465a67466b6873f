"""Tests of the card catalogue: the built-in data, its loader/validator and to_core()."""
import copy
import dataclasses
import json
import pathlib
import re
from collections import Counter

import pytest

from gutenberg_ai.games.gutenberg.catalogue import (
    Catalogue,
    CatalogueError,
    default_catalogue,
    load_catalogue,
    parse_catalogue,
)
from gutenberg_ai.games.gutenberg.names import (
    AUTOMA_TARGETS,
    GEAR_INDICATES,
    GEAR_KINDS,
    INKS,
    LETTERS,
    PATRONAGE_KINDS,
    REWARD_KINDS,
    ROWS,
    SPECIALTIES,
)
from json_places import delete_at, set_at

EXT = pathlib.Path(__file__).resolve().parents[1] / "ext"
# The .pxd files of Gutenberg's compiled core (and the engine's it shares); one of them
# declares `struct Catalogue`. Each game's core lives in its own folder under ext/.
CORE_PXDS = sorted([*EXT.glob("gutenberg/*.pxd"), *EXT.glob("engine/*.pxd")])


@pytest.fixture(scope="module")
def cat() -> Catalogue:
    return default_catalogue()


@pytest.fixture
def raw() -> dict:
    """A fresh, mutable copy of the built-in file's data."""
    return json.loads(pathlib.Path(default_catalogue().path).read_text(encoding="utf-8"))


def write(tmp_path, data, name="box.json") -> pathlib.Path:
    path = tmp_path / name
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path


def error_text(tmp_path, data) -> str:
    with pytest.raises(CatalogueError) as info:
        load_catalogue(write(tmp_path, data))
    return str(info.value)


# ---------------------------------------------------------------------------------------
# The built-in catalogue: the rulebook's counts and examples
# ---------------------------------------------------------------------------------------
def test_builtin_loads_with_rulebook_counts(cat):
    assert len(cat.printing) == 50
    assert len(cat.refinement) == 50
    assert len(cat.specialty_cards) == 10
    assert len(cat.gears) == 32
    assert all(len(g.sectors) == 3 for g in cat.gears)
    assert len(cat.patronage) == 16
    assert Counter(c.kind for c in cat.patronage) == {k: 4 for k in PATRONAGE_KINDS}
    assert cat.patronage_spaces == (3, 3, 4, 4, 5, 5, 6, 6)
    assert len(cat.automa.planning) == 10
    assert cat.automa.execution == (1, 2, 3, 4)
    assert cat.automa.start == (2, 1, 2, 1, 1)


def test_ids_are_positions(cat):
    for cards in (cat.printing, cat.refinement, cat.specialty_cards, cat.gears,
                  cat.patronage, cat.automa.planning):
        assert [c.id for c in cards] == list(range(len(cards)))


def test_rulebook_example_printing_card(cat):
    assert any(c.letters == "IOOU" and c.guilders == 5 for c in cat.printing)


def test_rulebook_example_refinement_parts(cat):
    assert any(c.colour == {"red": 1} and c.colour_fame == 2 for c in cat.refinement)
    assert any(c.decoration == {"typesetting": 2, "binding": 2} and c.decoration_fame == 3
               for c in cat.refinement)
    first = cat.refinement[0]
    assert first.colour == {"red": 1} and first.decoration == {"typesetting": 2, "binding": 2}


def test_rulebook_tables(cat):
    assert [(r.kind, r.amount) for r in cat.patronage_rewards] == [
        ("order", 1), ("specialty", 1), ("guilders", 3), ("ink", 2)]
    assert [(t.level, t.reward.kind, t.reward.amount) for t in cat.reward_track] == [
        (2, "ink", 1), (4, "ink", 1), (5, "order", 1), (6, "type", 1)]
    rules = cat.rules
    assert (rules.inks_per_colour, rules.starting_guilders, rules.starting_types,
            rules.markers_first) == (12, 10, 3, 7)
    assert rules.specialty_points == {4: 1, 5: 3, 6: 6}
    assert (rules.patronage_points, rules.guilders_per_point, rules.overflow_guilders) == (
        8, 3, 3)
    for p in (2, 3, 4):
        layout = cat.board[p]
        assert (layout.printing, layout.refinement, layout.ink_sets, layout.specialty,
                layout.gears) == (p + 1,) * 5
        assert layout.draft == 2 * p + 2


def test_all_gear_kinds_and_white_lines(cat):
    kinds = Counter(s.reward for g in cat.gears for s in g.sectors)
    assert set(kinds) == set(GEAR_KINDS)
    assert all(7 <= n <= 8 for n in kinds.values()), kinds
    assert sum(g.white_line for g in cat.gears) == 8
    # the 24 gears of a 2-participant game still offer every kind
    grey = {s.reward for g in cat.gears if not g.white_line for s in g.sectors}
    assert grey == set(GEAR_KINDS)


# ---------------------------------------------------------------------------------------
# The built-in catalogue: it looks like a designer's set
# ---------------------------------------------------------------------------------------
def test_printing_cards_are_balanced(cat):
    letters = Counter("".join(c.letters for c in cat.printing))
    assert max(letters.values()) - min(letters.values()) <= 3, letters
    assert len({"".join(sorted(c.letters)) for c in cat.printing}) == 50   # no duplicates
    for c in cat.printing:
        assert 2 <= len(c.letters) <= 5
        assert len(c.letters) <= c.guilders <= len(c.letters) + 2


def test_refinement_cards_are_balanced(cat):
    inks = Counter()
    specialties = Counter()
    for c in cat.refinement:
        n = sum(c.colour.values())
        assert 1 <= n <= 3
        assert abs(c.colour_fame - 2 * n) <= 1
        assert 1 <= len(c.decoration) <= 2
        assert all(1 <= lv <= 5 for lv in c.decoration.values())
        assert c.decoration_fame == max(1, sum(c.decoration.values()) - 1)
        inks.update(c.colour)
        specialties.update(c.decoration.keys())
    assert max(inks.values()) - min(inks.values()) <= 3, inks
    assert max(specialties.values()) - min(specialties.values()) <= 3, specialties
    keys = {(tuple(c.colour.items()), tuple(c.decoration.items())) for c in cat.refinement}
    assert len(keys) == 50


def test_refinement_rewards_from_rulebook_table_spread_evenly(cat):
    table = {("ink", 1), ("ink", 2), ("guilders", 1), ("guilders", 2), ("fame", 2),
             ("fame", 3), ("specialty", 1), ("order", 1)}
    rewards = Counter((c.reward.kind, c.reward.amount) for c in cat.refinement)
    assert set(rewards) == table
    assert all(6 <= n <= 7 for n in rewards.values()), rewards


def test_specialty_cards_are_pairs_and_doubles(cat):
    icons = {tuple(sorted(c.icons, key=SPECIALTIES.index)) for c in cat.specialty_cards}
    pairs = {(a, b) for i, a in enumerate(SPECIALTIES) for b in SPECIALTIES[i:]}
    assert icons == pairs


def test_gears_are_varied(cat):
    for g in cat.gears:
        assert len({s.reward for s in g.sectors}) == 3, g
        for s in g.sectors:
            names = GEAR_INDICATES.get(s.reward)
            assert (1 <= len(s.indicates) <= 2) if names else s.indicates == ()
    assert len({tuple(g.sectors) for g in cat.gears}) == 32


def test_patronage_cards_follow_their_kinds(cat):
    for c in cat.patronage:
        if c.kind == "specialties":
            assert not c.inks and not c.types and 1 <= len(c.specialties) <= 2
        elif c.kind == "inks_types":
            assert not c.specialties and 2 <= sum(c.inks.values()) <= 3
            assert 2 <= sum(c.types.values()) <= 4
        elif c.kind == "specialty_inks":
            assert len(c.specialties) == 1 and 2 <= sum(c.inks.values()) <= 3
        else:
            assert len(c.specialties) == 1 and 3 <= sum(c.types.values()) <= 4


def test_automa_planning_cards(cat):
    for card in cat.automa.planning:
        assert 1 <= len(card.moves) <= 4
        assert all(a != b and a in AUTOMA_TARGETS and b in AUTOMA_TARGETS
                   for a, b in card.moves)
        assert card.centre in ROWS
    shown = sum(c.patronage for c in cat.automa.planning)
    assert 4 <= shown <= 6
    assert any("min" in m or "max" in m for c in cat.automa.planning for m in c.moves)


# ---------------------------------------------------------------------------------------
# The Python object
# ---------------------------------------------------------------------------------------
def test_named_access_and_frozen(cat):
    assert isinstance(cat.printing[0].letters, str)
    assert cat.gears[5].sectors[0].reward in GEAR_KINDS
    assert cat.patronage[3].kind in PATRONAGE_KINDS
    assert cat.path.endswith("catalogue.json")
    with pytest.raises(dataclasses.FrozenInstanceError):
        cat.printing[0].guilders = 99
    with pytest.raises(TypeError):
        cat.refinement[0].colour["red"] = 2
    assert hash(cat) == hash(default_catalogue())


def test_default_catalogue_is_cached():
    assert default_catalogue() is default_catalogue()


def test_load_accepts_str_path_and_empty(cat, tmp_path, raw):
    path = write(tmp_path, raw)
    assert load_catalogue(path) == cat
    assert load_catalogue(str(path)) == cat
    assert load_catalogue(str(path)).path == str(path)
    assert load_catalogue("") == cat
    assert load_catalogue(None) == cat
    assert parse_catalogue(raw) == cat


def test_describe_texts(cat):
    ioou = next(c.id for c in cat.printing if c.letters == "IOOU")
    assert cat.describe_printing(ioou) == f"P{ioou} [I O O U] 5g"
    assert cat.describe_refinement(0) == (
        "R0 colour red 2f, deco typesetting II+binding II 3f, reward 1 ink")
    for i in range(len(cat.gears)):
        assert re.fullmatch(rf"G{i} \[[^|\]]+( \| [^|\]]+){{2}}\]", cat.describe_gear(i))
    doubles = [c.id for c in cat.specialty_cards if c.icons[0] == c.icons[1]]
    assert cat.describe_specialty_card(doubles[0]) == (
        f"S{doubles[0]} {cat.specialty_cards[doubles[0]].icons[0]}"
        f"+{cat.specialty_cards[doubles[0]].icons[0]}")
    for c in cat.patronage:
        text = cat.describe_patronage(c.id)
        assert text.startswith(f"C{c.id} ")
        if c.kind == "specialty_inks":
            (spec, level), = c.specialties.items()
            assert re.fullmatch(rf"C{c.id} {spec} [IV]+ \+ \d inks \([a-z, ]+\)", text)


# ---------------------------------------------------------------------------------------
# to_core(): the struct Catalogue of the core's .pxd
# ---------------------------------------------------------------------------------------
def test_to_core_shapes(cat):
    d = cat.to_core()
    assert len(d["printing"]) == 50
    assert len(d["refinement"]) == 50
    assert len(d["specialty"]) == 10
    assert len(d["gears"]) == 32
    assert len(d["gears"][0]["sectors"]) == 3
    assert len(d["patronage"]) == 16
    assert len(d["patronage_rounds"]) == 8
    assert len(d["board"]) == 5
    assert d["board"][2]["printing"] == 3
    assert d["board"][4]["draft"] == 10
    assert d["board"][0] == d["board"][1] == dict.fromkeys(d["board"][0], 0)
    assert d["specialty_points"] == [0, 0, 0, 0, 1, 3, 6]
    assert len(d["automa_planning"][0]["move_from"]) == 4


def test_to_core_values(cat):
    d = cat.to_core()
    ioou = next(c.id for c in cat.printing if c.letters == "IOOU")
    assert d["printing"][ioou] == {"letters": [0, 1, 2, 1], "guilders": 5}
    r0 = d["refinement"][0]
    assert r0["inks"] == [0, 0, 0, 1] and r0["levels"] == [2, 0, 2, 0]
    assert r0["reward"] == REWARD_KINDS.index("ink") and r0["reward_amount"] == 1
    for g, gear in zip(d["gears"], cat.gears):
        assert g["white_line"] == int(gear.white_line)
        for s, sector in zip(g["sectors"], gear.sectors):
            assert s["kind"] == GEAR_KINDS.index(sector.reward)
            names = GEAR_INDICATES.get(sector.reward, ())
            assert s["mask"] == sum(1 << names.index(n) for n in sector.indicates)
    for p, card in zip(d["automa_planning"], cat.automa.planning):
        n = len(card.moves)
        assert p["n_moves"] == n
        assert p["move_from"][:n] == [AUTOMA_TARGETS.index(a) for a, _ in card.moves]
        assert p["move_from"][n:] == p["move_to"][n:] == [0] * (4 - n)
    assert d["patronage_rewards"][0] == {"kind": REWARD_KINDS.index("order"), "amount": 1}
    assert d["track_level"] == [2, 4, 5, 6]
    assert d["automa_start"] == [2, 1, 2, 1, 1]
    assert d["patronage"][0]["kind"] == PATRONAGE_KINDS.index(cat.patronage[0].kind)
    assert d["patronage"][4]["inks"] == [cat.patronage[4].inks.get(i, 0) for i in INKS]
    assert d["patronage"][4]["types"] == [cat.patronage[4].types.get(x, 0) for x in LETTERS]


def _pxd_structs():
    """Field lists of the ctypedef structs in CORE_PXDS: name -> [(field, type, n)]."""
    text = "\n".join(p.read_text(encoding="utf-8") for p in CORE_PXDS)
    consts = {m[1]: int(m[2]) for m in re.finditer(r"^\s+(\w+)\s*=\s*(\d+)", text, re.M)}

    def size(expr):
        return sum(consts[t] if t in consts else int(t) for t in
                   (x.strip() for x in expr.split("+")))

    bodies = {m[1]: m[2] for m in
              re.finditer(r"^ctypedef struct (\w+):\n((?:[ \t]+.*\n?)+)", text, re.M)}
    structs = {}
    wanted = ["Catalogue"]          # only the structs the catalogue is made of
    while wanted:
        struct = wanted.pop()
        fields = []
        for line in bodies[struct].splitlines():
            line = line.split("#")[0].strip()
            if line:
                typ, name, dim = re.fullmatch(r"(\w+)\s+(\w+)(?:\[([^\]]+)\])?", line).groups()
                fields.append((name, typ, size(dim) if dim else None))
                if typ in bodies and typ not in structs:
                    wanted.append(typ)
        structs[struct] = fields
    return structs


def _check_struct(value, typ, n, structs, where):
    if n is not None:
        assert isinstance(value, list) and len(value) == n, where
        for i, v in enumerate(value):
            _check_struct(v, typ, None, structs, f"{where}[{i}]")
    elif typ in structs:
        assert isinstance(value, dict), where
        assert sorted(value) == sorted(f for f, _, _ in structs[typ]), where
        for f, t, k in structs[typ]:
            _check_struct(value[f], t, k, structs, f"{where}.{f}")
    else:
        assert type(value) is int and -32768 <= value <= 32767, (where, value)


def test_core_pxds_are_found():
    # A pattern that matches nothing would make the field-for-field check vacuous.
    assert any("ctypedef struct Catalogue:" in p.read_text(encoding="utf-8")
               for p in CORE_PXDS), CORE_PXDS


def test_to_core_matches_core_pxd_field_for_field(cat):
    structs = _pxd_structs()
    assert "Catalogue" in structs
    _check_struct(cat.to_core(), "Catalogue", None, structs, "Catalogue")


# ---------------------------------------------------------------------------------------
# Bad input: each class of mistake gives CatalogueError with the precise place
# ---------------------------------------------------------------------------------------
_set, _delete = set_at, delete_at     # mutations of the catalogue's data (json_places)


def _drop_last(section):
    return lambda data: data[section].pop()


def _swap_ids(section, i, j):
    def mutate(data):
        data[section][i]["id"], data[section][j]["id"] = j, i
    return mutate


def _flip_white_line(data):
    gear = next(g for g in data["gears"] if not g["white_line"])
    gear["white_line"] = True


def _make_inks_types(data):
    data["patronage"][3] = {"id": 3, "kind": "inks_types", "specialties": {},
                            "inks": {"red": 1}, "types": {"A": 1}}


BAD = [
    ("printing_count", _drop_last("printing"),
     "box.json: printing: 49 entries, the rulebook has 50"),
    ("gear_count", _drop_last("gears"),
     "box.json: gears: 31 entries, the rulebook has 32"),
    ("specialty_card_count", _drop_last("specialty_cards"),
     "box.json: specialty_cards: 9 entries, the rulebook has 10"),
    ("unknown_letter", _set(["printing", 12, "letters"], "AXO"),
     "box.json: printing[12].letters: 'X' is not a letter (A, I, O, U)"),
    ("too_many_letters", _set(["printing", 3, "letters"], "AAIIOOU"),
     "box.json: printing[3].letters: 7 letters, a printing card has 1 to 6"),
    ("bad_reward_kind", _set(["refinement", 3, "reward", "kind"], "gems"),
     "box.json: refinement[3].reward.kind: 'gems' is not one of ink, guilders, fame, "
     "specialty, order, type"),
    ("reward_amount_zero", _set(["refinement", 2, "reward", "amount"], 0),
     "box.json: refinement[2].reward.amount: amount must be 1 to 10, got 0"),
    ("level_out_of_range", _set(["refinement", 4, "decoration"], {"binding": 7}),
     "box.json: refinement[4].decoration.binding: level must be 1 to 6, got 7"),
    ("unknown_ink", _set(["refinement", 6, "colour"], {"green": 1}),
     "box.json: refinement[6].colour: 'green' is not an ink (blue, silver, gold, red)"),
    ("guilders_not_a_number", _set(["printing", 0, "guilders"], "5"),
     "box.json: printing[0].guilders: guilders must be a whole number, got '5'"),
    ("guilders_bool", _set(["printing", 0, "guilders"], True),
     "box.json: printing[0].guilders: guilders must be a whole number, got true"),
    ("fame_out_of_range", _set(["refinement", 9, "colour_fame"], 31),
     "box.json: refinement[9].colour_fame: fame must be 0 to 30, got 31"),
    ("unknown_key", _set(["printing", 2, "gulders"], 3),
     "box.json: printing[2]: unknown key 'gulders' (expected id, letters, guilders)"),
    ("unknown_top_level_key", _set(["expansion"], []),
     "box.json: top level: unknown key 'expansion' (expected printing, refinement, "
     "specialty_cards, gears, patronage, patronage_spaces, patronage_rewards, "
     "reward_track, automa, board, rules, characters, about)"),
    ("renamed_character", _set(["characters", "tiles", 3], "Anna"),
     "box.json: characters.tiles[3]: 'Anna' is not 'Helena Ungler' (tile 3's special rule)"),
    ("ungler_levels_out_of_order", _set(["characters", "ungler_levels"], [1, 2]),
     "box.json: characters.ungler_levels[1]: level must be 1 to 1, got 2"),
    ("missing_key", _delete(["refinement", 5, "colour_fame"]),
     "box.json: refinement[5]: missing key 'colour_fame'"),
    ("missing_section", _delete(["gears"]),
     "box.json: top level: missing key 'gears'"),
    ("section_not_a_list", _set(["printing"], {}),
     "box.json: printing: must be a list [...], got an object"),
    ("white_line_count", _flip_white_line,
     "box.json: gears: 9 gears have white_line true, there must be 8 (removed with 2 "
     "participants)"),
    ("white_line_not_bool", _set(["gears", 0, "white_line"], 0),
     "box.json: gears[0].white_line: must be true or false, got 0"),
    ("gain_ink_two_inks", _set(["gears", 4, "sectors", 1],
                               {"reward": "gain_ink", "inks": ["red", "gold"]}),
     "box.json: gears[4].sectors[1]: gain_ink indicates exactly one ink, got 2"),
    ("type_fame_three_letters", _set(["gears", 2, "sectors", 0],
                                     {"reward": "type_fame", "letters": ["A", "I", "O"]}),
     "box.json: gears[2].sectors[0]: type_fame indicates one or two letters, got 3"),
    ("indication_on_plain_kind", _set(["gears", 7, "sectors", 2],
                                      {"reward": "ink_swap", "inks": ["red"]}),
     "box.json: gears[7].sectors[2]: ink_swap indicates nothing, remove 'inks'"),
    ("wrong_indication_key", _set(["gears", 7, "sectors", 2],
                                  {"reward": "specialty_up", "inks": ["red"]}),
     "box.json: gears[7].sectors[2]: specialty_up indicates specialties, not inks"),
    ("missing_indication", _set(["gears", 1, "sectors", 0], {"reward": "colour_fame"}),
     "box.json: gears[1].sectors[0]: missing key 'inks' (colour_fame indicates inks)"),
    ("unknown_gear_kind", _set(["gears", 3, "sectors", 1], {"reward": "free_beer"}),
     "box.json: gears[3].sectors[1].reward: 'free_beer' is not one of "
     + ", ".join(GEAR_KINDS)),
    ("two_sectors", lambda d: d["gears"][6]["sectors"].pop(),
     "box.json: gears[6].sectors: 2 sectors, a gear has 3"),
    ("patronage_kind_count", _make_inks_types,
     "box.json: patronage: 3 cards of kind 'specialties', the rulebook has 4 of each kind\n"
     "box.json: patronage: 5 cards of kind 'inks_types', the rulebook has 4 of each kind"),
    ("patronage_shape", _set(["patronage", 8, "inks"], {}),
     "box.json: patronage[8].inks: a specialty_inks card asks for at least one ink"),
    ("patronage_round", _set(["patronage_spaces", 7], 7),
     "box.json: patronage_spaces[7]: round must be 1 to 6, got 7"),
    ("patronage_space_count", _drop_last("patronage_spaces"),
     "box.json: patronage_spaces: 7 entries, the game has 8"),
    ("track_not_rising", _set(["reward_track", 2, "level"], 4),
     "box.json: reward_track[2].level: levels must rise along the track, 4 follows 4"),
    ("bad_automa_row", _set(["automa", "planning", 3, "centre"], "harvest"),
     "box.json: automa.planning[3].centre: 'harvest' is not a row (orders, inks, "
     "specialties, gears, patronage)"),
    ("bad_automa_arrow", _set(["automa", "planning", 0, "moves", 0], ["orders", "middle"]),
     "box.json: automa.planning[0].moves[0][1]: 'middle' is not one of orders, inks, "
     "specialties, gears, patronage, min, max"),
    ("automa_arrow_same_ends", _set(["automa", "planning", 1, "moves", 0], ["min", "min"]),
     "box.json: automa.planning[1].moves[0]: an arrow needs two different ends, got 'min' "
     "twice"),
    ("automa_start_sum", _set(["automa", "start"], [2, 2, 2, 1, 1]),
     "box.json: automa.start: the markers add up to 8, the automa has 7 "
     "(rules.markers_first)"),
    ("automa_start_row_over_six", _set(["automa", "start"], [7, 0, 0, 0, 0]),
     "box.json: automa.start[0]: markers must be 0 to 6, got 7"),
    ("automa_execution_count", _set(["automa", "execution"], [1, 2, 3]),
     "box.json: automa.execution: 3 entries, the rulebook has 4"),
    ("id_out_of_order", _swap_ids("printing", 12, 13),
     "box.json: printing[12].id: id must be 12 (its position in the list), got 13\n"
     "box.json: printing[13].id: id must be 13 (its position in the list), got 12"),
    ("planning_id_out_of_range", _set(["automa", "planning", 9, "id"], 10),
     "box.json: automa.planning[9].id: id must be 0 to 9, got 10"),
    ("board_missing_participants", _delete(["board", "3"]),
     "box.json: board: missing key '3'"),
    ("board_unknown_participants", _set(["board", "5"], {}),
     "box.json: board: unknown key '5' (expected 2, 3, 4)"),
    ("board_spaces", _set(["board", "4", "gears"], 6),
     'box.json: board["4"].gears: spaces must be 1 to 5, got 6'),
    ("board_draft_too_small", _set(["board", "3", "draft"], 5),
     'box.json: board["3"].draft: 5 cards cannot give 3 participants two orders each '
     "(at least 6)"),
    ("specialty_points_level", _set(["rules", "specialty_points", "7"], 10),
     "box.json: rules.specialty_points: '7' is not a level (0 to 6)"),
    ("markers_first", _set(["rules", "markers_first"], 8),
     "box.json: rules.markers_first: must be 7 (plans are encoded for 7 to 10 markers), "
     "got 8"),
    ("more_inks_than_the_bag", lambda d: (d["refinement"][0].update(colour={"red": 5}),
                                          d["rules"].update(inks_per_colour=4)),
     "box.json: refinement[0].colour.red: needs 5 red inks, the game has only 4 "
     "(rules.inks_per_colour)"),
    ("specialty_card_icons", _set(["specialty_cards", 0, "icons"],
                                  ["binding", "binding", "binding"]),
     "box.json: specialty_cards[0].icons: 3 icons, a specialty card has 2"),
]


@pytest.mark.parametrize("mutate, expected", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_input(tmp_path, raw, mutate, expected):
    data = copy.deepcopy(raw)
    mutate(data)
    assert error_text(tmp_path, data) == expected


def test_bad_json_names_line_and_column(tmp_path, raw):
    text = pathlib.Path(default_catalogue().path).read_text(encoding="utf-8")
    lines = text.splitlines()
    k = next(i for i, line in enumerate(lines) if line.startswith('  "patronage_spaces"'))
    lines[k] = lines[k].rstrip(",")      # drop the comma after the patronage spaces
    path = tmp_path / "box.json"
    path.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(CatalogueError) as info:
        load_catalogue(path)
    assert str(info.value) == (
        f"box.json: line {k + 2}, column 3: invalid JSON: Expecting ',' delimiter")
    assert info.value.where == f"line {k + 2}, column 3"


def test_duplicate_key_is_an_error(tmp_path, raw):
    text = json.dumps(raw).replace('"guilders": ', '"guilders": 1, "guilders": ', 1)
    path = tmp_path / "box.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CatalogueError, match=r"^box\.json: printing\[0\]: key 'guilders' "
                                             r"is given twice$"):
        load_catalogue(path)


def test_not_utf8(tmp_path):
    path = tmp_path / "box.json"
    path.write_bytes(b'{"printing": "\xff"}')
    with pytest.raises(CatalogueError, match=r"^box\.json: byte 14: not UTF-8 text$"):
        load_catalogue(path)


def test_missing_file(tmp_path):
    with pytest.raises(CatalogueError, match=r"^nothing\.json: cannot read .*nothing\.json"):
        load_catalogue(tmp_path / "nothing.json")


def test_top_level_not_an_object(tmp_path):
    with pytest.raises(CatalogueError,
                       match=r"^box\.json: top level: must be an object \{\.\.\.\}, got a list$"):
        load_catalogue(write(tmp_path, []))


def test_error_parts_and_no_half_load(tmp_path, raw):
    data = copy.deepcopy(raw)
    data["gears"][4]["sectors"][1] = {"reward": "gain_ink", "inks": ["red", "gold"]}
    with pytest.raises(CatalogueError) as info:
        load_catalogue(write(tmp_path, data))
    error = info.value
    assert isinstance(error, ValueError)
    assert (error.source, error.where) == ("box.json", "gears[4].sectors[1]")
    assert error.reason == "gain_ink indicates exactly one ink, got 2"
    assert error.path == str(tmp_path / "box.json")
    # a failed load leaves the built-in catalogue untouched
    assert default_catalogue() == load_catalogue()
