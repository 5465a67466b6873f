"""Printing Press's scoring on hand-made positions, every term and every "all / both /
either / one, both or neither" condition in both directions, with the expected numbers
worked out by hand from the rulebook (pp.11-13, 19) in the comments; and the seat-order
tie-break. Rulebook: seeds/printing-press-rulebook-en.txt; rulings:
docs/printing_press/rulings.md.
"""
import pytest

from pp_helpers import ABILITY, EMPTY, ICON, SYM, TOKEN, deal_cards, deal_orders, first_main, rules, setup
from test_pp_rules import scored


# ---------------------------------------------------------------------------------------
# A closed frame's points: plate main, plate additional, frame ink, frame specialty.
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("rows, expected", [
    # Plate 16 (p.12, John's): A A U I for 4, and U in the middle row for 2 more.
    ([["A", "A", "I"], [None, "U", None]], (4, 2)),        # all letters, U in the middle row: 4 + 2
    ([["A", "A", "I"], [None, None, None], ["U", None, None]], (4, 0)),   # main only: 4
    ([["A", "I", None], [None, "U", None]], (0, 0)),       # one A of two: no main, so no additional
    ([["A", "A", None], [None, "U", None]], (0, 0)),       # no I: the main needs "all the indicated letters"
])
def test_the_plates_main_and_additional_conditions(rows, expected):
    """p.12: "If all the indicated letters are visible" (as many of each as printed);
    "If the player fulfills the main objective and the additional objective"."""
    assert scored(16, 13, rows)[:2] == expected


@pytest.mark.parametrize("rows, expected", [
    # Frame 13 (p.13, John's): grey in the bottom row 3; typesetting and woodcutting 4.
    ([["A", None, None], [None, None, None], ["grey", "typesetting", "woodcutting"]], (3, 4)),  # both
    ([["A", None, None], [None, None, None], ["grey", "typesetting", None]], (3, 0)),   # ink only: one specialty of two
    ([["typesetting", "woodcutting", "grey"]], (0, 4)),    # specialties only: grey not in the bottom row
    ([["A", "woodcutting", None]], (0, 0)),                # neither
    # The ninth square (bottom right) counts like the others.
    ([["typesetting", None, None], [None, None, None], [None, None, "woodcutting"]], (0, 4)),
    ([["A", None, None], [None, None, None], [None, None, "grey"]], (3, 0)),
])
def test_the_frames_two_conditions_are_independent(rows, expected):
    """p.13: "These conditions are independent: a player may fulfill one, both, or
    neither of them"; two specialties printed: both must be in the frame (John's 4 points
    "because his frame has typesetting and woodcutting symbols")."""
    assert scored(1, 13, rows)[2:] == expected


@pytest.mark.parametrize("plate, rows, expected", [
    (12, [["U", "O", "I"], [None, None, None], [None, None, "U"]], (3, 3)),   # U in the ninth square: 3 + 3
    (1, [["I", None, None], [None, None, "A"], [None, None, "A"]], (3, 3)),   # A above A, the lower in the ninth
    (5, [["I", "O", None], [None, None, None], [None, None, "U"]], (3, 2)),   # U only in the ninth; no A: 3 + 2
    (5, [["I", "O", "U"], [None, None, None], [None, None, "A"]], (3, 0)),    # an A in the ninth: not absent
])
def test_the_ninth_square_counts_for_the_plate(plate, rows, expected):
    assert scored(plate, 1, rows)[:2] == expected


# ---------------------------------------------------------------------------------------
# The end bonus (p.11): each instance of a marked symbol in all 3 frames, times the values
# of the markers on it.
# ---------------------------------------------------------------------------------------
def _end_of_game(frames, markers, closed, fame, bag_out=()):
    """Seat 0 of a 2-player game without characters with its three orders (frame,
    plate numbers), markers {(round, slot): value}, closed frames (9 cells each) and
    fame written in."""
    R = rules(2, characters=False)
    s = setup(R)
    d = s.to_dict()
    p = d["players"][0]
    for r, (f, pl) in enumerate(frames):
        p["order_frame"][r], p["order_plate"][r] = f - 1, pl - 1
        d["frame_deck"] &= ~(1 << (f - 1))
        d["plate_deck"] &= ~(1 << (pl - 1))
    for (r, j), v in markers.items():
        p["marker"][r * 2 + j] = v
    p["markers"] = 3 - len(markers)
    p["closed"] = closed
    p["fame"] = fame
    for x in bag_out:
        d["bag"][x] -= 1          # a token shown in a closed frame is out of the bag
    return R.state_from_dict(d)


RED, ILL, A_, I_ = SYM["red"], SYM["illuminating"], SYM["A"], SYM["I"]
E = EMPTY
# Frames: 1 (bonus slots red, typesetting), 8 (red, illuminating), 13 (blue, illuminating).
FRAMES = [(1, 1), (8, 2), (13, 3)]
CLOSED = [
    [RED, A_, A_, I_, ICON, E, E, E, ILL],                  # round 1: red first, illuminating ninth
    [E, E, E, E, ABILITY | ILL, E, E, TOKEN | ICON, RED],   # round 2: Guillard's illuminating, red ninth
    [E, E, E, E, TOKEN | RED, E, SYM["blue"], E, ILL],      # round 3: a red token, illuminating ninth
]


def test_the_end_bonus_counts_every_instance_in_all_three_frames():
    """Markers: round 1's slot 1 (red) a "2"; round 2's slot 2 (illuminating) a "2";
    round 3's slot 2 (illuminating again, "already has a '2'") a "1".
    red: round 1 square 1, round 2 square 9, round 3 square 5 (a token): 3 x 2 = 6;
    illuminating: round 1 square 9, round 2 square 5 (Guillard's token), round 3 square 9:
    3 x (2 + 1) = 9; blue (round 3) has no marker: 0; the icons and the face-down token
    show no symbol. Bonus 6 + 9 = 15; with 20 fame, 35.
    Were the ninth square left out: red 2 x 2 + illuminating 1 x 3 = 7; were the markers
    on second slots left out: 6; were the "1" left out: 6 + 6 = 12."""
    s = _end_of_game(FRAMES, {(0, 0): 2, (1, 1): 2, (2, 1): 1}, CLOSED, 20, bag_out=[RED])
    assert s.problems() == []
    assert s.score_breakdown(0)["bonus"] == 15
    assert s.final_scores()[0] == 35


def test_a_marker_counts_only_its_own_symbol():
    """The same frames with one marker, a "2" on round 1's slot 2 (typesetting): no
    typesetting in any frame, so no bonus (red, on round 1's slot 1, has no marker)."""
    s = _end_of_game(FRAMES, {(0, 1): 2}, CLOSED, 20, bag_out=[RED])
    assert s.score_breakdown(0)["bonus"] == 0 and s.final_scores()[0] == 20


def test_two_markers_on_one_frame_both_count():
    """Gutenberg (side B) puts his extra marker 1 side up on the other slot of the same
    frame: round 2's frame 8 with red "2" on slot 1 and illuminating "1" on slot 2.
    red: 3 instances x 2 = 6; illuminating: 3 x 1 = 3; bonus 9."""
    s = _end_of_game(FRAMES, {(1, 0): 2, (1, 1): 1}, CLOSED, 0, bag_out=[RED])
    assert s.score_breakdown(0)["bonus"] == 9


# ---------------------------------------------------------------------------------------
# Initiative ties without characters: seat order.
# ---------------------------------------------------------------------------------------
def test_ties_without_characters_go_by_seat_order():
    """All three at 0: seat 0 chooses an order first, then 1, then 2, who, last, takes a
    cube (p.9). Select Cards: seat 2 (1) first, then seats 0 and 1, tied at 0, in seat
    order. Reversed, seat 2 would choose first and seat 1 take a card before seat 0."""
    R = rules(3, characters=False)
    s = setup(R)
    deal_orders(s, [(1, 1), (2, 2), (3, 3), (4, 4)])
    seen = []
    while s.phase == "Select Orders":
        seen.append(s.current_player())
        s.apply(first_main(s))
    assert seen == [0, 1, 2]
    assert [s.to_dict()["players"][q]["cubes"] for q in range(3)] == [0, 0, 1]
    deal_cards(s, [10, 20, 30, 40])
    assert s.to_dict()["turn_order"][:3] == [2, 0, 1]


def test_the_solo_score_sheet_places_the_player_second_when_the_automa_wins():
    """Solo, the automa wins unless the player has more points (its verdict): the score
    sheet's place says so, 1 only for a win, 2 where the automa won or tied."""
    import random

    from gutenberg_ai import core_of, games
    from gutenberg_ai.games.printing_press import view
    g = games.get("printing-press")
    seen = set()
    for seed in range(40):
        rng = random.Random(seed)
        state = g.load(players=1, rounds=1).new_initial_state()
        while not state.is_terminal():      # the heuristic's moves, or random ones (some wins, some losses)
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
            elif seed % 2:
                state.apply_action(g.core.heuristic_move(core_of(state), seed=rng.randrange(1 << 30)))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        final = core_of(state)
        mine, automa = final.final_scores()[0], final.automa_score()
        (row,) = view.score_rows(final)
        assert row["place"] == (1 if mine > automa else 2), (seed, mine, automa, row)
        assert view.verdict(final, ["you"]).startswith("You beat" if mine > automa else ("The automa" if automa > mine else "A tie"))
        seen.add(row["place"])
        if seen == {1, 2}:
            break
    assert seen == {1, 2}, seen
