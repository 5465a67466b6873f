"""Invariants of Printing Press over many seeded random games, 1-4 players, both variants,
with and without characters and the solo options: after every step every token, card,
frame, plate and cube is in one place and the tableau at its top-left corner
(CoreState.problems); legal actions are sorted, distinct and never empty at a decision;
chance probabilities sum to 1; games end within max_game_length; the heuristic plays
legal moves and beats random play. (tests/test_games_invariants.py: the same seed gives the
same game, the returns follow their formulas, and what else every game's core shares.)"""

import pytest

from gutenberg_ai.games.printing_press import _core, check_parameters, make_rules, ParameterError
from every_game import play_core


def check_state(s):
    assert s.problems() == []
    d = s.to_dict()
    for seat in range(d["num_seats"]):
        p = d["players"][seat]
        assert 0 <= p["height"] <= _core.GRID_SIZE and 0 <= p["width"] <= _core.GRID_SIZE
        assert p["fame"] >= 0


CASES = [(players, variant, characters)
         for players in (1, 2, 3, 4) for variant in ("basic", "advanced") for characters in (True, False)]


@pytest.mark.parametrize("players, variant, characters", CASES)
def test_invariants_after_every_step(players, variant, characters):
    R = make_rules({"players": players, "variant": variant, "characters": characters})
    for seed in range(3):
        s, actions = play_core(R, 1000 * players + seed, check_state)
        assert s.round == 3
        scores = s.final_scores()
        for seat in range(players):
            assert scores[seat] == s.score_breakdown(seat)["total"]
            assert len(s.score_breakdown(seat)["rounds"]) == 3


@pytest.mark.parametrize("options", [dict(one_token=True), dict(automa_wins_ties=True),
                                     dict(hard_board=True),
                                     dict(one_token=True, automa_wins_ties=True, hard_board=True)])
def test_solo_options(options):
    R = make_rules({"players": 1, **options})
    for seed in range(3):
        s, _ = play_core(R, seed, check_state)
        assert len(s.final_scores()) == 1 and s.automa_score() == s.to_dict()["players"][1]["fame"] > 0


def test_many_games_inside_the_core():
    """Random playouts in the core (no Python in the loop) for every player count and
    variant; the last game's scores come back, and the same seed gives the same scores."""
    for players in (1, 2, 3, 4):
        for variant in ("basic", "advanced"):
            R = make_rules({"players": players, "variant": variant})
            a = R.random_games(300, 11)
            assert a == R.random_games(300, 11)
            assert len(a) == players


def test_solo_policy_games_report_the_automa():
    R = make_rules({"players": 1})
    games = _core.policy_games(R, ["random"], 3, seed=2, with_automa=True)
    assert all(len(g) == 2 and g[1] > 0 for g in games)
    assert [g[:1] for g in games] == _core.policy_games(R, ["random"], 3, seed=2)


def test_heuristic_plays_legal_moves_and_beats_random():
    R = make_rules({"players": 2})
    play_core(R, 5, check_state, policy=lambda s, rng: _core.heuristic_move(s, rng.randrange(1 << 30)))
    games = _core.policy_games(R, ["heuristic", "random"], 6, seed=1)
    assert sum(g[0] > g[1] for g in games) == 6


def test_evaluate_is_exact_at_the_end():
    R = make_rules({"players": 2})
    s, _ = play_core(R, 8)
    assert _core.evaluate_state(s) == [float(x) for x in s.final_scores()]
    t = R.new_state()
    assert len(_core.evaluate_state(t)) == 2


def test_a_finished_state_written_as_a_dict_reads_back_the_same():
    """(test_games_invariants.py pickles states and rules.)"""
    R = make_rules({"players": 2})
    s, _ = play_core(R, 2)
    assert R.state_from_dict(s.to_dict()) == s


@pytest.mark.parametrize("params, message", [
    ({"players": 0}, "players: 0 is out of range"),
    ({"players": 5}, "players: 5 is out of range"),
    ({"players": "2"}, "players: '2' is not a whole number"),
    ({"variant": "expert"}, "variant: 'expert' is not one of basic, advanced"),
    ({"characters": 1}, "characters: 1 is not true or false"),
    ({"players": 2, "hard_board": True}, "hard_board: a solo difficulty option, but players is 2"),
    ({"rounds": 4}, "rounds: 4 is out of range"),
    ({"catalogue": "/nonexistent.json"}, "catalogue: no file at"),
    ({"seats": 2}, "unknown game parameter"),
])
def test_parameters_are_checked(params, message):
    with pytest.raises(ParameterError, match=message):
        check_parameters(params)


def test_rules_check_their_arguments_too():
    from gutenberg_ai.games.printing_press import default_catalogue
    with pytest.raises(ValueError, match="one_token"):
        _core.Rules(default_catalogue(), players=3, one_token=True)
    with pytest.raises(TypeError, match="Catalogue"):
        _core.Rules({}, players=2)


def test_an_action_at_a_draw_is_refused_as_a_chance_outcome():
    """(test_games_invariants.py refuses illegal actions of every kind.)"""
    R = make_rules({"players": 2})
    s = R.new_state()
    before = s.to_bytes()
    with pytest.raises(_core.IllegalActionError, match="chance outcome"):
        s.apply(_core.ACTIONS["TAKE"] + 5 + 10_000)
    assert s.to_bytes() == before


def test_smaller_variants_end_after_their_rounds():
    R = make_rules({"players": 2, "rounds": 1, "variant": "advanced"})
    s, actions = play_core(R, 1, check_state)
    assert s.round == 1 and len(actions) <= R.max_game_length
