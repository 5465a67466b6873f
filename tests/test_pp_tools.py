"""Printing Press in the tools: its position files (the shipped examples, a position of
every decision the format records read back to the same state, hostile files; files of
another game: tests/test_games_tools.py), its table in a 100x40 terminal, rows and
columns typed at the prompt, and its cards lookup."""
import json
import pathlib
import random

import pytest

from gutenberg_ai.games.printing_press import _core, make_rules, view
from gutenberg_ai.games.printing_press import position as P
from gutenberg_ai.common.jsonfile import MAX_PROBLEMS
from gutenberg_ai.games.positionfile import PositionError, load_position
from every_game import cli, decision_screen
from json_places import set_at

POSITIONS = pathlib.Path(P.__file__).parent / "data" / "positions"
CARDS = POSITIONS / "cards-round2-3p.json"
CLOSE = POSITIONS / "close-round1-2p.json"


def example(path=CARDS) -> dict:
    return json.loads(path.read_text())


def decisions(players, seed, variant="basic", pick=None):
    """The decisions of a game (seat 0's by `pick`, the others by the heuristic), as
    (state before the move, the move)."""
    R = make_rules({"players": players, "variant": variant})
    s = R.new_state()
    n = 0
    rng = random.Random(seed)
    while not s.is_terminal():
        if s.is_chance():
            s.apply(s.sample_chance(seed * 1000 + n))
        else:
            legal = s.legal_actions()
            a = pick(s, legal, rng) if pick and s.current_player() == 0 else _core.heuristic_move(s, seed=n)
            yield s.clone(), a
            s.apply(a)
        n += 1


# -- the shipped positions ------------------------------------------------------------------------
def test_the_shipped_positions_load_at_their_decision():
    game, pos = load_position(CARDS)
    assert game.key == "printing-press"
    assert pos.step == {"kind": "cards", "player": 0, "card_step": 4, "order": [2, 0, 1]}
    assert pos.state.step_name() == "Select Cards, step 4/6: take a card"
    assert pos.names == ("Anna", "Kate", "John") and pos.hidden_tokens == (1, 2)
    taken = [pos.state.action_to_string(a) for a in pos.state.legal_actions() if a < _core.ACTIONS["PLACE"]]
    assert taken == ["take card 25 (blue / grey / typesetting)", "take card 52 (illuminating / U / yellow)",
                     "take card 67 (A / I / woodcutting)"]
    game, pos = load_position(CLOSE)
    assert pos.state.phase == "Close Frames" and pos.current_player == 0
    # the points of a frame closed now are the rules' (plate 7: ..., frame 2: ...)
    best = view.windows(pos.state, 0)[0]
    assert best[0] == sum(pos.state.window_score(0, best[2], best[3])) > 0


def test_a_position_of_every_recorded_decision_reads_back_to_the_same_game():
    checked = 0
    for players, seed in ((1, 0), (2, 1), (3, 2), (4, 3)):
        for state, _ in decisions(players, seed, "advanced" if seed % 2 else "basic"):
            try:
                data = P.position_of(state)
            except PositionError:
                continue
            pos = P.load_position(json.loads(json.dumps(data)))
            assert pos.state.legal_actions() == state.legal_actions(), state.step_name()
            assert pos.state.final_scores() == state.final_scores()
            a, b = pos.state.to_dict(), state.to_dict()
            for key in ("round", "phase", "step", "sub", "offer", "taken", "bag", "cubes_left", "box_tokens"):
                assert a[key] == b[key], (key, state.step_name())
            for seat in range(b["num_seats"]):
                for key in ("grid", "closed", "fame", "cubes", "marker", "markers", "marker13",
                            "order_frame", "order_plate", "character", "side", "ability", "columns"):
                    assert a["players"][seat][key] == b["players"][seat][key], (seat, key, state.step_name())
                # tokens face down: a position counts them by symbol, setup tokens among them
                assert _face_down(a["players"][seat]) == _face_down(b["players"][seat])
            checked += 1
    assert checked > 200


def _face_down(p):
    down = list(p["hidden_out"])
    for k, slot in enumerate(p["slot"]):
        if slot == _core.SLOTS["DOWN"]:
            down[p["hand"][k]] += 1
    return down


def test_what_a_player_saves_hides_the_others_tokens_and_loads_with_stand_ins():
    for state, _ in decisions(3, 5):
        d = state.to_dict()
        if state.phase == "Select Cards" and d["round"] == 2 and d["sub"] == 0 and not d["held"] \
                and state.current_player() == 1:
            break
    data = P.position_of(state, viewer=1)
    text = json.dumps(data)
    for seat in (0, 2):
        p = data["players"][seat]
        assert set(p.get("face_down", [])) <= {"hidden"}
        for token in p.get("setup_tokens", []):     # in hand or used: hidden unless symbol side up
            assert token == "hidden" or "up" in token or list(token.values()) == ["hidden"]
    assert "hidden" not in json.dumps(data["players"][1])
    pos = P.load_position(json.loads(text))
    assert pos.hidden_tokens and 1 not in pos.hidden_tokens
    assert pos.state.legal_actions() == state.legal_actions()
    assert pos.state.observation_string(1) .split("\n")[0] == state.observation_string(1).split("\n")[0]
    # the bag holds what the table leaves unaccounted for, stand-ins taken from it
    assert sum(pos.state.to_dict()["bag"]) == sum(d["bag"])


# -- hostile files --------------------------------------------------------------------------------
_set = set_at     # an edit of a position's data (json_places)


MALFORMED = [
    ("wrong format", _set(["format"], "printing-pres-position"), "format", "must be"),
    ("unknown key", _set(["colour"], 1), "top level", "unknown key 'colour'"),
    ("players 5", _set(["game", "players"], 5), "game.players", "out of range"),
    ("round as text", _set(["round"], "2"), "round", "must be a whole number"),
    ("step kind", _set(["step", "kind"], "bid"), "step.kind", "is not one of"),
    ("bad square", _set(["players", 0, "tableau", 0], "yel * purple"), "players[0].tableau[0]",
     "'purple' (column 3) is not a square"),
    ("escape in a row", _set(["players", 0, "tableau", 0], "A \x1b[2J"), "players[0].tableau[0]", "errorMessage"),
    ("uneven rows", _set(["players", 0, "tableau"], ["A I", "O"]), "players[0].tableau[1]", "1 squares, the first row has 2"),
    ("empty first row", _set(["players", 0, "tableau"], [". .", "A I"]), "players[0].tableau[0]", "empty"),
    ("a frame row of 2", _set(["players", 0, "closed", 0, 1], "A I"), "players[0].closed[0][1]", "a frame's row has 3"),
    ("Guillard letter", _set(["players", 0, "tableau", 1], "- - . A+ ."), "players[0].tableau[1]", "ink or a specialty"),
    ("unknown character", _set(["players", 0, "character"], "Aldus Manutius"), "players[0].character", "is not a character"),
    ("character twice", _set(["players", 1, "character"], "Bonhomme"), "players[1].character", "also players[0]"),
    ("no side", lambda d: d["players"][0].pop("side"), "players[0].side", "missing"),
    ("Gutenberg ability", _set(["players", 2, "ability"], True), "players[2].ability", "no ability token"),
    ("frame twice", _set(["players", 1, "orders", 1], [16, 14]), "players[1].orders[1]", "frame 16 is also at"),
    ("card twice", _set(["offer", 0], 67), "offer[2]", "card 67 is also at"),
    ("card 91", _set(["offer", 0], 91), "offer[0]", "out of range"),
    ("too many orders", _set(["players", 0, "orders"], [[2, 9], [16, 5], [3, 3]]), "players[0].orders", "3 orders"),
    ("a fifth token", _set(["players", 0, "setup_tokens"], ["A", "I", "O", "U", "red"]), "players[0].setup_tokens",
     "5 tokens, the player took 3"),
    ("own token hidden", _set(["players", 0, "setup_tokens"], [None, "hidden"]), "players[0].setup_tokens[1]",
     "their own tokens are theirs to see"),
    ("five red", _set(["tokens_out"], ["red"] * 5), "tokens_out", "the game has 4"),
    # (A card of cards_out back on the offer: the deal's count stays that of the steps.)
    ("offer taken count", lambda d: d["offer"].__setitem__(1, d["cards_out"].pop()), "offer",
     "cards taken from the offer"),
    ("card step 7", _set(["step", "card_step"], 7), "step.card_step", "out of range"),
    ("marker value 3", _set(["players", 0, "bonus_markers", 0, "value"], 3), "players[0].bonus_markers[0].value",
     "Gutenberg"),
    # The markers as p.11 places them: one a round, "2" side up on a symbol not marked yet.
    ("marker 1 first", _set(["players", 0, "bonus_markers", 0, "value"], 1), "players[0].bonus_markers[0].value",
     "is not marked from an earlier round: a marker on it shows 2"),
    ("two markers a round", lambda d: d["players"][0]["bonus_markers"].append({"round": 1, "slot": 2, "value": 2}),
     "players[0].bonus_markers[1]", "holds a marker already: one a round"),
    ("a round without a marker", _set(["players", 1, "bonus_markers"], []), "players[1].bonus_markers",
     "round 1 has no marker"),
    ("Gutenberg's extra as 2", _set(["players", 2, "bonus_markers", 0, "value"], 2), "players[2].bonus_markers[1]",
     "his extra one shows 1"),
    ("player 4", _set(["step", "player"], 3), "step.player", "is not a player"),
    ("long name", _set(["players", 0, "name"], "N" * 500), "players[0].name", "at most 40"),
    ("control in name", _set(["players", 0, "name"], "Anna\x1b]0;x\x07"), "players[0].name", "control character"),
    ("automa in a 3-player game", _set(["automa"], {"points": 0, "board": [["A", "blue", "typesetting"]] * 3}),
     "automa", "no automa"),
]


@pytest.mark.parametrize("name,edit,where,reason", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_a_malformed_position_names_the_field_and_the_reason(name, edit, where, reason):
    data = example()
    edit(data)
    with pytest.raises(PositionError) as info:
        P.load_position(data)
    e = info.value
    text = str(e)
    assert "\x1b" not in text and "\x07" not in text
    found = dict(e.problems)
    if reason == "errorMessage":     # the schema's own words for a row
        assert where in found and "a row of square codes" in found[where], text
    else:
        assert where in found, text
        assert reason in found[where], text
    assert all(len(line) < 400 for line in text.splitlines())


def test_every_problem_of_a_file_at_once_and_a_bounded_message():
    data = example()
    data["players"][0]["tableau"][0] = "purple"
    data["players"][1]["character"] = "Nobody"
    data["game"]["variant"] = "x" * 5000
    data["offer"] = [91] * 5
    with pytest.raises(PositionError) as info:
        P.load_position(data)
    wheres = [w for w, _ in info.value.problems]
    assert "game.variant" in wheres and "offer[0]" in wheres and "offer[4]" in wheres
    assert "x" * 100 not in str(info.value)
    data = example()
    data["players"][0]["tableau"] = ["A " * 23] * 3       # wider than a tableau can be
    with pytest.raises(PositionError, match="23 columns"):
        P.load_position(data)
    data = example()
    data["cards_out"] = list(range(1, 91)) + [1]
    with pytest.raises(PositionError) as info:
        P.load_position(data)
    assert len(str(info.value).splitlines()) <= MAX_PROBLEMS + 1


def test_a_character_or_a_square_the_loader_refuses_comes_with_the_schemas_problems():
    # The schema refuses the side; the unknown character and the square that is none are
    # told in the same error, not after the side is put right. A row the schema refused
    # is not read again.
    data = example()
    data["players"][0]["side"] = "C"                      # schema: not A or B
    data["players"][0]["character"] = "Nobody"
    data["players"][1]["tableau"][0] = "A Bnd XYZ red"
    data["players"][1]["tableau"][1] = "A 7"              # schema: not a row of codes
    with pytest.raises(PositionError) as info:
        P.load_position(data)
    found = dict(info.value.problems)
    assert found["players[0].side"] == "'C' is not one of A, B"
    assert found["players[0].character"].startswith("'Nobody' is not a character")
    assert found["players[1].tableau[0]"].startswith("'XYZ' (column 3) is not a square")
    assert "a row of square codes" in found["players[1].tableau[1]"]
    assert len(found) == 4, found


def test_a_card_or_frame_in_two_places_comes_with_the_schemas_problems():
    # The schema refuses the round; the frame and the card given twice are told in the
    # same error, and a number at a refused place is not counted.
    data = example()
    data["round"] = "2"                                   # schema: not a number
    data["players"][1]["orders"][1] = [16, 14]            # frame 16 is Anna's second order's
    data["offer"][0] = 67                                 # card 67 is also offer[2]
    data["players"][0]["orders"][0] = [16, "x"]           # schema: refused, frame 16 not counted
    with pytest.raises(PositionError) as info:
        P.load_position(data)
    found = dict(info.value.problems)
    assert found["round"].startswith("must be a whole number")
    assert "players[0].orders[0]" in found or "players[0].orders[0][1]" in found
    assert found["players[1].orders[1]"] == "frame 16 is also at players[0].orders[1]; each is in one place"
    assert found["offer[2]"] == "card 67 is also at offer[0]; each is in one place"
    assert len(found) == 4, found


# -- the table in a 100x40 terminal ----------------------------------------------------------------
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_every_decision_fits_a_100_by_40_terminal_with_the_offer_and_the_tableau(players):
    def pick(state, legal, rng):
        return legal[rng.randrange(len(legal))]

    screens = orders = 0
    for state, _ in decisions(players, players, pick=pick):
        if state.current_player() != 0 or len(state.legal_actions()) < 2:
            continue
        shown = decision_screen(state, 0)
        screens += 1
        if state.phase == "Select Cards" and state.to_dict()["sub"] == 0:
            assert "\ncards " in shown, shown       # the offer
        if state.phase == "Select Orders":
            assert "\norders " in shown, shown
        if state.to_dict()["players"][0]["pieces"]:
            assert "\ntableau " in shown and "\nplate " in shown and "\nframe " in shown, shown
        if state.phase == "Close Frames":
            assert "windows; the best:" in shown, shown
        # The order of a step names who acts when: more than one (a solo step of the
        # person alone has no order line).
        order = view.order_text(state, None)
        assert order is None or " > " in order.plain or "not decided yet" in order.plain, order.plain
        orders += order is not None
    assert screens > 20
    assert orders > 0


def test_the_grid_numbers_rows_and_columns_as_the_moves_do_and_marks_tokens_and_icons():
    game, pos = load_position(CLOSE)
    grid = view.tableau_grid(pos.state, 1, shade=False).plain.split("\n")
    assert grid[0].split() == ["1", "2", "3", "4", "5"]
    assert grid[3].split() == ["3", ".", "*'", "*", "yel", "Typ"]      # a token face down, icons
    # the windows at Close Frames say their points as the rules score them
    legal = pos.state.legal_actions()
    texts = [view.move_text(pos.state, a, pos.state.action_to_string(a)) for a in legal]
    r, c = 0, 1
    a = _core.ACTIONS["WINDOW"] + _core.anchor(r, c)
    parts = pos.state.window_score(0, r, c)
    assert texts[legal.index(a)] == f"close the frame on rows 1-3, columns 2-4: {sum(parts)} points " \
                                    f"({view.parts_text(parts)})"


def test_a_row_and_a_column_choose_where_a_card_goes_or_a_window():
    game, pos = load_position(CLOSE)
    s = pos.state
    legal = s.legal_actions()
    assert view.typed_move(s, [1, 2], legal) == _core.ACTIONS["WINDOW"] + _core.anchor(0, 1)
    assert view.typed_move(s, [1, 2, 3], legal) is None
    with pytest.raises(ValueError, match="nothing goes at row 30"):
        view.typed_move(s, [30, 2], legal)
    for state, _ in decisions(2, 1):
        d = state.to_dict()
        if state.current_player() == 0 and d["sub"] == 1 and d["held"] == 0 and d["players"][0]["pieces"]:
            break
    legal = state.legal_actions()
    printed = int(state.rules.catalogue.cards[state.to_dict()["taken"]].vertical)
    places = [a for a in legal if _core.ACTIONS["PLACE"] <= a < _core.ACTIONS["UNDER"]
              and (a - _core.ACTIONS["PLACE"]) // _core.NUM_ANCHORS == printed]
    o, k = divmod(places[-1] - _core.ACTIONS["PLACE"], _core.NUM_ANCHORS)
    r, c = _core.anchor_cell(k)
    assert view.typed_move(state, [r + 1, c + 1], legal) == places[-1]
    assert "row" in view.typed_move_help(state, legal)


# -- the cards lookup ----------------------------------------------------------------------------
def test_cards_finds_a_card_plate_or_frame_by_what_it_shows():
    out = cli("cards", "--game", "printing-press", "*", "-", "red", "--json")
    assert out.returncode == 0
    found = json.loads(out.stdout)
    assert found and all("initiative" in m["text"] and "red" in m["text"] for m in found)
    card = view.card_text  # the terminal's codes are words of a query too
    out = cli("cards", "--game", "printing-press", "plate", "U", "middle", "row", "--json")
    assert [m["card"] for m in json.loads(out.stdout)] == ["plate 16"] or \
        all(m["kind"] == "plate" and "middle row" in m["text"] for m in json.loads(out.stdout))
    out = cli("cards", "--game", "printing-press", "--letters", "A")
    assert out.returncode == 2 and "not for Printing Press" in out.stderr
    out = cli("cards", "--game", "chess", "A")
    assert out.returncode == 2 and "is not one of gutenberg, printing-press" in out.stderr
    assert card is not None


def test_a_position_at_close_frames_takes_those_done_in_any_order():
    """A table going by p.8's initiative may close Walter's frame before Pat's: the
    choices do not touch one another, so a file with a later seat done is taken, and
    once the player to act closes, the round is over (nobody is asked twice)."""
    from gutenberg_ai.games.positionfile import position_game
    data = example(POSITIONS / "close-round1-2p.json")
    walter = data["players"][1]
    walter["closed"] = [["A Bnd Woo", "A yel *", ". *' *"]]     # his best window, framed first
    walter.pop("tableau")
    pos = P.load_position(data)
    assert pos.step["order"] == [1, 0] and pos.current_player == 0
    _, _, game, _, _ = position_game(data)
    state = game.new_initial_state()
    close = next(a for a in state.legal_actions() if state.action_to_string(0, a).startswith("close the frame"))
    state.apply_action(close)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert "Round 2/3" in str(state) and "Select Orders" in str(state)
    data["step"]["order"] = [0, 1]           # an order given must be the one the file shows
    with pytest.raises(PositionError, match=r"step.order: \[0, 1\]: those done this round \(1\) come before"):
        P.load_position(data)
    data["step"]["order"] = [1, 0]
    assert P.load_position(data).step["order"] == [1, 0]
    data["step"]["player"] = 1
    with pytest.raises(PositionError, match=r"step.player: players\[1\] has closed their frame this round already"):
        P.load_position(data)
