"""What every printing game's Python module needs besides its rules, written once: data
known by its content, the parameters that name files, the rules of every game loaded,
and the native games' serialized states.

A game's module (gutenberg_ai.games.gutenberg.game, gutenberg_ai.games.printing_press.game) checks its
own parameters and makes its own rules; through this module it

* reads a catalogue or position parameter once, when a game is loaded (`source`), and
  knows the data by the SHA-256 of its bytes from then on: a file changed on disk makes a
  new game (the games loaded before keep what they read), and a record or a serialized
  state refers to the data, not to a path. `register_data` gives a parameter value for
  data in memory ("sha256:<hex>");
* refuses a path that an OpenSpiel game string cannot carry (`game_string_problem`);
* keeps the rules it made by a key naming them (`remember`, `rules_by_key`): a native
  game's serialized state carries the key, which is how Python finds the rules and the
  compiled state of a native state (`core_of`, `rules_of`, `key_of`);
* reads a serialized state's text for its Python shell (`parse_serialized`), as the
  native glue (ext/engine/native_game.h) does: nothing in it is trusted, nothing
  unpickled.
"""
from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import os
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

import pyspiel

from gutenberg_ai.common.jsonfile import FileDataError, packaged_json, read_bytes
from gutenberg_ai.common.words import rounds_words

DATA_PREFIX = "sha256:"        # a catalogue or position given as data (register_data)
NATIVE_GAME_FILE = "native_game.json"   # in a game's package data (native_game)


# The integers OpenSpiel's bindings carry as a game parameter (a C int): a wider one fails
# in pybind11's cast, before any game's check, as "Unable to cast Python instance".
C_INT_RANGE = (-2**31, 2**31 - 1)


class ParameterError(ValueError, pyspiel.SpielError):
    """A bad game parameter; the message names it ("players: 9 is out of range ..."), the
    first of them where the rules' parameters were checked together and several are bad:
    then `problems` has each, (name, reason). A pyspiel.SpielError too, as the native
    games' refusal is: the Python shell raises this one, and one except clause catches
    either."""

    def __init__(self, message: str, problems: list[tuple[str, str]] | None = None):
        super().__init__(message)
        self.problems = problems or []

    @classmethod
    def of(cls, problems: list[tuple[str, str]]) -> ParameterError:
        """The error of several bad parameters, (name, reason) each."""
        return cls(f"{problems[0][0]}: {problems[0][1]}", list(problems))


def native_game(package: str) -> dict:
    """The table of a game's native OpenSpiel game, its package's data/native_game.json:
    short_name, long_name, min_players, max_players and `defaults`, the parameters and
    their defaults in order. setup.py writes the game's C++ glue from the same table
    (ext/engine/spiel.cc.in), so the module's DEFAULTS are the native game's."""
    return packaged_json(package, NATIVE_GAME_FILE)


def refuse_wide_ints(params: dict, check_parameters, game_name: str):
    """ParameterError for an integer parameter outside C_INT_RANGE, with the game's own
    message for it (`check_parameters`), prefixed with `game_name` as a native game's
    refusal is; nothing when every one fits."""
    wide = [k for k, v in params.items()
            if isinstance(v, int) and not isinstance(v, bool) and not C_INT_RANGE[0] <= v <= C_INT_RANGE[1]]
    if not wide:
        return
    try:
        check_parameters(params)
    except ParameterError as e:
        raise ParameterError(f"{game_name}: {e}") from None
    raise ParameterError(f"{game_name}: {wide[0]}: {params[wide[0]]} is out of range (a game parameter is "
                         f"a whole number from {C_INT_RANGE[0]} to {C_INT_RANGE[1]})")


@dataclasses.dataclass(frozen=True)
class Setup:
    """A game's parameters, checked (`params`: every parameter resolved, the paths as
    given), the compiled rules, pyspiel.GameInfo's fields and `key`, the SHA-256 that
    names these rules (their data and parameters): a serialized state carries it."""

    params: dict
    rules: Any          # the game's compiled Rules
    info: dict
    key: str


@dataclasses.dataclass(frozen=True)
class FileKind:
    """What a parameter that names a file reads: the error its reader raises, the largest
    file it takes, and its name in messages ("a catalogue")."""

    error: type[FileDataError]
    max_bytes: int
    what: str


def with_defaults(params, defaults: dict) -> dict:
    """The parameters `params` with `defaults` filled in; ParameterError names a
    parameter the game does not have (or says that `params` is not a dict)."""
    if not isinstance(params, dict):
        raise ParameterError(f"parameters: a dict is needed, got {type(params).__name__}")
    unknown = sorted(set(params) - set(defaults), key=str)
    if unknown:
        raise ParameterError(f"unknown game parameter(s) {', '.join(map(repr, unknown))}; "
                             f"known: {', '.join(defaults)}")
    return {**defaults, **params}


def refuse_contradiction(given: dict, settings: dict) -> None:
    """ParameterError naming the first setting `given` (None: not given) that is not the
    position's `settings`: a setting given is the person's word even when it is the
    default, so it must be the file's."""
    for name, value in given.items():
        if value is not None and name in settings and value != settings[name]:
            if name == "rounds":     # (Lead Letter Printers' 0: the whole game)
                raise ParameterError(f"rounds: {value!r}, but the position plays {rounds_words(settings[name])}")
            # As the file writes them (true, "basic"), not as Python does (True, 'basic').
            raise ParameterError(f"{name}: {json.dumps(value)}, but the position is a game with {name} "
                                 f"{json.dumps(settings[name])}")


def apply_position(p: dict, settings: dict, given: dict) -> None:
    """A position says what game it is: its settings replace the parameters `p` (in
    place); the parameters `given` (before the defaults were filled in) may only repeat
    them (refuse_contradiction)."""
    refuse_contradiction(given, settings)
    p.update(settings)


def read_data(name: str, digest: str, read: Callable[[bytes, str], Any], error: type[Exception]) -> Any:
    """What `read(raw, source)` makes of the data registered under `digest` for the
    parameter `name` (catalogue, position); its `error` as a ParameterError naming the
    parameter."""
    raw, source = raw_of(digest)
    try:
        return read(raw, source)
    except error as e:   # each of its lines names the parameter, as its first does
        raise ParameterError("\n".join(f"{name}: {line}" for line in str(e).splitlines())) from None


def catalogue_reader(default, from_bytes, error: type):
    """A game's catalogue by the digest of its registered data, each read once: `default()`
    for "" (the built-in one), else `from_bytes(raw, source)`, whose `error` is a
    ParameterError naming the parameter. The last FILES_READ_KEPT are kept (rules made
    of one hold what they need of it)."""
    @functools.lru_cache(maxsize=FILES_READ_KEPT)
    def catalogue(digest: str):
        if not digest:
            return default()
        return read_data("catalogue", digest, from_bytes, error)
    return catalogue


def settle_files(params, defaults: dict, kind_of, settings_of) -> tuple[dict, str, str]:
    """The parameters with `defaults` filled in (with_defaults) and the digests of the
    catalogue and the position they name ("" for none; `kind_of(name)` is the FileKind
    of each). A position says what game it is: its settings, `settings_of(position,
    catalogue)`, replace the parameters' (apply_position: one given must be the file's)."""
    p = with_defaults(params, defaults)
    catalogue = source("catalogue", p["catalogue"], kind_of("catalogue"))
    position = source("position", p["position"], kind_of("position"))
    if position:
        apply_position(p, settings_of(position, catalogue), params)
    return p, catalogue, position


def setup_faces(setup):
    """(check_parameters, rules_for) of a game module whose `setup(params)` gives a Setup:
    what the native glue and the tools call."""
    def check_parameters(params: dict) -> dict:
        """The parameters with defaults filled in; ParameterError names a bad one."""
        return setup(params).params

    def rules_for(p: dict):
        """The compiled rules for parameters `p` (see setup)."""
        return setup(p).rules
    return check_parameters, rules_for


def resolve_returns(p: dict, modes) -> None:
    """The parameter `returns` in `p` resolved in place: "auto" is "score" solo and "win"
    with 2+ players; the solo game returns its score."""
    if p["returns"] == "auto":
        p["returns"] = "score" if p["players"] == 1 else "win"
    if p["returns"] not in modes:
        raise ParameterError(f"returns: {p['returns']!r} is not one of {', '.join(modes)}")
    if p["players"] == 1 and p["returns"] != "score":
        raise ParameterError(f"returns: {p['returns']!r} needs 2 or more players; the solo game "
                             "returns its score")


def game_info(p: dict, top_score: float, num_actions: int, num_chance: int,
              max_game_length: int) -> dict:
    """pyspiel.GameInfo's fields for checked parameters `p` (players, returns) of a game
    whose final scores lie in [0, top_score]: "win" in [-1, 1], "score" in [0, top],
    "margin" in [-top, top]; "utility_sum" only for the zero-sum modes ("win" and
    "margin" with 2+ players; "score" is general-sum)."""
    top = float(top_score)
    lo, hi = {"win": (-1.0, 1.0), "score": (0.0, top), "margin": (-top, top)}[p["returns"]]
    info = dict(num_distinct_actions=num_actions, max_chance_outcomes=num_chance,
                num_players=p["players"], min_utility=lo, max_utility=hi,
                max_game_length=max_game_length)
    if p["returns"] != "score" and p["players"] > 1:
        info["utility_sum"] = 0.0
    return info


# ---------------------------------------------------------------------------------------
# Data by content.
# ---------------------------------------------------------------------------------------
# A long-running process (the web server) is sent file after file: what it keeps of them
# is bounded. The data of rules in use is kept (a game made of it may be loaded again by
# its parameters); the rest is let go, oldest first, past MAX_KEPT_DATA_BYTES.
MAX_KEPT_DATA_BYTES = 64 << 20
FILES_READ_KEPT = 8        # catalogues and positions read, kept for the next game of the same file
_DATA: OrderedDict[str, bytes] = OrderedDict()   # sha256 -> the bytes of a catalogue or position
_NAMES: dict[str, str] = {}           # sha256 -> the file's name, for messages
_LOCK = threading.RLock()             # the stores below are shared by a server's threads
_data_bytes = 0                       # the bytes in _DATA


def _keep_data(digest: str, raw: bytes, name: str, rename: bool) -> None:
    """Keep `raw` under `digest` (the newest), named `name` (the name it had stays
    unless `rename`), and let the oldest data no rules use go past MAX_KEPT_DATA_BYTES."""
    global _data_bytes
    with _LOCK:
        if digest not in _DATA:
            _DATA[digest] = raw
            _data_bytes += len(raw)
        _DATA.move_to_end(digest)
        if rename or digest not in _NAMES:
            _NAMES[digest] = name
        if _data_bytes <= MAX_KEPT_DATA_BYTES:
            return
        used = {d for pair in list(_SOURCES.values()) for d in pair}
        for old in list(_DATA):
            if _data_bytes <= MAX_KEPT_DATA_BYTES:
                break
            if old != digest and old not in used:
                _data_bytes -= len(_DATA.pop(old))
                _NAMES.pop(old, None)


def register_data(data, name: str | None = None) -> str:
    """The value of a game parameter `catalogue` or `position` for data in memory (a
    decoded JSON dict, or a file's bytes) instead of a file: "sha256:<hex>", valid in
    this process while rules made of it are in use (and for a while after); `name` names
    it in messages. A game record replays with it, so it needs neither the files nor a
    temporary copy of them."""
    raw = data if isinstance(data, bytes) else json.dumps(data).encode("utf-8")
    digest = hashlib.sha256(raw).hexdigest()
    _keep_data(digest, raw, name or f"{DATA_PREFIX}{digest[:12]}", rename=False)
    return DATA_PREFIX + digest


def data_of(digest: str):
    """The decoded JSON of registered data (a catalogue or position), None for ""."""
    return json.loads(_DATA[digest]) if digest else None


def raw_of(digest: str) -> tuple[bytes, str]:
    """The bytes of registered data and its name for messages."""
    return _DATA[digest], _NAMES[digest]


def game_string_problem(value: str) -> str | None:
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
    if value.endswith(")"):     # OpenSpiel's parser reads "cat(1)" as the game "cat"
        return f"{value!r} ends with ')', which an OpenSpiel game string reads as a game of its own; " \
               "rename the file or its folder"
    if not value.isprintable() or value != value.strip():
        return f"{value!r}: a path with control characters or spaces at its ends cannot be " \
               "written in an OpenSpiel game string"
    return None


def source(name: str, value, kind: FileKind) -> str:
    """The sha256 of the data a parameter (`name`: catalogue, position) names: a file,
    read now, or registered data. "" for none. ParameterError names the parameter."""
    if not isinstance(value, str):
        raise ParameterError(f"{name}: {value!r} is not a path")
    if not value:
        return ""
    if value.startswith(DATA_PREFIX):
        digest = value[len(DATA_PREFIX):]
        with _LOCK:
            if digest not in _DATA:
                raise ParameterError(f"{name}: {value[:24]!r}... is data registered in another process "
                                     "(register_data), or no longer in use here; give the file")
            _DATA.move_to_end(digest)
        return digest
    problem = game_string_problem(value)
    if problem:
        raise ParameterError(f"{name}: {problem}")
    if os.path.isdir(value):
        raise ParameterError(f"{name}: {value!r} is a folder, not a file")
    if not os.path.isfile(value):
        raise ParameterError(f"{name}: {value!r} is not a file (a pipe or a device?)" if os.path.exists(value)
                             else f"{name}: no file at {value!r}")
    try:
        raw, name_shown, _ = read_bytes(value, kind.error, kind.max_bytes, kind.what)
    except kind.error as e:
        raise ParameterError(f"{name}: {e}") from None
    digest = hashlib.sha256(raw).hexdigest()
    _keep_data(digest, raw, name_shown, rename=True)   # a file: named as read now
    return digest


def key_for(*parts) -> str:
    """The key naming rules made of these parts (the data's digests and the parameters)."""
    return hashlib.sha256(json.dumps(list(parts)).encode()).hexdigest()


# ---------------------------------------------------------------------------------------
# The rules of every game loaded, by key (Setup.key), and the data they were made of.
# ---------------------------------------------------------------------------------------
# Rules made of the built-in data alone are few (one per set of parameters) and kept.
# Rules made of a file's data are kept while something uses them (a game, a state, a
# position: each holds them) and the last MAX_RECENT_RULES made, so that a server sent
# file after file does not keep them all.
MAX_RECENT_RULES = 16
_BUILT_IN_RULES: dict[str, object] = {}
_LIVE_RULES: weakref.WeakValueDictionary = weakref.WeakValueDictionary()
_RECENT_RULES: OrderedDict[str, object] = OrderedDict()
_START_MOVES: dict = {}    # Setup.key -> the moves of the position a game starts from
_SOURCES: dict[str, tuple[str, str]] = {}   # Setup.key -> the digests of its catalogue and position


def _find_rules(key: str):
    with _LOCK:
        found = _BUILT_IN_RULES.get(key)
        return found if found is not None else _LIVE_RULES.get(key)


def _forget(key: str) -> None:
    """The rules `key` (made of a file's data) are gone: so is what was kept of them."""
    with _LOCK:
        if key not in _LIVE_RULES:
            _SOURCES.pop(key, None)
            _START_MOVES.pop(key, None)


def remember(key: str, make, catalogue: str = "", position: str = ""):
    """The rules named `key`, made by `make()` unless rules of that key are in use (one
    Rules object per key at a time: native games point into its catalogue and initial
    state); `catalogue` and `position` are the digests of the data they were made of."""
    with _LOCK:
        rules = _find_rules(key)
    if rules is None:
        # Made outside the lock, so that the server's threads read different files at
        # once; where two made the same key meanwhile, the first kept is everyone's.
        made = make()
    with _LOCK:
        rules = _find_rules(key) if rules is None else rules
        if rules is None:
            rules = made
            _SOURCES[key] = (catalogue, position)
            if catalogue or position:
                _LIVE_RULES[key] = rules
                weakref.finalize(rules, _forget, key)
            else:
                _BUILT_IN_RULES[key] = rules
        if catalogue or position:
            _RECENT_RULES[key] = rules
            _RECENT_RULES.move_to_end(key)
            while len(_RECENT_RULES) > MAX_RECENT_RULES:
                _RECENT_RULES.popitem(last=False)
        return rules


def rules_kept() -> int:
    """How many rules made of a file's data this process holds (in use, or recent)."""
    with _LOCK:
        return len(_LIVE_RULES)


def remember_start_moves(key: str, moves: Sequence[int] | None) -> None:
    """Record the moves from the beginning of the game to the initial state of the rules
    `key` (a game that starts from a position; None where they are not known: a table)."""
    with _LOCK:
        _START_MOVES[key] = None if moves is None else tuple(moves)


def start_moves(game) -> list[int] | None:
    """The moves from the beginning of the game to the initial state of a loaded game
    (none unless it starts from a position; None if it starts from a table, whose moves
    are not known)."""
    moves = _START_MOVES.get(key_of(game), ())
    return None if moves is None else list(moves)


def rules_by_key(key: str):
    """The rules of a loaded game by its Setup.key; KeyError when no game of that key is
    in use."""
    rules = _find_rules(key)
    if rules is None:
        raise KeyError(key)
    return rules


def key_of(game) -> str:
    """Setup.key of a loaded game: a Python shell's own (its `key`), a native game's from
    the "rules" line of a serialized state."""
    key = getattr(game, "key", None)
    if isinstance(key, str):
        return key
    return serialized_key(game.new_initial_state().serialize())


def rules_of(game):
    """The compiled rules of a loaded game, native or Python (the game's own: the files it
    was made of may have changed since)."""
    return rules_by_key(key_of(game))


def returns_mode_of(game) -> str:
    """The returns a loaded game gives ("win", "score" or "margin"), native or Python."""
    mode = getattr(game, "returns_mode", None)
    if isinstance(mode, str):
        return mode
    return game.get_parameters()["returns"]      # resolved when the game was loaded


def sources_of(game) -> dict:
    """The data a loaded game was made of: {"catalogue": the catalogue's JSON or None for
    the built-in one, "position": the position's JSON or None}, as read when the game
    was loaded (a record carries them)."""
    catalogue, position = _SOURCES[key_of(game)]
    return {"catalogue": data_of(catalogue), "position": data_of(position)}


# ---------------------------------------------------------------------------------------
# Serialized states (ext/engine/native_game.h writes them): the history, one action a
# line; a start-record line ("<tag> <ints>") for each hidden fact of the initial state
# that a resample redrew; "rules <key>" (Setup.key); "core <hex>", the struct.
# ---------------------------------------------------------------------------------------
def serialized_key(text: str) -> str:
    lines = text.rsplit("\n", 2)
    if len(lines) < 2 or not lines[-2].startswith("rules ") or not lines[-1].startswith("core "):
        raise TypeError("not a serialized state of a printing game")
    return lines[-2][len("rules "):]


def excerpt(line: str) -> str:
    """At most 40 characters of a line, printable."""
    text = line[:40] + ("..." if len(line) > 40 else "")
    return "".join(c if " " <= c <= "~" else "?" for c in text)


_DIGITS = frozenset("0123456789")


def bad_state(game_name: str, n: int, line: str, why: str):
    return pyspiel.SpielError(f"{game_name}: serialized state, line {n} ('{excerpt(line)}'): {why}")


def parse_serialized(text: str, max_actions: int, game_name: str, start_tag: str,
                     start_width: int, start_words: str):
    """(actions [(action, line)], start records [(ints, line, text)], rules key, core hex)
    of a serialized state; pyspiel.SpielError names the line at fault. A start record is
    a `start_tag` line of `start_width` numbers of 1-2 digits (`start_words` says what
    they are)."""
    if not isinstance(text, str):
        raise TypeError(f"a serialized state is text, got {type(text).__name__}")
    if text.startswith("history="):
        raise pyspiel.SpielError(
            f"{game_name}: this is OpenSpiel's generic serialization of a Python game, which "
            "unpickles its data: it is not read (serialize with state.serialize())")
    actions: list[tuple[int, int]] = []
    starts, key, core = [], None, None
    tag = start_tag + " "
    for n, line in enumerate(text.split("\n"), 1):
        if not line:
            continue
        if line.startswith("core "):
            if core is not None:
                raise bad_state(game_name, n, line, "a second 'core' line")
            core = (line[5:], n)
        elif line.startswith("rules "):
            if key is not None:
                raise bad_state(game_name, n, line, "a second 'rules' line")
            key = (line[6:], n)
        elif line.startswith(tag):
            parts = line[len(tag):].split(" ")
            if len(parts) != start_width or not all(0 < len(x) <= 2 and set(x) <= _DIGITS for x in parts):
                raise bad_state(game_name, n, line, f"a '{start_tag}' line is {start_words}")
            starts.append(([int(x) for x in parts], n, line))
        else:
            if not 0 < len(line) <= 9 or not set(line) <= _DIGITS:
                raise bad_state(game_name, n, line, "not an action (a whole number), a "
                                                    f"'{start_tag}', 'rules' or 'core' line")
            if len(actions) >= max_actions:
                raise bad_state(game_name, n, line, "more actions than a game of these "
                                                    "parameters has")
            actions.append((int(line), n))
    return actions, starts, key, core


def core_of(state, core_module):
    """The compiled state (`core_module.CoreState`) of a game state, for reading (a
    CoreState is returned as it is).

    Of a Python shell's state: its own core (its `core`; changing it changes the state).
    Of a native state: a copy of its struct, read from the last line of
    `state.serialize()` (about 10 us in the middle of a game, see docs/native.md);
    changing it does not change the state."""
    if isinstance(state, core_module.CoreState):
        return state
    core = getattr(state, "core", None)
    if isinstance(core, core_module.CoreState):
        return core
    what = f"not a state of {core_module.__name__}: {type(state).__name__}"
    if not isinstance(state, pyspiel.State):
        raise TypeError(what)
    text = state.serialize()
    try:
        rules = rules_by_key(serialized_key(text))
        data = bytes.fromhex(text[text.rfind("\n") + 6:])
        return core_module._rebuild_state(rules, data)
    except (TypeError, KeyError, ValueError):
        raise TypeError(what) from None
