"""Printing Press's setup and sequence of play for 1-4 players, by the rulebook's words
(seeds/printing-press-rulebook-en.txt): what each player takes at setup, how many orders
and cards are laid out, the rounds and their Select Cards steps on both sides of the time
track, one bonus marker a round, the cubes going back at Close Frames, the initiative a
closed frame keeps, setup tokens just before closing a frame, and a shared win. Rulings:
docs/printing_press/rulings.md.
"""
import pytest

from gutenberg_ai.games.printing_press import view
from pp_helpers import (
    A, SLOT, SYM, cat, deal_cards, deal_orders, edit, first_main, order, p8_table, play_until, rules,
    setup, take_orders, token_at, window, with_tableau,
)

TILES = ["Guillard", "Caxton", "Ungler", "Bonhomme"]      # no Gutenberg: three 1/2 markers each
SIDES = ["A", "B", "A", "B"]                              # Caxton side B: no extra setup token


def _setup(players):
    R = rules(players)
    if players == 1:
        return R, setup(R, character="Guillard")
    s = setup(R, tiles=TILES[:players], sides=SIDES[:players])
    while s.to_dict()["asking"] >= 0:          # Bonhomme (side B), at the start of the round
        s.apply(A["NO"])
    return R, s


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_each_player_takes_three_tokens_and_three_markers(players):
    """p.5 "Each player takes: 3 random tokens from the bag ... 3 double sided bonus
    markers with values 1/2"; solo p.14 the solo board takes 3 tokens of each kind out of
    the bag (the 4th of each kind goes back)."""
    R, s = _setup(players)
    d = s.to_dict()
    for seat in range(players):
        p = d["players"][seat]
        assert p["n_setup"] == 3 and p["slot"].count(SLOT["HAND"]) == 3
        assert (p["markers"], p["marker13"]) == (3, 0)
    assert sum(d["bag"]) == 48 - 3 * players - (9 if players == 1 else 0)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_orders_and_cards_laid_out_are_one_more_than_the_players(players):
    """p.9 "The number of available orders = the number of players + 1"; p.10 "The
    number of cards = the number of players + 1 ... Return the last unselected card to the
    box". Solo (p.16): "The player chooses 1 of the 3 available orders and returns the
    other 2 to the box"; "discard the third (untaken) card"."""
    R, s = _setup(players)
    laid = 3 if players == 1 else players + 1
    assert s.to_dict()["n_orders"] == laid
    take_orders(s, laid - 1)
    d = s.to_dict()
    assert sum(1 for p in d["players"][:players] if p["order_frame"][0] >= 0) == players
    assert bin(d["frame_deck"]).count("1") == 16 - laid          # the order left over is out too
    assert d["n_deal"] == laid
    cards = list(range(1, laid + 1))
    deal_cards(s, cards)
    while s.phase == "Select Cards" and s.to_dict()["step"] == 0:
        s.apply(first_main(s))
        if s.is_chance() and s.phase == "Select Cards":        # a discard's draw
            s.apply(s.chance_outcomes()[0][0])
    d = s.to_dict()
    deck = [x for x in range(90) if (d["card_deck"][x >> 6] >> (x & 63)) & 1]
    assert d["step"] == 1 and not any(x - 1 in deck for x in cards)   # the untaken card: to the box
    assert all(x < 0 for x in d["offer"])


def _steps_of_a_game(variant):
    """(round, Select Cards step) of every card step and (round, step) of every bonus
    marker placed, over a whole 2-player game."""
    R = rules(2, variant=variant)
    s = setup(R, tiles=["Guillard", "Caxton"])
    steps, markers = [], []
    while not s.is_terminal():
        d = s.to_dict()
        if s.phase == "Select Cards" and (d["round"], d["step"]) not in steps:
            steps.append((d["round"], d["step"]))
        if s.is_chance():
            s.apply(s.chance_outcomes()[0][0])
            continue
        a = first_main(s)
        if A["MARKER"] <= a < A["WINDOW"]:
            markers.append((d["round"], d["step"] + 1, s.current_player()))
        s.apply(a)
    return steps, markers


@pytest.mark.parametrize("variant, card_steps", [("basic", 6), ("advanced", 5)])
def test_three_rounds_of_six_card_steps_five_in_the_advanced_game(variant, card_steps):
    """p.6 "The game lasts 3 rounds"; p.7 "In each round, there are 6 steps of drawing
    cards ... In the advanced variant, there are only 5 steps of drawing cards"; p.11 "one
    card selection step per round has a thicker border on the time track: after this step,
    each player places a bonus marker"."""
    steps, markers = _steps_of_a_game(variant)
    assert steps == [(r, k) for r in (1, 2, 3) for k in range(card_steps)]
    marked = cat().time_track[variant].bonus_after
    assert markers == [(r, marked[r - 1], seat) for r in (1, 2, 3) for seat in (0, 1)]


def test_cubes_go_back_at_close_frames_and_closed_frames_keep_their_icons():
    """p.13 "A. Players return all initiative cubes to the center pool"; p.8 initiative
    counts "the number of initiative icons visible in their already closed frames from
    previous rounds": Caxton (seat 1, tile 3) frames an initiative icon, Guillard (seat 0,
    tile 5) leaves hers outside her frame; in round 2 Caxton chooses his order first."""
    R = rules(2)
    s = setup(R, tiles=["Guillard", "Caxton"])
    deal_orders(s, [(1, 1), (2, 2), (3, 3)])
    s.apply(order(1))
    s.apply(order(2))
    assert s.to_dict()["players"][1]["cubes"] == 1          # the last to choose an order
    play_until(s, "Close Frames")
    d = s.to_dict()
    assert [p["cubes"] for p in d["players"][:2]] == [0, 0] and d["cubes_left"] == 7
    s = with_tableau(R, s, 0, [["A", "I", "O", "*"]])
    s = with_tableau(R, s, 1, [["A", "I", "*"]])
    assert (s.initiative(0), s.initiative(1)) == (1, 1)
    while s.phase == "Close Frames":
        s.apply(window(0, 0))            # Guillard's frame: A I O (the icon outside); Caxton's: A I *
    assert (s.initiative(0), s.initiative(1)) == (0, 1)
    deal_orders(s, [(4, 4), (5, 5), (6, 6)])
    assert s.round == 2 and s.phase == "Select Orders" and s.current_player() == 1


def test_setup_tokens_even_just_before_closing_the_frame():
    """p.11 "At any time during a round, even just before closing their frame, a player may
    place one or more of their 3 tokens received during game preparation": at Close
    Frames the player places one (beside or on the tableau) and then closes the frame,
    which counts it."""
    R = rules(2)
    s = setup(R, tiles=["Guillard", "Caxton"], tokens=[["U", "blue", "grey"], ["A", "I", "O", "red"]])
    deal_orders(s, [(13, 16), (1, 1), (2, 2)])          # John's order: A A U I, U in the middle row
    s.apply(order(13))
    play_until(s, "Close Frames")
    assert s.current_player() == 0
    s = with_tableau(R, s, 0, [["A", "A", "I"], [None, None, None]])
    assert s.window_score(0, 0, 0)[:2] == (0, 0)
    u = A["SETUP_UP"] + 0 * 12 + SYM["U"]
    assert u in s.legal_actions()
    s.apply(u)
    s.apply(token_at(1, 1))
    assert s.phase == "Close Frames" and s.current_player() == 0
    assert s.window_score(0, 0, 0)[:2] == (4, 2)
    s.apply(window(0, 0))
    assert s.to_dict()["players"][0]["fame"] == 4 + 2   # frame 13: no grey, typesetting or woodcutting here


def test_equal_most_fame_points_share_the_win():
    """p.6 "the player with the most fame points wins" (no tie-break named: tied players
    share the win, rulings.md)."""
    R = rules(3)
    s = take_orders(setup(R, tiles=["Guillard", "Caxton", "Ungler"]), 3)

    def fame(*points):
        def f(d):
            for seat, x in enumerate(points):
                d["players"][seat]["fame"] = x
        return f
    assert edit(R, s, fame(20, 20, 15)).winners() == [0, 1]
    assert edit(R, s, fame(20, 21, 15)).winners() == [1]
    tied = edit(R, s, fame(20, 20, 15))
    assert tied.returns("win")[0] == tied.returns("win")[1] > tied.returns("win")[2]
    assert view.verdict(tied).startswith("Shared win")


def test_the_highest_tile_value_is_the_first_player_whatever_the_seat():
    """p.5 "The player with the highest initiative value on their character tile becomes
    the first player"; p.8 "At the start of the game, players are all tied with 0
    initiative ... So the initial player order is determined by the initiative values on
    their character tiles". Seats hold the tiles in ascending value (Gutenberg 1, Ungler 2,
    Caxton 3, Guillard 5), so the order runs against the seats; Gutenberg, last, takes the
    cube (p.9)."""
    R = rules(4)
    s = setup(R, tiles=["Gutenberg", "Ungler", "Caxton", "Guillard"],
              tokens=[["A", "I", "O"], ["A", "I", "O"], ["A", "I", "O", "U"], ["A", "I", "O"]])
    deal_orders(s, [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5)])
    seen = []
    while s.phase == "Select Orders":
        seen.append(s.current_player())
        s.apply(first_main(s))
    assert seen == [3, 2, 1, 0]
    assert [p["cubes"] for p in s.to_dict()["players"][:4]] == [1, 0, 0, 0]


def test_initiative_example_with_john_seated_before_kate():
    """p.8's example with the seats in another order: Kate (Ungler, 2) and John
    (Gutenberg, 1) tied at 1, Kate in the later seat: "she's tied with John, and her
    character's initiative value is higher than John's" -- the tile decides, not the
    seat. Order: Anna (2), Kate, John, Tom (0)."""
    R, s, at = p8_table(seats=("tom", "john", "kate", "anna"),
                        tokens=[["A", "I", "O", "U"], ["A", "I", "O"], ["A", "I", "O"], ["A", "I", "O"]])
    anna, kate, john, tom = at["anna"], at["kate"], at["john"], at["tom"]
    while s.to_dict()["token_window"] >= 0:
        s.apply(A["DONE"])
    assert s.to_dict()["turn_order"] == [anna, kate, john, tom]
