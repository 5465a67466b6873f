"""Invariants over many seeded random games, checked after every step: cards and inks
conserved, no negative money, at most 4 orders and 3 gears, levels at most VI, the game
ends after its last round; and the same seed gives the same game."""
import random

import pytest

import gutenberg_ai
from gutenberg_ai import core_of, rules_of


def play(game, seed, check=None):
    """One game with seeded random moves and draws; `check(core)` after every step.
    Returns the actions played."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    actions = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            assert abs(sum(probs) - 1.0) < 1e-9
            a = rng.choices(outcomes, probs)[0]
        else:
            legal = state.legal_actions()
            assert legal == sorted(set(legal)) and legal
            a = rng.choice(legal)
        state.apply_action(a)
        actions.append(a)
        if check:
            check(core_of(state))
        assert len(actions) <= game.max_game_length()
    return state, actions


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
        state, _ = play(game, 1000 * players + seed, check_invariants)
        core = core_of(state)
        assert core.round == 6 and core.phase == "end"
        assert state.returns() and abs(sum(state.returns())) < 1e-9


@pytest.mark.parametrize("rounds", [1, 2, 4])
def test_the_game_ends_after_the_last_round(rounds):
    game = gutenberg_ai.load_game(rounds=rounds)
    state, _ = play(game, 77 + rounds, check_invariants)
    assert core_of(state).round == rounds and state.is_terminal()


def test_the_same_seed_gives_the_same_game():
    game = gutenberg_ai.load_game(players=3)
    a_state, a = play(game, 5)
    b_state, b = play(game, 5)
    _, c = play(game, 6)
    assert a == b and core_of(a_state) == core_of(b_state)
    assert a != c


def test_core_random_playouts_are_seeded():
    rules = rules_of(gutenberg_ai.load_game(players=4))
    assert rules.random_games(3, 99) == rules.random_games(3, 99)
    one, two = rules.new_state(), rules.new_state()
    one.play_random(42)
    two.play_random(42)
    assert one == two and one.is_terminal()
    assert one.problems() == []


def test_problems_reports_a_missing_card():
    game = gutenberg_ai.load_game()
    state, _ = play(game, 3)
    d = core_of(state).to_dict()
    d["printing_deck"] &= ~(d["printing_deck"] & -d["printing_deck"])  # drop one card
    d["printing_discard"] &= ~(d["printing_discard"] & -d["printing_discard"])
    with pytest.raises(ValueError, match="nowhere"):
        rules_of(game).state_from_dict(d)
