"""Game records: a game as JSON (its parameters, seed, who sat where, every action with
its text and who played it, the final scores), written by every command that plays and
read back by `gutenberg-ai replay`.

    from gutenberg_ai.games.records import GameRecord, load_record, replay
    record = GameRecord(game, seed=7, seats=[...], command="play")
    record.add(state, action)          # before applying it: the text is the state's
    record.finish(state)               # at the end: scores, returns, winners
    record.save("game.json")
    state = replay(load_record("game.json"))   # the same final state, checked

A record looks like this (one action per line):

    {
      "format": "gutenberg-record",
      "version": 3,
      "command": "play",
      "game": {"name": "gutenberg", "players": 2, "rounds": 6, "returns": "win",
               "characters": true, "automa": 0},
      "catalogue": null,
      "position": null,
      "seed": 7,
      "seats": [{"seat": 0, "player": "human"},
                {"seat": 1, "player": "smmcts", "seed": 8, "options": {"seconds": 3}}],
      "actions": [
        {"player": -1, "by": "chance", "action": 3049, "text": "draw character ..."},
        ...
      ],
      "finished": true,
      "result": {"scores": [88, 95], "returns": [-1.0, 1.0], "winners": [1],
                 "ranks": [2, 1], "state_digest": "..."}
    }

`game` names the game (its key in gutenberg_ai.games: "gutenberg", "printing-press";
records of version 1 and 2 are Gutenberg's) and gives its parameters, all but the
catalogue and position, which come as data. Every game's records are written, checked
and replayed by this one module: what differs is asked of the games table (the game's
module checks the parameters and knows the data a game was made of; its compiled core
plays, masks and words the actions).

`player` is the seat that acted, -1 for chance (the draws and the automa's cards).
`catalogue` holds the catalogue the game was played with (its JSON), null for the
built-in one; `position` the position the game started from (its JSON), or null for a
game from the start: a record replays anywhere, without the files (version 1 records,
which named the catalogue by a path, are read when it was the built-in one). `seed` draws every chance outcome (draw_chance), so the same seed and the
same moves give the same game. `result` is null until the game is over; `ranks` are 1
for the winners, equal keys (score, then fewer types, then fewer inks) sharing a rank.
`state_digest` is the SHA-256 of the final state's fields (CoreState.to_dict) as JSON.

A record is untrusted: loading checks every field (all problems at once, each named:
"actions[12].action: ..."), and replaying checks each action against the record (the
player to act, legality and the action's text) and, at the end, the whole result:
scores, returns, winners, ranks and the state's digest; `finished` must agree with it.

An AI seat's move in a game played with `play` or the page may carry `hints`: what its
search weighed when it chose the move (hints.Hints.as_dict: the search's iterations
and measure (`seconds` may be given too; play leaves the machine's time out), and its top moves, each with its share, chance to win or expected
fame, 95% interval, standing and expected line, as `gutenberg-ai hint` gives them), or
null from a bot that does not search. A record saved as seen by a player before the
end keeps of it what that player may be shown (seen.seen_hints: where the AI's moves
name what the player cannot see, only the move played, with `"others_hidden": true`;
each line cut at the first step unseen). The field is optional (records without it read as
before) and bounded when read: at most MAX_HINTS moves of at most MAX_LINE steps, every
text plain and at most MAX_TEXT characters, every number in its range.

A record saved by a player in the middle of a game (`save FILE` in `gutenberg-ai play`)
holds only what that player has seen: it has `"viewer": SEAT`, no seeds (they would
deal the hidden draws again), and the entries that player has not seen (another
player's plan committed in the current plan step, the character tiles the others drew)
are `{"player": P, "by": ..., "hidden": true}`, without action or text. Replaying or
resuming one fills the hidden draws with draws that fit everything recorded after them
(fill_hidden), and leaves the hidden plans at the end to be chosen again.

A record of a game followed at a table from a position (`gutenberg-ai table --position`)
may have `"start"`: the hidden facts of the position as the followed game last dealt
them (the native state's start records, "start_tokens 3 4 ...", one line each), so
that its actions replay from the same start (start_state). A followed game's record
has `"table_seed"`: the seed of its stand-ins and hints, which `table --resume` takes.
"""
from __future__ import annotations

import copy
import hashlib
import json
import math
import os
import random
import re
import tempfile
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeGuard

import pyspiel

from gutenberg_ai import games
from gutenberg_ai.games import core_of
from gutenberg_ai.games.positionfile import RECORD_FORMAT, program_file
from gutenberg_ai.games.seen import seen_hints
from gutenberg_ai.common import limits
from gutenberg_ai.common.jsonfile import (FileDataError, Problems, capped_lines, decode_json, json_type,
                                   read_bytes, show, text_problem, whole_number)

FORMAT = RECORD_FORMAT
VERSION = 3                   # 3: "game" names its game; 1 and 2 (Gutenberg's) are read
CHANCE = int(pyspiel.PlayerId.CHANCE)
_DATA_KEYS = ("catalogue", "position")   # parameters a record carries as data
MAX_FILE_BYTES = 16 << 20     # a game of 4 players is a few hundred kB
MAX_NAME = 120                # a seat's player: "human", a bot's name (module:factory@budget), a person's
MAX_PERSON_NAME = 40          # a person's name at a table, as a position file's players may have it
MAX_TEXT = 300                # an action's text


class RecordError(FileDataError):
    """A record that cannot be read or replayed; ``str(error)`` reads
    ``"<source>: <where>: <reason>"``, one line per problem (parts in ``source``,
    ``where``, ``reason`` and ``problems``)."""


# ---------------------------------------------------------------------------------------
# Chance and playing
# ---------------------------------------------------------------------------------------
def draw_chance(state: pyspiel.State, seed: int) -> int:
    """The chance outcome of `state` drawn with `seed`, by the outcomes' probabilities.

    The draw depends only on the seed and the move number, not on what was drawn before:
    going back (undo) and playing the same moves again draws the same cards."""
    actions, probs = zip(*state.chance_outcomes())
    rng = random.Random(f"gutenberg-chance/{seed}/{state.move_number()}")
    return rng.choices(actions, probs)[0]


def play_bots(game: pyspiel.Game, bots: Sequence[pyspiel.Bot] | Mapping[int, pyspiel.Bot], seed: int,
              record: GameRecord | None = None, state: pyspiel.State | None = None,
              on_action: Callable[[pyspiel.State, int, int], object] | None = None,
              search_stats: bool = False) -> pyspiel.State:
    """Play `state` (default: a new game) to the end with one bot per seat (pyspiel.Bots
    that search from the state and keep nothing between moves, as all of ours do), chance
    drawn with `seed`. Every action goes into `record` and to `on_action(state, player,
    action)` before it is applied. With `search_stats`, a move of a native search bot
    carries what its search found (search_entry: the training data of self-play).
    Returns the final state."""
    state = game.new_initial_state() if state is None else state
    while not state.is_terminal():
        player = state.current_player()
        action = draw_chance(state, seed) if player == CHANCE else bots[player].step(state)
        if on_action is not None:
            on_action(state, player, action)
        if record is not None:
            entry = record.add(state, action)
            last = getattr(bots[player], "last", None) if search_stats and player != CHANCE else None
            if last is not None:
                entry["search"] = search_entry(last)
        state.apply_action(action)
    if record is not None:
        record.finish(state)
    return state


def search_entry(result: dict) -> dict:
    """What a search (the core's `search`) found at a decision, as a record keeps it: the
    iterations, each root move with its visits, and the root's estimate per seat (win
    chance and final fame, the means over every iteration)."""
    moves = result["moves"]
    total = sum(m["visits"] for m in moves) or 1
    seats = len(moves[0]["win"]) if moves else 0
    return {"iterations": int(result["iterations"]),
            "moves": [[int(m["action"]), int(m["visits"])] for m in moves],
            "win": [round(sum(m["win"][s] * m["visits"] for m in moves) / total, 4) for s in range(seats)],
            "fame": [round(sum(m["fame"][s] * m["visits"] for m in moves) / total, 2) for s in range(seats)]}


# ---------------------------------------------------------------------------------------
# Making a record
# ---------------------------------------------------------------------------------------
def seat_entry(seat: int, player: str, seed: int | None = None, options: dict | None = None) -> dict:
    """One entry of a record's `seats`: who plays `seat` ("human", a bot's name...)."""
    entry = {"seat": seat, "player": player}
    if seed is not None:
        entry["seed"] = seed
    if options:
        entry["options"] = dict(options)
    return entry


def ranking_keys(core: Any) -> list:
    """Each player's place in the game's order: its rulebook's tie-breaks where the core
    has them (ranking_key), else the final score."""
    if hasattr(core, "ranking_key"):
        return [core.ranking_key(seat) for seat in range(core.num_players)]
    return list(core.final_scores())


def final_result(state: pyspiel.State) -> dict:
    """The `result` of a finished game: scores, returns, winners, ranks, state digest."""
    core = core_of(state)
    keys = ranking_keys(core)
    ranks = [1 + sum(other > key for other in keys) for key in keys]
    return {"scores": core.final_scores(), "returns": [float(r) for r in state.returns()],
            "winners": core.winners(), "ranks": ranks, "state_digest": state_digest(core)}


def state_digest(core: Any) -> str:
    """SHA-256 of the state's fields as canonical JSON (independent of the struct's
    padding, unlike its bytes)."""
    text = json.dumps(core.to_dict(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _checked_seats(seats: Any, players: int) -> list:
    """A record's `seats` as its file holds them (_check_seats): one seat_entry a seat;
    ValueError listing every problem."""
    if not isinstance(seats, (list, tuple)) or len(seats) != players:
        raise ValueError(f"seats: {show(seats)} is not a list of {players} seat entries "
                         '({"seat": ..., "player": ...}, one a seat: seat_entry)')
    found = Problems()
    _check_seats(list(seats), players, found.add)
    if found:
        raise ValueError("\n".join(capped_lines([f"{w}: {r}" for w, r in found.found])))
    return list(seats)


class GameRecord:
    """A game being recorded: add every action (chance included) before applying it."""

    def __init__(self, game: pyspiel.Game, seed: int | None, seats: list, command: str = "",
                 extra: dict | None = None):
        params = game.get_parameters()          # resolved when the game was loaded
        self.game = game
        self.printing_game = games.of(game)
        self.params = {"name": self.printing_game.key,
                       **{k: v for k, v in params.items() if k not in _DATA_KEYS}}
        # The catalogue and the position are copied in, as the game read them: the
        # record replays without the files (and whatever became of them).
        sources = self.printing_game.rules_module.sources_of(game)
        self.catalogue = sources.get("catalogue")
        self.position = sources.get("position")
        self.seed = seed
        self.seats = _checked_seats(seats, game.num_players())
        self.command = command
        self.extra = dict(extra or {})
        self.actions: list[dict] = []
        self.result: dict | None = None

    def by(self, player: int) -> str:
        if player == CHANCE:
            return "chance"
        for entry in self.seats:
            if entry["seat"] == player:
                return entry["player"]
        return f"player {player}"

    def add(self, state: pyspiel.State, action: int) -> dict:
        """Record `action` about to be applied to `state`."""
        player = state.current_player()
        entry = {"player": player, "by": self.by(player), "action": int(action),
                 "text": state.action_to_string(player, action)}
        self.actions.append(entry)
        return entry

    def truncate(self, n: int) -> None:
        """Forget the actions after the first `n` (undo)."""
        del self.actions[n:]
        self.result = None

    def finish(self, state: pyspiel.State) -> None:
        self.result = final_result(state) if state.is_terminal() else None

    def copy(self) -> GameRecord:
        """A copy that the actions added, undone or finished later leave as it is now (an
        entry, with the hints of an AI's move, is whole once its move is played)."""
        other = copy.copy(self)
        other.seats = list(self.seats)
        other.extra = copy.deepcopy(self.extra)
        other.actions = list(self.actions)
        return other

    def to_dict(self, viewer: int | None = None, state: pyspiel.State | None = None) -> dict:
        """The record as JSON-ready data: everything, or with `viewer` (a seat) and
        `state` (where the actions led) only what that player has seen: the entries
        hidden from them (CoreState.mask_history) without action or text, and no seeds."""
        seats, seed, actions = self.seats, self.seed, list(self.actions)
        if viewer is not None:
            history = [(e["player"], e["action"]) for e in self.actions]
            masked = core_of(state).mask_history(viewer, history)
            actions = [e if action >= 0 else {"player": e["player"], "by": e["by"], "hidden": True}
                       for e, (_, action) in zip(self.actions, masked)]
            if not core_of(state).is_terminal() and any(e.get("hints") for e in actions):
                actions = self._hints_seen(actions, viewer)
            seats = [{k: v for k, v in entry.items() if k != "seed"} for entry in self.seats]
            seed = None
        out = {"format": FORMAT, "version": VERSION, "command": self.command, "game": dict(self.params),
               "catalogue": self.catalogue, "position": self.position, "seed": seed, "seats": seats}
        if viewer is not None:
            out["viewer"] = viewer
        out.update(self.extra)
        out["actions"] = actions
        out["finished"] = self.result is not None
        out["result"] = self.result
        return out

    def _hints_seen(self, actions: list[dict], viewer: int) -> list[dict]:
        """The entries with their AI moves' `hints` as `viewer` may be shown them
        (seen.seen_hints, at each move's decision, replayed from the start)."""
        state, out = self.game.new_initial_state(), []
        for entry, shown in zip(self.actions, actions):
            if shown.get("hints") is not None:
                shown = {**shown, "hints": seen_hints(state, shown["hints"], entry["action"], viewer)}
            out.append(shown)
            state.apply_action(entry["action"])
        return out

    def save(self, path: str | os.PathLike, viewer: int | None = None,
             state: pyspiel.State | None = None) -> dict:
        """Write the record (to_dict: everything, or what `viewer` has seen)."""
        data = self.to_dict(viewer, state)
        write_json(path, data)
        return data


def _dumps(data: dict) -> str:
    """JSON with each top-level field on its lines, and the items of lists (actions,
    seats) one per line: readable, and a record of a thousand actions stays greppable."""
    parts = []
    for key, value in data.items():
        flat = json.dumps(value)
        if isinstance(value, list) and value and len(flat) > 80:
            body = ",\n".join("    " + json.dumps(v) for v in value)
            parts.append(f"  {json.dumps(key)}: [\n{body}\n  ]")
        elif isinstance(value, dict) and len(flat) > 80:
            body = ",\n".join(f"    {json.dumps(k)}: {json.dumps(v)}" for k, v in value.items())
            parts.append(f"  {json.dumps(key)}: {{\n{body}\n  }}")
        else:
            parts.append(f"  {json.dumps(key)}: {flat}")
    return "{\n" + ",\n".join(parts) + "\n}"


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_json(path: str | os.PathLike, data: dict) -> None:
    """Write a record with one action per line, atomically (a half-written file never
    appears under its name: the arena counts the files present as finished games)."""
    text = _dumps(data) + "\n"
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=".json")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, 0o666 & ~_umask())   # mkstemp makes it private; a record is an ordinary file
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


# ---------------------------------------------------------------------------------------
# Reading and replaying
# ---------------------------------------------------------------------------------------
def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _seed(value: object) -> bool:
    """A seed as the command line takes one (limits.check_seed)."""
    try:
        limits.check_seed(value)
    except ValueError:
        return False
    return True


_DIGEST = re.compile(r"[0-9a-f]{64}")
# The keys a record may have: the format's, and those the commands add (`extra`).
_KEYS = ("format", "version", "command", "game", "catalogue", "position", "seed", "seats",
         "viewer", "actions", "finished", "result", "arena", "start", "table_seed")
MAX_START_LINES = 16          # a start record a seat at most (4), with room
_START_LINE = re.compile(r"start_[a-z]{1,20}( [0-9]{1,2}){1,200}")


def load_record(source: str | os.PathLike | dict, command: str | None = None) -> dict:
    """A record read from a path (or a dict) and checked field by field: RecordError
    lists every problem with its field. Legality of the actions, and the result, are
    checked by replay(). `command`: the one reading it ("table"), for what to do with
    another of the program's files given instead (ProgramFile.use_at)."""
    name, path = "record", None
    if isinstance(source, dict):
        data = source
    else:
        raw, name, path = read_bytes(source, RecordError, MAX_FILE_BYTES, "a game record")
        data = decode_json(raw, name, RecordError, path)
    found = _check_record(data, command)
    if found:
        raise RecordError.of(name, found.found, path)
    return data | {"_source": name}


def _check_record(data: Any, command: str | None = None) -> Problems:
    found = Problems()
    add = found.add
    if not isinstance(data, dict):
        add("top level", f"a record is a JSON object {{...}}, got {show(data)}")
        return found
    kind = program_file(data, besides=FORMAT)
    if kind is not None:
        add("format", f"this is {kind.what}, not a game record ({kind.use_at(command)})")
        return found
    for key in ("format", "version", "game", "seats", "actions"):
        if key not in data:
            add("top level", f"missing key {key!r}")
    for key in data:
        if key not in _KEYS and key != "_source":     # _source: added by load_record
            add("top level", f"unknown key {show(key)} (expected {', '.join(_KEYS)})")
    if "format" in data and data["format"] != FORMAT:
        add("format", f"{show(data['format'])} is not {FORMAT!r} (is this a game record?)")
    if "version" in data and not (_whole(data["version"]) and 1 <= data["version"] <= VERSION):
        add("version", f"{show(data['version'])}: this program reads versions 1 to {VERSION}")
    if found:
        return found
    players = _check_game(data, found)
    for key in ("seed", "table_seed"):
        seed = data.get(key)
        if seed is not None and not _seed(seed):
            add(key, f"{show(seed)} is not a seed (a whole number 0 to {limits.MAX_SEED})")
    if not isinstance(data.get("command", ""), str) or text_problem(data.get("command", "")):
        add("command", f"{show(data.get('command'))} is not plain text")
    viewer = data.get("viewer")
    if viewer is not None and not (_whole(viewer) and (players is None or 0 <= viewer < players)):
        add("viewer", f"{show(viewer)} is not a seat" + (f" (players are 0-{players - 1})" if players else ""))
    _check_seats(data["seats"], players, add)
    if "start" in data:
        _check_start(data["start"], data.get("position"), add)
    _check_actions(data["actions"], players, add, viewer is not None)
    _check_result(data, players, add)
    return found


def printing_game_of(record: dict) -> games.PrintingGame:
    """The game (games.PrintingGame) a record names; ValueError for a name not known."""
    game = record.get("game")
    name = game.get("name", games.DEFAULT_GAME) if isinstance(game, dict) and record.get("version", 1) >= 3 \
        else games.DEFAULT_GAME
    return games.get(name)


def _check_game(data: dict, found: Problems) -> int | None:
    """The game's name, parameters and data; the number of players if they are sound."""
    add = found.add
    game = data["game"]
    if not isinstance(game, dict):
        add("game", f"the game's parameters are an object {{...}}, got {show(game)}")
        return None
    if data["version"] >= 3 and "name" not in game:
        add("game.name", f"missing: which game this is ({', '.join(games.GAMES)})")
        return None
    try:
        g = printing_game_of(data)
    except ValueError:
        add("game.name", f"{show(game.get('name'))} is not one of {', '.join(games.GAMES)}")
        return None
    module = g.rules_module
    keys = tuple(k for k in module.DEFAULTS if k not in _DATA_KEYS) + \
        (("catalogue",) if data["version"] == 1 else ())
    for key in game:
        if key not in keys and not (key == "name" and data["version"] >= 3):
            add(f"game.{key}" if isinstance(key, str) and key.isidentifier() else "game",
                f"unknown parameter {show(key)} (known: {', '.join(keys)})")
    for key in _DATA_KEYS:
        if data.get(key) is not None and not isinstance(data[key], dict):
            add(key, f"the {key} (an object {{...}}) or null, got {show(data[key])}")
    if data["version"] == 1 and game.get("catalogue", "") != "":
        add("game.catalogue", "a version 1 record names its catalogue by a path; it replays "
                              "only with the built-in catalogue (record it again)")
    if found:
        return None
    try:
        params = module.check_parameters(_params(data))
    except ValueError as e:      # the game's ParameterError (a catalogue's, a position's too)
        each = getattr(e, "problems", [])      # the rules' parameters, each at its field
        for name, reason in each:
            add(f"game.{name}" if name in module.DEFAULTS else "game", reason)
        if each:
            return None
        lines = str(e).split("\n")
        field, _, first = lines[0].partition(": ")
        where = (field if field in _DATA_KEYS else
                 f"game.{field}" if field in module.DEFAULTS else "game")
        # A catalogue's or position's problems come one a line, each with its field.
        for line in [first] + lines[1:]:
            add(where, line)
        return None
    except TypeError as e:
        add("game", show(str(e), 300))
        return None
    if "returns" in game and params.get("returns") != game["returns"]:
        add("game.returns", f"{show(game['returns'])}, but the game returns "
                            f"{params.get('returns')!r}")
    return params["players"]


def _params(record: dict) -> dict:
    """The game parameters of a record, its catalogue and position as registered data."""
    g = printing_game_of(record)
    module = g.rules_module
    params = {k: v for k, v in record["game"].items() if k in module.DEFAULTS and k not in _DATA_KEYS}
    for key in _DATA_KEYS:
        if isinstance(record.get(key), dict):
            params[key] = module.register_data(record[key], f"the record's {key}")
    return params


def _check_seats(seats: Any, players: int | None, add: Callable[[str, str], None]) -> None:
    if not isinstance(seats, list):
        add("seats", 'a list [...] of {"seat": ..., "player": ...}')
        return
    taken: dict[int, int] = {}       # seat -> its entry
    for i, entry in enumerate(seats):
        where = f"seats[{i}]"
        if not isinstance(entry, dict):
            add(where, f'an object {{"seat": ..., "player": ...}}, got {show(entry)}')
            continue
        seat = entry.get("seat")
        if not _whole(seat):
            add(f"{where}.seat", f"{show(seat)} is not a seat number")
        elif players is not None and not 0 <= seat < players:
            add(f"{where}.seat", f"{seat} is not a seat (players are 0-{players - 1})")
        elif seat in taken:
            add(f"{where}.seat", f"seat {seat} is also seats[{taken[seat]}]")
        else:
            taken[seat] = i
        player = entry.get("player")
        if not isinstance(player, str):
            add(f"{where}.player", f"{show(player)} is not a name" if "player" in entry else "missing")
        elif len(player) > MAX_NAME or text_problem(player):
            add(f"{where}.player", text_problem(player) or
                f"{len(player)} characters, at most {MAX_NAME}")
        if "seed" in entry and not _seed(entry["seed"]):
            add(f"{where}.seed", f"{show(entry['seed'])} is not a seed (a whole number 0 to {limits.MAX_SEED})")
        if "options" in entry and not isinstance(entry["options"], dict):
            add(f"{where}.options", f"{show(entry['options'])} is not an object {{...}}")


def _check_actions(actions: Any, players: int | None, add: Callable[[str, str], None],
                   viewer: bool = False) -> None:
    """The actions; with a `viewer`, entries may be hidden: {"player": P, "by": ...,
    "hidden": true}, without action or text."""
    if not isinstance(actions, list):
        add("actions", 'a list [...] of {"player": ..., "action": ..., "text": ...}')
        return
    for i, entry in enumerate(actions):
        where = f"actions[{i}]"
        if not isinstance(entry, dict):
            add(where, 'an object {"player": ..., "action": ..., "text": ...}')
            continue
        if "hidden" in entry:
            if entry["hidden"] is not True:
                add(f"{where}.hidden", f"{show(entry['hidden'])}: only true (an entry its viewer has not seen)")
            elif not viewer:
                add(f"{where}.hidden", "a hidden entry in a record without a viewer")
            for key in ("action", "text"):
                if key in entry:
                    add(f"{where}.{key}", "a hidden entry has no action or text")
        for key in ("player",) if "hidden" in entry else ("player", "action"):
            value = entry.get(key)
            if not _whole(value):
                add(f"{where}.{key}", "missing" if key not in entry else
                    f"{show(value)} is out of range" if whole_number(value) else
                    f"{show(value)} is not a whole number")
        player = entry.get("player")
        if _whole(player) and players is not None and not -1 <= player < players:
            add(f"{where}.player", f"{player} is not a seat (players are 0-{players - 1}, "
                                   "chance -1)")
        if "search" in entry:
            _check_search(entry["search"], f"{where}.search", add)
        if entry.get("hints") is not None:
            if player == CHANCE:
                add(f"{where}.hints", "a draw has no hints: only a seat's move was searched")
            _check_hints(entry["hints"], f"{where}.hints", add)
        for key, limit in (("text", MAX_TEXT), ("by", MAX_NAME)):
            if key in entry:
                _check_text(entry[key], f"{where}.{key}", limit, add)


def _check_start(start: Any, position: Any, add: Callable[[str, str], None]) -> None:
    """The start records of a followed game's position (start_lines)."""
    if not isinstance(position, dict):
        add("start", "a record's start belongs to a game from a position (its position is null)")
    elif not isinstance(start, list) or len(start) > MAX_START_LINES:
        add("start", f"a list of at most {MAX_START_LINES} lines, got {show(start)}")
    else:
        for i, line in enumerate(start):
            if not isinstance(line, str) or not _START_LINE.fullmatch(line):
                add(f"start[{i}]", f"{show(line)} is not a start record ('start_<what> <numbers>')")


def start_lines(state: pyspiel.State) -> list:
    """The start records of a native state (the hidden facts of a position's start as a
    redraw dealt them), as its serialization writes them: "start_tokens 3 4 ..."."""
    return [line for line in state.serialize().split("\n") if line.startswith("start_")]


def start_state(record: dict, game: pyspiel.Game | None = None) -> pyspiel.State:
    """The state a checked record's actions begin at: the game's initial state, with the
    record's start records set ("start"); RecordError where the game refuses them."""
    game = game_of(record) if game is None else game
    lines = record.get("start")
    if not lines:
        return game.new_initial_state()
    try:
        return game.deserialize_state("\n".join(lines))
    except pyspiel.SpielError as e:
        raise RecordError(record.get("_source", "record"), "start",
                          str(e).split("): ")[-1].split("\n")[0]) from None


def _check_search(search: Any, where: str, add: Callable[[str, str], None]) -> None:
    """A move's search statistics (search_entry), as self-play records carry them."""
    if not _object(search, where, "search statistics", ("iterations", "moves", "win", "fame"), add):
        return
    if not _whole(search.get("iterations")) or search["iterations"] < 0:
        add(f"{where}.iterations", f"{show(search.get('iterations'))} is not a whole number >= 0")
    moves = search.get("moves")
    if not (isinstance(moves, list) and moves and all(_numbers(m, 2, True) and m[1] >= 0 for m in moves)):
        add(f"{where}.moves", f"{show(moves)} is not a list of [action, visits] pairs")
    for key in ("win", "fame"):
        if not _numbers(search.get(key), None, False):
            add(f"{where}.{key}", f"{show(search.get(key))} is not a list of numbers, one a seat")


# What a searching bot's move weighed (hints.Hints.as_dict): its top moves only.
MAX_HINTS = 16                # moves (a bot keeps bots.HINT_TOP)
MAX_LINE = 32                 # steps of a move's expected line (a bot keeps bots.HINT_LINE_LENGTH)
_STANDINGS = ("best", "level", "behind", "too few samples", "")
_HINT_KEYS = ("action", "text", "share", "win_probability", "expected_fame", "interval", "level",
              "line", "standing")


def _check_hints(hints: Any, where: str, add: Callable[[str, str], None]) -> None:
    """An AI move's `hints` (null: the bot did not search): the search's iterations,
    seconds, measure and its top moves, each as `gutenberg-ai hint` gives them."""
    if not _object(hints, where, "the search's hints (or null)",
                   ("hints", "iterations", "seconds", "measure", "others_hidden"), add):
        return
    if hints.get("others_hidden", True) is not True:
        add(f"{where}.others_hidden", f"{show(hints['others_hidden'])}: only true (the other moves withheld)")
    if not _whole(hints.get("iterations")) or not 0 <= hints["iterations"] <= limits.MAX_ITERATIONS:
        add(f"{where}.iterations", f"{show(hints.get('iterations'))} is not a whole number >= 0")
    if "seconds" in hints and not (_finite(hints["seconds"]) and hints["seconds"] >= 0):
        add(f"{where}.seconds", f"{show(hints.get('seconds'))} is not a number of seconds >= 0")
    measure = hints.get("measure")
    if measure not in ("win", "fame"):
        add(f"{where}.measure", f"{show(measure)} is not \"win\" or \"fame\"")
    moves = hints.get("hints")
    fewest = 0 if hints.get("others_hidden") else 1    # withheld: the move played, if the search kept it
    if not isinstance(moves, list) or not fewest <= len(moves) <= MAX_HINTS:
        add(f"{where}.hints", f"a list of {fewest} to {MAX_HINTS} moves, got {show(moves)}")
        return
    for i, h in enumerate(moves):
        _check_hint(h, f"{where}.hints[{i}]", add, 1.0 if measure == "win" else None)


def _check_hint(h: Any, where: str, add: Callable[[str, str], None], top: float | None) -> None:
    """One move of a `hints` (hints.Hint.as_dict); `top`: the highest a chance may be."""
    if not _object(h, where, "a move's hint", _HINT_KEYS, add):
        return
    for key in _HINT_KEYS:
        if key not in h:
            add(f"{where}.{key}", "missing")
    if "action" in h and not (_whole(h["action"]) and h["action"] >= 0):
        add(f"{where}.action", f"{show(h['action'])} is not a whole number >= 0")
    if "text" in h:
        _check_text(h["text"], f"{where}.text", MAX_TEXT, add)
    if "share" in h and not (_finite(h["share"]) and 0 <= h["share"] <= 1):
        add(f"{where}.share", f"{show(h['share'])} is not a number from 0 to 1")
    for key, high in (("win_probability", 1.0), ("expected_fame", None)):
        value = h.get(key)
        if value is not None and not (_finite(value) and (high is None or 0 <= value <= high)):
            add(f"{where}.{key}", f"{show(value)} is not " +
                ("a number from 0 to 1" if high else "a number") + ", or null")
    iv = h.get("interval")
    if iv is not None and not (isinstance(iv, list) and len(iv) == 2 and all(_finite(x) for x in iv)
                               and iv[0] <= iv[1] and (top is None or 0 <= iv[0] and iv[1] <= top)):
        add(f"{where}.interval", f"{show(iv)} is not [low, high] (low <= high), or null")
    if h.get("level") not in (True, False, None):
        add(f"{where}.level", f"{show(h['level'])} is not true, false or null")
    line = h.get("line", [])
    if not isinstance(line, list) or len(line) > MAX_LINE:
        add(f"{where}.line", f"a list of at most {MAX_LINE} steps, got {show(line)}")
    else:
        for k, step in enumerate(line):
            _check_text(step, f"{where}.line[{k}]", MAX_TEXT, add)
    if "standing" in h and h["standing"] not in _STANDINGS:
        add(f"{where}.standing", f"{show(h['standing'])} is not one of {', '.join(map(repr, _STANDINGS))}")


def _object(value: Any, where: str, what: str, keys: tuple, add: Callable[[str, str], None]) -> bool:
    """Whether `value` is an object (else a problem naming `what` it should hold), each
    of its keys one of `keys` (else a problem a key)."""
    if not isinstance(value, dict):
        add(where, f"an object {{...}} of {what}, got {show(value)}")
        return False
    for key in value:
        if key not in keys:
            add(where, f"unknown key {show(key)} (expected {', '.join(keys)})")
    return True


def _check_text(value: Any, where: str, limit: int, add: Callable[[str, str], None]) -> None:
    """Plain text of at most `limit` characters."""
    if not isinstance(value, str):
        add(where, f"{show(value)} is not text")
    elif problem := text_problem(value, "texts") or (f"{len(value)} characters, at most {limit}"
                                                     if len(value) > limit else None):
        add(where, problem)


def _finite(value: object) -> TypeGuard[float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _numbers(value: object, n: int | None, whole: bool) -> TypeGuard[list]:
    return (isinstance(value, list) and (n is None or len(value) == n) and
            all((_whole(v) if whole else json_type(v) in ("integer", "number")) for v in value))


def _check_result(data: dict, players: int | None, add: Callable[[str, str], None]) -> None:
    finished, result = data.get("finished"), data.get("result")
    if "finished" in data and not isinstance(finished, bool):
        add("finished", f"{show(finished)} is not true or false")
    elif finished is not None and finished != (result is not None):
        add("finished", f"{str(finished).lower()}, but the record "
                        f"{'has no result' if finished else 'has a result'}")
    if result is None:
        return
    if not isinstance(result, dict):
        add("result", f"an object {{...}} or null, got {show(result)}")
        return
    n = players
    for key, whole, what in (("scores", True, "whole numbers"), ("returns", False, "numbers"),
                             ("ranks", True, "whole numbers")):
        if key not in result:
            add(f"result.{key}", "missing")
        elif not _numbers(result[key], n, whole):
            add(f"result.{key}", f"{show(result[key])} is not a list of {n or ''} {what}".replace("  ", " "))
    winners = result.get("winners")
    if "winners" not in result:
        add("result.winners", "missing")
    # Solo, nobody wins a game the automa won (Printing Press: more points than the player).
    elif not _numbers(winners, None, True) or (not winners and n != 1) or len(set(winners)) != len(winners) or \
            (n is not None and not all(0 <= w < n for w in winners)):
        add("result.winners", f"{show(winners)} is not a list of distinct seats")
    digest = result.get("state_digest")
    if "state_digest" not in result:
        add("result.state_digest", "missing: the digest of the final state is what the replay "
                                   "is checked against")
    elif not isinstance(digest, str) or not _DIGEST.fullmatch(digest):
        add("result.state_digest", f"{show(digest)} is not a SHA-256 digest (64 hex digits)")


def game_of(record: dict) -> pyspiel.Game:
    """The OpenSpiel game of a (checked) record, its catalogue and position from the
    record's data (no file is read or written)."""
    try:
        return printing_game_of(record).load(**_params(record))
    except (pyspiel.SpielError, ValueError) as e:
        raise RecordError(record.get("_source", "record"), "game", str(e).split("\n")[0]) from None


# The most states fill_hidden tries before it gives up (a record whose visible actions
# no deal of the hidden draws fits: a hand-edited or corrupt file).
FILL_LIMIT = 20000


def _misfit(state: pyspiel.State, entry: dict) -> tuple[str, str] | None:
    """Why a visible entry cannot be the next action of `state`: (its field, the
    reason), or None where it can."""
    player, action = entry["player"], entry["action"]
    if state.is_terminal():
        return "", "the game is already over"
    if player != state.current_player():
        actor = "chance" if state.current_player() == CHANCE else f"player {state.current_player()}"
        return "player", f"{player}, but {actor} acts here"
    legal = [a for a, _ in state.chance_outcomes()] if player == CHANCE else state.legal_actions()
    if action not in legal:
        return "action", (core_of(state).illegal_message(action) if -2**31 <= action < 2**31
                          else f"action {show(action)} is out of range")
    text = state.action_to_string(player, action)
    if "text" in entry and entry["text"] != text:
        return "text", f"{show(entry['text'])}, but this game reads action {action} as {text!r}"
    return None


def fill_hidden(record: dict, game: pyspiel.Game | None = None, seed: int = 0,
                start: pyspiel.State | None = None) -> tuple[list, int]:
    """The actions of a checked record with what its viewer had not seen filled in:
    (entries, dropped). Every hidden entry before the record's last visible one, a draw
    (the kept character among a player's two tiles, a token drawn from the bag...) or
    another player's decision the viewer did not see (a token kept face down), gets an
    outcome or a legal move that fits everything recorded after it, tried in an order
    drawn with `seed`; filled entries are marked "filled". The hidden decisions at the
    end of the record (Gutenberg: the plans committed in the plan step where it was
    saved) are dropped: their players choose again. `dropped` counts them. Hidden
    entries that nothing fits are a RecordError. `start`: the state the actions begin
    at (default: start_state)."""
    source = record.get("_source", "record")
    game = game_of(record) if game is None else game
    actions = record["actions"]
    end = len(actions)
    while end > 0 and actions[end - 1].get("hidden") and actions[end - 1]["player"] != CHANCE:
        end -= 1
    hidden = [i for i in range(end) if actions[i].get("hidden")]
    entries = [dict(e) for e in actions[:end]]
    if not hidden:
        return entries, len(actions) - end
    rng = random.Random(f"gutenberg-fill/{seed}")
    tries = [0]
    # The furthest visible entry that failed to fit (its index and why), for the error:
    # where the record goes wrong, not the first hidden entry before it.
    furthest: list = [-1, None]
    # The game may know which outcome or move what follows reveals (Printing Press: a
    # setup token placed symbol side up rounds later names the symbol drawn at setup).
    hint = getattr(games.of(game).positions, "hidden_hint", None)

    def go(i: int, state: pyspiel.State) -> bool:
        # The visible entries up to the next hidden one must fit; after the last hidden
        # one, every one to the end (a later move may reveal what was hidden).
        k = i
        while k < end and not entries[k].get("hidden"):
            why = _misfit(state, entries[k])
            if why is not None:
                if k > furthest[0]:
                    furthest[:] = [k, why]
                return False
            state.apply_action(entries[k]["action"])
            k += 1
        if k == end:
            return True
        player = actions[k]["player"]
        if state.is_terminal() or state.current_player() != player:
            return False
        options = [a for a, _ in state.chance_outcomes()] if player == CHANCE else list(state.legal_actions())
        rng.shuffle(options)
        if hint is not None:
            first = [a for a in hint(state, entries, k) if a in options]
            options = first + [a for a in options if a not in first]
        for a in options:
            tries[0] += 1
            if tries[0] > FILL_LIMIT:
                raise RecordError(source, f"actions[{k}]", "nothing for the hidden entries fits the "
                                                           "record's other actions")
            child = state.clone()
            child.apply_action(a)
            entries[k] = {"player": player, "by": actions[k].get("by", ""), "action": a, "filled": True}
            if go(k + 1, child):
                return True
        entries[k] = dict(actions[k])
        return False

    if not go(0, (start_state(record, game) if start is None else start).clone()):
        k, (field, reason) = furthest
        if k > hidden[-1]:      # after every hidden entry: the record goes wrong there
            raise RecordError(source, f"actions[{k}]" + (f".{field}" if field else ""),
                              f"{reason} (the furthest any filling of the hidden entries reaches)")
        raise RecordError(source, f"actions[{hidden[0]}]", "nothing for the hidden entries fits the "
                                                           "record's other actions")
    return entries, len(actions) - end


def replay(record: dict, to: int | None = None,
           on_action: Callable[[int, pyspiel.State, dict], object] | None = None,
           dealt: int | None = None) -> pyspiel.State:
    """Replay a checked record (load_record) and return the state after its first `to`
    actions (default: all; ValueError for a `to` outside 0 to their number). Every action
    is checked: the player to act, legality, its text; at the end of the record the
    result (a finished game's scores, returns, winners, ranks and digest; a game that is
    over has one). `on_action(index, state,
    entry)` is called before each action is applied. A record with hidden entries (a
    viewer's) is replayed with them filled in (fill_hidden): its hidden plans at the end
    are left out, and, its draws being dealt again, it is not checked against a result.
    With `dealt` (a chance seed), every chance outcome must be the one that seed deals
    (draw_chance): a record of a scheduled deal, not another deal's actions."""
    source = record.get("_source", "record")
    if to is not None and (isinstance(to, bool) or not isinstance(to, int)):
        raise ValueError(f"to: {to!r} is not a whole number of actions")
    if to is not None and not 0 <= to <= len(record["actions"]):
        raise ValueError(f"to: {to} is not between 0 and {len(record['actions'])} (the record's actions)")
    if dealt is not None:
        limits.check_seed(dealt, "dealt")
    game = game_of(record)
    state = start_state(record, game)
    actions = record["actions"]
    filled = any(e.get("hidden") for e in actions)
    if filled:
        actions, _ = fill_hidden(record, game)
    n = len(actions) if to is None else to
    for i, entry in enumerate(actions[:n]):
        where = f"actions[{i}]"
        why = _misfit(state, entry)
        if why is not None:
            raise RecordError(source, where + (f".{why[0]}" if why[0] else ""), why[1])
        player, action = entry["player"], entry["action"]
        if dealt is not None and player == CHANCE and action != draw_chance(state, dealt):
            raise RecordError(source, f"{where}.action", f"chance outcome {action}, but the deal of seed "
                                                         f"{dealt} draws {draw_chance(state, dealt)} here")
        if on_action is not None:
            on_action(i, state, entry)
        state.apply_action(action)
    if n == len(actions) and not filled:
        if record.get("result") is not None:
            check_result(source, record["result"], state)
        elif state.is_terminal():
            raise RecordError(source, "result", "missing: the game is over after these actions")
    return state


def check_result(source: str, result: dict, state: pyspiel.State) -> None:
    """The replayed final state agrees with the record's whole result."""
    if not state.is_terminal():
        raise RecordError(source, "result", "the record has a result, but its actions stop before the end")
    got = final_result(state)
    problems = []
    for key in ("scores", "returns", "winners", "ranks"):
        if [float(x) for x in result[key]] != [float(x) for x in got[key]]:
            problems.append((f"result.{key}", f"the record says {show(result[key])}, the replay "
                                              f"gives {got[key]}"))
    if result["state_digest"] != got["state_digest"]:
        problems.append(("result.state_digest", "the replayed final state differs from the "
                                                "recorded one (a record of another version of "
                                                "the engine?)"))
    if problems:
        raise RecordError.of(source, problems)
