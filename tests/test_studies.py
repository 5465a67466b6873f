"""Balance and scaling studies, the arena's plots, and ratings that stay honest when a
bot wins every game."""
import json
import math
import os
import subprocess
import sys

import numpy as np
import pytest

from gutenberg_ai.tools import arena, studies
from gutenberg_ai.common.stats import wilson


def result(game, scores, winners, first, facts):
    ranks = [1 + sum(o > s for o in scores) for s in scores]
    return {"match": "m", "game": game, "seats": ["b"] * len(scores), "scores": scores, "winners": winners,
            "ranks": ranks, "first_player": first, "seat_facts": facts}


def test_balance_tables_count_seats_first_players_and_characters():
    a, b = {"character": "A"}, {"character": "B"}
    results = [result(0, [10, 5], [0], 0, [a, b]),
               result(1, [7, 9], [1], 1, [b, a]),
               result(2, [6, 6], [0, 1], 0, [a, b]),
               result(3, [3, 8], [1], 0, [b, a])]
    t = studies.balance_tables(results, studies.BalanceSettings(players=2, games=4))
    seat0, seat1 = t["seats"]
    assert seat0["games"] == seat1["games"] == 4
    assert seat0["wins"] == 1.5 and seat1["wins"] == 2.5            # a shared win counts 1/2
    assert (seat0["win_rate_low"], seat0["win_rate_high"]) == pytest.approx(wilson(1.5, 4))
    assert seat0["mean_score"] == pytest.approx(26 / 4)
    sd = np.std([10, 7, 6, 3], ddof=1)
    assert seat0["mean_score_high"] - seat0["mean_score"] == pytest.approx(1.96 * sd / 2)
    first, others = t["first_player"]
    assert first["games"] == 4 and first["wins"] == 1 + 1 + 0.5 + 0    # seats 0, 1, 0, 0 went first
    assert others["wins"] == 0 + 0 + 0.5 + 1
    chars = {row["group"]: row for row in t["groups"]["character"]}
    assert chars["A"]["games"] == 4 and chars["A"]["wins"] == 1 + 1 + 0.5 + 1
    assert chars["B"]["wins"] == 0.5
    assert t["spread"]["winner_margin"] == pytest.approx((5 + 2 + 0 + 5) / 4)
    assert t["spread"]["shared_wins"] == 1 and (t["spread"]["min"], t["spread"]["max"]) == (3, 10)


def test_a_bot_that_wins_every_game_has_no_upper_bound():
    s = arena.ArenaSettings(bots=["strong", "mid", "random"], games=4)
    results = []
    for g in range(4):
        results.append({"match": "a", "game": g, "seats": ["strong", "mid"], "scores": [9, 1], "winners": [0],
                        "ranks": [1, 2]})
        results.append({"match": "b", "game": g, "seats": ["strong", "random"], "scores": [9, 1],
                        "winners": [0], "ranks": [1, 2]})
        mid_wins = g < 3
        results.append({"match": "c", "game": g, "seats": ["mid", "random"], "scores": [5, 4] if mid_wins else [4, 5],
                        "winners": [0] if mid_wins else [1], "ranks": [1, 2] if mid_wins else [2, 1]})
    t = arena.tables(results, s, bootstrap=50)
    rows = {r["bot"]: r for r in t["standings"]}
    assert rows["strong"]["rating_high"] is None and "no upper bound" in rows["strong"]["rating_note"]
    assert rows["strong"]["rating_low"] is not None
    assert rows["mid"]["rating_high"] is not None and rows["mid"]["rating_low"] is not None
    assert rows["mid"]["rating_note"] == ""
    md = arena.markdown({**t, "out": "x/"})
    assert "+inf" in md and "never outscored" in md
    assert "+inf" in arena.rating_text(rows["strong"])
    # A bot that never scores: no lower bound (random is the anchor: bounded by definition).
    no_upper, no_lower = arena.unbounded(np.array([[0, 2.0, 2.0], [0, 0, 1.0], [0, 1.0, 0]]), anchor=None)
    assert no_upper == [True, False, False] and no_lower == [False, False, False]
    no_upper, no_lower = arena.unbounded(np.array([[0, 0, 0], [2.0, 0, 1.0], [2.0, 1.0, 0]]), anchor=1)
    assert no_lower == [True, False, False] and no_upper == [False, False, False]


def test_the_arena_draws_its_plots(tmp_path):
    s = arena.ArenaSettings(bots=["heuristic", "random"], games=2, rounds=1, seed=0)
    summary = arena.run_arena(s, str(tmp_path))
    assert sorted(summary["plots"]) == ["head-to-head.png", "head-to-head.svg", "plackett-luce.png",
                                        "plackett-luce.svg", "ratings.png", "ratings.svg"]
    assert (tmp_path / "ratings.png").read_bytes()[:4] == b"\x89PNG"
    assert "<svg" in (tmp_path / "head-to-head.svg").read_text()


def test_a_balance_study_writes_its_report_and_resumes(tmp_path):
    s = studies.BalanceSettings(bot="heuristic", game="printing-press", games=3, rounds=1, seed=4)
    t = studies.run_balance(s, str(tmp_path))
    assert t["games"] == 3 and t["run"]["played"] == 3
    assert sum(row["games"] for row in t["seats"]) == 6
    assert set(t["groups"]) == {"character", "character side"}
    assert sum(row["games"] for row in t["groups"]["character side"]) == 6
    assert all(r.endswith(("png", "svg")) for r in t["plots"]) and "balance-seats.png" in t["plots"]
    report = (tmp_path / "balance.md").read_text()
    assert "gutenberg-ai study balance --game printing-press --bot heuristic" in report
    assert "| seat 0 |" in report and "| first player |" in report
    again = studies.run_balance(s, str(tmp_path))
    assert again["run"]["played"] == 0 and again["run"]["skipped"] == 3
    assert again["seats"] == t["seats"]
    with pytest.raises(arena.ArenaError, match="players"):
        studies.run_balance(studies.BalanceSettings(bot="heuristic", games=3, rounds=2, seed=4, players=5),
                            str(tmp_path))


def test_balance_facts_of_gutenberg(tmp_path):
    s = studies.BalanceSettings(bot="heuristic", game="gutenberg", games=2, rounds=1, seed=1)
    t = studies.run_balance(s, str(tmp_path))
    record = json.loads((tmp_path / "games" / "balance-heuristic" / "game-0000.json").read_text())
    facts = studies.balance_facts(record)
    assert facts["first_player"] in (0, 1)
    assert all(isinstance(f["character"], str) for f in facts["seat_facts"])
    assert set(t["groups"]) == {"character"}


def test_a_scaling_study(tmp_path):
    r = studies.run_scaling("smmcts", ["4", "16"], "random", str(tmp_path), games_=2, rounds=1)
    assert [row["bot"] for row in r["rows"]] == ["smmcts@4", "smmcts@16"]
    assert all(row["games"] == 2 for row in r["rows"])
    assert r["rows"][0]["budget_value"] == 4 and r["rows"][0]["unit"] == "iterations"
    assert (tmp_path / "scaling.png").exists() and "study scaling" in (tmp_path / "scaling.md").read_text()
    with pytest.raises(arena.ArenaError, match="budget"):
        studies.run_scaling("smmcts", ["4"], "ismcts", str(tmp_path / "x"), games_=2, rounds=1)


def test_a_scaling_study_gives_the_bot_its_options_at_every_budget(tmp_path):
    r = studies.run_scaling("smmcts", ["4", "8"], "heuristic", str(tmp_path), games_=1, rounds=1,
                            options={"cutoff": 3})
    seats = [seat for path in tmp_path.glob("games/*/game-*.json")
             for seat in json.loads(path.read_text())["seats"] if seat["player"] != "heuristic"]
    assert sorted(s["options"]["iterations"] for s in seats) == [4, 8]
    assert all(s["options"]["cutoff"] == 3 for s in seats)
    assert "--options '{\"cutoff\": 3}'" in r["command"]   # the command a reader can run again
    out = subprocess.run([sys.executable, "-m", "gutenberg_ai", "study", "scaling", "--bot", "smmcts",
                          "--budgets", "4", "--games", "1", "--rounds", "1", "--out", str(tmp_path / "bad"),
                          "--options", '{"cutof": 3}'], capture_output=True, text=True, timeout=300)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "options: smmcts@4: unknown search option(s) cutof" in out.stderr


def test_a_balance_study_reports_the_budget_the_bot_played_with(tmp_path):
    s = studies.BalanceSettings(bot="smmcts@3", games=1, rounds=1)
    studies.run_balance(s, str(tmp_path / "own"))
    text = (tmp_path / "own" / "balance.md").read_text()
    assert "self-play of smmcts@3 (3 iterations a move)" in text and "--iterations" not in text
    record = json.loads(next((tmp_path / "own").glob("games/*/game-*.json")).read_text())
    assert record["seats"][0]["options"]["iterations"] == 3
    studies.run_balance(studies.BalanceSettings(bot="heuristic", games=1, rounds=1), str(tmp_path / "none"))
    assert "self-play of heuristic (no search)" in (tmp_path / "none" / "balance.md").read_text()


def test_a_scaling_study_refuses_a_budget_outside_its_budgets(tmp_path):
    out = subprocess.run([sys.executable, "-m", "gutenberg_ai", "study", "scaling", "--bot", "smmcts", "--budgets",
                          "3,5", "--iterations", "999", "--out", str(tmp_path / "s")], capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 2 and "--iterations: a scaling study's budgets are --budgets" in out.stderr
    assert not (tmp_path / "s").exists()
    # One axis is seconds or iterations, not both.
    with pytest.raises(arena.ArenaError, match="budgets: 0.5s, 10 mix seconds and iterations"):
        studies.run_scaling("ismcts", ["0.5s", 10], "heuristic", str(tmp_path / "m"))
    assert not (tmp_path / "m").exists()


def test_the_study_command(tmp_path):
    out = subprocess.run([sys.executable, "-m", "gutenberg_ai", "study", "balance", "--bot", "heuristic",
                          "--games", "2", "--rounds", "1", "--jobs", "1", "--out", str(tmp_path)],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "Balance of Gutenberg" in out.stdout and os.path.exists(tmp_path / "balance.json")
    out = subprocess.run([sys.executable, "-m", "gutenberg_ai", "study", "scaling", "--bot", "smmcts",
                          "--budgets", "4,lots", "--out", str(tmp_path / "s")], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 2 and "'lots'" in out.stderr and "Traceback" not in out.stderr


def test_a_game_without_characters_gets_seats_and_first_player(tmp_path):
    s = studies.BalanceSettings(bot="heuristic", game="lead-letter-printers", games=2, rounds=1, seed=0)
    t = studies.run_balance(s, str(tmp_path))
    assert t["games"] == 2 and t["groups"] == {} and len(t["seats"]) == 2
    assert t["first_player"][0]["games"] == 2


def test_a_bot_outscored_is_not_said_to_be_never_outscored():
    # ismcts and smmcts each beat the other once and random in every game; random never
    # scores, so nothing bounds either search from above relative to random, yet both
    # were outscored, by each other.
    s = arena.ArenaSettings(bots=["ismcts", "smmcts", "random"], games=2)
    results = []
    for g in range(2):
        results.append({"match": "a", "game": g, "seats": ["ismcts", "smmcts"], "scores": [9, 1] if g else [1, 9],
                        "winners": [0] if g else [1], "ranks": [1, 2] if g else [2, 1]})
        for match, bot in (("b", "ismcts"), ("c", "smmcts")):
            results.append({"match": match, "game": g, "seats": [bot, "random"], "scores": [9, 1],
                            "winners": [0], "ranks": [1, 2]})
    rows = {r["bot"]: r for r in arena.tables(results, s, bootstrap=20)["standings"]}
    for bot in ("ismcts", "smmcts"):
        assert rows[bot]["rating_high"] is None
        assert "never outscored" not in rows[bot]["rating_note"]
        assert rows[bot]["rating_note"] == "no upper bound: no chain of results leads from random down to it"
    assert rows["random"]["rating_note"] == ""
    # Without an anchor the words are literal: a bot nobody took a point from.
    rows = {r["bot"]: r for r in arena.tables(results[:1], arena.ArenaSettings(bots=["ismcts", "smmcts"], games=1),
                                              bootstrap=20)["standings"]}
    assert rows["smmcts"]["rating_note"] == "never outscored: no upper bound"


def test_an_unbeaten_bot_s_lower_bound_comes_from_the_likelihood_not_the_bootstrap():
    """4 games, 4 wins against random (the anchor, at 0): every bootstrap resample is 4-0
    again, so its lower bound would be the point the virtual draw gives (+382). The bound
    is where the log-likelihood of 4 wins falls 1.92 below its supremum (0, at +inf):
    4 log p = -1.92, p = 0.619, 400 log10(p / (1 - p)) = +84; the side that has no bound
    stays open."""
    s = arena.ArenaSettings(bots=["heuristic", "random"], games=4)
    results = [{"match": "a", "game": g, "seats": ["heuristic", "random"][::1 if g % 2 == 0 else -1],
                "scores": [9, 1] if g % 2 == 0 else [1, 9], "winners": [0] if g % 2 == 0 else [1],
                "ranks": [1, 2] if g % 2 == 0 else [2, 1]} for g in range(4)]
    rows = {r["bot"]: r for r in arena.tables(results, s, bootstrap=50)["standings"]}
    h = rows["heuristic"]
    assert h["rating"] == pytest.approx(400 * math.log10(9))          # 4.5 of 5 with the virtual draw
    p = math.exp(-1.92 / 4)
    assert h["rating_low"] == pytest.approx(400 * math.log10(p / (1 - p)), abs=1.0)
    assert h["rating_high"] is None and h["rating_note"] == "never outscored: no upper bound"
    # and the other way round: a bot that never scored gets its upper bound so
    s = arena.ArenaSettings(bots=["heuristic", "random"], games=4)
    rows = {r["bot"]: r for r in arena.tables(results, s, bootstrap=50, anchor_name="heuristic")["standings"]}
    assert rows["random"]["rating_low"] is None
    assert rows["random"]["rating_high"] == pytest.approx(-400 * math.log10(p / (1 - p)), abs=1.0)


def test_a_head_to_head_interval_counts_games_not_the_meetings_of_a_bot_that_sits_twice():
    """3 players, heuristic in two seats against random in one, 6 games all won by a
    heuristic seat: 12 meetings, but the two of a game are not independent: the interval
    is 6 of 6 games' (61.0-100%), not 12 of 12's (75.7%)."""
    s = arena.ArenaSettings(bots=["heuristic", "random"], players=3, games=6)
    results = [{"match": "a", "game": g, "seats": ["heuristic", "heuristic", "random"], "scores": [9, 5, 1],
                "winners": [0], "ranks": [1, 2, 3]} for g in range(6)]
    pair = arena.tables(results, s, bootstrap=20)["pairings"][0]
    assert (pair["a"], pair["b"], pair["games"], pair["a_rate"]) == ("heuristic", "random", 6, 1.0)
    assert pair["a_rate_low"] == pytest.approx(wilson(6, 6)[0]) and pair["a_rate_low"] < 0.62


def test_a_resume_with_another_game_names_both_games_not_null(tmp_path):
    """arena.json leaves a default setting out (the game, Gutenberg): a mismatch names the
    default, not JSON's null."""
    pp = arena.ArenaSettings(bots=["heuristic", "random"], game="printing-press", games=2)
    arena.write_settings(str(tmp_path), pp)
    with pytest.raises(arena.ArenaError, match="played with game = 'printing-press', not 'gutenberg'"):
        arena.check_settings(str(tmp_path), arena.ArenaSettings(bots=["heuristic", "random"], games=2))
