"""What a long-running process (the web server) keeps of the files it is sent: the rules
made of a file's data while a game uses them and a few recent ones, the data itself up
to a bound; a game still in use keeps working after many others have come and gone."""
from __future__ import annotations

import gc
import importlib.util
import json
import os
import threading

import pyspiel
import pytest

from gutenberg_ai import games
from gutenberg_ai.games import gamedata
from gutenberg_ai.games.positionfile import position_game

# The files sent are those of benchmarks/kept_data.py, which measures the same.
_path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "benchmarks", "kept_data.py")
_spec = importlib.util.spec_from_file_location("kept_data", _path)
kept_data = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(kept_data)
SHIPPED, shipped, variant = kept_data.SHIPPED, kept_data.shipped_position, kept_data.another_file


@pytest.mark.parametrize("key", sorted(SHIPPED))
def test_rules_of_files_no_longer_used_are_let_go(key):
    data = shipped(key)
    core = games.get(key).core
    gc.collect()
    before, held_before = gamedata.rules_kept(), core._native_rules_held()
    kept = None
    for i in range(3 * gamedata.MAX_RECENT_RULES):
        _, _, game, _, _ = position_game(variant(data, i), seed=1)
        if i == 2:
            kept = game    # a game still in use, made early
    gc.collect()
    bound = gamedata.MAX_RECENT_RULES + 2 * gamedata.FILES_READ_KEPT
    assert gamedata.rules_kept() - before <= bound
    assert core._native_rules_held() - held_before <= bound

    # The game kept plays on: its rules, the data it was made of, its words and states.
    state = kept.new_initial_state()
    assert gamedata.sources_of(kept)["position"]["format"] == data["format"]
    assert gamedata.rules_of(kept) is gamedata.rules_of(kept)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    action = state.legal_actions()[0]
    assert state.action_to_string(action)
    state.apply_action(action)
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(kept, state))[1]
    assert again.history() == state.history()
    # Loaded again by its parameters (the data is still there), it is the same game.
    reloaded = pyspiel.load_game(str(kept))
    assert gamedata.rules_of(reloaded) is gamedata.rules_of(kept)


def test_data_kept_is_bounded_but_not_the_data_of_rules_in_use(monkeypatch):
    data = shipped("gutenberg")
    _, _, game, _, _ = position_game(variant(data, -1), seed=1)   # in use throughout
    used = gamedata.key_of(game)
    position_digest = gamedata._SOURCES[used][1]
    size = len(gamedata.raw_of(position_digest)[0])
    monkeypatch.setattr(gamedata, "MAX_KEPT_DATA_BYTES", 4 * size)
    digests = [gamedata.register_data(variant(data, i))[len(gamedata.DATA_PREFIX):] for i in range(20)]
    # At most the bound's worth of them stays, the newest; the data in use stays.
    assert 1 <= sum(d in gamedata._DATA for d in digests) <= 4
    assert digests[-1] in gamedata._DATA and digests[0] not in gamedata._DATA
    assert position_digest in gamedata._DATA
    with pytest.raises(pyspiel.SpielError, match="no longer in use here"):
        games.get("gutenberg").load(position=gamedata.DATA_PREFIX + digests[0])
    assert game.new_initial_state().legal_actions()
    assert games.get("gutenberg").load(position=gamedata.DATA_PREFIX + digests[-1]).num_players() == 2


def test_a_server_sent_table_after_table_keeps_a_bounded_number_of_rules():
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
    from gutenberg_ai.interfaces.web.app import create_app
    from gutenberg_ai.interfaces.web.sessions import Limits
    from web_client import page_client
    data = shipped("printing-press")
    gc.collect()
    before = gamedata.rules_kept()
    with page_client(create_app(Limits(workers=1))) as client:
        for i in range(3 * gamedata.MAX_RECENT_RULES):
            r = client.post("/api/tables", json={"position": json.dumps(variant(data, i)), "seed": 5})
            assert r.status_code == 201, r.json()
            assert client.delete(f"/api/tables/{r.json()['id']}").status_code in (200, 204)
        gc.collect()
        assert gamedata.rules_kept() - before <= gamedata.MAX_RECENT_RULES + 2 * gamedata.FILES_READ_KEPT


class _Made:
    """Rules as remember keeps them (weakly referenced where made of a file's data)."""


def test_rules_of_one_file_are_made_while_another_file_s_are_being_made():
    """Two threads loading different files do not wait for each other: the second's rules
    are made while the first's make has not returned. Two that make the same key meanwhile
    get the same rules (the first kept)."""
    started, finish = threading.Event(), threading.Event()
    slow_made, got = _Made(), {}

    def slow():
        started.set()
        assert finish.wait(30)
        return slow_made

    first = threading.Thread(target=lambda: got.setdefault("slow", gamedata.remember("test-same", slow, "c1")))
    first.start()
    assert started.wait(30)
    fast_made = _Made()
    other = threading.Thread(target=lambda: got.setdefault("other", gamedata.remember("test-other", _Made, "c2")))
    other.start()
    other.join(10)
    assert not other.is_alive() and isinstance(got["other"], _Made)     # not held up by the slow make
    same = gamedata.remember("test-same", lambda: fast_made, "c1")     # the same key, made meanwhile
    assert same is fast_made
    finish.set()
    first.join(30)
    assert got["slow"] is fast_made          # the first kept is everyone's; the slow one's dropped
    assert gamedata.remember("test-same", _Made, "c1") is fast_made
