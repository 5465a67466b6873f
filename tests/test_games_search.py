"""The shared search (ext/engine/search.pxi) compiled into every game's core, written
once: ISMCTS and SM-MCTS return legal moves, every iteration reaches the tree, the same
seed gives the same result, and the search plays a one-round game to its end. Each game's
file keeps what is its own (tests/test_bots.py, test_pp_search.py)."""
import random

import pytest

import gutenberg_ai
from gutenberg_ai import games
from every_game import KEYS, play_core, play_random
from llp_helpers import after_setup


# A game's own 3-player decision to search, where it has one.
DECISIONS = {"lead-letter-printers": lambda: after_setup(3)[1]}    # the first after the setup


def a_decision(key):
    """A 3-player decision with a choice: the game's own in DECISIONS, else one reached by
    seeded random play."""
    if key in DECISIONS:
        return DECISIONS[key]()
    state = play_random(games.get(key).load(players=3).new_initial_state(), random.Random(5),
                        stop=lambda s: not s.is_chance_node() and len(s.history()) > 20 and len(s.legal_actions()) > 1)
    return gutenberg_ai.core_of(state)


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("algorithm", ["ismcts", "smmcts"])
def test_search_returns_legal_moves_deterministically(key, algorithm):
    s = a_decision(key)
    search = games.get(key).core.search
    a = search(s, algorithm, iterations=60, seed=5, rollout="random")
    b = search(s, algorithm, iterations=60, seed=5, rollout="random")
    assert a["moves"] == b["moves"] and a["iterations"] == 60 and a["mismatches"] == 0
    assert {m["action"] for m in a["moves"]} <= set(s.legal_actions())
    assert sum(m["visits"] for m in a["moves"]) == 60


# How many rounds a finished game has played, where the core says it.
ROUNDS_PLAYED = {"gutenberg": lambda s: s.round, "printing-press": lambda s: s.round,
                 "lead-letter-printers": lambda s: s.rounds_played}


@pytest.mark.parametrize("key", KEYS)
def test_search_plays_a_one_round_game(key):
    core = games.get(key).core
    game = games.get(key).load(players=2, rounds=1)

    def move(s, rng):      # the search for player 0, the heuristic for the others
        if s.current_player() == 0:
            r = core.search(s, "ismcts", iterations=20, seed=rng.randrange(1 << 30), rollout="random", cutoff=30)
            return r["moves"][0]["action"]
        return core.heuristic_move(s, rng.randrange(1 << 30))
    s, _ = play_core(gutenberg_ai.rules_of(game), 3, policy=move, max_length=game.max_game_length())
    assert s.is_terminal() and s.problems() == []
    if key in ROUNDS_PLAYED:
        assert ROUNDS_PLAYED[key](s) == 1
