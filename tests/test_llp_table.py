"""Lead Letter Printers positions written as the table stands (form "table",
docs/lead_letter_printers/positions.md): a mid-game state saved and loaded back has the
same legal moves and the same observation for the player to act (also when the file
is that player's view, with the others' factories "hidden"); the shipped example and a
table written by hand from it give a hint; a hostile file is refused with every problem
and its place, nothing else."""
import copy
import json
import random

import numpy as np
import pytest

import gutenberg_ai
from gutenberg_ai.games.lead_letter_printers import _core, position, table
from gutenberg_ai.games.lead_letter_printers.cards import find_cards
from gutenberg_ai.games.lead_letter_printers.catalogue import default_catalogue
from gutenberg_ai.games import core_of
from gutenberg_ai.common.jsonfile import Problem
from gutenberg_ai.games.positionfile import PositionError

CAT = default_catalogue()
EXAMPLE = position.__file__.rsplit("/", 1)[0] + "/data/positions/table-3p.json"


def obs(st, q):
    out = np.zeros(_core.OBSERVATION_SIZE, dtype=np.float32)
    st.write_observation(q, out)
    return out


def table_states(players, seed, every=0.15):
    """States of a random game at the decisions the table form writes."""
    rng = random.Random(seed)
    st = _core.Rules(CAT, players=players).new_state()
    while not st.is_terminal():
        if st.is_chance():
            st.apply(rng.choice(st.chance_outcomes())[0])
            continue
        if table.unsupported(st) is None and rng.random() < every:
            yield st.clone()
        st.apply(rng.choice(st.legal_actions()))


# 4 players, seed 11: a game that puts factories back (seed 10 did, with the piles face down).
@pytest.mark.parametrize("players,seed", [(2, 1), (3, 5), (4, 11)])
def test_a_saved_table_loads_to_the_same_decision_and_observation(players, seed):
    checked, phases, hidden = 0, set(), 0
    for st in table_states(players, seed):
        q = st.current_player()
        for viewer in (None, q):
            data = json.loads(json.dumps(table.table_of(st, viewer=viewer)))   # through JSON, as a file
            pos = position.position_from_data(data, CAT)
            assert pos.form == "table" and pos.current_player == q
            assert pos.state.legal_actions() == st.legal_actions()
            assert (obs(pos.state, q) == obs(st, q)).all()
            assert pos.state.observation_string(q) == st.observation_string(q)
            hidden += pos.hidden
            if viewer is None:
                assert pos.hidden == 0
        phases.add(data["phase"])
        checked += 1
    assert checked >= 5 and {"actions", "production"} <= phases
    if players == 4:
        assert hidden > 0          # this game puts factories back: the "hidden" path is exercised


def test_the_moves_form_still_loads_and_says_its_form():
    with open(EXAMPLE.replace("table-3p", "round2-3p")) as f:
        data = json.load(f)
    pos = position.position_from_data(data, CAT)
    assert pos.form == "moves" and pos.moves
    assert position.position_from_data(dict(data, form="moves"), CAT).state == pos.state


def test_the_shipped_table_gives_a_hint():
    pos = position.load_position(EXAMPLE)
    assert pos.form == "table" and pos.current_player == 0 and pos.hidden == 2
    hints = gutenberg_ai.hint(pos.state, iterations=60, seed=3)
    legal = set(pos.state.legal_actions())
    assert hints and all(h.action in legal for h in hints)


def test_a_table_written_by_hand_gives_a_hint():
    with open(EXAMPLE) as f:
        data = json.load(f)
    hand = copy.deepcopy(data)
    anna = hand["seats"][0]
    anna["marks"] += 4
    anna["ink"] -= 1                               # back to the supply
    tech = hand["displays"]["technologies"]["I"]
    tech[0] = int(tech[0].split()[-1])              # by its printed number
    tiles = hand["displays"]["trading_tiles"]
    tiles[1] = CAT.describe_tile(int(tiles[1].split()[-1]) - 1).split(" (")[0]     # "trading tile 17"
    del anna["city_markers_left"]                   # derived when not given
    for seat in hand["seats"]:
        for t in seat["tradesmen"]:
            t.pop("arrived", None)                  # the order of arrival: the seats' order
    pos = position.position_from_data(hand, CAT)
    before = position.position_from_data(data, CAT)
    s, b = pos.state.to_dict(), before.state.to_dict()
    assert s["players"][0]["marks"] == b["players"][0]["marks"] + 4
    assert s["bank"] == b["bank"] - 4 and s["supply"][2] == b["supply"][2] + 1
    assert s["tech_face"] == b["tech_face"] and s["face_tiles"] == b["face_tiles"]
    hints = gutenberg_ai.hint(pos.state, iterations=40, seed=1)
    assert hints and all(h.action in pos.state.legal_actions() for h in hints)


def test_hidden_factories_are_drawn_with_the_files_seed():
    with open(EXAMPLE) as f:
        data = json.load(f)
    a = position.position_from_data(dict(data, seed=1), CAT).state.to_dict()["factory_bottom"]
    again = position.position_from_data(dict(data, seed=1), CAT).state.to_dict()["factory_bottom"]
    others = {str(position.position_from_data(dict(data, seed=s), CAT).state.to_dict()["factory_bottom"])
              for s in range(2, 12)}
    assert a == again and len(others | {str(a)}) > 1
    level = [x for x in a[2] if x >= 0]          # the file's two hidden factories are of level III
    assert len(level) == 2 and all(CAT.data["factories"][x]["level"] == "III" for x in level)
    start, _, note = position.position_start(data, position.position_from_data(data, CAT), seed=7)
    assert start["seed"] == 7 and "seed 7" in note


def problems_of(data):
    with pytest.raises(PositionError) as e:
        position.position_from_data(data, CAT)
    return e.value.problems, str(e.value)


def test_a_hostile_table_is_refused_with_every_problem_and_its_place():
    with open(EXAMPLE) as f:
        data = json.load(f)
    bad = copy.deepcopy(data)
    bad["displays"]["technologies"]["I"][0] = 99                                # no such technology
    bad["displays"]["technologies"]["II"][1] = "technology 12"                  # of level I, and twice
    bad["displays"]["orders"][0] = "x" * 500                                    # too long
    bad["displays"]["letter_pile_top"] = "ZZ"
    bad["seats"][1]["tradesmen"][0]["shop"] = "Brewery\u001b[31m"
    bad["seats"][2]["agent"] = "Atlantis"
    bad["city_discs"]["Mainz"] = "city disc 3"
    problems, text = problems_of(bad)
    places = [w for w, _ in problems]
    assert "displays.orders[0]" in places and "displays.letter_pile_top" in places
    # A name of the maps that is none is told with the schema's problems, not after them.
    assert "Atlantis" in dict(problems)["seats[2].agent"]
    assert "\x1b" not in text and "Traceback" not in text
    assert all(len(r) < 400 for _, r in problems)
    # Past the schema: the places of the components, the shops, the cities.
    bad = copy.deepcopy(data)
    bad["displays"]["technologies"]["I"][0] = 99
    bad["displays"]["technologies"]["II"][1] = "technology 12"
    bad["seats"][1]["tradesmen"][0]["shop"] = "Brewery"
    bad["seats"][2]["agent"] = "Atlantis"
    bad["city_discs"]["Mainz"] = "city disc 3"
    problems, text = problems_of(bad)
    found = dict(problems)
    assert "99 is not a technology (1-48)" in found["displays.technologies.I[0]"]
    assert "of level I" in found["displays.technologies.II[1]"]
    assert "not a shop of the 3-player city board" in found["seats[1].tradesmen[0].shop"]
    assert "Atlantis" in found["seats[2].agent"]
    assert "not a grey city" in found["city_discs.Mainz"]
    # With the schema's problems: a seat's agent, shop and city, each where it is.
    bad = copy.deepcopy(data)
    bad["to_act"] = 9                                                           # schema: no such seat
    bad["seats"][0]["agent"] = "Atlantis"
    bad["seats"][1]["tradesmen"][0]["shop"] = "Bakery"
    bad["seats"][1]["cities"] = ["Mainz", "Babylon"]
    problems, _ = problems_of(bad)
    assert [w for w, _ in problems] == ["to_act", "seats[0].agent", "seats[1].tradesmen[0].shop",
                                        "seats[1].cities[1]"], problems


def test_a_table_the_rules_cannot_reach_is_refused():
    with open(EXAMPLE) as f:
        data = json.load(f)
    cases = [
        (dict(data, to_act=3), "to_act", "3 is not a seat of 3 players"),
        (dict(data, player_order=[0, 0, 1]), "player_order", "is not an order"),
    ]
    for bad, where, words in cases:
        problems, _ = problems_of(bad)
        assert any(w == where and words in r for w, r in problems), problems
    rich = copy.deepcopy(data)
    rich["seats"][0]["paper"] = 20
    rich["seats"][2]["paper"] = 20
    problems, _ = problems_of(rich)
    assert any("paper held; the game has 20" in r for _, r in problems)
    twice = copy.deepcopy(data)
    twice["seats"][0].setdefault("contracts", []).append({"contract": twice["displays"]["contracts"][0]})
    problems, _ = problems_of(twice)
    assert any("is also at displays.contracts[0]" in r for _, r in problems)
    locked = copy.deepcopy(data)
    locked["seats"][0]["contracts"] = [{"contract": "contract 3", "slot": 4}]
    problems, _ = problems_of(locked)
    assert any(w == "seats[0].contracts[0].slot" and "locked" in r for w, r in problems)
    with_moves = dict(data, moves=[1, 2])
    problems, _ = problems_of(with_moves)
    assert any("a table has no moves" in r for _, r in problems)
    moves_with_table = {"format": data["format"], "players": 3, "moves": [], "displays": {}}
    problems, _ = problems_of(moves_with_table)
    assert problems[0][0] == "displays" and "table form" in problems[0][1]


def test_a_component_by_its_words():
    kind, x = table.component(CAT, "technology 12", ("technology",), "here")
    assert (kind, x) == ("technology", 11)
    # What a component shows, as `gutenberg-ai cards` finds it: one that only it shows.
    for x in range(CAT.count("order")):
        words = CAT.describe_order(x).split("(", 1)[1].rstrip(")")
        if len(find_cards(words, "order", CAT)) == 1:
            assert table.component(CAT, words, ("order",), "here") == ("order", x)
            break
    else:
        pytest.fail("no order shows words of its own")
    with pytest.raises(Problem) as e:
        table.component(CAT, "I", ("order",), "w")
    assert "fits" in e.value.reason and "give its number" in e.value.reason
    with pytest.raises(Problem) as e:
        table.component(CAT, 7, ("technology", "factory"), "w")
    assert "technology 7" in str(e.value.reason) and "factory 7" in str(e.value.reason)


def test_hint_and_play_from_the_shipped_table():
    from test_llp_cli import cli
    out = cli("hint", EXAMPLE, "--iterations", "40", "--seed", "2")
    assert out.returncode == 0, out.stderr
    assert "Anna (player 0) to decide" in out.stdout and "hides 2 factories" in out.stdout
    out = cli("hint", EXAMPLE, "--iterations", "40", "--seed", "2", "--json")
    assert json.loads(out.stdout)["note"].startswith("The position hides 2 factories: drawn at random (seed 0)")
    out = cli("play", "--position", EXAMPLE, "--ai", "heuristic", "--seed", "4", stdin="quit\n")
    assert out.returncode == 0, out.stderr
    assert "drawn at random (seed 4)" in out.stdout and "Round 3, Action phase" in out.stdout


def test_the_game_parameter_starts_at_a_table_and_saving_it_writes_the_table(tmp_path):
    import pyspiel
    game = pyspiel.load_game("lead_letter_printers", {"position": EXAMPLE})
    state = game.new_initial_state()
    pos = position.load_position(EXAMPLE)
    assert state.current_player() == 0 and sorted(state.legal_actions()) == pos.state.legal_actions()
    saved = position.save_position(state, tmp_path / "again.json", viewer=0)
    assert saved["form"] == "table" and position.load_position(tmp_path / "again.json").state.legal_actions() \
        == pos.state.legal_actions()
    state.apply_action(state.legal_actions()[0])
    # The file gives no factory pile's top: they come into view at the next chance node.
    assert state.is_chance_node() and all(a >= _core.CHANCE_OUTCOMES["FACTORY_TOP"] for a, _ in state.chance_outcomes())
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert core_of(state).current_player() >= 0
    with pytest.raises(PositionError, match="started from a table"):
        position.position_of(state, form="moves")


def test_a_player_the_rules_would_pass_over_is_not_asked():
    st = next(x for x in table_states(2, 1, every=1.0) if x.to_dict()["phase"] == _core.PHASES["PRODUCTION"])
    data = table.table_of(st)
    assert position.position_from_data(data, CAT).state.legal_actions() == st.legal_actions()
    problems, _ = problems_of(dict(data, stages_left=0))
    assert problems == [("to_act", f"seats[{data['to_act']}] has no order they can advance now: "
                                   "the rules go on without asking")]


@pytest.mark.parametrize("edit, words", [
    (lambda d: d.update(players=4), "3 players described, \"players\" says 4"),
    (lambda d: d.update(players=2), "3 players described, \"players\" says 2"),
    (lambda d: d["seats"].pop(), "2 players described, \"players\" says 3"),
])
def test_a_table_whose_seats_do_not_match_its_players_names_the_field(edit, words):
    with open(EXAMPLE) as f:
        data = json.load(f)
    edit(data)
    problems, text = problems_of(data)
    assert ("seats", words) in problems, problems
    assert "Traceback" not in text


def test_every_independent_problem_of_a_table_is_reported_at_once():
    """Two unknown shops of one player, both ends of an assistant's street, and the
    decision's own fields: each is named in the same error."""
    with open(EXAMPLE) as f:
        data = json.load(f)
    data["seats"][0]["tradesmen"][0]["shop"] = "Brewery"
    data["seats"][0]["tradesmen"][1]["shop"] = "Tannery"
    data["assistants"][0]["between"] = ["Smithy", "Bakery"]
    data["seats"].pop()
    data["player_order"] = [0, 0, 1]
    data["to_act"] = 3
    problems, _ = problems_of(data)
    places = [w for w, _ in problems]
    for where in ("seats[0].tradesmen[0].shop", "seats[0].tradesmen[1].shop", "assistants[0].between[0]",
                  "assistants[0].between[1]", "seats", "player_order", "to_act"):
        assert where in places, (where, problems)


@pytest.mark.parametrize("edit", [lambda d: d.update(players=4), lambda d: d["seats"].pop()])
def test_every_tool_names_the_seat_count_of_a_records_table(tmp_path, edit):
    """A record that starts from a table whose seats are not as many as its players:
    replay, review, play --resume and hint (the table itself) say so, no traceback."""
    from test_llp_cli import cli
    record = tmp_path / "game.json"
    out = cli("play", "--position", EXAMPLE, "--ai", "random", "--seed", "1",
              stdin=f"save --full {record}\nquit\n")
    assert out.returncode == 0 and record.exists(), out.stderr
    data = json.loads(record.read_text())
    edit(data["position"])
    record.write_text(json.dumps(data))
    bad_table = tmp_path / "table.json"
    bad_table.write_text(json.dumps(data["position"]))
    for args in (("replay", record), ("review", record), ("play", "--resume", record), ("hint", bad_table)):
        out = cli(*map(str, args), stdin="quit\n")
        assert out.returncode != 0, args
        assert "seats: " in out.stderr and "players\" says" in out.stderr, (args, out.stderr)
        assert "Traceback" not in out.stderr + out.stdout


def test_what_follows_from_the_parts_is_checked_whole_too():
    """Past the parts: the resources held, a player's city markers and the letters on
    the pile's top are each reported in one error."""
    with open(EXAMPLE) as f:
        data = json.load(f)
    data["seats"][0]["paper"] = 20
    data["seats"][2]["paper"] = 20
    data["seats"][0]["city_markers_left"] = 3
    data["displays"]["letter_pile_top"] = None
    problems, _ = problems_of(data)
    places = {w for w, _ in problems}
    assert {"seats", "seats[0].city_markers_left", "displays.letter_pile_top"} <= places, problems
