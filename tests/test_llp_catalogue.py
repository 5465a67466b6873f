"""The Lead Letter Printers catalogue: the built-in file loads and honours the rulebook's
counts, lists and worked examples; a bad file is refused with every problem named at
once, in plain one-line messages; a replacement file is a game parameter."""
import json

import pytest

from gutenberg_ai.games.lead_letter_printers import (CatalogueError, default_catalogue, load_catalogue,
                                                     make_rules, names)
from gutenberg_ai.games.lead_letter_printers.catalogue import parse_catalogue


def data():
    return default_catalogue().data


def problems(d):
    with pytest.raises(CatalogueError) as e:
        parse_catalogue(d, "my.json")
    return e.value.problems


def test_builtin_counts():
    d = data()
    assert [len(d[k]) for k in ("lead_letters", "technologies", "factories", "trading_tiles", "orders",
                                "contracts", "city_discs", "shops")] == [54, 48, 36, 36, 36, 24, 24, 16]
    # The shops of each player count: 3x3, 4x3, 4x4 ("keep the 2+ and 3+ shop tiles").
    assert [sum(len(r) for r in d["city_board"][k]) for k in "234"] == [9, 12, 16]
    # Every factory ability and contract scoring of the rulebook's lists is in the box.
    assert {f["ability"] for f in d["factories"]} == set(names.FACTORY_ABILITIES)
    assert {c["scores"] for c in d["contracts"]} == set(names.CONTRACT_KINDS)
    assert {e["do"] for t in d["technologies"] for e in t["action"]} >= set(names.GREEN_EFFECTS)
    # Orders: enough of level I for a 2-player game (5 removed, 5 laid out).
    assert sum(o["level"] == "I" for o in d["orders"]) >= 10


def test_rulebook_examples_are_in_the_builtin():
    d = data()
    assert {"letters": "AD", "resources": {"paper": 1}} in [{k: x[k] for k in ("letters", "resources")}
                                                             for x in d["lead_letters"]]
    assert d["tracks"]["director"][0]["reward"] == [{"do": "paper"}]
    assert d["tracks"]["capacity"][:3] == [[{"do": "marks"}], [{"do": "marks"}], [{"do": "points"}]]
    assert d["technology_market"]["column_money"][2] == 3 and {"lead": 1} in d["technology_market"]["row_costs"]
    assert d["tracks"]["assistant_at"] == [3, 6]


def test_core_struct_shapes():
    core = default_catalogue().to_core()
    assert len(core["letters"]) == 54 and len(core["spaces"]) == 15 and len(core["stick"]) == 9
    assert core["n_nodes"] <= 64 and core["city_kind"][core["mainz"]] == 0
    # Every road's coin spaces join its two cities.
    for node in range(core["n_cities"], core["n_nodes"]):
        assert 1 <= core["degree"][node] <= 2


def test_every_problem_at_once():
    d = data()
    d["lead_letters"] = d["lead_letters"][:53]
    d["technologies"][3]["number"] = 99
    d["shops"][0]["rooms"][0][0]["do"] = "teleport"
    d["travel_map"]["roads"][0]["to"] = "Atlantis"
    d["extra"] = 1
    found = problems(d)
    wheres = [w for w, _ in found]
    assert "lead_letters" in wheres and "technologies[3].number" in wheres
    assert "shops[0].rooms[0][0].do" in wheres and "top level" in wheres
    text = str(CatalogueError.of("my.json", found))
    assert all(line.startswith("my.json: ") for line in text.splitlines())


@pytest.mark.parametrize("change, where", [
    (lambda d: d["city_board"]["2"].pop(), "city_board['2']"),
    (lambda d: d["city_board"]["2"].__setitem__(0, [1, 3, 10]), "city_board.2"),
    (lambda d: d["travel_map"]["roads"].__setitem__(0, {"from": "Mainz", "to": "Atlantis", "coins": 1}),
     "travel_map.roads[0].to"),
    (lambda d: d["travel_map"]["cities"][0].__setitem__("kind", "grey"), "travel_map.cities"),
    (lambda d: d["workshop"][4]["left"].append("3t"), "workshop[4].left"),
    (lambda d: d["orders"].__setitem__(0, dict(d["orders"][0], level="IV")), "orders[1].level"),
    (lambda d: d["technologies"][0]["action"].__setitem__(0, {"do": "points_letter"}), "technologies[0].action[0]"),
    (lambda d: d["shops"][0]["rooms"][0].__setitem__(0, {"do": "points_workforce"}), "shops[0].rooms[0][0]"),
    (lambda d: d["factories"][0].pop("stage"), "factories[0]"),
    (lambda d: d["contracts"][1].pop("signboard"), "contracts[1]"),
    (lambda d: d["tracks"].__setitem__("assistant_at", [2, 6]), "tracks.assistant_at"),
    (lambda d: d["trading_tiles"][0].__setitem__("give", {"points": 1}), "trading_tiles[0]"),
    (lambda d: d["lead_letters"][0].__setitem__("letters", "BA"), "lead_letters[0].letters"),
    (lambda d: d["tracks"]["director"][0].__setitem__("reward", [{"do": "lead"}]), "tracks.director[0]"),
    (lambda d: d["contract_slots"][0].__setitem__("formation", [[0, 1], [1, 1]]), "contract_slots[0].formation"),
])
def test_each_check(change, where):
    d = data()
    change(d)
    assert where in [w for w, _ in problems(d)]


def test_a_replacement_file_is_a_parameter(tmp_path):
    d = data()
    d["order_prices"] = [2, 3, 4, 5, 6]
    path = tmp_path / "box.json"
    path.write_text(json.dumps(d), encoding="utf-8")
    assert load_catalogue(path).data["order_prices"] == [2, 3, 4, 5, 6]
    R = make_rules({"players": 2, "catalogue": str(path)})
    assert R.core_catalogue["order_price"] == [2, 3, 4, 5, 6]


def test_the_core_knows_each_signboard_colours_orders_and_discs(tmp_path):
    # The core counts a player's signboards through bit masks derived from the orders and
    # discs at load: a replacement file's signboards are the ones counted.
    d = data()
    d["orders"][0]["signboard"] = "blue"
    d["city_discs"][1]["signboard"] = "red"
    path = tmp_path / "box.json"
    path.write_text(json.dumps(d), encoding="utf-8")
    core = make_rules({"players": 2, "catalogue": str(path)}).core_catalogue
    assert core["orders"][0]["sign"] == 2 and core["discs"][1]["sign"] == 1
    for c in range(3):
        assert core["sign_orders"][c] == sum(1 << i for i, o in enumerate(core["orders"]) if o["sign"] == c)
        assert core["sign_discs"][c] == sum(1 << i for i, x in enumerate(core["discs"]) if x["sign"] == c)


def test_hostile_files(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{"tracks": 1, "tracks": 2}')
    with pytest.raises(CatalogueError) as e:
        load_catalogue(bad)
    assert "bad.json" in str(e.value)
    bad.write_bytes(b"\xff\xfe not text")
    with pytest.raises(CatalogueError):
        load_catalogue(bad)
    d = data()
    d["shops"][0]["name"] = "\x1b[31mred" + "x" * 10
    d["travel_map"]["cities"][3]["name"] = "Nur\u202emberg"
    found = problems(d)
    assert [w for w, _ in found] == ["shops[0].name", "travel_map.cities[3].name"]
    assert all("\x1b" not in reason and "\u202e" not in reason for _, reason in found)
