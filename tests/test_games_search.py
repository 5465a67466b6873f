"""The shared search (ext/engine/search.pxi) compiled into every game's core, written
once: ISMCTS and SM-MCTS return legal moves, every iteration reaches the tree, the same
seed gives the same result, and the search plays a one-round game to its end. Each game's
file keeps what is its own (tests/test_bots.py, test_pp_search.py)."""
import math
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


def uct_by_hand(means, visits, c, node_visits):
    """UCT's choice as its formula reads, arm by arm: the first unvisited arm, else the
    first of the highest mean + c sqrt(ln N / n) (c sqrt(ln N) times 1 / sqrt(n), as the
    tree computes it)."""
    k = c * math.sqrt(math.log(node_visits)) if node_visits > 1 else 0.0
    best, choice = -math.inf, 0
    for i, (mean, n) in enumerate(zip(means, visits)):
        if n == 0:
            return i
        u = mean + k * (1.0 / math.sqrt(n))
        if u > best:
            best, choice = u, i
    return choice


@pytest.mark.parametrize("key", KEYS)
def test_uct_takes_the_first_unvisited_arm_then_the_first_highest_bound(key):
    uct_choice = games.get(key).core.uct_choice
    # Unvisited first, whatever the means; the first of several unvisited.
    assert uct_choice([0.9, 0.1, 0.2, 0.3], [3, 2, 0, 0], 2.0, 5) == 2
    # A rarer arm wins on its bonus, a commoner one on its mean.
    assert uct_choice([0.6, 0.5], [40, 2], 2.0, 42) == 1
    assert uct_choice([0.6, 0.5], [40, 2], 0.05, 42) == 0
    # Ties (the same mean and visits) go to the first, wherever they fall in the vectors'
    # blocks of four; c = 0 or a node visited once compares the means alone.
    assert uct_choice([0.25] * 9 + [0.75, 0.75], [7] * 11, 2.0, 77) == 9
    assert uct_choice([0.25] * 5 + [0.75] * 3 + [0.25] * 4, [7] * 12, 2.0, 84) == 5
    assert uct_choice([0.3, 0.8, 0.8], [1, 9, 9], 0.0, 19) == 1
    assert uct_choice([0.4, 0.7], [1, 0], 2.0, 1) == 1
    rng = random.Random(3)
    for trial in range(300):
        n = rng.randrange(1, 40)
        visits = [rng.choice([0, 1, 1, 2, 3, 5, 8, 5000]) if trial % 3 == 0 else rng.randrange(1, 6)
                  for _ in range(n)]
        means = [rng.choice([0.0, 0.25, 0.5, 1.0]) if trial % 2 else rng.random() for _ in range(n)]
        node_visits = sum(visits) + rng.randrange(0, 3)
        c = rng.choice([0.0, 0.7, 2.0, 10.0])
        assert uct_choice(means, visits, c, node_visits) == uct_by_hand(means, visits, c, node_visits), (
            means, visits, c, node_visits)


@pytest.mark.parametrize("bad", [([0.5], [1, 2]), ([], []), ([0.5], [-1]), ([0.5], [1.5])])
def test_uct_choice_refuses_statistics_that_do_not_fit(bad):
    with pytest.raises(ValueError, match="means and visits|not negative"):
        games.get("gutenberg").core.uct_choice(*bad, 2.0, 3)
