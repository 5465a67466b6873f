"""The games as environments for reinforcement learning: PettingZoo's AEC API with
Gymnasium's spaces (docs/rl.md).

    from gutenberg_ai.env import env
    e = env(game="printing-press", players=3, returns="score")
    e.reset(seed=1)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        mask = observation["action_mask"]
        e.step(None if termination or truncation else int(mask.nonzero()[0][0]))

Each agent ("player_0", ...) is a seat of the native OpenSpiel game. Its observation is a
dict: "observation", the tensor the game writes for that seat
(`state.observation_tensor(seat)`), and "action_mask", 1 at the legal actions of the
agent to move (all 0 for the others). The rewards are the game's returns (`returns`:
"win", "score" or "margin"), given at the end. The draws (chance nodes) are made inside
the environment by its own generator, seeded by `reset(seed=...)`: the same seed and the
same actions give the same game. `render()` (render_mode "ansi") is the whole table in
words, drawn as the terminal draws it, without colour.

A layer of its own, beside gutenberg_ai.interfaces, so that `import gutenberg_ai.env`
is the public path; it needs the `rl` extra (PettingZoo, Gymnasium).

May import: gutenberg_ai.tools, .search, .games, .common (not the interfaces).
"""
from __future__ import annotations

import io
import warnings
import operator
from typing import Any

import numpy as np
import pyspiel
from rich.console import Console

from gutenberg_ai import games
from gutenberg_ai.common import limits
from gutenberg_ai.common.extras import extra
from gutenberg_ai.games.gamedata import ParameterError

__all__ = ["env", "raw_env", "PrintingGameEnv", "RETURNS", "RENDER_MODES"]

RETURNS = ("win", "score", "margin")
RENDER_MODES = ("ansi",)
_INSTALL = ("gutenberg_ai.env: PettingZoo and Gymnasium are not installed; install the extra: "
            "pip install -e '.[rl]'")
pettingzoo: Any = extra("pettingzoo", ImportError, _INSTALL)
spaces = extra("gymnasium.spaces", ImportError, _INSTALL)
seeding = extra("gymnasium.utils.seeding", ImportError, _INSTALL)
wrappers = extra("pettingzoo.utils.wrappers", ImportError, _INSTALL)


def agent_name(seat: int) -> str:
    """The agent of a seat, as PettingZoo names agents."""
    return f"player_{seat}"


def load_checked(game: str, players, returns, render_mode, params: dict) -> pyspiel.Game:
    """The native game for these arguments; a ParameterError naming a bad one, before
    anything is made."""
    try:
        printing_game = games.get(game)
    except ValueError as e:
        raise ParameterError(str(e)) from None
    if players is not None and (isinstance(players, bool) or not isinstance(players, int)):
        raise ParameterError(f"players: {players!r} is not a whole number")
    if returns not in RETURNS:
        raise ParameterError(f"returns: {returns!r} is not one of {', '.join(RETURNS)}")
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ParameterError(f"render_mode: {render_mode!r} is not None or one of {', '.join(RENDER_MODES)}")
    try:
        # Players not given: the game's default, or a position's own (which a given one must be).
        given = {} if players is None else {"players": players}
        # Checked here first, as load_game checks them: OpenSpiel's own refusal would
        # print its message on stderr too.
        printing_game.rules_module.check_parameters({**given, "returns": returns, **params})
        return printing_game.load(**given, returns=returns, **params)
    except pyspiel.SpielError as e:
        # The native game's refusal names the parameter; one error type for every refusal.
        raise ParameterError(str(e).removeprefix("OpenSpiel exception: ")) from None


class PrintingGameEnv(pettingzoo.AECEnv):
    """One of the project's games as a PettingZoo AEC environment (the module's docstring
    says what it observes and rewards). Use `env(...)`, which wraps it as PettingZoo's
    own environments are; this is `raw_env`."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "gutenberg_ai_v0",
                "is_parallelizable": False}

    def __init__(self, game: str = games.DEFAULT_GAME, players: int | None = None, returns: str = "win",
                 render_mode: str | None = None, **params):
        super().__init__()
        self.game = load_checked(game, players, returns, render_mode, params)
        self.render_mode = render_mode
        self.possible_agents = [agent_name(seat) for seat in range(self.game.num_players())]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        shape = tuple(self.game.observation_tensor_shape())
        n_actions = self.game.num_distinct_actions()
        # The tensors are counts and shares, not bounded by a rule the game states.
        space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, shape, np.float32),
            "action_mask": spaces.Box(0, 1, (n_actions,), np.int8)})
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n_actions) for a in self.possible_agents}
        self.np_random, _ = seeding.np_random(None)
        self.state: Any = None     # a pyspiel.State once reset

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or \
                    not 0 <= seed <= limits.MAX_SEED:
                raise ValueError(f"seed: {seed!r} is not a seed (a whole number 0 to {limits.MAX_SEED})")
            self.np_random, _ = seeding.np_random(int(seed))
        # (A dict of options is taken and, as PettingZoo's API test asks, left unused: the
        # game's settings are the environment's, env(game=..., players=...).)
        if options is not None and not isinstance(options, dict):
            raise ValueError(f"options: {options!r} is not a dict")
        self.state = self.game.new_initial_state()
        self._draw()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self.agent_selection = agent_name(self.state.current_player())

    def _draw(self):
        """Resolves the draws up to the next decision or the end, with the env's generator."""
        while self.state.is_chance_node():
            outcomes, probs = zip(*self.state.chance_outcomes())
            p = np.asarray(probs, dtype=np.float64)
            self.state.apply_action(int(outcomes[self.np_random.choice(len(outcomes), p=p / p.sum())]))

    def observe(self, agent):
        seat = self._seat[agent]
        mask = np.zeros(self.game.num_distinct_actions(), np.int8)
        if not self.state.is_terminal() and self.state.current_player() == seat:
            mask[self.state.legal_actions()] = 1
        return {"observation": np.asarray(self.state.observation_tensor(seat), np.float32),
                "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        try:     # a whole number (numpy's too), never a float, a bool or an array taken as one
            if isinstance(action, (bool, np.bool_)):
                raise TypeError
            action = operator.index(action)
        except TypeError:
            raise ValueError(f"action: {action!r} is not a whole number (an action id of the mask)") from None
        if action not in self.state.legal_actions():
            raise ValueError(f"action: {action!r} is not legal for {agent} "
                             f"(the action mask says which are)")
        self._cumulative_rewards[agent] = 0.0
        self.state.apply_action(action)
        self._draw()
        if self.state.is_terminal():
            self.rewards = dict(zip(self.possible_agents, map(float, self.state.returns())))
            self.terminations = {a: True for a in self.agents}
        else:
            self.rewards = {a: 0.0 for a in self.agents}
            self.agent_selection = agent_name(self.state.current_player())
        self._accumulate_rewards()

    def render(self):
        if self.render_mode is None:
            warnings.warn("render: the environment was made with render_mode=None; "
                          "render_mode='ansi' renders the table in words", stacklevel=2)
            return None
        return table_text(self.state)

    def close(self):
        self.state = None


def table_text(state) -> str:
    """The whole table of a state in words, as the terminal draws it, without colour."""
    console = Console(file=io.StringIO(), width=100, color_system=None, record=True)
    core = games.core_of(state)
    console.print(games.of(state).view.game_view(core, -1))
    return console.export_text()


def raw_env(**kwargs) -> PrintingGameEnv:
    """The environment unwrapped (PettingZoo's convention)."""
    return PrintingGameEnv(**kwargs)


def env(**kwargs):
    """The environment wrapped as PettingZoo's own are: actions checked within the action
    space, the order of calls enforced (reset before step, ...)."""
    e = raw_env(**kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)
