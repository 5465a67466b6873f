"""Resampling leaks nothing: what a resample or one of the search's redraws deals a player
anew does not depend on the hidden facts of the state it was drawn from.

OpenSpiel's own check (and ours elsewhere) only asks that a resample keep the player's
information state; a resampler that hands back the true state passes it. Here, for every
game: two states A and B that a player cannot tell apart (B is one of A's resamples, chosen
to differ from it as much as possible) are each redrawn many times, and the redrawn hidden
facts from A are compared with those from B, two-sample chi-square tests on

- how many of a redraw's facts equal A's true ones, how many equal B's, and
- each hidden fact on its own (every field of the state's `to_dict` that the redraws vary),

at a family-wise level ALPHA (Bonferroni over the tests of one comparison). A redraw that
does not leak gives the same distributions from A and from B, so a comparison rejects with
probability at most ALPHA (1e-6, asymptotically: chi-square with every merged cell expected
at least 5 times), the fifteen comparisons below together at most 1.5e-5 over the choice
of seeds. With the seeds fixed here the outcome is the same on every run. Its power is
shown on the same data: a redraw that returns the true state 30% of the time (`leaky`, the
bug OpenSpiel's own card games have had) is rejected in every comparison (p below 1e-25;
p-values of every case in docs/resampling.md).

The redraws: `resample_from_infostate` (the OpenSpiel state), and the search's own
redraws on the compiled state, each the C function the search calls: `determinize`
(ISMCTS, every iteration; Gutenberg's is reached through `resample_plans`) and
`smmcts_redraw` (the simultaneous-move search, every iteration).

scipy comes with open_spiel (one of its requirements)."""
import random

import pyspiel
import pytest
from scipy.stats import chi2_contingency

import gutenberg_ai  # noqa: F401  (registers the games with OpenSpiel)
from gutenberg_ai import core_of
from gutenberg_ai.games.lead_letter_printers import _core as llp_core

ALPHA = 1e-6          # family-wise false-positive rate of one comparison
DRAWS = 400           # redraws from each of A and B
LEAK = 0.3            # how often the leaky redraw returns the true state
MIN_EXPECTED = 5      # a chi-square cell expected fewer times is merged with the others
LLP = llp_core.ACTIONS


# -- hidden facts -----------------------------------------------------------------------
def facts(core):
    """Every field of a compiled state, by its path in to_dict: a redraw's hidden facts are
    those that vary from one redraw to the next."""
    out = {}

    def walk(x, path):
        if isinstance(x, dict):
            for k, v in x.items():
                walk(v, f"{path}/{k}")
        elif isinstance(x, (list, tuple)):
            for i, v in enumerate(x):
                walk(v, f"{path}/{i}")
        else:
            out[path] = x
    walk(core.to_dict(), "")
    return out


def matches(f, truth, keys):
    return sum(f[k] == truth[k] for k in keys)


# -- the redraws: each maps (state, player, k) to a redrawn compiled state ----------------
def by_resample(state, player, k):
    return core_of(state.resample_from_infostate(player, random.Random(k).random))


def by_determinize(state, player, k):
    core = core_of(state)
    redraw = core.resample_plans if hasattr(core, "resample_plans") else core.determinize
    return redraw(player, k)


def by_smmcts(state, player, k):
    return core_of(state).smmcts_redraw(player, k)


REDRAWS = {"resample_from_infostate": by_resample, "determinize": by_determinize,
           "smmcts_redraw": by_smmcts}


# -- positions ----------------------------------------------------------------------------
def factories_first(legal):
    """Lead Letter Printers: build factories when the game offers it (the hidden draws,
    factories put back under a pile unseen, come up sooner)."""
    return [a for a in legal if LLP["FACTORY_PILE"] <= a < LLP["UP"]]


PREFER = {"lead_letter_printers": factories_first}   # else uniformly random moves


def two_states(game_name, params, after, redraw, seed=1):
    """A state of a seeded random game where `redraw` varies what a player has not seen
    (the first with 3 different redraws in 8 after `after` actions), that player, and B: one of its redraws
    that differs from it in the most facts, as an OpenSpiel state when `redraw` is the
    OpenSpiel resample (both have the same information state for the player)."""
    game = pyspiel.load_game(game_name, params)
    prefer = PREFER.get(game_name, lambda legal: legal)
    for k in range(seed, seed + 20):
        rng = random.Random(k)
        state = game.new_initial_state()
        while not state.is_terminal():
            for player in range(game.num_players() if len(state.history()) >= after else 0):
                seen = {redraw(state, player, 10_000 + j).to_bytes() for j in range(8)}
                if len(seen) >= 3:
                    return state, player, other_state(state, player, redraw, facts(core_of(state)))
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(prefer(state.legal_actions()) or state.legal_actions()))
    pytest.fail(f"no state of a {game_name} game where {redraw.__name__} redraws anything")


def other_state(state, player, redraw, truth):
    def differ(k):
        return sum(v != truth[key] for key, v in facts(redraw(state, player, k)).items())
    k = max(range(20_000, 20_020), key=differ)
    if redraw is by_resample:
        other = state.resample_from_infostate(player, random.Random(k).random)
        assert other.information_state_string(player) == state.information_state_string(player)
        return other
    return redraw(state, player, k)


# -- the test -----------------------------------------------------------------------------
def p_value(xs, ys):
    """Chi-square two-sample test of two lists of hashable values: the p-value that they
    come from one distribution (1.0 when there is a single merged cell)."""
    values = sorted(set(xs) | set(ys), key=repr)
    table = [[xs.count(v) for v in values], [ys.count(v) for v in values]]
    keep = [j for j in range(len(values)) if (table[0][j] + table[1][j]) / 2 >= MIN_EXPECTED]
    rest = [j for j in range(len(values)) if j not in keep]
    rows = [[row[j] for j in keep] + ([sum(row[j] for j in rest)] if rest else []) for row in table]
    rows = [[c for c, a, b in zip(r, *rows) if a + b > 0] for r in rows]
    if len(rows[0]) < 2:
        return 1.0
    return chi2_contingency(rows)[1]


def leak_p(from_a, from_b, truth_a, truth_b):
    """The smallest p-value over the comparison's tests, Bonferroni-corrected."""
    keys = sorted({k for f in from_a + from_b for k in f if f[k] != from_a[0][k]}
                  | {k for k in truth_a if truth_a[k] != truth_b[k]})
    tests = [([matches(f, truth_a, keys) for f in from_a], [matches(f, truth_a, keys) for f in from_b]),
             ([matches(f, truth_b, keys) for f in from_a], [matches(f, truth_b, keys) for f in from_b])]
    tests += [([f[k] for f in from_a], [f[k] for f in from_b]) for k in keys]
    return min(1.0, len(tests) * min(p_value(xs, ys) for xs, ys in tests))


def leaky(redrawn, truth, seed):
    """The redraws of a resampler that returns the true state with probability LEAK."""
    rng = random.Random(seed)
    return [truth if rng.random() < LEAK else f for f in redrawn]


# label -> (game, its parameters, actions before the first state tried)
POSITIONS = {
    "gutenberg characters": ("gutenberg", {}, 0),                    # the tiles drawn at setup
    "gutenberg plans": ("gutenberg", {"characters": False}, 0),      # the plans committed before
    "gutenberg_py plans": ("gutenberg_py", {"characters": False}, 0),   # the Python shell's resample
    "printing-press tokens": ("printing_press", {}, 0),              # setup tokens, the bag
    "printing-press later": ("printing_press", {}, 150),             # tokens drawn in play
    "lead-letter-printers factories": ("lead_letter_printers", {}, 0),   # factories put back
}
# smmcts chooses the others' plans at its own nodes from what the root player has seen
# (search.pxi, apply_joint_moves): it redraws no plan.
# The Python shell shares the native game's core: only its own resample is its own.
CASES = [(label, kind) for label in POSITIONS for kind in REDRAWS
         if (label, kind) != ("gutenberg plans", "smmcts_redraw")
         and (not label.startswith("gutenberg_py") or kind == "resample_from_infostate")]


@pytest.fixture(scope="module")
def redrawn():
    """(position, redraw) -> the facts of A, of B, and DRAWS redraws from each."""
    cache = {}

    def get(label, kind):
        if (label, kind) not in cache:
            redraw = REDRAWS[kind]
            a, player, b = two_states(*POSITIONS[label], redraw)
            truth_a, truth_b = facts(core_of(a)), facts(core_of(b))
            assert truth_a != truth_b
            from_a = [facts(redraw(a, player, k)) for k in range(DRAWS)]
            from_b = [facts(redraw(b, player, DRAWS + k)) for k in range(DRAWS)]
            cache[label, kind] = truth_a, truth_b, from_a, from_b
        return cache[label, kind]
    return get


@pytest.mark.parametrize("label, kind", CASES)
def test_the_redrawn_hidden_facts_do_not_depend_on_the_true_ones(redrawn, label, kind):
    truth_a, truth_b, from_a, from_b = redrawn(label, kind)
    assert leak_p(from_a, from_b, truth_a, truth_b) >= ALPHA


@pytest.mark.parametrize("label, kind", CASES)
def test_a_redraw_that_returns_the_true_state_30_percent_of_the_time_is_caught(redrawn, label, kind):
    truth_a, truth_b, from_a, from_b = redrawn(label, kind)
    assert leak_p(leaky(from_a, truth_a, 1), leaky(from_b, truth_b, 2), truth_a, truth_b) < ALPHA


# Printing Press's OpenSpiel resample permutes the symbols of physical tokens whose
# identities follow the true symbols (story_pick), so two histories the player cannot
# tell apart may still be redrawn differently (docs/resampling.md).
SAME_REDRAW = [(label, kind) for label, kind in CASES
               if not (label.startswith("printing-press") and kind == "resample_from_infostate")]


@pytest.mark.parametrize("label, kind", SAME_REDRAW)
def test_two_states_the_player_cannot_tell_apart_are_redrawn_alike(label, kind):
    """A redraw deals the unseen facts from a canonical order of the unseen pool, not from
    where the true ones lie: A and B (the player cannot tell them apart) give the same
    redraw at the same seed, so a search, whose every iteration redraws, depends on what
    the player knows only (docs/search.md)."""
    redraw = REDRAWS[kind]
    a, player, b = two_states(*POSITIONS[label], redraw)
    assert facts(core_of(a)) != facts(core_of(b))
    for k in range(20):
        assert facts(redraw(a, player, k)) == facts(redraw(b, player, k)), k
