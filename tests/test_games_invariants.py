"""Every game's compiled core over seeded random games, written once: the same seed gives
the same game (in Python and in the core's own playouts), the returns follow their
formulas, the heuristic plays legal moves, states and rules pickle, illegal actions are
refused and change nothing. Each game's file keeps its own invariants
(tests/test_invariants.py, test_pp_invariants.py, test_llp_invariants.py)."""
import pickle

import pytest

import gutenberg_ai
from gutenberg_ai import games
from gutenberg_ai.games.records import ranking_keys
from every_game import KEYS, per_game, play_core


def rules(key, **params):
    """The compiled rules of `key` with these parameters, and the game's length bound."""
    game = games.get(key).load(**params)
    return gutenberg_ai.rules_of(game), game.max_game_length()


@pytest.mark.parametrize("key", KEYS)
def test_the_same_seed_gives_the_same_game(key):
    R, length = rules(key, players=3)
    s1, a1 = play_core(R, 7, max_length=length)
    s2, a2 = play_core(R, 7, max_length=length)
    assert a1 == a2 and s1 == s2
    assert a1 != play_core(R, 8, max_length=length)[1]
    assert R.random_games(5, 3) == R.random_games(5, 3)
    t1, t2 = R.new_state(), R.new_state()
    t1.play_random(9)
    t2.play_random(9)
    assert t1 == t2 and t1.is_terminal() and t1.problems() == []


@pytest.mark.parametrize("key", KEYS)
def test_returns_follow_their_formulas(key):
    R, length = rules(key, players=3)
    for seed in range(40, 44):
        s, _ = play_core(R, seed, max_length=length)
        scores = s.final_scores()
        win = s.returns("win")
        assert abs(sum(win)) < 1e-9
        winners = s.winners()
        keys = ranking_keys(s)       # the score, then the game's tie-breaks (Gutenberg's, Lead Letter Printers')
        assert winners == [i for i in range(3) if keys[i] == max(keys)]
        assert all(scores[i] == max(scores) for i in winners)
        if len(winners) < 3:
            assert all((win[i] > 0) == (i in winners) for i in range(3))
        assert s.returns("score") == [float(x) for x in scores]
        margin = s.returns("margin")
        for i in range(3):
            assert margin[i] == pytest.approx(scores[i] - (sum(scores) - scores[i]) / 2)
    with pytest.raises(ValueError, match="returns"):
        s.returns("most")


@pytest.mark.parametrize("key, players", per_game({"lead-letter-printers": [2, 4]}, default=[2]))
def test_the_heuristic_plays_legal_moves(key, players):
    R, length = rules(key, players=players)
    core = games.get(key).core
    s, _ = play_core(R, 5, lambda s: s.problems() == [] or pytest.fail(str(s.problems())),
                     policy=lambda s, rng: core.heuristic_move(s, rng.randrange(1 << 30)), max_length=length)
    assert s.is_terminal()


@pytest.mark.parametrize("key", KEYS)
def test_states_and_rules_pickle_and_compare(key):
    R, length = rules(key, players=2)
    s, _ = play_core(R, 2, max_length=length)
    t = pickle.loads(pickle.dumps(s))
    assert t == s and t.to_bytes() == s.to_bytes() and hash(t) == hash(s)
    assert t.final_scores() == s.final_scores()
    again = pickle.loads(pickle.dumps(R))
    assert again.new_state() == R.new_state() and getattr(again, "params", None) == getattr(R, "params", None)


def _refuses_and_keeps(core, state, named=()):
    """Out-of-range, mistyped and in-range illegal actions (the first, and those `named`
    in the core's ACTIONS) raise IllegalActionError and leave `state` as it was."""
    num_actions = getattr(core, "NUM_ACTIONS", None) or core.ACTIONS["NUM_ACTIONS"]
    legal = [o for o, _ in state.chance_outcomes()] if state.is_chance() else state.legal_actions()
    illegal = next(a for a in range(num_actions) if a not in legal)
    before = state.clone()
    for bad in (-1, num_actions, 10 ** 9, "x", 2.5, illegal, *(core.ACTIONS[name] for name in named)):
        words = "is not an integer" if not isinstance(bad, int) else "out of range|not legal|cannot happen"
        with pytest.raises(core.IllegalActionError, match=words):
            state.apply(bad)
        assert state == before and state.to_bytes() == before.to_bytes()


# Actions (names of the core's ACTIONS) a game knows to be illegal at its first decision.
ILLEGAL_AT_THE_FIRST_DECISION = {"lead-letter-printers": ["MOVE"]}


@pytest.mark.parametrize("key", KEYS)
def test_illegal_actions_are_refused_and_change_nothing(key):
    R, _ = rules(key, players=2)
    core = games.get(key).core
    s = R.new_state()
    _refuses_and_keeps(core, s)          # at a draw
    while s.is_chance():
        s.apply(s.chance_outcomes()[0][0])
    _refuses_and_keeps(core, s, ILLEGAL_AT_THE_FIRST_DECISION.get(key, ()))   # at a decision
