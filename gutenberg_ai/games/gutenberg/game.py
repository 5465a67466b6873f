"""Gutenberg as an OpenSpiel game: the parameters, the Python shell "gutenberg_py", and
the Python side of the native game "gutenberg".

    import gutenberg_ai, pyspiel
    game = pyspiel.load_game("gutenberg", {"players": 2})      # native C++ (the one to use)
    game = pyspiel.load_game("gutenberg_py", {"players": 2})   # the same game, Python shell

Both are thin layers over the compiled core (ext/gutenberg/core.pyx): the native one is C++
(ext/engine/spiel.cc.in with data/native_game.json, in gutenberg_ai.games.gutenberg._core),
for speed through pyspiel and for OpenSpiel's C++ algorithms; this module's shell is plain
Python, handy for reading and for checking the native one (tests/test_parity.py). Loading
either checks the parameters and makes the rules here (check_parameters, rules_for,
game_info).

Parameters
    players     1-4 (default 2): the people; 1 is the solo game and needs the automa
    rounds      1-6 (default 6); fewer rounds make small variants for solvers
    returns     "win" (zero-sum, the winners share; the default with 2+ players),
                "score" (final fame; the default and only choice solo) or "margin"
                (final fame minus the mean of the others)
    characters  true (default): each player draws 2 character tiles and keeps one
    automa      0 or 1 (default: 1 with one player, else 0): the rulebook's automa joins
                as an extra participant (its cards are chance); players + automa is at
                most 4
    catalogue   path to a catalogue JSON file ("" for the built-in one)
    position    path to a position file (docs/gutenberg/positions.md): the game starts there, and
                is the game the position says (its players, rounds, characters, automa)

A catalogue or position file is read once, when a game is loaded, and known by its
content from then on (a file changed later makes a new game at the next load);
register_data() gives a parameter value for data in memory. A path that an OpenSpiel
game string cannot carry (a comma, an "=") is refused.

The game is sequential with explicit chance nodes (every draw of a card, an ink, a gear,
a character tile, an automa card) and imperfect information: each round the players
commit their plans one after another, and nobody sees another's plan until all have
committed; the character tiles a player draws at setup are seen by that player only
(the one kept is then public, the other goes back to the box unseen).

The action encoding is documented at the top of ext/gutenberg/core.pyx; `action_to_string` gives
every action in the game's words.

Information states have perfect recall: the string is the player's view of the whole
history (others' unrevealed plans masked), the tensor is the observation tensor followed
by that masked history, one (actor, action) pair of floats per step.
"""
from __future__ import annotations

import functools

import numpy as np
import pyspiel

from gutenberg_ai.games import gamedata
from gutenberg_ai.games.gutenberg import _core
from gutenberg_ai.games.gutenberg import catalogue as _catalogue_module
from gutenberg_ai.games.gutenberg.catalogue import CatalogueError, default_catalogue
from gutenberg_ai.games.gamedata import (  # noqa: F401  (this game's names for the shared ones)
    DATA_PREFIX, FileKind, ParameterError, Setup, data_of, register_data, returns_mode_of,
    sources_of)
from gutenberg_ai.common.jsonfile import decode_json, whole_number

# The native game's names, players and parameters (data/native_game.json, compiled into
# gutenberg_ai.games.gutenberg._core, which registers it).
NATIVE_GAME = gamedata.native_game(__package__)
GAME_NAME = NATIVE_GAME["short_name"]
PY_GAME_NAME = "gutenberg_py"  # the Python shell below
RETURNS = _core.RETURNS_MODES
LIMITS = _core.LIMITS
# What a player cannot see, in words (a game review says what its searches redrew).
HIDDEN_WORDS = "the others' plans committed in the same plan step"
# automa -1: the solo game's automa with one player, none with more (the parameter says
# who plays; 1 player alone has nobody to play against).
DEFAULTS = NATIVE_GAME["defaults"]
MAX_ROUNDS = 6                       # the rulebook's game; fewer make small variants
ROUNDS_WORDS = f"1-{MAX_ROUNDS}, default {DEFAULTS['rounds']}"   # --rounds, in the command line's help
# What the serialized state's start records are (ext/gutenberg/spiel.pxi): a plan committed before
# the history began.
START_TAG, START_WIDTH, START_WORDS = "start_plan", 6, "a seat and 5 numbers"


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
        max_num_players=NATIVE_GAME["max_players"],
        min_num_players=NATIVE_GAME["min_players"],
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(DEFAULTS),
    )


_GAME_TYPE = _game_type()


# ---------------------------------------------------------------------------------------
# The files a game is made of: read once per load of a game and known by their content
# from then on (gutenberg_ai.games.gamedata).
# ---------------------------------------------------------------------------------------
def _file_kind(name: str) -> FileKind:
    if name == "catalogue":
        return FileKind(CatalogueError, _catalogue_module.MAX_FILE_BYTES, "a catalogue")
    position = _position_module()
    return FileKind(position.PositionError, position.MAX_FILE_BYTES, "a position")


def _position_module():
    from gutenberg_ai.games.gutenberg import position
    return position


_catalogue = gamedata.catalogue_reader(default_catalogue, _catalogue_module.catalogue_from_bytes,
                                       CatalogueError)


@functools.lru_cache(maxsize=gamedata.FILES_READ_KEPT)
def _position(digest: str, catalogue: str):
    position = _position_module()

    def read(raw, name):
        data = decode_json(raw, name, position.PositionError)
        return position.position_from_data(data, _catalogue(catalogue), name)
    return gamedata.read_data("position", digest, read, position.PositionError)


def max_game_length(players: int, rounds: int, automa: int = 0, guilders: int = 0) -> int:
    """An upper bound on the number of actions (chance included) in a game.

    Per round a player has at most about 260 steps counting every sub-decision, gear use
    and reward; the money-bounded loops (buying types, paid redraws) add at most one
    step per guilder, and guilders earned are bounded by the same per-round count. The
    setup adds character draws and powers; the automa a few draws a round. `guilders`
    is the most any player holds at the start (a position's purse can be far beyond what
    a round earns).
    """
    return 300 + players * (40 + rounds * 260 + guilders) + automa * rounds * 12


def max_final_score(catalogue) -> int:
    """The highest final score a game can give: the engine's fame track and purse end at
    MAX_FAME and MAX_GUILDERS (gutenberg_types.pxd), and the end scoring adds at most 8
    patronage cards, the guilders (doubled, or more, for Vietor) and 4 specialties."""
    r = catalogue.rules
    return (LIMITS["MAX_FAME"] + LIMITS["MAX_PATRONAGE"] * r.patronage_points
            + LIMITS["MAX_GUILDERS"] // r.guilders_per_point
            * max(1, catalogue.characters.vietor_multiplier)
            + LIMITS["N_SPECIALTIES"] * max(r.specialty_points.values(), default=0))


def setup(params: dict) -> Setup:
    """Check the parameters, read the catalogue and position files they name (once) and
    make the rules: one Rules object per content while games use it (native games point
    into its catalogue and initial state; gamedata.remember)."""
    # A position's players, rounds, characters and automa replace the parameters' (those
    # given may only repeat them).
    p, catalogue, position = gamedata.settle_files(
        params, DEFAULTS, _file_kind, lambda digest, cat: _position(digest, cat).game_params)
    problems = [(name, f"{p[name]!r} is not an integer") for name in ("players", "rounds", "automa")
                if not whole_number(p[name])]
    if not isinstance(p["characters"], bool):
        problems.append(("characters", f"{p['characters']!r} is not true or false"))
    if problems:
        raise ParameterError.of(problems)
    if p["automa"] == -1:
        p["automa"] = 1 if p["players"] == 1 else 0
    if p["automa"] not in (0, 1):
        problems.append(("automa", f"{p['automa']} is out of range (0 or 1; -1: with one player only)"))
    elif p["automa"] and not 1 <= p["players"] <= 3:
        problems.append(("players", f"{p['players']} is out of range with the automa (1-3)"))
    elif not p["automa"] and not 2 <= p["players"] <= 4:
        problems.append(("players", f"{p['players']} is out of range (2-4 without the automa; 1 plays "
                                    "against it)"))
    if not 1 <= p["rounds"] <= MAX_ROUNDS:
        problems.append(("rounds", f"{p['rounds']} is out of range (1-{MAX_ROUNDS})"))
    if problems:
        raise ParameterError.of(problems)
    gamedata.resolve_returns(p, RETURNS)
    key = gamedata.key_for(catalogue, position, p["players"], p["rounds"], p["characters"],
                           p["automa"])

    def make():
        if position:
            pos = _position(position, catalogue)
            return pos.rules.starting_at(pos.state)
        return _core.Rules(_catalogue(catalogue), p["players"], p["rounds"], p["characters"],
                           bool(p["automa"]))

    rules = gamedata.remember(key, make, catalogue, position)
    return Setup(params=p, rules=rules, info=game_info(p, rules), key=key)


check_parameters, rules_for = gamedata.setup_faces(setup)


def game_info(p: dict, rules: _core.Rules | None = None) -> dict:
    """pyspiel.GameInfo's fields for checked parameters `p` and their rules
    (gamedata.game_info: the utility bounds of the final scores' range)."""
    rules = rules or rules_for(p)
    start = rules.new_state().to_dict()
    guilders = max(max(pl["guilders"] for pl in start["players"]),
                   rules.catalogue.rules.starting_guilders)
    return gamedata.game_info(p, max_final_score(rules.catalogue), _core.ACTIONS["NUM_ACTIONS"],
                              _core.CHANCE_OUTCOMES["NUM_CHANCE"],
                              max_game_length(p["players"], p["rounds"], p["automa"], guilders))


def key_of(game) -> str:
    """Setup.key of a loaded game, native or Python."""
    return gamedata.key_of(game)


def rules_of(game) -> _core.Rules:
    """The compiled rules (gutenberg_ai.games.gutenberg._core.Rules) of a loaded game, native or Python:
    its catalogue, random playouts in the core, states from dicts. (The game's own: the
    files it was made of may have changed since.)"""
    return gamedata.rules_of(game)


def core_of(state) -> _core.CoreState:
    """The compiled state (gutenberg_ai.games.gutenberg._core.CoreState) of a game state, for reading
    (a CoreState is returned as it is).

    Of a "gutenberg_py" state: its own core (changing it changes the state). Of a native
    "gutenberg" state: a copy of its struct, read from the last line of
    `state.serialize()`, about 10 us in the middle of a game (see docs/native.md);
    changing it does not change the state."""
    return gamedata.core_of(state, _core)


# ---------------------------------------------------------------------------------------
# Serialized states. Both games write the same text (ext/engine/native_game.h for the
# native one, gutenberg_ai.games.gamedata): the history, one action a line; "start_plan <seat>
# <5 rows>" for each plan committed before the history began that a resample redrew (a
# game from a position in the middle of a plan step); "rules <key>" (Setup.key); "core
# <hex>", the struct. Reading one trusts nothing in it: the state is rebuilt from its
# initial state by the checked start plans and the history, each action legal in turn,
# then compared with the struct. Nothing is unpickled.
# ---------------------------------------------------------------------------------------
class GutenbergGame(pyspiel.Game):
    """The game "gutenberg_py": parameters, the compiled rules, and the factory of states."""

    def __init__(self, params=None):
        # pyspiel hands a Python game every parameter, the defaults filled in: one equal to
        # its default cannot be told from one not given, so it gives way to a position's.
        loaded = setup({k: v for k, v in (params or {}).items() if v != DEFAULTS.get(k, ...)})
        p, info = loaded.params, loaded.info
        self.key = loaded.key
        self.rules = loaded.rules
        self.catalogue = self.rules.catalogue
        self.returns_mode = p["returns"]
        self.length_bound = info["max_game_length"]
        utility = (pyspiel.GameType.Utility.ZERO_SUM if "utility_sum" in info
                   else pyspiel.GameType.Utility.GENERAL_SUM)
        super().__init__(_game_type(utility), pyspiel.GameInfo(**info), p)

    def new_initial_state(self):
        return GutenbergState(self)

    def deserialize_state(self, text):
        """The state of `state.serialize()` text, rebuilt and checked (see the format
        above); pyspiel.SpielError names the line at fault. Never unpickles."""
        name = PY_GAME_NAME
        actions, starts, key, core = gamedata.parse_serialized(
            text, self.length_bound, name, START_TAG, START_WIDTH, START_WORDS)
        # The key and the struct are checked where given: a history alone is replayed and
        # checked action by action.
        if key is not None and key[0] != self.key:
            raise gamedata.bad_state(name, key[1], "rules " + key[0], "written for another game "
                                     "(other parameters, catalogue or position data)")
        state = self.new_initial_state()
        for record, n, line in starts:
            try:
                state._set_start_plan(record[0], record[1:])
            except ValueError:
                raise gamedata.bad_state(name, n, line, "no such plan: the seat did not commit "
                                         "before the history began, or the plan does not place "
                                         "its markers (at most 6 a row)") from None
        for action, n in actions:
            if action not in state._core.legal_actions() and \
                    action not in [a for a, _ in state._core.chance_outcomes()]:
                raise gamedata.bad_state(name, n, str(action), "the game is already over"
                                         if state.is_terminal() else
                                         "not a legal action at this point of the game")
            state.apply_action(action)
        if core is not None and core[0] != state._core.to_bytes().hex():
            raise gamedata.bad_state(name, core[1], "core " + core[0], "the struct does not "
                                     "match the history (written by another build of the rules?)")
        return state

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
        self._key = game.key
        # Plans committed before the history began, as a resample redrew them ({seat:
        # plan}): they are in no history entry (the native state keeps them alike).
        self._start_plans: dict[int, list[int]] = {}

    @property
    def core(self):
        """The compiled state (gutenberg_ai.games.gutenberg._core.CoreState)."""
        return self._core

    def _set_start_plan(self, seat: int, plan):
        if self.history():
            raise ValueError("start plans are set before the first action")
        _core._set_start_plan(self._core, seat, plan)
        self._start_plans[seat] = list(plan)

    def serialize(self):
        """The history and the struct as text, as the native game writes them; read back
        by GutenbergGame.deserialize_state."""
        lines = [str(a) for a in self.history()]
        lines += [f"start_plan {seat} {' '.join(map(str, plan))}"
                  for seat, plan in sorted(self._start_plans.items())]
        lines += [f"rules {self._key}", "core " + self._core.to_bytes().hex()]
        return "\n".join(lines)

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
    # ext/gutenberg/core.pyx): the others' plans committed in this plan step and the character
    # tiles the others drew at setup.

    def _history(self):
        return [(h.player, h.action) for h in self.full_history()]

    def masked_history(self, player: int):
        """(actor, action) pairs as `player` knows them: what they have not seen is -1."""
        return self._core.mask_history(player, self._history())

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state drawn uniformly from `player_id`'s information set: the others' unseen
        plans become random allocations of their markers (those committed before the
        history began too), the others' unseen character tiles are dealt again from the
        tiles `player_id` has not seen. The sampler is called once, for the seed (the
        native game does the same, so both give the same state for the same sampler)."""
        n = self.num_players()
        if isinstance(player_id, bool) or not isinstance(player_id, int) or not 0 <= player_id < n:
            raise pyspiel.SpielError(f"resample_from_infostate: {player_id!r} is not a player (0-{n - 1})")
        seed = int(probability_sampler() * (1 << 53))
        core, actions = self._core.resample_history(player_id, self._history(), seed)
        game = self.get_game()
        state = game.new_initial_state()
        starts = {**self._start_plans, **_core._start_plans(game.rules, core)}
        for seat, plan in sorted(starts.items()):
            state._set_start_plan(seat, plan)
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
            text = f"p{player} " + " ".join(
                f"{actor}:{action if action >= 0 else '?'}" for actor, action in state.masked_history(player))
            # What the player sees that no entry holds, as the native game writes it.
            seen = _core._private_view(state.get_game().rules, state.core, player)
            return text + (" |" + "".join(f" {x}" for x in seen) if seen else "")
        return state.core.observation_string(player)


pyspiel.register_game(_GAME_TYPE, GutenbergGame)


# -- what the studies and the benchmark suite ask of a game (gutenberg_ai.tools.studies, .suite)
def seat_facts(core) -> list[dict]:
    """Per seat, what a balance study groups by: the character tile kept (None without
    characters)."""
    return [{"character": core.character(seat)} for seat in range(core.num_players)]


def position_kind(core) -> str:
    """The kind of a decision for the benchmark suite: "endgame" (any decision of the
    last round), "plan" (a plan, or the free actions before it), "action" (a turn at one
    of the five action rows, and the rewards it brings), "fulfil", or "setup" (the
    characters, the order draft, the types)."""
    step = core.step_name()
    if core.round >= core.to_dict()["rounds"]:
        return "endgame"
    if core.round == 0 or step in ("characters", "draft", "types", "setup"):
        return "setup"
    if "plan" in step:
        return "plan"
    if step.startswith("fulfil"):
        return "fulfil"
    return "action"
