"""The rules of Gutenberg, checked on the rulebook's worked examples and on hand-made
positions (see positions.py), one rule at a time, with exact numbers.

Seats are numbered from 0; unless a test says otherwise seat 0 holds the first player
token. Rulebook pages refer to the English edition (seeds/gutenberg-rulebook-en.txt);
rulings to /work/shared/gutenberg/RULINGS.md.
"""
from itertools import product

import pytest

from gutenberg_ai import _core
from positions import (
    A, C, FM, MORE_PP, MORE_PR, MORE_RR, PASS, PD, PH, REWARD_GUILDERS, REWARD_INKS,
    REWARD_ORDER, REWARD_SPECIALTY, SUB, at_fulfil, at_phase, at_turn, bits, blank, board, buy,
    catalogue, chance_all, choose_ink, choose_letter, develop, discard, find_gear, fulfil,
    fulfil_position, give_order, install_gear, me, only_in_deck, patron_card, patron_reward,
    pending, place, play_until, player, reorient, rules, setup_to_plan, take_gear, take_inks,
    take_printing, take_refinement, to_discard, turn_position, up, use_gear,
)

IllegalActionError = _core.IllegalActionError
plan_index = _core.plan_index
plan_of = _core.plan_of
BLUE, SILVER, GOLD, RED = range(4)
A_, I_, O_, U_ = range(4)
TYPESETTING, WOODCUTTING, BINDING, ILLUMINATING = range(4)


def legal_in(s, lo, hi):
    return [a for a in s.legal_actions() if lo <= a < hi]


def choices(s):
    """The legal actions other than pass/decline (rewards may be declined)."""
    return [a for a in s.legal_actions() if a != PASS]


def buys(s):
    return legal_in(s, A["BUY"], A["BUY"] + 4)


def gear_uses(s):
    return legal_in(s, A["USE_GEAR"], A["USE_GEAR"] + 3)


def next_round(R, d, last_seat=None):
    """Finish the round from hand-made dict `d`: `last_seat` (the last in the fulfil
    order) has no orders and ends the round; then the board is refilled."""
    n = d["num_seats"]
    if last_seat is None:
        last_seat = (d["first_player"] - 1) % n
    s = at_fulfil(R, d, last_seat)
    assert s.legal_actions() == [PASS]
    s.apply(PASS)
    return chance_all(s)


# =======================================================================================
# 1. The rulebook's worked examples
# =======================================================================================
def test_example_anna_tom_kate_action_order():
    """p.7: Anna (first player, 7 markers), Tom (8), Kate (9). The table gives the order
    per action; the plans below are the only ones consistent with table and text (Kate
    third at inks "likewise" means she has fewer inks markers than Anna and Tom)."""
    R = rules(3)
    s = setup_to_plan(R, seed=7)
    anna, tom, kate = 0, 1, 2
    assert [me(s, p)["markers"] for p in (anna, tom, kate)] == [7, 8, 9]
    plans = {anna: (2, 2, 1, 0, 2), tom: (2, 2, 2, 1, 1), kate: (1, 1, 3, 3, 1)}
    for seat in (anna, tom, kate):
        assert s.current_player() == seat
        s.apply(plan_index(plans[seat]))
    acted = {}
    while s.phase == "execute":
        d = s.to_dict()
        if d["n_pending"] == 0:
            acted.setdefault(d["row"], []).append(s.current_player())
        s.apply(PASS)
    assert acted == {
        0: [anna, tom, kate],      # take orders: 2, 2, 1 (Anna before Tom: seat order)
        1: [anna, tom, kate],      # take inks: likewise
        2: [kate, tom, anna],      # develop specialties: 3, 2, 1
        3: [kate, tom],            # improve: Anna has no marker there, no turn
        4: [anna, tom, kate],      # patronage: 2, then Tom and Kate tied at 1
    }


def test_example_john_takes_inks_from_a_partly_taken_set():
    """p.8: John is last to take inks; a previous player took the first ink of the
    rightmost set. John takes its blue and gold: 1 + 2 = 3 guilders."""
    R = rules(2)
    d = blank(R)
    board(d, inks=[("silver", "red", "gold"), ("blue", "blue", "silver"), (None, "blue", "gold")])
    player(d, 0, inks={"red": 1})          # the previous player's free first ink
    player(d, 1, guilders=5)
    s = at_turn(R, d, "inks", [0, 1], turn=1)
    assert s.current_player() == 1
    # From the partly taken set: its 2nd ink alone (1 guilder) or 2nd + 3rd (3 guilders).
    assert take_inks(2, 1) in s.legal_actions() and take_inks(2, 2) in s.legal_actions()
    assert take_inks(2, 3) not in s.legal_actions()
    s.apply(take_inks(2, 2))
    john = me(s, 1)
    assert john["guilders"] == 2
    assert john["inks"] == [1, 0, 1, 0]
    # John was last: the other inks on the board went back into the bag.
    assert s.to_dict()["bag"] == [11, 12, 11, 11]
    assert all(c == -1 for sp in s.to_dict()["ink_space"] for c in sp)


def test_example_anna_buys_types():
    """p.13: Anna has A, I, O and buys U then A: 4 + 5 = 9 guilders."""
    R = rules(2)
    d = blank(R, types="AIO", guilders=10)
    board(d, printing=[0, 1, 2], refinement=[0, 1, 2])
    s = at_turn(R, d, "orders", [0, 1])
    s.apply(buy("U"))
    assert me(s, 0)["guilders"] == 6
    s.apply(buy("A"))
    anna = me(s, 0)
    assert anna["guilders"] == 1
    assert anna["types"] == [2, 1, 1, 1]
    # Buying is free: it is still Anna's turn, with the same choices (a 6th type costs 6).
    assert s.current_player() == 0 and s.to_dict()["sub"] == SUB["CHOOSE"]
    assert take_printing(1) in s.legal_actions()
    assert buys(s) == []


def test_example_john_specialty_card():
    """p.9: John takes the typesetting + illuminating card. Typesetting reaches IV: the
    reward track gives an ink of his choice. Illuminating reaches II: nothing, since he
    already had the II reward."""
    R = rules(2)
    d = blank(R)
    board(d, specialty=[2, 0, 5])
    assert catalogue().specialty_cards[2].icons == ("typesetting", "illuminating")
    player(d, 0, levels={"typesetting": 3, "binding": 2, "illuminating": 1})
    assert d["players"][0]["track"] == 1
    s = at_turn(R, d, "specialties", [0, 1])
    s.apply(develop(2))
    john = me(s, 0)
    assert john["levels"] == [4, 0, 2, 2]
    assert john["track"] == 2
    assert [(q["kind"], q["seat"], q["amount"]) for q in pending(s)] == [(PD["INK"], 0, 1)]
    assert s.current_player() == 0
    assert choices(s) == [choose_ink(c) for c in ("blue", "silver", "gold", "red")]
    s.apply(choose_ink("gold"))
    assert me(s, 0)["inks"] == [0, 0, 1, 0]
    assert s.to_dict()["bag"][GOLD] == 11
    assert pending(s) == [] and s.current_player() == 1


def test_example_john_final_score():
    """p.15: 84 fame; 4 guilders give 1; typesetting VI + binding IV + illuminating V
    give 6 + 1 + 3 = 10; 2 patronage cards give 16: 111 in total."""
    R = rules(2)
    d = blank(R, round=6)
    player(d, 0, fame=84, guilders=4, patronage=2,
           levels={"typesetting": 6, "woodcutting": 3, "binding": 4, "illuminating": 5})
    player(d, 1, fame=100, guilders=2)
    s = at_phase(R, d, "TERMINAL")
    assert s.is_terminal()
    assert s.final_scores() == [111, 100]
    assert s.score_breakdown(0) == dict(fame=84, specialties=10, patronage=16, guilders=1, total=111)
    assert s.winners() == [0]


# =======================================================================================
# 2. Setup
# =======================================================================================
@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_board_and_draft_layout(players):
    R = rules(players)
    s = chance_all(R.new_state())
    d = s.to_dict()
    assert s.phase == "draft"
    n_spaces = players + 1
    assert len(bits(d["draft_printing"])) == 2 * players + 2          # 6 / 8 / 10
    assert len(bits(d["draft_refinement"])) == 2 * players + 2
    assert sum(x >= 0 for x in d["printing_space"]) == n_spaces
    assert sum(x >= 0 for x in d["refinement_space"]) == n_spaces
    assert sum(x >= 0 for x in d["specialty_space"]) == n_spaces
    assert sum(x >= 0 for x in d["gear_space"]) == n_spaces
    assert [all(c >= 0 for c in sp) for sp in d["ink_space"]] == [True] * n_spaces + [False] * (5 - n_spaces)
    assert sum(d["bag"]) == 48 - 3 * n_spaces
    assert all(x >= 0 for x in d["patronage_space"])                    # 8 patronage cards
    assert len(bits(d["patronage_box"])) == 16 - 8
    assert d["printing_discard"] == d["refinement_discard"] == 0
    for seat in range(players):
        p = d["players"][seat]
        assert p["guilders"] == 10 and p["fame"] == 0 and sum(p["types"]) == 0
        assert p["levels"] == [0, 0, 0, 0] and p["track"] == 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_draft_order_types_and_markers(players):
    """Draft: one order each from the first player clockwise, then a second order each
    counter-clockwise from the last; the 4 unselected cards go to the discard piles.
    Then each chooses 3 types; the markers are 7, 8, 9, 10 from the first player."""
    R = rules(players)
    s = chance_all(R.new_state())
    draft = s.to_dict()
    pickers = []
    while s.phase == "draft":
        seat = s.current_player()
        pickers.append(seat)
        printing = legal_in(s, A["PRINTING"], A["REFINEMENT"])
        assert printing and len(printing) == len(s.legal_actions())
        s.apply(printing[-1])
        # The same player completes the pair with a refinement card.
        assert s.current_player() == seat
        refinement = legal_in(s, A["REFINEMENT"], A["TYPES"])
        assert refinement and len(refinement) == len(s.legal_actions())
        s.apply(refinement[0])
    assert pickers == list(range(players)) + list(reversed(range(players)))
    d = s.to_dict()
    picked_p = [x for q in d["players"][:players] for x in q["order_printing"] if x >= 0]
    picked_r = [x for q in d["players"][:players] for x in q["order_refinement"] if x >= 0]
    assert len(picked_p) == len(picked_r) == 2 * players
    assert sorted(bits(d["printing_discard"])) == sorted(set(bits(draft["draft_printing"])) - set(picked_p))
    assert sorted(bits(d["refinement_discard"])) == sorted(set(bits(draft["draft_refinement"])) - set(picked_r))
    assert len(bits(d["printing_discard"])) + len(bits(d["refinement_discard"])) == 4
    assert d["draft_printing"] == d["draft_refinement"] == 0
    # Types: each player, from the first, chooses a multiset of 3 letters.
    assert s.phase == "types"
    for seat in range(players):
        assert s.current_player() == seat
        assert len(s.legal_actions()) == 20
        s.apply(A["TYPES"] + 19 - seat)          # 19 is U U U, 18 O U U, ...
    d = s.to_dict()
    assert [sum(q["types"]) for q in d["players"][:players]] == [3] * players
    assert d["players"][0]["types"] == [0, 0, 0, 3]
    assert s.phase == "plan" and s.round == 1
    assert [q["markers"] for q in d["players"][:players]] == [7, 8, 9, 10][:players]
    assert [q["guilders"] for q in d["players"][:players]] == [10] * players


@pytest.mark.parametrize("players", [2, 3])
def test_setup_white_line_gears_only_with_three_or_more(players):
    R = rules(players)
    d = chance_all(R.new_state()).to_dict()
    in_play = bits(d["gear_deck"]) + [x for x in d["gear_space"] if x >= 0]
    white = {g.id for g in catalogue().gears if g.white_line}
    assert len(white) == 8
    if players == 2:
        assert not white & set(in_play) and len(in_play) == 24
    else:
        assert white <= set(in_play) and len(in_play) == 32


# =======================================================================================
# 3. Plan
# =======================================================================================
def allocations(m):
    return {a for a in product(range(7), repeat=5) if sum(a) == m}


@pytest.mark.parametrize("players", [2, 4])
def test_plan_legal_allocations(players):
    R = rules(players)
    s = setup_to_plan(R, seed=3)
    for seat in range(players):
        m = 7 + seat
        legal = s.legal_actions()
        assert {plan_of(a - A["PLAN"]) for a in legal} == allocations(m)
        assert len(legal) == len(allocations(m))
        assert all(A["PLAN"] <= a < A["PRINTING"] for a in legal)   # nothing else (no buying)
        if m < 10:
            assert plan_index((6, 0, 0, 0, m - 6)) in legal
            assert plan_index((2, 2, 2, 2, m - 7)) not in legal       # one marker too many
        else:
            assert plan_index((6, 4, 0, 0, 0)) in legal
        s.apply(legal[len(legal) // 2])
    assert s.phase == "execute"


def test_plan_rows_hold_at_most_six():
    with pytest.raises(ValueError):
        plan_index((7, 0, 0, 0, 0))
    assert all(max(plan_of(i)) <= 6 and 7 <= sum(plan_of(i)) <= 10 for i in range(_core.NUM_PLANS))


def test_plans_are_hidden_until_all_have_committed():
    R = rules(2)
    s = setup_to_plan(R, seed=5)
    s.apply(plan_index((3, 1, 1, 1, 1)))
    assert s.phase == "plan" and s.current_player() == 1
    other_view = s.observation_string(1)
    assert "initiative markers 7: hidden" in other_view
    assert "orders 3" not in other_view
    assert "initiative markers 7: orders 3, inks 1" in s.observation_string(0)
    s.apply(plan_index((0, 2, 2, 2, 2)))
    assert s.phase == "execute"
    view = s.observation_string(1)
    assert "hidden" not in view
    assert "initiative markers 7: orders 3, inks 1, specialties 1, gears 1, patronage 1" in view
    assert "initiative markers 8: orders 0, inks 2, specialties 2, gears 2, patronage 2" in s.observation_string(0)


def test_player_without_markers_on_a_row_has_no_turn():
    R = rules(2)
    s = setup_to_plan(R, seed=11)
    s.apply(plan_index((2, 2, 1, 1, 1)))
    s.apply(plan_index((0, 3, 2, 2, 1)))
    d = s.to_dict()
    assert (d["row"], d["n_turns"], d["turn_order"][0]) == (0, 1, 0)
    s.apply(PASS)
    d = s.to_dict()
    assert d["row"] == 1 and d["turn_order"][:2] == [1, 0]
    assert s.current_player() == 1


# =======================================================================================
# 4. Take orders
# =======================================================================================
def orders_board(R, **kw):
    d = blank(R, **kw)
    board(d, printing=[0, 1, 2], refinement=[3, 4, 5])
    return d


def test_take_orders_a_pair_of_cards():
    R = rules(2)
    s = at_turn(R, orders_board(R), "orders", [0, 1])
    main = [a for a in s.legal_actions() if a < A["BUY"]]
    assert main == [take_printing(0), take_printing(1), take_printing(2)]
    s.apply(take_printing(1))
    d = s.to_dict()
    assert s.current_player() == 0 and d["sub"] == SUB["REFINEMENT"]
    assert s.legal_actions() == [take_refinement(3), take_refinement(4), take_refinement(5)]
    s.apply(take_refinement(4))
    p = me(s, 0)
    assert (p["order_printing"][0], p["order_refinement"][0]) == (1, 4)
    d = s.to_dict()
    assert d["printing_space"][:3] == [0, -1, 2] and d["refinement_space"][:3] == [3, -1, 5]
    # The next player chooses among what is left.
    assert s.current_player() == 1
    assert [a for a in s.legal_actions() if a < A["BUY"]] == [take_printing(0), take_printing(2)]


def test_take_orders_with_four_orders_discards_one():
    R = rules(2)
    d = orders_board(R)
    for k, (pr, rf) in enumerate([(10, 20), (11, 21), (12, 22), (13, 23)]):
        give_order(d, 0, pr, rf)
    s = at_turn(R, d, "orders", [0, 1])
    s.apply(take_printing(2))
    s.apply(take_refinement(5))
    assert s.to_dict()["sub"] == SUB["DISCARD"] and s.current_player() == 0
    assert s.legal_actions() == [discard(k) for k in range(4)]
    s.apply(discard(1))
    p = me(s, 0)
    assert p["order_printing"] == [10, 2, 12, 13]
    assert p["order_refinement"] == [20, 5, 22, 23]
    d = s.to_dict()
    assert bits(d["printing_discard"]) == [11] and bits(d["refinement_discard"]) == [21]


def test_take_orders_leftovers_discarded_at_end_of_row():
    R = rules(2)
    d = orders_board(R)
    s = at_turn(R, d, "orders", [0])
    s.apply(take_printing(0))
    s.apply(take_refinement(5))
    d = s.to_dict()
    assert d["printing_space"] == [-1] * 5 and d["refinement_space"] == [-1] * 5
    assert bits(d["printing_discard"]) == [1, 2]
    assert bits(d["refinement_discard"]) == [3, 4]
    assert me(s, 0)["order_printing"][0] == 0


def test_take_orders_needs_both_kinds_of_card():
    R = rules(2)
    d = blank(R)
    board(d, printing=[0, 1])
    s = at_turn(R, d, "orders", [0, 1])
    assert legal_in(s, A["PRINTING"], A["TYPES"]) == []


# =======================================================================================
# 5. Take inks
# =======================================================================================
def ink_board(R, guilders=10):
    d = blank(R, guilders=guilders)
    board(d, inks=[("blue", "silver", "gold"), (None, "red", "blue"), ("red", "red", "red")])
    return d


@pytest.mark.parametrize("k,cost,inks", [(1, 0, [1, 0, 0, 0]), (2, 1, [1, 1, 0, 0]), (3, 3, [1, 1, 1, 0])])
def test_take_inks_cost_by_position(k, cost, inks):
    R = rules(2)
    s = at_turn(R, ink_board(R), "inks", [0, 1])
    s.apply(take_inks(0, k))
    assert me(s, 0)["guilders"] == 10 - cost
    assert me(s, 0)["inks"] == inks
    assert s.to_dict()["ink_space"][0] == [-1] * k + [BLUE, SILVER, GOLD][k:]


def test_take_inks_left_to_right_in_a_partly_taken_set():
    R = rules(2)
    s = at_turn(R, ink_board(R), "inks", [0, 1])
    # One ink from set 2 is its centre ink (red, 1 guilder), never the rightmost alone.
    s.apply(take_inks(1, 1))
    assert me(s, 0)["inks"] == [0, 0, 0, 1]
    assert me(s, 0)["guilders"] == 9
    assert s.to_dict()["ink_space"][1] == [-1, -1, BLUE]
    # The next player may take the last ink of that set: still 2 guilders.
    assert s.current_player() == 1
    s.apply(take_inks(1, 1))
    assert me(s, 1)["guilders"] == 8 and me(s, 1)["inks"] == [1, 0, 0, 0]


def test_take_inks_must_be_affordable():
    R = rules(2)
    s = at_turn(R, ink_board(R, guilders=2), "inks", [0, 1])
    legal = legal_in(s, A["INKS"], A["SPECIALTY"])
    assert legal == [take_inks(0, 1), take_inks(0, 2), take_inks(1, 1), take_inks(2, 1), take_inks(2, 2)]
    s = at_turn(R, ink_board(R, guilders=0), "inks", [0, 1])
    assert legal_in(s, A["INKS"], A["SPECIALTY"]) == [take_inks(0, 1), take_inks(2, 1)]
    with pytest.raises(IllegalActionError):
        s.apply(take_inks(1, 1))


def test_take_inks_leftovers_return_to_the_bag():
    R = rules(2)
    d = ink_board(R)
    assert d["bag"] == [10, 11, 11, 8]
    s = at_turn(R, d, "inks", [0])
    s.apply(take_inks(2, 3))
    d = s.to_dict()
    assert me(s, 0)["inks"] == [0, 0, 0, 3]
    assert d["bag"] == [12, 12, 12, 9]
    assert all(c == -1 for sp in d["ink_space"] for c in sp)


# =======================================================================================
# 6. Develop specialties
# =======================================================================================
def specialty_turn(R, cards=(0, 6, 5), order=(0, 1), **edits):
    d = blank(R)
    board(d, specialty=list(cards))
    player(d, 0, **edits)
    return at_turn(R, d, "specialties", list(order))


def test_develop_legal_uses_of_each_card():
    R = rules(2)
    s = specialty_turn(R)
    assert legal_in(s, A["SPECIALTY"], A["GEAR"]) == sorted(
        A["SPECIALTY"] + x * 5 + m for x in (0, 6, 5) for m in range(5))


def test_develop_with_the_cards_icons():
    R = rules(2)
    s = specialty_turn(R, levels={"typesetting": 2, "woodcutting": 0})
    s.apply(develop(0))            # typesetting + woodcutting
    assert me(s, 0)["levels"] == [3, 1, 0, 0]
    assert pending(s) == []


def test_develop_one_level_in_any_specialty():
    R = rules(2)
    s = specialty_turn(R, levels={"typesetting": 2})
    s.apply(develop(0, up="illuminating"))     # the card shows typesetting + woodcutting
    assert me(s, 0)["levels"] == [2, 0, 0, 1]


def test_develop_double_icon_gives_two_levels_and_the_iv_reward():
    R = rules(2)
    s = specialty_turn(R, levels={"typesetting": 2})
    assert me(s, 0)["track"] == 1
    s.apply(develop(6))            # typesetting + typesetting
    assert me(s, 0)["levels"] == [4, 0, 0, 0]
    assert me(s, 0)["track"] == 2
    assert [(q["kind"], q["amount"]) for q in pending(s)] == [(PD["INK"], 1)]
    s.apply(choose_ink("red"))
    assert me(s, 0)["inks"] == [0, 0, 0, 1] and s.to_dict()["bag"][RED] == 11


def test_reward_track_ii_gives_an_ink_once():
    R = rules(2)
    s = specialty_turn(R, levels={"typesetting": 1, "woodcutting": 1})
    assert me(s, 0)["track"] == 0
    s.apply(develop(0))
    assert me(s, 0)["levels"][:2] == [2, 2]
    assert me(s, 0)["track"] == 1
    # Two specialties reached II at once: one reward.
    assert [(q["kind"], q["amount"]) for q in pending(s)] == [(PD["INK"], 1)]
    s.apply(choose_ink("silver"))
    assert me(s, 0)["inks"] == [0, 1, 0, 0]
    assert pending(s) == [] and s.current_player() == 1


def test_reward_track_v_gives_an_order():
    R = rules(2)
    s = specialty_turn(R, levels={"binding": 4})
    assert me(s, 0)["track"] == 2
    s.apply(develop(5))            # binding + illuminating
    assert me(s, 0)["levels"] == [0, 0, 5, 1] and me(s, 0)["track"] == 3
    assert [(q["kind"], q["seat"]) for q in pending(s)] == [(PD["ORDER"], 0)]
    assert s.is_chance()           # the draw of 2 printing + 2 refinement cards


def test_reward_track_vi_gives_a_free_type_and_overflow_gives_guilders():
    R = rules(2)
    s = specialty_turn(R, levels={"typesetting": 5})
    assert me(s, 0)["track"] == 3
    s.apply(develop(6))            # V -> VI, then one more level: 3 guilders
    p = me(s, 0)
    assert p["levels"][TYPESETTING] == 6 and p["track"] == 4
    assert p["guilders"] == 13
    assert [(q["kind"], q["amount"]) for q in pending(s)] == [(PD["TYPE"], 1)]
    assert choices(s) == [choose_letter(x) for x in "AIOU"]
    s.apply(choose_letter("U"))
    assert me(s, 0)["types"] == [1, 1, 1, 1] and me(s, 0)["guilders"] == 13


def test_develop_a_specialty_at_vi_gives_three_guilders():
    R = rules(2)
    s = specialty_turn(R, levels={"illuminating": 6})
    s.apply(develop(5, up="illuminating"))
    p = me(s, 0)
    assert p["levels"] == [0, 0, 0, 6] and p["guilders"] == 13 and p["track"] == 4
    assert pending(s) == []


def test_develop_leftover_cards_discarded():
    R = rules(2)
    s = specialty_turn(R, order=(0,))
    s.apply(develop(5))
    d = s.to_dict()
    assert d["specialty_space"] == [-1] * 5
    assert bits(d["specialty_discard"]) == [0, 5, 6]
