"""The web page's JSON API through FastAPI's TestClient: games against the AI driven to
their end for every game of the games table, the person's moves (an action, a plan as
numbers), undo, hints, downloads the command line reads back, positions and records
through the command line's loaders with every problem named, the limits (sizes,
budgets, stores), and stopping a search."""
import json
import time

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
from fastapi.testclient import TestClient  # noqa: E402

from gutenberg_ai import games  # noqa: E402
from gutenberg_ai.positionfile import load_position  # noqa: E402
from gutenberg_ai.records import load_record, replay  # noqa: E402
from gutenberg_ai.web.app import create_app  # noqa: E402
from gutenberg_ai.web.sessions import Limits  # noqa: E402

import pathlib  # noqa: E402
POSITIONS = pathlib.Path(games.get("gutenberg").positions.__file__).parent / "data" / "positions"


@pytest.fixture
def client():
    with TestClient(create_app(Limits(workers=2, max_games=4, max_records=4))) as c:
        yield c


def lines(response):
    return [json.loads(x) for x in response.iter_lines() if x]


def advance(c, gid):
    with c.stream("POST", f"/api/games/{gid}/advance") as r:
        assert r.status_code == 200
        out = lines(r)
    assert out[-1]["event"] == "done", out[-1]
    return out[-1]["result"]


def play_out(c, view, pick=lambda v: {"action": v["moves"][-1]["action"]}):
    gid = view["id"]
    for _ in range(2000):
        if view["status"] == "end":
            return view
        if view["status"] == "ai":
            view = advance(c, gid)
        else:
            r = c.post(f"/api/games/{gid}/move", json=pick(view))
            assert r.status_code == 200, r.json()
            view = r.json()
    pytest.fail("the game did not end")


@pytest.mark.parametrize("key", list(games.GAMES))
def test_a_whole_game_of_every_game(client, key):
    view = client.post("/api/games", json={"game": key, "players": 2, "ai": ["heuristic"], "rounds": 1,
                                           "seed": 4}).json()
    assert view["game"] == key and view["status"] in ("human", "ai")
    end = play_out(client, view)
    rows = end["scores"]["rows"]
    assert len(rows) == 2 and {r["place"] for r in rows} <= {1, 2}
    assert end["scores"]["verdict"]
    # The full record replays with the command line's loader to the same result.
    r = client.get(f"/api/games/{view['id']}/record?full=true")
    assert "attachment" in r.headers["content-disposition"]
    record = load_record(json.loads(r.text))
    state = replay(record)
    assert state.is_terminal()


def test_same_seed_same_game(client):
    a = client.post("/api/games", json={"players": 2, "ai": ["heuristic"], "rounds": 1, "seed": 11}).json()
    b = client.post("/api/games", json={"players": 2, "ai": ["heuristic"], "rounds": 1, "seed": 11}).json()
    assert a["board"] == b["board"] and a["moves"] == b["moves"]


def test_the_plan_as_numbers_hidden_plans_and_undo(client):
    """Gutenberg: the plan step offers an entry of five numbers; the AI's plan, committed
    first, is shown hidden; undo goes back to the person's previous decision."""
    view = client.post("/api/games", json={"players": 2, "seat": 1, "ai": ["heuristic"], "rounds": 1,
                                           "characters": False, "seed": 2}).json()
    gid = view["id"]
    for _ in range(300):
        if view["status"] == "ai":
            view = advance(client, gid)
        elif view["board"].get("entry"):
            break
        else:
            view = client.post(f"/api/games/{gid}/move", json={"action": view["moves"][0]["action"]}).json()
    entry = view["board"]["entry"]
    assert entry["labels"] == ["orders", "inks", "specialties", "gears", "patronage"]
    hidden = [it for sec in view["board"]["sections"] for g in sec["groups"] for it in g["items"]
              if it["kind"] == "hidden"]
    assert hidden and "plan hidden" in hidden[0]["text"]     # player 0 planned first
    bad = client.post(f"/api/games/{gid}/move", json={"numbers": [9, 9, 9, 9, 9]})
    assert bad.status_code == 422 and "not legal" in bad.json()["error"]
    before = view["actions"]
    after = client.post(f"/api/games/{gid}/move", json={"numbers": entry["example"]}).json()
    assert after["actions"] > before
    assert any("you:" in e["text"] for e in after["events"])
    undone = client.post(f"/api/games/{gid}/undo").json()
    assert undone["board"]["entry"] == entry and undone["actions"] == before


def test_the_server_s_time_limit_bounds_the_default_budget_too():
    """`serve --max-seconds`: "the longest search, an AI move or a hint, whatever its
    budget", the default budget of a request that gives none included."""
    with TestClient(create_app(Limits(workers=1, max_games=4, max_records=4, max_hint_seconds=0.2,
                                      max_ai_seconds=0.2))) as c:
        view = c.post("/api/games", json={"players": 2, "ai": ["heuristic"], "rounds": 1, "seed": 3}).json()
        with c.stream("POST", f"/api/games/{view['id']}/hint", json={"top": 2}) as r:
            result = lines(r)[-1]["result"]
        assert result["budget"] == {"seconds": 0.2}
        text = (POSITIONS / "fulfil-round6-2p.json").read_text()
        with c.stream("POST", "/api/positions/hint", json={"text": text}) as r:
            assert lines(r)[-1]["result"]["budget"] == {"seconds": 0.2}


def test_a_new_game_takes_each_game_s_own_bounds_and_names_fields(client):
    r = client.post("/api/games", json={"game": "lead-letter-printers", "players": 2, "ai": ["heuristic"],
                                        "rounds": 8, "seed": 1})
    assert r.status_code == 201 and r.json()["game"] == "lead-letter-printers"   # its small variants reach 20
    r = client.post("/api/games", json={"players": 2, "ai": ["heuristic"], "rounds": 8})
    assert r.status_code == 422 and r.json()["error"] == "rounds: 8 is out of range (1-6)"
    r = client.post("/api/games", json={"game": "printing-press", "players": 2, "ai": ["heuristic"], "automa": True})
    assert r.status_code == 422 and r.json()["error"].startswith("automa: ")        # a field, not "--automa"


def test_hint_at_a_decision_and_a_position(client):
    view = client.post("/api/games", json={"players": 2, "ai": ["heuristic"], "rounds": 1, "seed": 3}).json()
    assert view["status"] == "human"
    with client.stream("POST", f"/api/games/{view['id']}/hint", json={"iterations": 200, "top": 2}) as r:
        out = lines(r)
    result = out[-1]["result"]
    assert result["iterations"] == 200 and len(result["hints"]) == 2
    h = result["hints"][0]
    assert 0 <= h["win_probability"] <= 1 and 0 < h["share"] <= 1 and h["action"] in [m["action"] for m in view["moves"]]
    text = (POSITIONS / "fulfil-round6-2p.json").read_text()
    with client.stream("POST", "/api/positions/hint", json={"text": text, "iterations": 300}) as r:
        result = lines(r)[-1]["result"]
    _, pos = load_position(json.loads(text))
    assert result["position"]["player"] == pos.current_player
    assert {h["action"] for h in result["hints"]} <= set(pos.state.legal_actions())


def test_a_bad_position_gets_every_problem_with_its_field(client):
    data = json.loads((POSITIONS / "plan-round1-2p.json").read_text())
    data["round"] = 9
    data["players"][0]["guilders"] = -3
    r = client.post("/api/positions/check", json={"text": json.dumps(data), "name": "mine.json"})
    assert r.status_code == 422
    where = {p["where"] for p in r.json()["problems"]}
    assert {"round", "players[0].guilders"} <= where
    for text, expect in (("{", "JSON"), ("[]", ""), ('{"format": "gutenberg-record"}', "record")):
        r = client.post("/api/positions/check", json={"text": text})
        assert r.status_code == 422 and expect in r.json()["error"], r.json()


def test_bad_requests_are_4xx_with_words(client):
    assert client.post("/api/games", json={"game": "chess"}).status_code == 422
    r = client.post("/api/games", json={"players": 7, "bogus": 1})
    assert r.status_code == 422 and {p["where"] for p in r.json()["problems"]} == {"players", "bogus"}
    assert client.post("/api/games", json={"ai": ["openspiel-mcts"]}).status_code == 422
    assert client.post("/api/games", json={"seconds": 1e6}).status_code == 422
    assert client.post("/api/games", json={"game": "printing-press", "automa": True}).status_code == 422
    assert client.get("/api/games/nope").status_code == 404
    assert client.get("/api/records/nope/board").status_code == 404
    assert client.get("/api/positions/examples/gutenberg/..%2F..%2Fsetup").status_code == 404
    assert client.post("/api/games", content=b"not json", headers={"content-type": "application/json"}).status_code == 422
    view = client.post("/api/games", json={"players": 2, "ai": ["heuristic"], "seed": 1}).json()
    assert client.post(f"/api/games/{view['id']}/move", json={"action": 10**6}).status_code == 422
    assert client.post(f"/api/games/{view['id']}/move", json={}).status_code == 422
    assert client.post(f"/api/games/{view['id']}/advance").status_code == 409
    assert client.post(f"/api/games/{view['id']}/undo").status_code == 409


def test_uploads_are_size_limited(client):
    r = client.post("/api/records", json={"text": "x" * (3 << 20)})           # refused unread
    assert r.status_code == 413 and "KiB" in r.json()["error"]
    r = client.post("/api/positions/check", json={"text": " " * (3 << 19), "name": "big.json"})   # 1.5 MiB
    assert r.status_code == 413 and "big.json" in r.json()["error"]


def test_a_record_reviewed_with_its_chances(client):
    view = client.post("/api/games", json={"players": 2, "ai": ["heuristic"], "rounds": 1, "seed": 6}).json()
    play_out(client, view)
    summary = client.post(f"/api/games/{view['id']}/review").json()
    rid = summary["id"]
    assert summary["moves"] and summary["finished"]
    start = client.get(f"/api/records/{rid}/board?to=0").json()
    end = client.get(f"/api/records/{rid}/board?to={summary['actions']}").json()
    assert start["board"] != end["board"] and "scores" in end
    assert client.get(f"/api/records/{rid}/board?to=999999").status_code == 422
    with client.stream("POST", f"/api/records/{rid}/chances") as r:
        out = lines(r)
    chances = out[-1]["result"]
    points = chances["points"]
    assert all(len(p["values"]) == 2 and abs(sum(p["values"]) - 1) < 0.05 for p in points)
    assert points[-1]["to"] == summary["actions"] and sorted(points[-1]["values"]) in ([0, 1], [0.5, 0.5])
    # The record downloads as the file the command line replays.
    assert load_record(json.loads(client.get(f"/api/records/{rid}/download").text))
    bad = client.post("/api/records", json={"text": json.dumps({"format": "gutenberg-record"}), "name": "r.json"})
    assert bad.status_code == 422 and len(bad.json()["problems"]) > 1


def test_the_store_drops_the_least_recently_used(client):
    ids = [client.post("/api/games", json={"players": 2, "ai": ["random"], "seed": k}).json()["id"] for k in range(5)]
    assert client.get(f"/api/games/{ids[0]}").status_code == 404      # 4 games at most
    assert all(client.get(f"/api/games/{i}").status_code == 200 for i in ids[1:])


def test_stop_ends_a_search_at_once(client):
    """A hint of 60 s, stopped once it reports progress (so it is certainly running): the
    stream ends within seconds with the search stopped, and the game is free again."""
    view = client.post("/api/games", json={"players": 2, "ai": ["heuristic"], "seed": 8}).json()
    gid = view["id"]
    started = time.monotonic()
    with client.stream("POST", f"/api/games/{gid}/hint", json={"seconds": 60}) as r:
        events = (json.loads(x) for x in r.iter_lines() if x)
        for event in events:
            if event["event"] == "progress":
                break
        assert client.post(f"/api/games/{gid}/stop").json() == {"stopped": True}
        out = list(events)
    assert out[-1]["event"] == "error" and out[-1]["status"] == 499
    assert time.monotonic() - started < 30
    for _ in range(50):
        if client.get(f"/api/games/{gid}").status_code == 200:
            break
        time.sleep(0.1)
    assert client.post(f"/api/games/{gid}/move", json={"action": view["moves"][0]["action"]}).status_code == 200


def test_a_stream_nobody_reads_stops_its_search():
    """The heartbeat: a search whose stream is not read (a closed page) stops."""
    app = create_app(Limits(workers=1, heartbeat=0.5))
    with TestClient(app) as c:
        view = c.post("/api/games", json={"players": 2, "ai": ["heuristic"], "seed": 8}).json()
        started = time.monotonic()
        with c.stream("POST", f"/api/games/{view['id']}/hint", json={"seconds": 60}) as r:
            next(r.iter_lines())           # one line, then the reader goes away
        while c.get(f"/api/games/{view['id']}").status_code == 409 or app.state.runner.active:
            assert time.monotonic() - started < 30, "the search went on"
            time.sleep(0.1)


def test_openapi_documents_the_api(client):
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/games", "/api/games/{game_id}/advance", "/api/positions/hint", "/api/records"} <= set(paths)
    assert client.get("/").status_code == 200 and "app.js" in client.get("/").text


def test_the_position_schemas_for_the_form(client):
    """The page's form is built from the schemas the command line checks files against."""
    from gutenberg_ai import games
    out = client.get("/api/positions/schemas").json()
    assert set(out) == {k for k, g in games.GAMES.items() if g.position_module}
    for key, g in games.GAMES.items():
        if not g.position_module:
            continue
        assert out[key]["format"] == g.position_format == g.positions.FORMAT
        assert out[key]["schema"] == g.positions.position_schema()


@pytest.mark.parametrize("key", list(games.GAMES))
def test_a_learned_ai_seat_plays_a_game_of_every_game(client, key):
    """The page's `learned` seat searches with the game's shipped weights."""
    view = client.post("/api/games", json={"game": key, "players": 2, "ai": ["learned"], "rounds": 1,
                                           "iterations": 20, "seed": 5}).json()
    assert view["status"] in ("human", "ai"), view
    end = play_out(client, view)
    assert end["status"] == "end"
    record = json.loads(client.get(f"/api/games/{view['id']}/record?full=true").text)
    assert [seat["player"] for seat in record["seats"]] == ["human", "learned"]
    assert replay(load_record(record)).is_terminal()
