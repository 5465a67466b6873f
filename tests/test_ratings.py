"""Plackett-Luce ratings from finishing orders (gutenberg_ai.tools.ratings) and their
place in the arena's summary, for 2, 3 and 4 players."""
import json
import random

import pytest

from gutenberg_ai.tools import arena, ratings


def finished(seats_by_game, place):
    """Synthetic arena results: each game's seats, ranked by `place` (bot -> rank)."""
    return [dict(match="m", game=g, seats=list(seats), ranks=[place[b] for b in seats], scores=[0] * len(seats),
                 winners=[k for k, b in enumerate(seats) if place[b] == min(place[x] for x in seats)])
            for g, seats in enumerate(seats_by_game)]


def rotations(bots, games):
    return [bots[g % len(bots):] + bots[:g % len(bots)] for g in range(games)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_clearly_stronger_bot_ranks_first_with_an_interval_apart(players):
    bots = ["strong", "middle", "weak", "weakest"][:players]
    place = {b: k + 1 for k, b in enumerate(bots)}      # strong always first, and so on
    rows = ratings.plackett_luce(finished(rotations(bots, 60), place), list(reversed(bots)))
    assert [r["bot"] for r in rows] == bots
    for better, worse in zip(rows, rows[1:]):
        assert better["low"] > worse["high"]           # the intervals do not overlap
    assert all(r["games"] == 60 for r in rows)


def test_ties_are_ties():
    bots = ["a", "b", "c"]
    rows = ratings.plackett_luce(finished(rotations(bots, 30), dict(a=1, b=1, c=1)), bots)
    assert len({round(r["mu"], 9) for r in rows}) == 1 and rows[0]["mu"] == pytest.approx(25.0)
    # two tied at the top: equal to each other, above the third
    rows = {r["bot"]: r for r in ratings.plackett_luce(finished(rotations(bots, 30), dict(a=1, b=1, c=2)), bots)}
    assert rows["a"]["mu"] == pytest.approx(rows["b"]["mu"]) and rows["a"]["mu"] > rows["c"]["mu"]


def test_the_order_games_finished_in_does_not_matter():
    bots = ["a", "b", "c", "d"]
    rng = random.Random(3)
    seats = [rng.sample(bots, 4) for _ in range(40)]
    results = [dict(r, ranks=rng.sample([1, 2, 3, 3], 4)) for r in finished(seats, dict(a=1, b=2, c=3, d=4))]
    shuffled = results[:]
    rng.shuffle(shuffled)
    assert ratings.plackett_luce(shuffled, bots) == ratings.plackett_luce(results, bots)
    # nor the order of the seats within a game, their ranks going with them
    turned = [dict(r, seats=r["seats"][::-1], ranks=r["ranks"][::-1]) for r in results]
    for x, y in zip(ratings.plackett_luce(turned, bots), ratings.plackett_luce(results, bots)):
        assert x["bot"] == y["bot"] and x["mu"] == pytest.approx(y["mu"]) and x["sigma"] == pytest.approx(y["sigma"])


@pytest.mark.parametrize("players", [3, 4])
def test_the_arena_summary_has_them_for_three_and_four_players(tmp_path, players):
    # two bots for 3 or 4 seats: every lineup of them, a bot sitting more than once
    s = arena.ArenaSettings(bots=["heuristic", "random"], players=players, games=players, rounds=1, seconds=None)
    summary = arena.run_arena(s, str(tmp_path), jobs=1)
    rows = summary["plackett_luce"]
    assert sorted(r["bot"] for r in rows) == ["heuristic", "random"]
    assert all(r["games"] == summary["games"] and r["low"] < r["mu"] < r["high"] for r in rows)
    saved = json.loads((tmp_path / "summary.json").read_text())
    assert saved["plackett_luce"] == rows
    report = (tmp_path / "summary.md").read_text()
    assert "Plackett-Luce mu" in report and all(f"| {r['bot']} | {r['games']} | {r['mu']:.1f} |" in report for r in rows)
    assert (tmp_path / "plackett-luce.png").exists() and (tmp_path / "plackett-luce.svg").exists()


def test_an_arena_report_states_the_budget_the_searching_bots_had():
    # Every searching bot named with its own budget: the report says so, not the
    # command line's default --seconds (which none of them used).
    from gutenberg_ai.tools.arena import budget_text
    assert budget_text({"bots": ["heuristic", "smmcts@50", "ismcts@50"], "seconds": 0.2}) == \
        "each bot's own budget (NAME@BUDGET)"
    assert budget_text({"bots": ["heuristic", "smmcts"], "seconds": 0.2}) == "0.2 s"
    assert budget_text({"bots": ["smmcts@50", "ismcts"], "iterations": 300}) == \
        "300 iterations (NAME@BUDGET: its own)"
