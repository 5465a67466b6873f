"""The automa (rulebook pp.16-17), the solo game, and random games with characters and
the automa: hand-made positions (see positions.py) with exact numbers, and invariants
checked after every step of seeded random games.

The automa takes the seat after the people's (`players` counts the people); its cards
are chance. Rows: 0 orders, 1 inks, 2 specialties, 3 gears, 4 patronage. Planning cards
are the catalogue's (gutenberg_ai/games/gutenberg/data/catalogue.json, section automa):

    card 0: orders->inks, max->min; centre specialties; shows a patronage card
    card 1: gears->orders; centre inks
    card 3: specialties->orders, max->patronage, min->gears; centre gears
    card 4: patronage->inks, max->min; centre patronage; shows a patronage card
    card 9: specialties->patronage, orders->max; centre gears
"""
import itertools
import random

import pytest

import gutenberg_ai
from gutenberg_ai.games.gutenberg import _core
from gutenberg_ai.games.gutenberg.names import ROWS
from positions import (
    A, C, PASS, at_fulfil, at_phase, at_turn, automa, bits, blank, board, catalogue,
    chance_all, humans, in_window, me, patron_card, patron_reward, player, rules, take_inks,
)

plan_index = _core.plan_index
SPACE = C["AUTOMA_SPACE"]
NONE = C["AUTOMA_NONE"]
PLAN_CARD = C["AUTOMA_PLAN"]
BLUE, SILVER, GOLD, RED = range(4)


def space(i):
    """The chance outcome "execution card: space i+1"."""
    return SPACE + i


def uniform(spaces):
    return [(space(i), pytest.approx(1 / len(spaces))) for i in spaces]


def deal_setup(s):
    while s.phase == "setup":
        s.apply(s.chance_outcomes()[0][0])
    return s


def play_random_steps(s, seed, until, check=None):
    """Seeded random moves and draws (chance by its probabilities) until `until(s)`;
    `check(s)` after every step."""
    rng = random.Random(seed)
    while not until(s):
        assert not s.is_terminal(), "the game ended first"
        if s.is_chance():
            outs, probs = zip(*s.chance_outcomes())
            s.apply(rng.choices(outs, probs)[0])
        else:
            s.apply(rng.choice(s.legal_actions()))
        if check:
            check(s)
    return s


# =======================================================================================
# Setup
# =======================================================================================
@pytest.mark.parametrize("players", [1, 2, 3])
def test_automa_takes_the_first_player_token_and_its_markers_start_2_1_2_1_1(players):
    R = rules(players, automa=True)
    assert catalogue().automa.start == (2, 1, 2, 1, 1)
    d = R.new_state().to_dict()
    assert d["automa_seat"] == players and d["num_seats"] == players + 1
    assert d["first_player"] == players
    bot = d["players"][players]
    assert bot["plan"] == [2, 1, 2, 1, 1] and bot["markers"] == 7
    # After the setup: the people have 8, 9, 10 markers in seat order after the automa.
    s = play_random_steps(R.new_state(), 1, lambda s: s.phase == "plan")
    d = s.to_dict()
    assert [d["players"][k]["markers"] for k in range(players + 1)] == list(range(8, 8 + players)) + [7]
    assert d["players"][players]["plan"] == [2, 1, 2, 1, 1]
    assert s.current_player() == 0


@pytest.mark.parametrize("players,draft,spaces", [(1, 5, 3), (2, 7, 4), (3, 9, 5)])
def test_one_order_fewer_in_the_draft_and_the_automa_counts_for_the_board(players, draft, spaces):
    R = rules(players, automa=True)
    d = chance_all(R.new_state()).to_dict()
    assert len(bits(d["draft_printing"])) == draft          # 6/8/10 less one
    assert len(bits(d["draft_refinement"])) == draft
    for name in ("printing_space", "refinement_space", "specialty_space", "gear_space"):
        assert sum(x >= 0 for x in d[name]) == spaces, name
    assert sum(all(c >= 0 for c in sp) for sp in d["ink_space"]) == spaces
    # 2 participants (solo): the gears with white lines are out of the game.
    in_play = len(bits(d["gear_deck"])) + spaces
    assert in_play == (24 if players == 1 else 32)


@pytest.mark.parametrize("players", [1, 2])
def test_automa_drafts_no_orders_chooses_no_types_and_does_not_plan(players):
    R = rules(players, automa=True)
    s = chance_all(R.new_state())
    draft = s.to_dict()
    deciders = []
    while s.phase in ("draft", "types", "plan"):
        window = in_window(s)
        deciders.append(("free actions" if window else s.phase, s.current_player()))
        s.apply(PASS if window else s.legal_actions()[0])
    people = list(range(players))
    assert deciders == ([("draft", p) for p in people + people[::-1] for _ in range(2)]
                        + [("types", p) for p in people] + [("free actions", p) for p in people]
                        + [("plan", p) for p in people])
    d = s.to_dict()
    bot = d["players"][players]
    assert bot["order_printing"] == [-1] * 4 and sum(bot["types"]) == 0
    assert bot["guilders"] == 0 and bot["plan"] == [2, 1, 2, 1, 1]
    # The cards nobody took are discarded: 5/7 laid out, 2 per player taken.
    left = len(bits(draft["draft_printing"])) - 2 * players
    assert len(bits(d["printing_discard"])) == len(bits(d["refinement_discard"])) == left
    # After the plans: the automa's planning card (chance).
    assert s.phase == "reveal" and s.is_chance()


def test_planning_cards_are_drawn_from_those_not_used_yet():
    R = rules(1, automa=True)
    s = play_random_steps(R.new_state(), 3, lambda s: s.phase == "reveal")
    used = []
    for rnd in range(1, 7):
        assert s.round == rnd and s.phase == "reveal" and s.is_chance()
        outs = s.chance_outcomes()
        assert outs == [(PLAN_CARD + x, pytest.approx(1 / (11 - rnd))) for x in range(10) if x not in used]
        card = outs[(3 * rnd) % len(outs)][0]
        s.apply(card)
        used.append(card - PLAN_CARD)
        assert s.to_dict()["automa_card"] == used[-1]
        if rnd < 6:
            play_random_steps(s, rnd, lambda s: s.phase == "reveal")
    assert len(set(used)) == 6        # 6 of the 10 cards in a game, each once
    play_random_steps(s, 9, lambda s: s.is_terminal())
    assert s.round == 6 and s.problems() == []


# =======================================================================================
# The planning card's arrows
# =======================================================================================
def reveal(plan, card, players=1):
    """The plans are in; the automa (first player, 7 markers) has `plan` on its board
    and planning card `card` is revealed. Its markers after the card."""
    R = rules(players, automa=True)
    d = blank(R, first_player=players)
    automa(d, plan=plan)
    for seat in range(players):
        player(d, seat, plan=(2, 2, 2, 1, 1 + seat))     # 8 + seat markers
    s = at_phase(R, d, "REVEAL", step=players, reveal_stage=0)
    assert s.is_chance() and len(s.chance_outcomes()) == 10
    s.apply(PLAN_CARD + card)
    assert s.to_dict()["automa_card"] == card
    assert card not in bits(s.to_dict()["automa_deck"])
    return tuple(me(s, players)["plan"])


@pytest.mark.parametrize("plan,after,why", [
    ((2, 1, 2, 1, 1), (3, 1, 2, 0, 1), "a marker from the first action to the second"),
    ((2, 2, 2, 0, 1), (1, 2, 2, 1, 1), "the first is empty: from the second to the first"),
    ((0, 3, 3, 0, 1), (0, 3, 3, 0, 1), "both empty: nothing"),
    ((6, 0, 0, 1, 0), (6, 0, 0, 1, 0), "never onto an action with 6 markers"),
])
def test_planning_card_arrow(plan, after, why):
    assert reveal(plan, 1) == after, why          # card 1: gears -> orders


def test_planning_card_min_max_ties_scan_down_from_the_centre():
    # Card 0 (centre specialties): orders->inks gives 1,2,2,1,1; max is 2 at inks and
    # specialties: the scan from specialties finds specialties; min is 1 at orders,
    # gears, patronage: the scan from specialties goes down to gears.
    assert reveal((2, 1, 2, 1, 1), 0) == (1, 2, 1, 2, 1)


def test_planning_card_tie_scan_wraps_to_the_top():
    # Card 4 (centre patronage): patronage->inks gives 2,2,2,1,0; max is 2 at orders,
    # inks, specialties: from patronage the scan wraps to orders; min is patronage.
    assert reveal((2, 1, 2, 1, 1), 4) == (1, 2, 2, 1, 1)


def test_planning_card_min_with_no_marker_takes_from_the_second_action():
    # Card 3 (centre gears): specialties->orders 2,3,0,1,1; max (inks, 3)->patronage
    # 2,2,0,1,2; min (specialties, 0 markers)->gears: the first is empty, so a marker
    # moves from gears to specialties.
    assert reveal((1, 3, 1, 1, 1), 3) == (2, 2, 1, 0, 2)


def test_planning_card_never_onto_max_with_6():
    # Card 9: specialties->patronage (both empty: nothing); orders->max: max is gears
    # with 6, so nothing moves.
    assert reveal((1, 0, 0, 6, 0), 9) == (1, 0, 0, 6, 0)
    # Without the cap: max is orders itself (4): nothing either; then the other arrow.
    assert reveal((4, 0, 1, 2, 0), 9) == (4, 0, 0, 2, 1)


def test_after_the_reveal_the_automas_markers_set_the_turn_order():
    # Solo, card 1: the automa's 2,1,2,1,1 becomes 3,1,2,0,1; the player (8 markers)
    # has 2 on orders: the automa goes first there, and has no gears turn.
    R = rules(1, automa=True)
    d = blank(R, first_player=1)
    player(d, 0, plan=(2, 2, 2, 1, 1))
    board(d, printing=[0, 1, 2], refinement=[3, 4, 5])
    s = at_phase(R, d, "REVEAL", step=1, reveal_stage=0)
    s.apply(PLAN_CARD + 1)
    d = s.to_dict()
    assert d["row"] == 0 and d["turn_order"][:d["n_turns"]] == [1, 0]
    assert s.is_chance()                                   # the automa's execution card


# =======================================================================================
# Execution cards: which space the automa takes from
# =======================================================================================
def orders_row(players, printing, refinement, order):
    R = rules(players, automa=True)
    d = blank(R, first_player=players)
    board(d, printing=printing, refinement=refinement)
    return R, at_turn(R, d, "orders", order)


def test_execution_outcomes_are_the_open_spaces_named_by_cards_1_to_4():
    # 3 players + the automa: 5 spaces; the execution cards name spaces 1-4 only.
    R, s = orders_row(3, [0, 1, 2, 3, 4], [5, 6, 7, 8, 9], [0, 3, 1, 2])
    s.apply(PASS)
    assert s.is_chance()
    assert s.chance_outcomes() == uniform([0, 1, 2, 3])
    # A taken space is skipped (the next card is drawn): equal chances for the others.
    R, s = orders_row(3, [0, 1, 2, 3, 4], [5, 6, 7, 8, 9], [0, 3, 1, 2])
    s.apply(A["PRINTING"] + 1)
    s.apply(A["REFINEMENT"] + 9)
    assert s.chance_outcomes() == uniform([0, 2, 3])
    # The log says which cards are set aside (p.16: "draw the next execution card").
    from gutenberg_ai.games.gutenberg import view
    assert view.chance_note(s, space(2), s.action_to_string(space(2))).endswith(
        " (space 2 empty: a card naming it is set aside and the next drawn)")
    with pytest.raises(_core.IllegalActionError):
        s.apply(space(4))
    with pytest.raises(_core.IllegalActionError):
        s.apply(space(1))


def test_execution_outcomes_solo():
    # Solo: 3 spaces; card 4 names an empty space and is redrawn.
    R, s = orders_row(1, [0, 1, 2], [5, 6, 7], [0, 1])
    s.apply(PASS)
    assert s.chance_outcomes() == uniform([0, 1, 2])
    from gutenberg_ai.games.gutenberg import view
    note = view.chance_note(s, space(0), s.action_to_string(space(0)))
    assert note.startswith("automa: automa execution card: space 1 - takes P")
    assert note.endswith(" (space 4 empty: a card naming it is set aside and the next drawn)")


def test_automa_take_orders_removes_a_printing_then_a_refinement_card():
    R, s = orders_row(3, [0, 1, 2, 3, 4], [5, 6, 7, 8, 9], [0, 3, 1, 2])
    s.apply(PASS)
    s.apply(space(2))                      # printing card 2
    d = s.to_dict()
    assert d["printing_space"] == [0, 1, -1, 3, 4] and bits(d["printing_discard"]) == [2]
    assert s.is_chance()                   # a second execution card, for the refinement
    # The deck is reshuffled only after the action: card 3, drawn for the printing card,
    # is not in it. Every card named a printing space with a card, so card 3 was the first.
    assert s.chance_outcomes() == uniform([0, 1, 3])
    with pytest.raises(_core.IllegalActionError):
        s.apply(space(2))
    s.apply(space(0))                      # refinement card 5
    d = s.to_dict()
    assert d["refinement_space"] == [-1, 6, 7, 8, 9] and bits(d["refinement_discard"]) == [5]
    assert me(s, 3)["order_printing"] == [-1] * 4       # it keeps nothing
    assert s.current_player() == 1 and d["row"] == 0


def test_automa_cards_drawn_for_the_printing_card_stay_out_for_the_refinement_card():
    # 2 players + the automa: 4 spaces. Only space 1 holds a printing card, so the cards
    # naming spaces 2-4 drawn before card 1 were set aside; the refinement card is the
    # card right after card 1 in the deck, and if card 1 was the last, none is left.
    R, s = orders_row(2, [0], [5, 6, 7, 8], [0, 2, 1])
    s.apply(PASS)
    assert s.chance_outcomes() == [(space(0), 1.0)]
    s.apply(space(0))
    assert s.chance_outcomes() == [(space(1), pytest.approx(0.25)), (space(2), pytest.approx(0.25)),
                                   (space(3), pytest.approx(0.25)), (NONE, pytest.approx(0.25))]
    assert s.action_to_string(NONE) == "automa execution card: none left, no refinement card"
    from gutenberg_ai.games.gutenberg import view       # the log says it, taking nothing
    assert view.chance_note(s, NONE, s.action_to_string(NONE)) == \
        "automa: automa execution card: none left, no refinement card (the cards drawn for the printing card " \
        "stay out until the action ends)"
    s.apply(NONE)                          # card 1 was the last: no refinement card
    d = s.to_dict()
    assert d["refinement_space"][:4] == [5, 6, 7, 8] and d["refinement_discard"] == 0
    assert bits(d["printing_discard"]) == [0] and s.current_player() == 1


def execution_oracle(execution, printing_open, refinement_open, taken):
    """The refinement draw by brute force over the 24 orders of the execution deck: the
    probability of each space (None: no card left) given the printing card came from
    space `taken`, drawing cards until one names an open space."""
    counts, total = {}, 0
    for order in itertools.permutations(range(4)):
        spaces = [execution[k] - 1 for k in order]
        first = next((j for j, e in enumerate(spaces) if e in printing_open), None)
        if first is None or spaces[first] != taken:
            continue
        total += 1
        rest = [e for e in spaces[first + 1:] if e in refinement_open]
        key = rest[0] if rest else None
        counts[key] = counts.get(key, 0) + 1
    return {k: v / total for k, v in counts.items()}


@pytest.mark.parametrize("seed", range(12))
def test_automa_refinement_draw_matches_drawing_the_deck_by_hand(seed):
    rng = random.Random(seed)
    players = rng.choice([1, 2, 3])
    n = players + 2                        # spaces of each kind
    printing = [x if rng.random() < 0.6 else None for x in range(n)]
    refinement = [10 + x if rng.random() < 0.6 else None for x in range(n)]
    if not any(x is not None for x in printing[:4]):
        printing[rng.randrange(min(n, 4))] = 0
    R = rules(players, automa=True)
    d = blank(R, first_player=players)
    board(d, printing=[x for x in printing if x is not None], refinement=[x for x in refinement if x is not None])
    d["printing_space"] = [x if x is not None else -1 for x in printing] + [-1] * (5 - n)
    d["refinement_space"] = [x if x is not None else -1 for x in refinement] + [-1] * (5 - n)
    s = at_turn(R, d, "orders", [players] + list(range(players)))
    execution = catalogue().automa.execution
    open_p = {i for i, x in enumerate(printing) if x is not None}
    open_r = {i for i, x in enumerate(refinement) if x is not None}
    taken = rng.choice([a - SPACE for a, _ in s.chance_outcomes()])
    s.apply(space(taken))
    want = execution_oracle(execution, open_p, open_r, taken)
    if want == {None: 1.0}:
        assert not s.is_chance() and s.to_dict()["refinement_space"] == d["refinement_space"]
        return
    got = {(a - SPACE if a != NONE else None): p for a, p in s.chance_outcomes()}
    assert got == pytest.approx(want)


def test_automa_take_orders_with_no_printing_card_draws_the_whole_deck_and_takes_nothing():
    # No printing card on the spaces its cards name: all 4 cards are drawn for the
    # printing card, so none is left for a refinement card.
    R, s = orders_row(2, [], [5, 6, 7, 8], [0, 2, 1])
    s.apply(PASS)
    d = s.to_dict()
    assert s.current_player() == 1 and d["row"] == 0
    assert d["refinement_space"][:4] == [5, 6, 7, 8] and d["refinement_discard"] == 0


def test_automa_take_inks_returns_a_whole_ink_set_to_the_bag():
    R = rules(3, automa=True)
    d = blank(R, first_player=3)
    board(d, inks=[("blue", "silver", "gold"), (None, "red", "blue"), ("red", "red", "red"),
                   ("gold", "gold", "gold"), ("silver", "silver", "silver")])
    s = at_turn(R, d, "inks", [0, 3, 1])
    s.apply(take_inks(0, 1))               # seat 0 takes the free blue of set 1
    bag = s.to_dict()["bag"]
    assert s.chance_outcomes() == uniform([0, 1, 2, 3])   # set 1's other inks are there
    s.apply(space(1))                      # the partly taken set 2: red and blue back
    d = s.to_dict()
    assert d["ink_space"][1] == [-1, -1, -1]
    assert d["bag"] == [bag[0] + 1, bag[1], bag[2], bag[3] + 1]
    assert me(s, 3)["inks"] == [0, 0, 0, 0]
    assert s.current_player() == 1


def test_automa_never_takes_space_5_and_does_nothing_without_a_space():
    R = rules(3, automa=True)
    d = blank(R, first_player=3)
    board(d, inks=[("blue", "silver", "gold"), (None,) * 3, (None,) * 3, (None,) * 3,
                   ("red", "red", "red")])
    s = at_turn(R, d, "inks", [0, 3, 1])
    s.apply(take_inks(0, 3))
    # Spaces 1-4 are empty: the automa takes nothing (set 5 is named by no card).
    d = s.to_dict()
    assert s.current_player() == 1 and d["turn"] == 2
    assert d["ink_space"][4] == [RED, RED, RED]
    assert take_inks(4, 3) in s.legal_actions()


def test_automa_takes_specialty_cards_and_gears_to_the_discard_piles():
    R = rules(3, automa=True)
    d = blank(R, first_player=3)
    board(d, specialty=[0, 1, 2, 3, 4], gears=[0, 1, 3, 4, 5])
    s = at_turn(R, d, "specialties", [0, 3, 1])
    s.apply(PASS)
    assert s.chance_outcomes() == uniform([0, 1, 2, 3])
    s.apply(space(3))
    d = s.to_dict()
    assert bits(d["specialty_discard"]) == [3] and d["specialty_space"] == [0, 1, 2, -1, 4]
    assert me(s, 3)["levels"] == [0, 0, 0, 0] and s.current_player() == 1
    d = blank(R, first_player=3)
    board(d, gears=[0, 1, 3, 4, 5])
    s = at_turn(R, d, "gears", [0, 3, 1])
    s.apply(PASS)
    s.apply(space(0))
    d = s.to_dict()
    assert bits(d["gear_discard"]) == [0] and d["gear_space"] == [-1, 1, 3, 4, 5]
    assert me(s, 3)["gear"] == [-1, -1, -1] and s.current_player() == 1


# =======================================================================================
# Patronage
# =======================================================================================
def patronage_row(round, card, cards, order=(0, 2, 1), levels=None):
    """2 players + the automa (seat 2, first player); patronage cards `cards`
    ({space: card}); the automa's planning card `card`."""
    R = rules(2, automa=True)
    d = blank(R, round=round, first_player=2)
    automa(d, card=card)
    board(d, patronage=cards)
    for seat in (0, 1):
        player(d, seat, levels=levels or {"typesetting": 4, "woodcutting": 4,
                                          "binding": 3, "illuminating": 5})
    return at_turn(R, d, "patronage", list(order))


def test_automa_takes_the_leftmost_patronage_card_when_its_card_shows_one():
    # Round 3: spaces 1-2 are open. Space 1 is empty: the card on space 2 (card 3) is
    # the leftmost available; card 1 on space 3 opens in round 4.
    s = patronage_row(3, 0, {1: 3, 2: 1, 3: 2})
    assert [a for a in s.legal_actions() if A["PATRON_CARD"] <= a < A["DISCARD"]] == [patron_card(3)]
    s.apply(PASS)
    # No execution card: the automa took card 3.
    d = s.to_dict()
    assert d["patronage_space"][:4] == [-1, -1, 1, 2]
    assert d["patronage_reward_seat"] == [-1] * 4
    assert s.current_player() == 1
    assert [a for a in s.legal_actions() if A["PATRON_CARD"] <= a < A["DISCARD"]] == []
    assert s.problems() == []


def test_automa_takes_a_reward_in_rounds_1_and_2_even_with_a_patronage_card():
    s = patronage_row(2, 0, {0: 3, 1: 0})
    s.apply(patron_reward(2))                 # seat 0: 3 guilders
    assert s.is_chance()
    assert s.chance_outcomes() == uniform([0, 1, 3])
    s.apply(space(1))
    d = s.to_dict()
    assert d["patronage_reward_seat"] == [-1, 2, 0, -1]
    assert d["patronage_space"][:2] == [3, 0]
    # The reward it took is blocked for the players this round.
    assert s.current_player() == 1
    assert [a for a in s.legal_actions() if A["PATRON_REWARD"] <= a < A["PATRON_CARD"]] == \
        [patron_reward(0), patron_reward(3)]
    bot = me(s, 2)
    assert bot["levels"] == [0, 0, 0, 0] and bot["order_printing"] == [-1] * 4 and bot["patronage"] == 0


def test_automa_takes_a_reward_when_its_card_shows_no_patronage_card():
    s = patronage_row(4, 1, {0: 3, 1: 0})     # card 1 shows no patronage card
    s.apply(PASS)
    assert s.chance_outcomes() == uniform([0, 1, 2, 3])
    s.apply(space(3))
    d = s.to_dict()
    assert d["patronage_reward_seat"] == [-1, -1, -1, 2]
    assert d["patronage_space"][:2] == [3, 0]
    assert sum(me(s, 2)["inks"]) == 0          # the 2 inks of choice are not taken


def test_automa_takes_a_reward_when_no_patronage_card_is_available():
    # Round 3, card 4 shows a patronage card, but the open spaces 1-2 are empty.
    s = patronage_row(3, 4, {2: 3})
    s.apply(PASS)
    assert s.is_chance() and s.chance_outcomes() == uniform([0, 1, 2, 3])


# =======================================================================================
# End of the round: the automa passes or receives initiative markers
# =======================================================================================
def end_of_round(players, first, plan, card):
    R = rules(players, automa=True)
    d = blank(R, first_player=first)
    automa(d, plan=plan, card=card)
    s = at_fulfil(R, d, humans(d)[-1])
    s.apply(PASS)
    assert s.phase == "prepare"
    return s


@pytest.mark.parametrize("card,after", [
    (0, (2, 1, 2, 2, 2)),      # centre specialties: ties at 1 go to gears, then patronage
    (4, (2, 2, 2, 1, 2)),      # centre patronage: to patronage, then (wrapping) inks
])
def test_automa_with_the_token_receives_a_marker_from_each_player(card, after):
    # 2 players + the automa, which held the token: 2 markers onto its emptiest actions.
    s = end_of_round(2, 2, (2, 1, 2, 1, 1), card)
    assert tuple(me(s, 2)["plan"]) == after
    assert me(s, 2)["markers"] == 9 and s.problems() == []    # it owns what it received
    chance_all(s)
    d = s.to_dict()
    assert s.round == 2 and d["first_player"] == 0
    # The automa is last in the new round: 9 markers, left on its board.
    assert [d["players"][k]["markers"] for k in range(3)] == [7, 8, 9]
    assert tuple(d["players"][2]["plan"]) == after
    assert d["automa_card"] == -1


def test_automa_with_the_token_receives_three_markers_with_3_players():
    s = end_of_round(3, 3, (2, 1, 2, 1, 1), 0)
    assert tuple(me(s, 3)["plan"]) == (2, 2, 2, 2, 2)
    chance_all(s)
    assert me(s, 3)["markers"] == 10


def test_solo_automa_receives_one_marker():
    s = end_of_round(1, 1, (2, 1, 2, 1, 1), 3)   # centre gears
    assert tuple(me(s, 1)["plan"]) == (2, 1, 2, 2, 1)
    chance_all(s)
    assert me(s, 1)["markers"] == 8 and me(s, 0)["markers"] == 7


@pytest.mark.parametrize("card,after", [
    (0, (2, 2, 1, 2, 1)),      # max 2 at orders..gears: scan from specialties
    (4, (1, 2, 2, 2, 1)),      # scan from patronage (1) wraps to orders
])
def test_automa_without_the_token_gives_one_marker_from_its_fullest_action(card, after):
    # 2 players + the automa (9 markers); seat 0 held the token.
    s = end_of_round(2, 0, (2, 2, 2, 2, 1), card)
    assert tuple(me(s, 2)["plan"]) == after
    assert me(s, 2)["markers"] == 8 and s.problems() == []
    chance_all(s)
    d = s.to_dict()
    assert d["first_player"] == 1
    assert [d["players"][k]["markers"] for k in range(3)] == [9, 7, 8]


def test_no_marker_passing_after_the_last_round():
    R = rules(1, rounds=6, automa=True)
    d = blank(R, round=6, first_player=1)
    automa(d, plan=(2, 1, 2, 1, 1), card=0)
    s = at_fulfil(R, d, 0)
    s.apply(PASS)
    assert s.is_terminal() and me(s, 1)["plan"] == [2, 1, 2, 1, 1]


# =======================================================================================
# The solo game
# =======================================================================================
def test_solo_game_plays_to_the_end():
    R = rules(1, automa=True, characters=True)
    s = R.new_state()
    s.play_random(12)
    assert s.is_terminal() and s.round == 6 and s.problems() == []
    score = s.final_scores()
    assert len(score) == 1 and score[0] == s.score_breakdown(0)["total"]
    game = gutenberg_ai.load_game(players=1, automa=1)
    state = game.new_initial_state()
    core = gutenberg_ai.core_of(state)
    assert core.current_player() == state.current_player() and not state.is_terminal()
    core.play_random(12)
    assert core.returns('score') == [float(core.final_scores()[0])]


@pytest.mark.parametrize("score,title", [
    (0, "Student"), (99, "Student"), (100, "Student"), (101, "Senior Student"),
    (110, "Senior Student"), (111, "Apprentice"), (120, "Apprentice"),
    (121, "Senior Apprentice"), (130, "Senior Apprentice"), (131, "Junior Master"),
    (140, "Junior Master"), (141, "Master of Printing"), (150, "Master of Printing"),
    (151, "Guildmaster"), (230, "Guildmaster"),
])
def test_solo_title(score, title):
    assert gutenberg_ai.solo_title(score) == title


# =======================================================================================
# Random games with characters and the automa: invariants after every step
# =======================================================================================
def check(s):
    assert s.problems() == []
    d = s.to_dict()
    n, bot = d["num_seats"], d["automa_seat"]
    assert 0 <= d["round"] <= d["rounds"]
    assert s.current_player() != bot or bot < 0          # the automa's choices are chance
    for seat in range(n):
        p = d["players"][seat]
        assert p["guilders"] >= 0 and min(p["inks"]) >= 0 and min(p["types"]) >= 0
        assert sum(x >= 0 for x in p["order_printing"]) <= 4
        assert sum(x >= 0 for x in p["gear"]) <= 3
        assert max(p["levels"]) <= 6 and p["gear_uses"] <= 3 and max(p["plan"]) <= 6
        assert p["wild_ink"] == -1 or p["character"] == 6        # Caxton only
        if seat == bot:
            # It keeps nothing; its markers stay on its board: as many as its seat has
            # from the first player token (7, 8, ...).
            assert p["guilders"] == 0 and sum(p["inks"]) == sum(p["types"]) == 0
            assert p["order_printing"] == [-1] * 4 and p["gear"] == [-1] * 3
            assert p["levels"] == [0] * 4 and p["character"] == -1
            assert sum(p["plan"]) == 7 + (seat - d["first_player"]) % n
        elif d["phase"] not in (0, 1, 2, 8):       # after the setup
            assert sum(p["plan"]) in (0, p["markers"])
            if d["characters"]:
                assert 0 <= p["character"] < 10
    if d["characters"] and d["phase"] not in (0, 8):
        kept = [d["players"][k]["character"] for k in range(n) if k != bot]
        assert len(set(kept)) == len(kept)


@pytest.mark.parametrize("players,automa_on,characters,seeds", [
    (1, True, True, 20), (2, True, True, 10), (3, True, True, 10), (1, True, False, 5),
    (2, False, True, 10), (4, False, True, 5),
])
def test_random_games_keep_the_invariants(players, automa_on, characters, seeds):
    R = rules(players, automa=automa_on, characters=characters)
    for seed in range(seeds):
        s = R.new_state()
        steps = 0
        def count(s):
            nonlocal steps
            steps += 1
            check(s)
        play_random_steps(s, 100 * players + seed, lambda s: s.is_terminal(), count)
        assert s.round == 6 and s.phase == "end"
        assert steps < 5000
        assert len(s.final_scores()) == players


def test_random_game_with_fewer_rounds_ends_after_the_last():
    R = rules(2, rounds=2, automa=True, characters=True)
    s = play_random_steps(R.new_state(), 8, lambda s: s.is_terminal(), check)
    assert s.round == 2


def test_same_seed_same_game_with_characters_and_the_automa():
    R = rules(2, automa=True, characters=True)

    def game(seed):
        s = R.new_state()
        trail = []
        play_random_steps(s, seed, lambda s: s.is_terminal(),
                          lambda s: trail.append(s.to_bytes()))
        return s, trail

    a, ta = game(5)
    b, tb = game(5)
    c, tc = game(6)
    assert ta == tb and a == b
    assert ta != tc
    one, two = R.new_state(), R.new_state()
    one.play_random(42)
    two.play_random(42)
    assert one == two and one.is_terminal() and one.problems() == []
    assert R.random_games(3, 7) == R.random_games(3, 7)


def test_the_log_names_the_patronage_card_the_automa_took_and_its_rule():
    """The automa's patronage card is chosen by a rule among the cards on offer (p.17:
    "the automa takes the leftmost card"): the log names the card and the rule, not the
    card the player took in the same move, and says nothing of a reward (drawn)."""
    from gutenberg_ai.games.gutenberg import view
    describe = rules(2, automa=True).catalogue.describe_patronage
    s = patronage_row(3, 0, {1: 3, 2: 1, 3: 2})
    note = view.automa_note(s, PASS)
    assert note == f"automa: took {describe(3)}: the rule 'if this round's planning card shows a patronage " \
                   "card, the automa takes the leftmost card (in the first and second rounds it must take a reward)'"
    s = patronage_row(4, 0, {1: 3, 2: 1, 3: 2})
    note = view.automa_note(s, patron_card(3))      # seat 0 takes card 3; the automa the next leftmost
    assert note.startswith(f"automa: took {describe(1)}: the rule")
    assert view.automa_note(patronage_row(4, 1, {0: 3, 1: 0}), PASS) is None   # a reward: drawn


# =======================================================================================
# The log says how the automa's rules chose (its planning card, the markers it passes)
# =======================================================================================
def at_reveal(plan, players=1):
    """The plans are in; the automa (first player) has `plan` on its board."""
    R = rules(players, automa=True)
    d = blank(R, first_player=players)
    automa(d, plan=plan)
    for seat in range(players):
        player(d, seat, plan=(2, 2, 2, 1, 1 + seat))
    return at_phase(R, d, "REVEAL", step=players, reveal_stage=0)


def reveal_note(plan, card):
    """The log's lines for planning card `card` revealed over `plan`, and the automa's
    markers the engine gives once it is revealed."""
    from gutenberg_ai.games.gutenberg import view
    s = at_reveal(plan)
    lines = view.chance_note(s, PLAN_CARD + card, f"automa planning card {card}").split("\n")
    s.apply(PLAN_CARD + card)
    return lines, me(s, 1)["plan"]


def test_the_reveal_says_each_arrow_and_how_min_and_max_were_found():
    # Card 0 (centre specialties): orders -> inks, then max -> min over 1,2,2,1,1
    # (the test of the arrows above).
    lines, plan = reveal_note((2, 1, 2, 1, 1), 0)
    assert lines == [
        "automa: automa planning card 0",
        "  arrow 1, orders to inks: a marker from orders to inks",
        "  arrow 2, max to min: max is specialties (inks and specialties tie at 2; specialties is the card's "
        "centre, where the scan starts); min is gears (orders, gears and patronage tie at 1; gears comes first "
        "scanning down from the card's centre, specialties); a marker from specialties to gears",
        "  its markers now: orders 1, inks 2, specialties 1, gears 2, patronage 1",
    ]
    assert plan == [1, 2, 1, 2, 1]        # what the log says is what the engine did


def test_the_reveal_says_when_the_scan_wraps_to_the_top():
    lines, plan = reveal_note((2, 1, 2, 1, 1), 4)      # centre patronage
    assert lines[2] == ("  arrow 2, max to min: max is orders (orders, inks and specialties tie at 2; orders comes "
                        "first scanning down from the card's centre, patronage, wrapping to the top); min is "
                        "patronage (0 markers); a marker from orders to patronage")
    assert lines[-1] == "  its markers now: " + ", ".join(f"{r} {n}" for r, n in zip(ROWS, plan))


@pytest.mark.parametrize("plan,card,says", [
    ((1, 3, 1, 1, 1), 3, "  arrow 3, min to gears: min is specialties (0 markers); specialties has none, so a "
                         "marker from gears to specialties"),
    ((1, 0, 0, 6, 0), 9, "  arrow 1, specialties to patronage: neither specialties nor patronage has a marker: "
                         "nothing moves"),
    ((1, 0, 0, 6, 0), 9, "  arrow 2, orders to max: max is gears (6 markers); gears holds 6 markers already: "
                         "nothing moves"),
    ((4, 0, 1, 2, 0), 9, "  arrow 2, orders to max: max is orders (4 markers); both ends are orders: nothing moves"),
])
def test_the_reveal_says_why_an_arrow_moved_another_way_or_nothing(plan, card, says):
    lines, after = reveal_note(plan, card)
    assert says in lines
    assert lines[-1] == "  its markers now: " + ", ".join(f"{r} {n}" for r, n in zip(ROWS, after))


def test_planning_steps_only_at_the_planning_cards_draw():
    s = at_reveal((2, 1, 2, 1, 1))
    # Card 3: specialties -> orders, max (orders) -> patronage, then min is gears itself.
    assert [step["outcome"] for step in s.planning_steps(PLAN_CARD + 3)] == ["moved", "moved", "same"]
    assert s.planning_steps(PLAN_CARD + 3)[0]["before"] == [2, 1, 2, 1, 1]
    with pytest.raises(ValueError, match="not a planning card"):
        s.planning_steps(PLAN_CARD + 10)
    s.apply(PLAN_CARD + 3)
    with pytest.raises(ValueError, match="not the automa's planning card draw"):
        s.planning_steps(PLAN_CARD + 4)
    assert s.planning_steps.__doc__


@pytest.mark.parametrize("players,first,plan,card,says", [
    (2, 2, (2, 1, 2, 1, 1), 4, "automa: received 2 initiative markers with the first player token, one after "
                               "another onto its action with the fewest markers as each is placed (ties: the first "
                               "scanning down from the planning card's centre, patronage): inks +1, patronage +1"),
    (1, 1, (2, 1, 2, 1, 1), 3, "automa: received 1 initiative marker with the first player token, onto its action "
                               "with the fewest markers (ties: the first scanning down from the planning card's "
                               "centre, gears): gears +1"),
    (2, 0, (2, 2, 2, 2, 1), 4, "automa: passed an initiative marker with the first player token, from orders, its "
                               "action with the most markers (orders, inks, specialties and gears tie at 2; orders "
                               "comes first scanning down from the card's centre, patronage, wrapping to the top)"),
    (2, 0, (3, 2, 2, 1, 1), 4, "automa: passed an initiative marker with the first player token, from orders, its "
                               "action with the most markers (3 markers)"),
])
def test_the_log_says_which_markers_the_automa_passed_or_received_and_the_rule(players, first, plan, card, says):
    from gutenberg_ai.games.gutenberg import view
    R = rules(players, automa=True)
    d = blank(R, first_player=first)
    automa(d, plan=plan, card=card)
    s = at_fulfil(R, d, humans(d)[-1])
    assert view.automa_note(s, PASS) == says
    # Not at a move that leaves its markers alone, nor at its planning card (a draw).
    assert view.automa_note(at_reveal((2, 1, 2, 1, 1)), PLAN_CARD) is None
