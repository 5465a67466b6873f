"""Lead Letter Printers rules on hand-made positions: every effect, every action, the
building rules, the phases and every line of the final scoring (rulebook pages named in
each test). Positions are written into a state's dict (tests/llp_helpers.py)."""
import pytest

from llp_helpers import (A, C, LEVEL, PH, after_setup, cat, cell_of, city, edit, rules,
                         frame, give, letters_tile, move_tile, push_letter, set_frames, space, tech)

from test_llp_examples import at_turn, move, place, play, settle, with_effect


def advance(s):
    """Carry out what needs no decision (the core does this after every action)."""
    s._advance()
    return settle(s)


def last_production_turn(d, players):
    """The last player's turn of the Production phase in seat order, nothing left to
    advance: a pass ends the round (the preparation follows)."""
    order = list(range(players))
    at_turn(d, 0, order)
    d["phase"] = PH["PRODUCTION"]
    d["seq"][:players] = order
    d["n_turns"], d["turn"], d["main_done"], d["prod_left"], d["actor"] = players, players - 1, 1, 0, players - 1


def player(s, seat=0):
    return s.to_dict()["players"][seat]


# ---------------------------------------------------------------------------------------
# Effects that need no choice (Iconography).
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind, n, check", [
    ("paper", 2, lambda p: p["res"][0] == 2),
    ("lead", 3, lambda p: p["res"][1] == 3),
    ("ink", 1, lambda p: p["res"][2] == 1),
    ("marks", 3, lambda p: p["marks"] == 3),
    ("points", 2, lambda p: p["points"] == 2),
    ("capacity", 2, lambda p: p["capacity"] == 3),
    ("workforce", 1, lambda p: p["workforce"] == 2 and p["capacity"] == 2),
    ("pairing", 1, lambda p: p["pairing"] == 1),
])
def test_simple_effects(kind, n, check):
    R, s = with_effect(kind, n, setup=lambda d: (give(d, 0, paper=0, lead=0, ink=0, marks=0),
                                                  d["players"][0].update(workforce=1, capacity=1, points=0)))
    assert check(player(s))
    assert s.problems() == []


def test_the_supply_limits_resources():
    """"20 paper" in the box: a gain takes what the supply has."""
    R, s = with_effect("paper", 3, setup=lambda d: (give(d, 1, paper=19), give(d, 0, paper=0)))
    assert player(s)["res"][0] == 1 and s.to_dict()["supply"][0] == 0


def test_capacity_past_the_end_gives_marks():
    """"If the marker reaches the end of the track, you gain 1 mark for each further capacity gain.\""""
    R, s = with_effect("capacity", 3, setup=lambda d: (d["players"][0].update(capacity=9), give(d, 0, marks=0)))
    assert player(s)["capacity"] == 10 and player(s)["marks"] == 2


def test_workforce_past_the_end_gives_points_and_assistants_at_3_and_6():
    R, s = with_effect("workforce", 2, setup=lambda d: d["players"][0].update(workforce=7, capacity=7, points=0))
    assert player(s)["workforce"] == 8 and player(s)["points"] == 1 and player(s)["capacity"] == 8
    R, s = with_effect("workforce", 1, setup=lambda d: d["players"][0].update(workforce=2, capacity=2))
    assert s.frame()["name"] == "assistant" and s.frame()["b"] == 0


def test_capacity_with_its_reward():
    """"You can get 1 capacity. This time you also get the reward that the capacity marker steps on.\""""
    R, s = with_effect("capacity_reward", setup=lambda d: (d["players"][0].update(capacity=1, points=0)))
    assert player(s)["capacity"] == 2 and player(s)["points"] == 1      # space 2: 1 point


@pytest.mark.parametrize("kind, value", [("points_capacity", 3), ("points_workforce", 5),
                                         ("points_assistants", 2), ("points_technologies", 2)])
def test_green_technologies(kind, value):
    """Technologies giving victory points, upon building."""
    def setup(d):
        p = d["players"][0]
        p.update(capacity=7, workforce=5, points=0)
        for e, k in ((0, 0), (2, 1)):
            d["street_owner"][e] = 0
            d["street_kind"][e] = k
            p["assistants"] &= ~(1 << k)
        for code, sid in ((tech(1), "1t"), (tech(13), "2t"), (tech(40), "4b")):   # levels I, II, IV
            move_tile(d, code, "tech")
            p["up"][space(sid)] = code
    R, s = with_effect(kind, setup=setup)
    assert player(s)["points"] == value


def test_green_letters_count_paired_city_tiles():
    a_tile = letters_tile("AB")
    a_disc = 0                                      # city disc 1: letter A

    def setup(d):
        p = d["players"][0]
        p["points"] = 0
        move_tile(d, a_tile, "letter")
        p["stick"][4] = a_tile
        move_tile(d, a_disc, "disc")
        p["discs"] |= 1 << a_disc
        p["stick_disc"][4] = a_disc
    R, s = with_effect("points_letter", arg=0, setup=setup)
    assert player(s)["points"] == 2


def test_green_letters_count_city_tiles_collected_unpaired_too():
    """"the number of A/B/C/D/E/F lead letters on your composing sticks upon building
    this. Including any city tiles collected from the map": without the pairing ability."""
    a_discs = [i for i, x in enumerate(cat().data["city_discs"]) if x["letter"] == "A"][:2]

    def setup(d):
        p = d["players"][0]
        p["points"] = 0
        for x in a_discs:
            move_tile(d, x, "disc")
            p["discs"] |= 1 << x
    assert len(a_discs) == 2
    R, s = with_effect("points_letter", arg=0, setup=setup)
    assert player(s)["points"] == 2
    R, s = with_effect("points_letter", arg=1, setup=setup)      # B: none of them
    assert player(s)["points"] == 0


# ---------------------------------------------------------------------------------------
# Choices.
# ---------------------------------------------------------------------------------------
def test_resources_of_choice():
    R, s = with_effect("resource", 2, setup=lambda d: give(d, 0, paper=0, lead=0, ink=0))
    play(s, A["RESOURCE"] + 2, A["RESOURCE"] + 0)
    assert player(s)["res"] == [1, 0, 1]


def test_trade_conversion_once():
    """"discard 1 of any resource, then you take 2 resources of any other type.\""""
    R, s = with_effect("trade", setup=lambda d: give(d, 0, paper=1, lead=0, ink=0))
    play(s, A["CONVERT"])
    assert s.legal_actions() == [A["RESOURCE"] + 0]           # only what the player has
    play(s, A["RESOURCE"] + 0)
    assert A["RESOURCE"] + 0 not in s.legal_actions()         # another type
    play(s, A["RESOURCE"] + 1, A["RESOURCE"] + 1)
    assert player(s)["res"] == [0, 2, 0] and s.frame() is None


def test_trade_conversion_needs_another_type_in_the_supply():
    """"discard 1 of any resource, then you take 2 resources of any other type from the
    supply": a payment that could take nothing is not offered."""
    R, s = with_effect("trade", setup=lambda d: (give(d, 0, paper=1, lead=0, ink=0),
                                                 give(d, 1, paper=0, lead=20, ink=20)))
    assert s.to_dict()["supply"][1:] == [0, 0] and A["CONVERT"] not in s.legal_actions()
    # Lead in the supply, paper and ink held: paying paper takes lead; paying lead, nothing.
    R, s = with_effect("trade", setup=lambda d: (give(d, 0, paper=1, lead=1, ink=0),
                                                 give(d, 1, paper=19, lead=0, ink=20)))
    assert s.to_dict()["supply"] == [0, 19, 0]
    play(s, A["CONVERT"])
    assert s.legal_actions() == [A["RESOURCE"] + 0]


def put_tile(d, slot, number):
    x = number - 1
    old = d["face_tiles"][slot]
    d["tile_pile"] &= ~(1 << x)
    d["tile_discard"] &= ~(1 << x)
    d["face_tiles"] = [-1 if t == x else t for t in d["face_tiles"]]
    if old >= 0 and old != x:
        d["tile_pile"] |= 1 << old
    d["face_tiles"][slot] = x


def test_trading_tile_one_way_two_way_repeated_and_replaced():
    # Tile 2: 1 paper <-> 1 lead, up to 3 times.
    R, s = with_effect("trade", setup=lambda d: (put_tile(d, 0, 2), give(d, 0, paper=0, lead=2, ink=0)))
    assert A["TILE"] + 0 not in s.legal_actions() and A["TILE"] + 1 in s.legal_actions()
    s.apply(A["TILE"] + 1)                        # back: 1 lead -> 1 paper
    assert s.is_chance()                           # the tile was discarded: a new one is drawn
    settle(s)
    assert s.to_dict()["tile_discard"] & (1 << 1)
    play(s, A["AGAIN"])
    assert player(s)["res"][:2] == [2, 0] and s.frame() is None   # no lead left to trade again
    # Tile 7: 1 paper -> 2 marks (one-way, twice).
    R, s = with_effect("trade", setup=lambda d: (put_tile(d, 0, 7), give(d, 0, paper=3, marks=0)))
    assert A["TILE"] + 1 not in s.legal_actions()
    play(s, A["TILE"] + 0, A["AGAIN"])
    assert player(s)["marks"] == 4 and player(s)["res"][0] == 1 and s.frame() is None


def test_trade_refresh_for_a_mark_once():
    R, s = with_effect("trade", setup=lambda d: give(d, 0, marks=2, paper=0, lead=0, ink=0))
    before = s.to_dict()["face_tiles"]
    s.apply(A["REFRESH_TILES"])
    settle(s)
    d = s.to_dict()
    assert player(s)["marks"] == 1 and all(d["tile_discard"] >> x & 1 for x in before)
    assert A["REFRESH_TILES"] not in s.legal_actions()


def test_factory_trade_keeps_the_tile():
    """"you can carry out a trade action from the given options. You do not discard the
    performed trading tile.\""""
    R, s = after_setup(2)
    s = edit(R, s, lambda d: (at_turn(d, 0, [0, 1]), put_tile(d, 0, 7), give(d, 0, paper=1, marks=0),
                              set_frames(d, 0, frame("TRADE", arg=1, a=0))))
    assert A["REFRESH_TILES"] not in s.legal_actions()
    play(s, A["TILE"] + 0)
    assert s.to_dict()["face_tiles"][0] == 6 and player(s)["marks"] == 2


def test_typesetting_without_a_match_gives_nothing_but_any_does():
    d_tile = letters_tile("D", {"paper": 2})
    R, s = with_effect("typesetting", setup=lambda d: push_letter(d, 0, d_tile, 1))
    play(s, A["STACK"] + 1, A["STICK"] + 0)
    assert s.frame() is None                                      # D on an A space
    R, s = with_effect("typesetting_any", setup=lambda d: (push_letter(d, 0, d_tile, 1), give(d, 0, paper=1)))
    play(s, A["STACK"] + 1, A["STICK"] + 0)
    assert s.frame()["name"] == "trade"


def test_typesetting_regardless_of_the_letter_goes_to_an_empty_stick_space_only():
    """"You can reposition one of your lead letters to an empty space on your composing
    stick board ... regardless of the letter matching condition": not under a contract,
    which the typesetting action allows."""
    tile = letters_tile("E", {"paper": 2})

    def setup(d):
        p = d["players"][0]
        push_letter(d, 0, tile, 1)
        move_tile(d, 0, "contract")
        p["contracts"] |= 1
        p["slots_open"] = 1
        p["slot_contract"][0] = 0
    for kind, under_offered in (("typesetting", True), ("typesetting_any", False)):
        R, s = with_effect(kind, setup=setup)
        play(s, A["STACK"] + 1)
        assert (A["UNDER"] + 0 in s.legal_actions()) == under_offered, kind
        assert A["STICK"] + 0 in s.legal_actions()


def test_pairing_a_city_tile_performs_the_covered_action():
    """"on a spot "A" with lead letter "B" and city tile "A", it becomes "AB".\""""
    b_tile = letters_tile("B", {"paper": 2})

    def setup(d):
        p = d["players"][0]
        push_letter(d, 0, b_tile, 1)
        p["pairing"] = 1
        move_tile(d, 0, "disc")                  # city disc 1: letter A
        p["discs"] |= 1
        give(d, 0, paper=1)
    R, s = with_effect("typesetting", setup=setup)
    play(s, A["STACK"] + 1)
    assert A["STICK_PAIR"] + 0 in s.legal_actions() and A["STICK_PAIR"] + 1 not in s.legal_actions()
    play(s, A["STICK_PAIR"] + 0)
    assert s.frame()["name"] == "trade" and player(s)["stick_disc"][0] == 0


def test_a_letter_under_a_contract_doubles_it():
    """"If you place a lead letter under an active contract, then your victory points
    awarded for this contract at the end of the game will be doubled.\""""
    tile = letters_tile("E", {"paper": 2})
    marks_contract = 0                                    # 1 point per 5 marks

    def setup(d):
        p = d["players"][0]
        push_letter(d, 0, tile, 1)
        move_tile(d, marks_contract, "contract")
        p["contracts"] |= 1 << marks_contract
        p["slots_open"] = 1
        p["slot_contract"][0] = marks_contract
        give(d, 0, marks=10, paper=0, lead=0, ink=0)
    R, s = with_effect("typesetting", setup=setup)
    assert s.score_breakdown(0)["contracts"] == 2
    play(s, A["STACK"] + 1, A["UNDER"] + 0)
    assert s.score_breakdown(0)["contracts"] == 4
    assert player(s)["contract_letter"][marks_contract] == tile


def test_activating_contracts_and_replacing_them():
    """"you may place a previously bought contract into the slot ... You get the covered
    action. You can also replace an earlier activated contract ... but in that case you
    will not receive the covered action again.\""""
    R, s = after_setup(2)

    def setup(d):
        at_turn(d, 0, [0, 1])
        p = d["players"][0]
        for c in (0, 1):
            move_tile(d, c, "contract")
            p["contracts"] |= 1 << c
        p["slots_open"] = 0b0001
        give(d, 0, marks=0)
    s = edit(R, s, setup)
    assert A["ACTIVATE"] + 0 * 4 + 0 in s.legal_actions() and A["ACTIVATE"] + 0 * 4 + 1 not in s.legal_actions()
    play(s, A["ACTIVATE"] + 0)
    assert player(s)["marks"] == 2 and player(s)["slot_contract"][0] == 0    # slot 1's 2 marks
    assert A["ACTIVATE"] + 1 * 4 + 0 not in s.legal_actions()               # once a turn
    s = edit(R, s, lambda d: d["players"][0].update(slots_changed=0))
    play(s, A["ACTIVATE"] + 1 * 4 + 0)
    assert player(s)["marks"] == 2 and player(s)["slot_contract"][0] == 1


# ---------------------------------------------------------------------------------------
# Travel (page 6).
# ---------------------------------------------------------------------------------------
def travel_state(workforce=3, marks=3, cities=0, free=0, real=1, agent="Mainz", steps=None, factories=()):
    R, s = after_setup(2)

    def setup(d):
        at_turn(d, 0, [0, 1])
        p = d["players"][0]
        p.update(workforce=workforce, agent=city(agent), cities=cities)
        d["players"][1]["agent"] = city("Rome")
        give(d, 0, marks=marks)
        for code, sid in factories:
            move_tile(d, code, "factory")
            p["up"][space(sid)] = 48 + code
        set_frames(d, 0, frame("TRAVEL", n=len(factories), arg=free, a=steps or workforce, b=0, c=0, d=real))
    return R, edit(R, s, setup)


def test_coins_cost_a_mark_and_cities_nothing():
    R, s = travel_state(marks=1)
    nxt = R.core_catalogue["next"]
    play(s, A["MAP"] + 1)                          # onto the first coin to Strasbourg
    assert player(s)["marks"] == 0
    assert all(A["MAP"] + k not in s.legal_actions() or nxt[player(s)["agent"]][k] < 14
               for k in range(6))                 # no mark left: only back into Mainz


def test_free_roads_between_own_markers_and_free_travel():
    both = (1 << city("Mainz")) | (1 << city("Strasbourg"))
    R, s = travel_state(marks=0, cities=both)
    assert A["MAP"] + 1 in s.legal_actions()
    play(s, A["MAP"] + 1)
    assert player(s)["marks"] == 0
    R, s = travel_state(marks=0, free=1)
    play(s, A["MAP"] + 1)
    assert player(s)["marks"] == 0


def test_travel_discount_factory():
    R, s = travel_state(marks=1, factories=[(22, "1t")])      # factory 23: Travel 1 mark less
    nxt = R.core_catalogue["next"]
    c1 = nxt[city("Mainz")][1]
    play(s, A["MAP"] + 1, A["MAP"] + nxt[c1].index(nxt[c1][1]))
    assert player(s)["marks"] == 0                 # 2 coins: 1 waived, 1 paid


def test_steps_are_not_a_travel():
    """"if you stop in a new city, you will receive the city tile there, you can place a
    city marker ... However, since you did not perform a real travel action, nothing else
    happens (no trading, no factory building).\""""
    R, s = travel_state(real=0, steps=1)
    play(s, A["MAP"] + 0)                          # Mainz -> the coin to Cologne
    R, s = travel_state(real=0, steps=2, agent="Mainz")
    nxt = R.core_catalogue["next"]
    c = nxt[city("Mainz")][0]
    play(s, A["MAP"] + 0, A["MAP"] + nxt[c].index(city("Cologne")))
    p = player(s)
    assert (p["cities"] >> city("Cologne")) & 1 and s.frame() is None      # no trade / factory offered


def test_a_city_already_marked_gives_no_director_step():
    R, s = travel_state(steps=1, agent="Cologne", cities=1 << city("Mainz"))
    play(s, A["MAP"] + 0)                          # Cologne -> coin: out of steps, it stops there
    assert s.frame()["name"] == "after the travel: a coin"
    R, s = travel_state(steps=2, marks=1, cities=(1 << city("Cologne")))
    paper = player(s)["res"][0]
    nxt = R.core_catalogue["next"]
    c = nxt[city("Mainz")][0]
    play(s, A["MAP"] + 0, A["MAP"] + nxt[c].index(city("Cologne")))
    assert s.frame()["name"] == "after the travel: a city"
    assert player(s)["res"][0] == paper and player(s)["cities"] == 1 << city("Cologne")


def test_order_track_slots():
    """"In each section, your agent always will occupy the rightmost free slot.\""""
    R, s = travel_state(steps=2)
    s = edit(R, s, lambda d: d["players"][1].update(section=1, track_slot=0))
    play(s, A["TRACK"])
    p = player(s)
    assert p["section"] == 1 and p["track_slot"] == 1


# ---------------------------------------------------------------------------------------
# Technologies and building (pages 6-7).
# ---------------------------------------------------------------------------------------
def tech_state(marks=5, res=(1, 1, 1), built=(), arg=0, b=-1, factories=()):
    R, s = after_setup(2)

    def setup(d):
        at_turn(d, 0, [0, 1])
        p = d["players"][0]
        for code, sid in built:
            move_tile(d, code, "tech")
            p["up"][space(sid)] = code
        for code, sid in factories:
            move_tile(d, code, "factory")
            p["up"][space(sid)] = 48 + code
        give(d, 0, marks=marks, paper=res[0], lead=res[1], ink=res[2])
        set_frames(d, 0, frame("TECHNOLOGY", arg=arg, a=0, b=b))
    return R, edit(R, s, setup)


def test_technology_costs_row_and_column():
    R, s = tech_state(marks=1, res=(1, 0, 0))
    legal = s.legal_actions()
    assert A["TECH"] + 0 * 3 + 0 in legal                    # level I, row 1: 1 mark + 1 paper
    assert A["TECH"] + 0 * 3 + 1 not in legal                # row 2 needs lead
    assert A["TECH"] + 1 * 3 + 0 not in legal                # level II: 2 marks
    R, s = tech_state(marks=0, res=(0, 0, 0), arg=3)         # free of both
    assert A["TECH"] + 0 * 3 + 2 in s.legal_actions()
    assert not [a for a in s.legal_actions() if A["TECH"] + 9 <= a < A["TECH"] + 12]   # no path for a IV
    R, s = tech_state(marks=0, res=(1, 0, 0), factories=[(23, "1m")])   # technology: 1 mark less
    assert A["TECH"] + 0 * 3 + 0 in s.legal_actions()


def test_level_restricted_free_technology():
    R, s = tech_state(marks=0, res=(0, 0, 0), arg=3, b=LEVEL["I"])
    assert {(a - A["TECH"]) // 3 for a in s.legal_actions() if A["TECH"] <= a < A["REFRESH_COLUMN"]} == {0}


def test_column_refresh_goes_under_the_pile():
    """"pay 1 mark to discard the 3 tiles in a given column and to draw 3 new tiles ... The
    discarded tiles are placed ... to the bottom of the draw pile.\""""
    R, s = tech_state(marks=2)
    column = s.to_dict()["tech_face"][1]
    s.apply(A["REFRESH_COLUMN"] + 1)
    settle(s)
    d = s.to_dict()
    assert d["tech_bottom"][1][:3] == column and player(s)["marks"] == 1
    assert all(A["REFRESH_COLUMN"] + k not in s.legal_actions() for k in range(4))


def test_building_rules():
    """Face up on a space of the tile's level with a path from the left; face down one
    level higher anywhere; replacing a built tile moves it face down one level higher and
    gives only the newly covered action."""
    R, s = after_setup(2)

    def build_state(code, built=(), downs=()):
        def setup(d):
            at_turn(d, 0, [0, 1])
            p = d["players"][0]
            move_tile(d, code, "tech")
            for c, sid in built:
                move_tile(d, c, "tech")
                p["up"][space(sid)] = c
            for c, sid in downs:
                move_tile(d, c, "tech")
                p["down"][space(sid)] = c
            give(d, 0, paper=0, lead=0, ink=0, marks=0)
            set_frames(d, 0, frame("BUILD", a=code, b=0))
        return edit(R, s, setup)
    t = build_state(tech(1))                                  # a level I technology
    legal = t.legal_actions()
    assert {a - A["UP"] for a in legal if A["UP"] <= a < A["DOWN"]} == {space("1t"), space("1m"), space("1b")}
    downs = {a - A["DOWN"] for a in legal if A["DOWN"] <= a < A["REPLACE"]}
    assert downs == {space(x) for x in ("2t", "2b", "3t", "3b")}   # the level II spaces
    assert not [a for a in legal if A["REPLACE"] <= a < A["TECH"]]
    # 2m (level I) needs a tile on 1m or 1t.
    t = build_state(tech(1), built=[(tech(2), "1m")])
    assert A["UP"] + space("2m") in t.legal_actions()
    # Face down: the covered action only.
    t = build_state(tech(1))
    play(t, A["DOWN"] + space("2t"))
    assert player(t)["marks"] == 2 and player(t)["down"][space("2t")] == tech(1)
    # Replace: the old tile goes face down one level higher, only that space's action.
    t = build_state(tech(2), built=[(tech(3), "1t")])
    play(t, A["REPLACE"] + space("1t"))
    assert t.frame()["name"] == "build" and t.frame()["b"] == 1
    assert {a - A["DOWN"] for a in t.legal_actions()} == {space(x) for x in ("2t", "2b", "3t", "3b")}
    play(t, A["DOWN"] + space("2b"))
    p = player(t)
    assert p["up"][space("1t")] == tech(2) and p["down"][space("2b")] == tech(3)
    assert p["res"][0] == 0                                    # 1t's paper not again
    assert t.frame()["name"] == "assistant"                    # 2b's assistant
    # A space holds one face-down tile and one face-up tile on it.
    t = build_state(tech(13), downs=[(tech(4), "2t")], built=[(tech(5), "1t")])
    assert A["UP"] + space("2t") in t.legal_actions() and A["DOWN"] + space("2t") not in t.legal_actions()


def test_a_full_workshop_builds_nothing():
    R, s = after_setup(2)

    def setup(d):
        at_turn(d, 0, [0, 1])
        p = d["players"][0]
        for x in range(15):
            code = 48 + x                              # factories 1-15 (any tiles do)
            move_tile(d, x, "factory")
            p["up"][x] = code
        give(d, 0, marks=9, paper=3, lead=3, ink=3)
        set_frames(d, 0, frame("TECHNOLOGY", a=0, b=-1))
    s = edit(R, s, setup)
    assert not [a for a in s.legal_actions() if A["TECH"] <= a < A["REFRESH_COLUMN"]]


def test_copy_technology():
    R, s = with_effect("copy_technology", arg=LEVEL["I"], setup=lambda d: (
        move_tile(d, tech(4), "tech"), d["players"][0]["up"].__setitem__(space("1t"), tech(4)),
        move_tile(d, tech(25), "tech"), d["players"][0]["up"].__setitem__(space("4t"), tech(25)),
        give(d, 0, marks=0)))
    assert set(s.legal_actions()) == {A["PASS"], A["COPY"] + space("1t")}    # level I or lower only
    play(s, A["COPY"] + space("1t"))
    assert player(s)["marks"] == 3


# ---------------------------------------------------------------------------------------
# Factories and their abilities.
# ---------------------------------------------------------------------------------------
def test_factory_needs_a_city_marker():
    R, s = after_setup(2)
    s = edit(R, s, lambda d: (at_turn(d, 0, [0, 1]), d["players"][0].update(factories_paid=12),
                              set_frames(d, 0, frame("CITY_CHOICE"))))
    assert s.legal_actions() == [A["PASS"], A["TRADE"]]


def test_reset_factories():
    R, s = after_setup(2)

    def setup(d):
        at_turn(d, 0, [0, 1])
        p = d["players"][0]
        for code, sid in ((4, "1t"), (7, "1m"), (13, "1b"), (26, "2m")):   # paper, mark, capacity, discard resource
            move_tile(d, code, "factory")
            p["up"][space(sid)] = 48 + code
        place(d, 0, 0, 0, 1, 1, 1)
        place(d, 0, 1, 1, 1, 0, 2)
        give(d, 0, paper=0, marks=0, lead=0, ink=0)
        p["capacity"] = 1
    s = edit(R, s, setup)
    letter = s.to_dict()["table"][0]
    play(s, A["RESET"] + 0, A["DISCARD"])
    p = player(s)
    res = cat().data["lead_letters"][letter]["resources"]
    assert p["marks"] == 1 and p["capacity"] == 2
    assert s.frame()["name"] == "resources of choice"         # the discarded letter's extra resource
    assert p["res"][0] == 1 + res.get("paper", 0)


def test_letter_factories():
    R, s = with_effect("take_letter", setup=lambda d: (
        move_tile(d, 8, "factory"), d["players"][0]["up"].__setitem__(space("1t"), 48 + 8),
        move_tile(d, 15, "factory"), d["players"][0]["up"].__setitem__(space("1m"), 48 + 15),
        give(d, 0, marks=0), d["players"][0].update(capacity=1)))
    play(s, A["TABLE"] + 0)
    if s.frame() and s.frame()["name"] == "keep the lead letter":
        play(s, s.legal_actions()[0])
    assert player(s)["marks"] == 1 and player(s)["capacity"] == 2


# ---------------------------------------------------------------------------------------
# Orders, production, wages (pages 8-9).
# ---------------------------------------------------------------------------------------
def test_at_most_two_orders_waiting():
    R, s = with_effect("buy_order", arg=1, setup=lambda d: d["players"][0].update(waiting=[-1, -1]))
    assert [a for a in s.legal_actions() if A["BUY_ORDER"] <= a < A["BUY_CONTRACT"]]
    display = s.to_dict()["order_display"]
    s.apply(A["BUY_ORDER"] + 1)
    d = s.to_dict()
    assert d["players"][0]["waiting"][0] == display[1]
    assert d["order_display"][:3] == [display[0], display[2], display[3]]      # pushed to the cheapest
    assert s.is_chance()                                                       # and refilled
    R, s = with_effect("buy_order", arg=1, setup=lambda d: (
        [move_tile(d, o, "order") for o in (30, 31)], d.__setitem__("order_discard", 0),
        d["players"][0].update(waiting=[30, 31]), d.__setitem__("orders_left", [x - (1 if i == 3 else 0) for i, x in enumerate(d["orders_left"])])))
    assert not [a for a in s.legal_actions() if A["BUY_ORDER"] <= a < A["BUY_CONTRACT"]]


def test_advance_order_effect_free_and_paid():
    def setup(d):
        move_tile(d, 0, "order")
        d["orders_left"][0] -= 0 if 0 in d["order_display"] else 1
        d["players"][0]["stage"] = [0, -1, -1, -1]
        d["players"][0]["capacity"] = 1
        give(d, 0, paper=0)
    R, s = with_effect("advance_order", setup=setup)
    assert A["ADVANCE"] + 2 not in s.legal_actions()         # 2 paper to leave stage 1
    R, s = with_effect("advance_order", arg=1, setup=setup)
    play(s, A["ADVANCE"] + 2)
    assert player(s)["stage"][:2] == [-1, 0] and player(s)["capacity"] == 1


def test_wages_and_unpaid_marks():
    """"For every 2 workforce you have to pay 1 mark ... your workforce is reduced by 1 step
    for each unpaid mark ... any gained benefits are also lost.\""""
    R, s = after_setup(2)

    def setup(d):
        at_turn(d, 0, [0, 1])
        d["phase"] = PH["PRODUCTION"]
        d["seq"][:2] = [0, 1]
        d["n_turns"], d["turn"], d["main_done"], d["prod_left"] = 2, 0, 1, 0
        p = d["players"][0]
        p.update(workforce=7, capacity=7, waiting=[-1, -1], stage=[-1] * 4)
        p["wf_street"] = [0, 2]
        for e, k in ((0, 0), (2, 1)):
            d["street_owner"][e] = 0
            d["street_kind"][e] = k
        p["assistants"] = 0b11100
        give(d, 0, marks=1)
    s = edit(R, s, setup)
    play(s, A["PASS"])                                # wage 3: 1 paid, 2 unpaid
    d = s.to_dict()
    p = d["players"][0]
    assert p["marks"] == 0 and p["workforce"] == 5
    assert d["street_owner"][2] == -1 and d["street_owner"][0] == 0     # the 6th workforce's assistant left
    assert p["wf_street"] == [0, -1] and p["assistants"] == 0b11110


# ---------------------------------------------------------------------------------------
# Optional actions (page 8).
# ---------------------------------------------------------------------------------------
def test_signboards():
    """White: 1 signboard, a workforce; red and blue: 2 each, a travel / a technology
    without paying."""
    R, s = after_setup(2)

    def setup(d):
        at_turn(d, 0, [0, 1])
        p = d["players"][0]
        for o in (0, 1, 2, 5):            # white, red, blue, red signboards
            move_tile(d, o, "order")
            p["completed"] |= 1 << o
        # The level I pile holds at most the orders of the level not drawn (some of them
        # may be in the box).
        undrawn = sum(1 for x, o in enumerate(cat().data["orders"]) if o["level"] == "I" and (d["order_pile"] >> x) & 1)
        d["orders_left"][0] = min(d["orders_left"][0], undrawn)
    s = edit(R, s, setup)
    legal = s.legal_actions()
    assert A["SIGNBOARD"] + 0 in legal and A["SIGNBOARD"] + 1 in legal and A["SIGNBOARD"] + 2 not in legal
    play(s, A["SIGNBOARD"] + 1)
    assert s.frame()["name"] == "travel" and s.frame()["arg"] == 1
    assert player(s)["signs_used"] == (1 << 1) | (1 << 5)
    assert s.score_breakdown(0)["signboard_sets"] == 5      # used signboards still count


def test_signboards_of_an_order_completed_in_the_action_phase_wait():
    """"Starting from your next Action phase, you may use up any signboards on the orders.\""""
    def setup(d):
        move_tile(d, 0, "order")                      # order 1: white signboard, stage 4 costs 1 ink
        d["orders_left"][0] -= 0 if 0 in d["order_display"] else 1
        d["players"][0]["stage"] = [-1, -1, -1, 0]
    R, s = with_effect("advance_order", arg=1, setup=setup)
    play(s, A["ADVANCE"] + 5)
    assert (player(s)["completed"] & 1) and A["SIGNBOARD"] + 0 not in s.legal_actions()
    assert s.score_breakdown(0)["track"] == player(s)["points"]


def test_city_disc_use():
    R, s = after_setup(2)
    s = edit(R, s, lambda d: (at_turn(d, 0, [0, 1]), move_tile(d, 3, "disc"),
                              d["players"][0].__setitem__("discs", 1 << 3), give(d, 0, marks=0)))
    play(s, A["DISC"] + 3)                                  # city disc 4: 3 marks
    assert player(s)["marks"] == 3 and player(s)["discs_used"] == 1 << 3
    assert A["DISC"] + 3 not in s.legal_actions()


def test_slide():
    """"You can move down your tradesman to a II room and you receive the indicated
    action. In case 2x shown, you get the reward twice" (Iconography): declinable."""
    R, s = with_effect("slide", 2, setup=lambda d: (place(d, 0, 0, cell_of(2, "Paper mill"), 0, 0, 1),
                                                     give(d, 0, paper=0)))
    assert s.legal_actions() == [A["PASS"], A["SLIDE"] + 0]
    assert s.action_to_string(A["PASS"]) == "no slide"
    declined = s.clone()
    play(declined, A["PASS"])
    assert player(declined)["room"][0] == 0 and player(declined)["res"][0] == 0
    play(s, A["SLIDE"] + 0)
    assert player(s)["room"][0] == 1 and player(s)["res"][0] == 4


def test_a_technology_bought_to_replace_a_tile_gives_only_the_newly_covered_action():
    """"Place the purchased technology/factory to replace a tile built earlier in the
    game, and move the replaced tile facing down to any location that is higher by 1
    level. You only get the newly covered action!" (p.6): technology 2 ("2 lead", blue)
    bought and built over technology 3 on 1t, which goes face down on 2t (2 marks): the
    2 marks come; 2 lead (its own action) and its chain do not, nor 1t's paper again. Built
    on an empty space, the same technology gives its action and starts its chain."""
    R, s = after_setup(2)

    def bought(replace):
        def setup(d):
            at_turn(d, 0, [0, 1])
            p = d["players"][0]
            move_tile(d, tech(3), "tech")
            p["up"][space("1t")] = tech(3)
            move_tile(d, tech(2), "tech")
            old = d["tech_face"][0][0]
            if old >= 0:
                d["tech_pile"] |= 1 << old
            d["tech_face"][0][0] = tech(2)
            give(d, 0, paper=1, lead=0, ink=0, marks=1)
            set_frames(d, 0, frame("TECHNOLOGY", a=0, b=-1))
        t = edit(R, s, setup)
        play(t, A["TECH"] + 0)                 # level I, row 0: 1 paper and 1 mark paid
        if replace:
            play(t, A["REPLACE"] + space("1t"), A["DOWN"] + space("2t"))
        else:
            play(t, A["UP"] + space("1m"))
        return t
    t = bought(replace=True)
    p = player(t)
    assert p["up"][space("1t")] == tech(2) and p["down"][space("2t")] == tech(3)
    assert (p["marks"], p["res"][0], p["res"][1]) == (2, 0, 0)
    assert t.frame() is None or t.frame()["name"] != "blue chain"
    t = bought(replace=False)
    assert player(t)["res"][1] == 3 and t.frame()["name"] == "blue chain"    # 1m's lead, its own 2, the chain


def test_city_disc_of_choice():
    R, s = with_effect("city_disc", setup=lambda d: None)
    d0 = s.to_dict()["city_disc"][city("Paris")]
    play(s, A["CITY"] + city("Paris"))
    assert (player(s)["discs"] >> d0) & 1 and player(s)["cities"] == 0


# ---------------------------------------------------------------------------------------
# Phases (pages 8-9).
# ---------------------------------------------------------------------------------------
def test_new_player_order():
    """"From the players that stayed in the player order section, the first player moves
    to last position ... The players that moved up ... keeping the order the same.\""""
    R, s = after_setup(4)

    def setup(d):
        last_production_turn(d, 4)
        for q, (sec, slot) in enumerate([(0, 0), (2, 0), (0, 2), (2, 1)]):
            d["players"][q].update(section=sec, track_slot=slot)
    s = edit(R, s, setup)
    play(s, A["PASS"])
    assert s.to_dict()["order"] == [1, 3, 2, 0]


def test_display_refill_discards_from_the_cheapest():
    """"If ... you have created fewer empty spaces in any supply then the number of
    players, discard as many as needed from the cheapest spaces.\""""
    R, s = after_setup(2)
    display = s.to_dict()["order_display"]

    def setup(d):
        last_production_turn(d, 2)
        d["taken"] = [1, 0]
        d["order_display"][3] = -1                  # one order bought this round
        d["order_discard"] |= 0
        d["players"][1]["waiting"][0] = display[3]
    s = edit(R, s, setup)
    s.apply(A["PASS"])
    d = s.to_dict()
    assert (d["order_discard"] >> display[0]) & 1    # 1 more discarded: the cheapest
    assert d["order_display"][:3] == [display[1], display[2], display[4]]


def test_game_end_when_no_orders_remain():
    R, s = after_setup(2)

    def setup(d):
        last_production_turn(d, 2)
        for i, o in enumerate(d["order_display"]):
            if o >= 0:
                d["order_discard"] |= 1 << o
        d["order_display"] = [-1] * 5
        for o in range(36):
            if (d["order_pile"] >> o) & 1:
                d["order_discard"] |= 1 << o
        d["order_pile"] = 0
        d["orders_left"] = [0, 0, 0, 0]
    s = edit(R, s, setup)
    play(s, A["PASS"])
    assert s.phase == "game end: last optional actions"
    assert s.current_player() == s.to_dict()["order"][0]
    play(s, A["PASS"], A["PASS"])
    assert s.is_terminal()


# ---------------------------------------------------------------------------------------
# Final scoring (Game end, Contracts).
# ---------------------------------------------------------------------------------------
def test_every_scoring_line():
    R, s = after_setup(2)

    def setup(d):
        p = d["players"][0]
        p["points"] = 10
        for o in (0, 1, 2, 4, 9, 10):        # 2 white, 2 red, 2 blue completed: 2 sets
            move_tile(d, o, "order")
            p["completed"] |= 1 << o
        move_tile(d, 3, "order")
        move_tile(d, 5, "order")
        p["stage"] = [3, -1, -1, -1]         # unfinished: +1
        p["waiting"] = [5, -1]               # not started: -1 (order 6)
        d["orders_left"][0] = sum(1 for o in range(36) if (d["order_pile"] >> o) & 1 and o < 12)
        for x, L in enumerate(("A", "B", "C")):
            code = letters_tile(L, {"paper": 2} if L != "C" else {"ink": 2})
            move_tile(d, code, "letter")
            p["stick"][x] = code             # a full composing stick: 5
        p["cities"] = (1 << city("Cologne")) | (1 << city("Paris"))   # director on space 2: 1 point
        give(d, 0, paper=1, lead=2, ink=0, marks=9)                    # 12: 2 points
    s = edit(R, s, setup)
    b = s.score_breakdown(0)
    assert b == {"track": 10, "signboard_sets": 10, "orders_in_production": 1, "orders_not_started": -1,
                 "composing_sticks": 5, "director": 1, "contracts": 0, "resources_and_cash": 2, "total": 28}


@pytest.mark.parametrize("number, setup, value", [
    (1, lambda d, p: give(d, 0, marks=12), 2),
    (2, lambda d, p: [p.update(completed=p["completed"] | (1 << o)) for o in (0, 4)], 2),     # white signboards
    (5, lambda d, p: p["up"].__setitem__(space("1t"), tech(1)), 1),                           # level I technologies
    (9, lambda d, p: [p["up"].__setitem__(space(x), t) for x, t in (("1t", tech(1)), ("1m", tech(2)))], 1),
    (10, lambda d, p: p.update(discs=0b1111), 2),
    (11, lambda d, p: p.update(completed=0b111), 1),
    (12, lambda d, p: p.update(workforce=5, capacity=5), 2),
    (13, lambda d, p: p["up"].__setitem__(space("1t"), 48 + 0), 1),
    (14, lambda d, p: p["stick"].__setitem__(0, letters_tile("AB")), 1),                     # letter A
    (20, lambda d, p: [d["street_owner"].__setitem__(0, 0), d["street_kind"].__setitem__(0, 0),
                       p.update(assistants=0b11110)], 1),
    (21, lambda d, p: None, 1),                                                               # itself
    (22, lambda d, p: p.update(slots_open=0b111), 3),
    (23, lambda d, p: [p["stick"].__setitem__(x, letters_tile(L, {"paper": 2})) for x, L in ((0, "A"), (3, "B"), (6, "C"))], 2),
    (24, lambda d, p: [p["stick"].__setitem__(x, letters_tile(L, {"paper": 2})) for x, L in ((0, "A"), (4, "B"), (8, "C"))], 3),
])
def test_contracts(number, setup, value):
    R, s = after_setup(2)
    c = number - 1

    def fn(d):
        p = d["players"][0]
        p["completed"] = 0
        setup(d, p)
        for o in range(36):
            if (p["completed"] >> o) & 1:
                move_tile(d, o, "order")
        d["orders_left"][0] = sum(1 for o in range(12) if (d["order_pile"] >> o) & 1)
        for x in range(15):
            code = p["up"][x]
            if 0 <= code < 48:
                move_tile(d, code, "tech")
            elif code >= 48:
                move_tile(d, code - 48, "factory")
        for x in range(9):
            if p["stick"][x] >= 0:
                move_tile(d, p["stick"][x], "letter")
        for x in range(24):
            if (p["discs"] >> x) & 1:
                move_tile(d, x, "disc")
        move_tile(d, c, "contract")
        p["contracts"] |= 1 << c
        p["slots_open"] |= 1
        p["slot_contract"][0] = c
    s = edit(R, s, fn)
    assert s.contract_value(0, c) == value
    assert s.score_breakdown(0)["contracts"] == value


def test_ties_go_to_completed_orders_then_cash():
    """"In case of a tie, the player with the most completed orders wins. If there is still
    a tie, then the player with the most cash is the winner. If the game is still a tie,
    then the tied players share the victory.\""""
    R, s = after_setup(2)

    def setup(d, completed, marks, points):
        for q in range(2):
            p = d["players"][q]
            p["waiting"] = [-1, -1]
            p["stage"] = [-1] * 4
            give(d, q, paper=0, lead=0, ink=0, marks=marks[q])
        for q, orders in enumerate(completed):
            for o in orders:
                move_tile(d, o, "order")
                d["players"][q]["completed"] |= 1 << o
        d["orders_left"][0] = sum(1 for o in range(12) if (d["order_pile"] >> o) & 1)
        for q in range(2):
            d["players"][q]["points"] = points[q]
    # Orders 4 and 8 (level I, no signboard) are worth their points only through the track.
    s1 = edit(R, s, lambda d: setup(d, [[3], [7]], [4, 1], [10, 10]))
    assert s1.final_scores()[0] == s1.final_scores()[1] and s1.winners() == [0]      # more cash
    s2 = edit(R, s, lambda d: setup(d, [[3, 7], []], [1, 4], [10, 10]))
    assert s2.final_scores()[0] == s2.final_scores()[1] and s2.winners() == [0]      # more completed orders
    s3 = edit(R, s, lambda d: setup(d, [[3], [7]], [3, 3], [10, 10]))
    assert s3.final_scores()[0] == s3.final_scores()[1] and s3.winners() == [0, 1]   # shared
    assert s3.returns("win") == [0.0, 0.0]
    s4 = edit(R, s, lambda d: setup(d, [[], []], [0, 0], [11, 10]))
    assert s4.winners() == [0] and s4.returns("win") == [1.0, -1.0]


def test_the_lead_letters_pile_shows_its_top_letters():
    """"Form a draw pile from the lead letters facing down (grey letter side up)": the top
    tile's letters are in view; the draw takes a tile with those letters, then the next
    top's letters come into view in proportion to the tiles that show them."""
    R, s = after_setup(2)
    d = s.to_dict()
    top = d["letter_top"]
    pile = [x for x in range(54) if (d["letter_pile"] >> x) & 1]
    assert top >= 0 and any(R.core_catalogue["letters"][x]["letters"] == top for x in pile)
    assert "on top" in s.observation_string(1)
    s.apply(A["RESET"] + 0)                      # the table's space empties: a draw
    outs = s.chance_outcomes()
    assert {o - C["LETTER"] for o, _ in outs} == {x for x in pile if R.core_catalogue["letters"][x]["letters"] == top}
    s.apply(outs[0][0])
    assert s.is_chance() and s.to_dict()["letter_top"] == -1
    outs = s.chance_outcomes()
    assert all(C["TOP"] <= o < C["NUM_CHANCE"] for o, _ in outs)
    assert abs(sum(p for _, p in outs) - 1) < 1e-12
    for o, p in outs:
        mask = o - C["TOP"]
        n = sum(1 for x in range(54) if (s.to_dict()["letter_pile"] >> x) & 1
                and R.core_catalogue["letters"][x]["letters"] == mask)
        assert p == pytest.approx(n / bin(s.to_dict()["letter_pile"]).count("1"))


# ---------------------------------------------------------------------------------------
# The rest of the factories' abilities (rulebook: Factories) and effects.
# ---------------------------------------------------------------------------------------
def with_factories(d, seat, *factories):
    p = d["players"][seat]
    for code, sid in zip(factories, ("1t", "1m", "1b", "2m")):
        move_tile(d, code, "factory")
        p["up"][space(sid)] = 48 + code


def test_stage_factories():
    """"Every time your order completes stage 1/2/3/4 of your workshop you gain 1 capacity
    / 1 victory point / a trade action ...\""""
    def setup(d):
        with_factories(d, 0, 1, 2, 3)              # stage 1: capacity, point, trade
        move_tile(d, 3, "order")                   # order 4: 1 paper + 1 lead to leave stage 1
        d["orders_left"][0] -= 0 if 3 in d["order_display"] else 1
        d["players"][0].update(stage=[3, -1, -1, -1], capacity=1, points=0)
        give(d, 0, paper=2, lead=1, ink=0)
    R, s = with_effect("advance_order", setup=setup)
    play(s, A["ADVANCE"] + 2)
    p = player(s)
    assert p["capacity"] == 2 and p["points"] == 1 and p["stage"][1] == 3
    assert s.frame()["name"] == "trade" and s.frame()["arg"] == 1      # the tile stays


def test_workforce_marks_and_disc_resource():
    R, s = with_effect("workforce", setup=lambda d: (with_factories(d, 0, 16), give(d, 0, marks=0),
                                                     d["players"][0].update(workforce=3, capacity=3)))
    assert player(s)["marks"] == 1
    R, s = with_effect("city_disc", setup=lambda d: with_factories(d, 0, 17))
    play(s, [a for a in s.legal_actions() if a >= A["CITY"]][0])
    assert s.frame()["name"] == "resources of choice"


def test_the_workforce_factory_pays_for_a_workforce_gain_past_the_tracks_end_too():
    """"Every time you gain a workforce, you also gain 1 mark" (Factories), and past the
    track's end: "you gain 1 victory point for each further workforce gain" (Increasing
    your workforce): still a workforce gain, so the mark comes with the point (rulings.md
    33)."""
    R, s = with_effect("workforce", 2, setup=lambda d: (with_factories(d, 0, 16), give(d, 0, marks=0),
                                                        d["players"][0].update(workforce=7, capacity=7, points=0)))
    p = player(s)
    assert (p["workforce"], p["capacity"], p["points"], p["marks"]) == (8, 8, 1, 2)


def test_order_and_contract_discounts():
    R, s = with_effect("buy_order", setup=lambda d: (with_factories(d, 0, 24), give(d, 0, marks=0)))
    assert A["BUY_ORDER"] + 0 in s.legal_actions() and A["BUY_ORDER"] + 1 not in s.legal_actions()
    R, s = with_effect("buy_contract", setup=lambda d: (with_factories(d, 0, 25), give(d, 0, marks=1)))
    assert A["BUY_CONTRACT"] + 1 in s.legal_actions() and A["BUY_CONTRACT"] + 2 not in s.legal_actions()
    play(s, A["BUY_CONTRACT"] + 1)
    assert player(s)["marks"] == 0


def test_signboard_typesetting_and_trading_points():
    def setup(d):
        with_factories(d, 0, 31)                   # 2 points for a white signboard's order
        move_tile(d, 0, "order")                   # order 1: white; leaving stage 4 costs 1 ink
        d["orders_left"][0] -= 0 if 0 in d["order_display"] else 1
        d["players"][0].update(stage=[-1, -1, -1, 0], points=0)
        give(d, 0, ink=1)
    R, s = with_effect("advance_order", setup=setup)
    play(s, A["ADVANCE"] + 5)
    assert player(s)["points"] == 1 + 2
    tile = letters_tile("D", {"paper": 2})
    R, s = with_effect("typesetting", setup=lambda d: (with_factories(d, 0, 34), push_letter(d, 0, tile, 1),
                                                       d["players"][0].update(points=0)))
    play(s, A["STACK"] + 1, A["STICK"] + 8)
    assert player(s)["points"] == 1
    R, s = with_effect("trade", setup=lambda d: (with_factories(d, 0, 35), give(d, 0, paper=1),
                                                 d["players"][0].update(points=0)))
    play(s, A["CONVERT"], A["RESOURCE"] + 0, A["RESOURCE"] + 1, A["RESOURCE"] + 1)
    assert player(s)["points"] == 1


def test_discard_and_take_letter_effects():
    R, s = with_effect("discard_letter", setup=lambda d: give(d, 0, paper=0, lead=0, ink=0))
    letter = s.to_dict()["table"][0]
    play(s, A["TABLE"] + 0)
    d = s.to_dict()
    assert (d["letter_discard"] >> letter) & 1
    res = cat().data["lead_letters"][letter]["resources"]
    assert player(s)["res"] == [res.get(r, 0) for r in ("paper", "lead", "ink")]
    R, s = with_effect("take_letter", arg=1, setup=lambda d: give(d, 0, paper=0, lead=0, ink=0))
    letter = s.to_dict()["table"][1]
    play(s, A["TABLE"] + 1)
    if s.frame():
        assert A["DISCARD"] not in s.legal_actions()         # taken into the workshop
        play(s, s.legal_actions()[0])
    p = player(s)
    assert letter in p["stack"][0] + p["stack"][1]
    res = cat().data["lead_letters"][letter]["resources"]
    assert p["res"] == [res.get(r, 0) for r in ("paper", "lead", "ink")]


def test_free_signboard_action_and_steps_and_factory_effects():
    R, s = with_effect("signboard", setup=lambda d: d["players"][0].update(workforce=4, capacity=4))
    assert s.legal_actions() == [A["SIGNBOARD"] + c for c in range(3)]
    play(s, A["SIGNBOARD"] + 0)
    assert player(s)["workforce"] == 5
    R, s = with_effect("steps", 2)
    f = s.frame()
    assert f["name"] == "travel" and f["a"] == 2 and f["d"] == 0
    R, s = with_effect("factory")
    assert A["PASS"] in s.legal_actions() and [a for a in s.legal_actions() if A["FACTORY_PILE"] <= a < A["FACTORY"]]
    R, s = with_effect("travel", arg=1, setup=lambda d: d["players"][0].update(workforce=3, capacity=3))
    f = s.frame()
    assert f["name"] == "travel" and f["a"] == 3 and f["arg"] == 1 and f["d"] == 1
    R, s = with_effect("technology", arg=1, setup=lambda d: give(d, 0, marks=3))
    assert s.frame()["name"] == "technology" and s.frame()["arg"] == 1
    R, s = with_effect("assistant")
    play(s, A["ASSISTANT"] + 4)
    play(s, s.legal_actions()[0])
    assert player(s)["assistants"] == 0b01111


def test_the_player_chooses_which_signboards_to_turn():
    """"Once you have used up your signboards, turn the orders and city discs face down":
    with a city disc among more signboards than the action uses, the player chooses which
    (a disc turned down has no reward left)."""
    R, s = after_setup(2)

    def setup(d):
        at_turn(d, 0, [0, 1])
        p = d["players"][0]
        move_tile(d, 1, "order")                  # order 2: red signboard
        d["orders_left"][0] -= 0 if 1 in s.to_dict()["order_display"] else 1
        p["completed"] |= 1 << 1
        for x in (1, 5):                          # city discs 2 (red: 2 lead) and 6 (red: 2 capacity)
            move_tile(d, x, "disc")
            p["discs"] |= 1 << x
        give(d, 0, marks=0)
    s = edit(R, s, setup)
    play(s, A["SIGNBOARD"] + 1)
    assert s.frame()["name"] == "which signboard to turn face down" and s.frame()["n"] == 2
    assert s.legal_actions() == [A["PASS"], A["DISC"] + 1, A["DISC"] + 5]
    play(s, A["DISC"] + 5)
    assert player(s)["discs_used"] == 1 << 5
    assert s.legal_actions() == [A["PASS"], A["DISC"] + 1]
    play(s, A["PASS"])
    p = player(s)
    assert p["signs_used"] == 1 << 1 and p["discs_used"] == 1 << 5
    assert s.frame()["name"] == "travel" and s.frame()["arg"] == 1      # the red signboards' travel


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_puts_one_tradesman_in_a_shop(players):
    """"Note: During setup, do not place more then one tradesman in the same shop!":
    whosever tradesman is there already, its shop is not offered."""
    import random
    R = rules(players)
    s = R.new_state()
    rng = random.Random(players)
    placed = 0
    while s.phase != "Action phase":
        if s.is_chance():
            outs = s.chance_outcomes()
            s.apply(rng.choices([o for o, _ in outs], [p for _, p in outs])[0])
            continue
        legal = s.legal_actions()
        setups = [a for a in legal if A["SETUP"] <= a < A["MOVE"]]
        if setups:
            taken = {x for p in s.to_dict()["players"][:players] for x in p["pos"] if x >= 0}
            assert len(taken) == placed                 # no two in a shop so far
            assert not taken & {a - A["SETUP"] for a in setups}
            s.apply(rng.choice(setups))
            placed += 1
        else:
            s.apply(legal[0])
    assert placed == 2 * players


def test_a_contract_bought_at_setup_is_not_a_space_emptied_in_round_1():
    """"The gained rewards will be your starting supplies" (setup) and "If at the end of
    the round you have created fewer empty spaces in any supply then the number of
    players, discard as many as needed from the cheapest spaces": the setup is not round
    1, so a contract bought by a setup room's action (and replaced at once) does not
    spare a contract at the first Preparation (rulings.md 43)."""
    import random
    R = rules(2)
    s = R.new_state()
    rng = random.Random(3)
    while not (s.phase == "tradesmen setup" and not s.is_chance() and s.frame() is None
               and s.to_dict()["turn"] == 3):
        if s.is_chance():
            outs = s.chance_outcomes()
            s.apply(rng.choices([o for o, _ in outs], [p for _, p in outs])[0])
        else:
            s.apply(s.legal_actions()[0])
    seat = s.current_player()
    s = edit(R, s, lambda d: set_frames(d, seat, frame("BUY", n=1, arg=1, b=1)))   # a free contract
    play(s, A["BUY_CONTRACT"] + 0)
    play(s, next(a for a in s.legal_actions() if A["SETUP"] <= a < A["MOVE"]))
    assert s.phase == "Action phase"
    display = s.to_dict()["contract_display"]

    s = edit(R, s, lambda d: last_production_turn(d, 2))
    s.apply(A["PASS"])                               # round 1 ends: nothing bought in it
    d = s.to_dict()
    assert all((d["contract_discard"] >> c) & 1 for c in display[:2])   # 2 players: 2 discarded
    assert d["contract_display"][:3] == display[2:]


# ---------------------------------------------------------------------------------------
# Every term of the final scoring and each of its conditions both ways (Game end), on
# hand-made positions; the expected numbers are the rulebook's arithmetic.
# ---------------------------------------------------------------------------------------
def scored(setup):
    """Player 0's score lines after setup(d, p) on a fresh 2-player game (its own start
    letter, nothing else: the track at 0, no orders, no cities, no contracts)."""
    R, s = after_setup(2)

    def fn(d):
        p = d["players"][0]
        p["points"] = 0
        give(d, 0, paper=0, lead=0, ink=0, marks=0)
        setup(d, p)
        d["orders_left"][0] = sum(1 for o in range(12) if (d["order_pile"] >> o) & 1)
    return edit(R, s, fn).score_breakdown(0)


def completed(d, p, *orders, used=()):
    for o in orders:
        move_tile(d, o, "order")
        p["completed"] |= 1 << o
    for o in used:
        p["signs_used"] |= 1 << o


def discs(d, p, *xs, used=()):
    for x in xs:
        move_tile(d, x, "disc")
        p["discs"] |= 1 << x
    for x in used:
        p["discs_used"] |= 1 << x


def sticks(d, p, *spaces):
    for x in spaces:
        code = 20 + x                       # any lead letter, one each
        move_tile(d, code, "letter")
        p["stick"][x] = code


@pytest.mark.parametrize("paper, lead, ink, marks, value", [
    (0, 0, 5, 0, 1),          # ink alone: 5 / 5 = 1 (ink is one of the "remaining resources")
    (1, 1, 3, 0, 1),          # 1 + 1 + 3 = 5: 1
    (1, 1, 2, 0, 0),          # 4: rounded down, 0
    (0, 0, 4, 1, 1),          # 4 ink + 1 mark = 5: 1
    (2, 1, 0, 9, 2),          # the rulebook's 2 lead + 1 paper + 9 marks = 12: 2
    (3, 3, 3, 5, 2),          # 14: 2
    (4, 4, 4, 3, 3),          # 15: 3
])
def test_resources_and_cash_count_every_resource_and_the_marks(paper, lead, ink, marks, value):
    """"add your remaining resources, and add the value of your remaining cash. You gain
    the victory points of this total figure divided by 5, rounded down.\""""
    b = scored(lambda d, p: give(d, 0, paper=paper, lead=lead, ink=ink, marks=marks))
    assert b["resources_and_cash"] == value and b["total"] == value


@pytest.mark.parametrize("setup, sets", [
    # orders 1, 5: white; 2, 6: red; 3, 7: blue (completed); discs 1 white, 2 red, 3 blue
    (lambda d, p: completed(d, p, 0, 1, 2), 1),                     # one of each: 1 set = 5
    (lambda d, p: completed(d, p, 0, 4, 1, 5), 0),                  # no blue: no set
    (lambda d, p: completed(d, p, 0, 4, 1, 5, 2, 6), 2),            # two of each: 10
    (lambda d, p: completed(d, p, 0, 4, 8, 1, 2), 1),               # 3 white, 1 red, 1 blue: 1 set
    (lambda d, p: (completed(d, p, 0, 1), discs(d, p, 2)), 1),      # a city disc's blue signboard counts
    (lambda d, p: (completed(d, p, 0, 1, 2, used=(0, 1)), discs(d, p, 0, 1, 2, used=(0, 1, 2))), 2),  # used: still
    (lambda d, p: (completed(d, p, 0, 1), move_tile(d, 2, "order"), p["stage"].__setitem__(0, 2)), 0),  # blue unfinished
])
def test_signboard_sets_need_all_three_colours_on_completed_orders_or_discs(setup, sets):
    """"All sets of 3 different signboards are worth 5 points (if they are on orders, only
    the completed orders count). The signboards provided by the orders and city tiles also
    count, even if they have been used already.\""""
    assert scored(setup)["signboard_sets"] == 5 * sets


def test_orders_in_production_and_waiting():
    """"Unfinished orders under process are worth 1 victory point each. The bought orders
    that did not enter the workshop are worth negative victory points based on the figure
    on their top left corner.\""""
    def setup(d, p):
        for o in (0, 3, 2, 4):
            move_tile(d, o, "order")
        p["stage"] = [0, -1, 3, -1]          # 2 in production: +2
        p["waiting"] = [2, 4]                # orders 3 and 5, 2 points each: -4
    b = scored(setup)
    assert (b["orders_in_production"], b["orders_not_started"], b["total"]) == (2, -4, -2)


@pytest.mark.parametrize("spaces, points", [
    ((0, 1), 0),                    # 2 of 3 spaces: not complete
    ((0, 1, 2), 5),                 # all 3 spaces filled: 5
    ((0, 3, 6), 0),                 # a column is not a composing stick
    ((0, 1, 2, 6, 7, 8), 10),       # two sticks: 10
])
def test_full_composing_sticks(spaces, points):
    """"each completed (all 3 spaces filled) composing stick is worth 5 victory points.\""""
    assert scored(lambda d, p: sticks(d, p, *spaces))["composing_sticks"] == points


@pytest.mark.parametrize("cities, points", [(0, 0), (1, 0), (2, 1), (4, 2)])
def test_the_director(cities, points):
    """"Directors in the workshop are worth as many points as the figure indicated above
    them" (the spaces' figures 0, 1, 1, 2, ...: catalogue tracks.director)."""
    names_ = ["Mainz", "Cologne", "Paris", "Strasbourg"][:cities]
    assert scored(lambda d, p: p.update(cities=sum(1 << city(c) for c in names_)))["director"] == points


@pytest.mark.parametrize("in_slot, letter, value", [(False, None, 0), (True, None, 2), (True, "E", 4), (True, 0, 4)])
def test_only_active_contracts_score_and_a_letter_doubles(in_slot, letter, value):
    """"The active contracts worth as many points as their rules says. The contracts with
    a lead letter added under them are worth double" -- contract 1, 1 point for every 5
    marks, with 10 marks: 2, doubled 4; bought but in no slot: nothing. Any lead letter
    doubles, the first of the pile (number 0) too."""
    def setup(d, p):
        give(d, 0, marks=10)
        move_tile(d, 0, "contract")
        p["contracts"] |= 1
        if in_slot:
            p["slots_open"], p["slots_used"] = 1, 1
            p["slot_contract"][0] = 0
        if letter is not None:
            code = letter if isinstance(letter, int) else letters_tile(letter, {"paper": 2})
            move_tile(d, code, "letter")
            p["contract_letter"][0] = code
    assert scored(setup)["contracts"] == value


@pytest.mark.parametrize("marked, paid", [((), 1), (("Mainz",), 1), (("Strasbourg",), 1),
                                          (("Mainz", "Strasbourg"), 0)])
def test_a_road_is_free_only_with_markers_on_both_ends(marked, paid):
    """"if you are moving along a road, where you already have your city markers on each
    end, you do not have to pay any marks": one end marked is not enough, either end."""
    R, s = travel_state(marks=1, cities=sum(1 << city(c) for c in marked))
    play(s, A["MAP"] + 1)                          # Mainz -> the first coin towards Strasbourg
    assert player(s)["marks"] == 1 - paid


@pytest.mark.parametrize("orders, offered", [
    ((), set()),
    ((0,), {0}),                 # 1 white: a white signboard action ("If you use a white signboard")
    ((1,), set()),               # 1 red: not enough ("If you use up 2 red signboards")
    ((1, 5), {1}),               # 2 red: a travel
    ((2,), set()),               # 1 blue: not enough
    ((2, 6), {2}),               # 2 blue: a technology
    ((0, 1, 5, 2, 6), {0, 1, 2}),
])
def test_signboard_actions_need_one_white_or_at_least_two_red_or_blue(orders, offered):
    R, s = after_setup(2)

    def setup(d):
        at_turn(d, 0, [0, 1])
        for o in orders:
            move_tile(d, o, "order")
            d["players"][0]["completed"] |= 1 << o
        d["orders_left"][0] = sum(1 for o in range(12) if (d["order_pile"] >> o) & 1)
    s = edit(R, s, setup)
    assert {a - A["SIGNBOARD"] for a in s.legal_actions() if A["SIGNBOARD"] <= a < A["SIGNBOARD"] + 3} == offered


@pytest.mark.parametrize("capacity, workforce, after", [(1, 3, 3), (3, 3, 3), (5, 3, 5)])
def test_the_preparation_raises_a_capacity_below_the_workforce_only(capacity, workforce, after):
    """"If your capacity marker is lower than your workforce, move it to an equal level
    with the workforce marker. If it is higher, you do not move it.\""""
    R, s = after_setup(2)

    def setup(d):
        last_production_turn(d, 2)
        d["players"][0].update(capacity=capacity, workforce=workforce)
        give(d, 0, marks=5)                          # the wages (1 mark) paid in full
    s = edit(R, s, setup)
    play(s, A["PASS"])
    assert s.phase == "Action phase" and player(s)["capacity"] == after and player(s)["workforce"] == workforce


def test_one_lead_letter_under_each_contract():
    """"You can only place 1 lead letter under each contract": a contract with a letter
    under it takes no other; another active contract does."""
    first, second = letters_tile("E", {"paper": 2}), letters_tile("AC", {"lead": 1})

    def setup(d):
        p = d["players"][0]
        push_letter(d, 0, second, 1)
        for k, c in enumerate((0, 1)):
            move_tile(d, c, "contract")
            p["contracts"] |= 1 << c
            p["slot_contract"][k] = c
        p["slots_open"] = p["slots_used"] = 0b0011
        move_tile(d, first, "letter")
        p["contract_letter"][0] = first
    R, s = with_effect("typesetting", setup=setup)
    play(s, A["STACK"] + 1)
    assert A["UNDER"] + 0 not in s.legal_actions() and A["UNDER"] + 1 in s.legal_actions()


@pytest.mark.parametrize("room, mark", [(1, 1), (0, 0)])
def test_a_meeting_is_in_the_same_room_only(room, mark):
    """"If 2 tradesmen meet in the same room, the player who has previously entered there
    will receive 1 mark": the other room of the same shop is no meeting."""
    R, s = after_setup(2)
    composing = cell_of(2, "Composing room")

    def setup(d):
        at_turn(d, 0, [1, 0])
        place(d, 0, 0, cell_of(2, "Paper mill"), 0, 0, 1)
        place(d, 0, 1, cell_of(2, "Engineers' hall"), 1, 1, 2)
        place(d, 1, 0, composing, room, 0, 3)            # the other player, lying there
        place(d, 1, 1, cell_of(2, "Warehouse"), 1, 0, 4)
        d["stamp"] = 10
        d["players"][0]["capacity"] = 2
        give(d, 1, marks=0)
    s = edit(R, s, setup)
    play(s, move(1, composing, 1))                         # into room II
    assert player(s, 1)["marks"] == mark


def pairing_setup(d, pairing=1, discs=(0,), letters=(("B", 0),), contract=True):
    """Seat 0 at its turn with the pairing ability (or not), city discs (disc 1: letter A),
    lead letters on composing stick spaces, and a letter-A contract (14) active."""
    at_turn(d, 0, [0, 1])
    p = d["players"][0]
    p["pairing"] = pairing
    for text, x in letters:
        tile = letters_tile(text, {"paper": 2})
        move_tile(d, tile, "letter")
        p["stick"][x] = tile
    for disc in discs:
        move_tile(d, disc, "disc")
        p["discs"] |= 1 << disc
    if contract:
        move_tile(d, 13, "contract")
        p["contracts"] |= 1 << 13
        p["slots_open"] |= 1
        p["slot_contract"][0] = 13


def pairs(s):
    return [a - A["PAIR"] for a in s.legal_actions() if A["PAIR"] <= a < A["PAIR"] + 24]


def test_a_city_tile_is_paired_with_a_lead_letter_anytime_and_counts_for_its_letter():
    """"You can pair a city tile with a lead letter on your composing board anytime. 1 city
    tile per lead letter ... They also count towards victory points for the letter during
    and at the end of the game": with the pairing ability, among the turn's optional
    actions (not only at a typesetting), a city tile held pairs with a lead letter already
    on the composing sticks that has none; the letter-A contract then counts it."""
    R, s = after_setup(2)
    s = edit(R, s, lambda d: pairing_setup(d))
    assert pairs(s) == [0]
    assert s.contract_value(0, 13) == 0
    assert s.action_to_string(A["PAIR"] + 0).startswith("pair ")
    play(s, A["PAIR"] + 0)
    assert player(s)["stick_disc"][0] == 0 and player(s)["discs"] & 1     # the tile is kept, paired
    assert s.contract_value(0, 13) == 1
    assert pairs(s) == [] and s.to_dict()["actor"] == 0                    # one tile per lead letter; still its turn


def test_pairing_anytime_needs_the_ability_an_unpaired_tile_and_a_lead_letter_without_one():
    R, s = after_setup(2)
    assert pairs(edit(R, s, lambda d: pairing_setup(d, pairing=0))) == []      # no ability
    assert pairs(edit(R, s, lambda d: pairing_setup(d, letters=()))) == []     # no lead letter on the sticks
    assert pairs(edit(R, s, lambda d: pairing_setup(d, discs=()))) == []       # no city tile
    two = edit(R, s, lambda d: pairing_setup(d, discs=(0, 1), letters=(("B", 0), ("C", 4))))
    assert pairs(two) == [0, 1]
    play(two, A["PAIR"] + 1)
    assert pairs(two) == [0]                         # the paired tile is not offered again
    play(two, A["PAIR"] + 0)
    assert sorted(player(two)["stick_disc"][x] for x in (0, 4)) == [0, 1]
    assert pairs(two) == []                          # each lead letter has its tile


def test_pairing_anytime_at_the_last_optional_actions():
    """"anytime": at the game's end, among the last optional actions, too."""
    R, s = after_setup(2)

    def final(d):
        pairing_setup(d)
        d["phase"] = PH["FINAL"]
    s = edit(R, s, final)
    assert s.phase == "game end: last optional actions"
    assert pairs(s) == [0]
    assert s.contract_value(0, 13) == 0
    play(s, A["PAIR"] + 0)
    assert s.contract_value(0, 13) == 1 and player(s)["stick_disc"][0] == 0


# ---------------------------------------------------------------------------------------
# One rule each, in the rulebook's words, where no test above says it by itself.
# ---------------------------------------------------------------------------------------
def test_a_move_passes_through_the_other_tradesmans_shop_but_never_ends_there_nor_where_it_started():
    """"You can pass through a tile where you have your other tradesmen, however each
    player can only have 1 tradesman in a shop, regardless of the occupied room ... During
    your move you cannot visit the same shop twice, so you cannot end up where you
    started your action" (A. Shop): 2 steps due, no capacity to pay for a difference; the
    Lead foundry (row 1, column 3) is 2 steps away only through the Trading house, where
    the player's other tradesman lies (4 steps round it)."""
    R, s = after_setup(2)

    def setup(d):
        at_turn(d, 0, [1, 0])                          # the second player: 2 steps
        place(d, 0, 0, 0, 1, 1, 1)                     # Paper mill: upright in its II room
        place(d, 0, 1, 1, 0, 0, 2)                     # Trading house: lying in its I room
        place(d, 1, 0, 8, 1, 0, 3)
        place(d, 1, 1, 10, 1, 0, 4)
        d["players"][0]["capacity"] = 0
    s = edit(R, s, setup)
    assert s.move_costs(0, 0)[2] == 0                  # 0 -> 1 -> 2: through its own shop
    ends = {(a - A["MOVE"]) // 2 % 16 for a in s.legal_actions()
            if A["MOVE"] <= a < A["RESET"] and (a - A["MOVE"]) // 32 == 0}
    assert 2 in ends and 5 in ends and 8 in ends
    assert 1 not in ends                               # the shop of its other tradesman
    assert 0 not in ends                               # where it started


@pytest.mark.parametrize("workforce, wage", [(1, 0), (2, 1), (3, 1), (5, 2), (8, 4)])
def test_wages_one_mark_for_every_2_workforce_rounded_down(workforce, wage):
    """"For every 2 workforce you have to pay 1 mark, rounded down (for example for 5
    workforce you have to pay 2 marks)" (Production phase)."""
    R, s = after_setup(2)

    def setup(d):
        last_production_turn(d, 2)
        d["turn"], d["actor"] = 0, 0
        d["players"][0].update(workforce=workforce, capacity=workforce, waiting=[-1, -1], stage=[-1] * 4)
        give(d, 0, marks=10)
    s = edit(R, s, setup)
    play(s, A["PASS"])
    assert player(s)["marks"] == 10 - wage and player(s)["workforce"] == workforce


def green_and_blue_state(bought, built):
    """Seat 0 buying technology `bought` (level III, market row 2: 3 marks and 1 lead)
    with technologies `built` ((number, space) pairs) in its workshop."""
    R, s = after_setup(2)

    def setup(d):
        at_turn(d, 0, [0, 1])
        p = d["players"][0]
        for number, sid in built:
            move_tile(d, tech(number), "tech")
            p["up"][space(sid)] = tech(number)
        move_tile(d, tech(bought), "tech")
        old = d["tech_face"][2][1]
        if old >= 0:
            d["tech_pile"] |= 1 << old
        d["tech_face"][2][1] = tech(bought)
        give(d, 0, marks=3, paper=0, lead=1, ink=0)
        p.update(workforce=4, capacity=6, points=0)
        set_frames(d, 0, frame("TECHNOLOGY", a=0, b=-1))
    return edit(R, s, setup)


def test_only_blue_technologies_start_a_chain_and_green_ones_are_no_part_of_one():
    """"Instant (green) technology: These technologies only provide you with victory
    points and do not start a chain reaction. Also, they cannot be part of any chain
    reaction. At the moment you build these, you gain the indicated victory points" and
    "Only blue technologies start a chain reaction" (Technology)."""
    # Technology 34 (III, green: half the capacity) on 4t, over its workforce: capacity
    # 6 + 1 = 7, 3 points; no chain follows.
    s = green_and_blue_state(34, [(23, "3t")])
    play(s, A["TECH"] + 2 * 3 + 1, A["UP"] + space("4t"))
    p = player(s)
    assert p["workforce"] == 5 and p["capacity"] == 7 and p["points"] == 3
    assert s.frame() is None
    # Technology 25 (III, blue: 3 marks) on 4t; its chain passes technology 23 (II, green)
    # on 3t, which gives nothing, then technology 12 (2 marks) on 2t.
    s = green_and_blue_state(25, [(23, "3t"), (12, "2t")])
    play(s, A["TECH"] + 2 * 3 + 1, A["UP"] + space("4t"))
    assert player(s)["marks"] == 3 and s.frame()["name"] == "blue chain"
    play(s, A["CHAIN"] + space("3t"))
    assert player(s)["points"] == 0 and player(s)["marks"] == 3 and s.frame()["name"] == "blue chain"
    play(s, A["CHAIN"] + space("2t"))
    assert player(s)["marks"] == 5


def test_out_of_city_markers_a_city_gives_its_disc_and_a_trade_only():
    """"If you run out of city markers, you cannot place any more on the map, so your
    director won't move forward. In the same way, you can't build a factory anymore. You
    can only get city tiles and trade" (Travel)."""
    R, s = travel_state(steps=2, marks=1)
    s = edit(R, s, lambda d: d["players"][0].update(factories_paid=12))     # all 12 markers spent
    disc = s.to_dict()["city_disc"][city("Cologne")]
    paper = player(s)["res"][0]
    nxt = R.core_catalogue["next"]
    c = nxt[city("Mainz")][0]
    play(s, A["MAP"] + 0, A["MAP"] + nxt[c].index(city("Cologne")))
    p = player(s)
    assert disc >= 0 and (p["discs"] >> disc) & 1                          # the city tile
    assert p["cities"] == 0 and p["res"][0] == paper                        # no marker, no director step
    assert s.frame()["name"] == "after the travel: a city"
    assert s.legal_actions() == [A["PASS"], A["TRADE"]]                     # no factory


def test_one_assistant_on_a_street_whosever_it_is():
    """"It is important that there can only be 1 assistant between 2 shops, regardless of
    its color" (The effects of the assistants)."""
    def setup(d):
        d["street_owner"][0], d["street_kind"][0] = 1, 0           # the other player's paper assistant
        d["players"][1]["assistants"] &= ~1
    R, s = with_effect("assistant", setup=setup)
    play(s, A["ASSISTANT"] + 3)
    streets = {a - A["STREET"] for a in s.legal_actions()}
    assert 0 not in streets and 1 in streets                       # right of cell 0: taken; below it: free


def test_orders_never_overtake_the_one_in_front():
    """"There can only be one order in each stage of production ... In order for an order
    to advance to the next stage, you have to free up that stage. Orders can be advanced
    in any order, but can never overtake the one in front of them" (Production phase)."""
    def setup(d):
        for o in (0, 3, 4):
            move_tile(d, o, "order")
        d["orders_left"][0] = sum(1 for o in range(12) if (d["order_pile"] >> o) & 1)
        d["players"][0].update(stage=[0, 3, -1, -1], waiting=[4, -1])
    R, s = with_effect("advance_order", arg=1, setup=setup)
    legal = s.legal_actions()
    assert A["ADVANCE"] + 3 in legal                     # stage 2 -> 3: free
    assert A["ADVANCE"] + 2 not in legal                 # stage 1 -> 2: taken
    assert A["ADVANCE"] + 0 not in legal                 # waiting -> stage 1: taken
    play(s, A["ADVANCE"] + 3)
    assert player(s)["stage"] == [0, -1, 3, -1]


def test_a_tile_is_replaced_only_if_the_replaced_tile_finds_a_place():
    """"Place the purchased technology/factory to replace a tile built earlier in the
    game, and move the replaced tile facing down to any location that is higher by 1
    level ... If you would not be able to place the replaced tile in your workshop (all
    spaces are occupied already), you cannot do the action" (Building rules): a level I
    tile on 1t is replaced only while a level II space is free for it."""
    R, s = after_setup(2)

    def build(free_ii):
        def setup(d):
            at_turn(d, 0, [0, 1])
            p = d["players"][0]
            tiles = [(1, "1t")] + [(n, x) for n, x in ((13, "2t"), (14, "2b"), (15, "3t"), (16, "3b"))
                                   if x != free_ii]
            for number, sid in tiles:
                move_tile(d, tech(number), "tech")
                p["up"][space(sid)] = tech(number)
            move_tile(d, tech(2), "tech")
            set_frames(d, 0, frame("BUILD", a=tech(2), b=0))
        return edit(R, s, setup)
    full = build(None)
    assert not [a for a in full.legal_actions() if A["REPLACE"] <= a < A["TECH"]]
    assert A["UP"] + space("1m") in full.legal_actions()
    one = build("3b")
    assert A["REPLACE"] + space("1t") in one.legal_actions()
    play(one, A["REPLACE"] + space("1t"))
    assert one.legal_actions() == [A["DOWN"] + space("3b")]


def test_one_order_and_one_contract_in_an_order_and_contract_phase():
    """"In a given Order and contract phase, a player may purchase at most one order and
    one contract. If they choose not to buy any, they may pass" (Order and contract
    phase)."""
    R, s = after_setup(2)

    def setup(d):
        at_turn(d, 0, [0, 1])
        d["turn"], d["actor"], d["main_done"] = 3, 1, 1    # the last turn of the Action phase, done
        for q in range(2):
            d["players"][q]["upright"] = [0, 0]
            d["players"][q]["waiting"] = [-1, -1]
            give(d, q, marks=20)
    s = edit(R, s, setup)
    play(s, A["PASS"])
    buyer = s.current_player()
    assert s.to_dict()["phase"] == PH["ORDERS"]
    play(s, A["BUY_ORDER"] + 0)
    legal = s.legal_actions()
    assert s.current_player() == buyer and not [a for a in legal if A["BUY_ORDER"] <= a < A["BUY_CONTRACT"]]
    assert A["BUY_CONTRACT"] + 0 in legal and A["PASS"] in legal
    play(s, A["BUY_CONTRACT"] + 0)
    assert s.current_player() != buyer                     # nothing more to buy: the next player


def empty_order_piles(d, keep=0):
    """No order left in the piles; the display keeps its `keep` cheapest orders."""
    for i, o in enumerate(d["order_display"]):
        if o >= 0 and i >= keep:
            d["order_discard"] |= 1 << o
            d["order_display"][i] = -1
    for o in range(36):
        if (d["order_pile"] >> o) & 1:
            d["order_discard"] |= 1 << o
    d["order_pile"] = 0
    d["orders_left"] = [0, 0, 0, 0]


def test_an_order_left_after_the_preparation_means_a_full_round():
    """"If there is at least one order left after the preparation phase, a full round is
    played. When there are no orders left, the preparation phase is aborted" (Game end):
    3 orders on the display and none in the piles, none bought this round: 2 players
    discard 2 from the cheapest spaces, 1 is left, and a round follows; with 2 on the
    display none is left, and the game ends."""
    R, s = after_setup(2)
    display = s.to_dict()["order_display"]
    s3 = edit(R, s, lambda d: (last_production_turn(d, 2), empty_order_piles(d, keep=3)))
    play(s3, A["PASS"])
    d = s3.to_dict()
    assert s3.phase == "Action phase" and d["order_display"] == [display[2], -1, -1, -1, -1]
    s2 = edit(R, s, lambda d: (last_production_turn(d, 2), empty_order_piles(d, keep=2)))
    play(s2, A["PASS"])
    assert s2.phase == "game end: last optional actions"


def test_the_last_optional_actions_use_every_unused_signboard_disc_and_contract():
    """"The players in player order have the opportunity to perform all optional actions
    (page 8) once more. They may use all their unused signboards and/or city discs and
    activate contracts" (Game end): the signboard of an order completed in the last Action
    phase too ("Starting from your next Action phase" does not hold them back here)."""
    R, s = after_setup(2)

    def setup(d):
        last_production_turn(d, 2)
        for q in range(2):
            p = d["players"][q]
            p["waiting"], p["stage"] = [-1, -1], [-1] * 4
            move_tile(d, q * 4, "order")               # orders 1 and 5: white signboards
            p["completed"] = 1 << (q * 4)
            p["signs_fresh"] = 1 << (q * 4)            # completed in this round's Action phase
            move_tile(d, 3 + 3 * q, "disc")            # city discs 4 and 7: no signboard
            p["discs"] = 1 << (3 + 3 * q)
            move_tile(d, q, "contract")
            p["contracts"] = 1 << q
            p["slots_open"] = 1
        empty_order_piles(d)
    s = edit(R, s, setup)
    assert A["SIGNBOARD"] + 0 not in s.legal_actions()
    play(s, A["PASS"])
    assert s.phase == "game end: last optional actions"
    seat = s.current_player()
    legal = s.legal_actions()
    assert {A["SIGNBOARD"] + 0, A["DISC"] + 3 + 3 * seat, A["ACTIVATE"] + seat * 4 + 0, A["PASS"]} <= set(legal)
    workforce = player(s, seat)["workforce"]
    play(s, A["SIGNBOARD"] + 0)
    assert player(s, seat)["workforce"] == workforce + 1 and s.current_player() == seat
