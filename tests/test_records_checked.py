"""A record a person gives is checked whole before anything is played from it: the arena
resumes only games whose draws are its schedule's deal, and `play --resume` checks a
record as strictly as replay and review do."""
import json

from test_cli import cli

import gutenberg_ai
from gutenberg_ai.tools import arena
from gutenberg_ai.search.bots import make_bot
from gutenberg_ai.games.records import CHANCE, GameRecord, play_bots, seat_entry


def test_the_arena_plays_again_a_forged_record_of_another_deal(tmp_path):
    s = arena.ArenaSettings(bots=["heuristic", "random"], games=1, rounds=1, seconds=None, iterations=None)
    out = tmp_path / "out"
    arena.run_arena(s, str(out), plots=False)
    task = arena.schedule(s)[0]
    path = out / task["path"]
    honest = json.loads(path.read_text())
    # Another deal played by the same bots with the same seeds, under the scheduled seed.
    forged = arena.play_record({**task, "chance_seed": task["chance_seed"] + 1})
    forged["seed"] = task["chance_seed"]
    assert forged["actions"] != honest["actions"]
    path.write_text(json.dumps(forged))
    summary = arena.run_arena(s, str(out), plots=False)
    assert summary["run"]["replayed"] == 1 and summary["run"]["skipped"] == 0
    assert "chance outcome" in summary["run"]["mismatches"][0]["reason"]
    assert json.loads(path.read_text())["actions"] == honest["actions"]     # the scheduled game again
    assert arena.run_arena(s, str(out), plots=False)["run"]["skipped"] == 1


def _finished_record(tmp_path) -> tuple:
    game = gutenberg_ai.load_game(players=2, rounds=1)
    seats = [seat_entry(0, "human"), seat_entry(1, "random", 2, {})]
    record = GameRecord(game, 3, seats, command="play")
    play_bots(game, [make_bot("random", game, 0, seed=1), make_bot("random", game, 1, seed=2)], 3, record)
    return record.to_dict()


def _resume(tmp_path, data):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    return cli("play", "--resume", str(path), "--ai", "random", stdin="quit\n")


def test_play_resume_checks_each_actions_text(tmp_path):
    data = _finished_record(tmp_path)
    assert _resume(tmp_path, data).returncode == 0
    i = next(i for i, e in enumerate(data["actions"]) if e["player"] != CHANCE)
    data["actions"][i]["text"] = "something else"
    out = _resume(tmp_path, data)
    assert out.returncode == 2 and f"actions[{i}].text" in out.stderr


def test_play_resume_checks_the_result(tmp_path):
    data = _finished_record(tmp_path)
    data["result"]["scores"] = [s + 100 for s in data["result"]["scores"]]
    out = _resume(tmp_path, data)
    assert out.returncode == 2 and "result.scores" in out.stderr
