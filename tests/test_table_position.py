"""At the table from a position: a game already under way (`gutenberg-ai table --position`,
the API's `position`), followed from a shipped position of each game, saved, resumed; a
correction before the start refused; hostile positions refused with nothing started."""
import json
from pathlib import Path

import pytest
from rich.console import Console

from gutenberg_ai.games.positionfile import position_game
from gutenberg_ai.games.records import GameRecord, RecordError, load_record, play_bots, seat_entry
from gutenberg_ai.interfaces import cli
from gutenberg_ai.interfaces.table import EntryRefused, FollowedGame, resume
from gutenberg_ai.interfaces.table_terminal import TableSession
from gutenberg_ai.search.bots import make_bot

GAMES = Path(__file__).resolve().parent.parent / "gutenberg_ai" / "games"
# (a shipped position, the person's seat): Gutenberg with characters, 3 players; Printing
# Press with the others' tokens hidden from the person; Lead Letter Printers with
# factories hidden under the piles.
POSITIONS = [("gutenberg/data/positions/turn-inks-round3-3p.json", 1),
             ("printing_press/data/positions/cards-round2-3p.json", 0),
             ("lead_letter_printers/data/positions/table-3p.json", 0)]


def true_game(path, seed=11):
    """The game really played from the position (what it hides dealt with `seed`), by
    heuristic bots: (game, record of its actions)."""
    _, _, game, _, _ = position_game(path, seed=seed)
    n = game.num_players()
    record = GameRecord(game, seed, [seat_entry(s, "heuristic") for s in range(n)], "test")
    play_bots(game, [make_bot("heuristic", game, s, seed=s) for s in range(n)], seed, record)
    return game, record


def table(argv, actions, stop, monkeypatch, capsys):
    """`gutenberg-ai table ARGV`, the prompts answered with the true game's entries (a
    reveal: the entry shown) until `stop` entries, then quit: (exit code, output, the
    followed game)."""
    box = []
    run = TableSession.run
    monkeypatch.setattr(TableSession, "run", lambda self: (box.append(self), run(self))[1])

    def answer(_console, prompt="", **_):
        prompt = str(prompt)        # the session gives its prompt as rich Text (no markup)
        f = box[0].followed
        if prompt.startswith("entry ") and "corrected" in prompt:
            return ""
        if len(f.entries) >= stop:
            return "quit"
        kind, value = f.next_turn()
        return actions[value if kind == "reveal" else len(f.entries)]["text"]
    monkeypatch.setattr(Console, "input", answer)
    code = cli.main(["table", *argv])
    return code, capsys.readouterr(), box[0].followed if box else None


def seen(state, seat):
    return state.observation_string(seat)


@pytest.mark.parametrize("path,seat", POSITIONS)
def test_a_game_under_way_followed_from_a_position_saved_and_resumed(path, seat, tmp_path, monkeypatch, capsys):
    game, record = true_game(GAMES / path)
    save = tmp_path / "table.json"
    code, out, first = table(["--position", str(GAMES / path), "--seat", str(seat), "--seed", "5",
                              "--save", str(save)], record.actions, 20, monkeypatch, capsys)
    assert code == 0, out.err
    assert "from the position" in out.out
    assert len(first.entries) == 20
    truth = game.new_initial_state()
    for e in record.actions[:20]:
        truth.apply_action(e["action"])
    assert seen(first.state, seat) == seen(truth, seat)      # the table as the person sees it
    saved = load_record(save)
    assert saved["viewer"] == seat and isinstance(saved["position"], dict)
    code, out, again = table(["--resume", str(save), "--seed", "5"], record.actions, 40, monkeypatch, capsys)
    assert code == 0, out.err
    assert [e.action for e in again.entries[:20] if e.entered] == [e.action for e in first.entries if e.entered]
    for e in record.actions[20:40]:
        truth.apply_action(e["action"])
    assert len(again.entries) == 40 and seen(again.state, seat) == seen(truth, seat)


def test_the_position_gives_the_names_and_its_settings_stand(tmp_path, monkeypatch, capsys):
    path = GAMES / "lead_letter_printers/data/positions/table-3p.json"
    code, out, followed = table(["--position", str(path), "--save", str(tmp_path / "t.json")], [], 0,
                                monkeypatch, capsys)
    assert code == 0 and followed.names[1:] == list(json.loads(path.read_text())["names"][1:])
    assert "factories under the piles: drawn at random" in out.out
    # --players 2 is the default, and still not this 3-player position's: refused, naming it
    code, out, followed = table(["--position", str(path), "--players", "2", "--save", str(tmp_path / "u.json")],
                                [], 0, monkeypatch, capsys)
    assert code != 0 and followed is None
    assert "--players: 2, but the position is a game with players 3" in out.err
    assert not (tmp_path / "u.json").exists()
    code, out, _ = table(["--resume", str(tmp_path / "t.json"), "--position", str(path)], [], 0, monkeypatch, capsys)
    assert code != 0 and "leave out --position" in out.err


def test_a_position_given_to_resume_is_named_with_the_tables_own_option(monkeypatch, capsys):
    path = GAMES / POSITIONS[0][0]
    code, out, followed = table(["--resume", str(path)], [], 0, monkeypatch, capsys)
    assert code != 0 and followed is None
    assert ("this is a position, not a game record (follow the game from it with `gutenberg-ai table "
            "--position FILE`)") in out.err


def test_a_hint_asked_for_another_at_your_decision_says_it_is_yours(tmp_path, monkeypatch, capsys):
    # Seat 1 is Tom in the file, and "you" on the screen; John (seat 2) is not to move.
    path = GAMES / "gutenberg/data/positions/turn-inks-round3-3p.json"
    answers = iter(["hint John", "quit"])
    monkeypatch.setattr(Console, "input", lambda *_, **__: next(answers))
    assert cli.main(["table", "--position", str(path), "--seat", "1", "--save", str(tmp_path / "t.json")]) == 0
    out = capsys.readouterr().out
    assert "John is not to move now: it is your decision" in out and "Tom is" not in out


@pytest.mark.parametrize("text,said", [
    (lambda: (GAMES / "printing_press/data/positions/close-round1-2p.json").read_text(),
     "a position of Printing Press, not of Gutenberg"),
    (lambda: '{"format": "gutenberg-position", ', "invalid JSON"),
    (lambda: " " * (1 << 20) + "{}", "too large for a position"),
])
def test_a_hostile_position_is_refused_in_the_terminal_with_nothing_started(text, said, tmp_path, monkeypatch,
                                                                             capsys):
    path = tmp_path / "position.json"
    path.write_text(text())
    code, out, followed = table(["--game", "gutenberg", "--position", str(path), "--save", str(tmp_path / "t.json")],
                                [], 0, monkeypatch, capsys)
    assert code != 0 and followed is None
    assert said in out.err and "Traceback" not in out.err
    assert not (tmp_path / "t.json").exists()



def test_a_position_whose_names_the_table_cannot_take_is_named_with_its_file(tmp_path, monkeypatch, capsys):
    # Two seats of one name read well in a hint ("Pat (player 0)"), but a table tells its
    # seats apart by name: the file is named, and --names gives the table its own.
    data = json.loads((GAMES / "printing_press/data/positions/close-round1-2p.json").read_text())
    data["players"][1]["name"] = data["players"][0]["name"]
    path = _written(tmp_path / "twins.json", data)
    code, out, followed = table(["--position", str(path), "--save", str(tmp_path / "t.json")], [], 0,
                                monkeypatch, capsys)
    assert code != 0 and followed is None and "Traceback" not in out.err
    assert ("twins.json: the position's name of seat 1: 'Pat' is also the position's name of seat 0 "
            "(the table's names can be given with --names)") in out.err
    code, out, followed = table(["--position", str(path), "--names", "Pat,Walter", "--save", str(tmp_path / "t.json")],
                                [], 0, monkeypatch, capsys)
    assert code == 0 and followed.names == ["Pat", "Walter"]
    from web_client import page_client
    with page_client(_web()) as client:
        r = client.post("/api/tables", json={"position": path.read_text()})
        assert r.status_code == 422, r.json()
        assert r.json()["problems"][0]["where"] == "position", r.json()
        assert "'Pat' is also the position's name of seat 0" in r.json()["error"]
        r = client.post("/api/tables", json={"position": path.read_text(), "names": ["Pat", "Walter"]})
        assert r.status_code == 201, r.json()

def test_nothing_before_the_start_can_be_fixed_or_revealed(tmp_path, monkeypatch, capsys):
    path = GAMES / "printing_press/data/positions/cards-round2-3p.json"
    game, record = true_game(path)
    _, _, start_game, _, _ = position_game(path, seed=5)
    followed = FollowedGame(start_game, 0, seed=5)
    for e in record.actions[:3]:
        followed.enter(e["action"])
    before = list(followed.entries)
    for change in (followed.fix, followed.reveal):
        with pytest.raises(EntryRefused, match="entry 0 is before the game's start"):
            change(-1, record.actions[0]["action"])
    assert followed.entries == before
    # in the terminal: `fix 0` says so, and the game goes on unchanged
    asked = []

    def extra_answer(_console, prompt="", **_):
        f = box[0].followed
        if len(f.entries) == 3 and not asked:
            asked.append(prompt)
            return "fix 0"
        if len(f.entries) >= 4:
            return "quit"
        return record.actions[len(f.entries)]["text"]
    box = []
    run = TableSession.run
    monkeypatch.setattr(TableSession, "run", lambda self: (box.append(self), run(self))[1])
    monkeypatch.setattr(Console, "input", extra_answer)
    code = cli.main(["table", "--position", str(path), "--seed", "5", "--save", str(tmp_path / "t.json")])
    out = capsys.readouterr().out
    assert code == 0
    assert "entry 0 is before the game's start" in " ".join(out.split())
    assert [e.action for e in box[0].followed.entries] == [e["action"] for e in record.actions[:4]]


def test_a_redrawn_start_is_saved_and_a_tampered_one_refused(tmp_path):
    """An entry the placeholders of the position forbid redraws them (the start too): the
    save keeps that start, so that its entries replay; one no game deals is refused."""
    path = GAMES / "printing_press/data/positions/cards-round2-3p.json"
    game, record = true_game(path)
    _, _, start_game, _, _ = position_game(path, seed=5)
    followed = FollowedGame(start_game, 0, seed=5)
    while len(followed.entries) < 60 and "start" not in followed.to_dict():
        kind, value = followed.next_turn()
        if kind == "unseen":
            followed.place_unseen()
        elif kind == "reveal":
            followed.reveal(value, record.actions[value]["action"])
        else:
            followed.enter(record.actions[len(followed.entries)]["action"])
    data = followed.to_dict()
    assert data["start"] and data["start"][0].startswith("start_tokens ")
    followed.save(tmp_path / "t.json")
    again = resume(tmp_path / "t.json", seed=5)
    assert seen(again.state, 0) == seen(followed.state, 0)
    assert [e.action for e in again.entries if e.entered] == [e.action for e in followed.entries if e.entered]
    data["start"] = ["start_tokens " + " ".join(["99"] * len(data["start"][0].split()[1:]))]
    with pytest.raises(RecordError, match="start"):
        resume(_written(tmp_path / "bad.json", data))
    data["start"] = ["rm -rf /"]
    with pytest.raises(RecordError, match=r"start\[0\]"):
        load_record(data)


def _written(path, data):
    path.write_text(json.dumps(data))
    return path


def _web(**limits):
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
    from gutenberg_ai.interfaces.web.app import create_app
    from gutenberg_ai.interfaces.web.sessions import Limits
    return create_app(Limits(workers=1, max_games=4, games_per_page=4, **limits))


@pytest.mark.parametrize("path,seat", POSITIONS)
def test_the_api_follows_a_game_from_a_pasted_position_and_its_record_resumes(path, seat, tmp_path):
    from web_client import page_client
    game, record = true_game(GAMES / path)
    app = _web()
    with page_client(app) as client:
        r = client.post("/api/tables", json={"position": (GAMES / path).read_text(), "seat": seat, "seed": 5})
        assert r.status_code == 201, r.json()
        view = r.json()
        assert view["players"] == game.num_players() and view["labels"][seat] == "you"
        while view["entries"] < 15:
            if view["status"] == "reveal":
                what, body = "reveal", {"entry": view["reveal"], "action": record.actions[view["reveal"] - 1]["action"]}
            else:
                what, body = "entry", {"action": record.actions[view["entries"]]["action"]}
            r = client.post(f"/api/tables/{view['id']}/{what}", json=body)
            assert r.status_code == 200, (body, r.json())
            view = r.json()
        saved = tmp_path / "table.json"
        saved.write_text(client.get(f"/api/tables/{view['id']}/record").text)
    truth = game.new_initial_state()
    for e in record.actions[:view["entries"]]:
        truth.apply_action(e["action"])
    again = resume(saved, seed=5)
    assert isinstance(load_record(saved)["position"], dict)
    assert len(again.entries) == view["entries"] and seen(again.state, seat) == seen(truth, seat)


def test_the_api_refuses_a_fix_or_reveal_of_entry_0_with_the_models_words():
    from web_client import page_client
    pp = (GAMES / "printing_press/data/positions/cards-round2-3p.json").read_text()
    with page_client(_web()) as client:
        view = client.post("/api/tables", json={"position": pp, "seed": 5}).json()
        for what in ("fix", "reveal"):
            r = client.post(f"/api/tables/{view['id']}/{what}", json={"entry": 0, "number": 1})
            assert r.status_code == 409, r.json()
            assert r.json()["error"].startswith("entry 0 is before the game's start: the position gives"), r.json()
        r = client.post(f"/api/tables/{view['id']}/fix", json={"entry": -1, "number": 1})
        assert r.status_code == 422 and r.json()["problems"][0]["where"] == "entry"
        assert client.get(f"/api/tables/{view['id']}").json()["entries"] == 0


def test_the_api_refuses_a_hostile_position_with_a_422_and_starts_nothing():
    from web_client import page_client
    app = _web(max_upload_bytes=8000)
    pp = (GAMES / "printing_press/data/positions/close-round1-2p.json").read_text()
    with page_client(app) as client:
        for body, said in (({"position": pp, "game": "gutenberg"}, "a position of Printing Press, not of Gutenberg"),
                           ({"position": '{"format": '}, "invalid JSON"),
                           ({"position": "[1, 2]"}, "not a JSON object"),
                           ({"position": " " * 9000}, "over this server's 8000 bytes"),
                           ({"position": pp, "players": 3}, "players: 3, but the position is a game with players 2"),
                           ({"position": pp, "players": 2, "variant": "advanced"}, "variant: \"advanced\", but")):
            r = client.post("/api/tables", json=body)
            assert r.status_code == 422, (said, r.json())
            assert said in r.json()["error"] and r.json()["problems"], r.json()
        assert not app.state.tables.items
