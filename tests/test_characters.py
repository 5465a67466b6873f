"""The 10 characters (rulebook p.23; the Italian edition for Tory) and the character setup,
checked on hand-made positions (see positions.py) with exact numbers: each character's
effect and its limit.

Seats are numbered from 0; unless a test says otherwise seat 0 holds the first player
token. Rulings: /work/shared/gutenberg/RULINGS.md and docs/gutenberg/rulings.md.
"""
import json

import pytest

from gutenberg_ai.games.gutenberg import _core
from gutenberg_ai.games.gutenberg.catalogue import load_catalogue
from gutenberg_ai.games.gutenberg.names import CHARACTERS
from positions import (
    A, C, PASS, PD, at_fulfil, at_phase, at_turn, bits, blank, board, catalogue, chance_all,
    character, choose_ink, find_gear, fulfil, give_order, install_gear, me, patron_card, pending,
    player, rules, up, use_gear,
)

IllegalActionError = _core.IllegalActionError
plan_index = _core.plan_index
BLUE, SILVER, GOLD, RED = range(4)
(GUTENBERG, MANUTIUS, GUILLARD, UNGLER, SCHOEFFER, TORY, CAXTON, PLANTIN, FIOL,
 VIETOR) = range(10)


def legal_in(s, lo, hi):
    return [a for a in s.legal_actions() if lo <= a < hi]


def shift(i, j):
    return A["SHIFT"] + i * 5 + j


def swap(i, j):
    return A["SWAP"] + i * 4 + j


def keep(x):
    return A["CHARACTER"] + x


def draw(x):
    return C["CHARACTER"] + x


def swaps(s):
    return legal_in(s, A["SWAP"], A["NUM_ACTIONS"])


def gear_uses(s):
    return legal_in(s, A["USE_GEAR"], A["USE_GEAR"] + 3)


def fulfil_picks(s, slot):
    """The fulfilment modes offered for order `slot`, by name."""
    names = ("skip", "print", "colour", "decoration", "both")
    return [names[(a - A["FULFIL"]) % 5] for a in legal_in(s, A["FULFIL"], A["FULFIL"] + 20)
            if (a - A["FULFIL"]) // 5 == slot]


def end_the_round(s):
    """The last player of the fulfil order skips every order and finishes: the round
    ends (end-of-round powers apply) and the board is refilled."""
    while s.phase == "fulfil":
        d = s.to_dict()
        slot = d["fulfil_slot"]
        s.apply(fulfil(slot, "skip") if slot < 4 else PASS)
    return s


def done(s, seat):
    """`seat` finishes his fulfil turn: prints the chosen orders and takes no free action
    after printing (with one choice left the core finishes by itself)."""
    while (s.phase == "fulfil" and s.current_player() == seat and s.to_dict()["fulfil_slot"] >= 4
           and not pending(s)):
        s.apply(PASS)
    assert not (s.phase == "fulfil" and s.current_player() == seat)
    return s


def next_round(R, d, last_seat=None):
    """From hand-made dict `d`: `last_seat` (the last of the fulfil order, no orders)
    finishes, the round ends and the board is refilled."""
    n = d["num_seats"]
    if last_seat is None:
        last_seat = (d["first_player"] - 1) % n
    s = at_fulfil(R, d, last_seat)
    s.apply(PASS)
    return chance_all(s)


def to_characters(R):
    """A real game at its character draws (the board dealt with the lowest outcomes)."""
    s = R.new_state()
    while s.phase == "setup":
        s.apply(s.chance_outcomes()[0][0])
    assert s.phase == "characters"
    return s


# =======================================================================================
# Setup: 2 tiles drawn, one kept, the other back in the box and hidden
# =======================================================================================
def test_setup_draws_are_uniform_over_the_tiles_not_drawn_and_one_is_kept():
    R = rules(2, characters=True)
    s = to_characters(R)
    assert s.is_chance()
    assert s.chance_outcomes() == [(draw(x), pytest.approx(1 / 10)) for x in range(10)]
    s.apply(draw(TORY))
    assert s.chance_outcomes() == [(draw(x), pytest.approx(1 / 9)) for x in range(10) if x != TORY]
    s.apply(draw(FIOL))
    # Player 0 decides between exactly his two tiles.
    assert s.current_player() == 0
    assert s.legal_actions() == [keep(TORY), keep(FIOL)]
    with pytest.raises(IllegalActionError):
        s.apply(keep(GUTENBERG))
    s.apply(keep(FIOL))
    assert s.character(0) == "Schweipolt Fiol"
    # Player 1 draws from the 8 tiles left: Tory, put back, never comes back.
    assert s.is_chance()
    assert s.chance_outcomes() == [(draw(x), pytest.approx(1 / 8)) for x in range(10)
                                   if x not in (TORY, FIOL)]
    s.apply(draw(GUTENBERG))
    s.apply(draw(VIETOR))
    assert s.current_player() == 1 and s.legal_actions() == [keep(GUTENBERG), keep(VIETOR)]
    s.apply(keep(VIETOR))
    d = s.to_dict()
    assert s.phase == "draft"
    assert [d["players"][k]["character"] for k in range(2)] == [FIOL, VIETOR]
    assert bits(d["character_pool"]) == [MANUTIUS, GUILLARD, UNGLER, SCHOEFFER, CAXTON, PLANTIN]


def test_setup_without_characters_skips_the_draws():
    R = rules(2)
    s = R.new_state()
    while s.phase == "setup":
        s.apply(s.chance_outcomes()[0][0])
    assert s.phase == "draft"
    assert s.character(0) is None and s.character(1) is None


def test_the_tile_put_back_is_hidden_from_the_others():
    R = rules(3, characters=True)
    s = to_characters(R)
    s.apply(draw(CAXTON))
    s.apply(draw(PLANTIN))
    caxton, plantin = CHARACTERS[CAXTON], CHARACTERS[PLANTIN]
    # Before the choice: the owner sees both tiles, the others only that there are 2.
    assert caxton in s.observation_string(0) and plantin in s.observation_string(0)
    for other in (1, 2):
        view = s.observation_string(other)
        assert caxton not in view and plantin not in view
        assert "characters drawn: 2 tiles" in view
    s.apply(keep(PLANTIN))
    # After it: the kept tile is public, the one put back is named nowhere.
    for viewer in (1, 2):
        view = s.observation_string(viewer)
        assert f"character: {plantin}" in view
        assert caxton not in view
    assert s.character(0) == plantin


# =======================================================================================
# Johannes Gutenberg: shifts 1 initiative marker after the reveal
# =======================================================================================
def gutenberg_reveal(plan0, plan1=(0, 2, 2, 2, 2), who=0):
    """Seat `who` is Gutenberg; seat 0 (first player, 7 markers) has planned `plan0` and
    seat 1 (8 markers) now plans `plan1`: the plans are revealed."""
    R = rules(2)
    d = blank(R)
    character(d, who, "Gutenberg")
    player(d, 0, plan=plan0)
    s = at_phase(R, d, "PLAN", step=1)
    assert s.current_player() == 1
    s.apply(plan_index(plan1))
    return s


def rows_turns(s):
    """Pass through the execute step; the seats that had a turn, per row."""
    acted = {}
    while s.phase == "execute":
        d = s.to_dict()
        acted.setdefault(d["row"], []).append(s.current_player())
        s.apply(PASS)
    return acted


def test_gutenberg_may_shift_one_marker_not_onto_a_row_with_6():
    s = gutenberg_reveal((6, 1, 0, 0, 0))
    assert s.phase == "reveal" and s.current_player() == 0
    assert [q["kind"] for q in pending(s)] == [PD["SHIFT"]]
    # From orders (6) to any other row; from inks (1) to any row but orders, which has 6.
    assert s.legal_actions() == sorted(
        [shift(0, j) for j in (1, 2, 3, 4)] + [shift(1, j) for j in (2, 3, 4)] + [PASS])


def test_gutenberg_shift_changes_the_turn_order():
    # Without the shift: seat 1 (2 markers) before seat 0 (1) at inks; no gears turn for 0.
    s = gutenberg_reveal((4, 1, 0, 0, 2))
    s.apply(PASS)
    assert me(s, 0)["plan"] == [4, 1, 0, 0, 2]
    assert rows_turns(s) == {0: [0], 1: [1, 0], 2: [1], 3: [1], 4: [0, 1]}
    # Shift patronage -> inks: 2 against 2 at inks, and seat 0 is first player.
    s = gutenberg_reveal((4, 1, 0, 0, 2))
    s.apply(shift(4, 1))
    assert me(s, 0)["plan"] == [4, 2, 0, 0, 1]
    assert rows_turns(s) == {0: [0], 1: [0, 1], 2: [1], 3: [1], 4: [1, 0]}


def test_gutenberg_shifts_only_once_and_onto_an_empty_row():
    s = gutenberg_reveal((4, 1, 0, 0, 2))
    s.apply(shift(0, 3))          # onto gears, where he had no marker
    assert me(s, 0)["plan"] == [3, 1, 0, 1, 2]
    # One shift: no second decision, the orders row begins.
    assert pending(s) == [] and s.phase == "execute"
    assert s.to_dict()["row"] == 0 and s.current_player() == 0
    assert legal_in(s, A["SHIFT"], A["SWAP"]) == []
    assert rows_turns(s)[3] == [1, 0]


def test_no_shift_without_gutenberg():
    s = gutenberg_reveal((4, 1, 0, 0, 2), who=1)   # seat 1 is Gutenberg; seat 0 is not
    assert s.current_player() == 1 and pending(s)[0]["seat"] == 1
    s.apply(PASS)
    assert s.phase == "execute" and me(s, 1)["plan"] == [0, 2, 2, 2, 2]
    R = rules(2)
    d = blank(R)
    player(d, 0, plan=(4, 1, 0, 0, 2))
    s = at_phase(R, d, "PLAN", step=1)
    s.apply(plan_index((0, 2, 2, 2, 2)))
    assert s.phase == "execute" and pending(s) == []


def test_gutenberg_shifts_after_the_automas_planning_card():
    # Solo: the plan is in; the automa's card comes first (chance), then the shift.
    R = rules(1, automa=True)
    d = blank(R, first_player=1)
    character(d, 0, "Gutenberg")
    player(d, 0, plan=(2, 2, 2, 1, 1))
    s = at_phase(R, d, "REVEAL", step=1, reveal_stage=0)
    assert s.is_chance() and pending(s) == []
    s.apply(C["AUTOMA_PLAN"] + 1)          # gears -> orders: the automa has 3, 1, 2, 0, 1
    assert me(s, 1)["plan"] == [3, 1, 2, 0, 1]
    assert s.current_player() == 0 and [q["kind"] for q in pending(s)] == [PD["SHIFT"]]
    s.apply(shift(4, 0))                   # 3 on orders too; the automa still first (seat order)
    d = s.to_dict()
    assert me(s, 0)["plan"] == [3, 2, 2, 1, 0]
    assert d["row"] == 0 and d["turn_order"][:2] == [1, 0]


# =======================================================================================
# Aldus Manutius: ignores one required type when fulfilling 2 or more orders
# =======================================================================================
# Printing cards: 0 AI, 2 AU, 4 IO, 6 OU, 7 UU. Every player has the types A, I, O.
def manutius(orders, who="Manutius"):
    R = rules(2)
    d = blank(R, types="AIO")
    if who:
        character(d, 0, who)
    for k, printing in enumerate(orders):
        give_order(d, 0, printing, 10 + k)
    return at_fulfil(R, d, 0)


def test_manutius_one_order_with_a_missing_type_is_not_legal():
    s = manutius([2])                     # AU: U missing
    assert fulfil_picks(s, 0) == ["skip"]


def test_manutius_two_orders_with_one_missing_type():
    s = manutius([2, 4])                  # AU + IO: A I O owned, U missing once
    assert fulfil_picks(s, 0) == ["skip", "print"]
    s.apply(fulfil(0, "print"))
    # The waiver needs the second order: it must be printed too.
    assert fulfil_picks(s, 1) == ["print"]
    s.apply(fulfil(1, "print"))
    done(s, 0)
    p = me(s, 0)
    assert p["guilders"] == 10 + 2 + 2
    assert p["order_printing"] == [-1] * 4
    assert p["types"] == [1, 1, 1, 0]     # types are not used up


def test_without_manutius_two_orders_with_a_missing_type_are_not_legal():
    s = manutius([2, 4], who=None)
    assert fulfil_picks(s, 0) == ["skip"]
    s.apply(fulfil(0, "skip"))
    assert fulfil_picks(s, 1) == ["skip", "print"]   # IO alone is fine


def test_manutius_two_missing_types_are_not_legal():
    s = manutius([2, 6])                  # AU + OU: U missing twice
    assert fulfil_picks(s, 0) == ["skip"]
    s = manutius([7, 0])                  # UU + AI: U missing twice on one order
    assert fulfil_picks(s, 0) == ["skip"]
    s.apply(fulfil(0, "skip"))
    assert fulfil_picks(s, 1) == ["skip", "print"]


def test_manutius_the_waiver_must_leave_a_second_order_possible():
    # AU + AI: printing both needs A twice and U: two types missing. So AU cannot be
    # picked (the second order would not fit); AI alone is fine.
    s = manutius([2, 0])
    assert fulfil_picks(s, 0) == ["skip"]
    # With a third order IO that fits alongside AU, AU may be picked; then AI (A again)
    # is out and IO must be printed.
    s = manutius([2, 0, 4])
    assert fulfil_picks(s, 0) == ["skip", "print"]
    s.apply(fulfil(0, "print"))
    assert fulfil_picks(s, 1) == ["skip"]
    s.apply(fulfil(1, "skip"))
    assert fulfil_picks(s, 2) == ["print"]
    s.apply(fulfil(2, "print"))
    done(s, 0)
    p = me(s, 0)
    assert p["order_printing"] == [-1, 0, -1, -1]
    assert p["guilders"] == 10 + 2 + 2


# =======================================================================================
# Charlotte Guillard: draws 4 gears at setup, installs 2
# =======================================================================================
def test_guillard_draws_4_gears_and_installs_2_the_others_discarded():
    R = rules(2, characters=True)
    s = to_characters(R)
    s.apply(draw(GUILLARD))
    s.apply(draw(VIETOR))
    deck = bits(s.to_dict()["gear_deck"])
    assert len(deck) == 24 - 3        # 2 participants: 8 white-line gears out, 3 on the board
    s.apply(keep(GUILLARD))
    # 4 draws (chance), uniform over the gear deck.
    for k, g in enumerate((5, 6, 8, 12)):
        assert s.is_chance()
        outs = s.chance_outcomes()
        assert [a for a, _ in outs] == [C["GEAR"] + x for x in deck if x not in (5, 6, 8, 12)[:k]]
        assert all(p == pytest.approx(1 / (21 - k)) for _, p in outs)
        s.apply(C["GEAR"] + g)
    assert s.current_player() == 0
    assert s.legal_actions() == [A["GEAR"] + g for g in (5, 6, 8, 12)]
    s.apply(A["GEAR"] + 6)
    # Installed at position 1 with the active sector of her choice.
    assert s.legal_actions() == [A["PLACE"] + o for o in range(3)]
    s.apply(A["PLACE"] + 1)
    assert s.legal_actions() == [A["GEAR"] + g for g in (5, 8, 12)]
    s.apply(A["GEAR"] + 12)
    assert s.legal_actions() == [A["PLACE"] + 3 + o for o in range(3)]
    s.apply(A["PLACE"] + 3 + 2)
    d = s.to_dict()
    p = d["players"][0]
    assert p["gear"] == [6, 12, -1] and p["gear_active"][:2] == [1, 2]
    assert sorted(bits(d["gear_discard"])) == [5, 8]
    assert d["gear_pool"] == 0 and pending(s) == []
    # Then player 1 draws his tiles.
    assert s.is_chance() and s.chance_outcomes()[0][0] == draw(GUTENBERG)
    assert s.problems() == []


# =======================================================================================
# Helena Ungler: one specialty at II, another at I, the reward track at II and its ink
# =======================================================================================
def test_ungler_starts_with_specialties_ii_and_i_and_the_ii_reward():
    R = rules(2, characters=True)
    s = to_characters(R)
    s.apply(draw(UNGLER))
    s.apply(draw(VIETOR))
    s.apply(keep(UNGLER))
    assert s.current_player() == 0 and [q["kind"] for q in pending(s)] == [PD["UNGLER"]]
    assert s.legal_actions() == [up(x) for x in ("typesetting", "woodcutting", "binding", "illuminating")]
    # The two picks are not alike: each says the level it gives (p.23).
    assert s.action_to_string(up("binding")) == "Ungler's specialties: binding to level II"
    s.apply(up("binding"))                         # binding to II
    assert s.legal_actions() == [up(x) for x in ("typesetting", "woodcutting", "illuminating")]
    assert s.action_to_string(up("typesetting")) == "Ungler's specialties: typesetting to level I"
    s.apply(up("typesetting"))                     # another to I
    p = me(s, 0)
    assert p["levels"] == [1, 0, 2, 0]
    assert p["track"] == 1
    # The II reward: an ink of choice, received (not declinable).
    assert [(q["kind"], q["amount"]) for q in pending(s)] == [(PD["INK"], 1)]
    assert PASS not in s.legal_actions()
    bag = s.to_dict()["bag"]
    s.apply(choose_ink("red"))
    assert me(s, 0)["inks"] == [0, 0, 0, 1]
    assert s.to_dict()["bag"] == [bag[0], bag[1], bag[2], bag[3] - 1]
    assert s.is_chance()                           # player 1's draws
    assert s.problems() == []


# =======================================================================================
# Peter Schoeffer: one gear twice a round, still 3 gear uses a round
# =======================================================================================
# Gears 5 and 6 have "fame = round number" on sector 0, gear 8 on sector 1.
def schoeffer(who="Schoeffer", gears=((5, 0), (6, 0)), **edits):
    R = rules(2)
    d = blank(R, round=3)
    if who:
        character(d, 0, who)
    for g, o in gears:
        install_gear(d, 0, g, active=o)
    player(d, 0, **edits)
    return at_turn(R, d, "orders", [0, 1])


def test_schoeffer_uses_one_gear_twice():
    s = schoeffer()
    s.apply(use_gear(0))
    assert me(s, 0)["fame"] == 3
    assert gear_uses(s) == [use_gear(0), use_gear(1)]
    s.apply(use_gear(0))
    assert me(s, 0)["fame"] == 6
    assert me(s, 0)["gear_used"][:2] == [2, 0]
    # Not a third time.
    assert gear_uses(s) == [use_gear(1)]
    with pytest.raises(IllegalActionError):
        s.apply(use_gear(0))


def test_without_schoeffer_a_gear_gives_its_reward_once():
    s = schoeffer(who=None)
    s.apply(use_gear(0))
    assert gear_uses(s) == [use_gear(1)]


def test_schoeffer_still_3_gear_uses_a_round_and_not_two_gears_twice():
    s = schoeffer(gears=((5, 0), (6, 0), (8, 1)))
    s.apply(use_gear(1))
    s.apply(use_gear(1))
    s.apply(use_gear(0))
    assert me(s, 0)["fame"] == 9 and me(s, 0)["gear_uses"] == 3
    # Gear 3 unused, gear 1 used once: the 3 used gear markers are placed.
    assert gear_uses(s) == []
    # The second use is for one gear only: with a gear used twice, another used once
    # may not be used again even if a marker were left (hand-made: 2 markers counted).
    R = rules(2)
    d = blank(R, round=3)
    character(d, 0, "Schoeffer")
    install_gear(d, 0, 5, active=0)
    install_gear(d, 0, 6, active=0)
    install_gear(d, 0, 8, active=1)
    p = d["players"][0]
    p["gear_used"] = [2, 0, 0]
    p["gear_uses"] = 2
    p["character_flags"] = 2             # FLAG_SCHOEFFER_TWICE
    s = at_turn(R, d, "orders", [0, 1])
    s.apply(use_gear(1))
    assert gear_uses(s) == []            # 3 markers now
    p["gear_used"] = [2, 1, 0]
    p["gear_uses"] = 2
    s = at_turn(R, d, "orders", [0, 1])
    assert gear_uses(s) == [use_gear(2)]


def test_schoeffer_second_use_is_again_available_next_round():
    R = rules(2)
    d = blank(R, round=3)
    character(d, 0, "Schoeffer")
    install_gear(d, 0, 5, active=0)
    p = d["players"][0]
    p["gear_used"] = [2, 0, 0]
    p["gear_uses"] = 2
    p["character_flags"] = 2
    s = next_round(R, d)
    p = me(s, 0)
    assert p["gear_used"] == [0, 0, 0] and p["gear_uses"] == 0 and p["character_flags"] == 0


# =======================================================================================
# Geoffroy Tory: 3 fame at the end of a round if every ink held fits the orders held
# =======================================================================================
# Refinement cards: 0 needs red 1, 15 blue 2, 4 silver 1.
def tory(orders=(), inks=None, who="Tory", R=None, round=1):
    R = R or rules(2)
    d = blank(R, round=round)
    if who:
        character(d, 1, who)
    for k, refinement in enumerate(orders):
        give_order(d, 1, 20 + k, refinement)
    if inks is not None:
        player(d, 1, inks=inks)
    s = at_fulfil(R, d, 1)               # seat 1 is the last to fulfil this round
    return end_the_round(s)


@pytest.mark.parametrize("orders,inks,fame", [
    ((15,), {"blue": 2}, 3),                       # 2 blue for the 2 blue of order 15
    ((15,), {"blue": 1}, 3),                       # fewer inks than needed is fine
    ((15,), {"blue": 3}, 0),                       # a third blue has no place
    ((15,), {"blue": 1, "red": 1}, 0),             # red fits no order held
    ((0, 15), {"blue": 2, "red": 1}, 3),           # each ink to a distinct requirement
    ((0, 15), {"blue": 2, "red": 2}, 0),
    ((), {"silver": 1}, 0),                        # inks and no orders
    ((4,), {}, 3),                                 # no inks: nothing to assign (ruling)
    ((), {}, 3),
])
def test_tory_end_of_round_fame(orders, inks, fame):
    s = tory(orders, inks)
    assert s.phase in ("prepare", "plan")
    assert me(s, 1)["fame"] == fame
    assert me(s, 0)["fame"] == 0


def test_tory_no_inks_gives_3_by_the_catalogue_ruling():
    # The rule asks that all his inks can be assigned; with none, nothing fails. The
    # catalogue entry `characters.tory_needs_inks` (false) records that reading.
    assert catalogue().characters.tory_needs_inks is False
    assert rules(2).core_catalogue["tory_needs_inks"] == 0
    assert me(tory((4,), {}), 1)["fame"] == 3


def test_tory_no_inks_with_tory_needs_inks_true(tmp_path):
    data = json.loads(open(catalogue().path, encoding="utf-8").read())
    data["characters"]["tory_needs_inks"] = True
    path = tmp_path / "tory.json"
    path.write_text(json.dumps(data))
    R = _core.Rules(load_catalogue(path), players=2)
    assert R.core_catalogue["tory_needs_inks"] == 1
    assert me(tory((4,), {}, R=R), 1)["fame"] == 0
    assert me(tory((15,), {"blue": 1}, R=R), 1)["fame"] == 3


def test_without_tory_no_end_of_round_fame():
    s = tory((15,), {"blue": 2}, who="Vietor")
    assert me(s, 1)["fame"] == 0


def test_tory_scores_at_the_end_of_the_last_round_too():
    s = tory((15,), {"blue": 2}, round=6)
    assert s.is_terminal()
    assert me(s, 1)["fame"] == 3


@pytest.mark.parametrize("mode,fame", [("print", 0), ("colour", 5 + 3)])
def test_tory_inks_are_checked_after_the_fulfilment(mode, fame):
    # Orders: red 1 and blue 2; inks: red 1, blue 2, all fitting. He fulfils the blue
    # order: printing alone keeps the 2 blue inks, which then fit nothing (no Tory fame);
    # with its colour part they are spent (5 fame) and the red fits the red order (3).
    R = rules(2)
    d = blank(R)
    character(d, 1, "Tory")
    give_order(d, 1, 0, 0)               # AI + red 1
    give_order(d, 1, 4, 15)              # IO + blue 2
    player(d, 1, inks={"blue": 2, "red": 1})
    s = at_fulfil(R, d, 1)
    s.apply(fulfil(0, "skip"))
    s.apply(fulfil(1, mode))
    end_the_round(s)
    assert me(s, 1)["fame"] == fame
    assert me(s, 1)["order_printing"] == [0, -1, -1, -1]


# =======================================================================================
# William Caxton: a wild ink colour each round
# =======================================================================================
def test_caxton_chooses_a_wild_colour_at_the_start_of_each_round():
    R = rules(2)
    d = blank(R)
    character(d, 1, "Caxton", wild="gold")
    s = next_round(R, d)
    assert s.round == 2 and s.phase == "plan"
    # Before anyone plans, Caxton picks this round's colour (any of the 4).
    assert s.current_player() == 1
    assert [(q["kind"], q["seat"]) for q in pending(s)] == [(PD["CAXTON"], 1)]
    assert s.legal_actions() == [choose_ink(c) for c in ("blue", "silver", "gold", "red")]
    s.apply(choose_ink("silver"))
    assert me(s, 1)["wild_ink"] == SILVER
    assert pending(s) == [] and s.current_player() == 1   # seat 1 is now first player


def test_without_caxton_no_wild_colour():
    R = rules(2)
    s = next_round(R, blank(R))
    assert pending(s) == [] and me(s, 0)["wild_ink"] == -1 and me(s, 1)["wild_ink"] == -1


def caxton_fulfil(wild, inks, refinements, who="Caxton"):
    R = rules(2)
    d = blank(R, types="AAIIOOUU")
    character(d, 0, who, wild=wild)
    for k, r in enumerate(refinements):
        give_order(d, 0, k, r)           # printing 0 AI, 1 AO
    player(d, 0, inks=inks)
    return at_fulfil(R, d, 0)


def test_caxton_wild_colour_counts_as_any_colour_for_a_colour_part():
    s = caxton_fulfil("gold", {"gold": 2}, [0])          # red 1 needed
    assert fulfil_picks(s, 0) == ["skip", "print", "colour"]
    bag = s.to_dict()["bag"]
    s.apply(fulfil(0, "colour"))
    done(s, 0)
    assert me(s, 0)["inks"] == [0, 0, 1, 0]
    assert s.to_dict()["bag"] == [bag[0], bag[1], bag[2] + 1, bag[3]]
    assert me(s, 0)["fame"] == 2
    # The same inks without a wild colour: no colour part. (Only Caxton ever has one:
    # see the invariants in test_automa.py.)
    assert fulfil_picks(caxton_fulfil(None, {"gold": 2}, [0]), 0) == ["skip", "print"]


def test_caxton_spends_his_own_colour_before_the_wild_one():
    s = caxton_fulfil("gold", {"gold": 1, "red": 1}, [0])
    s.apply(fulfil(0, "colour"))
    done(s, 0)
    assert me(s, 0)["inks"] == [0, 0, 1, 0]


def test_caxton_each_wild_ink_stands_in_once():
    # Order 1 needs red 1, order 2 blue 1; one gold (wild) covers one of them only.
    s = caxton_fulfil("gold", {"gold": 1}, [0, 2])
    assert "colour" in fulfil_picks(s, 0)
    s.apply(fulfil(0, "colour"))
    assert fulfil_picks(s, 1) == ["skip", "print"]
    # The wild colour's own requirement is served by his own inks first.
    s = caxton_fulfil("gold", {"gold": 1}, [10])          # gold 1 needed
    assert "colour" in fulfil_picks(s, 0)
    s = caxton_fulfil("gold", {"gold": 1, "blue": 1}, [19])  # blue 1 + gold 1
    assert "colour" in fulfil_picks(s, 0)
    s = caxton_fulfil("gold", {"gold": 1, "red": 1}, [19])   # red cannot stand in for blue
    assert "colour" not in fulfil_picks(s, 0)


def test_caxton_wild_colour_for_a_patronage_card():
    # Patronage card 7: gold 1 + red 1 inks, types I I O. Caxton has 2 gold, gold wild.
    R = rules(2)
    d = blank(R, round=3, types="IIO")
    character(d, 0, "Caxton", wild="gold")
    player(d, 0, inks={"gold": 2})
    board(d, patronage={0: 7})
    s = at_turn(R, d, "patronage", [0, 1])
    assert patron_card(7) in s.legal_actions()
    bag = s.to_dict()["bag"]
    s.apply(patron_card(7))
    assert me(s, 0)["patronage"] == 1 and me(s, 0)["inks"] == [0, 0, 0, 0]
    assert s.to_dict()["bag"] == [bag[0], bag[1], bag[2] + 2, bag[3]]
    # With another wild colour (or none) the card cannot be taken.
    for wild in ("red", None):
        d = blank(R, round=3, types="IIO")
        character(d, 0, "Caxton", wild=wild)
        player(d, 0, inks={"gold": 2})
        board(d, patronage={0: 7})
        s = at_turn(R, d, "patronage", [0, 1])
        assert patron_card(7) not in s.legal_actions()


def caxton_trade(wild, inks):
    """Caxton's turn with the ink trade gear showing blue."""
    R = rules(2)
    g, o = find_gear("ink_trade", ("blue",))
    d = blank(R)
    character(d, 0, "Caxton", wild=wild)
    install_gear(d, 0, g, active=o)
    player(d, 0, inks=inks)
    return at_turn(R, d, "patronage", [0, 1])


def test_caxton_wild_colour_pays_the_ink_trade_gear():
    # "usable as any colour": the wild gold puts the blue into the bag.
    s = caxton_trade("gold", {"gold": 1})
    assert legal_in(s, A["USE_GEAR"], A["PASS"]) == [A["USE_GEAR"]]
    bag = s.to_dict()["bag"]
    s.apply(A["USE_GEAR"])
    assert me(s, 0)["inks"] == [0, 0, 0, 0]
    assert s.to_dict()["bag"] == [bag[0], bag[1], bag[2] + 1, bag[3]]
    assert [(q["kind"], q["amount"]) for q in pending(s)] == [(PD["INK"], 2)]
    # His own blue goes first, keeping the wild gold.
    s = caxton_trade("gold", {"gold": 1, "blue": 1})
    s.apply(A["USE_GEAR"])
    assert me(s, 0)["inks"] == [0, 0, 1, 0]
    # Another wild colour he does not hold, or none: no blue to put in.
    for wild in ("red", None):
        assert legal_in(caxton_trade(wild, {"gold": 1}), A["USE_GEAR"], A["PASS"]) == []


def test_caxton_wild_colour_lasts_one_round():
    R = rules(2)
    d = blank(R)
    character(d, 1, "Caxton", wild="gold")
    player(d, 1, inks={"gold": 2})
    s = next_round(R, d)
    s.apply(choose_ink("blue"))          # this round blue is wild, not gold
    d = s.to_dict()
    give_order(d, 1, 11, 13)             # AIO + red 1 (the refill took cards 0-2)
    s = at_fulfil(R, d, 1)
    assert fulfil_picks(s, 0) == ["skip", "print"]
    d["players"][1]["wild_ink"] = GOLD   # (had gold stayed wild)
    assert fulfil_picks(at_fulfil(R, d, 1), 0) == ["skip", "print", "colour"]


# =======================================================================================
# Christophe Plantin: swaps the levels of 2 specialties once a round
# =======================================================================================
def plantin(who="Plantin", flags=0):
    R = rules(2)
    d = blank(R)
    character(d, 0, who)
    player(d, 0, levels={"typesetting": 3, "binding": 1})
    d["players"][0]["character_flags"] = flags
    board(d, specialty=[0, 1, 2])
    return at_turn(R, d, "specialties", [0, 1])


def test_plantin_swaps_two_specialty_levels_as_a_free_action():
    s = plantin()
    # Levels 3, 0, 1, 0: every pair of different levels.
    assert swaps(s) == [swap(0, 1), swap(0, 2), swap(0, 3), swap(1, 2), swap(2, 3)]
    s.apply(swap(0, 2))
    p = me(s, 0)
    assert p["levels"] == [1, 0, 3, 0]
    assert p["track"] == 1               # a swap reaches no new level
    assert pending(s) == []
    # A free action: still his turn, the main choice still open.
    assert s.current_player() == 0 and s.to_dict()["row"] == 2
    assert A["SPECIALTY"] in s.legal_actions()


def test_plantin_swaps_only_once_a_round():
    s = plantin()
    s.apply(swap(0, 2))
    assert swaps(s) == []
    s = plantin(flags=1)                 # FLAG_PLANTIN_SWAPPED: swapped earlier this round
    assert swaps(s) == []
    assert plantin(who="Tory").legal_actions() == plantin(flags=1).legal_actions()


def test_plantin_swap_is_available_again_next_round():
    R = rules(2)
    d = blank(R)
    character(d, 0, "Plantin")
    d["players"][0]["character_flags"] = 1
    s = next_round(R, d)
    assert me(s, 0)["character_flags"] == 0


def test_plantin_swaps_in_his_fulfil_turn_before_the_first_pick():
    # Refinement 4 needs binding II; he has typesetting II, binding 0.
    R = rules(2)
    d = blank(R)
    character(d, 0, "Plantin")
    player(d, 0, levels={"typesetting": 2})
    give_order(d, 0, 0, 4)
    s = at_fulfil(R, d, 0)
    assert fulfil_picks(s, 0) == ["skip", "print"]
    s.apply(swap(0, 2))
    assert me(s, 0)["levels"] == [0, 0, 2, 0]
    assert fulfil_picks(s, 0) == ["skip", "print", "decoration"]


# =======================================================================================
# Schweipolt Fiol: the completion reward for one refinement part
# =======================================================================================
# Refinement 4: silver 1 (2 fame), binding II (1 fame), reward 1 guilder.
# Refinement 1: blue 1 (2 fame), illuminating III (2 fame), reward 2 fame.
def fiol(refinement, mode, who="Fiol"):
    R = rules(2)
    d = blank(R)
    if who:
        character(d, 0, who)
    give_order(d, 0, 0, refinement)      # AI: 2 guilders
    player(d, 0, inks={"silver": 1, "blue": 1}, levels={"binding": 2, "illuminating": 3})
    s = at_fulfil(R, d, 0)
    # The menu's words say whether the reward comes with this mode (gutenberg view).
    from gutenberg_ai.interfaces import tui
    said = tui.move_text(s, fulfil(0, mode), "")
    assert ("the completion reward" in said) == (mode == "both" or (who == "Fiol" and mode != "print")), said
    s.apply(fulfil(0, mode))
    done(s, 0)
    p = me(s, 0)
    return p["guilders"], p["fame"]


@pytest.mark.parametrize("refinement,mode,fiol_gets,other_gets", [
    (4, "colour", (13, 2), (12, 2)),
    (4, "decoration", (13, 1), (12, 1)),
    (4, "both", (13, 3), (13, 3)),
    (4, "print", (12, 0), (12, 0)),      # printing alone: no refinement part, no reward
    (1, "colour", (12, 4), (12, 2)),
    (1, "decoration", (12, 4), (12, 2)),
])
def test_fiol_gets_the_completion_reward_for_one_refinement_part(refinement, mode, fiol_gets, other_gets):
    assert fiol(refinement, mode) == fiol_gets
    assert fiol(refinement, mode, who="Vietor") == other_gets
    assert fiol(refinement, mode, who=None) == other_gets


# =======================================================================================
# Hieronymus Vietor: doubled fame from guilders at the end
# =======================================================================================
@pytest.mark.parametrize("guilders,points", [(2, 0), (3, 2), (7, 4), (8, 4), (9, 6)])
def test_vietor_doubles_the_fame_from_guilders(guilders, points):
    R = rules(2)
    d = blank(R, round=6)
    character(d, 0, "Vietor")
    player(d, 0, fame=20, guilders=guilders, levels={"typesetting": 4})
    player(d, 1, fame=20, guilders=guilders, levels={"typesetting": 4})
    s = at_phase(R, d, "TERMINAL")
    assert s.final_scores() == [20 + 1 + points, 20 + 1 + points // 2]
    assert s.score_breakdown(0) == dict(fame=20, specialties=1, patronage=0, guilders=points,
                                        total=21 + points)
    assert s.score_breakdown(1)["guilders"] == points // 2
