"""Every game's rewritten histories (CoreState.resample_history), written once: a history
resampled for a player replays, entry by entry and each by its actor, to the resampled
state, which looks the same to that player and masks the same. Each game's file keeps
what is its own hidden information (tests/test_openspiel.py, test_pp_hidden.py,
test_llp_hidden.py), and what a game does with a history that does not lead to the state."""
import itertools
import random

import pytest

import gutenberg_ai
from gutenberg_ai import games
from every_game import per_game, random_history
from llp_helpers import position_with_hidden_factories

# A game whose hidden draws seldom come up in random play finds its histories here:
# players -> [(rules, state, history)].
FOUND = {"lead-letter-printers": lambda players: [position_with_hidden_factories(players)]}


def histories(key, players, params):
    """(rules, state, history) of the game's histories to resample: FOUND's, or twelve
    seeded random ones of 40 to 400 actions."""
    if key in FOUND:
        return FOUND[key](players)
    R = gutenberg_ai.rules_of(games.get(key).load(players=players, **params))
    return [(R, *random_history(R, 100 * players + g, random.Random(g).randrange(40, 400))) for g in range(12)]


# How many times each history is resampled for each player (a found history: ten times).
RESAMPLES = {"lead-letter-printers": 10}
# (players, parameters) of the games whose histories are resampled.
CASES = {"gutenberg": [(2, {}), (3, {})],
         "printing-press": [(2, {}), (3, {"variant": "advanced"}), (4, {})],
         "lead-letter-printers": [(2, {})]}


@pytest.mark.parametrize("key, case", per_game(CASES, default=[(2, {})]))
def test_a_resampled_history_replays_to_the_resampled_state(key, case):
    players, params = case
    rewritten = 0
    for g, (R, s, hist) in enumerate(histories(key, players, params)):
        for player, k in itertools.product(range(players), range(RESAMPLES.get(key, 1))):
            t, actions = s.resample_history(player, hist, 7 * g + player + 1000 * k)
            replay = R.new_state()
            for (actor, _), a in zip(hist, actions):
                assert replay.current_player() == actor
                replay.apply(a)                      # every rewritten entry is legal
            assert replay.to_bytes() == t.to_bytes()
            assert t.observation_string(player) == s.observation_string(player)
            assert t.mask_history(player, list(zip([h[0] for h in hist], actions))) == s.mask_history(player, hist)
            rewritten += sum(a != b for (_, a), b in zip(hist, actions))
    assert rewritten > 0
