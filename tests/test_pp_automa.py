"""The solo game's automa (rulebook pp.14-17): its choices, picks, columns and points, its
initiative and cubes, no orders and no bonus markers, the difficulty options."""
import pytest

from gutenberg_ai.games.printing_press import _core
from pp_helpers import (
    A, C, SYM, cards_where, cat, deal_cards, deal_orders, edit, first_main, legal_in, order,
    play_until, rules, setup,
)

# Round 1's choices are A (a letter), blue (an ink), typesetting (a specialty), as the
# catalogue's solo board lays out round 1: letter, ink, specialty.
BOARD = ["A", "blue", "typesetting", "red", "woodcutting", "I", "binding", "O", "yellow"]
AUTOMA = 1


def has(*names):
    return lambda c: all(n in c.squares for n in names)


def lacks(*names):
    return lambda c: not any(n in c.squares for n in names)


def card(*preds, skip=()):
    return next(c.number for c in cat().cards if all(p(c) for p in preds) and c.number not in skip)


def solo(**options):
    R = rules(1, **options)
    s = setup(R, solo=BOARD)
    assert cat().solo_board.choices[0] == ("letter", "ink", "specialty")
    return R, s


def after_orders(**options):
    R, s = solo(**options)
    deal_orders(s, [(1, 1), (2, 2), (3, 3)])
    s.apply(order(2))
    return R, s


def automa(s):
    return s.to_dict()["players"][AUTOMA]


def test_the_automa_takes_no_order_and_takes_the_cube():
    R, s = solo()
    deal_orders(s, [(1, 1), (2, 2), (3, 3)])
    assert s.current_player() == 0 and len(legal_in(s, A["ORDER"], 16)) == 3
    s.apply(order(2))
    d = s.to_dict()
    assert d["players"][0]["order_frame"][0] == 1 and automa(s)["order_frame"][0] == -1
    assert automa(s)["cubes"] == 1 and d["players"][0]["cubes"] == 0
    assert all(f < 0 for f in d["offer_frame"]) and not d["frame_deck"] & 0b101   # 1 and 3 to the box
    assert s.problems() == []


def test_the_automa_prefers_its_first_choice_over_a_card_further_left():
    R, s = after_orders()
    blue = card(has("blue"), lacks("A", "typesetting"))
    a_card = card(has("A"))
    other = card(lacks("A", "blue", "typesetting"))
    deal_cards(s, [blue, a_card, other])            # the automa goes first (its cube)
    assert automa(s)["columns"] == [1, 0, 0, 0]
    assert s.to_dict()["offer"][:3] == [blue - 1, -1, other - 1]
    assert s.current_player() == 0


def test_the_automa_takes_the_leftmost_eligible_card():
    R, s = after_orders()
    other = card(lacks("A", "blue", "typesetting"))
    a1 = card(has("A"))
    a2 = card(has("A"), skip=(a1,))
    deal_cards(s, [other, a1, a2])
    assert s.to_dict()["offer"][:3] == [other - 1, -1, a2 - 1]


def test_second_and_third_choices():
    R, s = after_orders()
    typ = card(has("typesetting"), lacks("A", "blue"))
    blue = card(has("blue"), lacks("A"))
    deal_cards(s, [typ, blue, card(lacks("A", "blue", "typesetting"))])
    assert automa(s)["columns"] == [0, 1, 0, 0]     # blue, the second choice
    R, s = after_orders()
    deal_cards(s, [card(lacks("A", "blue", "typesetting")), typ, card(lacks("A", "blue", "typesetting"), skip=(1,))])
    assert automa(s)["columns"] == [0, 0, 1, 0]


def test_no_choice_the_leftmost_card_goes_to_the_fourth_column_with_initiative():
    R, s = after_orders()
    none = cards_where(lacks("A", "blue", "typesetting"))
    deal_cards(s, none[:3])
    assert automa(s)["columns"] == [0, 0, 0, 1]
    assert s.to_dict()["offer"][:3] == [-1, none[1] - 1, none[2] - 1]
    assert s.initiative(AUTOMA) == automa(s)["cubes"] + 1   # cubes + cards in the 4th column


def test_the_automa_has_no_printed_initiative():
    R, s = after_orders()
    icon = card(has("initiative"), has("A"))
    deal_cards(s, [icon, card(lacks("A"), lacks("initiative")), card(lacks("A"), lacks("initiative"), skip=(1,))])
    assert automa(s)["columns"][0] == 1
    assert s.initiative(AUTOMA) == automa(s)["cubes"]


@pytest.mark.parametrize("wins_ties, first", [(False, 0), (True, AUTOMA)])
def test_initiative_ties_and_the_difficulty_option(wins_ties, first):
    R, s = after_orders(automa_wins_ties=wins_ties)

    def tie(d):
        d["players"][0]["cubes"] = 1
        d["cubes_left"] -= 1
    s = edit(R, s, tie)
    assert s.initiative(0) == s.initiative(AUTOMA) == 1
    deal_cards(s, [1, 2, 3])
    assert s.to_dict()["turn_order"][:2] == [first, 1 - first]


def test_the_last_to_take_a_card_takes_a_cube_automa_too():
    R, s = after_orders()
    plain = cards_where(lambda c: not set(c.squares) & {"A", "blue", "typesetting", "initiative"})
    a1 = card(has("A"), lacks("initiative"))
    a2 = card(has("A"), lacks("initiative"), skip=(a1,))
    deal_cards(s, [a1, plain[0], plain[1]])         # automa (1 cube) first, the player last
    assert s.to_dict()["turn_order"][:2] == [AUTOMA, 0]
    s.apply(first_main(s))
    s.apply(first_main(s))
    assert s.to_dict()["players"][0]["cubes"] == 1 and automa(s)["cubes"] == 1
    deal_cards(s, [a2, plain[2], plain[3]])
    assert s.initiative(0) == s.initiative(AUTOMA) == 1
    order_ = s.to_dict()["turn_order"][:2]
    assert order_ == [0, AUTOMA]                     # 1 against 1: the player wins the tie
    s.apply(first_main(s))
    s.apply(first_main(s))
    assert automa(s)["cubes"] == 2                   # the automa was last


def test_the_automa_places_no_bonus_marker_and_closes_no_frame():
    R, s = after_orders()
    play_until(s, "bonus markers")
    d = s.to_dict()
    assert d["n_turns"] == 1 and d["turn_order"][0] == 0
    play_until(s, "Close Frames")
    assert s.to_dict()["n_turns"] == 1 and s.current_player() == 0


@pytest.mark.parametrize("hard, points", [(False, 4 + 2 * 3 + 2 + 2 * 1), (True, 5 + 2 * 4 + 3 + 2 * 1)])
def test_the_automas_points_and_the_end_of_the_round(hard, points):
    R, s = after_orders(hard_board=hard)
    play_until(s, "Close Frames")

    def columns(d):
        d["players"][AUTOMA]["columns"] = [1, 2, 1, 2]
    s = edit(R, s, columns)
    bag = s.to_dict()["bag"]
    s.apply(first_main(s))                           # the player's window ends the round
    d = s.to_dict()
    assert automa(s)["fame"] == points
    assert automa(s)["columns"] == [0, 0, 0, 0]      # its cards go to the box
    for name in ("A", "blue", "typesetting"):        # round 1's choice tokens back to the bag
        assert d["bag"][SYM[name]] == bag[SYM[name]] + 1
    assert d["solo_returned"] == 1 and s.problems() == []
    assert s.round == 2


def test_one_setup_token_option():
    R = rules(1, one_token=True)
    s = setup(R, solo=BOARD, character="Guillard")
    assert s.to_dict()["players"][0]["n_setup"] == 1
    R = rules(1, one_token=True)
    s = setup(R, solo=BOARD, character="Caxton")
    assert s.to_dict()["players"][0]["n_setup"] == 2       # Caxton's side A adds one


def test_the_solo_board_draws_three_different_symbols_of_each_kind():
    R = rules(1)
    s = R.new_state()
    outcomes = s.chance_outcomes()
    assert [o for o, _ in outcomes] == [_core.CHANCE_OUTCOMES["SOLO"] + x for x in range(4)]
    assert all(p == pytest.approx(0.25) for _, p in outcomes)
    s.apply(outcomes[0][0])                          # round 1: A, blue, typesetting
    s.apply(s.chance_outcomes()[0][0])
    s.apply(s.chance_outcomes()[0][0])               # next: round 2's first choice, an ink
    left = [o - _core.CHANCE_OUTCOMES["SOLO"] for o, _ in s.chance_outcomes()]
    assert left == [SYM["red"], SYM["yellow"], SYM["grey"]]


def test_the_player_wins_only_with_more_points_than_the_automa():
    R, s = after_orders()

    def scores(d, me, it):
        d["players"][0]["fame"] = me
        d["players"][AUTOMA]["fame"] = it
    assert edit(R, s, lambda d: scores(d, 30, 29)).winners() == [0]
    assert edit(R, s, lambda d: scores(d, 30, 30)).winners() == []
    assert edit(R, s, lambda d: scores(d, 30, 31)).winners() == []
    assert edit(R, s, lambda d: scores(d, 30, 31)).returns("win") == [30.0]   # solo: the score
    # The verdict says so in the rulebook's words ("finish with more fame points than the
    # automa", p.16): a tie is no win, and the automa is not said to win it.
    from gutenberg_ai.games.printing_press import view
    tie = view.verdict(edit(R, s, lambda d: scores(d, 30, 30)), ["you"])
    assert tie.startswith("A tie with the automa at ") and "you do not win" in tie and "automa wins" not in tie
    # Nobody named (a demo's bot): the seat, not "you".
    assert "player 0 does not win" in view.verdict(edit(R, s, lambda d: scores(d, 30, 30)))
    assert view.verdict(edit(R, s, lambda d: scores(d, 31, 30))).startswith("player 0 beats the automa, 31 to 30")


def test_the_automa_takes_the_card_numbered_first_in_the_offer():
    """"The automa takes a card with its first choice symbol, if possible ... If there
    are multiple eligible cards, the automa takes the leftmost eligible card" (the rulebook's
    solo game's "2. Select Cards"): card 1, the catalogue's first (offer entry 0), is as
    eligible as any other."""
    R = rules(1)
    s = setup(R, solo=["O", "blue", "typesetting", "red", "woodcutting", "I", "binding", "A", "yellow"])
    deal_orders(s, [(1, 1), (2, 2), (3, 3)])
    s.apply(order(2))
    assert "O" in cat().cards[0].squares and cat().cards[0].number == 1
    o2 = card(has("O"), skip=(1,))
    other = card(lacks("O", "blue", "typesetting"), skip=(1,))
    deal_cards(s, [1, o2, other])
    assert automa(s)["columns"] == [1, 0, 0, 0]
    assert s.to_dict()["offer"][:3] == [-1, o2 - 1, other - 1]


def _took(s, numbers):
    """Deal all but the last of `numbers`; what the automa's rule takes while the last is
    dealt (automa_took, asked before it is played), then the state after it."""
    deal_cards(s, numbers[:-1])
    took = s.automa_took(C["CARD"] + numbers[-1] - 1)
    deal_cards(s, numbers[-1:])
    return took


@pytest.mark.parametrize("offer, column, rule", [
    # p.16: its first choice even further right; the leftmost of several; the second and
    # third choices; no preferred symbol: the leftmost card, in the rightmost column.
    (lambda: [card(has("blue"), lacks("A", "typesetting")), card(has("A")), card(lacks("A", "blue", "typesetting"))],
     0, "first choice symbol (A)"),
    (lambda: [card(has("typesetting"), lacks("A", "blue")), card(has("blue"), lacks("A")),
              card(lacks("A", "blue", "typesetting"))], 1, "second choice symbol (blue)"),
    (lambda: [card(lacks("A", "blue", "typesetting")), card(has("typesetting"), lacks("A", "blue")),
              card(lacks("A", "blue", "typesetting"), skip=(1,))], 2, "third choice symbol (typesetting)"),
    (lambda: cards_where(lacks("A", "blue", "typesetting"))[:3], 3, "the leftmost card, in the rightmost column"),
])
def test_the_log_names_the_rule_the_automa_took_its_card_by(offer, column, rule):
    from gutenberg_ai.games.printing_press import view
    R, s = after_orders()
    numbers = offer()
    before = s.to_dict()["players"][AUTOMA]["columns"]
    deal_cards(s, numbers[:-1])
    note = view.automa_note(s, C["CARD"] + numbers[-1] - 1)
    took = s.automa_took(C["CARD"] + numbers[-1] - 1)
    deal_cards(s, numbers[-1:])
    taken = [x + 1 for x in range(3) if s.to_dict()["offer"][x] == -1]
    assert automa(s)["columns"][column] == before[column] + 1
    assert took == (numbers[taken[0] - 1] - 1, column) and len(taken) == 1
    assert note.startswith(f"automa: took card {numbers[taken[0] - 1]} (") and rule in note


def test_automa_took_when_the_automa_picks_after_the_player_and_not_otherwise():
    R, s = after_orders()
    a1, a2 = card(has("A"), lacks("initiative")), card(has("A"), lacks("initiative"), skip=(card(has("A"), lacks("initiative")),))
    plain = cards_where(lambda c: not set(c.squares) & {"A", "blue", "typesetting", "initiative"})
    assert _took(s, [a1, plain[0], plain[1]]) == (a1 - 1, 0)      # the automa first (its cube)
    take = first_main(s)
    assert s.automa_took(take) is None                            # the player takes: not its turn
    s.apply(take)
    s.apply(first_main(s))
    assert _took(s, [plain[2], plain[3], a2]) is None              # the player first now (1 cube each)
    take = first_main(s)
    s.apply(take)
    place = first_main(s)
    assert s.automa_took(place) == (a2 - 1, 0)                     # its turn comes with the placing
