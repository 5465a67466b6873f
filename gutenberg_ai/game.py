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
    automa      0 or 1 (default: 1 with one player, else 0): the rulebook's automa joins
                as an extra participant (its cards are chance); players + automa is at
                most 4
    catalogue   path to a catalogue JSON file ("" for the built-in one)
    position    path to a position file (docs/positions.md): the game starts there, and
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

The action encoding is documented at the top of ext/core.pyx; `action_to_string` gives
every action in the game's words.

Information states have perfect recall: the string is the player's view of the whole
history (others' unrevealed plans masked), the tensor is the observation tensor followed
by that masked history, one (actor, action) pair of floats per step.
"""
from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import os

import numpy as np
import pyspiel

from gutenberg_ai import _core
from gutenberg_ai import catalogue as _catalogue_module
from gutenberg_ai.catalogue import CatalogueError, default_catalogue
from gutenberg_ai.jsonfile import decode_json, read_bytes

GAME_NAME = "gutenberg"        # the native game, registered by gutenberg_ai._core
PY_GAME_NAME = "gutenberg_py"  # the Python shell below
RETURNS = _core.RETURNS_MODES
LIMITS = _core.LIMITS
# automa -1: the solo game's automa with one player, none with more (the parameter says
# who plays; 1 player alone has nobody to play against).
DEFAULTS = {"players": 2, "rounds": 6, "returns": "auto", "characters": True, "automa": -1,
            "catalogue": "", "position": ""}
DATA_PREFIX = "sha256:"        # a catalogue or position given as data (register_data)


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


# ---------------------------------------------------------------------------------------
# The files a game is made of. A catalogue or position is read once per load of a game
# and known by the SHA-256 of its bytes from then on: a file changed on disk makes a new
# game (the games loaded before keep what they read), and a record or a serialized
# state refers to the data, not to a path.
# ---------------------------------------------------------------------------------------
_DATA: dict[str, bytes] = {}          # sha256 -> the bytes of a catalogue or position
_NAMES: dict[str, str] = {}           # sha256 -> the file's name, for messages


def register_data(data, name: str | None = None) -> str:
    """The value of a game parameter `catalogue` or `position` for data in memory (a
    decoded JSON dict, or a file's bytes) instead of a file: "sha256:<hex>", valid in
    this process; `name` names it in messages. A game record replays with it
    (records.game_of), so it needs neither the files nor a temporary copy of them."""
    raw = data if isinstance(data, bytes) else json.dumps(data).encode("utf-8")
    digest = hashlib.sha256(raw).hexdigest()
    _DATA.setdefault(digest, raw)
    _NAMES.setdefault(digest, name or f"{DATA_PREFIX}{digest[:12]}")
    return DATA_PREFIX + digest


def data_of(digest: str):
    """The decoded JSON of registered data (a catalogue or position), None for ""."""
    return json.loads(_DATA[digest]) if digest else None


def _game_string_problem(value: str) -> str | None:
    """Why an OpenSpiel game string ("gutenberg(position=...)") cannot carry `value`,
    which a serialized game and state must (pyspiel.serialize_game_and_state)."""
    if "," in value or "=" in value:
        return f"{value!r} has a {',' if ',' in value else '='!r}, which an OpenSpiel game " \
               "string cannot carry; rename the file or its folder"
    depth = 0
    for ch in value:
        depth += (ch == "(") - (ch == ")")
        if depth < 0:
            break
    if depth:
        return f"{value!r} has unbalanced parentheses, which an OpenSpiel game string " \
               "cannot carry; rename the file or its folder"
    if not value.isprintable() or value != value.strip():
        return f"{value!r}: a path with control characters or spaces at its ends cannot be " \
               "written in an OpenSpiel game string"
    return None


def _source(name: str, value) -> str:
    """The sha256 of the data a parameter (catalogue, position) names: a file, read now,
    or registered data. "" for none."""
    if not isinstance(value, str):
        raise ParameterError(f"{name}: {value!r} is not a path")
    if not value:
        return ""
    if value.startswith(DATA_PREFIX):
        digest = value[len(DATA_PREFIX):]
        if digest not in _DATA:
            raise ParameterError(f"{name}: {value[:24]!r}... is data registered in another process "
                                 "(register_data); give the file")
        return digest
    problem = _game_string_problem(value)
    if problem:
        raise ParameterError(f"{name}: {problem}")
    if not os.path.isfile(value):
        raise ParameterError(f"{name}: no file at {value!r}")
    error = CatalogueError if name == "catalogue" else _position_module().PositionError
    limit = _catalogue_module.MAX_FILE_BYTES if name == "catalogue" else \
        _position_module().MAX_FILE_BYTES
    try:
        raw, source, _ = read_bytes(value, error, limit, f"a {name}")
    except error as e:
        raise ParameterError(f"{name}: {e}") from None
    digest = hashlib.sha256(raw).hexdigest()
    _DATA.setdefault(digest, raw)
    _NAMES[digest] = source
    return digest


def _position_module():
    from gutenberg_ai import position
    return position


@functools.lru_cache(maxsize=None)
def _catalogue(digest: str):
    """The catalogue of registered data ("" for the built-in one)."""
    if not digest:
        return default_catalogue()
    try:
        return _catalogue_module.catalogue_from_bytes(_DATA[digest], _NAMES[digest])
    except CatalogueError as e:
        raise ParameterError(f"catalogue: {e}") from None


@functools.lru_cache(maxsize=None)
def _position(digest: str, catalogue: str):
    position = _position_module()
    try:
        data = decode_json(_DATA[digest], _NAMES[digest], position.PositionError)
        return position.position_from_data(data, _catalogue(catalogue), _NAMES[digest])
    except position.PositionError as e:
        raise ParameterError(f"position: {e}") from None


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


@dataclasses.dataclass(frozen=True)
class Setup:
    """A game's parameters, checked (`params`: every parameter, "returns" and "automa"
    resolved, the paths as given), the compiled rules, pyspiel.GameInfo's fields and
    `key`, the SHA-256 that names these rules (their catalogue's and position's data and
    parameters): a serialized state carries it."""

    params: dict
    rules: _core.Rules
    info: dict
    key: str


def check_parameters(params: dict) -> dict:
    """The parameters with defaults filled in; ParameterError names a bad one."""
    return setup(params).params


def setup(params: dict) -> Setup:
    """Check the parameters, read the catalogue and position files they name (once) and
    make the rules: one Rules object per content, for the life of the process (native
    games point into its catalogue and initial state)."""
    unknown = sorted(set(params) - set(DEFAULTS))
    if unknown:
        raise ParameterError(f"unknown game parameter(s) {', '.join(map(str, unknown))}; "
                             f"known: {', '.join(DEFAULTS)}")
    p = {**DEFAULTS, **params}
    catalogue = _source("catalogue", p["catalogue"])
    position = _source("position", p["position"])
    if position:
        # The position says what game it is: its players, rounds, characters and automa
        # replace the parameters' (which may only repeat them or keep their defaults).
        settings = _position(position, catalogue).game_params
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
    if p["automa"] == -1:
        p["automa"] = 1 if p["players"] == 1 else 0
    if p["automa"] not in (0, 1):
        raise ParameterError(f"automa: {p['automa']} is out of range (0 or 1; -1: with one "
                             "player only)")
    if p["automa"] and not 1 <= p["players"] <= 3:
        raise ParameterError(f"players: {p['players']} is out of range with the automa (1-3)")
    if not p["automa"] and not 2 <= p["players"] <= 4:
        raise ParameterError(f"players: {p['players']} is out of range (2-4 without the "
                             "automa; 1 plays against it)")
    if not 1 <= p["rounds"] <= 6:
        raise ParameterError(f"rounds: {p['rounds']} is out of range (1-6)")
    if p["returns"] == "auto":
        p["returns"] = "score" if p["players"] == 1 else "win"
    if p["returns"] not in RETURNS:
        raise ParameterError(f"returns: {p['returns']!r} is not one of {', '.join(RETURNS)}")
    if p["players"] == 1 and p["returns"] != "score":
        raise ParameterError(f"returns: {p['returns']!r} needs 2 or more players; the solo game "
                             "returns its score")
    key = hashlib.sha256(json.dumps([catalogue, position, p["players"], p["rounds"],
                                     p["characters"], p["automa"]]).encode()).hexdigest()
    rules = _rules(key, catalogue, position, p["players"], p["rounds"], p["characters"],
                   bool(p["automa"]))
    return Setup(params=p, rules=rules, info=game_info(p, rules), key=key)


# The rules of every game loaded, by key (Setup.key), and the data they were made of.
_RULES: dict[str, _core.Rules] = {}
_SOURCES: dict[str, tuple[str, str]] = {}


def _rules(key, catalogue, position, players, rounds, characters, automa) -> _core.Rules:
    if key not in _RULES:
        if position:
            pos = _position(position, catalogue)
            rules = pos.rules.starting_at(pos.state)
        else:
            rules = _core.Rules(_catalogue(catalogue), players, rounds, characters, automa)
        _RULES[key] = rules
        _SOURCES[key] = (catalogue, position)
    return _RULES[key]


def rules_for(p: dict) -> _core.Rules:
    """The compiled rules for parameters `p` (see setup)."""
    return setup(p).rules


def game_info(p: dict, rules: _core.Rules | None = None) -> dict:
    """pyspiel.GameInfo's fields for checked parameters `p` and their rules; "utility_sum"
    only for the zero-sum modes ("win", "margin" with 2+ players; "score" is
    general-sum)."""
    rules = rules or rules_for(p)
    top = float(max_final_score(rules.catalogue))
    lo, hi = {"win": (-1.0, 1.0), "score": (0.0, top), "margin": (-top, top)}[p["returns"]]
    start = rules.new_state().to_dict()
    guilders = max(max(pl["guilders"] for pl in start["players"]),
                   rules.catalogue.rules.starting_guilders)
    info = dict(
        num_distinct_actions=_core.ACTIONS["NUM_ACTIONS"],
        max_chance_outcomes=_core.CHANCE_OUTCOMES["NUM_CHANCE"],
        num_players=p["players"],
        min_utility=lo,
        max_utility=hi,
        max_game_length=max_game_length(p["players"], p["rounds"], p["automa"], guilders),
    )
    if p["returns"] != "score" and p["players"] > 1:
        info["utility_sum"] = 0.0
    return info


def sources_of(game) -> dict:
    """The data a loaded game was made of: {"catalogue": the catalogue's JSON or None for
    the built-in one, "position": the position's JSON or None}, as read when the game
    was loaded (a record carries them)."""
    catalogue, position = _SOURCES[key_of(game)]
    return {"catalogue": data_of(catalogue), "position": data_of(position)}


def key_of(game) -> str:
    """Setup.key of a loaded game, native or Python."""
    if isinstance(game, GutenbergGame):
        return game.key
    return _serialized_key(game.new_initial_state().serialize())


def rules_of(game) -> _core.Rules:
    """The compiled rules (gutenberg_ai._core.Rules) of a loaded game, native or Python:
    its catalogue, random playouts in the core, states from dicts. (The game's own: the
    files it was made of may have changed since.)"""
    if isinstance(game, GutenbergGame):
        return game.rules
    return _RULES[key_of(game)]


def returns_mode_of(game) -> str:
    """The returns a loaded game gives ("win", "score" or "margin"), native or Python."""
    if isinstance(game, GutenbergGame):
        return game.returns_mode
    return game.get_parameters()["returns"]      # resolved when the game was loaded


# ---------------------------------------------------------------------------------------
# Serialized states. Both games write the same text (ext/gutenberg_spiel.cc for the
# native one): the history, one action a line; "start_plan <seat> <5 rows>" for each
# plan committed before the history began that a resample redrew (a game from a
# position in the middle of a plan step); "rules <key>" (Setup.key); "core <hex>", the
# struct. Reading one trusts nothing in it: the state is rebuilt from its initial state
# by the checked start plans and the history, each action legal in turn, then compared
# with the struct. Nothing is unpickled.
# ---------------------------------------------------------------------------------------
def _serialized_key(text: str) -> str:
    lines = text.rsplit("\n", 2)
    if len(lines) < 2 or not lines[-2].startswith("rules ") or not lines[-1].startswith("core "):
        raise TypeError("not a serialized Gutenberg state")
    return lines[-2][len("rules "):]


def _excerpt(line: str) -> str:
    text = line[:40] + ("..." if len(line) > 40 else "")
    return "".join(c if " " <= c <= "~" else "?" for c in text)


_DIGITS = frozenset("0123456789")


def _bad_state(game_name: str, n: int, line: str, why: str):
    return pyspiel.SpielError(f"{game_name}: serialized state, line {n} ('{_excerpt(line)}'): {why}")


def _parse_serialized(text: str, max_actions: int, game_name: str):
    """(actions [(action, line)], start plans [(seat, plan, line, text)], rules key, core hex)
    of a serialized state; pyspiel.SpielError names the line at fault."""
    if not isinstance(text, str):
        raise TypeError(f"a serialized state is text, got {type(text).__name__}")
    if text.startswith("history="):
        raise pyspiel.SpielError(
            f"{game_name}: this is OpenSpiel's generic serialization of a Python game, which "
            "unpickles its data: it is not read (serialize with state.serialize())")
    actions, starts, key, core = [], [], None, None
    for n, line in enumerate(text.split("\n"), 1):
        if not line:
            continue
        if line.startswith("core "):
            if core is not None:
                raise _bad_state(game_name, n, line, "a second 'core' line")
            core = (line[5:], n)
        elif line.startswith("rules "):
            if key is not None:
                raise _bad_state(game_name, n, line, "a second 'rules' line")
            key = (line[6:], n)
        elif line.startswith("start_plan "):
            parts = line[len("start_plan "):].split(" ")
            if len(parts) != 6 or not all(0 < len(x) <= 2 and set(x) <= _DIGITS for x in parts):
                raise _bad_state(game_name, n, line, "a start plan is a seat and 5 numbers")
            starts.append((int(parts[0]), [int(x) for x in parts[1:]], n, line))
        else:
            if not 0 < len(line) <= 9 or not set(line) <= _DIGITS:
                raise _bad_state(game_name, n, line, "not an action (a whole number), a "
                                                     "'start_plan', 'rules' or 'core' line")
            if len(actions) >= max_actions:
                raise _bad_state(game_name, n, line, "more actions than a game of these "
                                                     "parameters has")
            actions.append((int(line), n))
    return actions, starts, key, core


def core_of(state) -> _core.CoreState:
    """The compiled state (gutenberg_ai._core.CoreState) of a game state, for reading
    (a CoreState is returned as it is).

    Of a "gutenberg_py" state: its own core (changing it changes the state). Of a native
    "gutenberg" state: a copy of its struct, read from the last line of
    `state.serialize()`, about 10 us in the middle of a game (see docs/native.md);
    changing it does not change the state."""
    if isinstance(state, _core.CoreState):
        return state
    if isinstance(state, GutenbergState):
        return state.core
    if not isinstance(state, pyspiel.State):
        raise TypeError(f"not a Gutenberg state: {type(state).__name__}")
    text = state.serialize()
    try:
        rules = _RULES[_serialized_key(text)]
        data = bytes.fromhex(text[text.rfind("\n") + 6:])
    except (TypeError, KeyError, ValueError):
        raise TypeError(f"not a Gutenberg state: {type(state).__name__}") from None
    return _core._rebuild_state(rules, data)


class GutenbergGame(pyspiel.Game):
    """The game "gutenberg_py": parameters, the compiled rules, and the factory of states."""

    def __init__(self, params=None):
        loaded = setup(dict(params or {}))
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
        actions, starts, key, core = _parse_serialized(text, self.length_bound, name)
        if key is not None and key[0] != self.key:
            raise _bad_state(name, key[1], "rules " + key[0], "written for another game (other "
                             "parameters, catalogue or position data)")
        state = self.new_initial_state()
        for seat, plan, n, line in starts:
            try:
                state._set_start_plan(seat, plan)
            except ValueError:
                raise _bad_state(name, n, line, "no such plan: the seat did not commit before "
                                 "the history began, or the plan does not place its markers "
                                 "(at most 6 a row)") from None
        for action, n in actions:
            if action not in state._core.legal_actions() and \
                    action not in [a for a, _ in state._core.chance_outcomes()]:
                raise _bad_state(name, n, str(action), "the game is already over"
                                 if state.is_terminal() else
                                 "not a legal action at this point of the game")
            state.apply_action(action)
        if core is not None and core[0] != state._core.to_bytes().hex():
            raise _bad_state(name, core[1], "core " + core[0], "the struct does not match the "
                             "history (written by another build of the rules?)")
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
        self._start_plans = {}

    @property
    def core(self):
        """The compiled state (gutenberg_ai._core.CoreState)."""
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
    # ext/core.pyx): the others' plans committed in this plan step and the character
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
            return f"p{player} " + " ".join(
                f"{actor}:{action if action >= 0 else '?'}" for actor, action in state.masked_history(player))
        return state.core.observation_string(player)


pyspiel.register_game(_GAME_TYPE, GutenbergGame)
