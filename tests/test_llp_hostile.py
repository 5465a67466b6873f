"""Lead Letter Printers position files (both forms: the table, the moves) as an untrusted
input: the shipped examples and tables written from seeded random games, mutated by a
seeded fuzzer (keys deleted, values of the wrong type, huge, negative, lists of the wrong
length, unicode, names of components, shops and cities out of place, the player count
changed), are each loaded or refused with a PositionError naming the place: never
another exception. Bounded by a count of mutants, not by time."""
import copy
import json
import random

import pytest

from gutenberg_ai.games.lead_letter_printers import _core, position, table
from gutenberg_ai.games.lead_letter_printers.catalogue import default_catalogue
from gutenberg_ai.games.positionfile import PositionError
from json_places import at, places

CAT = default_catalogue()
SHIPPED = [position.__file__.rsplit("/", 1)[0] + f"/data/positions/{name}"
           for name in ("table-3p.json", "round2-3p.json", "cfr-mini.json")]
MUTANTS = 600

VALUES = [None, True, False, 0, 1, 2, 3, 4, 5, 6, 9, 12, 16, 20, 36, 48, 54, 100, -1, -7, 10 ** 30, 2 ** 63,
          -2 ** 63, 1.5, 1e300, "", "x", "é" * 3, "\u202e", "😀", "\x00", "\x1b[31m", "A", "II", "I", "IV",
          "7", "hidden", "taken", "used", "fresh", "actions", "orders", "production", "final",
          "Mainz", "Cologne", "coin 1 of Mainz-Cologne", "Paper mill", "Ink works", "Brewery",
          "order 1", "order 30", "contract 5", "technology 12", "technology 40", "factory 3", "factory 30",
          "lead letter 3", "city disc 3", "trading tile 2", "III 3 marks",
          [], {}, [None], [1], {"a": 1}, {"section": 3, "slot": 3}, {"down": "factory 2"},
          {"contract": "contract 4", "slot": 2}, {"order": "order 7", "signboard": "fresh"},
          {"disc": "city disc 3", "used": True},
          {"owner": 1, "kind": "paper", "between": ["Paper mill", "Guild hall"], "from_workforce": 6}]


def seeds() -> list:
    out = []
    for path in SHIPPED:
        with open(path) as f:
            out.append(json.load(f))
    for players, seed in ((2, 1), (4, 10)):      # tables of 2 and 4 players, mid-game
        rng = random.Random(seed)
        st = _core.Rules(CAT, players=players).new_state()
        taken = 0
        while not st.is_terminal() and taken < 2:
            if st.is_chance():
                st.apply(rng.choice(st.chance_outcomes())[0])
                continue
            if table.unsupported(st) is None and rng.random() < 0.03:
                out.append(json.loads(json.dumps(table.table_of(st, viewer=st.current_player()))))
                taken += 1
            st.apply(rng.choice(st.legal_actions()))
    return out


def mutate(data, rng):
    """One change at a random place of the file."""
    where = rng.choice([w for w in places(data) if w])
    parent = at(data, where[:-1])
    k, v, r = where[-1], parent[where[-1]], rng.random()
    if r < 0.2 and isinstance(parent, dict):
        del parent[k]
    elif r < 0.3 and isinstance(parent, list):
        parent.pop(k)
    elif r < 0.4 and isinstance(v, list):
        v.extend(copy.deepcopy(v[:rng.randint(1, 3)]) if v else [rng.choice(VALUES)])
    elif r < 0.5 and isinstance(v, (int, float)) and not isinstance(v, bool):
        parent[k] = rng.choice([v + 1, v - 1, -v, v * 1000, -1, 0, 10 ** 12])
    else:
        parent[k] = copy.deepcopy(rng.choice(VALUES))


def test_mutated_positions_load_or_are_refused_with_their_place():
    rng = random.Random(20261127)
    files = seeds()
    refused = 0
    for i in range(MUTANTS):
        data = copy.deepcopy(files[i % len(files)])
        if rng.random() < 0.1:
            data["players"] = rng.choice([2, 3, 4])          # the player count, the seats as they were
        for _ in range(rng.randint(1, 3)):
            mutate(data, rng)
        try:
            position.position_from_data(data, CAT, source="fuzz.json")
        except PositionError as e:
            refused += 1
            text = str(e)
            assert e.problems and all(line.startswith("fuzz.json: ") for line in text.split("\n")), text
            assert "Traceback" not in text and "\x1b" not in text
        except Exception as e:                  # noqa: BLE001 -- the fuzz's point: nothing else escapes
            pytest.fail(f"mutant {i}: {type(e).__name__}: {e}\n{json.dumps(data)[:2000]}")
    assert refused > MUTANTS // 2


@pytest.mark.parametrize("edit", [lambda d: d.update(players=4), lambda d: d["seats"].pop()])
def test_the_web_page_refuses_a_table_of_the_wrong_seat_count_with_its_field(edit):
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
    from web_client import page_client
    from gutenberg_ai.interfaces.web.app import create_app
    from gutenberg_ai.interfaces.web.sessions import Limits
    with open(SHIPPED[0]) as f:
        data = json.load(f)
    edit(data)
    with page_client(create_app(Limits(workers=1, max_games=2, max_records=2))) as client:
        r = client.post("/api/positions/check", json={"text": json.dumps(data), "name": "mine.json"})
    assert r.status_code == 422, r.text
    assert "seats" in {p["where"] for p in r.json()["problems"]}
