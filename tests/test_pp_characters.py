"""The five characters, both sides (rulebook p.18), on hand-made positions."""
import pytest

from gutenberg_ai.games.printing_press import _core, names
from pp_helpers import (
    A, ABILITY, N, SYM, at_place, cat, caxton_b_to_choose, deal_cards, deal_orders, first_main, legal_in,
    order, place, play_until, row_card, rules, setup, token_at, under, window,
    with_tableau,
)

IllegalActionError = _core.IllegalActionError


def player(s, seat):
    return s.to_dict()["players"][seat]


def to_markers(s, seat):
    play_until(s, "bonus markers")
    while s.current_player() != seat:
        s.apply(first_main(s))
    return s

# -- Johannes Gutenberg ------------------------------------------------------------------
def test_gutenberg_side_a_has_the_1_3_marker_instead_of_a_1_2():
    R = rules(2)
    s = setup(R, tiles=["Gutenberg", "Caxton"], sides=["A", "A"])
    assert (player(s, 0)["markers"], player(s, 0)["marker13"]) == (2, 1)
    assert (player(s, 1)["markers"], player(s, 1)["marker13"]) == (3, 0)
    to_markers(s, 0)
    assert legal_in(s, A["MARKER"], 6) == [A["MARKER"], A["MARKER"] + 1, A["MARKER"] + 2, A["MARKER"] + 3]
    s.apply(A["MARKER"] + 2 * 1 + 1)          # the 1/3 marker on slot 2, a symbol not marked: 3
    p = player(s, 0)
    assert p["marker"][:2] == [0, 3] and (p["markers"], p["marker13"]) == (2, 0)


def test_gutenberg_side_b_places_the_extra_marker_1_side_up_with_a_normal_one():
    R = rules(2)
    s = setup(R, tiles=["Gutenberg", "Caxton"], sides=["B", "A"])
    assert (player(s, 0)["markers"], player(s, 0)["marker13"]) == (3, 1)
    to_markers(s, 0)
    assert legal_in(s, A["MARKER"], 6) == [A["MARKER"], A["MARKER"] + 1, A["MARKER"] + 4, A["MARKER"] + 5]
    s.apply(A["MARKER"] + 2 * 2 + 0)          # a 1/2 marker on slot 1, the 1/3 on slot 2
    p = player(s, 0)
    assert p["marker"][:2] == [2, 1] and (p["markers"], p["marker13"]) == (2, 0)
    assert s.problems() == []


def typesetting_frames(s, first_marker: int) -> None:
    """Seat 0 of a 2-player game takes frame 1 (red, typesetting) in round 1 and places
    `first_marker` there, then frame 10 (blue, typesetting) in round 2: s at its markers."""
    def choose(mine, other):
        while s.phase == "Select Orders":
            s.apply(order(mine if s.current_player() == 0 else other))
    deal_orders(s, [(1, 1), (2, 2), (3, 3)])
    choose(1, 2)
    to_markers(s, 0)
    s.apply(first_marker)
    play_until(s, "deal orders")
    deal_orders(s, [(10, 4), (11, 5), (12, 6)])
    choose(10, 11)
    to_markers(s, 0)


def test_a_marker_on_a_symbol_with_only_gutenberg_s_extra_1_goes_2_side_up():
    """"a bonus marker is placed with the '2' side up": only a symbol that "already has a
    '2' bonus marker" takes the next one 1 side up, not one with the extra marker's 1."""
    R = rules(2)
    s = setup(R, tiles=["Gutenberg", "Caxton"], sides=["B", "A"])

    typesetting_frames(s, A["MARKER"] + 2 * 2 + 0)   # a 1/2 on red, the extra 1 on typesetting
    assert cat().frames[0].bonus[1] == cat().frames[9].bonus[1] == "typesetting"
    s.apply(A["MARKER"] + 0 * 2 + 1)              # a 1/2 on typesetting: 2, not 1
    assert player(s, 0)["marker"][:4] == [2, 1, 0, 2]


def test_gutenberg_side_a_1_3_marker_on_a_symbol_already_marked_goes_1_side_up():
    """p.11 "If a player places a bonus marker to mark a symbol that already has a '2'
    bonus marker (from a previous round), then this second bonus marker is placed with the
    '1' side up"; the 1/3 marker (p.18 "replace one of your 1/2 bonus markers with the 1/3
    bonus marker") follows the same rule with its sides: 1 on typesetting, marked "2" in
    round 1; at the end each typesetting scores 2 + 1 (rulings.md)."""
    R = rules(2)
    s = setup(R, tiles=["Gutenberg", "Caxton"], sides=["A", "A"])

    typesetting_frames(s, A["MARKER"] + 0 * 2 + 1)   # a 1/2 on typesetting: 2
    s.apply(A["MARKER"] + 1 * 2 + 1)              # the 1/3 on typesetting: 1, not 3
    p = player(s, 0)
    assert p["marker"][:4] == [0, 2, 0, 1] and (p["markers"], p["marker13"]) == (1, 0)


# -- Helena Ungler -----------------------------------------------------------------------
def test_ungler_side_a_slides_a_card_partly_under_once():
    R = rules(2)
    x = row_card(lambda c: "blank" not in c.squares)
    s, seat = at_place(R, x, [["A", "I", "O"]], tiles=["Caxton", "Ungler"], sides=["A", "A"])
    assert seat == 1 and s.character(1) == "Helena Ungler"
    assert under(0, 1) in s.legal_actions() and under(0, 0) in s.legal_actions()
    assert under(1, 0) not in s.legal_actions()     # nothing to slide under there
    # At column 0 the whole card lies under A, I, O: the move does not say "partly".
    assert "under the occupied squares it meets" in s.action_to_string(under(0, 0))
    s.apply(under(0, 1))
    p = player(s, 1)
    last = names.SQUARES.index(cat().cards[x - 1].squares[2])
    assert p["grid"][0][:4] == [SYM["A"], SYM["I"], SYM["O"], last]   # the card is under I and O
    assert p["ability"] == 0
    play_until(s, "deal cards")
    deal_cards(s, [80, 81, 82])
    while s.current_player() != 1:
        s.apply(first_main(s))
    s.apply(first_main(s))
    assert not legal_in(s, A["UNDER"], _core.NUM_ANCHORS)


def test_without_ungler_no_card_goes_under():
    R = rules(2)
    s, seat = at_place(R, row_card(), [["A", "I", "O"]])
    assert not legal_in(s, A["UNDER"], _core.NUM_ANCHORS)
    with pytest.raises(IllegalActionError, match="Ungler"):
        s.apply(under(0, 1))


@pytest.mark.parametrize("orientation, expect", [(1, [0, 1, 2]), (3, [2, 1, 0]), (2, None)])
def test_ungler_side_b_orients_a_card_freely_once(orientation, expect):
    R = rules(2)
    x = row_card(lambda c: c.squares[0] != c.squares[2] and "blank" not in c.squares)
    s, seat = at_place(R, x, [["A", "I", "O"]], tiles=["Caxton", "Ungler"], sides=["A", "B"])
    assert place(0, 1, 0) in s.legal_actions()
    for o in (1, 2, 3):
        assert place(o, 1, 0) in s.legal_actions()
    squares = [names.SQUARES.index(q) for q in cat().cards[x - 1].squares]
    s.apply(place(orientation, 1, 0))
    p = player(s, 1)
    if expect is not None:
        assert [p["grid"][1 + i][0] for i in range(3)] == [squares[i] for i in expect]
    else:
        assert p["grid"][1][:3] == squares[::-1]
    assert p["ability"] == 0


def test_ungler_side_b_printed_orientation_keeps_the_token():
    R = rules(2)
    s, seat = at_place(R, row_card(), [["A", "I", "O"]], tiles=["Caxton", "Ungler"], sides=["A", "B"])
    # The menu says which placements spend the token: every one but the printed orientation.
    assert not s.action_to_string(place(0, 1, 0)).endswith("(uses Ungler's token)")
    assert all(s.action_to_string(place(o, 1, 0)).endswith("(uses Ungler's token)") for o in (1, 2, 3))
    s.apply(place(0, 1, 0))
    assert player(s, 1)["ability"] == 1

# -- William Caxton ----------------------------------------------------------------------
def test_caxton_side_a_takes_a_fourth_setup_token():
    R = rules(2)
    s = setup(R, tiles=["Guillard", "Caxton"], sides=["A", "A"])
    assert [player(s, seat)["n_setup"] for seat in (0, 1)] == [3, 4]
    assert player(s, 1)["ability"] == 0


def test_caxton_side_b_exchanges_two_hand_tokens_for_one_of_choice():
    s = caxton_b_to_choose()
    assert s.current_player() == 1
    # A free action even before the tableau has a card (no token is placed).
    assert legal_in(s, A["CAXTON_GIVE"], 6) == [A["CAXTON_GIVE"] + k for k in (0, 1, 3)]
    bag = s.to_dict()["bag"]
    s.apply(A["CAXTON_GIVE"] + 0)               # slots 1 and 2: red and U back to the bag
    d = s.to_dict()
    assert d["bag"][SYM["red"]] == bag[SYM["red"]] + 1 and d["bag"][SYM["U"]] == bag[SYM["U"]] + 1
    takes = legal_in(s, A["CAXTON_TAKE"], N)
    assert takes == [A["CAXTON_TAKE"] + x for x in range(N) if d["bag"][x] > 0]
    s.apply(A["CAXTON_TAKE"] + SYM["typesetting"])
    p = player(s, 1)
    assert p["slot"] == [4, 4, 1, 0, 1] and p["hand"][4] == SYM["typesetting"] and p["ability"] == 0
    assert s.to_dict()["bag"][SYM["typesetting"]] == bag[SYM["typesetting"]] - 1
    assert not legal_in(s, A["CAXTON_GIVE"], 6)
    assert s.phase == "Select Orders" and s.current_player() == 1
    assert s.problems() == []

# -- Charlotte Guillard ------------------------------------------------------------------
def guillard_at_close(side, frame):
    R = rules(2)
    s = setup(R, tiles=["Guillard", "Caxton"], sides=[side, "A"])
    deal_orders(s, [(frame, 1), (frame % 16 + 1, 2), ((frame + 1) % 16 + 1, 3)])
    s.apply(order(frame))
    play_until(s, "Close Frames")
    return R, with_tableau(R, s, 0, [["A", "I", "O"], [None, "U", None]])


def test_guillard_side_a_token_is_an_ink_of_her_choice():
    R, s = guillard_at_close("A", 6)                # frame 6: red in the right column, 3
    assert legal_in(s, A["GUILLARD"], N) == [A["GUILLARD"] + x for x in range(4, 8)]
    assert s.window_score(0, 0, 0)[2] == 0
    s.apply(A["GUILLARD"] + SYM["red"])
    assert token_at(1, 2) in s.legal_actions()
    s.apply(token_at(1, 2))
    p = player(s, 0)
    assert p["grid"][1][2] == ABILITY | SYM["red"] and p["ability"] == 0
    assert s.window_score(0, 0, 0)[2] == 3        # it counts as that ink
    assert not legal_in(s, A["GUILLARD"], N)
    assert s.problems() == []


def test_guillard_side_b_token_is_a_specialty_of_her_choice():
    R, s = guillard_at_close("B", 14)               # frame 14: illuminating, 2
    assert legal_in(s, A["GUILLARD"], N) == [A["GUILLARD"] + x for x in range(8, 12)]
    s.apply(A["GUILLARD"] + SYM["illuminating"])
    s.apply(token_at(1, 0))
    assert s.window_score(0, 0, 0)[3] == 2
    s.apply(window(0, 0))
    assert player(s, 0)["closed"][0][3] == ABILITY | SYM["illuminating"]

# -- Yolande Bonhomme --------------------------------------------------------------------
def test_bonhomme_side_a_goes_first_once():
    R = rules(2)
    s = setup(R, tiles=["Guillard", "Bonhomme"], sides=["A", "A"])
    deal_orders(s, [(1, 1), (2, 2), (3, 3)])
    assert s.current_player() == 1 and s.legal_actions() == [A["YES"], A["NO"]]
    s.apply(A["YES"])
    assert s.current_player() == 1 and s.phase == "Select Orders"   # before Guillard (5 > 4)
    s.apply(first_main(s))
    s.apply(first_main(s))
    d = s.to_dict()
    assert [p["cubes"] for p in d["players"][:2]] == [1, 0]           # Guillard was last
    assert player(s, 1)["ability"] == 0
    deal_cards(s, [1, 2, 3])
    assert s.to_dict()["asking"] == -1                              # no question any more
    assert s.current_player() == 0


def test_bonhomme_side_a_may_decline():
    R = rules(2)
    s = setup(R, tiles=["Guillard", "Bonhomme"], sides=["A", "A"])
    deal_orders(s, [(1, 1), (2, 2), (3, 3)])
    s.apply(A["NO"])
    assert s.current_player() == 0
    s.apply(first_main(s))
    s.apply(first_main(s))
    deal_cards(s, [1, 2, 3])
    assert s.current_player() == 1 and s.legal_actions() == [A["YES"], A["NO"]]   # asked again
    assert player(s, 1)["ability"] == 1


def test_bonhomme_side_b_takes_a_cube_for_a_round():
    R = rules(2)
    s = setup(R, tiles=["Guillard", "Bonhomme"], sides=["A", "B"])
    assert s.to_dict()["phase"] == 5 and s.current_player() == 1    # at the start of the round
    s.apply(A["YES"])
    d = s.to_dict()
    assert d["players"][1]["cubes"] == 1 and d["cubes_left"] == 6 and d["players"][1]["ability"] == 0
    deal_orders(s, [(1, 1), (2, 2), (3, 3)])
    assert s.current_player() == 1                                  # initiative 1 against 0
    assert s.initiative(1) == 1
    play_until(s, "Close Frames")
    assert s.to_dict()["players"][1]["cubes"] == 0                  # cubes go back at Close Frames
    play_until(s, "deal orders")
    assert s.to_dict()["asking"] == -1
