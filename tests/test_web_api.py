"""The web page's JSON API through FastAPI's TestClient: games against the AI driven to
their end for every game of the games table, the person's moves (an action, a plan as
numbers), undo, hints, downloads the command line reads back, positions and records
through the command line's loaders with every problem named, the limits (sizes,
budgets, stores), and stopping a search."""
import contextlib
import json
import time

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")
from fastapi.testclient import TestClient  # noqa: E402

from gutenberg_ai import games  # noqa: E402
from gutenberg_ai.games.positionfile import load_position  # noqa: E402
from gutenberg_ai.games.records import load_record, replay  # noqa: E402
from gutenberg_ai.interfaces.web.app import create_app  # noqa: E402
from gutenberg_ai.interfaces.web.sessions import Limits  # noqa: E402

import pathlib  # noqa: E402
POSITIONS = pathlib.Path(games.get("gutenberg").positions.__file__).parent / "data" / "positions"


from web_client import page_client  # noqa: E402


@pytest.fixture
def client():
    with page_client(create_app(Limits(workers=2, max_games=8, max_records=4, games_per_page=4))) as c:
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


def test_undo_is_refused_once_the_game_is_over(client):
    """The result is final: once the game has ended the view says no undo, and the API
    refuses it (409, as a move on a finished game) and leaves the game as it was."""
    view = client.post("/api/games", json={"players": 2, "ai": ["heuristic"], "rounds": 1, "seed": 4}).json()
    end = play_out(client, view)
    assert end["can_undo"] is False
    r = client.post(f"/api/games/{view['id']}/undo")
    assert r.status_code == 409 and "over" in r.json()["error"], r.json()
    after = client.get(f"/api/games/{view['id']}").json()
    assert after["status"] == "end" and after["actions"] == end["actions"]


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
    assert bad.json()["problems"] == [{"where": "numbers", "reason": bad.json()["error"]}]
    before = view["actions"]
    after = client.post(f"/api/games/{gid}/move", json={"numbers": entry["example"]}).json()
    assert after["actions"] > before
    assert any("you:" in e["text"] for e in after["events"])
    undone = client.post(f"/api/games/{gid}/undo").json()
    assert undone["board"]["entry"] == entry and undone["actions"] == before


def test_the_server_s_time_limit_bounds_the_default_budget_too():
    """`serve --max-seconds`: "the longest search, an AI move or a hint, whatever its
    budget", the default budget of a request that gives none included."""
    with page_client(create_app(Limits(workers=1, max_games=4, max_records=4, max_hint_seconds=0.2,
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


def test_a_new_game_s_bad_setting_is_a_problem_at_its_field(client):
    """A setting the game refuses (out of its range, one it does not have) is a problem
    at that field, as a field the request model refuses is: the page shows it there."""
    for body, where in (({"game": "lead-letter-printers", "players": 1}, "players"),
                        ({"game": "lead-letter-printers", "characters": True}, "characters"),
                        ({"rounds": 8}, "rounds"), ({"game": "printing-press", "variant": "x"}, "variant"),
                        ({"players": 2, "seat": 3}, "seat"), ({"ai": ["random", "random"]}, "ai")):
        r = client.post("/api/games", json=body)
        assert r.status_code == 422, body
        assert [p["where"] for p in r.json()["problems"]] == [where], (body, r.json())
        assert r.json()["error"].startswith(where + ": ")


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


def test_a_hint_whose_time_ran_out_before_an_iteration_shares_nothing(client):
    text = (POSITIONS / "plan-round1-2p.json").read_text()
    with client.stream("POST", "/api/positions/hint", json={"text": text, "seconds": 1e-320}) as r:
        result = lines(r)[-1]["result"]
    assert result["iterations"] == 0 and result["hints"]
    assert {h["share"] for h in result["hints"]} == {0.0}
    # The page says so in the terminal's words (one sentence, from the search's hints).
    assert result["notice"].startswith("Nothing was searched: the search's time ran out")
    with client.stream("POST", "/api/positions/hint", json={"text": text, "iterations": 20}) as r:
        assert lines(r)[-1]["result"]["notice"] is None


def test_a_bad_position_gets_every_problem_with_its_field(client):
    data = json.loads((POSITIONS / "plan-round1-2p.json").read_text())
    data["round"] = 9
    data["players"][0]["guilders"] = -3
    r = client.post("/api/positions/check", json={"text": json.dumps(data), "name": "mine.json"})
    assert r.status_code == 422
    where = {p["where"] for p in r.json()["problems"]}
    assert {"round", "players[0].guilders"} <= where
    assert r.json()["error"].startswith("mine.json: "), r.json()      # the upload's name, not "position"
    for text, expect in (("{", "JSON"), ("[]", ""), ('{"format": "gutenberg-record"}', "record")):
        r = client.post("/api/positions/check", json={"text": text})
        assert r.status_code == 422 and expect in r.json()["error"], r.json()
    # Another of the program's files is pointed to where the page takes it, not to a command.
    r = client.post("/api/positions/check", json={"text": '{"format": "gutenberg-record"}'})
    assert "this is a game record, not a position (upload it under Review" in r.json()["error"], r.json()
    r = client.post("/api/records", json={"text": (POSITIONS / "plan-round1-2p.json").read_text(), "name": "p.json"})
    assert r.status_code == 422 and "this is a position, not a game record (upload it under Your table)" \
        in r.json()["error"], r.json()


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
    bad = client.post(f"/api/games/{view['id']}/move", json={"action": 10**6})
    assert bad.status_code == 422 and [p["where"] for p in bad.json()["problems"]] == ["action"]
    for body, reason in (({}, "give an action or numbers"),
                         ({"action": 1, "numbers": [1]}, "give an action or numbers, not both")):
        bad = client.post(f"/api/games/{view['id']}/move", json=body)
        assert bad.status_code == 422 and bad.json()["problems"] == [{"where": "action", "reason": reason}]
    assert client.post(f"/api/games/{view['id']}/advance").status_code == 409
    assert client.post(f"/api/games/{view['id']}/undo").status_code == 409


def test_uploads_are_size_limited(client):
    r = client.post("/api/records", json={"text": "x" * (3 << 20)})           # refused unread
    assert r.status_code == 413
    # Chunked, with no Content-Length: refused as it comes, once over the limit.
    chunks = (b'{"text": "' + b"x" * (1 << 16) for _ in range(64))            # 4 MiB
    r = client.post("/api/records", content=chunks, headers={"content-type": "application/json"})
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
    past = client.get(f"/api/records/{rid}/board?to=999999")
    assert past.status_code == 422 and [p["where"] for p in past.json()["problems"]] == ["to"]
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
    assert all(line.startswith("r.json: ") for line in bad.json()["error"].splitlines()), bad.json()


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


@contextlib.contextmanager
def hint_under_way(client):
    """A new game with a 60-second hint searching (it has reported progress): its view."""
    view = client.post("/api/games", json={"players": 2, "ai": ["heuristic"], "seed": 8}).json()
    with client.stream("POST", f"/api/games/{view['id']}/hint", json={"seconds": 60}) as r:
        for line in r.iter_lines():
            if line and json.loads(line)["event"] == "progress":
                break
        yield view


def test_a_move_right_after_stop_waits_for_the_search_to_end(client):
    """Stop, then at once a move (as a person clicks Undo or a move right after Stop):
    the search told to stop is waited for, not answered 409 (busy)."""
    with hint_under_way(client) as view:
        gid = view["id"]
        assert client.post(f"/api/games/{gid}/stop").json() == {"stopped": True}
        moved = client.post(f"/api/games/{gid}/move", json={"action": view["moves"][0]["action"]})
        assert moved.status_code == 200, moved.json()


def test_a_hint_right_after_stop_waits_for_the_search_to_end(client):
    """Stop, then at once another search (Continue, or a hint, right after Stop): it waits
    for the stopped one to end instead of 409 (busy); a search not told to stop is still
    refused at once."""
    with hint_under_way(client) as view:
        gid = view["id"]
        assert client.post(f"/api/games/{gid}/hint", json={"iterations": 10}).status_code == 409
        assert client.post(f"/api/games/{gid}/stop").json() == {"stopped": True}
        again = client.post(f"/api/games/{gid}/hint", json={"iterations": 10})
        assert again.status_code == 200 and json.loads(again.text.splitlines()[-1])["event"] == "done", again.text


def test_a_stream_nobody_reads_stops_its_search():
    """The heartbeat: a search whose stream is not read (a closed page) stops."""
    app = create_app(Limits(workers=1, heartbeat=0.5))
    with page_client(app) as c:
        view = c.post("/api/games", json={"players": 2, "ai": ["heuristic"], "seed": 8}).json()
        started = time.monotonic()
        with c.stream("POST", f"/api/games/{view['id']}/hint", json={"seconds": 60}) as r:
            next(r.iter_lines())           # one line, then the reader goes away
        while c.get(f"/api/games/{view['id']}").status_code == 409 or app.state.runner.active:
            assert time.monotonic() - started < 30, "the search went on"
            time.sleep(0.1)


def test_the_page_has_its_icon(client):
    """The page names its icon, which is served (the browser asked for a missing one)."""
    assert '<link rel="icon" href="/static/favicon.svg"' in client.get("/").text
    r = client.get("/static/favicon.svg")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert len(r.content) < 1024


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


# ---------------------------------------------------------------------------------------
# A server: pages own what they made, the Host is checked, the usual headers, budgets
# ---------------------------------------------------------------------------------------
def test_games_and_records_belong_to_the_page_that_made_them():
    """Another page (another browser's cookie) does not see a page's records in the list,
    and every request on another page's game or record is a 404, as for an unknown id."""
    app = create_app(Limits(workers=1))
    with page_client(app) as mine, page_client(app) as other:
        view = mine.post("/api/games", json={"players": 2, "ai": ["heuristic"], "rounds": 1, "seed": 6}).json()
        gid = view["id"]
        rid = mine.post(f"/api/games/{gid}/review").json()["id"]
        assert [r["id"] for r in mine.get("/api/records").json()] == [rid]
        assert other.get("/api/records").json() == []
        for method, path in (("GET", f"/api/records/{rid}"), ("GET", f"/api/records/{rid}/board?to=0"),
                             ("GET", f"/api/records/{rid}/download"), ("POST", f"/api/records/{rid}/chances"),
                             ("GET", f"/api/games/{gid}"), ("GET", f"/api/games/{gid}/record?full=true"),
                             ("GET", f"/api/games/{gid}/position"), ("POST", f"/api/games/{gid}/undo"),
                             ("POST", f"/api/games/{gid}/stop"), ("POST", f"/api/games/{gid}/review"),
                             ("POST", f"/api/games/{gid}/hint"), ("DELETE", f"/api/games/{gid}")):
            r = other.request(method, path, json={} if method == "POST" else None)
            assert r.status_code == 404, (method, path, r.status_code)
        r = other.post(f"/api/games/{gid}/move", json={"action": view["moves"][0]["action"]})
        assert r.status_code == 404
        assert mine.get(f"/api/games/{gid}").status_code == 200          # still there, untouched
        assert mine.get(f"/api/records/{rid}/download").status_code == 200


def test_one_page_cannot_evict_another_s_games():
    """A page over its quota drops its own least recently used game; a full server
    refuses a new game (503) rather than drop another page's."""
    app = create_app(Limits(workers=1, max_games=5, games_per_page=2))
    body = {"players": 2, "ai": ["random"], "seed": 1}
    with page_client(app) as mine, page_client(app) as greedy:
        kept = mine.post("/api/games", json=body).json()["id"]
        many = [greedy.post("/api/games", json=body).json()["id"] for _ in range(6)]
        assert [greedy.get(f"/api/games/{g}").status_code for g in many] == [404] * 4 + [200] * 2
        assert mine.get(f"/api/games/{kept}").status_code == 200
        others = [page_client(app) for _ in range(3)]
        answers = [c.post("/api/games", json=body).status_code for c in others]
        assert answers == [201, 201, 503]                    # 1 + 2 + 2 held: the server is full
        assert mine.get(f"/api/games/{kept}").status_code == 200
        for c in others:
            c.close()


def test_the_host_header_is_checked():
    """A loopback server answers to loopback names only: a page of another site whose
    name was made to point here (DNS rebinding) gets 400."""
    app = create_app(Limits(workers=1))
    for base in ("http://127.0.0.1:8000", "http://localhost", "http://[::1]:8000"):
        with TestClient(app, base_url=base) as c:
            assert c.get("/api/info").status_code == 200, base
    for base in ("http://evil.example", "http://127.0.0.1.evil.example:8000", "http://192.168.1.9"):
        with TestClient(app, base_url=base) as c:
            assert c.get("/api/info").status_code == 400, base
            assert c.post("/api/games", json={}).status_code == 400, base


def test_the_hosts_a_server_answers_to():
    from gutenberg_ai.interfaces.web.app import LOOPBACK, allowed_hosts
    for bind in ("127.0.0.1", "127.0.0.2", "::1", "localhost"):
        assert allowed_hosts(bind, "box.lan") == list(LOOPBACK), bind
    assert allowed_hosts("192.168.1.5", "box.lan, Print.Example") == \
        [*LOOPBACK, "box.lan", "print.example", "192.168.1.5"]
    assert allowed_hosts("fd00::5") == [*LOOPBACK, "[fd00::5]"]
    import socket
    assert socket.gethostname().lower() in allowed_hosts("0.0.0.0")


def test_every_answer_has_the_security_headers(client):
    for path in ("/", "/static/app.js", "/api/info", "/api/games/nope", "/docs"):
        r = client.get(path)
        assert r.headers["x-content-type-options"] == "nosniff", path
        assert r.headers["x-frame-options"] == "DENY", path
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"], path
    head = client.head("/")      # a monitor's check of the page
    assert head.status_code == 200 and head.content == b"" and head.headers["x-frame-options"] == "DENY"
    policy = client.get("/").headers["content-security-policy"]
    assert "script-src 'self';" in policy and "unsafe-inline" not in policy


BAD_SECONDS = ("NaN", "Infinity", "-Infinity", "-1", "0", "1e400")
BAD_ITERATIONS = (str(2**63), str(2**64), "0", "-5")


def game_at_a_decision(c):
    view = c.post("/api/games", json={"players": 2, "ai": ["heuristic"], "rounds": 1, "seed": 3}).json()
    assert view["status"] == "human"
    return view["id"]


@pytest.mark.parametrize("field,raw", [("seconds", x) for x in BAD_SECONDS] +
                         [("iterations", x) for x in BAD_ITERATIONS] + [("threads", "4")])
def test_a_bad_budget_is_refused_before_any_work(client, field, raw):
    """A search's time or iterations that is not a finite positive number or that no C
    long holds (or a thread count: no request takes one) is a 422 naming the field, at
    every request that takes a budget; a position hint refuses it before it reads the
    position (this one is not even a position)."""
    gid = game_at_a_decision(client)
    for path, rest in (("/api/games", ""), (f"/api/games/{gid}/hint", ""),
                       ("/api/positions/hint", '"text": "{}", ')):
        r = client.post(path, content="{%s\"%s\": %s}" % (rest, field, raw),
                        headers={"content-type": "application/json"})
        assert r.status_code == 422, (path, raw, r.text)
        assert [p["where"] for p in r.json()["problems"]] == [field], (path, raw, r.json())
        if raw in ("NaN", "Infinity", "-Infinity", "1e400"):
            assert "finite" in r.json()["error"], (path, raw, r.json())


def test_a_budget_over_the_server_s_cap_is_refused_naming_that_cap(client):
    """Past the server's cap the message names the cap (60 s, 200,000 iterations here),
    however far past it: not a bound of the request's model (3600 s, 10**9) that the
    server would not take either."""
    gid = game_at_a_decision(client)
    for value in (61, 5000, 1e300):
        r = client.post(f"/api/games/{gid}/hint", json={"seconds": value})
        assert r.status_code == 422 and r.json()["error"] == f"seconds: {value:g} is over this server's 60", r.json()
    for value in (200_001, 10**12):
        r = client.post("/api/positions/hint", json={"text": "{}", "iterations": value})
        assert r.status_code == 422 and r.json()["error"] == f"iterations: {value} is over this server's 200000", r.json()


def test_a_game_s_position_downloads_as_the_command_line_reads_it(client):
    """GET /api/games/{id}/position: at the person's plan, the position file (an
    attachment) that `gutenberg-ai hint` reads, at the same decision with the same
    moves; in the setup and at the end, which no position records, 409 saying why;
    another id, 404; a game held by a change that does not end (a move), 409 after the
    wait."""
    setup = client.post("/api/games", json={"players": 2, "ai": ["heuristic"], "rounds": 1, "seed": 3}).json()
    r = client.get(f"/api/games/{setup['id']}/position")
    assert r.status_code == 409 and "setup" in r.json()["error"], r.json()
    view = client.post("/api/games", json={"players": 2, "ai": ["heuristic"], "rounds": 1, "seed": 3,
                                           "characters": False}).json()
    gid = view["id"]
    while not (view["status"] == "human" and view["board"].get("entry")):      # the setup's draft, to the plan
        view = advance(client, gid) if view["status"] == "ai" else \
            client.post(f"/api/games/{gid}/move", json={"action": view["moves"][0]["action"]}).json()
    r = client.get(f"/api/games/{gid}/position")
    assert r.status_code == 200, r.text
    assert r.headers["content-disposition"] == 'attachment; filename="gutenberg-position.json"'
    g, pos = load_position(json.loads(r.text))
    assert g.key == "gutenberg" and pos.current_player == view["seat"]
    assert sorted(pos.state.legal_actions()) == sorted(m["action"] for m in view["moves"])
    assert client.get("/api/games/nope/position").status_code == 404
    web = client.app.state.games.items[gid]
    with web.lock:                                   # a change holds the game
        r = client.get(f"/api/games/{gid}/position")
        assert r.status_code == 409 and "busy" in r.json()["error"], r.json()
    end = play_out(client, view)
    assert end["status"] == "end"
    r = client.get(f"/api/games/{gid}/position")
    assert r.status_code == 409 and r.json()["error"].startswith("not a decision a position file records")


def test_an_ai_move_s_event_carries_what_it_weighed(client):
    """After an AI move the game's state has its line (the chance to win with its interval)
    and, with it, the hints its search kept (`why`, as a hint's answer has them), taken
    from the record: nothing is searched again to show them."""
    view = client.post("/api/games", json={"game": "printing-press", "players": 2, "ai": ["smmcts"],
                                           "iterations": 60, "rounds": 1, "seed": 4}).json()
    gid = view["id"]
    for _ in range(40):
        whys = [e for e in view["events"] if "why" in e]
        if whys:
            break
        view = advance(client, gid) if view["status"] == "ai" else \
            client.post(f"/api/games/{gid}/move", json={"action": view["moves"][0]["action"]}).json()
    assert whys, "no AI move was searched"
    event = whys[0]
    assert "chance to win" in event["text"] and "(why 1: what it weighed)" in event["text"]
    why = event["why"]
    assert why["title"].startswith("AI move 1: player 1 (smmcts) played") and why["solo"] is False
    record = load_record(json.loads(client.get(f"/api/games/{gid}/record?full=true").text))
    kept = [e["hints"] for e in record["actions"] if e.get("hints")][0]
    assert {k: why[k] for k in kept} == kept
    assert {"action", "text", "share", "win_probability", "interval", "standing", "line"} <= set(why["hints"][0])


def test_the_page_s_why_and_record_do_not_name_the_ai_s_setup_tokens(client):
    """Printing Press: an AI move weighed against placing setup tokens from its hand
    (the person has not seen them) comes to the page, and in the record the person saves,
    with its own move only; the record with everything keeps the whole list."""
    view = client.post("/api/games", json={"game": "printing-press", "players": 2, "ai": ["smmcts"],
                                           "iterations": 60, "rounds": 1, "seed": 4}).json()
    gid, whys = view["id"], []
    for _ in range(200):
        whys += [e["why"] for e in view["events"] if "why" in e]
        if any(w.get("others_hidden") for w in whys) or view["status"] == "end":
            break
        view = advance(client, gid) if view["status"] == "ai" else \
            client.post(f"/api/games/{gid}/move", json={"action": view["moves"][0]["action"]}).json()
    hidden = [w for w in whys if w.get("others_hidden")]
    assert hidden and all(len(w["hints"]) <= 1 and "stay hidden" in w["title"] for w in hidden)
    assert not any("setup token" in h["text"] for w in hidden for h in w["hints"])
    full = json.loads(client.get(f"/api/games/{gid}/record?full=true").text)
    seen = json.loads(client.get(f"/api/games/{gid}/record").text)
    weighed = [(a, b) for a, b in zip(full["actions"], seen["actions"]) if a.get("hints")]
    assert any(any("setup token" in h["text"] for h in a["hints"]["hints"]) for a, _ in weighed)
    assert not any("setup token" in h["text"] for _, b in weighed if b.get("hints") for h in b["hints"]["hints"])


def test_a_look_at_a_game_during_a_search_is_answered_at_once_with_its_view(client):
    """GET on a game a search holds: 200 at once with the view from the search's start,
    marked searching (not a wait, then 409); events still count from `since`; once the
    search ends, the view is the game's own again."""
    with hint_under_way(client) as view:
        gid = view["id"]
        started = time.monotonic()
        r = client.get(f"/api/games/{gid}")
        assert r.status_code == 200, r.json()
        assert time.monotonic() - started < 2.0
        seen = r.json()
        assert seen["searching"] is True and seen["status"] == "human"
        assert [m["action"] for m in seen["moves"]] == [m["action"] for m in view["moves"]]
        assert seen["board"] == view["board"]
        last = seen["events"][-1]["n"]
        assert [e["n"] for e in client.get(f"/api/games/{gid}?since={last}").json()["events"]] == [last]
        assert client.post(f"/api/games/{gid}/stop").json() == {"stopped": True}
    deadline = time.monotonic() + 30
    while (after := client.get(f"/api/games/{gid}").json())["searching"]:
        assert time.monotonic() < deadline, "the search went on"
        time.sleep(0.05)
    assert after["status"] == "human" and after["moves"] == view["moves"]
    assert client.get(f"/api/games/{gid}?since=-1").status_code == 422


def test_downloads_during_a_search_are_the_game_as_the_search_found_it(client):
    """The record (as seen and whole) and the position asked for while a hint searches:
    answered at once, as once it has ended (a hint changes nothing): the records, and
    for the position the setup's refusal (no position file records the setup), each
    made once for the search (a second ask gives the same)."""
    paths = ["record", "record?full=true", "position"]
    with hint_under_way(client) as view:
        gid = view["id"]
        started = time.monotonic()
        during = [client.get(f"/api/games/{gid}/{path}") for path in paths]
        assert time.monotonic() - started < 5.0
        assert [r.status_code for r in during] == [200, 200, 409], [r.text for r in during]
        assert "setup" in during[2].json()["error"]
        assert client.get(f"/api/games/{gid}/record").content == during[0].content
        assert client.get(f"/api/games/{gid}").json()["searching"] is True     # still searching
        assert client.post(f"/api/games/{gid}/stop").json() == {"stopped": True}
    deadline = time.monotonic() + 30
    while client.get(f"/api/games/{gid}").json()["searching"]:
        assert time.monotonic() < deadline, "the search went on"
        time.sleep(0.05)
    after = [client.get(f"/api/games/{gid}/{path}") for path in paths]
    assert [(r.status_code, r.content) for r in after] == [(r.status_code, r.content) for r in during]
    assert json.loads(during[0].content)["actions"] and json.loads(during[1].content)["seed"] == 8


def test_a_frozen_game_keeps_its_downloads_as_they_were_when_the_search_began(client):
    """An AI's search plays its move before it ends: what a download gets meanwhile is
    made of copies taken when the search began, which the move leaves as they were."""
    view = client.post("/api/games", json={"players": 2, "ai": ["heuristic"], "seed": 8,
                                           "characters": False}).json()
    gid = view["id"]
    while not (view["status"] == "human" and view["board"].get("entry")):      # the setup's draft, to the plan
        view = advance(client, gid) if view["status"] == "ai" else \
            client.post(f"/api/games/{gid}/move", json={"action": view["moves"][0]["action"]}).json()
    web = client.app.state.games.items[gid]
    with web.lock:
        web.freeze()
        before = len(web.session.record.actions)
        web.human(view["moves"][0]["action"])        # the game moves on, as the AI's move would
        assert len(web.session.record.actions) > before
        frozen = web.frozen
        record = frozen.made(("record", True), lambda played: played.record_data(True))
        assert len(record["actions"]) == before
        assert frozen.made(("record", True), lambda played: None) is record    # made once
        position = frozen.made("position", lambda played: played.position())
        g, pos = load_position(position)
        assert sorted(pos.state.legal_actions()) == sorted(m["action"] for m in view["moves"])
        web.thaw()
    assert web.frozen is None


def raw(client, path, body: str):
    return client.post(path, content=body, headers={"content-type": "application/json"})


@pytest.mark.parametrize("body,where", [
    ('{"players": true}', "players"),              # a boolean is not a count
    ('{"players": "2"}', "players"),
    ('{"iterations": 1e3}', "iterations"),         # not a whole number as JSON writes it
    ('{"seconds": "1"}', "seconds"),
    ('{"characters": "no"}', "characters"),
    ('{"players": 1, "ai": ["smmcts", "random"]}', "ai"),   # solo: no AI seat to name two bots for
    ('{', "request body"),
    ('{"a": 1,}', "request body"),
    ('{"ai": ' + "[" * 1000 + "]" * 1000 + "}", "request body"),   # nested past the parser
    ('{"players": 2, "players": 3}', "request body"),   # json.loads kept the last: a game of 3
])
def test_a_new_game_of_wrong_types_or_bad_json_is_refused_naming_where(client, body, where):
    """Values of the wrong JSON type are refused, not converted (true is not 1, "2" not 2);
    a body that is not JSON, nested past the parser or giving a key twice is the request
    body's problem: 422 naming where, and no game."""
    r = raw(client, "/api/games", body)
    assert r.status_code == 422, r.text
    assert r.json()["problems"] and r.json()["problems"][0]["where"] == where, r.json()


def test_a_hint_with_no_body_takes_every_default(client):
    view = client.post("/api/games", json={"players": 2, "ai": ["heuristic"], "seed": 8}).json()
    r = client.post(f"/api/games/{view['id']}/hint")
    assert r.status_code == 200 and json.loads(r.text.splitlines()[-1])["event"] == "done", r.text


@pytest.mark.parametrize("names,why", [
    (["\u001b[31mT", "Ann"], "control character"),
    (["a\nb", "Ann"], "control character"),
    (["\u202eevil", "Ann"], "direction character"),
    (["a\u200eb", "Ann"], "direction character"),
    (["a\u2028b", "Ann"], "line separator"),
    (["   ", "Ann"], "spaces only"),
    (["\u200b", "Ann"], "nothing to read"),
    (["\u3164\ufeff", "Ann"], "nothing to read"),
    (["\u0301", "Ann"], "nothing to read"),
    (["chance", "Ann"], "how the log names the draws"),
    (["player 1", "Ann"], "how the table names seat 1"),
])
def test_a_followed_games_names_are_plain_text(client, names, why):
    """The names a followed game's record will keep must be names a record may hold (the
    record's loader refuses the rest): 422 at the name, no followed game."""
    r = client.post("/api/tables", json={"game": "printing-press", "names": names})
    assert r.status_code == 422 and r.json()["problems"][0]["where"] == "names.0" and why in r.json()["error"], r.json()


def test_a_lone_surrogate_in_a_files_name_is_refused_and_nothing_kept(client):
    """A JSON escape of half a surrogate pair (\\ud800) is no text: in a position's player
    name, a record's seat: 422 naming the field (not a 500 while echoing it), and nothing
    stored."""
    path = pathlib.Path(games.get("gutenberg").data_folder) / "positions" / "plan-round1-2p.json"
    bad = path.read_text().replace('"Anna"', '"\\ud800"', 1)
    assert bad != path.read_text()
    r = client.post("/api/positions/check", json={"text": bad, "name": "p.json"})
    assert r.status_code == 422 and "players[0].name" in r.json()["error"] and "surrogate" in r.json()["error"]
    r = client.post("/api/tables", json={"position": bad})
    assert r.status_code == 422 and "surrogate" in r.json()["error"]
    view = client.post("/api/games", json={"players": 2, "ai": ["random"], "seed": 1}).json()
    record = json.loads(client.get(f"/api/games/{view['id']}/record").text)
    record["seats"][1]["player"] = "\ud800"
    r = client.post("/api/records", json={"text": json.dumps(record), "name": "s.json"})
    assert r.status_code == 422 and "seats[1].player" in r.json()["error"]
    assert client.get("/api/records").json() == []


def test_a_move_made_on_an_old_view_is_refused_not_played_at_the_next_decision(client):
    """A double click (or a second tab) sends the move twice: the second carries the
    version of the game its view had and is refused, nothing played."""
    view = client.post("/api/games", json={"players": 2, "ai": ["heuristic"], "rounds": 1, "seed": 4}).json()
    gid = view["id"]
    while view["status"] != "human":
        view = advance(client, gid) if view["status"] == "ai" else client.get(f"/api/games/{gid}").json()
    body = {"action": view["moves"][0]["action"], "at": view["version"]}
    first = client.post(f"/api/games/{gid}/move", json=body)
    assert first.status_code == 200 and first.json()["version"] > view["version"]
    again = client.post(f"/api/games/{gid}/move", json=body)
    assert again.status_code == 409 and "changed since" in again.json()["error"]
    assert client.get(f"/api/games/{gid}").json()["actions"] == first.json()["actions"]


def test_a_move_made_before_an_undo_and_another_move_is_refused_though_the_count_is_the_same(client):
    """Another tab undoes and plays another move: as many actions as the first tab saw,
    but another decision, so the first tab's move is refused."""
    view = client.post("/api/games", json={"players": 2, "ai": ["heuristic"], "rounds": 1, "seed": 4}).json()
    gid = view["id"]
    while view["status"] != "human":
        view = advance(client, gid) if view["status"] == "ai" else client.get(f"/api/games/{gid}").json()
    moves = [m["action"] for m in view["moves"]]
    played = client.post(f"/api/games/{gid}/move", json={"action": moves[0], "at": view["version"]}).json()
    while played["status"] == "ai":
        played = advance(client, gid)
    first_tab = played                                   # the view the first tab has
    undone = client.post(f"/api/games/{gid}/undo").json()
    assert undone["actions"] == view["actions"]
    second = client.post(f"/api/games/{gid}/move", json={"action": moves[-1], "at": undone["version"]}).json()
    while second["status"] == "ai":
        second = advance(client, gid)
    assert second["actions"] == first_tab["actions"] and second["version"] != first_tab["version"]
    r = client.post(f"/api/games/{gid}/move", json={"action": first_tab["moves"][0]["action"],
                                                    "at": first_tab["version"]})
    assert r.status_code == 409
    assert client.get(f"/api/games/{gid}").json()["version"] == second["version"]     # nothing played


def test_an_entry_made_on_an_old_view_of_a_table_is_refused(client):
    view = client.post("/api/tables", json={"players": 2, "seed": 5}).json()
    tid = view["id"]
    assert view["entries"] == 0
    r = client.post(f"/api/tables/{tid}/entry", json={"number": 1, "at": view["version"]})
    assert r.status_code == 200 and r.json()["entries"] == 1
    r = client.post(f"/api/tables/{tid}/entry", json={"number": 1, "at": view["version"]})
    assert r.status_code == 409 and "changed since" in r.json()["error"]
    assert client.get(f"/api/tables/{tid}").json()["entries"] == 1


def test_an_entry_made_before_a_correction_is_refused_though_the_count_is_the_same(client):
    """Another tab corrects an earlier draw: as many entries, another menu; an entry
    by its number from the first tab's view is refused, not entered from the new menu."""
    view = client.post("/api/tables", json={"players": 2, "seed": 3, "rounds": 1}).json()
    tid = view["id"]
    for _ in range(3):
        view = client.post(f"/api/tables/{tid}/entry", json={"number": 1, "at": view["version"]}).json()
    first_tab = view
    options = client.get(f"/api/tables/{tid}").json()["options"]
    fixed = client.post(f"/api/tables/{tid}/fix", json={"entry": 1, "text": options[4]["text"],
                                                        "at": view["version"]})
    assert fixed.status_code == 200 and fixed.json()["entries"] == first_tab["entries"]
    r = client.post(f"/api/tables/{tid}/entry", json={"number": 5, "at": first_tab["version"]})
    assert r.status_code == 409
    now = client.get(f"/api/tables/{tid}").json()                  # nothing entered
    assert now["entries"] == first_tab["entries"] and now["version"] == fixed.json()["version"]


def test_printing_press_solo_made_harder_on_the_page(client):
    """The rulebook's three ways to make the solo game harder (p.17), in any combination:
    fields of a new game and a new table, kept in the game's record and shown in the
    board's heading; refused by name for another game or for more than one player."""
    view = client.post("/api/games", json={"game": "printing-press", "players": 1, "ai": ["heuristic"], "seed": 3,
                                           "hard_board": True, "automa_wins_ties": True}).json()
    assert "harder: automa wins ties, solo board 5-4-3-1" in view["board"]["heading"]
    game = json.loads(client.get(f"/api/games/{view['id']}/record").text)["game"]
    assert (game["hard_board"], game["automa_wins_ties"], game["one_token"]) == (True, True, False)
    table = client.post("/api/tables", json={"game": "printing-press", "players": 1, "one_token": True}).json()
    game = json.loads(client.get(f"/api/tables/{table['id']}/record").text)["game"]
    assert (game["hard_board"], game["automa_wins_ties"], game["one_token"]) == (False, False, True)
    r = client.post("/api/games", json={"game": "gutenberg", "players": 1, "hard_board": True})
    assert r.status_code == 422 and r.json()["problems"][0]["where"] == "hard_board"
    r = client.post("/api/tables", json={"game": "printing-press", "players": 3, "one_token": True})
    assert r.status_code == 422 and r.json()["problems"][0] == {
        "where": "one_token", "reason": "a solo difficulty option, but players is 3"}


def test_the_parameters_info_lists_are_taken_back_as_they_are(client):
    """Every game's parameters, as GET /api/info gives them (its defaults), start a game
    and a followed table: the automa as the request's flag, not the game's -1."""
    for g in client.get("/api/info").json()["games"]:
        parameters = g["parameters"]
        assert parameters.get("automa", False) is False
        r = client.post("/api/games", json={"game": g["key"], "ai": ["random"], "seed": 1, **parameters})
        assert r.status_code == 201, (g["key"], r.json())
        r = client.post("/api/tables", json={"game": g["key"], "seed": 1, **parameters})
        assert r.status_code == 201, (g["key"], r.json())


def test_the_settings_info_lists_are_those_a_new_game_takes(client):
    """GET /api/info's parameters of each game are the settings POST /api/games takes for
    it (the form shows those): Lead Letter Printers' factory piles face down among them,
    kept in the record; none the request would refuse (the returns, the catalogue)."""
    listed = {g["key"]: g["parameters"] for g in client.get("/api/info").json()["games"]}
    assert set(listed["lead-letter-printers"]) == {"players", "rounds", "factory_tops"}
    assert {"one_token", "automa_wins_ties", "hard_board", "variant"} <= set(listed["printing-press"])
    assert not any({"returns", "catalogue", "position"} & set(p) for p in listed.values())
    for key, parameters in listed.items():
        body = {"game": key, "players": 1 if key != "lead-letter-printers" else 2, "ai": ["random"], "seed": 1,
                **{k: v for k, v in parameters.items() if k not in ("players", "automa")}}
        r = client.post("/api/games", json=body)
        assert r.status_code == 201, (key, r.json())
    view = client.post("/api/games", json={"game": "lead-letter-printers", "ai": ["heuristic"], "seed": 3,
                                           "factory_tops": False}).json()
    assert json.loads(client.get(f"/api/games/{view['id']}/record").text)["game"]["factory_tops"] is False
    table = client.post("/api/tables", json={"game": "lead-letter-printers", "players": 3,
                                             "factory_tops": False}).json()
    assert json.loads(client.get(f"/api/tables/{table['id']}/record").text)["game"]["factory_tops"] is False
