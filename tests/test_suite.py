"""The benchmark suites: shipped, versioned, replayable positions with references, and
scoring a bot on them."""
import json
import subprocess
import sys

import pytest

from gutenberg_ai.tools import suite
from gutenberg_ai.examples.flat_mc import FlatMonteCarloBot

KINDS = {"gutenberg": {"plan", "action", "fulfil", "endgame"},
         "printing-press": {"select cards", "close frames", "endgame"},
         "lead-letter-printers": {"action", "orders and contracts", "production"}}


@pytest.mark.parametrize("key", ["gutenberg", "printing-press", "lead-letter-printers"])
def test_the_shipped_suite_replays_and_has_every_kind(key):
    data = suite.load_suite(key)
    assert data["version"] == suite.current_version(key) == suite.SUITE_VERSIONS[key] and data["game"] == key
    assert suite.suite_path(key).endswith(f"suite-v{data['version']}.json")
    kinds = {p["kind"] for p in data["positions"]}
    assert KINDS[key] <= kinds
    ids = [p["id"] for p in data["positions"]]
    assert len(ids) == len(set(ids))
    for pos in data["positions"]:
        state = suite.position_state(data, pos)            # the actions reach the digest
        assert state.current_player() == pos["player"] and len(state.legal_actions()) == pos["legal"] > 1
        ref = pos["reference"]
        assert ref["iterations"] >= 1500
        moves = {m["action"]: m for m in ref["moves"]}
        assert ref["best"] in moves and moves[ref["best"]]["share"] == max(m["share"] for m in ref["moves"])
        assert all(a in state.legal_actions() for a in moves)
        assert suite.position_kind(__import__("gutenberg_ai").core_of(state)) == pos["kind"]


def test_a_position_from_another_engine_is_refused():
    data = suite.load_suite("gutenberg")
    pos = dict(data["positions"][0], digest="0" * 64)
    with pytest.raises(ValueError, match="another engine version"):
        suite.position_state(data, pos)


def oracle(rank):
    """A factory whose bot plays the reference's move of that rank at each position."""
    data = suite.load_suite("printing-press")
    by_history = {tuple(p["actions"]): p for p in data["positions"]}

    class Oracle(FlatMonteCarloBot):
        def step(self, state):
            moves = sorted(by_history[tuple(state.history())]["reference"]["moves"], key=lambda m: -m["share"])
            return moves[min(rank, len(moves) - 1)]["action"]

    return lambda game, seat, seed, budget: Oracle(game, seat, seed, iterations=1)


def test_scoring_agrees_with_the_reference():
    best = suite.score_bot("oracle", "printing-press", factory=oracle(0), iterations=1)
    assert best["overall"]["agreement"] == 1.0 and best["overall"]["mean_lost"] == 0.0
    worse = suite.score_bot("oracle", "printing-press", factory=oracle(1), iterations=1)
    assert worse["overall"]["agreement"] < 1.0
    data = suite.load_suite("printing-press")
    for row, pos in zip(worse["positions"], data["positions"]):
        values = {m["action"]: m["value"] for m in pos["reference"]["moves"]}
        assert row["lost"] == pytest.approx(max(0.0, values[pos["reference"]["best"]] - values[row["action"]]))
    assert worse["overall"]["mean_lost"] > 0


def test_the_suite_command_scores_a_bot():
    out = subprocess.run([sys.executable, "-m", "gutenberg_ai", "suite", "--game", "gutenberg", "--bot",
                          "heuristic", "--json"], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["suite_version"] == 1 and 0 <= result["overall"]["agreement"] <= 1
    assert set(result["kinds"]) >= KINDS["gutenberg"]
    assert all(r["lost"] >= 0 for r in result["positions"])
    assert all(r["lost"] == 0 for r in result["positions"] if r["agree"])
