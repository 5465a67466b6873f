"""The rules of Gutenberg, checked on the rulebook's worked examples and on hand-made
positions (see positions.py), one rule at a time, with exact numbers.

Seats are numbered from 0; unless a test says otherwise seat 0 holds the first player
token. Rulebook pages refer to the English edition (seeds/gutenberg-rulebook-en.txt);
rulings to /work/shared/gutenberg/RULINGS.md.
"""
from itertools import product

import pytest

from gutenberg_ai.games.gutenberg import _core
from positions import (
    A, C, MORE_PP, MORE_PR, MORE_RR, PASS, PD, PH, REWARD_GUILDERS, REWARD_INKS,
    REWARD_ORDER, REWARD_SPECIALTY, SUB, at_end, at_fulfil, at_phase, at_turn, bits, blank,
    board, buy, catalogue, chance_all, choose_ink, choose_letter, develop, discard, find_gear, fulfil,
    give_order, install_gear, me, only_in_deck, patron_card, patron_reward,
    pending, place, play_until, player, reorient, rules, setup_to_plan, take_gear, take_inks,
    take_printing, take_refinement, up, use_gear,
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
    """The legal actions other than pass/decline (a completion reward may be declined)."""
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
    s.apply(PASS)          # (its free actions, if any, are not taken)
    assert s.is_chance() or s.is_terminal()
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
    # The reward track "takes the indicated reward": an ink, not declinable.
    assert s.legal_actions() == [choose_ink(c) for c in ("blue", "silver", "gold", "red")]
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


def test_example_anna_uses_her_gears():
    """p.10: Anna can use one gear to exchange one ink for another and another to buy an
    I type 3 guilders cheaper; not her third gear (an order), used earlier this round."""
    cat = catalogue()
    assert cat.gears[0].sectors[0].reward == "ink_swap"
    assert (cat.gears[1].sectors[0].reward, tuple(cat.gears[1].sectors[0].indicates)) == ("type_discount", ("I",))
    assert cat.gears[3].sectors[1].reward == "order"
    R = rules(2)
    d = blank(R, round=2, types="AIO", guilders=10)
    install_gear(d, 0, 0, active=0)
    install_gear(d, 0, 1, active=0)
    install_gear(d, 0, 3, active=1, used=True)
    player(d, 0, inks={"blue": 1})
    s = at_turn(R, d, "patronage", [0, 1])
    assert gear_uses(s) == [use_gear(0), use_gear(1)]
    s.apply(use_gear(0))
    s.apply(choose_ink("blue"))
    s.apply(choose_ink("red"))
    s.apply(use_gear(1))
    assert s.legal_actions() == [choose_letter("I")]
    s.apply(choose_letter("I"))
    anna = me(s, 0)
    assert anna["inks"] == [0, 0, 0, 1]
    assert anna["types"] == [1, 2, 1, 0]
    assert anna["guilders"] == 10 - (4 - 3)          # her 4th type costs 4, 3 less
    assert anna["gear_used"] == [1, 1, 1] and anna["gear_uses"] == 3
    assert gear_uses(s) == []


@pytest.mark.parametrize("types,printable", [("IOOU", True), ("AIOU", False), ("IIOUU", False)])
def test_example_printing_card_i_o_o_u(types, printable):
    """p.13: "This printing card requires the player to use types I, O, O, and U.
    Fulfilling an order with this printing card gives a player 5 guilders"."""
    ioou = next(c.id for c in catalogue().printing if c.letters == "IOOU")
    R = rules(2)
    d = blank(R, types=types, guilders=0)
    give_order(d, 0, ioou, 1)
    s = at_fulfil(R, d, 0)
    assert (fulfil(0, "print") in s.legal_actions()) is printable
    if printable:
        s.apply(fulfil(0, "print"))
        assert me(s, 0)["guilders"] == 5
        assert me(s, 0)["types"] == [0, 1, 2, 1]            # types are not used up


@pytest.mark.parametrize("inks,levels,modes,fame", [
    # "a player can spend 1 red ink to gain 2 fame points"
    ({"red": 1}, {}, ["skip", "print", "colour"], 2),
    # "if a player has typesetting and binding, each at level II or higher, the player
    # gains 3 fame points": II and II, III and II; not II and I
    ({}, {"typesetting": 2, "binding": 2}, ["skip", "print", "decoration"], 3),
    ({}, {"typesetting": 3, "binding": 2}, ["skip", "print", "decoration"], 3),
    ({}, {"typesetting": 2, "binding": 1}, ["skip", "print"], 0),
])
def test_example_refinement_colour_and_decoration(inks, levels, modes, fame):
    """p.14's two refinement examples, on refinement card 0 (red ink 2 fame;
    typesetting II + binding II 3 fame)."""
    assert dict(catalogue().refinement[0].colour) == {"red": 1}
    assert dict(catalogue().refinement[0].decoration) == {"typesetting": 2, "binding": 2}
    R = rules(2)
    d = blank(R, types="AI", guilders=0)
    give_order(d, 0, 0, 0)                                  # A I, 2 guilders
    player(d, 0, inks=inks, levels=levels)
    s = at_fulfil(R, d, 0)
    assert [m for m in ("skip", "print", "colour", "decoration", "both")
            if fulfil(0, m) in s.legal_actions()] == modes
    s.apply(fulfil(0, modes[-1]))
    p = me(s, 0)
    assert (p["fame"], p["guilders"]) == (fame, 2 if modes[-1] != "skip" else 0)
    assert p["inks"] == [0, 0, 0, 0] and s.to_dict()["bag"][RED] == 12   # the red ink spent
    assert p["levels"] == [levels.get(x, 0) for x in ("typesetting", "woodcutting", "binding", "illuminating")]


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
    assert all(max(plan_of(i)) <= 6 and 0 <= sum(plan_of(i)) <= 10 for i in range(_core.NUM_PLANS))
    # Every allocation of 0-10 markers with at most 6 a row, once each.
    assert len({plan_of(i) for i in range(_core.NUM_PLANS)}) == _core.NUM_PLANS == 2723


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


def test_turn_order_ties_from_the_first_player():
    """3 players, seat 1 holds the first player token: ties go 1, 2, 0."""
    R = rules(3)
    d = blank(R, first_player=1)
    assert [d["players"][k]["markers"] for k in range(3)] == [9, 7, 8]
    player(d, 1, plan=(2, 1, 2, 0, 2))
    player(d, 2, plan=(2, 2, 2, 1, 1))
    s = at_phase(R, d, "PLAN", step=2)
    assert s.current_player() == 0
    s.apply(plan_index((2, 1, 3, 1, 2)))
    acted = {}
    while s.phase == "execute":
        acted.setdefault(s.to_dict()["row"], []).append(s.current_player())
        s.apply(PASS)
    assert acted == {0: [1, 2, 0], 1: [2, 1, 0], 2: [0, 1, 2], 3: [2, 0], 4: [1, 0, 2]}


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


def test_take_orders_with_three_orders_fills_the_fourth_slot():
    """p.8: "A player can store at most 4 orders"; with 3 there is a free slot, so
    nothing is discarded."""
    R = rules(2)
    d = orders_board(R)
    for pr, rf in [(10, 20), (11, 21), (12, 22)]:
        give_order(d, 0, pr, rf)
    s = at_turn(R, d, "orders", [0, 1])
    s.apply(take_printing(2))
    s.apply(take_refinement(5))
    assert s.current_player() == 1
    p = me(s, 0)
    assert p["order_printing"] == [10, 11, 12, 2] and p["order_refinement"] == [20, 21, 22, 5]
    assert bits(s.to_dict()["printing_discard"]) == []


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
    """p.9: a card is used "(A) move the indicated specialty marker(s) up ... or (B) move
    any other specialty marker 1 level up": (B) is open for the specialties the card does
    not show (two for a card of two specialties, three for a double)."""
    R = rules(2)
    s = specialty_turn(R)
    assert [c.icons for c in (catalogue().specialty_cards[x] for x in (0, 6, 5))] == [
        ("typesetting", "woodcutting"), ("typesetting", "typesetting"), ("binding", "illuminating")]
    assert legal_in(s, A["SPECIALTY"], A["GEAR"]) == sorted([
        develop(0), develop(0, up="binding"), develop(0, up="illuminating"),
        develop(6), develop(6, up="woodcutting"), develop(6, up="binding"), develop(6, up="illuminating"),
        develop(5), develop(5, up="typesetting"), develop(5, up="woodcutting"),
    ])


@pytest.mark.parametrize("card,up", [(0, "typesetting"), (0, "woodcutting"), (6, "typesetting"),
                                     (5, "illuminating")])
def test_develop_one_level_only_in_a_specialty_the_card_does_not_show(card, up):
    """p.9, use (B): "move any other specialty marker 1 level up" - not one of the card's
    own specialties (those move by (A), one level per symbol)."""
    R = rules(2)
    s = specialty_turn(R, levels={"typesetting": 2})
    before = s.to_dict()
    with pytest.raises(IllegalActionError):
        s.apply(develop(card, up=up))
    assert s.to_dict() == before


def test_develop_with_the_cards_icons():
    R = rules(2)
    s = specialty_turn(R, levels={"typesetting": 2, "woodcutting": 0})
    s.apply(develop(0))            # typesetting + woodcutting
    assert me(s, 0)["levels"] == [3, 1, 0, 0]
    assert pending(s) == []


def test_develop_one_level_in_another_specialty():
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
    assert s.legal_actions() == [choose_letter(x) for x in "AIOU"]    # taken, not declinable
    s.apply(choose_letter("U"))
    assert me(s, 0)["types"] == [1, 1, 1, 1] and me(s, 0)["guilders"] == 13


def test_develop_a_specialty_at_vi_gives_three_guilders():
    R = rules(2)
    s = specialty_turn(R, levels={"illuminating": 6})
    s.apply(develop(0, up="illuminating"))      # the card shows typesetting + woodcutting
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


# =======================================================================================
# 7. Improve printing houses
# =======================================================================================
def gear_row(R, gears=(), used=(), board_gears=(6, 8, 10), order=(0, 1), **edits):
    """Seat 0 at the Improve action with `gears` installed ((id, active sector) pairs)."""
    d = blank(R)
    board(d, gears=list(board_gears))
    for pos, (g, o) in enumerate(gears):
        install_gear(d, 0, g, active=o, used=pos in used)
    player(d, 0, **edits)
    return at_turn(R, d, "gears", list(order))


def test_improve_installs_at_the_next_position_with_a_chosen_sector():
    R = rules(2)
    s = gear_row(R, gears=[(4, 0)])
    assert legal_in(s, A["GEAR"], A["PLACE"]) == [take_gear(6), take_gear(8), take_gear(10)]
    s.apply(take_gear(8))
    assert s.current_player() == 0 and s.to_dict()["sub"] == SUB["PLACE"]
    assert s.legal_actions() == [place(1, 0), place(1, 1), place(1, 2)]
    s.apply(place(1, 2))
    p = me(s, 0)
    assert p["gear"] == [4, 8, -1] and p["gear_active"][:2] == [0, 2]
    assert s.to_dict()["gear_space"][:3] == [6, -1, 10]
    assert s.current_player() == 1


def test_improve_first_gear_goes_to_position_one():
    R = rules(2)
    s = gear_row(R)
    s.apply(take_gear(6))
    assert s.legal_actions() == [place(0, 0), place(0, 1), place(0, 2)]


def test_improve_reorients_an_unused_gear():
    R = rules(2)
    s = gear_row(R, gears=[(4, 0), (12, 1)], used=(0,))
    # The used gear (position 1) cannot be turned; the unused one to either other sector.
    assert legal_in(s, A["REORIENT"], A["PATRON_REWARD"]) == [reorient(1, 0), reorient(1, 2)]
    s.apply(reorient(1, 2))
    p = me(s, 0)
    assert p["gear"][:2] == [4, 12] and p["gear_active"][:2] == [0, 2]
    assert p["gear_used"][:2] == [1, 0]
    assert s.to_dict()["gear_space"][:3] == [6, 8, 10]     # no gear taken
    assert s.current_player() == 1


def test_improve_with_three_gears_replaces_an_unused_one_in_place():
    R = rules(2)
    s = gear_row(R, gears=[(4, 0), (12, 1), (13, 2)], used=(1,))
    s.apply(take_gear(10))
    assert s.legal_actions() == [place(0, o) for o in range(3)] + [place(2, o) for o in range(3)]
    s.apply(place(2, 1))
    p = me(s, 0)
    assert p["gear"] == [4, 12, 10] and p["gear_active"] == [0, 1, 1]
    assert bits(s.to_dict()["gear_discard"]) == [13]


def test_improve_all_gears_used_nothing_to_do():
    R = rules(2)
    s = gear_row(R, gears=[(4, 0), (12, 1), (13, 2)], used=(0, 1, 2), guilders=0)
    assert s.legal_actions() == [PASS]     # no gear to take or turn, no type affordable


def test_improve_leftover_gears_discarded():
    R = rules(2)
    s = gear_row(R, order=(0,))
    s.apply(take_gear(8))
    s.apply(place(0, 0))
    d = s.to_dict()
    assert d["gear_space"] == [-1] * 5
    assert bits(d["gear_discard"]) == [6, 10]


def test_turn_gears_at_the_start_of_round_two():
    """Gear 1 turns one sector clockwise, gear 2 (meshed) the other way, gear 3 like 1."""
    R = rules(2)
    d = blank(R, round=1)
    install_gear(d, 0, 4, active=0)
    install_gear(d, 0, 12, active=0)
    install_gear(d, 0, 13, active=2)
    install_gear(d, 1, 5, active=2)
    install_gear(d, 1, 6, active=1, used=True)
    s = next_round(R, d)
    assert s.phase == "plan" and s.round == 2
    assert me(s, 0)["gear_active"] == [1, 2, 0]
    assert me(s, 1)["gear_active"][:2] == [0, 0]


def test_no_gear_turn_within_a_round():
    R = rules(2)
    s = gear_row(R, gears=[(4, 1)])
    s.apply(take_gear(6))
    s.apply(place(1, 0))
    assert me(s, 0)["gear_active"][:2] == [1, 0]


# =======================================================================================
# 8. Gear rewards (rulebook p.22, Italian edition) and their limits
# =======================================================================================
def gear_turn(kind, indicates=None, round=1, row="patronage", **edits):
    """Seat 0 at a decision point of its turn with one gear whose active sector is `kind`."""
    R = rules(2)
    g, o = find_gear(kind, indicates)
    d = blank(R, round=round)
    install_gear(d, 0, g, active=o)
    player(d, 0, **edits)
    return at_turn(R, d, row, [0, 1])


def test_gear_ink_swap():
    s = gear_turn("ink_swap", inks={"blue": 1})
    s.apply(use_gear(0))
    assert s.current_player() == 0
    assert s.legal_actions() == [choose_ink("blue")]          # the only ink it has
    s.apply(choose_ink("blue"))
    assert s.legal_actions() == [choose_ink(c) for c in ("silver", "gold", "red")]
    s.apply(choose_ink("red"))
    assert me(s, 0)["inks"] == [0, 0, 0, 1]
    assert s.to_dict()["bag"] == [12, 12, 12, 11]
    assert pending(s) == [] and s.current_player() == 0     # back to the turn's choice


def test_gear_type_swap():
    s = gear_turn("type_swap", types="AIO")
    s.apply(use_gear(0))
    assert s.legal_actions() == [choose_letter(x) for x in "AIO"]
    s.apply(choose_letter("A"))
    assert s.legal_actions() == [choose_letter(x) for x in "IOU"]
    s.apply(choose_letter("U"))
    assert me(s, 0)["types"] == [0, 1, 1, 1]


def test_gear_ink_swap_needs_an_ink_and_another_colour_in_the_bag():
    """p.22: exchange one ink for another: with no ink, or with only the player's own
    colour left in the bag, there is nothing to exchange."""
    assert gear_uses(gear_turn("ink_swap")) == []
    R = rules(2)
    g, o = find_gear("ink_swap")
    d = blank(R)
    install_gear(d, 0, g, active=o)
    player(d, 0, inks={"blue": 1})
    player(d, 1, inks={"silver": 12, "gold": 12, "red": 12})      # the bag: 11 blue only
    assert gear_uses(at_turn(R, d, "patronage", [0, 1])) == []
    player(d, 1, inks={"silver": 12, "gold": 12, "red": 11})      # one red in the bag
    s = at_turn(R, d, "patronage", [0, 1])
    assert gear_uses(s) == [use_gear(0)]
    s.apply(use_gear(0))
    s.apply(choose_ink("blue"))
    assert s.legal_actions() == [choose_ink("red")]


@pytest.mark.parametrize("kind", ["type_swap", "sell_type"])
def test_gear_type_swap_and_sale_need_a_type(kind):
    assert gear_uses(gear_turn(kind, types="")) == []
    assert gear_uses(gear_turn(kind, types="U")) == [use_gear(0)]


def test_gear_lowest_specialty_with_a_tie():
    s = gear_turn("lowest_specialty", levels={"typesetting": 2, "woodcutting": 1, "binding": 3, "illuminating": 1})
    s.apply(use_gear(0))
    assert s.legal_actions() == [up("woodcutting"), up("illuminating")]
    s.apply(up("illuminating"))
    p = me(s, 0)
    assert p["levels"] == [2, 1, 3, 2] and p["track"] == 1
    assert pending(s) == []


def test_gear_lowest_specialty_single():
    s = gear_turn("lowest_specialty", levels={"typesetting": 2, "woodcutting": 3, "binding": 3, "illuminating": 1})
    s.apply(use_gear(0))
    assert s.legal_actions() == [up("illuminating")]


@pytest.mark.parametrize("round", [1, 4])
def test_gear_round_fame(round):
    s = gear_turn("round_fame", round=round, fame=5)
    s.apply(use_gear(0))
    assert me(s, 0)["fame"] == 5 + round


def test_gear_order():
    s = gear_turn("order")
    s.apply(use_gear(0))
    assert [(q["kind"], q["seat"]) for q in pending(s)] == [(PD["ORDER"], 0)]
    assert s.is_chance()
    assert all(C["PRINTING"] <= a < C["REFINEMENT"] for a, _ in s.chance_outcomes())


@pytest.mark.parametrize("sale,guilders,fame", [("SELL_GUILDERS", 15, 0), ("SELL_FAME", 10, 3)])
def test_gear_sell_type(sale, guilders, fame):
    s = gear_turn("sell_type", types="AIO")
    s.apply(use_gear(0))
    assert s.legal_actions() == [choose_letter(x) for x in "AIO"]
    s.apply(choose_letter("O"))
    assert s.legal_actions() == [A["SELL_GUILDERS"], A["SELL_FAME"]]
    s.apply(A[sale])
    p = me(s, 0)
    assert p["types"] == [1, 1, 0, 0]
    assert (p["guilders"], p["fame"]) == (guilders, fame)


def test_gear_gain_ink():
    s = gear_turn("gain_ink", ("red",))
    s.apply(use_gear(0))
    assert me(s, 0)["inks"] == [0, 0, 0, 1]
    assert s.to_dict()["bag"] == [12, 12, 12, 11]
    assert pending(s) == []


def test_gear_gain_ink_not_when_the_bag_has_none():
    R = rules(2)
    g, o = find_gear("gain_ink", ("red",))
    d = blank(R)
    install_gear(d, 0, g, active=o)
    player(d, 1, inks={"red": 12})
    s = at_turn(R, d, "patronage", [0, 1])
    assert gear_uses(s) == []


def test_gear_ink_trade():
    s = gear_turn("ink_trade", ("blue",), inks={"blue": 1, "gold": 1})
    s.apply(use_gear(0))
    assert me(s, 0)["inks"] == [0, 0, 1, 0]
    assert s.to_dict()["bag"] == [12, 12, 11, 12]
    assert [(q["kind"], q["amount"]) for q in pending(s)] == [(PD["INK"], 2)]
    s.apply(choose_ink("blue"))            # the colour put in may be taken again
    s.apply(choose_ink("red"))
    assert me(s, 0)["inks"] == [1, 0, 1, 1]
    assert s.to_dict()["bag"] == [11, 12, 11, 11]
    assert pending(s) == []


def test_gear_ink_trade_needs_the_indicated_ink():
    s = gear_turn("ink_trade", ("blue",), inks={"gold": 2})
    assert gear_uses(s) == []


def test_gear_type_discount():
    s = gear_turn("type_discount", ("O", "U"), types="AIO", guilders=10)
    s.apply(use_gear(0))
    assert s.legal_actions() == [choose_letter("O"), choose_letter("U")]
    s.apply(choose_letter("U"))
    p = me(s, 0)
    assert p["types"] == [1, 1, 1, 1]
    assert p["guilders"] == 9            # the 4th type costs 4, 3 less
    # The discount was one purchase: the 5th type costs the full 5.
    s.apply(buy("U"))
    assert me(s, 0)["guilders"] == 4


def test_gear_type_discount_must_be_affordable():
    s = gear_turn("type_discount", ("O", "U"), types="AIOU", guilders=1)   # 5th type: 5 - 3 = 2
    assert gear_uses(s) == []
    s = gear_turn("type_discount", ("O", "U"), types="AIOU", guilders=2)
    assert gear_uses(s) == [use_gear(0)]


def test_gear_specialty_up():
    s = gear_turn("specialty_up", ("woodcutting",), levels={"woodcutting": 1})
    s.apply(use_gear(0))
    p = me(s, 0)
    assert p["levels"] == [0, 2, 0, 0] and p["track"] == 1
    assert [(q["kind"], q["amount"]) for q in pending(s)] == [(PD["INK"], 1)]   # reward track II


def fulfil_with_gear(kind, indicates, orders, types, inks=None, levels=None):
    R = rules(2)
    g, o = find_gear(kind, indicates)
    d = blank(R, types=types)
    install_gear(d, 0, g, active=o)
    for pr, rf in orders:
        give_order(d, 0, pr, rf)
    player(d, 0, inks=inks, levels=levels)
    return at_fulfil(R, d, 0)


def test_gear_colour_fame_counts_orders_of_this_turn_using_the_inks():
    cat = catalogue()
    assert dict(cat.refinement[4].colour) == {"silver": 1} and dict(cat.refinement[10].colour) == {"gold": 1}
    assert dict(cat.refinement[0].colour) == {"red": 1} and dict(cat.refinement[24].colour) == {"silver": 2}
    assert dict(cat.refinement[27].colour) == {"silver": 1, "gold": 1}
    s = fulfil_with_gear("colour_fame", ("silver", "gold"),
                         orders=[(0, 4), (6, 27), (2, 0), (3, 24)], types="AAIIIOUU",
                         inks={"silver": 3, "gold": 1, "red": 1})
    assert gear_uses(s) == []                      # not before the orders are chosen
    s.apply(fulfil(0, "colour"))                   # silver: counts
    s.apply(fulfil(1, "colour"))                   # silver + gold: counts once
    s.apply(fulfil(2, "colour"))                   # red: does not count
    s.apply(fulfil(3, "print"))                    # silver card, colour not fulfilled: no
    assert s.legal_actions() == [use_gear(0), PASS]
    s.apply(use_gear(0))
    p = me(s, 0)
    assert p["fame"] == 2 * 2 + (2 + 4 + 2)        # gear 4, colours 8
    assert p["guilders"] == 10 + 2 + 2 + 2 + 3
    assert p["inks"] == [0, 1, 0, 0]
    assert s.to_dict()["bag"] == [12, 11, 12, 12]


def test_gear_type_fame_counts_orders_with_the_type():
    s = fulfil_with_gear("type_fame", ("U",), orders=[(2, 1), (7, 2), (0, 3), (5, 4)], types="AAIUUU")
    s.apply(fulfil(0, "print"))                    # A U: counts
    s.apply(fulfil(1, "print"))                    # U U: counts once
    s.apply(fulfil(2, "print"))                    # A I: no U
    s.apply(fulfil(3, "skip"))                     # I U, not fulfilled: no
    s.apply(use_gear(0))
    assert me(s, 0)["fame"] == 4
    assert me(s, 0)["order_printing"] == [-1, -1, -1, 5]


def test_gear_decoration_fame_counts_decorations_with_the_specialty():
    cat = catalogue()
    assert dict(cat.refinement[0].decoration) == {"typesetting": 2, "binding": 2}
    assert dict(cat.refinement[24].decoration) == {"typesetting": 2}
    assert dict(cat.refinement[4].decoration) == {"binding": 2}
    assert dict(cat.refinement[25].decoration) == {"typesetting": 3}
    s = fulfil_with_gear("decoration_fame", ("typesetting",),
                         orders=[(0, 0), (1, 24), (2, 4), (6, 25)], types="AAAIOOUU",
                         inks={"silver": 2}, levels={"typesetting": 3, "binding": 2})
    s.apply(fulfil(0, "decoration"))               # typesetting II + binding II: counts
    s.apply(fulfil(1, "both"))                     # typesetting II: counts
    s.apply(fulfil(2, "decoration"))               # binding only: no
    s.apply(fulfil(3, "print"))                    # typesetting III not fulfilled: no
    s.apply(use_gear(0))
    p = me(s, 0)
    assert p["fame"] == 2 * 2 + (3 + 1 + 1) + 5    # gear, decorations, colour of order 2
    assert p["guilders"] == 10 + 2 + 2 + 2 + 2 + 1  # printing, and order 2's reward
    assert p["levels"] == [3, 0, 2, 0]             # decoration does not spend levels


def test_fulfilment_gear_not_usable_without_matching_orders_or_outside_fulfil():
    s = fulfil_with_gear("type_fame", ("U",), orders=[(0, 1)], types="AIO")
    s.apply(fulfil(0, "print"))                    # A I: nothing for the gear
    # Nothing to decide before printing: printed at once. After printing the free
    # actions again (a type for the guilders just earned), the fulfilment gear not.
    assert s.phase == "fulfil" and s.current_player() == 0
    assert (me(s, 0)["fame"], me(s, 0)["guilders"]) == (0, 12)
    assert me(s, 0)["order_printing"][0] == -1
    assert gear_uses(s) == [] and buys(s) and s.legal_actions() == buys(s) + [PASS]
    s.apply(PASS)
    assert s.phase == "fulfil" and s.current_player() == 1
    t = gear_turn("type_fame", ("U",))
    assert gear_uses(t) == []


def test_gear_once_per_round_and_three_uses_at_most():
    R = rules(2)
    d = blank(R, round=3)
    for kind, ind in (("round_fame", None), ("specialty_up", ("binding",)), ("gain_ink", ("blue",))):
        g, o = find_gear(kind, ind)
        install_gear(d, 0, g, active=o)
    s = at_turn(R, d, "patronage", [0, 1])
    assert gear_uses(s) == [use_gear(0), use_gear(1), use_gear(2)]
    s.apply(use_gear(0))
    assert gear_uses(s) == [use_gear(1), use_gear(2)]
    s.apply(use_gear(1))
    s.apply(use_gear(2))
    p = me(s, 0)
    assert p["gear_used"] == [1, 1, 1] and p["gear_uses"] == 3
    assert (p["fame"], p["levels"][BINDING], p["inks"][BLUE]) == (3, 1, 1)
    assert gear_uses(s) == []
    # With all 3 used gear markers placed, even an unused gear gives nothing.
    d = blank(R)
    g, o = find_gear("round_fame")
    install_gear(d, 0, g, active=o)
    d["players"][0]["gear_uses"] = 3
    assert gear_uses(at_turn(R, d, "patronage", [0, 1])) == []


def test_gear_used_in_a_turn_is_spent_for_the_fulfil_turn():
    R = rules(2)
    g, o = find_gear("round_fame")
    d = blank(R)
    install_gear(d, 0, g, active=o, used=True)
    give_order(d, 0, 0, 1)
    assert gear_uses(at_fulfil(R, d, 0)) == []
    d = blank(R, guilders=0)
    install_gear(d, 0, g, active=o)
    give_order(d, 0, 0, 1)
    s = at_fulfil(R, d, 0)
    assert gear_uses(s) == [use_gear(0)]           # before the first pick: usable
    s.apply(fulfil(0, "print"))
    # Once the orders are chosen only fulfilment gears: none here, so printed at once.
    # After printing the gear is usable again ("at any time", p.10), then done.
    assert s.current_player() == 0 and me(s, 0)["order_printing"][0] == -1
    assert me(s, 0)["fame"] == 0 and me(s, 0)["gear_used"][0] == 0
    assert gear_uses(s) == [use_gear(0)] and PASS in s.legal_actions()
    s.apply(use_gear(0))
    assert me(s, 0)["fame"] == 1 and me(s, 0)["gear_used"][0] == 1
    # Nothing else to do (2 guilders buy no type), and player 1 has nothing: round over.
    assert s.is_chance() and s.to_dict()["phase"] == PH["REFILL"]


# =======================================================================================
# 9. Patronage
# =======================================================================================
def patronage_turn(R=None, round=3, cards=None, order=(0, 1), **edits):
    R = R or rules(2)
    d = blank(R, round=round)
    board(d, patronage=cards or {})
    player(d, 0, **edits)
    return at_turn(R, d, "patronage", list(order))


def test_patronage_reward_spaces():
    assert [(r.kind, r.amount) for r in catalogue().patronage_rewards] == [
        ("order", 1), ("specialty", 1), ("guilders", 3), ("ink", 2)]
    s = patronage_turn(round=1)
    assert legal_in(s, A["PATRON_REWARD"], A["DISCARD"]) == [patron_reward(k) for k in range(4)]


def test_patronage_reward_guilders_blocks_the_space_for_the_round():
    s = patronage_turn(round=1)
    s.apply(patron_reward(REWARD_GUILDERS))
    assert me(s, 0)["guilders"] == 13
    assert s.to_dict()["patronage_reward_seat"] == [-1, -1, 0, -1]
    assert s.current_player() == 1
    assert legal_in(s, A["PATRON_REWARD"], A["DISCARD"]) == [
        patron_reward(REWARD_ORDER), patron_reward(REWARD_SPECIALTY), patron_reward(REWARD_INKS)]


def test_patronage_reward_specialty_and_inks():
    s = patronage_turn(round=1, levels={"binding": 1})
    s.apply(patron_reward(REWARD_SPECIALTY))
    # The chosen patronage reward is taken: its level cannot be declined.
    assert s.legal_actions() == [up(x) for x in ("typesetting", "woodcutting", "binding", "illuminating")]
    s.apply(up("binding"))
    assert me(s, 0)["levels"] == [0, 0, 2, 0]
    assert [(q["kind"], q["amount"]) for q in pending(s)] == [(PD["INK"], 1)]   # track II
    s.apply(choose_ink("blue"))
    assert s.current_player() == 1
    s.apply(patron_reward(REWARD_INKS))
    assert [(q["kind"], q["seat"], q["amount"]) for q in pending(s)] == [(PD["INK"], 1, 2)]
    s.apply(choose_ink("gold"))
    s.apply(choose_ink("gold"))
    assert me(s, 1)["inks"] == [0, 0, 2, 0]
    assert s.to_dict()["bag"] == [11, 12, 10, 12]


def test_patronage_reward_order():
    s = patronage_turn(round=1)
    s.apply(patron_reward(REWARD_ORDER))
    assert s.is_chance() and [q["kind"] for q in pending(s)] == [PD["ORDER"]]


PATRONAGE_CASES = {
    # card: (requirements met, one requirement short)
    0: (dict(levels={"typesetting": 3, "binding": 3}),
        dict(levels={"typesetting": 3, "binding": 2})),
    4: (dict(inks={"blue": 1, "gold": 1}, types="AAIU"),
        dict(inks={"blue": 1, "gold": 1}, types="AIOU")),
    8: (dict(levels={"typesetting": 4}, inks={"gold": 1, "red": 1}),
        dict(levels={"typesetting": 4}, inks={"gold": 1, "blue": 1})),
    12: (dict(levels={"binding": 3}, types="AOUU"),
         dict(levels={"binding": 2}, types="AOUU")),
}


@pytest.mark.parametrize("card", sorted(PATRONAGE_CASES))
def test_patronage_card_requirements(card):
    cat = catalogue()
    assert cat.patronage[card].kind == ("specialties", "inks_types", "specialty_inks", "specialty_types")[card // 4]
    met, short = PATRONAGE_CASES[card]
    s = patronage_turn(cards={0: card}, **met)
    assert patron_card(card) in s.legal_actions()
    s = patronage_turn(cards={0: card}, **short)
    assert patron_card(card) not in s.legal_actions()


def test_patronage_card_spends_inks_not_types():
    s = patronage_turn(cards={0: 4, 1: 5}, inks={"blue": 1, "gold": 2}, types="AAIU")
    s.apply(patron_card(4))
    p = me(s, 0)
    assert p["patronage"] == 1
    assert p["inks"] == [0, 0, 1, 0] and p["types"] == [2, 1, 0, 1]
    d = s.to_dict()
    assert d["bag"] == [12, 12, 11, 12]
    assert d["patronage_space"][:2] == [-1, 5]
    assert d["patronage_reward_seat"] == [-1] * 4
    assert s.current_player() == 1 and patron_card(4) not in s.legal_actions()


def test_patronage_cards_not_before_their_round():
    assert list(catalogue().patronage_spaces) == [3, 3, 4, 4, 5, 5, 6, 6]
    ready = dict(levels={"typesetting": 4, "binding": 3})       # card 0: typesetting III + binding III
    s = patronage_turn(round=2, cards={0: 0}, **ready)
    assert patron_card(0) not in s.legal_actions()
    s = patronage_turn(round=3, cards={0: 0}, **ready)
    assert patron_card(0) in s.legal_actions()
    s = patronage_turn(round=3, cards={2: 0}, **ready)            # a round-4 space
    assert patron_card(0) not in s.legal_actions()
    s = patronage_turn(round=4, cards={2: 0}, **ready)
    assert patron_card(0) in s.legal_actions()


def test_patronage_cards_score_eight_points():
    R = rules(2)
    d = blank(R, round=6)
    player(d, 0, patronage=3, fame=10)
    s = at_phase(R, d, "TERMINAL")
    assert s.score_breakdown(0)["patronage"] == 24
    assert s.final_scores()[0] == 10 + 24 + 3


# =======================================================================================
# 10. An order as a reward
# =======================================================================================
PRINTING_DECK = [10, 11, 12, 13, 14, 15]
REFINEMENT_DECK = [20, 21, 22, 23, 24, 25]


def order_reward(guilders=10, orders=(), printing=PRINTING_DECK, refinement=REFINEMENT_DECK):
    """Seat 0 takes the patronage order reward; the decks hold just the given cards."""
    R = rules(2)
    d = blank(R, guilders=guilders)
    for pr, rf in orders:
        give_order(d, 0, pr, rf)
    only_in_deck(d, "printing", printing)
    only_in_deck(d, "refinement", refinement)
    s = at_turn(R, d, "patronage", [0, 1])
    s.apply(patron_reward(REWARD_ORDER))
    return s


def draw(s, *cards):
    """Chance: draw these cards, checking each draw is uniform over the deck."""
    for kind, x in cards:
        outs = s.chance_outcomes()
        d = s.to_dict()
        deck = d["printing_deck"] if kind == "P" else d["refinement_deck"]
        base = C["PRINTING"] if kind == "P" else C["REFINEMENT"]
        assert [a for a, _ in outs] == [base + c for c in bits(deck)]
        assert all(p == pytest.approx(1 / len(outs)) for _, p in outs)
        s.apply(base + x)
    return s


def test_order_reward_draws_two_and_two_keeps_one_of_each():
    s = order_reward()
    draw(s, ("P", 12), ("P", 14), ("R", 21), ("R", 25))
    assert s.current_player() == 0
    assert s.legal_actions() == [take_printing(12), take_printing(14), PASS, MORE_PP, MORE_RR, MORE_PR]
    s.apply(take_printing(14))
    assert s.legal_actions() == [take_refinement(21), take_refinement(25)]
    s.apply(take_refinement(21))
    p = me(s, 0)
    assert (p["order_printing"][0], p["order_refinement"][0]) == (14, 21)
    d = s.to_dict()
    assert 12 in bits(d["printing_discard"]) and 25 in bits(d["refinement_discard"])
    assert bits(d["printing_deck"]) == [10, 11, 13, 15]
    assert d["pool_printing"] == d["pool_refinement"] == 0 and pending(s) == []
    assert p["guilders"] == 10 and s.current_player() == 1


def test_order_reward_pay_for_more_while_affordable():
    s = order_reward(guilders=5)
    draw(s, ("P", 10), ("P", 11), ("R", 20), ("R", 21))
    s.apply(MORE_PR)                       # one printing + one refinement
    assert me(s, 0)["guilders"] == 3
    draw(s, ("P", 12), ("R", 22))
    s.apply(MORE_PP)                       # two printing
    assert me(s, 0)["guilders"] == 1
    draw(s, ("P", 13), ("P", 14))
    d = s.to_dict()
    assert bits(d["pool_printing"]) == [10, 11, 12, 13, 14] and bits(d["pool_refinement"]) == [20, 21, 22]
    # 1 guilder left: no more draws.
    assert s.legal_actions() == [take_printing(x) for x in (10, 11, 12, 13, 14)] + [PASS]
    s.apply(take_printing(13))
    s.apply(take_refinement(22))
    d = s.to_dict()
    assert (me(s, 0)["order_printing"][0], me(s, 0)["order_refinement"][0]) == (13, 22)
    assert set(bits(d["printing_discard"])) >= {10, 11, 12, 14}
    assert set(bits(d["refinement_discard"])) >= {20, 21}
    assert bits(d["printing_deck"]) == [15] and bits(d["refinement_deck"]) == [23, 24, 25]


def test_order_reward_two_refinement_more():
    s = order_reward(guilders=2)
    draw(s, ("P", 10), ("P", 11), ("R", 20), ("R", 21))
    s.apply(MORE_RR)
    draw(s, ("R", 24), ("R", 25))
    assert bits(s.to_dict()["pool_refinement"]) == [20, 21, 24, 25]
    assert me(s, 0)["guilders"] == 0


@pytest.mark.parametrize("guilders,more", [(2, True), (1, False)])
def test_order_reward_more_cards_for_exactly_two_guilders(guilders, more):
    """p.8: "may pay 2 guilders to draw 2 additional cards ... as long as they can
    afford to": 2 guilders are enough, 1 is not."""
    s = order_reward(guilders=guilders)
    draw(s, ("P", 10), ("P", 11), ("R", 20), ("R", 21))
    offered = [a for a in (MORE_PP, MORE_RR, MORE_PR) if a in s.legal_actions()]
    assert offered == ([MORE_PP, MORE_RR, MORE_PR] if more else [])


def test_order_reward_declined():
    s = order_reward()
    draw(s, ("P", 10), ("P", 11), ("R", 20), ("R", 21))
    before = s.to_dict()
    s.apply(PASS)
    d = s.to_dict()
    assert me(s, 0)["order_printing"] == [-1] * 4 and me(s, 0)["guilders"] == 10
    assert bits(d["printing_discard"]) == sorted(bits(before["printing_discard"]) + [10, 11])
    assert bits(d["refinement_discard"]) == sorted(bits(before["refinement_discard"]) + [20, 21])
    assert pending(s) == [] and s.current_player() == 1


def test_order_reward_with_four_orders_discards_one_first_then_draws():
    """p.8: "A player with 4 orders may take another order, but they must first discard
    one of the 4 they have to create a free slot": with four held, the first decision of
    an order as a reward is which order goes (or to decline the reward, p.8 "an
    (optional) reward"), before any card is drawn; the new order takes the freed slot."""
    s = order_reward(orders=[(0, 0), (1, 1), (2, 2), (3, 3)])
    assert s.current_player() == 0 and s.chance_outcomes() == []      # a decision, no draw yet
    assert s.legal_actions() == [discard(k) for k in range(4)] + [PASS]
    s.apply(discard(2))
    p = me(s, 0)
    assert p["order_printing"] == [0, 1, -1, 3] and p["order_refinement"] == [0, 1, -1, 3]
    assert s.current_player() < 0 and s.chance_outcomes()           # now the draw
    draw(s, ("P", 10), ("P", 11), ("R", 20), ("R", 21))
    assert s.legal_actions() == [take_printing(10), take_printing(11), PASS, MORE_PP, MORE_RR, MORE_PR]
    s.apply(take_printing(11))
    s.apply(take_refinement(20))
    p = me(s, 0)
    assert p["order_printing"] == [0, 1, 11, 3] and p["order_refinement"] == [0, 1, 20, 3]
    d = s.to_dict()
    assert {2, 10} <= set(bits(d["printing_discard"])) and {2, 21} <= set(bits(d["refinement_discard"]))
    assert pending(s) == [] and s.current_player() == 1


def test_order_reward_with_four_orders_declined_draws_nothing():
    """Declining the reward instead of discarding: the four orders stay, no card is
    drawn (the decks as they were), and the game goes on."""
    s = order_reward(orders=[(0, 0), (1, 1), (2, 2), (3, 3)])
    before = s.to_dict()
    s.apply(PASS)
    d = s.to_dict()
    assert me(s, 0)["order_printing"] == [0, 1, 2, 3]
    assert (d["printing_deck"], d["refinement_deck"]) == (before["printing_deck"], before["refinement_deck"])
    assert pending(s) == [] and s.current_player() == 1


def test_order_reward_deck_reshuffles_its_discard_pile():
    s = order_reward(printing=[10])
    old_discard = bits(s.to_dict()["printing_discard"])
    assert len(old_discard) == 49
    draw(s, ("P", 10))
    d = s.to_dict()
    assert d["printing_discard"] == 0 and bits(d["printing_deck"]) == old_discard
    assert len(s.chance_outcomes()) == 49
    draw(s, ("P", 30), ("R", 20), ("R", 21))
    assert bits(s.to_dict()["pool_printing"]) == [10, 30]


# =======================================================================================
# 11. Buying types
# =======================================================================================
def test_buying_the_nth_type_costs_n():
    R = rules(2)
    d = blank(R, types="AAIOUU", guilders=15)
    board(d, inks=[("blue", "blue", "blue"), ("red", "red", "red"), ("gold", "gold", "gold")])
    s = at_turn(R, d, "inks", [0, 1])
    s.apply(buy("O"))
    assert me(s, 0)["guilders"] == 8 and me(s, 0)["types"] == [2, 1, 2, 2]
    assert buys(s) == [buy(x) for x in "AIOU"]          # the 8th costs 8
    s.apply(buy("I"))
    assert me(s, 0)["guilders"] == 0
    assert s.current_player() == 0 and buys(s) == []


def test_a_printing_house_holds_at_most_99_types():
    # docs/rulings.md: the engine's type supply ends at MAX_TYPES types a player, the
    # bound of position files; nothing gains a type beyond it.
    assert _core.LIMITS["MAX_TYPES"] == 99
    R = rules(2)
    d = blank(R, types={"A": 40, "I": 40, "O": 18}, guilders=999)
    s = at_turn(R, d, "gears", [0, 1])            # nothing on the board: buy or pass
    assert buys(s) == [buy(x) for x in "AIOU"]    # the 99th type costs 99
    s.apply(buy("U"))
    assert me(s, 0)["types"] == [40, 40, 18, 1] and me(s, 0)["guilders"] == 900
    assert s.current_player() == 1                # no 100th: nothing left to do, the turn passed
    d = blank(R, types={"A": 50, "I": 49}, guilders=999)
    s = at_turn(R, d, "gears", [0, 1])
    assert s.legal_actions() == [PASS]
    d = blank(R, types={"A": 50, "I": 49}, guilders=999)
    board(d, gears=[find_gear("gain_ink")[0]])
    s = at_turn(R, d, "gears", [0, 1])
    assert s.current_player() == 0 and buys(s) == []
    assert not any(s.is_legal(buy(x)) for x in "AIOU")
    with pytest.raises(IllegalActionError):
        s.apply(buy("A"))


def test_no_free_type_beyond_99_types():
    R = rules(2)
    # The reward track's free type (VI) is taken if it can be: at 99 types it cannot.
    s = specialty_turn(R, levels={"typesetting": 5}, types={"A": 99})
    s.apply(develop(6))
    assert me(s, 0)["levels"][TYPESETTING] == 6 and me(s, 0)["types"] == [99, 0, 0, 0]
    assert pending(s) == [] and s.current_player() == 1
    s = specialty_turn(R, levels={"typesetting": 5}, types={"A": 98})
    s.apply(develop(6))
    assert s.legal_actions() == [choose_letter(x) for x in "AIOU"]
    # The type discount gear buys a type: not usable at 99.
    s = gear_turn("type_discount", ("O", "U"), types={"A": 99}, guilders=200)
    assert gear_uses(s) == []
    s = gear_turn("type_discount", ("O", "U"), types={"A": 98}, guilders=200)
    assert gear_uses(s) == [use_gear(0)]


def test_a_state_with_more_than_99_types_is_refused():
    R = rules(2)
    d = blank(R, types={"A": 60, "O": 40})
    with pytest.raises(ValueError, match=r"players\[0\].types: 100 types in all, more than 99"):
        at_turn(R, d, "gears", [0, 1])


def test_buying_types_also_when_the_turn_is_passed():
    R = rules(2)
    d = blank(R)
    s = at_turn(R, d, "gears", [0, 1])            # no gear on the board: nothing else to do
    assert s.legal_actions() == buys(s) + [PASS]
    s.apply(buy("U"))
    s.apply(PASS)
    assert me(s, 0)["types"] == [1, 1, 1, 1] and s.current_player() == 1


def test_no_buying_during_a_reward_or_the_second_half_of_a_choice():
    s = specialty_turn(rules(2), levels={"typesetting": 1})
    s.apply(develop(6))
    assert pending(s) and buys(s) == [] and gear_uses(s) == []
    R = rules(2)
    s = at_turn(R, orders_board(R), "orders", [0, 1])
    s.apply(take_printing(0))
    assert buys(s) == []


def test_buying_types_in_the_fulfil_turn_only_before_the_first_pick():
    R = rules(2)
    d = blank(R, types="AIO", guilders=6)
    give_order(d, 0, 6, 1, slot=1)              # O U
    give_order(d, 0, 0, 3, slot=3)              # A I
    s = at_fulfil(R, d, 0)
    assert s.to_dict()["fulfil_slot"] == 1
    assert legal_in(s, A["FULFIL"], A["INK"]) == [fulfil(1, "skip")]     # no U yet
    s.apply(buy("U"))
    assert me(s, 0)["guilders"] == 2
    assert fulfil(1, "print") in s.legal_actions()
    s.apply(fulfil(1, "print"))
    assert buys(s) == []
    assert s.legal_actions() == [fulfil(3, "skip"), fulfil(3, "print")]


# =======================================================================================
# 12. Fulfil orders
# =======================================================================================
def test_fulfil_a_type_serves_one_order():
    R = rules(2)
    d = blank(R, types="AIO", guilders=0)
    give_order(d, 0, 0, 1)       # A I
    give_order(d, 0, 1, 3)       # A O
    s = at_fulfil(R, d, 0)
    assert s.legal_actions() == [fulfil(0, "skip"), fulfil(0, "print")]
    t = s.clone()
    t.apply(fulfil(0, "skip"))
    assert t.legal_actions() == [fulfil(1, "skip"), fulfil(1, "print")]
    s.apply(fulfil(0, "print"))
    assert s.legal_actions() == [fulfil(1, "skip")]     # the only A is taken
    s.apply(fulfil(1, "skip"))
    p = me(s, 0)
    assert p["types"] == [1, 1, 1, 0]                   # types are not used up
    assert p["guilders"] == 2
    assert p["order_printing"] == [-1, 1, -1, -1] and p["order_refinement"] == [-1, 3, -1, -1]
    d = s.to_dict()
    assert bits(d["printing_discard"]) == [0] and bits(d["refinement_discard"]) == [1]


@pytest.mark.parametrize("mode,fame,inks,reward", [
    ("print", 0, 1, False), ("colour", 2, 0, False), ("decoration", 3, 1, False), ("both", 5, 0, True)])
def test_fulfil_refinement_parts_are_optional(mode, fame, inks, reward):
    """Refinement 0: colour 1 red (2 fame), decoration typesetting II + binding II
    (3 fame), completion reward 1 ink of choice."""
    R = rules(2)
    d = blank(R, types="AI", guilders=0)
    give_order(d, 0, 0, 0)
    player(d, 0, inks={"red": 1}, levels={"typesetting": 2, "binding": 2})
    s = at_fulfil(R, d, 0)
    assert legal_in(s, A["FULFIL"], A["INK"]) == [fulfil(0, m) for m in ("skip", "print", "colour", "decoration", "both")]
    # The menu says what the move earns, as it then comes (gutenberg view.move_text).
    from gutenberg_ai.interfaces import tui
    said = tui.move_text(s, fulfil(0, mode), s.action_to_string(fulfil(0, mode)))
    assert said.endswith("(+2 guilders" + (f", +{fame} fame" if fame else "")
                         + (", the completion reward: 1 ink" if reward else "") + ")"), said
    s.apply(fulfil(0, mode))
    p = me(s, 0)
    assert (p["guilders"], p["fame"], p["inks"][RED]) == (2, fame, inks)
    assert s.to_dict()["bag"][RED] == 12 - inks
    assert p["levels"] == [2, 0, 2, 0]
    assert p["order_printing"][0] == -1
    if reward:
        assert [(q["kind"], q["seat"], q["amount"]) for q in pending(s)] == [(PD["INK"], 0, 1)]
        assert s.current_player() == 0
    else:
        assert pending(s) == [] and s.is_chance()


def test_fulfil_refinement_parts_need_inks_and_levels():
    R = rules(2)
    d = blank(R, types="AI")
    give_order(d, 0, 0, 0)
    player(d, 0, inks={"blue": 1}, levels={"typesetting": 2, "binding": 1})
    s = at_fulfil(R, d, 0)
    assert legal_in(s, A["FULFIL"], A["INK"]) == [fulfil(0, "skip"), fulfil(0, "print")]


def test_fulfil_inks_serve_one_order():
    R = rules(2)
    d = blank(R, types="AIOU")
    give_order(d, 0, 0, 4)       # A I, silver
    give_order(d, 0, 6, 5)       # O U, silver
    player(d, 0, inks={"silver": 1})
    s = at_fulfil(R, d, 0)
    s.apply(fulfil(0, "colour"))
    assert s.legal_actions() == [fulfil(1, "skip"), fulfil(1, "print")]
    s.apply(fulfil(1, "print"))
    p = me(s, 0)
    assert p["fame"] == 2 and p["inks"] == [0, 0, 0, 0] and s.to_dict()["bag"][SILVER] == 12


def test_fulfil_rewards_cannot_pay_for_another_order_of_the_same_turn():
    """Order 1 completes and rewards an ink; order 2 needs a red and a U. Neither the
    reward ink nor the printing guilders (a U would cost 4) serve order 2 this turn."""
    R = rules(2)
    d = blank(R, types="AIO", guilders=3)
    give_order(d, 0, 0, 0)       # A I; red; typesetting II + binding II; reward 1 ink
    give_order(d, 0, 6, 12)      # O U; red
    player(d, 0, inks={"red": 1}, levels={"typesetting": 2, "binding": 2})
    s = at_fulfil(R, d, 0)
    assert buys(s) == []         # 3 guilders: no 4th type
    s.apply(fulfil(0, "both"))
    assert s.legal_actions() == [fulfil(1, "skip")]
    s.apply(fulfil(1, "skip"))
    # The completion reward: "Taking a reward is optional" (p.14), so it may be declined.
    assert s.current_player() == 0
    assert s.legal_actions() == [PASS] + [choose_ink(c) for c in ("blue", "silver", "gold", "red")]
    s.apply(choose_ink("red"))
    p = me(s, 0)
    assert p["guilders"] == 5 and p["fame"] == 5 and p["inks"] == [0, 0, 0, 1]
    assert p["order_printing"] == [-1, 6, -1, -1]      # order 2 waits for another round


def test_fulfil_in_seat_order_from_the_first_player():
    R = rules(3)
    d = blank(R, first_player=2)
    for seat in range(3):
        give_order(d, seat, seat, seat)          # printing 0 = A I, 1 = A O, 2 = A U
        player(d, seat, types="AIOU")
    s = at_turn(R, d, "patronage", [2], turn=0)
    s.apply(PASS)
    assert s.phase == "fulfil"
    seen = []
    while s.phase == "fulfil":
        seat = s.current_player()
        seen.append(seat)
        s.apply(fulfil(0, "print"))
        while s.phase == "fulfil" and s.current_player() == seat:
            s.apply(PASS)                        # done after printing (no type bought)
    assert seen == [2, 0, 1]
    assert [me(s, k)["guilders"] for k in range(3)] == [12, 12, 12]


def test_fulfil_an_order_gained_before_the_first_pick():
    """A free action at the start of the fulfil turn (the order gear) brings an order;
    it is held when the orders are chosen, so it may be fulfilled at once."""
    R = rules(2)
    g, o = find_gear("order")
    d = blank(R, types="AIOU")
    install_gear(d, 0, g, active=o)
    give_order(d, 0, 0, 1, slot=1)               # A I
    only_in_deck(d, "printing", [11, 12])        # A I O, A I U
    only_in_deck(d, "refinement", [20, 21])
    s = at_fulfil(R, d, 0)
    s.apply(use_gear(0))
    draw(s, ("P", 11), ("P", 12), ("R", 20), ("R", 21))
    s.apply(take_printing(11))
    s.apply(take_refinement(20))
    assert me(s, 0)["order_printing"][:2] == [11, 0]
    assert legal_in(s, A["FULFIL"], A["INK"]) == [fulfil(0, "skip"), fulfil(0, "print")]
    s.apply(fulfil(0, "print"))
    assert s.legal_actions() == [fulfil(1, "skip")]      # the A and I serve order 1 already
    s.apply(fulfil(1, "skip"))
    assert me(s, 0)["guilders"] == 13 and me(s, 0)["order_printing"][:2] == [-1, 0]


def test_fulfil_turn_without_orders_still_allows_free_actions():
    R = rules(2)
    g, o = find_gear("round_fame")
    d = blank(R, round=5, guilders=3)
    install_gear(d, 0, g, active=o)
    s = at_fulfil(R, d, 0)
    assert s.legal_actions() == [use_gear(0), PASS]
    s.apply(use_gear(0))
    assert me(s, 0)["fame"] == 5
    assert s.is_chance() and s.to_dict()["phase"] == PH["REFILL"]    # nothing else: round over


def test_fulfil_nothing_keeps_the_orders():
    R = rules(2)
    d = blank(R)
    give_order(d, 0, 0, 0)
    s = at_fulfil(R, d, 0)
    s.apply(fulfil(0, "skip"))
    assert me(s, 0)["order_printing"][0] == 0 and me(s, 0)["guilders"] == 10


# =======================================================================================
# 13. End of the round and of the game
# =======================================================================================
def test_prepare_next_round():
    R = rules(3)
    d = blank(R, round=2, first_player=0)
    d["patronage_reward_seat"] = [0, 2, -1, 1]
    g, o = find_gear("round_fame", players=3)
    install_gear(d, 0, g, active=o, used=True)
    player(d, 0, plan=(2, 2, 1, 1, 1))
    s = next_round(R, d)
    d = s.to_dict()
    assert s.phase == "plan" and s.round == 3
    assert d["first_player"] == 1
    assert [me(s, k)["markers"] for k in range(3)] == [9, 7, 8]
    assert s.current_player() == 1                     # the first player plans first
    assert d["patronage_reward_seat"] == [-1] * 4
    p = me(s, 0)
    assert p["gear_used"] == [0, 0, 0] and p["gear_uses"] == 0
    assert p["plan"] == [0] * 5
    # The board is refilled: 4 of each kind with 3 players.
    assert sum(x >= 0 for x in d["printing_space"]) == 4
    assert sum(x >= 0 for x in d["refinement_space"]) == 4
    assert sum(x >= 0 for x in d["specialty_space"]) == 4
    assert sum(x >= 0 for x in d["gear_space"]) == 4
    assert sum(c >= 0 for sp in d["ink_space"] for c in sp) == 12
    assert sum(d["bag"]) == 48 - 12


def test_refill_reshuffles_an_empty_deck():
    R = rules(2)
    d = blank(R)
    only_in_deck(d, "printing", [7])
    s = next_round(R, d)           # chance_all draws the lowest card each time
    d = s.to_dict()
    assert d["printing_space"][:3] == [7, 0, 1]
    assert d["printing_discard"] == 0
    assert len(bits(d["printing_deck"])) == 47


def test_first_player_token_goes_round_the_table():
    R = rules(4)
    d = blank(R, round=1, first_player=3)
    s = next_round(R, d)
    assert s.to_dict()["first_player"] == 0
    assert [me(s, k)["markers"] for k in range(4)] == [7, 8, 9, 10]


@pytest.mark.parametrize("rounds", [1, 2, 6])
def test_game_ends_after_the_last_round(rounds):
    R = rules(2, rounds=rounds)
    d = blank(R, round=rounds)
    s = at_fulfil(R, d, 1)
    s.apply(PASS)
    assert s.is_terminal() and s.current_player() == -4 and s.round == rounds
    if rounds > 1:
        d = blank(R, round=rounds - 1)
        s = next_round(R, d)
        assert s.phase == "plan" and s.round == rounds


@pytest.mark.parametrize("rounds", [1, 2])
def test_random_game_lasts_the_given_rounds(rounds):
    R = rules(2, rounds=rounds)
    seen = set()
    s = play_until(R.new_state(), lambda s: seen.add((s.round, s.phase)) or s.is_terminal(), seed=rounds)
    assert {r for r, _ in seen} == set(range(rounds + 1))           # 0: the setup
    # The board is prepared for a next round after every round but the last.
    assert {r for r, ph in seen if ph == "prepare"} == set(range(1, rounds))
    assert {r for r, ph in seen if ph == "fulfil"} == set(range(1, rounds + 1))
    assert s.is_terminal() and s.round == rounds


def test_winner_most_fame():
    s = at_end(rules(2), p0=dict(fame=50, types="AAIOU"), p1=dict(fame=49, types="A"))
    assert s.final_scores() == [53, 52] and s.winners() == [0]


def test_tie_broken_by_fewer_types():
    s = at_end(rules(2), p0=dict(fame=50, types="AIOU"), p1=dict(fame=50, types="AIO", inks={"red": 3}))
    assert s.final_scores()[0] == s.final_scores()[1]
    assert s.winners() == [1]


def test_tie_then_broken_by_fewer_inks():
    s = at_end(rules(3), p0=dict(fame=50, inks={"red": 2}), p1=dict(fame=50, inks={"blue": 1}),
                 p2=dict(fame=50, inks={"gold": 1, "red": 1}))
    assert s.winners() == [1]


def test_tie_unbroken_is_shared():
    s = at_end(rules(3), p0=dict(fame=50, inks={"red": 1}), p1=dict(fame=48),
                 p2=dict(fame=50, inks={"gold": 1}))
    assert s.winners() == [0, 2]


# =======================================================================================
# 14. Free actions "at any time" (p.10: a gear's reward "at any time"; p.13: types bought
#     "at any time during a round"): before the plans and after printing too
# =======================================================================================
def window_table(R, first_player=0, **edits):
    """The plan step of round 2 before anyone commits: the free-action windows open."""
    d = blank(R, round=2, first_player=first_player)
    for seat, e in edits.items():
        player(d, int(seat[1:]), **e)
    return d


def test_free_action_windows_before_the_plans_in_seat_order():
    R = rules(3)
    s = at_phase(R, window_table(R, first_player=1), "PLAN", sub=0)
    assert s.step_name() == "free actions before the plans"
    assert s.current_player() == 1 and s.legal_actions() == buys(s) + [PASS] and len(buys(s)) == 4
    assert s.action_to_string(PASS) == "free actions before the plans: done"
    s.apply(buy("U"))                     # the 4th type: 4 guilders
    assert me(s, 1)["types"] == [1, 1, 1, 1] and me(s, 1)["guilders"] == 6
    assert s.current_player() == 1        # still seat 1's window
    s.apply(PASS)
    assert s.current_player() == 2
    s.apply(PASS)
    assert s.current_player() == 0
    s.apply(PASS)
    # Then the plans, in seat order from the first player: plans only.
    assert s.current_player() == 1 and s.step_name() == "plan"
    assert all(A["PLAN"] <= a < A["PRINTING"] for a in s.legal_actions())


def test_free_action_windows_with_nothing_to_do_are_skipped():
    R = rules(3)
    d = blank(R, round=2, guilders=0)
    player(d, 2, guilders=5)              # only seat 2 can buy a type
    s = next_round(R, d)                  # round 3: first player 1
    assert s.phase == "plan" and s.current_player() == 2 and s.legal_actions() == buys(s) + [PASS]
    s.apply(PASS)
    assert s.current_player() == 1 and all(a < A["PRINTING"] for a in s.legal_actions())


def test_order_gear_before_the_plans_informs_the_plan():
    """The order gear's draws are made before the plans (seen by all), and its order
    can be planned around."""
    R = rules(2)
    g, o = find_gear("order")
    d = window_table(R, p0=dict(guilders=0), p1=dict(guilders=0))
    install_gear(d, 0, g, active=o)
    only_in_deck(d, "printing", [11, 12])
    only_in_deck(d, "refinement", [20, 21])
    s = at_phase(R, d, "PLAN", sub=0)
    assert s.legal_actions() == [use_gear(0), PASS]
    s.apply(use_gear(0))
    draw(s, ("P", 11), ("P", 12), ("R", 20), ("R", 21))
    s.apply(take_printing(12))
    s.apply(take_refinement(21))
    assert me(s, 0)["order_printing"][0] == 12 and me(s, 0)["gear_used"][0] == 1
    # Nothing else to do in either window: on to the plans, seat 0 first.
    assert s.current_player() == 0 and all(a < A["PRINTING"] for a in s.legal_actions())


def test_free_actions_before_the_plans_are_public_the_plans_hidden():
    """Information states: the actions in the windows (and the draws they cause) are
    seen by all; a plan is hidden from the others until every plan is committed, and a
    resample redraws the plans only."""
    R = rules(2)
    g, o = find_gear("order")
    d = window_table(R, p1=dict(guilders=0))
    install_gear(d, 0, g, active=o)
    only_in_deck(d, "printing", [11, 12])
    only_in_deck(d, "refinement", [20, 21])
    start = at_phase(R, d, "PLAN", sub=0)
    s = start.clone()
    history = []

    def act(a):
        history.append((s.current_player(), a))
        s.apply(a)

    act(buy("U"))
    act(use_gear(0))
    for c in (C["PRINTING"] + 11, C["PRINTING"] + 12, C["REFINEMENT"] + 20, C["REFINEMENT"] + 21):
        act(c)
    act(take_printing(11))
    act(take_refinement(20))
    act(PASS)                                       # seat 0's window closes; seat 1 has none
    act(plan_index((3, 1, 1, 1, 1)))                # seat 0's plan
    assert s.current_player() == 1
    masked = s.mask_history(1, history)
    assert masked[:-1] == history[:-1]              # every free action and draw: seen
    assert masked[-1] == (0, -1)                    # the plan: hidden
    assert s.mask_history(0, history) == history
    for seed in range(5):
        t, actions = s.resample_history(1, history, seed)
        assert actions[:-1] == [a for _, a in history[:-1]]
        replay = start.clone()
        for a in actions:
            replay.apply(a)
        assert replay == t and replay.observation_string(1) == s.observation_string(1)


def test_after_printing_sell_the_type_just_printed_with():
    R = rules(2)
    g, o = find_gear("sell_type")
    d = blank(R, guilders=0, types="AI")
    install_gear(d, 0, g, active=o)
    give_order(d, 0, 0, 1)                          # A I: 2 guilders
    s = at_fulfil(R, d, 0)
    assert gear_uses(s) == [use_gear(0)]            # before the first pick
    s.apply(fulfil(0, "print"))
    # Printed (no fulfilment gear to use first); the A and I have done their work.
    assert me(s, 0)["guilders"] == 2 and me(s, 0)["order_printing"][0] == -1
    assert s.step_name() == "fulfil: after printing" and s.legal_actions() == [use_gear(0), PASS]
    s.apply(use_gear(0))
    s.apply(choose_letter("I"))
    s.apply(A["SELL_FAME"])
    assert me(s, 0)["types"] == [1, 0, 0, 0] and me(s, 0)["fame"] == 3
    assert s.current_player() == 0 and s.legal_actions() == buys(s) + [PASS]   # a 2nd type: 2
    s.apply(PASS)
    assert s.is_chance()                            # player 1 has nothing to do: round over


def test_after_printing_an_order_gear_uses_the_freed_slot():
    R = rules(2)
    g, o = find_gear("order")
    d = blank(R, guilders=0, types="AIO")
    install_gear(d, 0, g, active=o)
    for pr, rf in ((0, 1), (3, 2), (6, 5), (2, 0)):   # 4 orders: A I, I I, O U, A U
        give_order(d, 0, pr, rf)
    only_in_deck(d, "printing", [11, 12])
    only_in_deck(d, "refinement", [20, 21])
    s = at_fulfil(R, d, 0)
    s.apply(fulfil(0, "print"))
    for slot in (1, 2, 3):
        s.apply(fulfil(slot, "skip"))
    assert me(s, 0)["order_printing"] == [-1, 3, 6, 2]
    s.apply(use_gear(0))
    draw(s, ("P", 11), ("P", 12), ("R", 20), ("R", 21))
    s.apply(take_printing(11))
    s.apply(take_refinement(20))                      # no discard: slot 1 is free
    assert me(s, 0)["order_printing"] == [11, 3, 6, 2]
    assert me(s, 0)["order_refinement"] == [20, 2, 5, 0]


def test_after_printing_a_discount_bought_with_guilders_just_earned():
    R = rules(2)
    g, o = find_gear("type_discount", ("O", "U"))
    d = blank(R, guilders=0, types="AIO")
    install_gear(d, 0, g, active=o)
    give_order(d, 0, 0, 1)                          # A I: 2 guilders
    s = at_fulfil(R, d, 0)
    assert gear_uses(s) == []                       # the 4th type: 4 - 3 = 1 guilder
    s.apply(fulfil(0, "print"))
    assert me(s, 0)["guilders"] == 2
    assert gear_uses(s) == [use_gear(0)]
    s.apply(use_gear(0))
    s.apply(choose_letter("U"))
    assert me(s, 0)["types"] == [1, 1, 1, 1] and me(s, 0)["guilders"] == 1


def test_no_second_window_for_a_fulfil_turn_without_orders():
    R = rules(2)
    d = blank(R)
    s = at_fulfil(R, d, 0)                          # no orders: the free actions, then done
    assert s.legal_actions() == buys(s) + [PASS]
    s.apply(PASS)
    assert s.current_player() == 1


def test_no_window_after_printing_when_nothing_is_printed():
    # Every order kept: the state is the one of the free actions before the first
    # choice, so the turn ends there.
    R = rules(2)
    d = blank(R)
    give_order(d, 0, 0, 1)
    s = at_fulfil(R, d, 0)
    assert buys(s)
    s.apply(fulfil(0, "skip"))
    assert s.current_player() == 1 and me(s, 0)["order_printing"][0] == 0


def test_ink_trade_takes_two_inks_not_declinable():
    s = gear_turn("ink_trade", ("blue",), inks={"blue": 1})
    s.apply(use_gear(0))
    assert s.legal_actions() == [choose_ink(c) for c in ("blue", "silver", "gold", "red")]
    s.apply(choose_ink("gold"))
    assert s.legal_actions() == [choose_ink(c) for c in ("blue", "silver", "gold", "red")]
    s.apply(choose_ink("gold"))
    assert me(s, 0)["inks"] == [0, 0, 2, 0]


def test_ink_trade_takes_as_far_as_the_bag_holds():
    R = rules(2)
    g, o = find_gear("ink_trade", ("blue",))
    d = blank(R)
    install_gear(d, 0, g, active=o)
    player(d, 0, inks={"blue": 1})
    player(d, 1, inks={"blue": 11, "silver": 12, "gold": 12, "red": 12})
    s = at_turn(R, d, "patronage", [0, 1])
    s.apply(use_gear(0))
    assert s.legal_actions() == [choose_ink("blue")]  # the blue just put in, nothing else
    s.apply(choose_ink("blue"))
    assert me(s, 0)["inks"] == [1, 0, 0, 0] and pending(s) == [] and s.current_player() == 0


# =======================================================================================
# 15. Bad input
# =======================================================================================
def test_illegal_action_raises_and_leaves_the_state_unchanged():
    R = rules(2)
    s = at_turn(R, ink_board(R, guilders=0), "inks", [0, 1])
    before = s.to_bytes()
    for a in (take_inks(1, 1), take_printing(0), PASS + 1000, -1, A["NUM_ACTIONS"], plan_index((2, 2, 1, 1, 1))):
        with pytest.raises(IllegalActionError):
            s.apply(a)
        assert s.to_bytes() == before
    assert issubclass(IllegalActionError, ValueError)


def test_illegal_chance_outcome():
    R = rules(2)
    s = R.new_state()
    before = s.to_bytes()
    with pytest.raises(IllegalActionError):
        s.apply(C["INK"])                 # the first draw is a printing card
    assert s.to_bytes() == before


LEGAL_INKS = take_inks(0, 1)      # legal in the position below


@pytest.mark.parametrize("action", ["x", str(LEGAL_INKS), None, LEGAL_INKS + 0.5, float(LEGAL_INKS),
                                    [LEGAL_INKS], 2 ** 40 + LEGAL_INKS])
def test_non_integer_action(action):
    R = rules(2)
    s = at_turn(R, ink_board(R), "inks", [0, 1])
    assert LEGAL_INKS in s.legal_actions()
    before = s.to_bytes()
    with pytest.raises(IllegalActionError):
        s.apply(action)
    assert s.to_bytes() == before


def test_action_after_the_end():
    s = at_end(rules(2))
    before = s.to_bytes()
    assert s.legal_actions() == [] and s.chance_outcomes() == []
    for a in (PASS, 0):
        with pytest.raises(IllegalActionError, match="over"):
            s.apply(a)
    assert s.to_bytes() == before


def test_state_from_dict_card_in_two_places():
    R = rules(2)
    d = blank(R)
    d["players"][0]["order_printing"][0] = 5
    d["players"][0]["order_refinement"][0] = 7
    d["refinement_deck"] &= ~(1 << 7)
    with pytest.raises(ValueError, match=r"printing card 5 .*printing_deck.*players\[0\]\.order_printing\[0\]"):
        R.state_from_dict(d)


def test_state_from_dict_47_inks():
    R = rules(2)
    d = blank(R)
    d["bag"][SILVER] = 11
    with pytest.raises(ValueError, match="inks: 11 silver"):
        R.state_from_dict(d)


def test_state_from_dict_level_seven():
    R = rules(2)
    d = blank(R)
    d["players"][1]["levels"][BINDING] = 7
    with pytest.raises(ValueError, match=r"players\[1\]\.levels\[2\]: 7"):
        R.state_from_dict(d)


def test_state_from_dict_malformed():
    R = rules(2)
    d = blank(R)
    del d["bag"]
    with pytest.raises(ValueError, match="bag"):
        R.state_from_dict(d)


@pytest.mark.parametrize("kw,name", [(dict(players=5), "players"), (dict(players=1), "players"),
                                     (dict(rounds=0), "rounds"), (dict(rounds=7), "rounds")])
def test_rules_parameters_out_of_range(kw, name):
    with pytest.raises(ValueError, match=name):
        _core.Rules(catalogue(), **kw)


def test_a_free_action_window_must_come_before_the_plans():
    R = rules(2)
    for fields in (dict(sub=0, step=1), dict(sub=2, step=0)):
        d = blank(R)
        d.update(phase=PH["PLAN"], **fields)
        with pytest.raises(ValueError, match="sub: the free-action window"):
            R.state_from_dict(d)


def test_five_numbers_typed_in_the_window_before_the_plans_point_to_done():
    """A plan typed while the player's window of free actions is open is not played: the
    prompt says the plan comes after the window and which number closes it."""
    from gutenberg_ai.games.gutenberg import view
    R = rules(3)
    s = at_phase(R, window_table(R, first_player=1), "PLAN", sub=0)
    legal = s.legal_actions()
    with pytest.raises(ValueError, match=rf"after this window.*{legal.index(PASS) + 1} \(done\)"):
        view.typed_move(s, [1, 1, 1, 1, 0], legal)
