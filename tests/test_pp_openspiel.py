"""Printing Press as OpenSpiel sees it, where it is its own: its numbers and utilities,
its words, exact token draws, hidden setup tokens in observations and information states,
resampling, start files, the search in its solo game. tests/test_games_openspiel.py
checks what every game shares."""
import json
import random

import numpy as np
import pyspiel
import pytest

import gutenberg_ai
from gutenberg_ai import make_bot
from gutenberg_ai.games.printing_press import _core, game as pp_game, names
from every_game import play_random
from pp_helpers import A, C, N, SYM

GAME = "printing_press"


def load(**params):
    return pyspiel.load_game(GAME, params)


def test_game_type_and_info():
    """What is Printing Press' own (test_games_openspiel.py checks the rest)."""
    game = load(players=3, variant="advanced")
    rules = gutenberg_ai.rules_of(game)
    t = game.get_type()
    assert (t.min_num_players, t.max_num_players) == (1, 4)
    assert game.num_distinct_actions() == _core.NUM_ACTIONS
    assert game.max_chance_outcomes() == _core.NUM_CHANCE_OUTCOMES
    assert game.max_game_length() == rules.max_game_length == _core.max_game_length(3, 5, 3)
    assert game.information_state_tensor_shape() == [_core.OBSERVATION_SIZE + 2 * game.max_game_length()]
    top = float(rules.catalogue.max_score())
    score = load(players=2, returns="score")
    assert (score.min_utility(), score.max_utility()) == (0.0, top)
    assert (load(returns="margin").min_utility(), load(returns="margin").max_utility()) == (-top, top)
    solo = load(players=1)
    assert solo.get_parameters()["returns"] == "score" and solo.num_players() == 1


def test_a_draw_that_cannot_happen_is_refused_in_words():
    """(test_games_openspiel.py refuses the players' illegal actions.)"""
    chance = load(players=2).new_initial_state()
    with pytest.raises(pyspiel.SpielError, match="chance outcome .* cannot happen now"):
        chance.apply_action(C["CARD"] + 3)


def test_action_to_string_speaks_the_games_words():
    game = load(players=2, characters=False)
    state = game.new_initial_state()
    assert state.action_to_string(-1, C["SETUP"] + SYM["blue"]) == "setup token for player 0: blue"
    rng = random.Random(2)
    seen = set()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choices(*zip(*state.chance_outcomes()))[0])
            continue
        for a in state.legal_actions():
            text = state.action_to_string(state.current_player(), a)
            seen.add(text.split()[0])
            assert "out of range" not in text and "no words" not in text
        state.apply_action(rng.choice(state.legal_actions()))
    assert {"take", "place", "close", "bonus"} <= seen


def test_chance_outcomes_are_exact():
    """Token draws in proportion to the bag, cards uniformly over the deck."""
    state = load(players=2, characters=False).new_initial_state()
    outcomes = dict(state.chance_outcomes())
    assert outcomes == {C["SETUP"] + x: pytest.approx(4 / 48) for x in range(N)}
    state.apply_action(C["SETUP"] + SYM["A"])
    outcomes = dict(state.chance_outcomes())
    assert outcomes[C["SETUP"] + SYM["A"]] == pytest.approx(3 / 47)
    assert outcomes[C["SETUP"] + SYM["I"]] == pytest.approx(4 / 47)
    assert sum(outcomes.values()) == pytest.approx(1.0)


def _setup_with(tokens0, tokens1):
    state = load(players=2, characters=False).new_initial_state()
    for seat, tokens in ((0, tokens0), (1, tokens1)):
        for name in tokens:
            state.apply_action(C["SETUP"] + seat * N + SYM[name])
    return state


def test_another_players_setup_tokens_are_in_neither_observation_nor_information_state():
    a = _setup_with(["A", "I", "O"], ["grey", "binding", "yellow"])
    b = _setup_with(["A", "I", "O"], ["U", "red", "red"])
    assert a.observation_string(0) == b.observation_string(0)
    assert a.information_state_string(0) == b.information_state_string(0)
    assert np.array_equal(a.observation_tensor(0), b.observation_tensor(0))
    assert np.array_equal(a.information_state_tensor(0), b.information_state_tensor(0))
    for name in ("grey", "binding", "yellow"):
        assert name not in a.observation_string(0)
    # Their owner sees them.
    assert a.observation_string(1) != b.observation_string(1)
    assert a.information_state_string(1) != b.information_state_string(1)
    assert "1:grey 2:binding 3:yellow" in a.observation_string(1)
    setup = C["SETUP"]
    assert a.information_state_string(0) == (f"p0 -1:{setup + SYM['A']} -1:{setup + SYM['I']} "
                                             f"-1:{setup + SYM['O']} -1:? -1:? -1:?")
    assert a.information_state_string(1) == (f"p1 -1:? -1:? -1:? -1:{setup + N + SYM['grey']} "
                                             f"-1:{setup + N + SYM['binding']} -1:{setup + N + SYM['yellow']}")


def test_resampled_states_play_on_like_any_other():
    game = load(players=3)
    rng = random.Random(9)
    state = play_random(game.new_initial_state(), rng, stop=lambda s: len(s.history()) >= 150)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    r = state.resample_from_infostate(state.current_player(), random.Random(1).random)
    play_random(r, rng)
    assert r.is_terminal() and len(r.returns()) == 3 and sum(r.returns()) == pytest.approx(0.0)


# ---------------------------------------------------------------------------------------
# Start files: a game from a point of a history, with components out of the game.
# ---------------------------------------------------------------------------------------
def _history_to(params, seed, stop):
    """A seeded random history until stop(state), the setup tokens kept in hand."""
    rules = pp_game.rules_for(params)
    rng = random.Random(seed)
    s, history = rules.new_state(), []
    while not stop(s):
        if s.is_chance():
            a = s.sample_chance(rng.randrange(1 << 30))
        else:
            legal = s.legal_actions()
            kept = [x for x in legal if not A["SETUP_UP"] <= x < A["GUILLARD"]]
            a = rng.choice(kept or legal)
        s.apply(a)
        history.append(a)
    return s, history


def _write_start(tmp_path, data, name="start.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


def test_a_start_file_starts_the_game_there_with_its_hidden_tokens_redrawn(tmp_path):
    params = {"players": 2, "variant": "advanced", "rounds": 1, "characters": False}
    s, history = _history_to(params, 3, lambda s: s.phase == "Select Cards" and s.current_player() >= 0
                             and s.to_dict()["step"] == 2)
    path = _write_start(tmp_path, {"format": "printing-press-start", **params, "history": history,
                                   "out_of_game": {"cards": [], "tokens": {}}})
    game = load(position=path)
    assert game.get_parameters()["variant"] == "advanced" and game.get_parameters()["rounds"] == 1
    start = game.new_initial_state()
    assert start.history() == [] and gutenberg_ai.core_of(start) == s
    player = start.current_player()
    other = 1 - player
    hands = set()
    for k in range(30):
        r = start.resample_from_infostate(player, random.Random(k).random)
        assert r.observation_string(player) == start.observation_string(player)
        text = r.serialize()
        again = game.deserialize_state(text)
        assert gutenberg_ai.core_of(again) == gutenberg_ai.core_of(r)
        hands.add(tuple(gutenberg_ai.core_of(r).to_dict()["players"][other]["hand"]))
        if "start_tokens" in text:
            assert text.count("start_tokens") == 1
    assert len(hands) > 1, "the other player's setup tokens were not redrawn"
    # The player's own tokens never change.
    mine = gutenberg_ai.core_of(start).to_dict()["players"][player]["hand"]
    r = start.resample_from_infostate(player, random.Random(3).random)
    assert gutenberg_ai.core_of(r).to_dict()["players"][player]["hand"] == mine
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_a_start_record_that_does_not_fit_is_refused(tmp_path):
    params = {"players": 2, "rounds": 1, "characters": False}
    s, history = _history_to(params, 4, lambda s: s.phase == "Select Orders")
    game = load(position=_write_start(tmp_path, {"format": "printing-press-start", **params,
                                                 "history": history}))
    start = game.new_initial_state()
    r = start.resample_from_infostate(start.current_player(), random.Random(1).random)
    lines = r.serialize().split("\n")
    record = [line for line in lines if line.startswith("start_tokens ")]
    assert len(record) == 1
    numbers = [int(x) for x in record[0].split()[1:]]
    assert len(numbers) == _core.START_RECORD_WIDTH
    numbers[0] += 1                      # one token more in the bag than the game has
    tampered = [f"start_tokens {' '.join(map(str, numbers))}" if line.startswith("start_tokens")
                else line for line in lines[:-1]]
    with pytest.raises(pyspiel.SpielError, match="tokens do not fit the game's start"):
        game.deserialize_state("\n".join(tampered))
    with pytest.raises(pyspiel.SpielError, match="'start_tokens' line is 84 numbers"):
        game.deserialize_state("start_tokens 1 2 3\n" + "\n".join(lines[-2:]))


def test_out_of_game_takes_cards_and_tokens_away(tmp_path):
    params = {"players": 2, "rounds": 1, "characters": False}
    s, history = _history_to(params, 6, lambda s: s.phase == "deal cards")
    d = s.to_dict()
    deck = [i + 1 for i in range(90) if d["card_deck"][i // 64] >> (i % 64) & 1]
    keep = deck[:3]
    data = {"format": "printing-press-start", **params, "history": history,
            "out_of_game": {"cards": deck[3:], "tokens": {n: d["bag"][i] for i, n in enumerate(names.SYMBOLS)
                                                          if names.SYMBOLS[i] != "A"}}}
    game = load(position=_write_start(tmp_path, data))
    start = game.new_initial_state()
    assert sorted(a - C["CARD"] + 1 for a, _ in start.chance_outcomes()) == keep
    core = gutenberg_ai.core_of(start)
    assert core.problems() == []
    assert sum(core.to_dict()["bag"]) == d["bag"][0]
    data["out_of_game"]["tokens"]["red"] = d["bag"][5] + 1
    with pytest.raises(pyspiel.SpielError, match=f"out_of_game.tokens.red: {d['bag'][5] + 1} red tokens, "
                                                 f"the bag holds {d['bag'][5]} after the history"):
        load(position=_write_start(tmp_path, data, "too_many.json"))


@pytest.mark.parametrize("change, message", [
    ({"format": "gutenberg-position"}, r"format: must be 'printing-press-start'"),
    ({"players": 9}, r"players: 9 is out of range"),
    ({"history": [0, "x"]}, r"history\[1\]: 'x' is not an action number"),
    ({"history": [A["WINDOW"]]}, r"history\[0\]: chance outcome \d+ is out of range"),
    ({"history": [C["SETUP"], A["WINDOW"]]}, r"history\[1\]: chance outcome \d+ is out of range"),
    ({"out_of_game": {"cards": [0, 5, 5]}}, r"out_of_game.cards\[0\]: 0 is not a card number"),
    ({"out_of_game": {"tokens": {"purple": 1}}}, r"out_of_game.tokens.purple: not a symbol"),
    ({"seats": 2}, r"seats: unknown key"),
    ({"out_of_game": {"tokens": {"A": 1}}}, r"out_of_game.tokens: tokens leave the game after the setup only"),
])
def test_a_bad_start_file_is_refused_naming_the_place(tmp_path, change, message):
    data = {"format": "printing-press-start", "players": 2, "characters": False, "history": [], **change}
    with pytest.raises(pyspiel.SpielError, match=f"position: start.json: {message}"):
        load(position=_write_start(tmp_path, data))


def test_a_draw_under_way_must_find_what_it_draws(tmp_path):
    params = {"players": 2, "rounds": 1, "characters": False}
    s, history = _history_to(params, 6, lambda s: s.phase == "deal cards" and s.to_dict()["n_offer"] == 1)
    d = s.to_dict()
    deck = [i + 1 for i in range(90) if d["card_deck"][i // 64] >> (i % 64) & 1]
    data = {"format": "printing-press-start", **params, "history": history, "out_of_game": {"cards": deck}}
    with pytest.raises(pyspiel.SpielError, match="out_of_game: the draw under way after the history has nothing"):
        load(position=_write_start(tmp_path, data))
    data["out_of_game"]["cards"] = deck[1:]
    game = load(position=_write_start(tmp_path, data, "one_left.json"))
    assert game.new_initial_state().chance_outcomes() == [(_core.CHANCE_OUTCOMES["CARD"] + deck[0] - 1, 1.0)]


def test_a_start_file_names_its_game(tmp_path):
    path = _write_start(tmp_path, {"format": "printing-press-start", "players": 3, "history": []})
    assert load(position=path).num_players() == 3
    assert load(position=path, players=3).num_players() == 3
    for players in (2, 4):      # 2, the default, given is the person's word too
        with pytest.raises(pyspiel.SpielError, match=f"players: {players}, but the position is a game with players 3"):
            load(position=path, players=players)
    with pytest.raises(pyspiel.SpielError, match='variant: "advanced", but the position is a game '
                                                 'with variant "basic"'):
        load(position=path, variant="advanced")


def test_smmcts_is_ismcts_without_a_simultaneous_step():
    game = load(players=3)
    state = play_random(game.new_initial_state(), random.Random(8),
                        stop=lambda s: len(s.history()) > 60 and not s.is_chance_node())
    core = gutenberg_ai.core_of(state)
    a = _core.search(core, "ismcts", iterations=200, seed=4)
    b = _core.search(core, "smmcts", iterations=200, seed=4)
    assert [(m["action"], m["visits"]) for m in a["moves"]] == [(m["action"], m["visits"]) for m in b["moves"]]


def test_the_solo_game_with_the_search():
    game = load(players=1, rounds=1)
    bot = make_bot("ismcts", game, 0, seed=3, iterations=20)
    state = game.new_initial_state()
    pyspiel.evaluate_bots(state, [bot], 3)
    core = gutenberg_ai.core_of(state)
    assert state.returns() == [float(core.final_scores()[0])]
    assert core.automa_score() is not None
