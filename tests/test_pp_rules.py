"""The rules of Printing Press, on the rulebook's worked examples and hand-made positions:
initiative, Select Orders, placement (beside, on, never under, orientation, covered
tokens, the tableau's bound), discarding for tokens, every scoring condition and the bonus
markers. Rulebook: seeds/printing-press-rulebook-en.txt; rulings:
docs/printing_press/rulings.md.
"""
import pytest

from gutenberg_ai.games.printing_press import _core, names
from pp_helpers import (
    A, C, EMPTY, ICON, N, SLOT, SYM, TOKEN, at_place, cards_where, cat, column_card, deal_cards, deal_orders,
    row_card, edit, first_main, legal_in, order, p8_table, pass_token_windows, place, play_until, rules, setup,
    take_orders, token_at, window, with_tableau,
)

IllegalActionError = _core.IllegalActionError


# =======================================================================================
# 1. The rulebook's worked examples
# =======================================================================================
def anna_kate_john_tom():
    """p.8's table in the seats of its order: Anna 0, Kate 1, John 2, Tom 3 (p8_table)."""
    R, s, _ = p8_table()
    return R, s


def test_initiative_example_anna_kate_john_tom():
    """p.8: Anna 2 (1 cube + 1 icon on a card), Kate 1 (a cube), John 1 (an icon on a
    token), Tom 0; Kate wins the tie with John by her character's initiative value."""
    anna, kate, john, tom = range(4)
    R, s = anna_kate_john_tom()
    assert cat().characters["Helena Ungler"] > cat().characters["Johannes Gutenberg"]
    pass_token_windows(s)
    assert s.to_dict()["turn_order"] == [anna, kate, john, tom]


def test_a_setup_token_before_the_order_wins_the_tie():
    """p.11 "At any time during a round ... a player may place one or more of their 3
    tokens": before the step's order is decided. John, who loses the tie with Kate,
    places a setup token initiative side up in his window: 2, level with Anna, who wins
    that tie (Guillard's initiative value above Gutenberg's); he goes second, Kate third."""
    anna, kate, john, tom = range(4)
    R, s = anna_kate_john_tom()
    assert s.phase == "Select Cards" and s.step_name().endswith("setup tokens before the order is decided")
    # Windows in seat order: Anna and Kate say done.
    for seat in (anna, kate):
        assert s.current_player() == seat and s.to_dict()["token_window"] == seat
        assert A["DONE"] in s.legal_actions()
        s.apply(A["DONE"])
    assert s.current_player() == john
    assert set(legal_in(s, A["SETUP_DOWN"], 5)) == {A["SETUP_DOWN"] + k for k in range(3)}
    assert not legal_in(s, A["TAKE"], 90)               # no card before the order
    s.apply(A["SETUP_DOWN"] + 0)
    s.apply(token_at(1, 0))                             # below his O
    assert s.initiative(john) == 2
    pass_token_windows(s)
    d = s.to_dict()
    assert d["token_window"] == -1 and d["turn_order"] == [anna, john, kate, tom]
    assert s.current_player() == anna and legal_in(s, A["TAKE"], 90)


def _two_players_with_cubes(cubes0):
    """2 players without characters (seat order breaks ties) at Select Cards step 2:
    each has a card without icons and 3 setup tokens; seat 0 has `cubes0` cubes, seat 1
    none."""
    R = rules(2, characters=False)
    s = take_orders(setup(R), 2)

    def cubes(d):
        d["players"][0]["cubes"], d["players"][1]["cubes"] = cubes0, 0
        d["cubes_left"] = 7 - cubes0
        d["step"] = 1
    s = edit(R, s, cubes)
    s = with_tableau(R, s, 0, [["A", "red", "grey"]])
    s = with_tableau(R, s, 1, [["O", "blue", "binding"]])
    deal_cards(s, [10, 20, 30])
    return s


def test_no_token_window_where_a_token_could_change_nothing():
    """A window is opened only where the player's tokens could change the order: not on
    the round's first step (no tableau to touch), not for a player without tokens, not
    where the most a player can reach is a tie it loses or a place it already has."""
    # The round's first step: 3 tokens each, no tableau.
    R = rules(4)
    s = take_orders(setup(R), 4)
    deal_cards(s, [10, 20, 30, 40, 50])
    assert s.to_dict()["token_window"] == -1 and legal_in(s, A["TAKE"], 90)
    # Seat 0 at 3 (cubes, no icon to cover), seat 1 at 0 with 3 tokens: its best is a tie
    # at 3, which seat order gives seat 0; seat 0 cannot fall below 3.
    s = _two_players_with_cubes(3)
    assert s.to_dict()["token_window"] == -1 and s.to_dict()["turn_order"][:2] == [0, 1]
    # At 2, seat 1 can pass seat 0: both windows open, seat 0's first (seat order).
    s = _two_players_with_cubes(2)
    assert s.current_player() == 0 and s.to_dict()["token_window"] == 0
    s.apply(A["DONE"])
    assert s.current_player() == 1 and s.to_dict()["token_window"] == 1
    # Seat 1 places two tokens initiative side up (2, a tie it loses); the third could
    # pass seat 0, so the window stays open; after it, nothing it holds could: closed.
    for k, at in ((0, (1, 0)), (1, (1, 1))):
        s.apply(A["SETUP_DOWN"] + k)
        s.apply(token_at(*at))
        assert s.to_dict()["token_window"] == 1
    s.apply(A["SETUP_DOWN"] + 2)
    s.apply(token_at(1, 2))
    d = s.to_dict()
    assert d["token_window"] == -1 and d["turn_order"][:2] == [1, 0] and s.initiative(1) == 3
    # A player whose hand is empty has no window: seat 1 at 1 (an icon) has placed its
    # tokens; seat 0 at 0 can pass it, seat 1 could answer only with tokens.
    R = rules(2, characters=False)
    s = take_orders(setup(R), 2)

    def placed(d):
        d["step"] = 1
        p = d["players"][1]
        for k in range(3):
            p["slot"][k] = SLOT["UP"]
            d["bag"][p["hand"][k]] += 1      # with_tableau takes the shown tokens from the bag
    hand = [names.SYMBOLS[x] for x in s.to_dict()["players"][1]["hand"][:3]]
    s = edit(R, s, placed)
    s = with_tableau(R, s, 0, [["A", "red", "grey"]])
    s = with_tableau(R, s, 1, [["O", "*", "binding"], ["t:" + x for x in hand]])
    deal_cards(s, [10, 20, 30])
    assert s.current_player() == 0 and s.to_dict()["token_window"] == 0
    s.apply(A["DONE"])
    assert s.to_dict()["token_window"] == -1


def _heuristic_window(cards):
    """Guillard (seat 1, order frame 13 + plate 16: A A U I, U in the middle row) with A A I
    in her tableau, at 0; Gutenberg (seat 0) at 1, the cube of the last to choose an
    order; Select Cards step 2 with `cards` dealt. The heuristic plays the token windows;
    returns the step's order."""
    R = rules(2)
    s = setup(R, tiles=["Gutenberg", "Guillard"])
    deal_orders(s, [(13, 16), (1, 1), (2, 2)])
    s.apply(order(13))                       # Guillard (5) chooses first
    s.apply(order(1))
    s = edit(R, s, lambda d: d.update(step=1))
    s = with_tableau(R, s, 0, [["O", "red", "grey"]])
    s = with_tableau(R, s, 1, [["A", "A", "I"]])
    assert (s.initiative(0), s.initiative(1)) == (1, 0)
    deal_cards(s, cards)
    downs = []
    while s.to_dict()["token_window"] >= 0:
        a = _core.heuristic_move(s, 1)
        if A["SETUP_DOWN"] <= a < A["GUILLARD"]:
            downs.append(s.current_player())
        s.apply(a)
    return s.to_dict()["turn_order"][:2], downs


def test_the_heuristic_places_a_token_before_the_order_for_a_better_card():
    """Card 5 (woodcutting U A) under Guillard's A A I meets her plate (4) and its U in
    the middle row (2): she places a token initiative side up, ties Gutenberg at 1, wins
    the tie and takes first. With three cards that do nothing for her, she keeps it."""
    dull = cards_where(lambda c: set(c.squares) <= {"red", "blue", "yellow", "binding", "illuminating", "blank", "O"})
    assert _heuristic_window([5] + dull[:2]) == ([1, 0], [1])
    assert _heuristic_window(dull[:3]) == ([0, 1], [])


def test_select_orders_example_pat_kate_walter():
    """p.9: Pat (Caxton, 3) chooses first, then Kate (Ungler, 2), then Walter (Gutenberg,
    1); Walter, last, takes an initiative cube; the order left over goes to the box."""
    R = rules(3)
    pat, kate, walter = range(3)
    s = setup(R, tiles=["Caxton", "Ungler", "Gutenberg"])
    deal_orders(s, [(1, 2), (3, 4), (5, 6), (7, 8)])   # players + 1 orders
    assert len([f for f in s.to_dict()["offer_frame"] if f >= 0]) == 4
    chosen = []
    for expected, frame in ((pat, 1), (kate, 3), (walter, 5)):
        assert s.current_player() == expected
        assert s.phase == "Select Orders"
        s.apply(order(frame))
        chosen.append(frame)
    d = s.to_dict()
    assert [p["cubes"] for p in d["players"][:3]] == [0, 0, 1]
    assert d["cubes_left"] == 6
    # A frame and its plate stay linked; the leftover order (frame 7, plate 8) is gone.
    assert [(p["order_frame"][0] + 1, p["order_plate"][0] + 1) for p in d["players"][:3]] == [(1, 2), (3, 4), (5, 6)]
    assert all(f < 0 for f in d["offer_frame"]) and not (d["frame_deck"] >> 6) & 1
    assert not (d["plate_deck"] >> 7) & 1
    # The cube changes the order of the next step: Walter first.
    deal_cards(s, [1, 2, 3, 4])
    assert s.current_player() == walter


def johns_state():
    """John (seat 0) with the order of the p.12-13 examples, frame 13 (grey in the bottom
    row 3, typesetting and woodcutting 4) and plate 16 (A A U I 4, U in the middle row 2),
    at Close Frames with his tableau framing A, A, U, I (U in the centre row), grey in the
    bottom row, typesetting and woodcutting."""
    R = rules(2)
    s = setup(R, tiles=["Guillard", "Caxton"])
    deal_orders(s, [(13, 16), (1, 1), (2, 2)])
    s.apply(order(13))
    play_until(s, "Close Frames")
    s = with_tableau(R, s, 0, [["A", "typesetting", "I", "blue"],
                               ["woodcutting", "U", "A", None],
                               ["*", "grey", None, None]])
    return R, s


def test_johns_plate_and_frame_example():
    R, s = johns_state()
    assert s.window_score(0, 0, 0) == (4, 2, 3, 4)        # plate 4 + 2, frame 3 + 4
    assert s.current_player() == 0
    s.apply(window(0, 0))
    d = s.to_dict()
    assert d["players"][0]["fame"] == 13
    assert s.score_breakdown(0)["rounds"] == [dict(plate=4, additional=2, ink=3, specialty=4, total=13)]
    # The closed frame keeps the 3x3 (its icon counts for initiative); the rest is gone.
    assert d["players"][0]["closed"][0] == [SYM["A"], SYM["typesetting"], SYM["I"],
                                            SYM["woodcutting"], SYM["U"], SYM["A"],
                                            ICON, SYM["grey"], EMPTY]
    assert d["players"][0]["pieces"] == 0 and s.initiative(0) == 1


def test_the_window_is_a_choice():
    """Close Frames: the player chooses the 3x3 window; another window scores less."""
    R, s = johns_state()
    assert window(0, 1) in s.legal_actions() and window(-2, -2) in s.legal_actions()
    assert s.window_score(0, 0, 1) == (0, 0, 3, 0)     # one A only; grey still in the bottom row
    s.apply(window(0, 1))
    assert s.to_dict()["players"][0]["fame"] == 3

def test_a_window_frames_some_square_of_the_tableau():
    """"Each player puts their frame onto their tableau ... It is legal for some framed
    squares to be empty": some, not all nine."""
    R = rules(2)
    s = setup(R, tiles=["Guillard", "Caxton"])
    deal_orders(s, [(13, 16), (1, 1), (2, 2)])
    while s.phase == "Select Orders":
        s.apply(order(13) if s.current_player() == 0 else first_main(s))
    play_until(s, "Close Frames")
    while s.current_player() != 0:
        s.apply(first_main(s))
    # An L: a row card along the top, a column card down the left.
    s = with_tableau(R, s, 0, [["A", "A", "U"], ["I", None, None], ["grey", None, None], ["U", None, None]])
    assert window(1, 1) not in s.legal_actions()          # rows 2-4, columns 2-4: nothing in it
    assert window(1, 0) in s.legal_actions() and window(0, 1) in s.legal_actions()
    assert window(-2, -2) in s.legal_actions()            # the corner square alone
    assert window(2, 1) not in s.legal_actions()          # rows 3-5, columns 2-4: nothing either


# =======================================================================================
# 2. Placement
# =======================================================================================
def test_first_card_starts_the_tableau_at_one_place():
    R = rules(2)
    x = row_card()
    s, seat = at_place(R, x)
    assert s.to_dict()["players"][seat]["pieces"] == 0
    assert legal_in(s, A["PLACE"], A["DISCARD"] - A["PLACE"]) == [place(0, 0, 0)]
    assert A["DISCARD"] not in s.legal_actions()    # a token needs a card to touch
    s.apply(place(0, 0, 0))
    p = s.to_dict()["players"][seat]
    assert (p["height"], p["width"], p["pieces"]) == (1, 3, 1)
    assert p["grid"][0][:3] == [names.SQUARES.index(q) for q in cat().cards[x - 1].squares]


def test_beside_and_on_are_legal_apart_and_diagonal_are_not():
    R = rules(2)
    s, seat = at_place(R, row_card(), [["A", "I", "O"]])
    legal = set(s.legal_actions())
    assert place(0, 0, 3) in legal        # beside, to the right
    assert place(0, 1, 0) in legal        # beside, below
    assert place(0, -1, -2) in legal      # beside: its last square above the first
    assert place(0, 0, 1) in legal        # on: covers two squares
    assert place(0, 0, 0) in legal        # on: covers the whole card
    assert place(0, 1, 3) not in legal    # only a corner touches
    assert place(0, 0, 4) not in legal    # a gap
    assert place(0, -1, -3) not in legal  # only a corner touches
    with pytest.raises(IllegalActionError, match="beside or on"):
        s.apply(place(0, 1, 3))


def test_a_card_on_others_covers_them_never_under():
    R = rules(2)
    x = row_card(lambda c: "blank" not in c.squares)
    s, seat = at_place(R, x, [["A", "I", "O"]])
    s.apply(place(0, 0, 1))
    p = s.to_dict()["players"][seat]
    squares = [names.SQUARES.index(q) for q in cat().cards[x - 1].squares]
    assert p["grid"][0][:4] == [SYM["A"]] + squares     # the new card lies on top
    assert (p["height"], p["width"]) == (1, 4)
    assert A["UNDER"] + _core.anchor(0, 1) not in s.legal_actions()


def test_orientation_as_printed():
    R = rules(2)
    s, seat = at_place(R, row_card(), [["A", "I", "O"]])
    assert not legal_in(s, A["PLACE"] + _core.NUM_ANCHORS, 3 * _core.NUM_ANCHORS)   # no column, no turn-around
    with pytest.raises(IllegalActionError, match="as printed"):
        s.apply(place(1, 1, 0))
    s, seat = at_place(R, column_card(), [["A", "I", "O"]])
    assert place(1, 1, 0) in s.legal_actions() and place(0, 1, 0) not in s.legal_actions()
    s.apply(place(1, -3, 1))                       # a column above the middle square
    p = s.to_dict()["players"][seat]
    assert (p["height"], p["width"]) == (4, 3)     # kept at its top-left corner
    assert p["grid"][3][:3] == [SYM["A"], SYM["I"], SYM["O"]]


def test_a_place_above_or_left_of_the_grid_is_said_from_row_1_and_column_1():
    """The grid drawn in the terminal numbers the tableau's rows and columns from 1, so a
    place outside it, which extends the tableau, is named by the number the page's grid
    and a typed move give it and by how far it is from row 1 or column 1."""
    from gutenberg_ai.games.printing_press import view
    R = rules(2)
    s, seat = at_place(R, column_card(), [["A", "I", "O"]])
    column_above = place(1, -3, 1)                 # its bottom square just above row 1
    assert column_above in s.legal_actions()
    assert s.action_to_string(column_above).endswith("vertically at row -2 (3 rows above row 1), column 2")
    assert s.action_to_string(token_at(-1, -1)).endswith("at row 0 (just above row 1), column 0 (just left of column 1)")
    assert s.action_to_string(token_at(-2, -3)).endswith("at row -1 (2 rows above row 1), column -2 (3 columns left of column 1)")
    assert s.action_to_string(place(1, 1, 2)).endswith("vertically at row 2, column 3")
    above = "rows -1 to 1 (from 2 rows above row 1), columns 2-4"
    assert s.action_to_string(window(-2, 1)) == f"close the frame on {above}"
    assert view.where_text(-2, 1) == above
    assert s.action_to_string(window(0, -1)) == "close the frame on rows 1-3, columns 0 to 2 (from just left of column 1)"
    # The terminal's grid draws rows from 1; the page's grid numbers the place -2.
    assert str(view.tableau_grid(s, seat, shade=False)).split("\n")[1].split()[0] == "1"
    grid = view._web_tableau(s, seat, s.legal_actions())
    top = [row for row in grid["cells"] if column_above in [a for cell in row for a in cell["actions"]]][0]
    assert grid["first_row"] + grid["cells"].index(top) == -2


def test_covered_tokens_leave_the_game():
    R = rules(2)
    x = row_card(lambda c: "initiative" not in c.squares)
    s, seat = at_place(R, x, [["A", "t:red", "t:*"]], down_symbols=["blue"])
    assert s.initiative(seat) == 1 + s.to_dict()["players"][seat]["cubes"]
    s.apply(place(0, 0, 0))
    d = s.to_dict()
    assert d["box_tokens"][SYM["red"]] == 1            # the face-up token, to the box
    assert d["players"][seat]["hidden_out"][SYM["blue"]] == 1   # the face-down one: out too
    assert s.initiative(seat) == d["players"][seat]["cubes"]    # its icon is covered
    assert s.problems() == []


def test_the_tableau_bound_cuts_nothing_off():
    """GRID is the longest a round's tableau can reach: 6 cards x 3 + 4 setup tokens
    (Caxton, side A). A Caxton with 6 row cards in a line places all 4 tokens in line too;
    nothing goes past GRID."""
    assert _core.GRID_SIZE == 6 * 3 + 4
    R = rules(2)
    row = ["A", "I", "O"] * 6
    s, seat = at_place(R, row_card(), [row], tiles=["Guillard", "Caxton"], sides=["A", "A"])
    assert seat == 1 and s.to_dict()["players"][1]["n_setup"] == 4
    for k in range(4):
        slot_action = next(a for a in legal_in(s, A["SETUP_UP"], 60) if (a - A["SETUP_UP"]) // N == k)
        s.apply(slot_action)
        col = len(row) + k
        assert token_at(0, col) in s.legal_actions()
        s.apply(token_at(0, col))
    p = s.to_dict()["players"][1]
    assert p["width"] == 22
    assert place(0, 0, 22) not in s.legal_actions()    # past the bound
    assert place(0, 0, -1) not in s.legal_actions()
    assert place(0, 1, 0) in s.legal_actions()


def test_discard_for_three_tokens_and_keep_one():
    R = rules(2)
    s, seat = at_place(R, row_card(), [["A", "I", "O"]])
    bag = s.to_dict()["bag"]
    s.apply(A["DISCARD"])
    assert s.is_chance()
    outcomes = dict(s.chance_outcomes())
    assert abs(sum(outcomes.values()) - 1) < 1e-12
    total = sum(bag)
    for x in range(N):
        assert outcomes.get(C["DRAW"] + seat * N + x, 0.0) == pytest.approx(bag[x] / total)
    for name in ("red", "red", "U"):
        s.apply(C["DRAW"] + seat * N + SYM[name])
    assert not s.is_chance()
    keep = legal_in(s, A["KEEP_UP"], 2 * N)
    assert keep == [A["KEEP_UP"] + SYM["U"], A["KEEP_UP"] + SYM["red"],
                    A["KEEP_DOWN"] + SYM["U"], A["KEEP_DOWN"] + SYM["red"]]
    s.apply(A["KEEP_UP"] + SYM["red"])
    d = s.to_dict()
    assert d["bag"][SYM["red"]] == bag[SYM["red"]] - 1 and d["bag"][SYM["U"]] == bag[SYM["U"]]
    assert s.current_player() == seat
    assert token_at(0, 1) in s.legal_actions() and token_at(1, 1) in s.legal_actions()
    assert token_at(2, 1) not in s.legal_actions()
    s.apply(token_at(0, 1))      # on the I
    p = s.to_dict()["players"][seat]
    assert p["grid"][0][1] == TOKEN | SYM["red"]
    assert s.current_player() == 1 - seat and s.to_dict()["sub"] == 0   # the next player's turn


def test_setup_tokens_are_free_actions_at_the_players_decisions():
    R = rules(2)
    s, seat = at_place(R, row_card(), [["A", "I", "O"]])
    hand = s.to_dict()["players"][seat]["hand"]
    ups = legal_in(s, A["SETUP_UP"], 60)
    downs = legal_in(s, A["SETUP_DOWN"], 5)
    assert ups == [A["SETUP_UP"] + k * N + hand[k] for k in range(3)]
    assert downs == [A["SETUP_DOWN"] + k for k in range(3)]
    s.apply(A["SETUP_DOWN"] + 1)
    assert s.legal_actions() == sorted(s.legal_actions()) and all(
        A["TOKEN_AT"] <= a < A["MARKER"] for a in s.legal_actions())
    s.apply(token_at(0, 3))
    assert s.current_player() == seat and s.to_dict()["sub"] == 1   # still placing the card
    assert s.initiative(seat) == 1 + s.to_dict()["players"][seat]["cubes"]
    assert A["SETUP_DOWN"] + 1 not in s.legal_actions()

# =======================================================================================
# 3. Scoring
# =======================================================================================
def scored(plate, frame, rows):
    """The (plate, additional, ink, specialty) points of the window at (0, 0) for an
    order of this frame and plate (numbers)."""
    R = rules(2)
    s, seat = at_place(R, row_card())

    def give(d):
        p = d["players"][seat]
        for x, key, deck in ((frame - 1, "order_frame", "frame_deck"), (plate - 1, "order_plate", "plate_deck")):
            old = p[key][0]
            for q in d["players"]:
                if q[key][0] == x:
                    q[key][0] = old
            d[deck] &= ~(1 << x)
            if old != x and not any(q[key][0] == old for q in d["players"]):
                d[deck] |= 1 << old
            p[key][0] = x
    s = edit(R, s, give)
    s = with_tableau(R, s, seat, rows)
    return s.window_score(seat, 0, 0)


@pytest.mark.parametrize("rows, expected", [
    ([["A", "A", "I"]], (3, 3)),                      # A next to A
    ([["A", "I", "A"]], (3, 0)),
    ([["A", "I"], ["A", None]], (3, 3)),              # one above the other
    ([["A", None, None], [None, "A", "I"]], (3, 0)),  # diagonal is not adjacent
    ([["A", "I"]], (0, 0)),                           # the main letters first
])
def test_plate_adjacent(rows, expected):
    assert scored(1, 1, rows)[:2] == expected          # plate 1: A A I, A next to A +3


@pytest.mark.parametrize("rows, expected", [
    ([["I", "O", "U"]], (3, 2)),                      # plate 5: I O U, no A +2
    ([["I", "O", "U"], ["A", None, None]], (3, 0)),
])
def test_plate_absent(rows, expected):
    assert scored(5, 1, rows)[:2] == expected


@pytest.mark.parametrize("plate, rows, expected", [
    (9, [["A", "O", "O"], ["I", None, None]], (4, 3)),          # A top-left
    (9, [["O", "O", "A"], ["I", None, None]], (4, 0)),
    (10, [["U", "A", "I"]], (3, 3)),                             # I top-right
    (11, [["A", "U", "O"], [None, None, None], ["O", None, None]], (4, 3)),   # O bottom-left
    (12, [["U", "O", "I"], [None, None, None], [None, None, "U"]], (3, 3)),  # U bottom-right
    (12, [["U", "O", "I"], [None, None, None], ["U", None, None]], (3, 0)),
])
def test_plate_corner(plate, rows, expected):
    assert scored(plate, 1, rows)[:2] == expected


@pytest.mark.parametrize("plate, rows, expected", [
    (13, [["O", "A", "U"]], (3, 2)),                  # A in the middle column
    (13, [["A", "O", "U"]], (3, 0)),
    (13, [["O", None, "U"], [None, None, None], [None, "A", None]], (3, 2)),
    (15, [["A", None, "U"], [None, None, "O"]], (3, 2)),   # O in the middle row
    (15, [["A", "O", "U"]], (3, 0)),
    (15, [["A", None, None], [None, "O", None]], (0, 0)),  # no main letters, no bonus
])
def test_plate_middle_column_and_row(plate, rows, expected):
    assert scored(plate, 1, rows)[:2] == expected


@pytest.mark.parametrize("frame, rows, ink", [
    (1, [["I", "blue", "O"]], 3),                     # blue in the top row
    (1, [["I", "O", "U"], [None, "blue", None]], 0),
    (2, [["I", None, None], [None, None, None], ["blue", None, None]], 3),   # left column
    (3, [["I", None, None], [None, None, "blue"]], 2),                      # middle row
    (7, [["I", None, None], [None, None, None], [None, "red", None]], 2),   # middle column
    (6, [["I", None, "red"]], 3),                                           # right column
    (13, [["I", None, None], [None, None, None], [None, None, "grey"]], 3),  # bottom row
    (13, [["grey", None, None]], 0),
])
def test_frame_ink_row_or_column(frame, rows, ink):
    assert scored(1, frame, rows)[2] == ink


@pytest.mark.parametrize("frame, rows, points", [
    (13, [["typesetting", "woodcutting"]], 4),
    (13, [["typesetting", None, "*"]], 0),
    (1, [["I", None, "typesetting"]], 2),
    (14, [["illuminating"]], 2),
])
def test_frame_specialty(frame, rows, points):
    assert scored(1, frame, rows)[3] == points


def test_bonus_markers_two_then_one_over_three_frames():
    """A marker counts its symbol in all three frames; a second marker on a symbol already
    marked goes 1 side up: 2 + 1 = 3 points a symbol."""
    R = rules(2)
    s = setup(R, tiles=["Guillard", "Caxton"])
    red = SYM["red"]

    def frames(d):
        p = d["players"][0]
        # frames 1 and 8 both have a red slot (slot 1), frame 9 has none
        for r, (f, pl) in enumerate(((1, 1), (8, 2), (9, 3))):
            p["order_frame"][r], p["order_plate"][r] = f - 1, pl - 1
            d["frame_deck"] &= ~(1 << (f - 1))
            d["plate_deck"] &= ~(1 << (pl - 1))
        p["marker"][0 * 2 + 0] = 2      # round 1: red, 2
        p["marker"][1 * 2 + 0] = 1      # round 2: red again, 1
        p["markers"] = 1
        p["closed"][0] = [red, red, SYM["A"], -1, -1, -1, -1, -1, -1]
        p["closed"][2] = [red, SYM["blue"], -1, -1, -1, -1, -1, -1, -1]
    assert cat().frames[0].bonus[0] == "red" and cat().frames[7].bonus[0] == "red"
    s = edit(R, s, frames)
    assert s.score_breakdown(0)["bonus"] == 3 * 3
    assert s.final_scores()[0] == 9


def test_bonus_marker_values_when_placed():
    """After the marked step each player puts a 1/2 marker on a slot of this round's frame:
    2 on a symbol not marked yet, 1 on a symbol already marked."""
    R = rules(2)
    s = setup(R, tiles=["Guillard", "Caxton"])
    deal_orders(s, [(1, 1), (2, 2), (3, 3)])
    s.apply(order(1))
    play_until(s, "bonus markers")
    assert s.to_dict()["step"] + 1 == cat().time_track["basic"].bonus_after[0]
    assert s.current_player() == 0
    assert legal_in(s, A["MARKER"], 6) == [A["MARKER"], A["MARKER"] + 1]
    s.apply(A["MARKER"] + 0)                     # slot 1: red
    d = s.to_dict()
    assert d["players"][0]["marker"][:2] == [2, 0] and d["players"][0]["markers"] == 2
    # Round 2 with frame 8 (red in slot 1 too): the second red marker goes 1 side up.
    play_until(s, "deal orders")
    deal_orders(s, [(8, 4), (10, 5), (11, 6)])
    if s.current_player() != 0:
        s.apply(order(10))
    s.apply(order(8))
    play_until(s, "bonus markers")
    while s.current_player() != 0:
        s.apply(first_main(s))
    s.apply(A["MARKER"] + 0)
    assert s.to_dict()["players"][0]["marker"][2:4] == [1, 0]


def test_round_scoring_adds_to_fame_and_the_end_bonus_comes_on_top():
    R, s = johns_state()
    s.apply(window(0, 0))
    assert s.final_scores()[0] == 13 + s.score_breakdown(0)["bonus"]
