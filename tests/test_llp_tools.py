"""Lead Letter Printers in the tools: its position files (the shipped example, positions of
many decisions read back by number and by words, what a player saves, hostile files;
files of another game: tests/test_games_tools.py), the game's `position` parameter, its
table in a 100x40 terminal, and its cards lookup."""
import io
import json
import pathlib
import random
import re

import pyspiel
import pytest
from rich.console import Console

import gutenberg_ai
from gutenberg_ai import games
from gutenberg_ai.games.lead_letter_printers import cards, view
from gutenberg_ai.games.lead_letter_printers import position as P
from gutenberg_ai.games.positionfile import PositionError, load_position
from every_game import decision_screen, play_random, random_step

LLP = games.get("lead-letter-printers")
POSITIONS = pathlib.Path(P.__file__).parent / "data" / "positions"
EXAMPLE = POSITIONS / "round2-3p.json"


def random_game(players, seed, stop=None, rounds=0):
    """A seeded random pyspiel game of Lead Letter Printers, up to a decision where
    stop(state) holds, or its end."""
    return play_random(LLP.load(players=players, rounds=rounds).new_initial_state(), random.Random(seed),
                       stop=lambda s: stop is not None and not s.is_chance_node() and stop(s))


# -- position files -----------------------------------------------------------------------------
def test_the_shipped_position_loads_at_its_decision():
    game, pos = load_position(EXAMPLE)
    assert game.key == "lead-letter-printers"
    assert pos.game_params == {"players": 3, "rounds": 0, "factory_tops": False} and pos.names == ("Anna", "Kate", "John")
    assert pos.state.round == 2 and pos.step["player"] == pos.current_player >= 0
    assert pos.state.legal_actions() and pos.state.problems() == []
    words = [e for e in json.loads(EXAMPLE.read_text())["moves"] if isinstance(e, str)]
    assert len(words) >= 15        # the decisions in the game's words


@pytest.mark.parametrize("players, seed", [(2, 1), (3, 2), (4, 3)])
def test_positions_of_decisions_read_back_by_number_and_by_words(players, seed):
    checked = 0
    for cut in (30, 90, 200):
        state = random_game(players, seed, stop=lambda s: len(s.history()) >= cut)
        if state.is_terminal():
            continue
        data = json.loads(json.dumps(P.position_of(state, ["A", "B"], form="moves")))
        pos = P.load_position(data)
        assert pos.state == gutenberg_ai.core_of(state) and pos.names[:2] == ("A", "B")
        # the same moves in words
        replay = LLP.load(players=players).new_initial_state()
        worded = []
        for a in state.history():
            worded.append(replay.action_to_string(replay.current_player(), a))
            replay.apply_action(a)
        assert P.load_position(dict(data, moves=worded)).state == pos.state
        checked += 1
    assert checked >= 2


def test_what_a_player_saves_keeps_what_they_saw_and_no_more(tmp_path):
    def hidden(s):
        d = gutenberg_ai.core_of(s).to_dict()
        return any(not (d["factory_bottom_seen"][lv][i] & 1) for lv in range(4) for i in range(d["factory_bottom_n"][lv]))
    for seed in range(300):
        state = random_game(2, seed, stop=hidden)
        if not state.is_terminal():
            break
    else:
        pytest.fail("no random game put factories back unseen by player 0")
    truth = gutenberg_ai.core_of(state)
    seen = set()
    for k in range(12):
        data = P.position_of(state, viewer=0, seed=k, form="moves")
        assert data["seen_by"] == 0
        pos = P.load_position(data)
        assert pos.state.observation_string(0) == truth.observation_string(0)
        seen.add(pos.state == truth)
    assert False in seen, "the saved positions always held the true factories"
    # playing from it deals them again with the seed
    pos = P.load_position(P.position_of(state, viewer=0, seed=1, form="moves"))
    dealt = {json.dumps(P.position_start(pos.data, pos, seed)[0]["moves"]) for seed in range(8)}
    assert len(dealt) > 1


def test_the_game_starts_from_a_position_and_remembers_its_moves(tmp_path):
    state = random_game(3, 7, stop=lambda s: len(s.history()) >= 60)
    path = tmp_path / "pos.json"
    P.save_position(state, path, form="moves")
    game = pyspiel.load_game("lead_letter_printers", {"position": str(path)})
    start = game.new_initial_state()
    assert game.num_players() == 3 and gutenberg_ai.core_of(start) == gutenberg_ai.core_of(state)
    start.apply_action(start.legal_actions()[0])
    assert P.moves_of(start) == state.history() + [start.history()[0]]
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def _file(tmp_path, data, name="pos.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize("edit, where, reason", [
    ({"players": 5}, "players", "out of range (2-4)"),
    ({"moves": [0, "x" * 400]}, "moves[1]", ""),
    ({"names": ["\x1b[31mred"]}, "names[0]", "control"),
    ({"colour": "red"}, "", "colour"),
    ({"moves": [999999]}, "moves[0]", "out of range"),
    ({"moves": ["tradesman 9 to the moon"]}, "moves[0]", "is not a move here"),
    ({"moves": []}, "moves", "end at a draw"),
    ({"seen_by": 3}, "seen_by", "not a seat"),
])
def test_a_bad_position_names_the_place_and_the_reason(tmp_path, edit, where, reason):
    data = {"format": "lead-letter-printers-position", "players": 2, "moves": [], **edit}
    with pytest.raises(PositionError) as info:
        load_position(_file(tmp_path, data))
    text = str(info.value)
    assert f": {where}" in text or where == "", text
    assert reason in text and "\x1b" not in text


def test_every_schema_problem_at_once(tmp_path):
    data = {"format": "lead-letter-printers-position", "players": "two", "rounds": -1, "moves": [1.5, True]}
    with pytest.raises(PositionError) as info:
        load_position(_file(tmp_path, data))
    wheres = {w for w, _ in info.value.problems}
    assert {"players", "rounds", "moves[0]", "moves[1]"} <= wheres, info.value.problems


def test_a_move_that_is_none_comes_with_the_schemas_problems_of_later_moves(tmp_path):
    """The moves are replayed up to the first the schema refused: a move there that is
    not legal is told with the schema's problems; one after it is not (it would follow
    from another game)."""
    with open(P.__file__.rsplit("/", 1)[0] + "/data/positions/round2-3p.json") as f:
        data = json.load(f)
    n = len(data["moves"])
    data["moves"] += ["nosuch move", -1, "another"]
    with pytest.raises(PositionError) as info:
        load_position(_file(tmp_path, data))
    assert [w for w, _ in info.value.problems] == [f"moves[{n + 1}]", f"moves[{n}]"], info.value.problems
    assert "is not a move here" in info.value.problems[1][1]
    data["players"] = 5                      # the game itself refused: nothing is replayed
    with pytest.raises(PositionError) as info:
        load_position(_file(tmp_path, data))
    assert [w for w, _ in info.value.problems] == ["players", f"moves[{n + 1}]"], info.value.problems


# -- the table in a 100x40 terminal --------------------------------------------------------------
LONG_NAMES = ["Annabelle Longname-Featherstonehaugh, Mainz", "Bartholomew of the Printers' Guild", "Kate",
              "Lena"]                            # up to the 40 characters a position's names may have


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_decision_fits_a_100_by_40_terminal_with_the_board_and_the_displays(players):
    state = LLP.load(players=players).new_initial_state()
    rng = random.Random(players)
    screens = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(random_step(state, rng))
            continue
        core = gutenberg_ai.core_of(state)
        seat = state.current_player()
        if len(state.legal_actions()) > 1 and rng.random() < 0.3:
            shown = decision_screen(core, seat, LONG_NAMES if screens % 2 else None)
            screens += 1
            assert "Orders" in shown and f"player {seat}" in shown, shown
            # no label cut short (a label starts a line; the details' lines go on indented)
            assert "productio " not in shown and not re.search(r"(?m)^ {0,3}composing ", shown), shown
        state.apply_action(rng.choice(state.legal_actions()))
    assert screens > 20


def test_the_compact_displays_say_what_each_component_is_and_names_are_whole():
    """The displays at the compact levels show each card and tile in the game's words,
    not by number alone; a long seat name is shown whole."""
    state = random_game(4, 5, stop=lambda s: gutenberg_ai.core_of(s).round >= 3)
    core = gutenberg_ai.core_of(state)
    d = core.to_dict()
    cat = core.rules.catalogue
    out = io.StringIO()
    Console(file=out, width=100, highlight=False).print(view.decision_view(core, 0, LONG_NAMES, 100, compact=4))
    shown = " ".join(line[12:].strip() for line in out.getvalue().split("\n"))    # the rows' texts run on
    tiles = [x for x in d["face_tiles"] if x >= 0]
    assert tiles and all(view._brief(cat.describe_tile(x)) in shown for x in tiles), shown
    for x in tiles:        # e.g. "7 1 paper>2 marks x2"
        assert ">" in view._brief(cat.describe_tile(x))
    techs = [x for row in d["tech_face"] for x in row if x >= 0]
    assert all(view._brief(cat.describe_tech(x)) in shown for x in techs), shown
    assert view._brief(cat.describe_tech(10)) == "11 1 capacity with its reward"
    orders = [x for x in d["order_display"] if x >= 0]
    assert all(view._brief(cat.describe_order(x)) in shown for x in orders), shown
    assert view._brief(cat.describe_order(13)) == "14 3 points, blue"
    assert all(view._brief(cat.describe_contract(x)) in shown for x in d["contract_display"] if x >= 0)
    assert view._brief(cat.describe_contract(19)) == "20 1 per assistant"
    assert "Cologne " in shown and view._brief(cat.describe_disc(22)) == "23 E, red: 2 steps"
    for name in LONG_NAMES:
        assert name in out.getvalue(), name


def test_the_city_board_shows_each_tradesman_in_its_shop_and_room():
    state = random_game(2, 3, stop=lambda s: gutenberg_ai.core_of(s).round >= 2)
    core = gutenberg_ai.core_of(state)
    out = io.StringIO()
    Console(file=out, width=140, highlight=False).print(view.board_grid(core))
    text = out.getvalue()
    d = core.to_dict()
    for seat in range(2):
        p = d["players"][seat]
        for t in range(2):
            room = ("I", "II")[p["room"][t]]
            assert f"{seat}:{room if p['upright'][t] else room.lower()}" in text, text
    assert "Paper mill" in text and "row 3" in text and "column 3" in text


def test_the_score_sheet_adds_up_to_the_final_scores():
    state = random_game(3, 5)
    core = gutenberg_ai.core_of(state)
    rows = view.score_rows(core)
    assert [r["total"] for r in rows] == core.final_scores()
    assert all(sum(r["lines"]) == r["total"] for r in rows)
    assert all(r["points track"] == r["lines"][0] and r["cash"] == core.to_dict()["players"][r["seat"]]["marks"]
               for r in rows)
    ranked = sorted(rows, key=lambda r: (-r["total"], -r["completed orders"], -r["cash"]))
    assert ranked[0]["place"] == 1      # the rulebook's tie-breaks, shown where they decide
    assert {r["seat"] for r in rows if r["place"] == 1} == set(core.winners())
    assert view.verdict(core).startswith(("Winner", "Shared win"))


# -- cards ----------------------------------------------------------------------------------------
def test_cards_finds_a_component_by_what_it_shows():
    cat = LLP.rules_module.rules_for({}).catalogue
    found = cards.find_cards("technology III marks")
    assert found and all("technology" in m.text and "III" in m.text and "mark" in m.text for m in found)
    assert found[0].card == "technology 25" and found[0].text == cat.describe_tech(24) == "technology 25 (III: 3 marks)"
    letters = cards.find_cards("BC ink", kind="letter")
    assert letters and all(" BC " in m.text and "ink" in m.text for m in letters)
    assert cards.find_cards("contract 24")[0].text == cat.describe_contract(23)
    assert cards.find_cards("zebra") == [] and cards.closest_cards("zebra order") != []
    with pytest.raises(ValueError, match="kind"):
        cards.find_cards("x", kind="dragon")


def test_a_shop_move_is_typed_as_tradesman_row_column_room():
    state = random_game(3, 11, stop=lambda s: sum(view._shop_move(a) is not None for a in s.legal_actions()) > 12)
    core = gutenberg_ai.core_of(state)
    legal = core.legal_actions()
    side = gutenberg_ai.games.lead_letter_printers._core.SIZES["grid_side"]
    shop = [a for a in legal if view._shop_move(a) is not None]
    for a in shop:
        t, cell, room = view._shop_move(a)
        text = core.action_to_string(a)
        assert text.startswith(f"Shop: tradesman {t + 1} to room {('I', 'II')[room]} of ")
        assert f"(row {cell // side + 1}, column {cell % side + 1})" in text
        assert view.typed_move(core, [t + 1, cell // side + 1, cell % side + 1, room + 1], legal) == a
    assert view.typed_move(core, [9, 1, 1, 1], legal) is None and view.typed_move(core, [1, 1], legal) is None
    assert "TRADESMAN ROW COLUMN ROOM" in view.typed_move_help(core, legal)
    menu = view.menu(core, core.current_player(), legal, [core.action_to_string(a) for a in legal], 100)
    assert menu is not None and f"{len(legal)})" in menu.plain
