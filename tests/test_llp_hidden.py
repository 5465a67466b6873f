"""Information hiding in Lead Letter Printers: the factories another player draws (and the
two put back under the pile) are that player's alone; everything else is public.
Observations do not show them, determinize and resample_history redraw exactly them, and
a resampled history replays to the resampled state."""
import random

import numpy as np
import pytest

from gutenberg_ai.games.lead_letter_printers import _core
from llp_helpers import factory_minded_step, position_with_hidden_factories, unseen_put_back

A = _core.ACTIONS
C = _core.CHANCE_OUTCOMES


def obs(s, player):
    out = np.zeros(_core.OBSERVATION_SIZE, dtype=np.float32)
    assert s.write_observation(player, out) == _core.OBSERVATION_SIZE
    return out


def test_entries_hidden_are_the_others_factory_draws():
    R, s, history = position_with_hidden_factories()
    masked = s.mask_history(0, history)
    for (actor, a), (_, m) in zip(history, masked):
        other_draw = actor == -1 and C["FACTORY"] <= a < C["TOP"] and (a - C["FACTORY"]) // 36 != 0
        assert (m == -1) == other_draw
    assert any(m == -1 for _, m in masked)
    assert s.mask_history(1, history) != masked


def test_observation_does_not_show_them():
    R, s, history = position_with_hidden_factories()
    text = s.observation_string(0)
    for x in unseen_put_back(s, 0):
        # Their owner's view names nothing of them either: they are under the pile.
        assert R.catalogue.describe_factory(x) not in text
    seen = obs(s, 0)
    changed = False
    for seed in range(20):
        t = s.determinize(0, seed)
        assert t.problems() == []
        assert np.array_equal(obs(t, 0), seen)           # player 0 cannot tell them apart
        changed |= t.to_dict()["factory_bottom"] != s.to_dict()["factory_bottom"] or \
            t.to_dict()["factory_pile"] != s.to_dict()["factory_pile"]
        # What player 0 saw stays.
        for lv in range(4):
            d, e = s.to_dict(), t.to_dict()
            for i in range(d["factory_bottom_n"][lv]):
                if (d["factory_bottom_seen"][lv][i] >> 0) & 1:
                    assert e["factory_bottom"][lv][i] == d["factory_bottom"][lv][i]
    assert changed
    # The player who put them back sees them: a redraw for player 0 shows in his view.
    for seed in range(20):
        t = s.determinize(0, seed)
        if t.to_dict()["factory_bottom"] != s.to_dict()["factory_bottom"]:
            assert not np.array_equal(obs(t, 1), obs(s, 1))
            break
    else:
        pytest.fail("no redraw changed the factories put back")


def test_a_resampled_history_rewrites_the_others_factory_draws_only():
    """(tests/test_games_hidden.py: a resampled history replays to the resampled state.)"""
    R, s, history = position_with_hidden_factories()
    changed_any = False
    for seed in range(10):
        t, actions = s.resample_history(0, history, seed)
        assert np.array_equal(obs(t, 0), obs(s, 0))
        for (actor, a), b in zip(history, actions):
            if a != b:
                assert actor == -1 and (a - C["FACTORY"]) // 36 != 0     # only the others' draws
                changed_any = True
    assert changed_any


def test_a_history_that_does_not_fit_is_left_alone():
    R, s, history = position_with_hidden_factories()
    t, actions = s.resample_history(0, history[:-5] + history[:3], 1)
    assert t == s and actions == [a for _, a in history[:-5] + history[:3]]


def test_resample_from_a_position_with_hidden_factories():
    """A game that starts from a position holding factories another player put back unseen:
    the resample relabels them in the start and in the history alike."""
    R, start, _ = position_with_hidden_factories()
    R2 = R.starting_at(start)
    s = R2.new_state()
    rng = random.Random(4)
    history = []
    for _ in range(300):
        if s.is_terminal():
            break
        history.append(factory_minded_step(s, rng))
    moved = 0
    for seed in range(10):
        begin, t, actions = s.resample_from(R2.new_state(), 0, history, seed)
        # The new start is the relabelled position; replaying from it gives the new state.
        replay = begin.clone()
        for a in actions:
            replay.apply(a)
        assert replay == t
        assert np.array_equal(obs(t, 0), obs(s, 0)) and np.array_equal(obs(begin, 0), obs(R2.new_state(), 0))
        moved += begin != R2.new_state()
    assert moved > 0
