"""Gutenberg as an OpenSpiel game: the parameters, the Python shell "gutenberg_py", and
the Python side of the native game "gutenberg".

    import gutenberg_ai, pyspiel
    game = pyspiel.load_game("gutenberg", {"players": 2})      # native C++ (the one to use)
    game = pyspiel.load_game("gutenberg_py", {"players": 2})   # the same game, Python shell

Both are thin layers over the compiled core (ext/core.pyx): the native one is C++
(ext/gutenberg_spiel.cc, in gutenberg_ai._core), for speed through pyspiel and for
OpenSpiel's C++ algorithms; this module's shell is plain Python, handy for reading and
for checking the native one (tests/test_parity.py). Loading either checks the parameters
and makes the rules here (check_parameters, rules_for, game_info).

Parameters
    players     1-4 (default 2): the people; 1 is the solo game and needs the automa
    rounds      1-6 (default 6); fewer rounds make small variants for solvers
    returns     "win" (zero-sum, the winners share; the default with 2+ players),
                "score" (final fame; the default and only choice solo) or "margin"
                (final fame minus the mean of the others)
    characters  true (default): each player draws 2 character tiles and keeps one
    automa      0 (default) or 1: the rulebook's automa joins as an extra participant
                (its cards are chance); players + automa is at most 4
    catalogue   path to a catalogue JSON file ("" for the built-in one)
    position    path to a position file (docs/positions.md): the game starts there, and
                is the game the position says (its players, rounds, characters, automa)

The game is sequential with explicit chance nodes (every draw of a card, an ink, a gear,
a character tile, an automa card) and imperfect information: each round the players
commit their plans one after another, and nobody sees another's plan until all have
committed; the character tiles a player draws at setup are seen by that player only
(the one kept is then public, the other goes back to the box unseen).

The action encoding is documented at the top of ext/core.pyx; `action_to_string` gives
every action in the game's words.

Information states have perfect recall: the string is the player's view of the whole
history (others' unrevealed plans masked), the tensor is the observation tensor followed
by that masked history, one (actor, action) pair of floats per step.
"""
from __future__ import annotations

import functools
import os

import numpy as np
import pyspiel

from gutenberg_ai import _core, games
from gutenberg_ai.catalogue import load_catalogue

GAME_NAME = "gutenberg"        # the native game, registered by gutenberg_ai._core
PY_GAME_NAME = "gutenberg_py"  # the Python shell below
RETURNS = _core.RETURNS_MODES
DEFAULTS = {"players": 2, "rounds": 6, "returns": "auto", "characters": True, "automa": 0,
            "catalogue": "", "position": ""}
MAX_FAME = 500  # a bound on final fame, for the utility range of "score" and "margin"


def _game_type(utility=pyspiel.GameType.Utility.ZERO_SUM):
    # "win" and "margin" are zero-sum; "score" is general-sum.
    return pyspiel.GameType(
        short_name=PY_GAME_NAME,
        long_name="Gutenberg (Python shell)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=1,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(DEFAULTS),
    )


_GAME_TYPE = _game_type()


class ParameterError(ValueError):
    """A bad game parameter; the message names it."""


@functools.lru_cache(maxsize=16)
def _catalogue(path: str):
    return load_catalogue(path or None)


def max_game_length(players: int, rounds: int, automa: int = 0) -> int:
    """An upper bound on the number of actions (chance included) in a game.

    Per round a player has at most about 260 steps counting every sub-decision, gear use
    and reward; the money-bounded loops (buying types, paid redraws) add at most one
    step per guilder, and guilders earned are bounded by the same per-round count. The
    setup adds character draws and powers; the automa a few draws a round.
    """
    return 300 + players * (40 + rounds * 260) + automa * rounds * 12


def check_parameters(params: dict) -> dict:
    """The parameters with defaults filled in; ParameterError names a bad one."""
    unknown = sorted(set(params) - set(DEFAULTS))
    if unknown:
        raise ParameterError(f"unknown game parameter(s) {', '.join(unknown)}; "
                             f"known: {', '.join(DEFAULTS)}")
    p = {**DEFAULTS, **params}
    if not isinstance(p["catalogue"], str):
        raise ParameterError(f"catalogue: {p['catalogue']!r} is not a path")
    if p["catalogue"] and not os.path.isfile(p["catalogue"]):
        raise ParameterError(f"catalogue: no file at {p['catalogue']!r}")
    if not isinstance(p["position"], str):
        raise ParameterError(f"position: {p['position']!r} is not a path")
    if p["position"] and not os.path.isfile(p["position"]):
        raise ParameterError(f"position: no file at {p['position']!r}")
    if p["position"]:
        # The position says what game it is: its players, rounds, characters and automa
        # replace the parameters' (which may only repeat them or keep their defaults).
        settings = _position(os.path.abspath(p["position"]), _catalogue_key(p)).game_params
        for name, value in settings.items():
            if p[name] not in (value, DEFAULTS[name]):
                raise ParameterError(f"{name}: {p[name]!r}, but the position is a game with "
                                     f"{name} {value!r}")
            p[name] = value
    for name in ("players", "rounds", "automa"):
        if isinstance(p[name], bool) or not isinstance(p[name], int):
            raise ParameterError(f"{name}: {p[name]!r} is not an integer")
    if not isinstance(p["characters"], bool):
        raise ParameterError(f"characters: {p['characters']!r} is not true or false")
    if p["automa"] not in (0, 1):
        raise ParameterError(f"automa: {p['automa']} is out of range (0 or 1)")
    if p["automa"] and not 1 <= p["players"] <= 3:
        raise ParameterError(f"players: {p['players']} is out of range with the automa (1-3)")
    if not p["automa"] and not 2 <= p["players"] <= 4:
        raise ParameterError(f"players: {p['players']} is out of range (2-4; 1 needs automa=1)")
    if not 1 <= p["rounds"] <= 6:
        raise ParameterError(f"rounds: {p['rounds']} is out of range (1-6)")
    if p["returns"] == "auto":
        p["returns"] = "score" if p["players"] == 1 else "win"
    if p["returns"] not in RETURNS:
        raise ParameterError(f"returns: {p['returns']!r} is not one of {', '.join(RETURNS)}")
    if p["players"] == 1 and p["returns"] != "score":
        raise ParameterError(f"returns: {p['returns']!r} needs 2 or more players; the solo game "
                             "returns its score")
    return p


def _catalogue_key(p: dict) -> str:
    return os.path.abspath(p["catalogue"]) if p["catalogue"] else ""


@functools.lru_cache(maxsize=None)
def _position(path: str, catalogue: str):
    from gutenberg_ai.position import load_position
    try:
        return load_position(path, catalogue=catalogue or None)
    except (ValueError, OSError) as e:
        raise ParameterError(f"position: {e}") from None


def rules_for(p: dict) -> _core.Rules:
    """The compiled rules for checked parameters `p`: one Rules object per catalogue
    path, position and set of parameters, for the life of the process (native games
    point into its catalogue and initial state)."""
    if p["position"]:
        return _position_rules(os.path.abspath(p["position"]), _catalogue_key(p))
    return _rules(_catalogue_key(p), p["players"], p["rounds"], p["characters"], bool(p["automa"]))


@functools.lru_cache(maxsize=None)
def _position_rules(path: str, catalogue: str) -> _core.Rules:
    pos = _position(path, catalogue)
    return pos.rules.starting_at(pos.state)


@functools.lru_cache(maxsize=None)
def _rules(path, players, rounds, characters, automa):
    try:
        catalogue = _catalogue(path)
    except ValueError as e:
        raise ParameterError(f"catalogue: {e}") from None
    return _core.Rules(catalogue, players, rounds, characters, automa)


def game_info(p: dict) -> dict:
    """pyspiel.GameInfo's fields for checked parameters `p`; "utility_sum" only for the
    zero-sum modes ("win", "margin" with 2+ players; "score" is general-sum)."""
    lo, hi = {"win": (-1.0, 1.0), "score": (0.0, float(MAX_FAME)),
              "margin": (-float(MAX_FAME), float(MAX_FAME))}[p["returns"]]
    info = dict(
        num_distinct_actions=_core.ACTIONS["NUM_ACTIONS"],
        max_chance_outcomes=_core.CHANCE_OUTCOMES["NUM_CHANCE"],
        num_players=p["players"],
        min_utility=lo,
        max_utility=hi,
        max_game_length=max_game_length(p["players"], p["rounds"], p["automa"]),
    )
    if p["returns"] != "score" and p["players"] > 1:
        info["utility_sum"] = 0.0
    return info


def rules_of(game) -> _core.Rules:
    """The compiled rules (gutenberg_ai._core.Rules) of a loaded game, native or Python:
    its catalogue, random playouts in the core, states from dicts."""
    return games.rules_of(game)


def returns_mode_of(game) -> str:
    """The returns a loaded game gives ("win", "score" or "margin"), native or Python."""
    return games.returns_mode_of(game)


def core_of(state) -> _core.CoreState:
    """The compiled state (gutenberg_ai._core.CoreState) of a game state: see
    gutenberg_ai.games.core_of."""
    return games.core_of(state)


class GutenbergGame(pyspiel.Game):
    """The game "gutenberg_py": parameters, the compiled rules, and the factory of states."""

    def __init__(self, params=None):
        p = check_parameters(dict(params or {}))
        self.rules = rules_for(p)
        self.catalogue = self.rules.catalogue
        self.returns_mode = p["returns"]
        info = game_info(p)
        self.length_bound = info["max_game_length"]
        utility = (pyspiel.GameType.Utility.ZERO_SUM if "utility_sum" in info
                   else pyspiel.GameType.Utility.GENERAL_SUM)
        super().__init__(_game_type(utility), pyspiel.GameInfo(**info), p)

    def new_initial_state(self):
        return GutenbergState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observer parameters are not supported; got {params}")
        return GutenbergObserver(self, iig_obs_type)


class GutenbergState(pyspiel.State):
    """A state: the compiled core state; history and move number live in pyspiel."""

    def __init__(self, game: GutenbergGame):
        super().__init__(game)
        self._core = game.rules.new_state()
        self._returns = game.returns_mode

    @property
    def core(self):
        """The compiled state (gutenberg_ai._core.CoreState)."""
        return self._core

    # -- the pyspiel.State interface ----------------------------------------------------
    def current_player(self):
        return self._core.current_player()

    def _legal_actions(self, player):
        return self._core.legal_actions()

    def chance_outcomes(self):
        return self._core.chance_outcomes()

    # pyspiel calls this for every action: a compiled function (self._core.apply(action)).
    _apply_action = _core.state_apply_action

    def _action_to_string(self, player, action):
        return self._core.action_to_string(action)

    def is_terminal(self):
        return self._core.is_terminal()

    def returns(self):
        if not self._core.is_terminal():
            return [0.0] * self._core.num_players
        return self._core.returns(self._returns)

    def __str__(self):
        return str(self._core)

    # -- imperfect information ----------------------------------------------------------
    # What a player has not seen is the core's to say (entry_hidden, resample_history in
    # ext/core.pyx): the others' plans committed in this plan step and the character
    # tiles the others drew at setup.

    def _history(self):
        return [(h.player, h.action) for h in self.full_history()]

    def masked_history(self, player: int):
        """(actor, action) pairs as `player` knows them: what they have not seen is -1."""
        return self._core.mask_history(player, self._history())

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state drawn uniformly from `player_id`'s information set: the others' unseen
        plans become random allocations of their markers, the others' unseen character
        tiles are dealt again from the tiles `player_id` has not seen. The sampler is
        called once, for the seed (the native game does the same, so both give the same
        state for the same sampler)."""
        seed = int(probability_sampler() * (1 << 53))
        _, actions = self._core.resample_history(player_id, self._history(), seed)
        state = self.get_game().new_initial_state()
        for action in actions:
            state.apply_action(action)
        return state


class GutenbergObserver:
    """Observation (default) or information state (perfect recall) of a player."""

    def __init__(self, game: GutenbergGame, iig_obs_type=None):
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
            raise ValueError("gutenberg observes a single player's view with public information "
                             "(private_info=SINGLE_PLAYER, public_info=True)")
        self.perfect_recall = iig_obs_type.perfect_recall
        self.obs_size = _core.OBSERVATION_SIZE
        size = self.obs_size
        self.history_len = game.length_bound if self.perfect_recall else 0
        size += 2 * self.history_len
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor[:self.obs_size]}
        if self.perfect_recall:
            self.dict["history"] = self.tensor[self.obs_size:].reshape(self.history_len, 2)
        self._num_actions = float(_core.ACTIONS["NUM_ACTIONS"])

    def set_from(self, state: GutenbergState, player: int):
        state.core.write_observation(player, self.tensor)
        if self.perfect_recall:
            h = self.dict["history"]
            h.fill(0.0)
            for i, (actor, action) in enumerate(state.masked_history(player)):
                # actor: chance 1/6, seats 2/6..5/6; action scaled, unseen plans -1
                h[i, 0] = (actor + 2) / 6.0
                h[i, 1] = (action + 1) / self._num_actions if action >= 0 else -1.0

    def string_from(self, state: GutenbergState, player: int):
        if self.perfect_recall:
            return f"p{player} " + " ".join(
                f"{actor}:{action if action >= 0 else '?'}" for actor, action in state.masked_history(player))
        return state.core.observation_string(player)


pyspiel.register_game(_GAME_TYPE, GutenbergGame)
