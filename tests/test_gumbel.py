"""Gumbel root selection (root_selection="gumbel"; docs/search.md): m root moves sampled
by Gumbel-top-m over the priors, sequential halving over the budget, the surviving move
played. And root-parallel trees whose number, not the threads', fixes the result."""
import os

import pytest

import gutenberg_ai
from gutenberg_ai.games import core_of
from gutenberg_ai.games.positionfile import load_position
from test_hints import at_plan

CLOSE_ROUND = os.path.join(os.path.dirname(gutenberg_ai.__file__), "games", "printing_press", "data",
                           "positions", "close-round1-2p.json")


def close_round():
    """Printing Press, a 2-player first round: player 0 closes frames, 20-odd moves."""
    g, pos = load_position(CLOSE_ROUND)
    return g, core_of(pos.state)


def visited(tree):
    return {m["action"]: m["visits"] for m in tree.root_stats() if m["visits"]}


@pytest.mark.parametrize("where", ["ismcts-root", "smmcts-simultaneous-root"])
def test_phase_one_visits_only_m_moves_then_halves_to_one_survivor(where):
    """m = 4 moves, 2 halving phases over 800 iterations: phase one gives each of the 4
    sampled moves 800 / (2 * 4) = 100 visits and no other move any; phase two gives the
    2 kept ones 200 more each; the better of them by Gumbel's score is played."""
    if where == "ismcts-root":
        g, core = close_round()
        tree = g.core.SearchTree(core, "ismcts", 3, root_selection="gumbel", gumbel_moves=4)
    else:   # a Gutenberg plan step: smmcts's root is a simultaneous node (every seat's plans)
        g = gutenberg_ai.games.get("gutenberg")
        core = core_of(at_plan(commit=False))
        tree = g.core.SearchTree(core, "smmcts", 3, root_selection="gumbel", gumbel_moves=4)
    assert len(tree.root_stats()) > 8
    tree.plan(800)
    tree.run(400)
    first = visited(tree)
    assert sorted(first.values()) == [100] * 4
    assert len(tree.survivors) == 4 and set(tree.survivors) == set(first)
    tree.run(400)
    second = visited(tree)
    assert set(second) == set(first)
    kept = [a for a in second if second[a] == 300]
    assert len(kept) == 2 and sorted(second.values()) == [100, 100, 300, 300]
    # The last phase is over: its 2 moves, best first; the first is the move played.
    assert set(tree.survivors) == set(kept)


def test_gumbel_search_is_deterministic_and_plays_its_survivor():
    g, core = close_round()
    runs = [g.core.search(core, "ismcts", iterations=600, seed=9, root_selection="gumbel") for _ in range(2)]
    assert runs[0]["moves"] == runs[1]["moves"] and runs[0]["chosen"] == runs[1]["chosen"]
    assert runs[0]["chosen"] in core.legal_actions()
    tree = g.core.SearchTree(core, "ismcts", g.core._thread_seed(9, 0), root_selection="gumbel")
    tree.run(600)
    assert tree.survivors[0] == runs[0]["chosen"]
    # Today's root: the most visited move, no survivors.
    plain = g.core.search(core, "ismcts", iterations=600, seed=9)
    assert plain["chosen"] == plain["moves"][0]["action"]
    assert g.core.SearchTree(core, "ismcts", 9).survivors is None


def test_a_bot_with_gumbel_root_selection_plays_a_legal_move():
    game = gutenberg_ai.load_game(players=2)
    state = at_plan(commit=False)
    bot = gutenberg_ai.make_bot("smmcts", game, 0, seed=1, iterations=300, root_selection="gumbel")
    assert bot.step(state) in state.legal_actions()


@pytest.mark.parametrize("option, value, message", [
    ("root_selection", "halving", "root_selection: 'halving' is not one of tree, gumbel"),
    ("gumbel_moves", 0, "gumbel_moves: 0 is not a whole number from 1"),
    ("gumbel_moves", 2.5, "gumbel_moves: 2.5 is not a whole number"),
    ("gumbel_c_visit", -1.0, r"gumbel_c_visit: -1.0 is not a number in \[0, 1e\+09\]"),
    ("gumbel_c_scale", "big", "gumbel_c_scale: 'big' is not a number"),
])
def test_gumbel_options_are_checked_and_a_bad_one_named(option, value, message):
    g, core = close_round()
    with pytest.raises(ValueError, match=message):
        g.core.search(core, "ismcts", iterations=10, **{option: value})


def test_the_trees_not_the_threads_fix_a_search_with_an_iteration_budget():
    g, core = close_round()
    one, two = (g.core.search(core, "ismcts", iterations=800, seed=4, threads=t, trees=4, batches=4)
                for t in (1, 2))
    assert one["trees"] == two["trees"] == 4 and (one["threads"], two["threads"]) == (1, 2)
    assert one["moves"] == two["moves"] and one["chosen"] == two["chosen"]
    capped = g.core.search(core, "ismcts", iterations=800, seconds=600.0, seed=4, threads=2, trees=4, batches=4)
    assert capped["moves"] == one["moves"]   # a time cap not reached changes nothing
    with pytest.raises(ValueError, match="trees: 4 trees for 2 threads needs an iteration budget"):
        g.core.search(core, "ismcts", seconds=0.1, threads=2, trees=4)
    with pytest.raises(ValueError, match="trees: 0 is not a whole number"):
        g.core.search(core, "ismcts", iterations=10, trees=0)


def test_a_hint_with_an_iteration_budget_is_the_same_with_any_threads():
    """hint() takes every core by default; with an iteration budget it grows HINT_TREES
    trees whatever the threads, so 1 thread and 2 give the same hint."""
    g, core = close_round()
    one = gutenberg_ai.hint(core, iterations=600, seed=2, threads=1)
    two = gutenberg_ai.hint(core, iterations=600, seed=2, threads=2)
    default = gutenberg_ai.hint(core, iterations=600, seed=2)
    assert one == two == default and one.iterations == 600


def test_the_hint_command_takes_every_core_and_an_iteration_budget_repeats_on_any_threads():
    """`gutenberg-ai hint --iterations N --seed S` prints the same JSON with --threads 1,
    --threads 2 and no --threads (every core); its --help says what is reproducible."""
    import subprocess
    import sys

    def hint_json(*more):
        out = subprocess.run([sys.executable, "-m", "gutenberg_ai", "hint", CLOSE_ROUND, "--iterations", "400",
                              "--seed", "3", "--json", *more], capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr
        return out.stdout
    assert hint_json("--threads", "1") == hint_json("--threads", "2") == hint_json()
    helped = subprocess.run([sys.executable, "-m", "gutenberg_ai", "hint", "--help"], capture_output=True,
                            text=True, timeout=120).stdout
    assert "default: every core" in helped and "the same whatever the threads" in " ".join(helped.split())


def test_with_seconds_the_halving_visits_only_the_sampled_moves_and_plays_one_of_them():
    """A time budget plans the phases from the rate measured as the search goes: however
    many iterations the machine gives, only the m sampled moves are visited, and the
    move played is one of them (the timing itself is not asserted)."""
    g, core = close_round()
    result = g.core.search(core, "ismcts", seconds=0.3, seed=5, root_selection="gumbel", gumbel_moves=4)
    tried = [m["action"] for m in result["moves"] if m["visits"]]
    assert 1 <= len(tried) <= 4 and result["chosen"] in tried
