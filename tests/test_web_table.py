"""At the table on the page: the web API of a followed game (gutenberg_ai.interfaces.table
through gutenberg_ai.interfaces.web) driven by FastAPI's TestClient, a recorded game
entered by hand draw by draw and move by move."""
import json
import time

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from gutenberg_ai.games.records import final_result, load_record  # noqa: E402
from gutenberg_ai.interfaces.table import resume  # noqa: E402
from gutenberg_ai.interfaces.web.app import create_app  # noqa: E402
from gutenberg_ai.interfaces.web.sessions import Limits  # noqa: E402
from test_table_follow import recorded  # noqa: E402
from gutenberg_ai import core_of  # noqa: E402
from web_client import page_client  # noqa: E402


@pytest.fixture
def app():
    return create_app(Limits(workers=1, max_games=4, games_per_page=2))


@pytest.fixture
def client(app):
    with page_client(app) as c:
        yield c


def lines(response):
    return [json.loads(x) for x in response.iter_lines() if x]


def start(client, key="gutenberg", players=2, seat=1, **more):
    r = client.post("/api/tables", json={"game": key, "players": players, "seat": seat, "seed": 5, **more})
    assert r.status_code == 201, r.json()
    return r.json()


def answer(view, actions):
    """The request entering what the recording shows at this turn: its words (a reveal:
    the recorded value of the entry shown)."""
    if view["status"] == "reveal":
        return "reveal", {"entry": view["reveal"], "text": actions[view["reveal"] - 1]["text"]}
    return "entry", {"text": actions[view["entries"]]["text"]}


def follow(client, view, actions, until=lambda view: False, asked=None):
    tid = view["id"]
    for _ in range(3000):
        if asked is not None:
            asked.add(view["status"])
        if view["status"] == "end" or until(view):
            return view
        assert view["status"] in ("chance", "move", "own", "reveal"), view["status"]
        what, body = answer(view, actions)
        r = client.post(f"/api/tables/{tid}/{what}", json=body)
        assert r.status_code == 200, (body, r.json())
        view = r.json()
    pytest.fail("the game did not end")


@pytest.mark.parametrize("key,players,seat,kinds", [
    ("gutenberg", 2, 1, {"chance", "move", "own", "reveal", "end"}),    # plans shown when revealed
    ("printing-press", 1, 0, {"chance", "own", "end"}),                  # solo: the automa's cards drawn
    ("lead-letter-printers", 3, 2, {"chance", "move", "own", "end"}),
])
def test_a_recorded_game_followed_through_the_api_ends_in_the_recorded_scores(app, client, tmp_path, key, players,
                                                                             seat, kinds):
    _, record, final = recorded(key, players)
    view = start(client, key, players, seat)
    assert view["status"] == "chance" and view["waits_for"].startswith("what came up")
    assert view["board"] and view["options"] and view["labels"][seat] == "you"
    first = record.actions[0]
    assert first["action"] in [o["action"] for o in view["options"]]      # the menu of a draw
    asked = set()
    end = follow(client, view, record.actions, asked=asked)
    assert asked == kinds
    assert end["status"] == "end" and end["options"] == []
    assert end["scores"]["rows"] and end["waits_for"] == "the end of the game"
    tid = view["id"]
    saved = load_record(json.loads(client.get(f"/api/tables/{tid}/record").text))
    assert saved["viewer"] == seat and saved["command"] == "table"
    followed = app.state.tables.items[tid].followed
    assert final_result(followed.state)["scores"] == record.result["scores"] == final_result(final)["scores"]
    # What the person saw, entered by hand; a placeholder never shown keeps the result open.
    assert [e.get("action") for e in saved["actions"] if not e.get("hidden")] == \
        [a["action"] for a, mine in zip(record.actions, followed.entries) if mine.entered]
    assert (saved["result"] is None) == bool(followed.hidden_count())
    path = tmp_path / "table.json"                   # the download resumes in the terminal
    path.write_text(client.get(f"/api/tables/{tid}/record").text)
    assert resume(path, seed=5).masked() == followed.masked()
    log = client.get(f"/api/tables/{tid}/log").json()
    assert len(log) == len(record.actions)
    assert [e["text"] for e in log if e["text"] is not None] == \
        [a["text"] for a, e in zip(record.actions, log) if e["text"] is not None]


def test_entries_by_number_by_id_and_by_card(client):
    _, record, _ = recorded("gutenberg", 2)
    view = start(client)
    tid = view["id"]
    acts = record.actions
    number = next(o["number"] for o in view["options"] if o["action"] == acts[0]["action"])
    view = client.post(f"/api/tables/{tid}/entry", json={"number": number}).json()
    assert view["entries"] == 1
    view = client.post(f"/api/tables/{tid}/entry", json={"action": acts[1]["action"]}).json()
    assert view["entries"] == 2
    assert acts[2]["text"] == "draw P40 [A A A A I] 7g"      # the card, found by what it shows
    view = client.post(f"/api/tables/{tid}/entry", json={"text": "A A A A I 7 guilders"}).json()
    assert view["entries"] == 3
    log = client.get(f"/api/tables/{tid}/log").json()
    assert [e["text"] for e in log] == [a["text"] for a in acts[:3]]


def test_an_impossible_entry_is_refused_and_nothing_changes(client):
    _, record, _ = recorded("gutenberg", 2)
    acts = record.actions
    view = start(client)
    tid = view["id"]
    view = client.post(f"/api/tables/{tid}/entry", json={"text": acts[0]["text"]}).json()
    before = client.get(f"/api/tables/{tid}").json()
    r = client.post(f"/api/tables/{tid}/entry", json={"action": acts[0]["action"]})   # the card already out
    assert r.status_code == 409 and "not possible" in r.json()["error"]
    r = client.post(f"/api/tables/{tid}/entry", json={"text": "take orders"})    # no words of a draw
    assert r.status_code == 422 and "is none of what can be entered now" in r.json()["error"]
    r = client.post(f"/api/tables/{tid}/entry", json={"number": 1, "text": "x"})   # two ways at once
    assert r.status_code == 422
    r = client.post(f"/api/tables/{tid}/reveal", json={"entry": 1, "action": acts[0]["action"]})
    assert r.status_code == 409 and "not a hidden entry shown now" in r.json()["error"]
    r = client.post(f"/api/tables/{tid}/hint", json={"iterations": 10})      # at a draw: no decision
    assert r.status_code == 409 and "the table waits for an entry" in r.json()["error"]
    r = client.post(f"/api/tables/{tid}/entry", json={"text": "x" * 201})
    assert r.status_code == 422 and r.json()["problems"][0]["where"] == "text"
    assert client.get(f"/api/tables/{tid}").json() == before
    assert len(client.get(f"/api/tables/{tid}/log").json()) == 1


def test_a_correction_replays_and_names_what_no_longer_fits(client):
    _, record, _ = recorded("gutenberg", 2)
    acts = record.actions
    view = start(client)
    view = follow(client, view, acts, until=lambda v: v["entries"] >= 40)
    tid = view["id"]
    r = client.post(f"/api/tables/{tid}/fix", json={"entry": 1, "text": acts[1]["text"]})
    assert r.status_code == 200, r.json()
    fixed = r.json()
    assert {"entry": 2, "player": -1, "who": "chance", "text": acts[1]["text"]} in fixed["dropped"]
    log = client.get(f"/api/tables/{tid}/log").json()
    assert log[0]["text"] == acts[1]["text"]
    r = client.post(f"/api/tables/{tid}/fix", json={"entry": 10_000, "number": 1})
    assert r.status_code == 409 and "there is no entry 10000" in r.json()["error"]


def test_hints_for_the_persons_decision_and_for_another_players(app, client):
    _, record, _ = recorded("gutenberg", 2)
    acts = record.actions
    view = start(client)
    tid = view["id"]
    for status in ("own", "move"):
        view = follow(client, view, acts, until=lambda v, wanted=status: v["status"] == wanted and len(v["options"]) > 1)
        body = {"iterations": 40, "seed": 1}
        if status == "own":     # another player's hint at your decision
            other = 1 - view["seat"]
            r = client.post(f"/api/tables/{tid}/hint", json={"iterations": 40, "player": other})
            assert r.status_code == 409
            assert r.json()["error"] == f"{view['labels'][other]} is not to move now: it is your decision"
        if status == "move":
            body["player"] = view["to_act"]
            r = client.post(f"/api/tables/{tid}/hint", json={"iterations": 40})   # not the person's decision
            assert r.status_code == 409
        with client.stream("POST", f"/api/tables/{tid}/hint", json=body) as r:
            assert r.status_code == 200
            out = lines(r)
        assert out[-1]["event"] == "done", out[-1]
        hints = out[-1]["result"]["hints"]
        assert hints and {h["action"] for h in hints} <= {o["action"] for o in view["options"]}
        assert out[-1]["result"]["seat_names"] == app.state.tables.items[tid].followed.names
        # The same as the model's hint (same seed and budget), from what the person knows.
        followed = app.state.tables.items[tid].followed
        mine = followed.hint(body.get("player"), iterations=40, seed=1, top=5, max_nodes=Limits().max_nodes)
        assert [h["action"] for h in hints] == [h.action for h in mine]
        assert out[-1]["result"]["seed"] == 1
        whose = "your decision" if status == "own" else f"{view['labels'][view['to_act']]}'s decision, from what you know"
        assert out[-1]["result"]["title"].startswith(f"Hints for {whose} (")
    # No seed in the request: the table's (5, start's), said in the answer.
    with client.stream("POST", f"/api/tables/{tid}/hint", json={"iterations": 20, "player": view["to_act"]}) as r:
        assert lines(r)[-1]["result"]["seed"] == 5
    r = client.post(f"/api/tables/{tid}/hint", json={"iterations": 40, "player": view["seat"]})
    assert r.status_code == 409
    assert r.json()["error"] == f"it is not your decision: {view['labels'][view['to_act']]} is to move"


def test_another_page_cannot_touch_the_followed_game(app, client):
    _, record, _ = recorded("gutenberg", 2)
    view = start(client)
    tid = view["id"]
    with page_client(app) as other:
        for method, path, body in (("GET", "", None), ("POST", "/entry", {"action": record.actions[0]["action"]}),
                                   ("POST", "/fix", {"entry": 1, "number": 1}), ("GET", "/log", None),
                                   ("GET", "/record", None), ("DELETE", "", None)):
            r = other.request(method, f"/api/tables/{tid}{path}", json=body)
            assert r.status_code == 404, (method, path)
    assert client.get(f"/api/tables/{tid}").json()["entries"] == 0


def test_a_bad_table_is_refused_naming_the_field(client):
    r = client.post("/api/tables", json={"game": "gutenberg", "players": 2, "seat": 3})
    assert r.status_code == 422 and "seat" in r.json()["error"]
    r = client.post("/api/tables", json={"players": 2, "names": ["Ann", "Tom", "Eve"]})
    assert r.status_code == 422 and r.json()["problems"][0]["where"] == "names"
    r = client.post("/api/tables", json={"game": "chess"})
    assert r.status_code == 422 and r.json()["problems"][0]["where"] == "game"
    # Every name's problem at its place, all at once.
    r = client.post("/api/tables", json={"players": 3, "names": ["Ann", " ", "Ann"]})
    assert r.status_code == 422 and [(p["where"], p["reason"]) for p in r.json()["problems"]] == [
        ("names.1", "a name of spaces only"), ("names.2", "'Ann' is also names.0")], r.json()


def test_a_look_at_a_followed_game_during_its_hint_is_its_view_marked_searching(client):
    """GET on a followed game while its hint searches: at once, the view from the hint's
    start with `searching` true (before: 409 busy); after it, searching is false."""
    _, record, _ = recorded("gutenberg", 2)
    view = follow(client, start(client), record.actions,
                  until=lambda v: v["status"] == "own" and len(v["options"]) > 1)
    tid = view["id"]
    assert client.get(f"/api/tables/{tid}").json()["searching"] is False
    with client.stream("POST", f"/api/tables/{tid}/hint", json={"seconds": 60}) as r:
        for line in r.iter_lines():
            if line and json.loads(line)["event"] == "progress":
                break
        seen = client.get(f"/api/tables/{tid}")
        assert seen.status_code == 200, seen.json()
        seen = seen.json()
        assert seen["searching"] is True
        assert (seen["status"], seen["options"], seen["board"]) == (view["status"], view["options"], view["board"])
        # The log and the record too, as they were when the hint began (a hint changes neither).
        during = [client.get(f"/api/tables/{tid}/{path}") for path in ("log", "record")]
        assert [r.status_code for r in during] == [200, 200], [r.text for r in during]
        assert client.post(f"/api/tables/{tid}/stop").json() == {"stopped": True}
    deadline = time.monotonic() + 30
    while client.get(f"/api/tables/{tid}").json()["searching"]:
        assert time.monotonic() < deadline, "the hint went on"
        time.sleep(0.05)
    after = [client.get(f"/api/tables/{tid}/{path}") for path in ("log", "record")]
    assert [r.content for r in after] == [r.content for r in during]
    assert len(during[0].json()) == view["entries"]


def test_a_table_without_a_seed_gets_a_new_one_in_its_view_and_its_record(client):
    assert start(client)["seed"] == 5
    r = client.post("/api/tables", json={"game": "gutenberg", "players": 2})
    assert r.status_code == 201, r.json()
    seed = r.json()["seed"]
    assert isinstance(seed, int) and 0 <= seed
    record = client.get(f"/api/tables/{r.json()['id']}/record")
    assert json.loads(record.content)["table_seed"] == seed


def test_a_fix_drops_a_later_entry_whose_words_would_change_not_reads_it_anew(client):
    """Printing Press solo: the solo board's draws are entered by colour; fixing entry 2
    shifts the later draws. A draw entered for round 3 is not kept as a draw of round 2
    (same action id, another meaning): it is named among those dropped."""
    view = client.post("/api/tables", json={"game": "printing-press", "players": 1, "seed": 5, "rounds": 1}).json()
    tid = view["id"]
    for text in ["A", "blue", "typesetting", "red", "illuminating", "I", "woodcutting", "U", "grey"]:
        assert client.post(f"/api/tables/{tid}/entry", json={"text": text}).status_code == 200, text
    before = {e["entry"]: e["text"] for e in client.get(f"/api/tables/{tid}/log").json()}
    fixed = client.post(f"/api/tables/{tid}/fix", json={"entry": 2, "text": "red"})
    assert fixed.status_code == 200, fixed.json()
    dropped = {d["entry"] for d in fixed.json()["dropped"]}
    after = {e["entry"]: e["text"] for e in client.get(f"/api/tables/{tid}/log").json()}
    # Every entry kept after the fixed one says what it said before (its place may move).
    kept = [after[k] for k in sorted(after) if k > 2]
    assert all(text in before.values() for text in kept), (kept, before)
    assert 9 in dropped or after.get(9) == before[9]


def test_the_log_says_how_the_automas_rules_moved_its_markers(app, client):
    """Solo, each planning card's entry carries its arrows and the markers they leave (the
    lines play's log gives), and each round's end the marker the automa received; an
    entry with no rule to tell carries none."""
    _, record, _ = recorded("gutenberg", 1)
    view = start(client, "gutenberg", 1, 0)
    assert follow(client, view, record.actions)["status"] == "end"
    rounds = core_of(app.state.tables.items[view["id"]].followed.state).round
    log = client.get(f"/api/tables/{view['id']}/log").json()
    cards = [e for e in log if (e["text"] or "").startswith("automa planning card")]
    assert len(cards) == rounds
    for e in cards:
        assert e["notes"][0].startswith("  arrow 1, ") and e["notes"][-1].startswith("  its markers now: orders ")
    passed = [e for e in log if any("with the first player token" in n for n in e["notes"])]
    assert len(passed) == rounds - 1            # every round's end but the last
    # A person's move tells only what the automa did by a rule as it was played.
    for e in log:
        if e["who"] != "chance":
            assert all("with the first player token" in n or n.startswith("automa: took ") for n in e["notes"])
    assert sum(bool(e["notes"]) for e in log) < len(log) / 4      # most entries have no rule to tell
