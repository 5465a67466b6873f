"""Printing Press's rules are pinned: seeded full games over every player count and both
sides of the time track, moves uniformly random or mixed with the heuristic's, draws by
their probabilities. Each case's digest hashes every game's moves and its final state
(every field), and each game's final scores are written out, so that a change of what
the rules do (a legal move more or less, a point scored otherwise) shows here, and which
game's score moved. Taken after setup tokens could be placed before a step's order (the
token windows); a rule change must give new figures here, said in its commit.
"""
import hashlib
import json
import random

import pytest

from gutenberg_ai.games.printing_press import make_rules
from every_game import mixed_move

SEEDS = range(4)

# (players, variant, share of the heuristic's moves): (digest, final scores per seed).
GOLDEN = {
    (1, 'basic', 0.0): ('6117b9652c031b74869433b7',
                        [[2], [0], [10], [5]]),
    (1, 'basic', 0.7): ('5a7ec507a6df784777d5ebc9',
                        [[36], [31], [14], [14]]),
    (1, 'advanced', 0.0): ('17d72b17a8b3379047012a86',
                           [[0], [8], [8], [5]]),
    (1, 'advanced', 0.7): ('e1e92affebf26f574951778b',
                           [[5], [35], [18], [17]]),
    (2, 'basic', 0.0): ('42782ec77a866f6c9e6dc211',
                        [[9, 2], [7, 14], [8, 4], [5, 11]]),
    (2, 'basic', 0.7): ('b799e5adfb3c2cb39828f50d',
                        [[22, 25], [24, 29], [44, 23], [15, 34]]),
    (2, 'advanced', 0.0): ('4e839bbd2e201535f59c925a',
                           [[7, 4], [8, 8], [4, 4], [2, 0]]),
    (2, 'advanced', 0.7): ('4526bcf60d1a31c1fda77fe1',
                           [[31, 35], [41, 37], [25, 32], [32, 41]]),
    (3, 'basic', 0.0): ('21f98332425de879b7fe3b8c',
                        [[4, 8, 0], [10, 4, 2], [0, 2, 4], [6, 0, 5]]),
    (3, 'basic', 0.7): ('60b1f8edaee3ee5dda32ddb4',
                        [[51, 30, 32], [53, 18, 20], [26, 22, 48], [30, 36, 32]]),
    (3, 'advanced', 0.0): ('3047b5edb27631a4da09dbc1',
                           [[10, 4, 7], [8, 4, 8], [2, 5, 2], [8, 4, 8]]),
    (3, 'advanced', 0.7): ('0617a584e03dc77af44c821d',
                           [[30, 32, 20], [23, 21, 41], [32, 8, 30], [25, 30, 36]]),
    (4, 'basic', 0.0): ('6bff536acf39cdacefe37c43',
                        [[2, 3, 4, 2], [6, 0, 0, 3], [2, 6, 4, 5], [2, 10, 2, 6]]),
    (4, 'basic', 0.7): ('6bc5c563233adacbd0ba2047',
                        [[28, 35, 35, 19], [23, 31, 15, 20], [19, 4, 18, 20], [43, 35, 40, 19]]),
    (4, 'advanced', 0.0): ('c3951b55a1f03b4e7900e9b3',
                           [[2, 6, 2, 0], [17, 8, 13, 0], [4, 2, 7, 6], [8, 5, 2, 2]]),
    (4, 'advanced', 0.7): ('c696d8d9a34f5d9275887860',
                           [[21, 30, 19, 30], [52, 38, 17, 15], [27, 33, 34, 22], [23, 25, 26, 15]]),
}


def play(rules, seed, heuristic):
    """One seeded game; returns (its moves, the final state)."""
    rng = random.Random(seed)
    s = rules.new_state()
    moves = []
    while not s.is_terminal():
        moves.append(mixed_move(s, rng, heuristic))
        s.apply(moves[-1])
    return moves, s


def digest_and_scores(players, variant, heuristic):
    rules = make_rules({"players": players, "variant": variant})
    h = hashlib.sha256()
    scores = []
    for seed in SEEDS:
        moves, s = play(rules, seed, heuristic)
        h.update(json.dumps([moves, s.to_dict()]).encode())
        scores.append(s.final_scores())
    return h.hexdigest()[:24], scores


@pytest.mark.parametrize("case", list(GOLDEN), ids=lambda c: f"{c[0]}p-{c[1]}-heuristic{c[2]}")
def test_seeded_full_games_are_played_as_pinned(case):
    digest, scores = digest_and_scores(*case)
    assert scores == GOLDEN[case][1]
    assert digest == GOLDEN[case][0]
