"""Information hiding in Lead Letter Printers: the factories another player draws (and the
two put back under the pile) are that player's alone; everything else is public.
Observations do not show them, determinize and resample_history redraw exactly them, and
a resampled history replays to the resampled state."""
import random

import numpy as np
import pytest

from gutenberg_ai.games.lead_letter_printers import _core, make_rules

A = _core.ACTIONS
C = _core.CHANCE_OUTCOMES


def obs(s, player):
    out = np.zeros(_core.OBSERVATION_SIZE, dtype=np.float32)
    assert s.write_observation(player, out) == _core.OBSERVATION_SIZE
    return out


def unseen_put_back(s, player):
    d = s.to_dict()
    return [d["factory_bottom"][lv][i] for lv in range(4) for i in range(d["factory_bottom_n"][lv])
            if not (d["factory_bottom_seen"][lv][i] >> player) & 1]


def factory_minded_step(s, rng, keen=None):
    """One seeded random step of core state `s`, building a factory where the game offers
    one (with probability `keen`, or always) so that hidden factories come up quickly.
    Returns (actor, action): actor -1 for a draw."""
    if s.is_chance():
        outs = s.chance_outcomes()
        a, actor = rng.choices([o for o, _ in outs], [p for _, p in outs])[0], -1
    else:
        legal = s.legal_actions()
        want = [x for x in legal if A["FACTORY_PILE"] <= x < A["UP"]]
        a, actor = (rng.choice(want) if want and (keen is None or rng.random() < keen) else rng.choice(legal)), \
            s.current_player()
    s.apply(a)
    return actor, a


def position_with_hidden_factories(players=2, player=0):
    """A random game up to a decision after another player has put factories back unseen."""
    for seed in range(400):
        R = make_rules({"players": players})
        s = R.new_state()
        rng = random.Random(seed)
        history = []
        while not s.is_terminal():
            history.append(factory_minded_step(s, rng, keen=0.9))
            if not s.is_chance() and not s.is_terminal() and len(unseen_put_back(s, player)) >= 2:
                return R, s, history
    pytest.skip("no position with hidden factories found")


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


def test_resampled_history_replays_to_the_resampled_state():
    R, s, history = position_with_hidden_factories()
    changed_any = False
    for seed in range(10):
        t, actions = s.resample_history(0, history, seed)
        replay = R.new_state()
        for a in actions:
            replay.apply(a)
        assert replay == t
        assert t.mask_history(0, list(zip([h[0] for h in history], actions))) == s.mask_history(0, history)
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
