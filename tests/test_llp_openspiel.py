"""Lead Letter Printers as OpenSpiel sees it: the native game "lead_letter_printers"
(registration, parameters, the pyspiel API, chance, hidden factories in observations and
information states, resampling, serialization, start files), the bots and hints through
the games table."""
import json
import random

import numpy as np
import pyspiel
import pytest

import gutenberg_ai
from gutenberg_ai import games, make_bot
from gutenberg_ai.games.lead_letter_printers import _core, game as llp_game
from llp_helpers import A

GAME = "lead_letter_printers"


def load(**params):
    return pyspiel.load_game(GAME, params)


def play_random(state, rng, stop=None, prefer=None):
    """Seeded random play (chance by its probabilities) until the end or stop(state);
    prefer(legal) may narrow the choices."""
    while not state.is_terminal() and not (stop and stop(state)):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            legal = state.legal_actions()
            state.apply_action(rng.choice((prefer(legal) if prefer else None) or legal))
    return state


def factories_first(legal):
    """Build factories when the game offers it (hidden draws come up sooner)."""
    return [a for a in legal if A["FACTORY_PILE"] <= a < A["UP"]]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_sim_test(players):
    pyspiel.random_sim_test(load(players=players), num_sims=2, serialize=True, verbose=False)


def test_random_sim_test_small_variant_and_returns():
    pyspiel.random_sim_test(load(players=3, rounds=1, returns="margin"), num_sims=2, serialize=True,
                            verbose=False)
    pyspiel.random_sim_test(load(players=2, rounds=2, returns="score"), num_sims=2, serialize=True,
                            verbose=False)


def test_game_type_and_info():
    game = load(players=3)
    rules = gutenberg_ai.rules_of(game)
    t = game.get_type()
    assert (t.short_name, t.long_name) == (GAME, "Lead Letter Printers")
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert (t.min_num_players, t.max_num_players) == (2, 4)
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.num_distinct_actions() == _core.NUM_ACTIONS
    assert game.max_chance_outcomes() == _core.NUM_CHANCE_OUTCOMES
    assert game.max_game_length() == rules.max_game_length == _core.max_game_length(3, 0)
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    assert game.observation_tensor_shape() == [_core.OBSERVATION_SIZE]
    score = load(players=2, returns="score")
    assert score.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert score.min_utility() < 0 < score.max_utility() == float(rules.catalogue.max_score())


def test_parameter_specification_is_the_modules():
    spec = pyspiel.load_game(GAME).get_type().parameter_specification
    assert spec == llp_game.DEFAULTS
    assert load().get_parameters() == llp_game.DEFAULTS


@pytest.mark.parametrize("params, message", [
    ({"players": 1}, r"players: 1 is out of range \(2-4\)"),
    ({"players": 5}, r"players: 5 is out of range"),
    ({"rounds": 21}, r"rounds: 21 is out of range"),
    ({"returns": "fame"}, r"returns: 'fame' is not one of win, score, margin"),
    ({"catalogue": "/no/such/file.json"}, r"catalogue"),
    ({"position": "/no/such/file.json"}, r"position"),
])
def test_bad_parameters_are_refused_naming_them(params, message):
    with pytest.raises(pyspiel.SpielError, match=message):
        load(**params)


def test_illegal_actions_are_refused_with_words_and_no_change():
    game = load(players=2)
    state = play_random(game.new_initial_state(), random.Random(1), stop=lambda s: not s.is_chance_node()
                        and len(s.history()) > 40)
    before = state.serialize()
    illegal = next(a for a in range(_core.NUM_ACTIONS) if a not in state.legal_actions())
    with pytest.raises(pyspiel.SpielError, match="is not legal now"):
        state.apply_action(illegal)
    assert state.serialize() == before


def test_chance_outcomes_are_exact():
    game = load(players=4)
    state = game.new_initial_state()
    rng = random.Random(2)
    seen = 0
    while seen < 60 and not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0, abs=1e-12)
            assert len({a for a, _ in outcomes}) == len(outcomes)
            seen += 1
            state.apply_action(rng.choices(*zip(*outcomes))[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))


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
    redrawn = 0
    for player in range(players):
        for j in range(3):
            r = state.resample_from_infostate(player, random.Random(10 * player + j).random)
            assert r.information_state_string(player) == state.information_state_string(player)
            assert r.observation_string(player) == state.observation_string(player)
            assert np.array_equal(r.observation_tensor(player), state.observation_tensor(player))
            assert gutenberg_ai.core_of(r).problems() == []
            again = game.deserialize_state(r.serialize())
            assert again.serialize() == r.serialize() and again.history() == r.history()
            redrawn += r.history() != state.history()
    assert redrawn > 0, "nothing was redrawn"


def test_resampled_states_play_on_like_any_other():
    game, state = _with_hidden_factories(3, 9)
    r = state.resample_from_infostate(state.current_player(), random.Random(1).random)
    play_random(r, random.Random(2))
    assert r.is_terminal() and len(r.returns()) == 3 and sum(r.returns()) == pytest.approx(0.0)


def test_core_of_a_native_state_is_its_struct():
    game = load(players=2)
    state = play_random(game.new_initial_state(), random.Random(3), stop=lambda s: len(s.history()) >= 80)
    core = gutenberg_ai.core_of(state)
    replay = gutenberg_ai.rules_of(game).new_state()
    for a in state.history():
        replay.apply(a)
    assert core == replay and core.current_player() == state.current_player()
    assert games.of(state).key == "lead-letter-printers" and games.returns_mode_of(game) == "win"
    with pytest.raises(TypeError):
        llp_game.core_of(pyspiel.load_game("gutenberg").new_initial_state())


def test_deserialize_refuses_what_does_not_fit():
    game = load(players=2)
    state = play_random(game.new_initial_state(), random.Random(5), stop=lambda s: len(s.history()) >= 30)
    lines = state.serialize().split("\n")
    with pytest.raises(pyspiel.SpielError, match="written for another game"):
        load(players=3).deserialize_state("\n".join(lines))
    bad = "\n".join(lines[:5] + ["999999"] + lines[5:])
    with pytest.raises(pyspiel.SpielError, match=r"line 6 .*not a legal action"):
        game.deserialize_state(bad)


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
    assert load(position=path, players=2).num_players() == 3    # the default gives way
    with pytest.raises(pyspiel.SpielError, match="players: 4, but the position is a game with players 3"):
        load(position=path, players=4)


# ---------------------------------------------------------------------------------------
# Bots and hints through the games table.
# ---------------------------------------------------------------------------------------
BOTS = {"random": {}, "heuristic": {}, "ismcts": {"iterations": 20}, "smmcts": {"iterations": 20},
        "openspiel-ismcts": {"iterations": 10}, "openspiel-ismcts-cpp": {"iterations": 20}}


def _bot_game(name, seed, players=2):
    game = load(players=players, rounds=1)
    bots = [make_bot(name, game, p, seed=seed + p, **BOTS[name]) for p in range(players)]
    state = game.new_initial_state()
    rng = random.Random(seed)
    actions = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            a = rng.choices(outcomes, probs)[0]
        else:
            a = bots[state.current_player()].step(state)
            assert a in state.legal_actions()
        actions.append(a)
        state.apply_action(a)
    return actions, state.returns()


@pytest.mark.parametrize("name", sorted(BOTS))
def test_bots_play_legal_moves_and_are_seeded(name):
    actions, returns = _bot_game(name, 11)
    assert sum(returns) == pytest.approx(0.0)
    if name != "openspiel-ismcts-cpp":   # ties in its search break in hash-map order (bots.py)
        assert _bot_game(name, 11) == (actions, returns)


def test_a_hint_on_a_lead_letter_printers_state():
    game = load(players=2)
    state = play_random(game.new_initial_state(), random.Random(12),
                        stop=lambda s: not s.is_chance_node() and len(s.legal_actions()) > 3
                        and len(s.history()) > 40)
    hints = gutenberg_ai.hint(state, iterations=60, top=3, seed=2)
    legal = state.legal_actions()
    assert 1 <= len(hints) <= 3 and all(h.action in legal for h in hints)
    assert hints[0].text == state.action_to_string(state.current_player(), hints[0].action)
