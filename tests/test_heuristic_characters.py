"""The heuristic player (the search's rollout policy and the source of its priors) plays
each character's ability (rulebook p.23), on hand-made positions (see positions.py).

Before, the heuristic knew no character: Gutenberg always shifted the first marker he
could, Caxton's wild colour was the first listed, Plantin never swapped, and Fiol's and
Vietor's rules did not enter its values. Each test below would fail with that heuristic.
"""
import pytest

from gutenberg_ai.games.gutenberg import _core
from positions import (
    A, C, PASS, PD, at_fulfil, at_phase, at_turn, blank, character, choose_ink, choose_letter, find_gear,
    fulfil, give_order, install_gear, me, pending, player, rules, use_gear,
)

plan_index = _core.plan_index
GUILLARD, VIETOR = 2, 9     # names.CHARACTERS


def heuristic(s):
    """The heuristic's move, without its random moves."""
    return _core.heuristic_move(s, seed=1, epsilon=0.0)


def shift(i, j):
    return A["SHIFT"] + i * 5 + j


def swap(i, j):
    return A["SWAP"] + i * 4 + j


# -- Johannes Gutenberg: a shift only where the plan gains --------------------------------
def gutenberg_reveal(plan0):
    """Seat 0 is Gutenberg with `plan0` (7 markers), on an empty board; seat 1 plans."""
    R = rules(2)
    d = blank(R)
    character(d, 0, "Gutenberg")
    player(d, 0, plan=plan0)
    s = at_phase(R, d, "PLAN", step=1)
    s.apply(plan_index((0, 2, 2, 2, 2)))
    assert [q["kind"] for q in pending(s)] == [PD["SHIFT"]]
    return s


def test_gutenberg_keeps_a_plan_no_shift_improves():
    # The plan the heuristic rates best on this board (the patronage rewards are all that
    # is on it): no single shift scores higher, so he keeps it.
    R = rules(2)
    d = blank(R)
    character(d, 0, "Gutenberg")
    s = at_phase(R, d, "PLAN", step=0)
    best, _ = max(_core.root_move_values(s, 0), key=lambda mv: mv[1])
    assert _core.plan_of(best) == (0, 0, 0, 1, 6)
    s = gutenberg_reveal(_core.plan_of(best))
    assert len(s.legal_actions()) > 1
    assert heuristic(s) == PASS


def test_gutenberg_shifts_a_marker_from_a_crowded_row_to_an_empty_one():
    # A sixth marker on orders adds little; the same marker on an empty row gives a turn.
    move = heuristic(gutenberg_reveal((6, 1, 0, 0, 0)))
    assert move in (shift(0, 2), shift(0, 3), shift(0, 4))


# -- William Caxton: the wild colour that covers what his orders lack ---------------------
def caxton_choosing(inks, refinements):
    """Caxton (seat 0) at the start of a round, choosing the wild colour, with orders
    (printing 0, each refinement) and `inks`."""
    R = rules(2)
    d = blank(R)
    character(d, 0, "Caxton")
    player(d, 0, inks=inks)
    for k, r in enumerate(refinements):
        give_order(d, 0, k, r)
    d["pending"][0].update(kind=PD["CAXTON"], seat=0, amount=1, stage=0)
    d["n_pending"] = 1
    return at_phase(R, d, "PLAN", step=0)


@pytest.mark.parametrize("inks,wild", [({"gold": 2}, "gold"), ({"blue": 2}, "blue")])
def test_caxton_makes_his_spare_colour_wild(inks, wild):
    # Refinement 0 asks for red 1: the spare gold (or blue), made wild, pays it.
    s = caxton_choosing(inks, [0])
    assert s.legal_actions() == [choose_ink(c) for c in ("blue", "silver", "gold", "red")]
    assert heuristic(s) == choose_ink(wild)


# -- Christophe Plantin: a swap where it brings a decoration within reach -----------------
def plantin_fulfil(refinement):
    R = rules(2)
    d = blank(R)
    character(d, 0, "Plantin")
    player(d, 0, levels={"typesetting": 2}, inks={"silver": 1, "blue": 1})
    give_order(d, 0, 0, refinement)
    return at_fulfil(R, d, 0)


def test_plantin_swaps_before_fulfilling_when_a_decoration_comes_within_reach():
    # Refinement 4 needs silver 1 and binding II; he has the silver, typesetting II and
    # binding 0: with the swap the order is fulfilled whole.
    s = plantin_fulfil(4)
    assert swap(0, 2) in s.legal_actions()
    assert heuristic(s) == swap(0, 2)
    s.apply(swap(0, 2))
    assert heuristic(s) == fulfil(0, "both")


def test_plantin_keeps_his_swap_when_it_gains_nothing():
    # Refinement 1 needs illuminating III: no swap of his levels (II and 0s) reaches it.
    s = plantin_fulfil(1)
    assert any(A["SWAP"] <= a for a in s.legal_actions())
    assert heuristic(s) < A["SWAP"]


# -- Schweipolt Fiol: one refinement part is enough for the completion reward -------------
@pytest.mark.parametrize("who,move", [("Fiol", "colour"), ("Vietor", "skip"), (None, "skip")])
def test_fiol_fulfils_one_part_now_where_the_others_wait_for_both(who, move):
    # Refinement 1: blue 1 (2 fame), illuminating III (2 fame), reward 2 fame. With blue 1
    # and illuminating II in round 1, the others keep the order for both parts and the
    # reward; Fiol takes colour and the reward now.
    R = rules(2)
    d = blank(R)
    if who:
        character(d, 0, who)
    give_order(d, 0, 0, 1)
    player(d, 0, inks={"blue": 1}, levels={"illuminating": 2})
    s = at_fulfil(R, d, 0)
    assert heuristic(s) == fulfil(0, move)


# -- Hieronymus Vietor: his guilders are worth twice the fame at the end ------------------
@pytest.mark.parametrize("who,sale", [("Vietor", "SELL_GUILDERS"), ("Fiol", "SELL_FAME")])
def test_vietor_sells_a_type_for_guilders_in_the_last_round(who, sale):
    # 5 guilders are 1 2/3 fame at the end, Vietor's 3 1/3: against 3 fame.
    R = rules(2)
    g, o = find_gear("sell_type")
    d = blank(R, round=6)
    install_gear(d, 0, g, active=o)
    character(d, 0, who)
    player(d, 0, types="AIO")
    s = at_turn(R, d, "patronage", [0, 1])
    s.apply(use_gear(0))
    s.apply(choose_letter("O"))
    assert s.legal_actions() == [A["SELL_GUILDERS"], A["SELL_FAME"]]
    assert heuristic(s) == A[sale]
    assert me(s, 0)["types"] == [1, 1, 0, 0]


# -- Charlotte Guillard: the gears worth most as they will turn ---------------------------
def test_guillard_installs_the_gear_worth_most_not_the_first_drawn():
    R = rules(2, characters=True)
    s = R.new_state()
    while s.phase == "setup":
        s.apply(s.chance_outcomes()[0][0])
    s.apply(C["CHARACTER"] + GUILLARD)
    s.apply(C["CHARACTER"] + VIETOR)
    s.apply(A["CHARACTER"] + GUILLARD)
    for g in (10, 7, 14, 6):
        s.apply(C["GEAR"] + g)
    assert s.legal_actions() == [A["GEAR"] + g for g in (6, 7, 10, 14)]
    # Gear 14 (type fame, the lowest specialty up, a type sold) turns through sectors
    # worth more than the first listed, 6 (fame by the round, worth 1 at setup, a
    # specialty up, colour fame), and far more than 7 and 10 (ink trades and swaps, type
    # discounts).
    assert heuristic(s) == A["GEAR"] + 14
