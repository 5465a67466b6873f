"""The core's behaviour is pinned: speed work must not change what the rules do.

Seeded games (uniformly random moves mixed with the heuristic's, draws by their
probabilities) are played through the core, and every step is hashed: the player to act,
the legal actions or the chance outcomes with their probabilities, the move, and every
field of the state after it. The digests below were taken at main 50977af, before the
core's speed work; the same seeds must give the same digests, or a rule changed.
The cases that mix in the heuristic's moves with characters in play were taken again
when the heuristic learned the characters' abilities (6128317): the rules
did not change, and the cases of random moves alone, or without characters, kept theirs.
All but the fulfil case were taken again when, for an order as a reward with four orders
held, the discard moved before the draw, as the rulebook orders it (p.8, "must first
discard one of the 4"); it used to follow the draw.
All but the fulfil case were taken again when develop specialties' use (B) was limited
to the specialties the card does not show, as the rulebook words it (p.9, "(B) move any
other specialty marker 1 level up"); it used to allow any specialty.

And the legality test the glue applies to every action, `is_legal` (a direct test per
action kind), must agree with the list `legal_actions` generates, for every action and
every chance outcome at every step of such games: the list is the reference.
"""
import hashlib
import json
import random
from importlib import resources

import pytest

import gutenberg_ai
from gutenberg_ai import rules_of
from every_game import mixed_move

# (game parameters, seeds, share of the heuristic's moves): the digest of each.
POSITIONS = resources.files("gutenberg_ai.games.gutenberg") / "data" / "positions"
CASES = {
    "2 players": ({"players": 2}, range(40), 0.0),
    "2 players, heuristic moves too": ({"players": 2}, range(40), 0.6),
    "3 players": ({"players": 3}, range(20), 0.5),
    "4 players, no characters": ({"players": 4, "characters": False}, range(12), 0.5),
    "solo against the automa": ({"players": 1, "automa": 1}, range(30), 0.5),
    "2 players with the automa, 3 rounds": ({"players": 2, "automa": 1, "rounds": 3}, range(20), 0.5),
    "from a fulfil step of round 6": ({"position": str(POSITIONS / "fulfil-round6-2p.json")}, range(40), 0.5),
    "from a turn at the inks, 3 players": ({"position": str(POSITIONS / "turn-inks-round3-3p.json")}, range(20), 0.5),
    "from round 4 of a solo game": ({"position": str(POSITIONS / "solo-automa-round4.json")}, range(20), 0.5),
}

GOLDEN = {
    "2 players": "261b941817a893ac8065590a",
    "2 players, heuristic moves too": "8cf04622dba8493f8551c8e0",
    "3 players": "79652288e1c9311741576d4b",
    "4 players, no characters": "b7e2a31743bd3add9f679f63",
    "solo against the automa": "b6b1ae10a80254b6ee950fd6",
    "2 players with the automa, 3 rounds": "42f4ef753b8e288838827e24",
    "from a fulfil step of round 6": "c081ecac2537617cf58b3d3e",
    "from a turn at the inks, 3 players": "3e72288b15cf288995a3993a",
    "from round 4 of a solo game": "aa9578c8b72d87c6d2447362",
}


def play(rules, seed, heuristic, visit=None):
    """One seeded game in the core; `visit(core)` at every step. Returns the hash object."""
    rng = random.Random(seed)
    h = hashlib.sha256()
    s = rules.new_state()
    while True:
        if visit is not None:
            visit(s)
        cp = s.current_player()
        if s.is_terminal():
            h.update(json.dumps(["end", s.final_scores(), s.to_dict()]).encode())
            return h
        step = [cp, [(o, repr(p)) for o, p in s.chance_outcomes()] if s.is_chance() else s.legal_actions()]
        a = mixed_move(s, rng, heuristic)
        s.apply(a)
        h.update(json.dumps([step, a, s.to_dict()]).encode())


def digest(params, seeds, heuristic, visit=None):
    rules = rules_of(gutenberg_ai.load_game(**params))
    h = hashlib.sha256()
    for seed in seeds:
        h.update(play(rules, seed, heuristic, visit).digest())
    return h.hexdigest()[:24]


@pytest.mark.parametrize("case", CASES)
def test_seeded_games_are_played_as_before(case):
    assert digest(*CASES[case]) == GOLDEN[case]


@pytest.mark.parametrize("case", ["2 players, heuristic moves too", "3 players", "solo against the automa"])
def test_is_legal_agrees_with_the_legal_actions(case):
    params, seeds, heuristic = CASES[case]
    checked = []

    def visit(s):
        if s.is_terminal():
            allowed = set()
        elif s.is_chance():
            allowed = {o for o, _ in s.chance_outcomes()}
        else:
            allowed = set(s.legal_actions())
        mask = s.legal_mask()
        assert {a for a, ok in enumerate(mask) if ok} == allowed, s.step_name()
        checked.append(len(allowed))

    digest(params, seeds[:3], heuristic, visit)
    assert len(checked) > 500


# Random play inside the core (`play_random`: the search's random rollouts) takes
# shortcuts the moves through `apply` do not: a plan drawn from its range rather than
# from the list, the deals of the setup and of each round drawn as one run, a kind of
# card at a time, and a decision's moves taken from the list `advance` made to see
# whether there was a choice. They must draw the same: the final states of seeded
# games, taken at 2fe48a4 (before all three).
RANDOM_PLAY = {
    "2 players": ({"players": 2}, "0bb728afb862a13c"),
    "3 players": ({"players": 3}, "26cea16488a86a41"),
    "4 players, no characters": ({"players": 4, "characters": False}, "a6df2c7d3270bad0"),
    "solo against the automa": ({"players": 1, "automa": 1}, "b5601ce08e076a26"),
    "from a fulfil step of round 6": ({"position": str(POSITIONS / "fulfil-round6-2p.json")}, "337d0838d6679e1b"),
}


def random_play_digest(params) -> str:
    rules = rules_of(gutenberg_ai.load_game(**params))
    h = hashlib.sha256()
    for seed in range(25):
        s = rules.new_state()
        s.play_random(seed)
        assert s.is_terminal()
        h.update(json.dumps([s.final_scores(), s.to_dict()]).encode())
    return h.hexdigest()[:16]


@pytest.mark.parametrize("case", RANDOM_PLAY)
def test_random_play_in_the_core_is_played_as_before(case):
    params, golden = RANDOM_PLAY[case]
    assert random_play_digest(params) == golden
