"""Gutenberg's scoring, term by term, and its "both / either / at least" conditions in both
directions, on hand-made positions (positions.py) with the numbers worked out by hand
from the English rulebook (seeds/gutenberg-rulebook-en.txt): the end-of-game scoring
(p.15, Vietor p.23), the order's refinements and its completion reward (p.13-14).

Each test pins one term or one boundary, so that dropping the term, moving it by one or
loosening its condition fails here. docs/gutenberg/rules-tests.md lists what checks what.
"""
import pytest

from positions import (
    PASS, PD, at_end, at_fulfil, at_phase, blank, catalogue, character, fulfil, give_order, me,
    pending, player, rules,
)


def final(**seats):
    """The end of a 2-player game, the players without guilders unless edited."""
    return at_end(rules(2), guilders=0, **seats)


# =======================================================================================
# End of the game (p.15): fame + specialties + 8 per patronage card + 1 per 3 guilders
# =======================================================================================
@pytest.mark.parametrize("level,points", [
    (0, 0), (1, 0), (2, 0), (3, 0),   # below IV: nothing ("1 point for each specialty at level IV")
    (4, 1), (5, 3), (6, 6),           # p.15: IV 1, V 3, VI 6
])
def test_a_specialty_scores_by_its_level(level, points):
    # 20 fame + the one specialty's points; no guilders, no patronage cards.
    for name in ("typesetting", "woodcutting", "binding", "illuminating"):
        s = final(p0=dict(fame=20, levels={name: level}))
        assert s.final_scores()[0] == 20 + points
        assert s.score_breakdown(0)["specialties"] == points


def test_every_specialty_scores_on_its_own():
    """p.15 "for each specialty": VI + VI + V + IV = 6 + 6 + 3 + 1 = 16, not the best one
    alone (6) nor one per level (6 + 3 + 1 = 10)."""
    s = final(p0=dict(fame=0, levels={"typesetting": 6, "woodcutting": 6, "binding": 5,
                                      "illuminating": 4}))
    assert s.final_scores()[0] == 16
    assert s.score_breakdown(0) == dict(fame=0, specialties=16, patronage=0, guilders=0, total=16)


@pytest.mark.parametrize("guilders,points", [
    (0, 0), (2, 0), (3, 1), (4, 1),   # p.15 example: "his 4 guilders give 1 point"
    (5, 1), (6, 2), (8, 2), (9, 3),   # "1 point for every 3 guilders": whole threes only
])
def test_guilders_score_one_point_for_every_three(guilders, points):
    s = final(p0=dict(fame=30, guilders=guilders))
    assert s.final_scores()[0] == 30 + points
    assert s.score_breakdown(0)["guilders"] == points


@pytest.mark.parametrize("cards,points", [(0, 0), (1, 8), (2, 16)])
def test_patronage_cards_score_eight_each(cards, points):
    # p.15 example: "his 2 patronage cards give 16 points".
    s = final(p0=dict(fame=30, patronage=cards))
    assert s.final_scores()[0] == 30 + points
    assert s.score_breakdown(0)["patronage"] == points


def test_the_four_terms_add_up():
    """77 fame + binding V (3) + 1 patronage card (8) + 7 guilders (2) = 90; each term
    is a different size, so a term dropped or counted twice gives another total."""
    s = final(p0=dict(fame=77, levels={"binding": 5}, patronage=1, guilders=7))
    assert s.score_breakdown(0) == dict(fame=77, specialties=3, patronage=8, guilders=2, total=90)
    assert s.final_scores()[0] == 90


@pytest.mark.parametrize("who,points", [("Vietor", 2), (None, 1), ("Fiol", 1)])
def test_example_vietor_five_guilders(who, points):
    """p.23: "5 guilders normally give 1 fame point, but this player would earn 2 fame
    points from 5 guilders"; only Vietor doubles."""
    R = rules(2)
    d = blank(R, round=6, guilders=0)
    if who:
        character(d, 0, who)
    player(d, 0, fame=40, guilders=5)
    s = at_phase(R, d, "TERMINAL")
    assert s.final_scores()[0] == 40 + points
    assert s.score_breakdown(0)["guilders"] == points


# ---------------------------------------------------------------------------------------
# The winner: "the most fame points" after the final scoring, then fewer types, then
# fewer inks (p.15).
# ---------------------------------------------------------------------------------------
def test_the_winner_is_ranked_on_the_final_score_not_the_fame_track():
    """Seat 0: 49 fame + typesetting IV (1) = 50; seat 1: 50 fame. Tied at 50, seat 0 has
    fewer types (3 to 4) and wins, though behind on the fame track."""
    s = final(p0=dict(fame=49, levels={"typesetting": 4}, types="AIO"),
              p1=dict(fame=50, types="AIOU"))
    assert s.final_scores() == [50, 50]
    assert s.winners() == [0]


def test_more_fame_wins_over_fewer_types_and_inks():
    # 51 against 50: the tie-breaks are not reached.
    s = final(p0=dict(fame=51, types="AAIIOOUU", inks={"red": 3}), p1=dict(fame=50, types="A"))
    assert s.winners() == [0]


def test_fewer_types_come_before_fewer_inks():
    # Tied at 50: seat 1 has fewer types (3 to 4) but more inks (2 to 0); types decide.
    s = final(p0=dict(fame=50, types="AIOU"), p1=dict(fame=50, types="AIO", inks={"blue": 2}))
    assert s.winners() == [1]


def test_equal_types_and_inks_share_the_win():
    # Tied at 50, 4 types each, 1 ink each (colours do not matter): "remain unbroken ties".
    s = final(p0=dict(fame=50, types="AAIO", inks={"red": 1}),
              p1=dict(fame=50, types="IOUU", inks={"gold": 1}))
    assert s.winners() == [0, 1]


@pytest.mark.parametrize("players", [1, 2])
def test_the_automa_is_not_ranked(players):
    """The automa "does not accumulate resources" (p.17) and is no winner: with the
    players at 0 points and 3 types each, the automa (0 points, no types, no inks) would
    rank first by the tie-breaks if it were ranked."""
    R = rules(players, automa=True)
    d = blank(R, round=6, guilders=0)
    s = at_phase(R, d, "TERMINAL")
    assert s.final_scores() == [0] * players
    assert s.winners() == list(range(players))
    if players == 2:
        # The two players share the win, so the "win" returns are 0 each (not a share
        # of a three-way win with the automa).
        assert s.returns("win") == [0.0, 0.0]


# =======================================================================================
# An order's refinements and completion reward (p.13-14)
# =======================================================================================
# Printing card 0 needs A, I and pays 2 guilders. Each refinement card below: its colour
# part, its decoration part, and its completion reward, one of each kind of p.14's table
# ("1 / 2 selected inks", "1 / 2 guilders", "2 / 3 fame points", a specialty level, an
# order). (colour inks, decoration levels, colour fame, decoration fame) come from the
# catalogue (docs/gutenberg/catalogue.md); the expected numbers are written out by hand.
COMPLETION = {
    # card: (inks, levels, colour fame, decoration fame, reward guilders, reward fame,
    #        pending reward (kind, amount) or None)
    0: ({"red": 1}, {"typesetting": 2, "binding": 2}, 2, 3, 0, 0, ("INK", 1)),
    12: ({"red": 1}, {"typesetting": 4, "woodcutting": 4}, 2, 7, 0, 0, ("INK", 2)),
    4: ({"silver": 1}, {"binding": 2}, 2, 1, 1, 0, None),
    25: ({"silver": 2}, {"typesetting": 3}, 5, 2, 2, 0, None),
    1: ({"blue": 1}, {"illuminating": 3}, 2, 2, 0, 2, None),
    39: ({"blue": 1, "silver": 1, "gold": 1}, {"woodcutting": 2, "binding": 2}, 6, 3, 0, 3, None),
    29: ({"silver": 1, "red": 1}, {"typesetting": 3, "illuminating": 3}, 4, 5, 0, 0, ("SPECIALTY", 1)),
    17: ({"blue": 1, "silver": 1}, {"typesetting": 4, "illuminating": 3}, 4, 6, 0, 0, ("ORDER", 1)),
}


def completion_fulfil(card, mode):
    """Seat 0 holds order (printing 0, refinement `card`) with exactly the inks and levels
    its refinement needs (the decoration's levels, no higher), types A I and no guilders;
    it fulfils the order in `mode`."""
    inks, levels, *_ = COMPLETION[card]
    assert dict(catalogue().refinement[card].colour) == inks
    assert dict(catalogue().refinement[card].decoration) == levels
    R = rules(2)
    d = blank(R, types="AI", guilders=0)
    give_order(d, 0, 0, card)
    player(d, 0, inks=inks, levels=levels)
    s = at_fulfil(R, d, 0)
    s.apply(fulfil(0, mode))
    return s


@pytest.mark.parametrize("card", sorted(COMPLETION))
def test_both_refinement_parts_give_both_fames_and_the_completion_reward(card):
    _, _, colour, decoration, guilders, fame, reward = COMPLETION[card]
    s = completion_fulfil(card, "both")
    p = me(s, 0)
    assert p["guilders"] == 2 + guilders
    assert p["fame"] == colour + decoration + fame
    assert p["inks"] == [0, 0, 0, 0]                  # the colour part's inks are spent
    got = [(q["kind"], q["seat"], q["amount"]) for q in pending(s)]
    assert got == ([(PD[reward[0]], 0, reward[1])] if reward else [])
    if reward == ("ORDER", 1):
        assert s.is_chance()                          # its cards are drawn first (p.8)
    elif reward:
        # "Taking a reward is optional" (p.14): the player's choice, which may be declined.
        assert s.current_player() == 0 and PASS in s.legal_actions()


@pytest.mark.parametrize("mode", ["colour", "decoration"])
@pytest.mark.parametrize("card", sorted(COMPLETION))
def test_one_refinement_part_gives_its_fame_and_no_completion_reward(card, mode):
    """"If the order is completely fulfilled (the printing card and both parts of the
    refinement card)" (p.14): one part alone is not enough (Fiol aside, p.23)."""
    inks, _, colour, decoration, *_ = COMPLETION[card]
    s = completion_fulfil(card, mode)
    p = me(s, 0)
    assert p["guilders"] == 2
    assert p["fame"] == (colour if mode == "colour" else decoration)
    assert sum(p["inks"]) == (0 if mode == "colour" else sum(inks.values()))
    assert pending(s) == []


# ---------------------------------------------------------------------------------------
# The parts' conditions: a decoration needs "all the indicated specialties", each "at the
# same level (or higher)"; a colour part needs all its inks (p.14).
# ---------------------------------------------------------------------------------------
def modes(card, inks=None, levels=None):
    """The fulfil modes open to seat 0 for order (printing 0, refinement `card`)."""
    R = rules(2)
    d = blank(R, types="AI")
    give_order(d, 0, 0, card)
    player(d, 0, inks=inks, levels=levels)
    s = at_fulfil(R, d, 0)
    names = ("skip", "print", "colour", "decoration", "both")
    return [m for m in names if fulfil(0, m) in s.legal_actions()]


@pytest.mark.parametrize("levels,open_", [
    ({"typesetting": 4, "illuminating": 3}, True),    # exactly the levels: "(or higher)"
    ({"typesetting": 6, "illuminating": 5}, True),    # higher
    ({"typesetting": 3, "illuminating": 3}, False),   # one level short on one
    ({"typesetting": 4, "illuminating": 2}, False),   # the other one short
    ({"typesetting": 6}, False),                      # one specialty only: "all" needed
    ({"illuminating": 6}, False),
])
def test_decoration_needs_every_indicated_specialty_at_its_level_or_higher(levels, open_):
    # Refinement 17's decoration: typesetting IV and illuminating III.
    assert ("decoration" in modes(17, levels=levels)) is open_


@pytest.mark.parametrize("inks,open_", [
    ({"blue": 1, "silver": 1}, True),                 # exactly its inks
    ({"blue": 2, "silver": 3}, True),
    ({"blue": 1}, False),                             # one of the two colours only
    ({"silver": 2}, False),
    ({"blue": 1, "gold": 1}, False),                  # a wrong colour does not stand in
])
def test_colour_part_needs_every_indicated_ink(inks, open_):
    # Refinement 17's colour part: 1 blue and 1 silver.
    assert ("colour" in modes(17, inks=inks)) is open_


@pytest.mark.parametrize("inks,open_", [({"silver": 2}, True), ({"silver": 1}, False)])
def test_colour_part_needs_as_many_inks_as_indicated(inks, open_):
    # Refinement 25's colour part: 2 silver.
    assert ("colour" in modes(25, inks=inks)) is open_
