"""A position written at any recordable decision of any game loads back to the same state.

Seeded games of random legal moves (draws by their probabilities) are played in each
game of the table below. At every decision the position is written as `save-position`
writes it (the game's position writer, for the player to move) and as it is written
whole (no viewer), and each is loaded back. A decision the format does not record
(`position_of` refuses it, saying why) is skipped; the share of recorded decisions is
checked so that a writer that refuses everything cannot pass.

"The same state" means:

- written whole: the loaded state is at the same decision (player to act, legal moves),
  shows every seat the same (each seat's observation string and observation tensor:
  together they hold every fact the rules and the players can tell apart, the decks and
  the bag included), reads the same (`str`), and writes the same position again; and the
  move played next leads both to the same next node (its draws with their
  probabilities, or its legal moves);
- written for the player to move, the others' hidden facts written "hidden" (Gutenberg's
  plans not yet seen, Printing Press's tokens in hand or face down, Lead Letter
  Printers' factories under the piles): the loaded state (whose stand-ins for the hidden
  facts are the loader's) is at the same decision and that player's information state is
  identical: their observation string and tensor;

and, where the writer can write the loaded state (not Lead Letter Printers' moves form,
which needs the game's history), writing it again gives the same file.
"""
from __future__ import annotations

import json
import random
import sys

import numpy as np
import pytest

from gutenberg_ai import games
from gutenberg_ai.games import core_of
from gutenberg_ai.positionfile import PositionError

GAMES_PER_CASE = 2
MAX_DECISIONS = 400        # per game: a bound on the work, not on the rules

# (game, parameters): player counts 1-4 where the game has them, variants, characters.
CASES = [
    ("gutenberg", {"players": 1}),
    ("gutenberg", {"players": 2, "characters": False}),
    ("gutenberg", {"players": 2, "automa": 1}),
    ("gutenberg", {"players": 3}),
    ("gutenberg", {"players": 4}),
    ("printing-press", {"players": 1}),
    ("printing-press", {"players": 2, "characters": False}),
    ("printing-press", {"players": 3, "variant": "advanced"}),
    ("printing-press", {"players": 4}),
    ("lead-letter-printers", {"players": 2}),
    ("lead-letter-printers", {"players": 3, "rounds": 3}),
    ("lead-letter-printers", {"players": 4, "rounds": 2}),
]


def observation(core, seat: int) -> np.ndarray:
    module = sys.modules[type(core).__module__]
    out = np.zeros(module.OBSERVATION_SIZE, dtype=np.float32)
    core.write_observation(seat, out)
    return out


def seats(core) -> range:
    return range(core.to_dict()["num_players"])


def same_view(loaded, real, seat: int, where: str):
    assert loaded.observation_string(seat) == real.observation_string(seat), f"{where}: seat {seat}'s observation"
    difference = np.nonzero(observation(loaded, seat) != observation(real, seat))[0]
    assert difference.size == 0, f"{where}: seat {seat}'s observation tensor differs at {difference[:8]}"


def same_decision(loaded, real, where: str):
    assert loaded.current_player() == real.current_player(), where
    assert loaded.legal_actions() == real.legal_actions(), where


def next_node(core):
    if core.is_terminal():
        return "end"
    if core.is_chance():
        return sorted(core.chance_outcomes())
    return (core.current_player(), core.legal_actions())


def rewrite(module, saved: dict, loaded, viewer):
    """The position the writer gives for the loaded state (None where it cannot: Lead
    Letter Printers' moves form writes a game's history, which a loaded state lacks)."""
    if saved.get("form") == "moves":
        return None
    return module.position_of(loaded, viewer=viewer)


def play(key: str, params: dict, seed: int):
    """Decisions of a seeded game of random moves: (pyspiel state, the move played)."""
    game = games.get(key).load(**params)
    state = game.new_initial_state()
    rng = random.Random(seed)
    decisions = 0
    while not state.is_terminal() and decisions < MAX_DECISIONS:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        move = rng.choice(state.legal_actions())
        yield state, move
        state.apply_action(move)
        decisions += 1


@pytest.mark.parametrize("key,params", CASES, ids=[f"{k}-{json.dumps(p, sort_keys=True)}" for k, p in CASES])
def test_every_recorded_decision_loads_back_to_the_same_state(key, params):
    module = games.get(key).positions
    written = decisions = 0
    for seed in range(GAMES_PER_CASE):
        for state, move in play(key, params, seed):
            decisions += 1
            real = core_of(state)
            to_move = real.current_player()
            for viewer in (None, to_move):
                try:
                    saved = module.position_of(state, viewer=viewer)
                except PositionError:
                    continue            # a decision the format does not record
                where = f"seed {seed}, {real.step_name()}, viewer {viewer}"
                loaded = module.load_position(json.loads(json.dumps(saved))).state
                same_decision(loaded, real, where)
                for seat in (seats(real) if viewer is None else [viewer]):
                    same_view(loaded, real, seat, where)
                again = rewrite(module, saved, loaded, viewer)
                assert again is None or again == saved, where
                if viewer is None:
                    assert str(loaded) == str(real), where
                    after, then = loaded.clone(), real.clone()
                    after.apply(move)
                    then.apply(move)
                    assert next_node(after) == next_node(then), where
                written += 1
    assert decisions > 100 and written > decisions // 3, (written, decisions)
