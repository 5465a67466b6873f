"""Invariants of Lead Letter Printers over many seeded random games, 2-4 players: inside
the core after every action (resources and money conserved, tracks in range, the effect
stack bounded, a legal action at every decision, the end within max_game_length); in
Python after every step (every component in one place: CoreState.problems); legal actions
sorted and distinct; chance probabilities summing to 1. (tests/test_games_invariants.py:
the same seed giving the same game, the returns following their formulas, the heuristic
playing legal moves, and what else every game's core shares.)"""

import pytest

from gutenberg_ai.games.lead_letter_printers import (ParameterError, _core, check_parameters,
                                                     make_rules)
from every_game import play_core


def check_state(s):
    assert s.problems() == []


@pytest.mark.parametrize("players", [2, 3, 4])
def test_invariants_inside_the_core(players):
    R = make_rules({"players": players})
    failures, actions, first = R.check_random_games(300, 1000 + players)
    assert failures == 0, first
    assert actions > 300 * 100          # whole games were played


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_component_in_one_place_after_every_step(players):
    R = make_rules({"players": players})
    for seed in range(3):
        s, actions = play_core(R, 100 * players + seed, check_state)
        assert s.phase == "end"
        scores = s.final_scores()
        for seat in range(players):
            assert scores[seat] == s.score_breakdown(seat)["total"]
        # The game ends when no order is left to buy.
        d = s.to_dict()
        assert all(x < 0 for x in d["order_display"]) and sum(d["orders_left"]) == 0


def test_small_variant_ends_after_its_rounds():
    R = make_rules({"players": 2, "rounds": 1})
    s, _ = play_core(R, 3, check_state)
    assert s.rounds_played == 1 and s.is_terminal()


def test_parameters_are_checked():
    assert check_parameters({}) == {"players": 2, "rounds": 0, "factory_tops": True, "returns": "win",
                                    "catalogue": "", "position": ""}
    for bad in ({"players": 1}, {"players": 5}, {"players": True}, {"rounds": -1}, {"rounds": 2.5},
                {"factory_tops": 1}, {"factory_tops": "yes"},
                {"colour": "red"}, {"catalogue": "/no/such/file.json"}):
        with pytest.raises(ParameterError):
            check_parameters(bad)


def test_words_for_every_action_and_observation():
    """Every legal action and chance outcome has words, plain text; every player's
    observation string and tensor can be written at every step."""
    import numpy as np
    R = make_rules({"players": 3})
    buf = np.zeros(_core.OBSERVATION_SIZE, dtype=np.float32)

    def check(s):
        if s.is_terminal():
            return
        acts = [o for o, _ in s.chance_outcomes()] if s.is_chance() else s.legal_actions()
        texts = [s.action_to_string(a) for a in acts]
        assert len(set(texts)) == len(texts)          # OpenSpiel tells actions apart by their words
        for text in texts:
            assert text and text.isprintable() and "out of range" not in text
        for q in range(3):
            assert s.observation_string(q).replace("\n", "").isprintable()
            assert s.write_observation(q, buf) == _core.OBSERVATION_SIZE
    play_core(R, 11, check)


@pytest.mark.parametrize("change, words", [
    (lambda d: d.update(actor=7), "actor"),
    (lambda d: d.update(n_frames=99), "n_frames"),
    (lambda d: d["order"].__setitem__(0, d["order"][1]), "order"),
    (lambda d: d["players"][0]["pos"].__setitem__(0, 3), "off the city board"),     # column 4 of a 3x3 board
    (lambda d: (d.update(n_frames=1), d["frames"][0].update(kind=77)), "frames[0]"),
    (lambda d: (d.update(n_frames=1), d["frames"][0].update(kind=12, a=500)), "frames[0].a"),
    (lambda d: d["players"][1].update(agent=63), "agent"),
    (lambda d: d["players"][0]["res"].__setitem__(0, 25), "paper"),
    (lambda d: d.update(bank=5), "marks"),
    (lambda d: d["street_owner"].__setitem__(0, 3), "street_owner"),
    (lambda d: d["players"][0]["slot_contract"].__setitem__(
        0, next(c for c in range(24) if not (d["players"][0]["contracts"] >> c) & 1)), "slot_contract"),
    (lambda d: d["table"].__setitem__(0, d["table"][1]), "lead letters"),
])
def test_hand_written_states_are_checked(change, words):
    """A state written by hand (a position file, a test) is refused, naming what is wrong,
    before the core can index with a bad value."""
    R = make_rules({"players": 2})
    s = R.new_state()
    while s.is_chance() or s.phase != "Action phase":
        s.apply(s.chance_outcomes()[0][0] if s.is_chance() else s.legal_actions()[-1])
    d = s.to_dict()
    change(d)
    with pytest.raises(ValueError) as e:
        R.state_from_dict(d)
    assert words in str(e.value)
