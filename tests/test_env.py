"""The games as PettingZoo environments (gutenberg_ai.env) and through Shimmy's OpenSpiel
wrapper: PettingZoo's own API test for every game and player count, the action mask,
the rewards, the seeding, what each player observes, and the parameters' errors."""
import functools

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, seed_test  # noqa: E402

from gutenberg_ai import games  # noqa: E402
from gutenberg_ai.env import env, raw_env  # noqa: E402
from gutenberg_ai.games.gamedata import ParameterError  # noqa: E402

# Every game and each player count it supports; solo games return their score only.
PLAYER_COUNTS = {"gutenberg": (1, 2, 3, 4), "printing-press": (1, 2, 3, 4),
                 "lead-letter-printers": (2, 3, 4)}
CASES = [(game, n) for game, counts in PLAYER_COUNTS.items() for n in counts]


def returns_for(players: int) -> str:
    return "score" if players == 1 else "win"


@pytest.mark.parametrize("game,players", CASES)
def test_pettingzoos_api_test_passes(game, players):
    api_test(env(game=game, players=players, returns=returns_for(players)), num_cycles=400)


@pytest.mark.parametrize("game", list(PLAYER_COUNTS))
def test_pettingzoos_seed_test_passes(game):
    seed_test(functools.partial(env, game=game, players=3), num_cycles=100)


def play(e, seed: int, on_step=None) -> list:
    """A whole game of `e` from reset(seed), each action drawn by a generator of the same
    seed among the mask's; the actions played. on_step(env) is called before each."""
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    played = []
    for agent in e.agent_iter():
        observation, _, termination, truncation, _ = e.last()
        if termination or truncation:
            e.step(None)
            continue
        if on_step:
            on_step(e)
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        played.append(action)
        e.step(action)
    return played


@pytest.mark.parametrize("game", list(PLAYER_COUNTS))
def test_the_mask_is_the_legal_actions_of_the_agent_to_move_only(game):
    def check(e):
        state = e.unwrapped.state
        for agent in e.possible_agents:
            mask = e.observe(agent)["action_mask"]
            if agent == e.agent_selection:
                assert np.flatnonzero(mask).tolist() == state.legal_actions()
            else:
                assert not mask.any()
    play(env(game=game, players=3), seed=1, on_step=check)


@pytest.mark.parametrize("game", list(games.GAMES))
def test_an_action_that_is_not_a_whole_number_is_refused_not_rounded(game):
    """A float, a bool or an array is not read as an action id (3033.0 was played as
    3033, True as 1): a ValueError, the game unchanged; numpy's whole numbers are ids."""
    e = raw_env(game=game)
    e.reset(seed=3)
    legal = e.unwrapped.state.legal_actions()
    before = e.unwrapped.state.history()
    for bad in (float(legal[0]), np.float64(legal[0]), True, np.array([legal[0]]), 1 + 2j, str(legal[0])):
        with pytest.raises(ValueError, match="is not a whole number"):
            e.step(bad)
    assert e.unwrapped.state.history() == before
    e.step(np.int64(legal[0]))
    assert e.unwrapped.state.history()[len(before)] == legal[0]


def test_reset_refuses_a_seed_or_options_it_cannot_take():
    """A bool is not a seed (True seeded as 1), nor a negative or a float; options are a
    dict (PettingZoo's API test gives one, which the game leaves unused)."""
    e = raw_env(game="gutenberg")
    for seed in (True, -1, 2**80, "x", 1.5):
        with pytest.raises(ValueError, match=f"seed: {seed!r} is not a seed"):
            e.reset(seed=seed)
    with pytest.raises(ValueError, match="options: 'x' is not a dict"):
        e.reset(options="x")
    e.reset(seed=np.int64(3), options={})
    assert e.agent_selection in e.agents


@pytest.mark.parametrize("game,players,returns", [
    ("gutenberg", 2, "win"), ("gutenberg", 3, "margin"), ("gutenberg", 1, "score"),
    ("printing-press", 2, "score"), ("printing-press", 4, "win"),
    ("lead-letter-printers", 3, "margin"), ("lead-letter-printers", 2, "win")])
def test_the_rewards_are_the_games_returns_given_at_the_end(game, players, returns):
    e = raw_env(game=game, players=players, returns=returns)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    rewarded_before_the_end = []

    e.reset(seed=2)
    rng = np.random.default_rng(2)
    while True:
        observation = e.observe(e.agent_selection)
        e.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        for agent, r in e.rewards.items():
            totals[agent] += r
        if e.state.is_terminal():
            break
        rewarded_before_the_end += [a for a, r in e.rewards.items() if r]
    assert rewarded_before_the_end == []
    assert list(totals.values()) == pytest.approx(e.state.returns())
    assert e.game.get_parameters()["returns"] == returns
    assert all(e.terminations.values())


@pytest.mark.parametrize("game", list(PLAYER_COUNTS))
def test_the_same_seed_plays_the_same_game_and_another_seed_another(game):
    first = play(env(game=game, players=2), seed=7)
    e = env(game=game, players=2)
    assert play(e, seed=7) == first
    history = e.unwrapped.state.history()
    play(e, seed=7)
    assert e.unwrapped.state.history() == history       # the draws too, on the same env
    play(e, seed=8)
    assert e.unwrapped.state.history() != history


def hidden_fact(game: str, seed: int, prefer: str = "", players: int = 2):
    """Two states a move or a draw apart along a seeded game, and the seats that observe
    the same in both and that observe a difference: the first such pair where somebody
    sees the difference and somebody does not; None if the game has none. The game's
    moves are random, among those whose words contain `prefer` where there are some."""
    e = raw_env(game=game, players=players)
    rng = np.random.default_rng(seed)
    state = e.game.new_initial_state()
    while not state.is_terminal():
        choices = ([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
                   else state.legal_actions())
        if len(choices) > 1:
            children = [state.child(a) for a in choices[:2]]
            same, differ = [], []
            for seat in range(players):
                seen = []
                for child in children:
                    e.state = child
                    seen.append(e.observe(f"player_{seat}")["observation"])
                (same if np.array_equal(*seen) else differ).append(seat)
            if same and differ:
                return same, differ
        if prefer and not state.is_chance_node():
            choices = [a for a in choices
                       if prefer in state.action_to_string(state.current_player(), a)] or choices
        state.apply_action(int(rng.choice(choices)))
    return None


# Lead Letter Printers hides the factories a player draws (and puts back); a random game
# seldom draws any, so its moves there prefer the factories, over a few seeds.
@pytest.mark.parametrize("game,prefer", [("gutenberg", ""), ("printing-press", ""),
                                         ("lead-letter-printers", "factor")])
def test_a_hidden_fact_is_in_one_players_observation_and_not_in_anothers(game, prefer):
    found = next(filter(None, (hidden_fact(game, seed, prefer) for seed in range(8))), None)
    assert found is not None
    same, differ = found
    assert len(same) == len(differ) == 1


@pytest.mark.parametrize("kwargs,words", [
    ({"game": "chess"}, "game: 'chess' is not one of"),
    ({"players": 7}, "players: 7 is out of range"),
    ({"players": "2"}, "players: '2' is not a whole number"),
    ({"returns": "points"}, "returns: 'points' is not one of win, score, margin"),
    ({"players": 1}, "returns: 'win' needs 2 or more players"),
    ({"render_mode": "human"}, "render_mode: 'human' is not None or one of ansi"),
    ({"rounds": 0}, "rounds: 0 is out of range"),
])
def test_a_bad_parameter_is_a_parameter_error_naming_it(kwargs, words, capfd):
    with pytest.raises(ParameterError, match=words):
        env(**kwargs)
    assert capfd.readouterr().err == ""       # (OpenSpiel's own refusal prints a line too)


def test_a_position_gives_the_players_unless_they_are_given_against_it():
    path = games.get("printing-press").data_folder + "/positions/cards-round2-3p.json"
    assert len(env(game="printing-press", position=path, returns="score").possible_agents) == 3
    with pytest.raises(ParameterError, match="players: 2, but the position is a game with players 3"):
        env(game="printing-press", position=path, players=2)


@pytest.mark.parametrize("game", list(PLAYER_COUNTS))
def test_render_is_the_table_in_words_without_colour(game):
    e = env(game=game, players=2, render_mode="ansi")
    e.reset(seed=0)
    text = e.render()
    assert "\x1b[" not in text
    assert games.core_of(e.unwrapped.state).step_name() in text    # the step under way
    e.close()
    assert raw_env(game=game).render() is None      # render_mode None: nothing to render


@pytest.mark.parametrize("game", list(PLAYER_COUNTS))
def test_shimmys_openspiel_wrapper_plays_a_whole_native_game(game):
    """As docs/rl.md says: by name and parameters (`config`), which shimmy's reset loads
    again; 3 players, one round, returns of the score."""
    shimmy = pytest.importorskip("shimmy")
    params = {"players": 3, "rounds": 1, "returns": "score"}
    e = shimmy.OpenSpielCompatibilityV0(game_name=games.get(game).spiel_name, config=params)
    e.reset(seed=0)
    assert {k: e._env.get_parameters()[k] for k in params} == params and len(e.agents) == 3
    steps = 0
    for agent in e.agent_iter():
        observation, _, termination, truncation, _ = e.last()
        if termination or truncation:
            e.step(None)
            continue
        e.step(int(np.flatnonzero(e.infos[agent]["action_mask"])[0]))   # shimmy's mask: in the info
        steps += 1
    assert e.game_state.is_terminal() and steps > 10


def test_the_example_policy_trains_through_the_env_and_plays_as_a_bot(tmp_path):
    from gutenberg_ai.examples import rl_policy
    policy = rl_policy.train(env(game="lead-letter-printers"), episodes=2, seed=1)
    assert policy.any()                         # the games moved the weights
    path = str(tmp_path / "policy.npz")
    rl_policy.save(policy, path)
    game = games.get("lead-letter-printers").load(players=2)
    bots = [rl_policy.make_bot(game, seat, 0, {"iterations": 1}, weights=path) for seat in (0, 1)]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    with pytest.raises(ValueError, match="another game's policy"):
        rl_policy.make_bot(games.get("gutenberg").load(players=2), 0, 0, {"iterations": 1}, weights=path)


def test_without_the_rl_extra_the_import_says_how_to_install_it(monkeypatch):
    import importlib
    import sys
    monkeypatch.setitem(sys.modules, "pettingzoo", None)      # as if not installed
    monkeypatch.delitem(sys.modules, "gutenberg_ai.env")
    with pytest.raises(ImportError, match=r"install the extra: pip install -e '\.\[rl\]'"):
        importlib.import_module("gutenberg_ai.env")
    monkeypatch.undo()
    assert importlib.import_module("gutenberg_ai.env").env is env
