"""Lead Letter Printers as OpenSpiel sees it, where it is its own: its numbers, hidden
factories in observations and information states and their resampling, start files.
tests/test_games_openspiel.py checks what every game shares."""
import json
import random

import numpy as np
import pyspiel
import pytest

import gutenberg_ai
from gutenberg_ai.games.lead_letter_printers import _core
from every_game import check_resample, play_random, random_step
from llp_helpers import A

GAME = "lead_letter_printers"


def load(**params):
    return pyspiel.load_game(GAME, params)


def factories_first(legal):
    """Build factories when the game offers it (hidden draws come up sooner)."""
    return [a for a in legal if A["FACTORY_PILE"] <= a < A["UP"]]


def test_game_type_and_info():
    """What is Lead Letter Printers' own (test_games_openspiel.py checks the rest)."""
    game = load(players=3)
    rules = gutenberg_ai.rules_of(game)
    t = game.get_type()
    assert (t.min_num_players, t.max_num_players) == (2, 4)
    assert game.num_distinct_actions() == _core.NUM_ACTIONS
    assert game.max_chance_outcomes() == _core.NUM_CHANCE_OUTCOMES
    assert game.max_game_length() == rules.max_game_length == _core.max_game_length(3, 0)
    score = load(players=2, returns="score")
    assert score.min_utility() < 0 < score.max_utility() == float(rules.catalogue.max_score())


def _with_hidden_factories(players, seed):
    """A random game (the first of the seeds from `seed` on that gets there) up to a
    decision where player 0 has not seen factories another player drew and put back."""
    game = load(players=players)

    def hidden(s):
        if s.is_chance_node():
            return False
        d = gutenberg_ai.core_of(s).to_dict()
        return any(not (d["factory_bottom_seen"][lv][i] & 1)
                   for lv in range(4) for i in range(d["factory_bottom_n"][lv]))
    for k in range(seed, seed + 200):
        state = play_random(game.new_initial_state(), random.Random(k), stop=hidden, prefer=factories_first)
        if not state.is_terminal():
            return game, state
    pytest.fail("no random game put factories back unseen by player 0")


def test_another_players_factories_are_in_neither_observation_nor_information_state():
    game, state = _with_hidden_factories(2, 5)
    masked = state.information_state_string(0)
    assert "?" in masked and state.information_state_string(1) != masked
    def put_back(s):      # which factories lie under each pile (not their order)
        return [sorted(level) for level in gutenberg_ai.core_of(s).to_dict()["factory_bottom"]]
    bottom = put_back(state)
    for k in range(30):
        r = state.resample_from_infostate(0, random.Random(k).random)
        if put_back(r) != bottom:
            break
    else:
        pytest.fail("the factories player 0 has not seen were never redrawn")
    # Player 0 cannot tell the two apart; player 1, who put them back, can.
    assert r.information_state_string(0) == masked
    assert np.array_equal(r.observation_tensor(0), state.observation_tensor(0))
    assert np.array_equal(r.information_state_tensor(0), state.information_state_tensor(0))
    assert not np.array_equal(r.observation_tensor(1), state.observation_tensor(1))


@pytest.mark.parametrize("players, seed", [(2, 1), (3, 2), (4, 3)])
def test_resample_keeps_what_the_player_has_seen(players, seed):
    game, state = _with_hidden_factories(players, seed)
    redrawn = sum(check_resample(game, state, player, 10 * player + j) for player in range(players) for j in range(3))
    assert redrawn > 0, "nothing was redrawn"


def test_resampled_states_play_on_like_any_other():
    game, state = _with_hidden_factories(3, 9)
    r = state.resample_from_infostate(state.current_player(), random.Random(1).random)
    play_random(r, random.Random(2))
    assert r.is_terminal() and len(r.returns()) == 3 and sum(r.returns()) == pytest.approx(0.0)


def _drawing_from_under_the_pile(state, player):
    """Whether player is to act and some level's pile is empty above factories put back
    that player has not seen: the next draw of that level comes from under it, and no
    chance outcome says which factories come out."""
    if state.is_chance_node() or state.current_player() != player:
        return False
    d = gutenberg_ai.core_of(state).to_dict()
    per_level = _core.START_RECORD_WIDTH // 4      # a start record: one number per factory
    return any(d["factory_pile"] >> (lv * per_level) & ((1 << per_level) - 1) == 0
               and any(not (d["factory_bottom_seen"][lv][i] >> player) & 1 for i in range(d["factory_bottom_n"][lv]))
               for lv in range(4))


def test_factories_drawn_from_under_the_pile_are_in_the_drawers_information_state():
    """A draw from under a pile leaves no history entry, yet its drawer sees the
    factories (and may keep one): two states alike in every entry, whose player drew
    different factories from there, must not share an information state string, or a
    search keyed by it (OpenSpiel's ISMCTSBot) plays one's move in the other. The pair:
    a state where player is about to draw from under a pile, and its resample for that
    player (the factories another put back, unseen, relabelled), each after the same
    move. The piles dealt face down (factory_tops false), where the seeds below find such
    a draw soon; with them face up a pile's top comes out of the same queue in view of
    all, and the draw's other two as here."""
    game = load(players=4, factory_tops=False)
    for k in range(31, 31 + 40):
        rng = random.Random(k)
        state = game.new_initial_state()
        while not state.is_terminal():
            player = None if state.is_chance_node() else state.current_player()
            if player is not None and _drawing_from_under_the_pile(state, player):
                r = state.resample_from_infostate(player, random.Random(k).random)
                assert r.information_state_string(player) == state.information_state_string(player)
                for a in state.legal_actions():
                    s2, r2 = state.clone(), r.clone()
                    s2.apply_action(a)
                    r2.apply_action(a)
                    if s2.is_chance_node() or r2.is_chance_node() or s2.is_terminal():
                        continue
                    if s2.current_player() == player and s2.legal_actions() != r2.legal_actions():
                        # The same entries seen (no chance between), different factories to keep.
                        assert len(s2.history()) == len(r2.history()) == len(state.history()) + 1
                        assert s2.information_state_string(player) != r2.information_state_string(player)
                        assert not np.array_equal(s2.information_state_tensor(player),
                                                  r2.information_state_tensor(player))
                        return
            state.apply_action(random_step(state, rng, factories_first))
    pytest.fail("no random game drew factories another player put back unseen")


# ---------------------------------------------------------------------------------------
# Start files.
# ---------------------------------------------------------------------------------------
def _write_start(tmp_path, data, name="start.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


def test_a_start_file_starts_there_with_its_hidden_factories_redrawn(tmp_path):
    game, state = _with_hidden_factories(2, 5)
    history = state.history()
    path = _write_start(tmp_path, {"format": "lead-letter-printers-position", "players": 2, "moves": history})
    g = load(position=path)
    start = g.new_initial_state()
    assert start.history() == [] and gutenberg_ai.core_of(start) == gutenberg_ai.core_of(state)
    layouts = set()
    for k in range(20):
        r = start.resample_from_infostate(0, random.Random(k).random)
        assert r.observation_string(0) == start.observation_string(0)
        text = r.serialize()
        again = g.deserialize_state(text)
        assert gutenberg_ai.core_of(again) == gutenberg_ai.core_of(r)
        layouts.add(tuple(map(tuple, gutenberg_ai.core_of(r).to_dict()["factory_bottom"])))
        assert text.count("start_factories") <= 1
    assert len(layouts) > 1, "the factories put back unseen were not redrawn"
    pyspiel.random_sim_test(g, num_sims=2, serialize=True, verbose=False)
    # A record that does not fit is refused.
    r = start.resample_from_infostate(0, random.Random(1).random)
    lines = r.serialize().split("\n")
    record = [line for line in lines if line.startswith("start_factories ")]
    assert len(record) == 1, "a start with hidden factories writes their layout"
    numbers = [int(x) for x in record[0].split()[1:]]
    assert len(numbers) == _core.START_RECORD_WIDTH
    numbers[numbers.index(13)] = 0            # a built factory back in its pile
    tampered = [f"start_factories {' '.join(map(str, numbers))}" if line.startswith("start_factories")
                else line for line in lines[:-1]]
    with pytest.raises(pyspiel.SpielError, match="factories do not fit the game's start"):
        g.deserialize_state("\n".join(tampered))


@pytest.mark.parametrize("change, message", [
    ({"format": "printing-press-position"}, r"format: .*a position of Printing Press"),
    ({"players": 9}, r"players: 9 is out of range"),
    ({"moves": [0, 1.5]}, r"moves\[1\]"),
    ({"moves": [A["PASS"]]}, r"moves\[0\]: chance outcome"),
    ({"chairs": 2}, r"top level: unknown key 'chairs'"),
])
def test_a_bad_start_file_is_refused_naming_the_place(tmp_path, change, message):
    data = {"format": "lead-letter-printers-position", "players": 2, "moves": [], **change}
    with pytest.raises(pyspiel.SpielError, match=f"position: start.json: {message}"):
        load(position=_write_start(tmp_path, data))


def test_a_start_file_names_its_game(tmp_path):
    first = load(players=3).new_initial_state()
    moves = []
    while first.is_chance_node():
        moves.append(first.chance_outcomes()[0][0])
        first.apply_action(moves[-1])
    path = _write_start(tmp_path, {"format": "lead-letter-printers-position", "players": 3, "moves": moves})
    assert load(position=path).num_players() == 3
    assert load(position=path, players=3).num_players() == 3
    for players in (2, 4):      # 2, the default, given is the person's word too
        with pytest.raises(pyspiel.SpielError, match=f"players: {players}, but the position is a game with players 3"):
            load(position=path, players=players)
