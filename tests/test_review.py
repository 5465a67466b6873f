"""Game review: evaluations, the win chance lost, marks, hidden information, plots, the
command; for every game of the table."""
import json
import re
import subprocess
import sys

import pytest

from gutenberg_ai import games
from gutenberg_ai.search.bots import make_bot
from gutenberg_ai.games import core_of
from gutenberg_ai.games.records import CHANCE, GameRecord, load_record, play_bots, seat_entry
from gutenberg_ai.search.hints import MIN_VISITS, level_with
from gutenberg_ai.tools.review import LEVEL, THRESHOLDS, TOO_FEW, mark_between, mark_of, review_record, write_review


def short_record(key, bots=("heuristic", "random"), seed=3, rounds=1, **params):
    g = games.get(key)
    game = g.load(players=len(bots), rounds=rounds, **params)
    players = [make_bot(name, game, seat, seed=seed + seat) for seat, name in enumerate(bots)]
    record = GameRecord(game, seed, [seat_entry(s, n, seed + s) for s, n in enumerate(bots)], command="demo")
    play_bots(game, players, seed, record)
    return load_record(record.to_dict())


@pytest.fixture(scope="module")
def gutenberg_review():
    record = short_record("gutenberg")
    return record, review_record(record, iterations=120, seed=1)


def test_every_decision_is_reviewed_with_its_evaluation_and_loss(gutenberg_review):
    record, review = gutenberg_review
    decisions = [i for i, e in enumerate(record["actions"]) if e["player"] != CHANCE]
    assert [d["index"] for d in review["decisions"]] == decisions
    for d in review["decisions"]:
        assert d["played"]["action"] == record["actions"][d["index"]]["action"]
        assert d["lost"] >= 0
        if d["method"] == "only move":
            assert d["legal"] == 1 and d["lost"] == 0
            continue
        assert d["legal"] > 1 and len(d["evaluation"]) == 2
        assert all(0 <= w <= 1 for w in d["evaluation"])
        assert d["evaluation"][d["player"]] == d["best"]["value"]
        if d["played"]["action"] == d["best"]["action"]:
            assert d["lost"] == 0 and d["method"] == "best"
        else:
            # Measured in the same search only with the visits an interval needs.
            assert d["method"] in ("same search", "searched alone")
            assert d["method"] == "searched alone" or d["played"]["visits"] >= MIN_VISITS, d
            assert d["lost"] == pytest.approx(max(0.0, d["best"]["value"] - d["played"]["value"]))
        # Marked by size where the two moves' intervals tell them apart.
        level = level_with(d["best"]["value"], d["best"]["interval"], d["played"]["value"], d["played"]["interval"])
        by_size = mark_of(d["lost"], "win")
        assert d["mark"] == (by_size if not by_size or level is False else LEVEL if level else TOO_FEW)


def test_a_random_player_loses_more_than_the_heuristic(gutenberg_review):
    _, review = gutenberg_review
    by = {row["player"]: row for row in review["summary"]}
    assert by[1]["mean_lost"] > by[0]["mean_lost"]              # seat 1 played at random
    assert by[1]["best_played"] / by[1]["decisions"] < by[0]["best_played"] / by[0]["decisions"]


def test_marks_by_size():
    assert [mark_of(x, "win") for x in (0.0, 0.049, 0.05, 0.1, 0.19, 0.2, 0.9)] == \
        ["", "", "inaccuracy", "mistake", "mistake", "blunder", "blunder"]
    assert mark_of(10.0, "score") == "blunder" and mark_of(3.0, "score") == "inaccuracy"
    assert THRESHOLDS["win"][0] == ("blunder", 0.20)


def searched(win, se, visits, parts):
    """A row of the core's search, made by hand: player 0's chance to win and its standard error."""
    return {"visits": visits, "parts": parts, "win": [win, 1 - win], "fame": [0.0, 0.0],
            "se": None if se is None else {"win": [se, se], "fame": [0.0, 0.0]}}


def test_a_loss_the_search_cannot_tell_from_noise_is_not_a_mistake():
    # A few visits each (10 iterations a decision): no interval, no blunder.
    assert mark_between(searched(0.857, 0.14, 7, 7), searched(0.0, None, 1, 1), 0, "win") == (0.857, TOO_FEW)
    # Enough visits, but a standard error as large as the loss: level.
    assert mark_between(searched(0.6, 0.2, 400, 8), searched(0.35, 0.2, 200, 8), 0, "win") == \
        (pytest.approx(0.25), LEVEL)
    # A clear loss, small standard errors: a blunder; a small one is no mark whatever the noise.
    assert mark_between(searched(0.7, 0.01, 1000, 8), searched(0.3, 0.01, 500, 8), 0, "win") == \
        (pytest.approx(0.4), "blunder")
    assert mark_between(searched(0.6, 0.2, 7, 7), searched(0.57, None, 1, 1), 0, "win") == (pytest.approx(0.03), "")
    # Batches that all agree (a standard error of 0) are not certainty: the Wilson
    # intervals of the visits (89-100% and 74-97% at 30 visits).
    assert mark_between(searched(1.0, 0.0, 30, 8), searched(0.9, 0.0, 30, 8), 0, "win")[1] == LEVEL


def test_review_is_seeded_and_one_player_alone(gutenberg_review):
    record, review = gutenberg_review
    again = review_record(record, iterations=120, seed=1, player=1)
    assert {d["player"] for d in again["decisions"]} == {1}
    mine = [d for d in review["decisions"] if d["player"] == 1]
    assert again["decisions"] == mine                            # the same seed, the same searches
    assert "information state of the player to move" in review["hidden_information"]
    assert "plans committed" in review["hidden_information"] and "tokens" not in review["hidden_information"]


def test_a_move_the_search_hardly_tried_is_searched_alone():
    # The core's root_action: the search measures the forced move alone.
    game = games.get("gutenberg").load(players=2, rounds=1)
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.legal_actions()) < 3:
        state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[0])
    core = core_of(state)
    last = core.legal_actions()[-1]
    result = games.of(core).core.search(core, "smmcts", iterations=50, seed=1, root_action=last)
    assert [m["action"] for m in result["moves"]] == [last] and result["moves"][0]["visits"] == 50
    with pytest.raises(ValueError, match="root_action"):
        games.of(core).core.search(core, "smmcts", iterations=5, root_action=10 ** 6)


def test_the_review_never_uses_a_plan_the_reviewed_player_could_not_see():
    # Player 1's plan decision is reviewed alike whatever player 0 committed before it.
    g = games.get("gutenberg")
    game = g.load(players=2, rounds=1)
    state = game.new_initial_state()
    record = GameRecord(game, 5, [seat_entry(0, "heuristic"), seat_entry(1, "heuristic")])
    bots = [make_bot("heuristic", game, s, seed=s) for s in range(2)]
    from gutenberg_ai.games.records import draw_chance
    while True:
        p = state.current_player()
        a = draw_chance(state, 5) if p == CHANCE else bots[p].step(state)
        if p == 1 and "plan" in core_of(state).step_name() and "free" not in core_of(state).step_name():
            break
        record.add(state, a)
        state.apply_action(a)
    plan_of_0 = max(i for i, e in enumerate(record.actions) if e["player"] == 0)
    assert "plan" in record.actions[plan_of_0]["text"]
    records = []
    for choice in (0, -1):
        other = GameRecord(game, 5, record.seats)
        s = game.new_initial_state()
        for i, e in enumerate(record.actions):
            a = e["action"]
            if i == plan_of_0:
                a = s.legal_actions()[choice]
            other.add(s, a)
            s.apply_action(a)
        other.add(s, s.legal_actions()[0])             # player 1's plan, reviewed
        records.append(load_record(other.to_dict()))
    assert records[0]["actions"][plan_of_0] != records[1]["actions"][plan_of_0]
    a, b = (review_record(r, iterations=80, seed=2, player=1)["decisions"][-1] for r in records)
    assert a["evaluation"] == b["evaluation"] and a["best"] == b["best"] and a["lost"] == b["lost"]


def test_plots_and_json_are_written(tmp_path, gutenberg_review):
    _, review = gutenberg_review
    paths = write_review(review, str(tmp_path / "r.json"), str(tmp_path / "r"))
    assert sorted(p.rsplit("/", 1)[1] for p in paths) == ["r.json", "r.png", "r.svg"]
    assert (tmp_path / "r.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    svg = (tmp_path / "r.svg").read_text()
    assert "<svg" in svg and "chance to win" in svg
    assert json.loads((tmp_path / "r.json").read_text())["decisions"] == review["decisions"]
    # Reproducible files: the same review draws the same SVG.
    write_review(review, None, str(tmp_path / "s"))
    assert (tmp_path / "s.svg").read_text() == svg


def test_printing_press_is_reviewed_too():
    record = short_record("printing-press", rounds=1)
    review = review_record(record, iterations=60, seed=0, player=0)
    searched = [d for d in review["decisions"] if d["method"] != "only move"]
    assert searched and review["game"] == "printing-press"
    assert all(d["player"] == 0 and d["lost"] >= 0 for d in review["decisions"])


def test_solo_is_reviewed_in_expected_score():
    record = short_record("printing-press", bots=("heuristic",), rounds=1)
    review = review_record(record, iterations=40, seed=0)
    assert review["measure"] == "expected score"
    d = next(d for d in review["decisions"] if d["evaluation"] is not None)
    assert d["evaluation"][0] > 1.0                     # points, not a probability
    assert review["thresholds"] == {"blunder": 10.0, "mistake": 5.0, "inaccuracy": 2.0}


def run(*args):
    return subprocess.run([sys.executable, "-m", "gutenberg_ai", *args], capture_output=True, text=True,
                          timeout=300)


def test_the_review_command(tmp_path):
    record = short_record("gutenberg", seed=4)
    path = tmp_path / "game.json"
    path.write_text(json.dumps({k: v for k, v in record.items() if k != "_source"}))
    out = run("review", str(path), "--iterations", "40", "--player", "1")
    assert out.returncode == 0, out.stderr
    assert "Review of" in out.stdout and "Per player" in out.stdout and "information state" in out.stdout
    for suffix in (".json", ".png", ".svg"):
        assert (tmp_path / f"game-review{suffix}").exists()
    data = json.loads((tmp_path / "game-review.json").read_text())
    assert data["player"] == 1 and data["budget"] == {"iterations": 40}
    assert {"inaccuracies", "mistakes", "blunders"} <= set(data["summary"][0])
    # No --seed: a new one, said after the review; given again, the same review.
    said = re.search(r"Seed (\d+), a new one \(--seed \1 uses it again\)", out.stderr)
    assert said and data["seed"] == int(said.group(1))
    out = run("review", str(path), "--iterations", "40", "--player", "1", "--json", "--out", str(tmp_path / "x"),
              "--seed", said.group(1))
    assert out.returncode == 0 and json.loads(out.stdout)["decisions"] == data["decisions"]


def test_the_review_command_refuses_bad_input(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "gutenberg-record", "version": 3}')
    out = run("review", str(bad))
    assert out.returncode == 2 and "Traceback" not in out.stderr and "missing key" in out.stderr
    record = short_record("gutenberg", seed=4)
    good = tmp_path / "g.json"
    good.write_text(json.dumps({k: v for k, v in record.items() if k != "_source"}))
    out = run("review", str(good), "--player", "7", "--iterations", "5")
    assert out.returncode == 2 and "player: 7 is out of range" in out.stderr


def test_lead_letter_printers_is_reviewed_too():
    record = short_record("lead-letter-printers", rounds=1)
    review = review_record(record, iterations=30, seed=0, player=1)
    assert review["game"] == "lead-letter-printers" and review["decisions"]
    assert all(d["player"] == 1 and d["lost"] >= 0 for d in review["decisions"])
    assert "factories another player drew" in review["hidden_information"]   # its own hidden parts
    assert "plans" not in review["hidden_information"]
