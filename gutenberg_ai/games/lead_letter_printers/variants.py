"""Small variants of Lead Letter Printers: the real game from a point near its end,
shipped as position files (position.py's format) and made here, reproducibly.

cfr-mini (data/positions/cfr-mini.json), the variant OpenSpiel's CFR family solves
(gutenberg_ai.search.cfr): a 2-player game of one round (`rounds` 1: the final scoring after the
first round) at the second player's second turn of the Action phase, Shop or Reset, and
what follows to the end: that player's Shop or Reset action with its optional actions,
the other player's, then the Order and contract phase and the Production phase, and the
final scoring. About 1,200 decision nodes, 12 chance nodes (the lead letters and orders
drawn in sight of both) and 347 terminal states (tests/test_games_cfr.py counts them).

Unlike Printing Press's, this variant has no hidden information left: every draw from
here on is face up, so each information state holds one history and CFR solves a game of
perfect information with chance. The game hides only the factories another player
draws, and in a game of one round a factory drawn before the last turns leaves a tree
too large for CFR (a search of 400 seeded games found none that stayed small).

The moves leading there are a seeded game (CFR_MINI_SEED) in which each decision is a
random legal move or the heuristic's move, half and half (`scripted_moves`).
"""
from __future__ import annotations

import json
import random
from importlib import resources

from . import _core
from .catalogue import default_catalogue

CFR_MINI = "cfr-mini.json"
# Dealt with the factory piles face down (factory_tops false), as the variant was made:
# its moves and its counts (tests/test_llp_cfr.py) are that game's.
CFR_MINI_PARAMS = {"players": 2, "rounds": 1, "factory_tops": False}
CFR_MINI_SEED = 78
CFR_MINI_MOVES = 66


def variant_path(name: str = CFR_MINI) -> str:
    """The path of a shipped position."""
    return str(resources.files(__package__) / "data" / "positions" / name)


def scripted_moves(seed: int = CFR_MINI_SEED, n: int = CFR_MINI_MOVES, params: dict = CFR_MINI_PARAMS) -> list[int]:
    """The first `n` moves of a seeded game: the draws by the core's sampler, each
    decision a random legal move or the heuristic's, half and half."""
    rules = _core.Rules(default_catalogue(), **params)
    state = rules.new_state()
    rng = random.Random(seed)
    moves: list[int] = []
    while len(moves) < n:
        if state.is_chance():
            a = state.sample_chance(rng.randrange(1 << 30))
        elif rng.random() < 0.5:
            a = rng.choice(state.legal_actions())
        else:
            a = _core.heuristic_move(state, seed=rng.randrange(1000))
        moves.append(a)
        state.apply(a)
    return moves


def cfr_mini_position() -> dict:
    """The cfr-mini position file's data."""
    return {"format": "lead-letter-printers-position", "version": 1, **CFR_MINI_PARAMS,
            "comment": "cfr-mini: the last turn of a 2-player game of one round (gutenberg_ai.games."
                    "lead_letter_printers.variants)", "moves": scripted_moves()}


def write_cfr_mini(path: str | None = None) -> str:
    path = path or variant_path()
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(cfr_mini_position()) + "\n")
    return path


if __name__ == "__main__":
    print(write_cfr_mini())
