"""Every example the project ships loads through every tool that takes it: a position
(gutenberg_ai/games/*/data/positions/*.json) through hint, play --position and the web
page's position check; a record (none is shipped today: the list below finds any) through
replay and review."""
import json
import pathlib

import pytest
from test_cli import cli

from gutenberg_ai import games
from gutenberg_ai.games.positionfile import load_position

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHIPPED = sorted((ROOT / "gutenberg_ai" / "games").glob("*/data/positions/*.json"))
RECORDS = [p for p in sorted((ROOT / "gutenberg_ai").rglob("*.json"))
           if json.loads(p.read_text(encoding="utf-8")).get("format") == "gutenberg-record"]
IDS = [f"{p.parent.parent.parent.name}/{p.stem}" for p in SHIPPED]


def test_every_game_ships_examples():
    assert {p.parent.parent.parent.name for p in SHIPPED} == {g.module.split(".")[2] for g in games.GAMES.values()}


@pytest.mark.parametrize("path", SHIPPED, ids=IDS)
def test_hint_takes_every_shipped_example(path):
    out = cli("hint", str(path), "--iterations", "20", "--top", "2", "--json")
    assert out.returncode == 0, out.stderr
    hints = json.loads(out.stdout)["hints"]
    assert hints and all(h["action"] >= 0 for h in hints)


@pytest.mark.parametrize("path", SHIPPED, ids=IDS)
def test_play_takes_every_shipped_example(path):
    solo = load_position(str(path))[1].game_params["players"] == 1
    ai = [] if solo else ["--ai", "heuristic"]      # a game of one person has no AI seat
    out = cli("play", "--position", str(path), *ai, "--seed", "1", stdin="quit\n")
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stdout + out.stderr


@pytest.mark.parametrize("path", SHIPPED, ids=IDS)
def test_the_web_pages_position_check_takes_every_shipped_example(path):
    pytest.importorskip("fastapi")
    pytest.importorskip("httpx")
    from web_client import page_client
    from gutenberg_ai.interfaces.web.app import create_app
    with page_client(create_app()) as client:
        r = client.post("/api/positions/check", json={"text": path.read_text(encoding="utf-8"), "name": path.name})
    assert r.status_code == 200, r.text
    g, pos = load_position(str(path))
    assert r.json()["game"] == g.key and r.json()["player"] == pos.current_player
    assert [m["action"] for m in r.json()["moves"]] == list(pos.state.legal_actions())


@pytest.mark.parametrize("path", RECORDS)
def test_replay_and_review_take_every_shipped_record(path, tmp_path):
    assert cli("replay", str(path), "--quiet").returncode == 0
    assert cli("review", str(path), "--iterations", "10", "--json", "--out", str(tmp_path / "r")).returncode == 0
