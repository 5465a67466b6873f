"""Invariants of Gutenberg over many seeded random games, checked after every step: cards
and inks conserved, no negative money, at most 4 orders and 3 gears, levels at most VI,
the game ends after its last round (tests/test_games_invariants.py: the same seed gives
the same game, and what else every game shares)."""

import pytest

import gutenberg_ai
from gutenberg_ai import rules_of
from every_game import play_core


def play(game, seed, check=None):
    """One game of `game` (a pyspiel game) with seeded random moves and draws in its
    core; `check(core)` after every step. Returns the final core state and the actions."""
    return play_core(rules_of(game), seed, check, max_length=game.max_game_length())


def check_invariants(core):
    assert core.problems() == []  # every card in exactly one place, 48 inks, ranges
    d = core.to_dict()
    assert 0 <= d["round"] <= d["rounds"]
    for seat in range(d["num_seats"]):
        p = d["players"][seat]
        assert p["guilders"] >= 0
        assert min(p["inks"]) >= 0 and min(p["types"]) >= 0
        assert sum(1 for x in p["order_printing"] if x >= 0) <= 4
        assert sum(1 for x in p["gear"] if x >= 0) <= 3
        assert max(p["levels"]) <= 6
        assert p["gear_uses"] <= 3
        assert sum(p["plan"]) in (0, p["markers"])
        assert max(p["plan"]) <= 6
    assert min(d["bag"]) >= 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_invariants_hold_in_random_games(players):
    game = gutenberg_ai.load_game(players=players)
    for seed in range(12 if players == 2 else 6):
        core, _ = play(game, 1000 * players + seed, check_invariants)
        assert core.round == 6 and core.phase == "end"
        assert core.returns("win") and abs(sum(core.returns("win"))) < 1e-9


@pytest.mark.parametrize("rounds", [1, 2, 4])
def test_the_game_ends_after_the_last_round(rounds):
    game = gutenberg_ai.load_game(rounds=rounds)
    core, _ = play(game, 77 + rounds, check_invariants)
    assert core.round == rounds and core.is_terminal()


def test_problems_reports_a_missing_card():
    game = gutenberg_ai.load_game()
    core, _ = play(game, 3)
    d = core.to_dict()
    d["printing_deck"] &= ~(d["printing_deck"] & -d["printing_deck"])  # drop one card
    d["printing_discard"] &= ~(d["printing_discard"] & -d["printing_discard"])
    with pytest.raises(ValueError, match="nowhere"):
        rules_of(game).state_from_dict(d)
