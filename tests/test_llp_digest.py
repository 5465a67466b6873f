"""Lead Letter Printers's rules are pinned: seeded full games (uniformly random moves, the
heuristic's, or a mix; draws by their probabilities) over 2, 3 and 4 players are played
through the core, and each game's final state (every field of its dict) and final
scores are hashed; the digests and the scores below must come out again, or a rule
changed. A change of the rules that is meant updates them, and says so in its commit
(`python tests/test_llp_digest.py` prints them).

GOLDEN is the factory piles dealt face down (factory_tops false), as the games were
before the piles lay face up: that reading is kept unchanged. FACE_UP is the rulebook's
(the default), taken when the piles' tops came into view (each top a chance node of its
own, so every game's draws after the setup differ)."""
import hashlib
import json
import random

import pytest

from gutenberg_ai.games.lead_letter_printers import make_rules
from every_game import mixed_move

# (players, seeds, share of the heuristic's moves)
CASES = {
    "2 players, random": (2, range(8), 0.0),
    "2 players, heuristic": (2, range(3), 1.0),
    "3 players, random": (3, range(6), 0.0),
    "3 players, mixed": (3, range(3), 0.5),
    "4 players, random": (4, range(4), 0.0),
    "4 players, heuristic": (4, range(2), 1.0),
}

# Taken on this build (the setup's purchases not counted in round 1). The cases with the
# heuristic's moves were taken again when its evaluation changed (resources and marks by
# the rounds left, the last optional actions; then what a player still to act there may
# still use): the random cases kept theirs, the rules did not change.
GOLDEN = {
    '2 players, random': ([[0, 9], [6, -3], [5, -5], [-2, -5], [0, 4], [0, 2], [5, 2], [2, -4]], '13aa02e3b5cf73154406d3a4'),
    '2 players, heuristic': ([[18, 21], [22, 18], [15, 18]], 'e1ffe065d6234a080c860850'),
    '3 players, random': ([[-1, 2, -2], [-5, -1, 0], [6, -3, -7], [-1, 1, 4], [2, 2, 3], [8, -2, 5]], '40a749258a97008cbf95e386'),
    '3 players, mixed': ([[7, -3, 2], [4, 6, 6], [13, 2, 0]], '395990486867cb177077691c'),
    '4 players, random': ([[-5, 0, 8, -4], [-1, -7, -1, -2], [7, -1, -5, -6], [-3, -7, 5, 7]], 'e1b10db72533d0dab62ebdcc'),
    '4 players, heuristic': ([[18, 13, 22, 16], [17, 29, 15, 9]], '495c163f7514c2213ffb3022'),
}


def play(rules, seed, heuristic):
    """One seeded game in the core: (its final scores, the sha256 of its final state)."""
    rng = random.Random(seed)
    s = rules.new_state()
    while not s.is_terminal():
        s.apply(mixed_move(s, rng, heuristic, epsilon=0.0))
    scores = list(s.final_scores())
    return scores, hashlib.sha256(json.dumps([scores, s.to_dict()]).encode()).hexdigest()


FACE_UP = {
    '2 players, random': ([[-6, -3], [-1, -1], [4, 3], [3, 2], [0, 2], [4, -1], [5, -7], [-7, 2]], '1e64dcd62f458b1b35491956'),
    '2 players, heuristic': ([[19, 21], [18, 21], [15, 21]], '798a5bbe58df3462cce3634c'),
    '3 players, random': ([[5, 0, 6], [-2, 6, 3], [1, -6, 3], [-5, 4, 3], [0, -5, 5], [-5, 3, 11]], 'bfc19d9e55ddfbd9b626e7d0'),
    '3 players, mixed': ([[6, -4, -6], [12, -1, 1], [-3, 2, -5]], '8b4815a4a034bf69dc0117e7'),
    '4 players, random': ([[4, -7, -5, -2], [7, -1, 7, 8], [-4, 1, 3, 5], [-5, -5, -7, -2]], '1e08c51e37cc0cda68842701'),
    '4 players, heuristic': ([[7, 15, 8, 19], [24, 21, 23, 2]], 'b7649e2ead54747418dab780'),
}


def outcome(case, factory_tops=False):
    """The case's final scores, game by game, and one digest of all its final states."""
    players, seeds, heuristic = CASES[case]
    rules = make_rules({"players": players, "factory_tops": factory_tops})
    h = hashlib.sha256()
    scores = []
    for seed in seeds:
        game_scores, state_digest = play(rules, seed, heuristic)
        scores.append(game_scores)
        h.update(state_digest.encode())
    return scores, h.hexdigest()[:24]


@pytest.mark.parametrize("case", CASES)
def test_seeded_full_games_end_as_before(case):
    scores, digest = outcome(case)
    assert (scores, digest) == GOLDEN[case]


@pytest.mark.parametrize("case", CASES)
def test_seeded_full_games_with_the_piles_face_up_end_as_before(case):
    scores, digest = outcome(case, factory_tops=True)
    assert (scores, digest) == FACE_UP[case]


if __name__ == "__main__":
    for name, tops in (("GOLDEN", False), ("FACE_UP", True)):
        print(f"{name} = {{")
        for case in CASES:
            print(f"    {case!r}: {outcome(case, tops)!r},")
        print("}")
