"""Lead Letter Printers' own search defaults (GAME_SEARCH_DEFAULTS in its search hooks) and
its rollout policy's shortcuts."""
import random

import pytest

from every_game import mixed_move
from gutenberg_ai import games
from gutenberg_ai.games.lead_letter_printers import make_rules


def test_its_rollouts_stop_after_50_decisions_the_rest_shared():
    llp = games.get("lead-letter-printers").core
    assert llp.GAME_SEARCH_DEFAULTS == {"cutoff": 50}
    assert llp.SHARED_SEARCH_OPTIONS["cutoff"] == 100
    assert llp.search_config() == {**llp.SHARED_SEARCH_OPTIONS, "cutoff": 50}
    assert llp.search_config(cutoff=100) == llp.SHARED_SEARCH_OPTIONS


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_heuristic_reusing_the_other_seats_values_gives_the_values_of_evaluating_all(players):
    # The rollout policy keeps the other seats' evaluations where an action leaves what
    # they read unchanged (OthersKnown in heuristic.pxi); the values must be the same
    # doubles as evaluating every seat afresh, at every decision of mixed seeded games.
    llp = games.get("lead-letter-printers")
    rules = make_rules({"players": players})
    checked = 0
    for seed in range(2):
        rng = random.Random(100 * players + seed)
        s = rules.new_state()
        while not s.is_terminal():
            if not s.is_chance() and len(s.legal_actions()) > 1:
                assert llp.core.heuristic_values(s) == llp.core.heuristic_values(s, reuse_others=False)
                checked += 1
            s.apply(mixed_move(s, rng, 0.7))
    assert checked > 100
