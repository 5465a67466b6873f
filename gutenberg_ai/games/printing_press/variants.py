"""Small variants of Printing Press: the real game from a point near its end, shipped as
start files (game.py's "printing-press-start" format) and made here, reproducibly.

cfr-mini (data/positions/cfr-mini.json), the variant OpenSpiel's CFR family solves
(gutenberg_ai.search.cfr): a 2-player game of one round on the advanced side of the time track
(5 Select Cards steps), without characters, at its last Select Cards step after the
first player's turn. Each tableau is one card with tokens on it (1 x 3). The second player
takes one of the two cards left and places it, or discards it and draws the bag's last
two tokens (an A and a blue: which comes first is chance, and the other player does not
see it), keeps one symbol or initiative side up and puts it in the tableau; the third card
goes to the box. Then both close their frames (the window is the real decision it is in
the game), and the round is scored. About 4,200 decision nodes, 6 chance nodes and 60,000
terminal states (`tests/test_games_cfr.py` counts them).

The history leading there is a seeded game played by a simple script (`scripted_history`):
setup tokens placed symbol side up at once; the first card of the round placed, every
later card discarded for a token kept symbol side up and put on a square of the tableau;
every other decision and every draw random. Only the first player's last turn and the
rest of the bag (all but BAG_LEFT, taken out of the game) make the variant small.
"""
from __future__ import annotations

import json
import random
from importlib import resources

from . import _core, names
from .catalogue import default_catalogue

A = _core.ACTIONS
CFR_MINI = "cfr-mini.json"
CFR_MINI_PARAMS = {"players": 2, "variant": "advanced", "rounds": 1, "characters": False}
CFR_MINI_SEED = 0
BAG_LEFT = {"A": 1, "blue": 1}


def variant_path(name: str = CFR_MINI) -> str:
    """The path of a shipped start file."""
    return str(resources.files(__package__) / "data" / "positions" / name)


def _on_tableau(action: int, p: dict) -> bool:
    r, c = _core.anchor_cell(action - A["TOKEN_AT"])
    return 0 <= r < p["height"] and 0 <= c < p["width"]


def scripted_history(params: dict, seed: int, last_step_turns: int = 1):
    """(the state, the history) of a game of `params` played by the script above until the
    round's last Select Cards step, after `last_step_turns` turns of it."""
    rules = _core.Rules(default_catalogue(), **params)
    steps = default_catalogue().time_track[params.get("variant", "basic")].card_steps
    rng = random.Random(seed)
    s, history = rules.new_state(), []
    while not s.is_terminal():
        d = s.to_dict()
        if (d["phase"] == _core.PHASES["CARDS"] and d["step"] == steps - 1
                and d["turn"] >= last_step_turns and d["sub"] == _core.SUBS["TAKE"]):
            break
        if s.is_chance():
            a = s.sample_chance(rng.randrange(1 << 30))
        else:
            legal = s.legal_actions()
            p = d["players"][s.current_player()]
            setup_up = [x for x in legal if A["SETUP_UP"] <= x < A["SETUP_DOWN"]]
            on_tableau = [x for x in legal if A["TOKEN_AT"] <= x < A["MARKER"] and _on_tableau(x, p)]
            keep_up = [x for x in legal if A["KEEP_UP"] <= x < A["KEEP_DOWN"]]
            if d["held"]:
                a = rng.choice(on_tableau or legal)
            elif setup_up:
                a = setup_up[0]
            elif d["phase"] == _core.PHASES["CARDS"] and d["sub"] == _core.SUBS["PLACE"]:
                a = A["DISCARD"] if A["DISCARD"] in legal else legal[0]
            elif keep_up:
                a = rng.choice(keep_up)
            else:
                a = rng.choice(legal)
        s.apply(a)
        history.append(a)
    return s, history


def cfr_mini_start(seed: int = CFR_MINI_SEED) -> dict:
    """The start file of cfr-mini (see above) for the script's `seed`."""
    s, history = scripted_history(CFR_MINI_PARAMS, seed)
    bag = s.to_dict()["bag"]
    tokens = {name: bag[i] - BAG_LEFT.get(name, 0) for i, name in enumerate(names.SYMBOLS)
              if bag[i] > BAG_LEFT.get(name, 0)}
    return {"format": "printing-press-start", **CFR_MINI_PARAMS, "history": history,
            "out_of_game": {"cards": [], "tokens": tokens}}


if __name__ == "__main__":   # writes the shipped file: python -m gutenberg_ai.games.printing_press.variants
    with open(variant_path(), "w") as f:
        f.write(json.dumps(cfr_mini_start(), separators=(",", ": ")) + "\n")
    print(f"wrote {variant_path()}")
