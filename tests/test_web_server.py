"""The API against a real server (`gutenberg-ai serve --port 0` in a process of its own,
uvicorn on 127.0.0.1) through a plain HTTP client: the streamed searches end, are
bounded in time whatever their iteration budget, stop when asked, and stop when their
reader goes away. Every stream is read against a deadline, so a stream that does not
end fails the test instead of hanging it.
"""
import json
import time

import pytest

httpx = pytest.importorskip("httpx", reason="httpx is not installed (pip install -e .[test])")
pytest.importorskip("uvicorn", reason="uvicorn is not installed (pip install -e .[test])")

from web_server import running_server  # noqa: E402

MAX_SECONDS = 1.0      # the server's cap on a search (serve --max-seconds)
DEADLINE = 60.0        # a stream not over by then is a failure (the cap + a loaded machine)
LONG = 120.0           # the long server's cap: well over DEADLINE


@pytest.fixture(scope="module")
def server():
    with running_server("--workers", "2", "--max-seconds", str(MAX_SECONDS)) as (url, log):
        server.log = log
        yield url
        assert "Traceback" not in log(), log()


@pytest.fixture(scope="module")
def long_server():
    """A server whose searches may run two minutes: long enough that a stop or a reader
    gone, not the cap, ends them."""
    with running_server("--workers", "2", "--max-seconds", str(LONG)) as (url, log):
        yield url
        assert "Traceback" not in log(), log()


@pytest.fixture()
def client(server):
    with httpx.Client(base_url=server, timeout=DEADLINE) as c:
        yield c


def read_stream(client, url, body=None, deadline=DEADLINE, stop_after=None):
    """The JSON lines of a streamed answer, failing if it has not ended within
    `deadline` seconds; with `stop_after`, the reader goes away after that many lines."""
    end = time.monotonic() + deadline
    out = []
    with client.stream("POST", url, json=body or {}) as r:
        assert r.status_code == 200, r.read()
        assert r.headers["content-type"].startswith("application/x-ndjson")
        for line in r.iter_lines():
            if line:
                out.append(json.loads(line))
            if stop_after is not None and len(out) >= stop_after:
                return out
            if out and out[-1]["event"] in ("done", "error"):
                return out
            if time.monotonic() > end:
                pytest.fail(f"{url}: the stream did not end within {deadline:g} s ({len(out)} lines, "
                            f"the last {out[-1] if out else None})")
    pytest.fail(f"{url}: the stream was cut without a last line ({len(out)} lines)")


def new_game(client, **settings):
    body = {"game": "printing-press", "players": 2, "rounds": 1, "ai": ["smmcts"], "seed": 1, **settings}
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def to_ai(client, view):
    """Play the person's first moves until the AI is to move."""
    while view["status"] == "human":
        view = client.post(f"/api/games/{view['id']}/move", json={"action": view["moves"][0]["action"]}).json()
    assert view["status"] == "ai"
    return view


def test_an_ai_move_streams_progress_and_ends(client):
    """The load test's path: an AI move at 300 iterations over real HTTP ends with the
    game after the move, as progress lines then one done."""
    view = to_ai(client, new_game(client, iterations=300))
    out = read_stream(client, f"/api/games/{view['id']}/advance")
    assert out[-1]["event"] == "done", out[-1]
    assert all(line["event"] in ("progress", "queued") for line in out[:-1])
    after = out[-1]["result"]
    assert after["actions"] > view["actions"] and after["id"] == view["id"]
    counted = [line["iterations"] for line in out if line["event"] == "progress" and "iterations" in line]
    assert counted == sorted(counted) and counted and counted[-1] <= 300


def test_an_iteration_budget_is_bounded_in_time(client, server):
    """An AI at the server's largest iteration budget (200,000: many minutes of search
    here) moves within the server's time cap; a hint likewise."""
    view = to_ai(client, new_game(client, iterations=200_000))
    started = time.monotonic()
    out = read_stream(client, f"/api/games/{view['id']}/advance")
    assert out[-1]["event"] == "done", out[-1]
    counted = [line["iterations"] for line in out if "iterations" in line]
    assert counted and counted[-1] < 200_000
    assert out[-1]["result"]["status"] in ("human", "ai", "end")
    view = out[-1]["result"]
    while view["status"] == "ai":
        view = read_stream(client, f"/api/games/{view['id']}/advance")[-1]["result"]
    if view["status"] == "human":
        out = read_stream(client, f"/api/games/{view['id']}/hint", {"iterations": 200_000, "top": 2})
        result = out[-1]["result"]
        assert 0 < result["iterations"] < 200_000
        assert result["budget"] == {"iterations": 200_000, "seconds": MAX_SECONDS}
    assert time.monotonic() - started < DEADLINE


def test_stop_ends_the_stream_and_frees_the_game(long_server):
    """A hint of two minutes, stopped: the stream ends with 499 and the game is free."""
    client = httpx.Client(base_url=long_server, timeout=DEADLINE)
    view = new_game(client, ai=["heuristic"])
    assert view["status"] == "human"
    gid = view["id"]
    end = time.monotonic() + DEADLINE
    with client.stream("POST", f"/api/games/{gid}/hint", json={"seconds": LONG, "top": 2}) as r:
        lines = r.iter_lines()
        first = json.loads(next(lines))
        assert first["event"] in ("progress", "queued")
        assert client.post(f"/api/games/{gid}/stop").json() == {"stopped": True}
        last = first
        for line in lines:
            if line:
                last = json.loads(line)
            assert time.monotonic() < end, "the stopped stream did not end"
    assert last["event"] == "error" and last["status"] == 499, last
    r = client.post(f"/api/games/{gid}/move", json={"action": view["moves"][0]["action"]})
    assert r.status_code == 200, r.text
    client.close()


def test_a_reader_gone_frees_the_game(long_server):
    """A page closed mid-search: the connection goes, the two-minute search stops (the
    heartbeat, 3 s) and the game takes requests again long before the two minutes."""
    server = long_server
    with httpx.Client(base_url=server, timeout=DEADLINE) as c:
        view = new_game(c, ai=["heuristic"])
        gid = view["id"]
        page = c.cookies          # the page's cookie: its games are its own
    with httpx.Client(base_url=server, timeout=DEADLINE, cookies=page) as gone:
        # A hint as long as the server allows, given up after two lines.
        out = read_stream(gone, f"/api/games/{gid}/hint", {"seconds": LONG}, stop_after=2)
        assert out[-1]["event"] in ("progress", "queued")
    with httpx.Client(base_url=server, timeout=DEADLINE, cookies=page) as c:
        end = time.monotonic() + DEADLINE
        while True:
            r = c.post(f"/api/games/{gid}/move", json={"action": view["moves"][0]["action"]})
            if r.status_code != 409:
                break
            assert time.monotonic() < end, "the game stayed busy after its reader went away"
            time.sleep(0.2)
        assert r.status_code == 200, r.text
