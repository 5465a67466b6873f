"""The shared search (ext/engine/search.pxi) compiled into the Lead Letter Printers core:
ISMCTS and SM-MCTS (the same here: no simultaneous step) return legal moves, are
deterministic for a seed, redraw the hidden factories, and play a game to its end."""
import random

import pytest

from gutenberg_ai.games.lead_letter_printers import _core, make_rules
from llp_helpers import after_setup


@pytest.mark.parametrize("algorithm", ["ismcts", "smmcts"])
def test_search_returns_legal_moves_deterministically(algorithm):
    R, s = after_setup(3)
    a = _core.search(s, algorithm, iterations=60, seed=5, rollout="random")
    b = _core.search(s, algorithm, iterations=60, seed=5, rollout="random")
    assert a["moves"] == b["moves"] and a["iterations"] == 60 and a["mismatches"] == 0
    legal = set(s.legal_actions())
    assert {m["action"] for m in a["moves"]} <= legal
    assert sum(m["visits"] for m in a["moves"]) == 60


def test_search_plays_a_game():
    R = make_rules({"players": 2, "rounds": 1})
    s = R.new_state()
    rng = random.Random(3)
    while not s.is_terminal():
        if s.is_chance():
            outs = s.chance_outcomes()
            s.apply(rng.choices([o for o, _ in outs], [p for _, p in outs])[0])
        elif s.current_player() == 0:
            r = _core.search(s, "ismcts", iterations=20, seed=rng.randrange(1 << 30), rollout="random", cutoff=30)
            s.apply(r["moves"][0]["action"])
        else:
            s.apply(_core.heuristic_move(s, rng.randrange(1 << 30)))
    assert s.problems() == [] and s.rounds_played == 1
