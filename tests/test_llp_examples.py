"""The rulebook's worked examples of Lead Letter Printers, played on positions written by
hand (tests/llp_helpers.py). Each test names the example it follows; where the board is
our reconstruction (which shop lies where, which space a line joins), the position is
built so that the example's moves are there to make."""

from llp_helpers import (A, C, EFFECT, PH, RES, after_setup, cell_of, city, edit, give, letters_tile,
                         move_tile, push_letter, set_frames, frame, space, tech)



def settle(s, pick=None):
    """Resolve chance nodes (the first outcome, or pick(outcomes))."""
    while s.is_chance():
        outs = [o for o, _ in s.chance_outcomes()]
        s.apply(pick(outs) if pick else outs[0])
    return s


def play(s, *actions):
    for a in actions:
        settle(s)
        assert a in s.legal_actions(), (s.action_to_string(a), s.step_name(),
                                        [s.action_to_string(x) for x in s.legal_actions()])
        s.apply(a)
    return settle(s)


def move(t, cell, room):
    return A["MOVE"] + (t * 16 + cell) * 2 + room


def at_turn(d, seat, order):
    """Seat to play its first turn of the Action phase with this player order."""
    n = d["num_players"]
    d["order"][:n] = order
    for i, q in enumerate(order):
        d["players"][q]["section"] = 0
        d["players"][q]["track_slot"] = i
    d["seq"][:2 * n] = order + order
    d["turn"] = order.index(seat)
    d["actor"] = seat
    d["main_done"] = 0
    d["n_frames"] = 0


def place(d, seat, t, cell, room, upright, entered):
    p = d["players"][seat]
    p["pos"][t], p["room"][t], p["upright"][t], p["entered"][t] = cell, room, upright, entered


# ---------------------------------------------------------------------------------------
def test_green_shop_move_with_the_capacity_step():
    """"The green player must move 2 steps ... only one of them is in a II room, so he can
    only move that one. He could reach a typesetting action ... with 1 step. Since he had
    2 steps, he needs to reduce his capacity by 1. ... The yellow player gets 1 mark from
    the common supply, since his tradesman is in the same room.\""""
    R, s = after_setup(2)
    green, yellow = 0, 1
    composing = cell_of(2, "Composing room")          # row 3, column 2
    engineers = cell_of(2, "Engineers' hall")         # just above it

    def setup(d):
        at_turn(d, green, [yellow, green])            # second player: the marker shows 2 steps
        place(d, green, 0, cell_of(2, "Paper mill"), 0, 1, 1)      # upright, but in a I room
        place(d, green, 1, engineers, 1, 1, 2)                     # upright in a II room
        place(d, yellow, 0, composing, 1, 0, 3)                    # lying in the II room
        place(d, yellow, 1, cell_of(2, "Warehouse"), 1, 0, 4)
        d["stamp"] = 10
        d["players"][green]["capacity"] = 2
        give(d, yellow, marks=0)
    s = edit(R, s, setup)
    legal = s.legal_actions()
    moves = [a for a in legal if A["MOVE"] <= a < A["RESET"]]
    assert moves and all((a - A["MOVE"]) // 32 == 1 for a in moves)   # only the II-room tradesman
    costs = s.move_costs(green, 1)
    assert costs[composing] == 1                      # 1 step where 2 are due
    assert costs[cell_of(2, "Coaching inn")] == 0     # 2 steps
    # The menu says what the rooms do and what the move costs, before it is made.
    from gutenberg_ai.interfaces import tui
    assert tui.move_text(s, move(1, composing, 1), s.action_to_string(move(1, composing, 1))).endswith(
        "Composing room (row 3, column 2): 1 typesetting; costs 1 capacity")
    assert tui.move_text(s, move(1, cell_of(2, "Coaching inn"), 0), "").endswith(": travel, 1 mark")
    texts = [tui.move_text(s, a, s.action_to_string(a)) for a in legal]
    menu = tui.view_of(s).menu(s, green, legal, texts, 100).plain
    numbers = [legal.index(move(1, composing, r)) + 1 for r in (0, 1)]
    assert f"Composing room 1 typesetting+a letter's resources / 1 typesetting: {numbers[0]}/{numbers[1]} -1" in menu
    assert "Warehouse 3/2 capacity: " in menu
    play(s, move(1, composing, 1))
    d = s.to_dict()
    assert d["players"][green]["capacity"] == 1
    assert d["players"][green]["upright"][1] == 0 and d["players"][green]["pos"][1] == composing
    assert d["players"][yellow]["marks"] == 1         # he was there first


def test_a_move_needs_the_capacity_it_costs():
    R, s = after_setup(2)
    s = edit(R, s, lambda d: (at_turn(d, 0, [1, 0]), place(d, 0, 1, cell_of(2, "Engineers' hall"), 1, 1, 2),
                              place(d, 0, 0, 0, 0, 0, 1), d["players"][0].__setitem__("capacity", 0)))
    costs = s.move_costs(0, 1)
    reachable = {(a - A["MOVE"]) // 2 % 16 for a in s.legal_actions() if A["MOVE"] <= a < A["RESET"]}
    # Within the capacity (none left: only exact moves), never into the shop of the
    # player's other tradesman (cell 0).
    assert costs[0] == 0 and reachable == {x for x in range(16) if costs[x] == 0} - {0} and reachable


def test_purple_reset():
    """"He chooses the lead letter AD and keeps it ... If he had thrown it in the discard
    pile, he would have received 1 paper. He then lays down his standing tradesman ...
    The other tradesman is already lying in a I room, so he slides it down. Therefore, he
    takes 2 more papers from the common supply.\""""
    R, s = after_setup(2)
    purple = 0
    ad = letters_tile("AD")
    mill = cell_of(2, "Paper mill")

    def setup(d):
        at_turn(d, purple, [purple, 1])
        place(d, purple, 0, cell_of(2, "Guild hall"), 1, 1, 1)     # standing in a II room
        place(d, purple, 1, mill, 0, 0, 2)                         # lying in the mill's I room
        move_tile(d, ad, "letter")
        if d["table"][0] >= 0:
            d["letter_pile"] |= 1 << d["table"][0]
        d["table"][0] = ad
        give(d, purple, paper=0)
    s0 = edit(R, s, setup)
    s = s0.clone()
    stacks = s.to_dict()["players"][purple]["stack_n"]
    play(s, A["RESET"] + 0, A["KEEP"] + stacks.index(0))
    p = s.to_dict()["players"][purple]
    assert p["res"][RES["paper"]] == 2                     # the mill's II room
    assert ad in p["stack"][stacks.index(0)]
    assert p["upright"] == [0, 0] and p["room"] == [1, 1] and p["pos"][1] == mill
    assert A["PASS"] in s.legal_actions()                  # the Reset was the turn's action
    s = s0.clone()
    play(s, A["RESET"] + 0, A["DISCARD"])
    assert s.to_dict()["players"][purple]["res"][RES["paper"]] == 3    # 1 for AD, 2 for the mill


def test_blue_technology_chain():
    """"The blue player buys a level III technology for 3 mark and 1 lead. He places it
    ... for which he receives 1 workforce. Then he performs the actions of the route ...:
    3 marks, 1 trade, 2 marks, 1 capacity and 2 ink.\""""
    R, s = after_setup(2)
    blue = 0
    ink2 = letters_tile("A", {"ink": 2})

    def setup(d):
        at_turn(d, blue, [blue, 1])
        p = d["players"][blue]
        for code, sid in ((tech(20), "3t"), (tech(12), "2m"), (tech(6), "1t")):   # trade, 2 marks, 1 capacity
            move_tile(d, code, "tech")
            p["up"][space(sid)] = code
        move_tile(d, tech(25), "tech")                   # III: 3 marks
        old = d["tech_face"][2][1]
        if old >= 0:
            d["tech_pile"] |= 1 << old
        d["tech_face"][2][1] = tech(25)
        push_letter(d, blue, ink2, 1)
        give(d, blue, marks=3, lead=1, ink=0, paper=0)
        p["workforce"], p["capacity"] = 3, 3          # (from 2 to 3 an assistant would come too)
        set_frames(d, blue, frame("TECHNOLOGY", a=0, b=-1))
    s = edit(R, s, setup)
    play(s, A["TECH"] + 2 * 3 + 1)
    p = s.to_dict()["players"][blue]
    assert p["marks"] == 0 and p["res"][RES["lead"]] == 0   # 3 marks (column III) and 1 lead (row 2)
    play(s, A["UP"] + space("4t"))
    p = s.to_dict()["players"][blue]
    assert p["workforce"] == 4 and p["marks"] == 3        # the covered workforce, then the new technology
    assert s.frame()["name"] == "blue chain"
    assert s.legal_actions() == [A["CHAIN"] + space("3t")]
    play(s, A["CHAIN"] + space("3t"))
    assert s.frame()["name"] == "trade"                   # the trade technology
    play(s, A["PASS"], A["CHAIN"] + space("2m"))
    assert s.to_dict()["players"][blue]["marks"] == 5
    play(s, A["CHAIN"] + space("1t"))
    assert s.to_dict()["players"][blue]["capacity"] == 3 + 1 + 1     # with the workforce, then the chain
    assert s.legal_actions() == [A["STACK"] + 0, A["STACK"] + 1]     # a lead letter ends the chain
    play(s, A["STACK"] + 1)
    p = s.to_dict()["players"][blue]
    assert p["res"][RES["ink"]] == 2 and s.frame() is None


def test_blue_factory():
    """"He takes the top 3 factories from deck II and chooses one ... Since he covered an
    assistant icon, he places one of his assistants ... he removes his next city marker
    ... (the director doesn't move in this case) ... whenever he carries out a trading
    action, he will also receive 1 mark.\""""
    R, s = after_setup(2)
    blue, other = 0, 1
    trade_marks = 14                                   # factory 15 (II: a trade: 1 mark)

    def setup(d):
        at_turn(d, blue, [blue, other])
        p = d["players"][blue]
        # The piles lie face up (setup 2a): factory 15 is the top of deck II.
        d["factory_pile"] |= 1 << d["factory_top"][1]
        d["factory_pile"] &= ~(1 << trade_marks)
        d["factory_top"][1] = trade_marks
        move_tile(d, tech(3), "tech")
        p["up"][space("1b")] = tech(3)                 # a path to the II space below
        p["cities"] = 1 << city("Strasbourg")
        set_frames(d, blue, frame("CITY_CHOICE"))
    s = edit(R, s, setup)
    before = s.to_dict()["players"][blue]
    s.apply(A["FACTORY_PILE"] + 1)
    drawn = [trade_marks, 9, 10]
    assert s.to_dict()["drawn"][0] == trade_marks     # "the top 3": the top in view first
    for x in drawn[1:]:
        assert s.is_chance() and (C["FACTORY"] + blue * 36 + x) in [o for o, _ in s.chance_outcomes()]
        s.apply(C["FACTORY"] + blue * 36 + x)
    # Deck II's next top comes into view; a display emptied by the setup refills.
    assert s.is_chance() and all(C["FACTORY_TOP"] <= o for o, _ in s.chance_outcomes())
    settle(s)
    assert s.to_dict()["factory_top"][1] not in drawn and s.to_dict()["factory_top"][1] >= 0
    assert sorted(s.legal_actions()) == sorted(A["FACTORY"] + x for x in drawn)
    history_entry = C["FACTORY"] + blue * 36 + 9
    assert s.mask_history(other, [(-1, history_entry)]) == [(-1, -1)]      # the other player does not see it
    assert s.mask_history(blue, [(-1, history_entry)]) == [(-1, history_entry)]
    play(s, A["FACTORY"] + trade_marks, A["UP"] + space("2b"))
    assert s.frame()["name"] == "assistant"            # the covered assistant icon
    play(s, A["ASSISTANT"] + 3)
    play(s, s.legal_actions()[0])
    d = s.to_dict()
    p = d["players"][blue]
    assert p["factories_paid"] == 1 and p["cities"] == before["cities"]     # a marker spent, the director stays
    assert d["factory_bottom"][1][:2] == [9, 10] and d["factory_bottom_seen"][1][:2] == [1 << blue] * 2
    assert sum(1 for o in d["street_owner"] if o == blue) == 1
    # Later, a trade action brings 1 mark more.
    s = edit(R, s, lambda d: (give(d, blue, paper=1, marks=0), set_frames(d, blue, frame("TRADE", a=0))))
    play(s, A["CONVERT"], A["RESOURCE"] + RES["paper"], A["RESOURCE"] + RES["ink"], A["RESOURCE"] + RES["ink"])
    assert s.to_dict()["players"][blue]["marks"] == 1


def test_yellow_assistant_route_and_reward():
    """"The yellow player must move exactly 2 ... Using his assistant, he doesn't count one
    movement between the 2 tiles indicated" (optional), and "The yellow player gets 1 ink
    ... for his assistant standing next to the store.\""""
    R, s = after_setup(2)
    yellow, blue = 0, 1
    start = 1                                           # row 1, column 2
    street = 0 * 2 + 1                                  # between (row 1, column 1) and the shop below it

    def setup(d, with_assistant):
        at_turn(d, yellow, [blue, yellow])              # second: 2 steps
        place(d, yellow, 0, start, 1, 1, 1)
        place(d, yellow, 1, 8, 1, 0, 2)
        d["players"][yellow]["capacity"] = 1
        if with_assistant:
            d["street_owner"][street] = yellow
            d["street_kind"][street] = 2                # the ink assistant
            d["players"][yellow]["assistants"] &= ~(1 << 2)
    without = edit(R, s, lambda d: setup(d, False)).move_costs(yellow, 0)
    with_ = edit(R, s, lambda d: setup(d, True)).move_costs(yellow, 0)
    inn = cell_of(2, "Coaching inn")                    # 3 streets away, one of them the assistant's
    assert without[inn] == 1 and with_[inn] == 0
    assert without[cell_of(2, "Lead foundry")] == with_[cell_of(2, "Lead foundry")] == 1   # 1 step either way
    # Another player ends his move beside the assistant: its owner gets its reward.
    s = edit(R, s, lambda d: (setup(d, True), at_turn(d, blue, [blue, yellow]),
                              place(d, blue, 0, 5, 1, 1, 3), give(d, yellow, ink=0)))
    target = 4                                          # row 2, column 1: below the assistant's street
    cost = s.move_costs(blue, 0)[target]
    play(s, move(0, target, 1))
    assert s.to_dict()["players"][yellow]["res"][RES["ink"]] == 1, cost


def test_purple_travel():
    """"He has a workforce of 4 ... He travels ... to the next city using 3 steps. 1 mark
    must be paid for the blue player and 1 mark to the common supply. He picks up the city
    disc ... puts a city marker in its place. The director advances ... 1 paper ... he
    performs a trade action, a 1:2 conversion. He still has 1 step left ... he moves 1 on
    the order track.\""""
    R, s = after_setup(2)
    purple, blue = 0, 1
    mainz, strasbourg = city("Mainz"), city("Strasbourg")
    core = R.core_catalogue
    coin1 = core["next"][mainz][1]                        # the Mainz-Strasbourg road: 2 coins

    def setup(d):
        at_turn(d, purple, [purple, blue])
        p = d["players"][purple]
        p["workforce"], p["agent"] = 4, mainz
        d["players"][blue]["agent"] = coin1
        give(d, purple, marks=2, paper=1, lead=0, ink=0)
        give(d, blue, marks=0)
        set_frames(d, purple, frame("TRAVEL", n=0, arg=0, a=4, b=0, c=0, d=1))
    s = edit(R, s, setup)
    disc = s.to_dict()["city_disc"][strasbourg]
    bank = s.to_dict()["bank"]
    coin2 = core["next"][coin1][1]
    play(s, A["MAP"] + 1, A["MAP"] + core["next"][coin1].index(coin2),
         A["MAP"] + core["next"][coin2].index(strasbourg))
    d = s.to_dict()
    assert d["players"][purple]["marks"] == 0 and d["players"][blue]["marks"] == 1 and d["bank"] == bank + 1
    play(s, A["STOP"])
    d = s.to_dict()
    p = d["players"][purple]
    assert (p["discs"] >> disc) & 1 and d["city_disc"][strasbourg] == -1
    assert (p["cities"] >> strasbourg) & 1
    assert p["res"][RES["paper"]] == 2                    # the director's first space
    assert s.frame()["name"] == "after the travel: a city"
    play(s, A["TRADE"], A["CONVERT"], A["RESOURCE"] + RES["paper"], A["RESOURCE"] + RES["lead"],
         A["RESOURCE"] + RES["ink"])
    assert s.frame()["name"] == "travel" and s.frame()["a"] == 1
    assert A["MAP"] not in s.legal_actions()              # stopped on the map already
    play(s, A["TRACK"])
    p = s.to_dict()["players"][purple]
    assert p["section"] == 1 and s.frame() is None
    assert p["res"] == [1, 1, 1]


def test_order_and_contract_purchases():
    """"The purple player can perform a buy action first. He buys the 2nd order from the
    left for 2 marks ... The green player takes the 3rd order and the 1st contract for a
    total of 4 marks. For the blue player the 1st order is free ... his 2 leftover mark
    will be enough for the 3rd contract ... For the yellow player even though each tile is
    cheaper by 2 marks, he still decides not to buy anything.\""""
    R, s = after_setup(4)
    green, purple, blue, yellow = 0, 1, 2, 3

    def setup(d):
        at_turn(d, green, [green, purple, blue, yellow])
        d["turn"] = 7                                   # the last turn of the Action phase ...
        d["actor"] = yellow
        d["main_done"] = 1                              # ... its action done
        for q, (section, slot) in {green: (0, 0), purple: (0, 1), blue: (1, 0), yellow: (2, 0)}.items():
            d["players"][q]["section"], d["players"][q]["track_slot"] = section, slot
        for q in range(4):
            give(d, q, marks=5)
            d["players"][q]["upright"] = [0, 0]
        give(d, blue, marks=2)
    s = edit(R, s, setup)
    orders = s.to_dict()["order_display"]
    contracts = s.to_dict()["contract_display"]
    play(s, A["PASS"])
    assert s.to_dict()["phase"] == PH["ORDERS"]
    assert s.to_dict()["seq"][:4] == [purple, green, blue, yellow]      # leftmost agent first
    play(s, A["BUY_ORDER"] + 1, A["PASS"])
    play(s, A["BUY_ORDER"] + 2, A["BUY_CONTRACT"] + 0)
    play(s, A["BUY_ORDER"] + 0, A["BUY_CONTRACT"] + 2)
    d = s.to_dict()
    assert [d["players"][q]["marks"] for q in (purple, green, blue)] == [3, 1, 0]
    assert d["players"][purple]["waiting"][0] == orders[1]
    assert d["players"][green]["waiting"][0] == orders[2] and (d["players"][green]["contracts"] >> contracts[0]) & 1
    assert d["players"][blue]["waiting"][0] == orders[0] and (d["players"][blue]["contracts"] >> contracts[2]) & 1
    assert d["actor"] == yellow
    assert {a for a in s.legal_actions() if a >= A["BUY_ORDER"]} == \
        {A["BUY_ORDER"] + 3, A["BUY_ORDER"] + 4, A["BUY_CONTRACT"] + 1, A["BUY_CONTRACT"] + 3, A["BUY_CONTRACT"] + 4}
    play(s, A["PASS"])
    assert s.to_dict()["players"][yellow]["marks"] == 5 and s.to_dict()["phase"] != PH["ORDERS"]


def test_purple_production():
    """"The purple player has a capacity of 3 ... He pays 2 paper and reduces his capacity
    by 1 ... He gets 1 victory point as his capacity marker moved on that reward. Then he
    further reduces his capacity by 1 (for this he gets 1 mark) to get the order on the
    left to enter the 1st stage ... Finally, he removes his rightmost order from the 4th
    stage ... he gets 1 mark and the 1 victory point indicated on the finished order. In
    addition, he has a factory, which gives 1 mark if an order leaves the 4th stage.\""""
    R, s = after_setup(2)
    purple = 0
    first, waiting, last = 0, 4, 3                      # orders 1 (2 paper to leave stage 1), 5, 4 (1 point, stage 4 free)

    def setup(d):
        at_turn(d, purple, [purple, 1])
        d["phase"] = PH["PRODUCTION"]
        d["seq"][:2] = [purple, 1]
        d["n_turns"], d["turn"], d["main_done"], d["prod_left"] = 2, 0, 1, 3
        p = d["players"][purple]
        for o in (first, waiting, last):
            move_tile(d, o, "order")
        d["orders_left"][0] -= sum(1 for o in (first, waiting, last) if o not in s.to_dict()["order_display"])
        p["stage"] = [first, -1, -1, last]
        p["waiting"] = [waiting, -1]
        p["capacity"], p["workforce"], p["points"] = 3, 2, 0
        move_tile(d, 27, "factory")                     # factory 28 (IV: 1 mark when an order leaves stage 4)
        p["up"][space("1t")] = -1
        p["down"][space("5t")] = -1
        p["up"][space("5t")] = 48 + 27
        give(d, purple, paper=2, lead=0, ink=0, marks=0)
    s = edit(R, s, setup)
    assert A["ADVANCE"] + 0 not in s.legal_actions()    # stage 1 is taken
    play(s, A["ADVANCE"] + 2)                           # stage 1 -> 2: 2 paper, capacity to 2 (1 point)
    p = s.to_dict()["players"][purple]
    assert p["res"][RES["paper"]] == 0 and p["points"] == 1 and p["capacity"] == 2
    play(s, A["ADVANCE"] + 0)                           # the waiting order into stage 1 (1 mark)
    p = s.to_dict()["players"][purple]
    assert p["marks"] == 1 and p["stage"][0] == waiting
    play(s, A["ADVANCE"] + 5)                           # out of stage 4: 1 mark, 1 point, the factory's mark
    d = s.to_dict()
    p = d["players"][purple]
    assert p["points"] == 2 and (p["completed"] >> last) & 1
    # 1 + 1 (capacity space 0) + 1 (factory) = 3 marks, less the wages (2 workforce: 1 mark);
    # at the preparation the capacity came back up to the workforce.
    assert p["marks"] == 2 and p["capacity"] == p["workforce"] == 2


def test_final_resources_and_cash():
    """"2 lead + 1 paper + 9 marks = 12; worth overall 2 victory points.\""""
    R, s = after_setup(2)
    s = edit(R, s, lambda d: give(d, 0, paper=1, lead=2, ink=0, marks=9))
    assert s.score_breakdown(0)["resources_and_cash"] == 2


def with_effect(kind, n=1, arg=0, players=2, seat=0, setup=None):
    """A state where seat is carrying out effect `kind` (resolved up to its first choice)."""
    R, s = after_setup(players)

    def fn(d):
        at_turn(d, seat, list(range(players)))
        d["main_done"] = 1
        if setup:
            setup(d)
        set_frames(d, seat, frame("EFFECT", n=n, arg=arg, kind2=EFFECT[kind]))
    s = edit(R, s, fn)
    s._advance()                                       # the core carries out the effect up to its first choice
    return R, settle(s)


def test_green_letter_under_a_contract():
    """"The green player places his lead letter AC below the contract shown on the
    picture. This way he will not get an immediate reward, but at the end of the game the
    contract will give him double victory points.\""""
    green = 0
    ac = letters_tile("AC", {"lead": 1})
    marks_contract = 0                                 # contract 1: 1 point for every 5 marks

    def setup(d):
        p = d["players"][green]
        push_letter(d, green, ac, 0)
        move_tile(d, marks_contract, "contract")
        p["contracts"] |= 1 << marks_contract
        p["slots_open"] = 0b0001
        p["slot_contract"][0] = marks_contract
        p["slots_used"] = 0b0001
        give(d, green, marks=10, paper=0, lead=0, ink=0)
    R, s = with_effect("typesetting", seat=green, setup=setup)
    before = s.to_dict()["players"][green]
    assert s.score_breakdown(green)["contracts"] == 2          # 10 marks: 2 points
    play(s, A["STACK"] + 0, A["UNDER"] + 0)
    p = s.to_dict()["players"][green]
    assert s.frame() is None                                   # no immediate reward ...
    for key in ("res", "marks", "points", "workforce", "capacity", "stick"):
        assert p[key] == before[key], key
    assert p["contract_letter"][marks_contract] == ac and p["stack_n"][0] == before["stack_n"][0] - 1
    assert s.score_breakdown(green)["contracts"] == 4          # ... but double at the end: 2 x 2
    # the board says where the contract lies and what is under it, in words
    from gutenberg_ai.games.lead_letter_printers import describe
    board = describe.text(s, green)
    assert "contract 1 (1 point per 5 marks) (slot 1, under it lead letter 27 AC)" in board
    assert "slots [" not in board and "-1" not in board


def test_green_letter_on_the_composing_stick():
    """"The green player places his lead letter AC on his composing stick board. Since
    the slot is marked with letter A, he can perform its action (2 trade). Now he also has
    1 composing stick filled, for which he will get 5 victory points at the end of the
    game. In addition, he created 2 formations (2 lead letters next to and below each
    other), meaning he unlocked the corresponding contract slots.\""""
    green = 0
    ac = letters_tile("AC", {"lead": 1})

    def setup(d):
        p = d["players"][green]
        push_letter(d, green, ac, 1)
        # The picture: the first stick's B and C spaces filled, and the second stick's D.
        for x, code in ((1, letters_tile("B", {"paper": 2})), (2, letters_tile("C", {"paper": 2})),
                        (3, letters_tile("D", {"paper": 2}))):
            move_tile(d, code, "letter")
            p["stick"][x] = code
        give(d, green, paper=1, lead=0, ink=0)               # something to trade
    R, s = with_effect("typesetting", seat=green, setup=setup)
    assert s.to_dict()["players"][green]["slots_open"] == 0
    assert s.score_breakdown(green)["composing_sticks"] == 0
    play(s, A["STACK"] + 1)
    assert A["STICK"] + 0 in s.legal_actions() and A["STICK"] + 1 not in s.legal_actions()   # taken spaces
    play(s, A["STICK"] + 0)
    f = s.frame()
    assert f["name"] == "trade" and f["n"] == 2               # the A space: 2 trades
    p = s.to_dict()["players"][green]
    assert p["stick"][0] == ac
    assert p["slots_open"] == 0b0011                          # next to each other (slot 1), below (slot 2)
    assert s.score_breakdown(green)["composing_sticks"] == 5  # 1 stick filled


def test_green_two_steps_on_the_order_track():
    """"The green player has 2 workforce and he wants to do both steps on the order track.
    As a result, he arrives behind the yellow player's agent." ("In each section, your
    agent always will occupy the rightmost free slot.")"""
    green, yellow = 0, 1

    def setup(d):
        d["players"][green].update(workforce=2, capacity=2, section=0, track_slot=0)
        d["players"][yellow].update(section=2, track_slot=0)      # moved up 2 sections earlier
        give(d, green, marks=0)
    R, s = with_effect("travel", seat=green, setup=setup)
    assert s.frame()["name"] == "travel" and s.frame()["a"] == 2  # 2 workforce: 2 steps
    play(s, A["TRACK"], A["TRACK"])
    d = s.to_dict()
    assert s.frame() is None
    assert (d["players"][green]["section"], d["players"][green]["track_slot"]) == (2, 1)   # behind yellow
    assert (d["players"][yellow]["section"], d["players"][yellow]["track_slot"]) == (2, 0)
    assert d["players"][green]["marks"] == 0                  # the order track costs nothing
