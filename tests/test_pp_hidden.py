"""Hidden information in Printing Press: what a player sees of the others' setup tokens and
drawn tokens (observation strings and tensors), the history entries hidden from a player,
determinize (redraw what the player has not seen, keep what they saw) and
resample_history from a later start and between the draws of a discard
(tests/test_games_hidden.py: a rewritten history replays to the resampled state)."""
import random

import numpy as np
import pytest

from gutenberg_ai.games.printing_press import _core
from every_game import random_history
from pp_helpers import A, C, N, SYM, at_place, rules, row_card, setup


def obs(s, player):
    out = np.zeros(_core.OBSERVATION_SIZE, dtype=np.float32)
    s.write_observation(player, out)
    return out


def test_the_others_setup_tokens_are_not_in_a_players_observation():
    R = rules(2)
    s = setup(R, tiles=["Guillard", "Caxton"], tokens=[["A", "I", "O"], ["grey", "binding", "yellow", "grey"]])
    text0 = s.observation_string(0)
    text1 = s.observation_string(1)
    assert "1:A 2:I 3:O" in text0 and "1:? 2:? 3:? 4:?" in text0
    assert "1:grey 2:binding 3:yellow 4:grey" in text1 and "1:? 2:? 3:?" in text1
    for name in ("grey", "binding", "yellow"):
        assert name not in text0          # nothing else shows these yet
    # Another draw of the same state with other hidden symbols looks the same to player 0.
    t = setup(R, tiles=["Guillard", "Caxton"], tokens=[["A", "I", "O"], ["U", "red", "red", "A"]])
    assert t.observation_string(0) == text0
    assert np.array_equal(obs(t, 0), obs(s, 0))
    assert not np.array_equal(obs(t, 1), obs(s, 1))


def test_drawn_tokens_are_seen_by_the_drawer_only():
    R = rules(2)
    s, seat = at_place(R, row_card(), [["A", "I", "O"]])
    s.apply(A["DISCARD"])
    for name in ("red", "U", "grey"):
        s.apply(C["DRAW"] + seat * N + SYM[name])
    mine, theirs = s.observation_string(seat), s.observation_string(1 - seat)
    assert "Drawn: red, U, grey" in mine and "Drawn: 3 tokens" in theirs
    s.apply(A["KEEP_DOWN"] + SYM["U"])
    assert "Held: a token initiative side up" in s.observation_string(1 - seat)
    s.apply(s.legal_actions()[0])
    assert "placed initiative side up: U x1" in s.observation_string(seat)
    assert "placed initiative side up" not in s.observation_string(1 - seat)


def test_entry_hidden_masks_exactly_the_others_hidden_entries():
    R = rules(3)
    s, hist = random_history(R, 4, 400)
    for player in range(3):
        masked = s.mask_history(player, hist)
        for (actor, a), (_, m) in zip(hist, masked):
            hidden = m == -1
            if actor == -1:
                if C["SETUP"] <= a < C["FRAME"]:
                    assert hidden == ((a - C["SETUP"]) // N != player)
                elif C["DRAW"] <= a < C["NUM_CHANCE"]:
                    assert hidden == ((a - C["DRAW"]) // N != player)
                else:
                    assert not hidden
            elif actor != player and (A["KEEP_DOWN"] <= a < A["SETUP_UP"] or A["CAXTON_TAKE"] <= a < A["TOKEN_AT"]):
                assert hidden
            else:
                assert not hidden
        assert any(m == -1 for _, m in masked)


@pytest.mark.parametrize("players, seed", [(2, 4), (3, 2), (4, 3), (4, 7)])
def test_determinize_keeps_what_the_player_saw(players, seed):
    R = rules(players)
    s, _ = random_history(R, seed, random.Random(seed).randrange(60, 250))
    for player in range(players):
        changed = False
        for k in range(10):
            t = s.determinize(player, 1000 * seed + k)
            assert t.problems() == []
            assert t.observation_string(player) == s.observation_string(player)
            assert np.array_equal(obs(t, player), obs(s, player))
            d, e = s.to_dict(), t.to_dict()
            assert d["players"][player] == e["players"][player]        # the player's own
            assert sum(d["bag"]) == sum(e["bag"])
            for q in range(players):
                if q != player:
                    changed |= d["players"][q]["hand"] != e["players"][q]["hand"]
            assert t.legal_actions() == s.legal_actions() or s.current_player() != player
        assert changed, "nothing was redrawn"


def test_resample_history_leaves_a_history_that_does_not_start_the_game():
    R = rules(2)
    s, hist = random_history(R, 5, 120)
    t, actions = s.resample_history(0, hist[10:], 3)
    assert actions == [a for _, a in hist[10:]] and t == s


@pytest.mark.parametrize("players", [2, 3])
def test_resample_history_from_a_later_start_redraws_the_start_too(players):
    """A history that begins at a state in the middle of a game (a position): the hidden
    symbols of that start are redrawn with the history's, and replaying the rewritten
    history from the rewritten start gives the resampled state."""
    R = rules(players)
    redrawn = 0
    for g in range(8):
        s, hist = random_history(R, 300 + g, 200)
        cut = random.Random(g).randrange(20, 120)
        start = R.new_state()
        for _, a in hist[:cut]:
            start.apply(a)
        for player in range(players):
            t, actions, new_start = s.resample_history(player, hist[cut:], 11 * g + player, start=start)
            assert new_start.problems() == [] and t.problems() == []
            assert new_start.observation_string(player) == start.observation_string(player)
            assert t.observation_string(player) == s.observation_string(player)
            replay = new_start.clone()
            for a in actions:
                replay.apply(a)
            assert replay == t
            redrawn += new_start != start
    assert redrawn > 0, "the start's hidden symbols were never redrawn"


def test_resample_between_the_draws_of_a_discard():
    """At the chance node between two draws for another player's discarded card, the
    drawn token in the pool is that player's: the resample relabels it with the history
    (it read the chance node's seat and left the pool as it was, so the replay of the
    rewritten draws ended elsewhere)."""
    R = rules(2)
    found = 0
    for g in range(40):
        rng = random.Random(g)
        s, hist = R.new_state(), []
        while not s.is_terminal():
            d = s.to_dict()
            if s.is_chance() and d["pool_due"] > 0 and d["n_pool"] >= 1:
                break
            if s.is_chance():
                outcomes, probs = zip(*s.chance_outcomes())
                a = rng.choices(outcomes, probs)[0]
            else:
                legal = s.legal_actions()
                a = A["DISCARD"] if A["DISCARD"] in legal else rng.choice(legal)
            hist.append((s.current_player(), a))
            s.apply(a)
        if s.is_terminal():
            continue
        drawer = s.to_dict()["turn_order"][s.to_dict()["turn"]]
        player = 1 - drawer
        for k in range(5):
            t, actions = s.resample_history(player, hist, 31 * g + k)
            replay = R.new_state()
            for a in actions:
                replay.apply(a)
            assert replay.to_bytes() == t.to_bytes()
            found += actions != [a for _, a in hist]
    assert found > 0
