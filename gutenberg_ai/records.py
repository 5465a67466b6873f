"""Game records: a game as JSON (its parameters, seed, who sat where, every action with
its text and who played it, the final scores), written by every command that plays and
read back by `gutenberg-ai replay`.

    from gutenberg_ai.records import GameRecord, load_record, replay
    record = GameRecord(game, seed=7, seats=[...], command="play")
    record.add(state, action)          # before applying it: the text is the state's
    record.finish(state)               # at the end: scores, returns, winners
    record.save("game.json")
    state = replay(load_record("game.json"))   # the same final state, checked

A record looks like this (one action per line):

    {
      "format": "gutenberg-record",
      "version": 1,
      "command": "play",
      "game": {"players": 2, "rounds": 6, "returns": "win", "characters": true,
               "automa": 0, "catalogue": ""},
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

`player` is the seat that acted, -1 for chance (the draws and the automa's cards).
`position` holds the position file the game started from (its JSON), or null for a game
from the start. `seed` draws every chance outcome (draw_chance), so the same seed and the
same moves give the same game. `result` is null until the game is over; `ranks` are 1
for the winners, equal keys (score, then fewer types, then fewer inks) sharing a rank.
`state_digest` is the SHA-256 of the final state's fields (CoreState.to_dict) as JSON.

A record saved by a player in the middle of a game (`save FILE` in `gutenberg-ai play`)
holds only what that player has seen: it has `"viewer": SEAT`, no seeds (they would
deal the hidden draws again), and the entries that player has not seen (another
player's plan committed in the current plan step, the character tiles the others drew)
are `{"player": P, "by": ..., "hidden": true}`, without action or text. Replaying or
resuming one fills the hidden draws with draws that fit everything recorded after them
(fill_hidden), and leaves the hidden plans at the end to be chosen again.

Replaying checks each action against the record: the player to act, legality and the
action's text; at the end the scores, returns and winners. A problem raises RecordError
naming the field ("actions[12].action: ..."), like PositionError does for positions.
"""
from __future__ import annotations

import hashlib
import json
import os
import random
import tempfile

import pyspiel

from gutenberg_ai.game import DEFAULTS, GAME_NAME, ParameterError, check_parameters, core_of

FORMAT = "gutenberg-record"
VERSION = 1
CHANCE = int(pyspiel.PlayerId.CHANCE)
_GAME_KEYS = ("players", "rounds", "returns", "characters", "automa", "catalogue")


class RecordError(ValueError):
    """A record that cannot be read or replayed; ``str(error)`` reads
    ``"<source>: <where>: <reason>"`` (parts in ``source``, ``where``, ``reason``)."""

    def __init__(self, source: str, where: str, reason: str):
        self.source, self.where, self.reason = source, where, reason
        super().__init__(f"{source}: {where}: {reason}" if where else f"{source}: {reason}")


# ---------------------------------------------------------------------------------------
# Chance and playing
# ---------------------------------------------------------------------------------------
def draw_chance(state, seed: int) -> int:
    """The chance outcome of `state` drawn with `seed`, by the outcomes' probabilities.

    The draw depends only on the seed and the move number, not on what was drawn before:
    going back (undo) and playing the same moves again draws the same cards."""
    actions, probs = zip(*state.chance_outcomes())
    rng = random.Random(f"gutenberg-chance/{seed}/{state.move_number()}")
    return rng.choices(actions, probs)[0]


def play_bots(game, bots, seed: int, record: "GameRecord | None" = None, state=None, on_action=None):
    """Play `state` (default: a new game) to the end with one bot per seat (pyspiel.Bots
    that search from the state and keep nothing between moves, as all of ours do), chance
    drawn with `seed`. Every action goes into `record` and to `on_action(state, player,
    action)` before it is applied. Returns the final state."""
    state = game.new_initial_state() if state is None else state
    while not state.is_terminal():
        player = state.current_player()
        action = draw_chance(state, seed) if player == CHANCE else bots[player].step(state)
        if on_action is not None:
            on_action(state, player, action)
        if record is not None:
            record.add(state, action)
        state.apply_action(action)
    if record is not None:
        record.finish(state)
    return state


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


def final_result(state) -> dict:
    """The `result` of a finished game: scores, returns, winners, ranks, state digest."""
    core = core_of(state)
    keys = [core.ranking_key(seat) for seat in range(core.num_players)]
    ranks = [1 + sum(other > key for other in keys) for key in keys]
    return {"scores": core.final_scores(), "returns": [float(r) for r in state.returns()],
            "winners": core.winners(), "ranks": ranks, "state_digest": state_digest(core)}


def state_digest(core) -> str:
    """SHA-256 of the state's fields as canonical JSON (independent of the struct's
    padding, unlike its bytes)."""
    text = json.dumps(core.to_dict(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


class GameRecord:
    """A game being recorded: add every action (chance included) before applying it."""

    def __init__(self, game, seed: int | None, seats: list, command: str = "", extra: dict | None = None,
                 position: dict | None = None):
        params = check_parameters(game.get_parameters())
        self.game = game
        self.params = {k: params[k] for k in _GAME_KEYS}
        self.position = position
        if params["position"] and position is None:
            # The position file is copied in, so the record replays without it.
            with open(params["position"], encoding="utf-8") as f:
                self.position = json.load(f)
        self.seed = seed
        self.seats = list(seats)
        self.command = command
        self.extra = dict(extra or {})
        self.actions: list[dict] = []
        self.result = None

    def by(self, player: int) -> str:
        if player == CHANCE:
            return "chance"
        for entry in self.seats:
            if entry["seat"] == player:
                return entry["player"]
        return f"player {player}"

    def add(self, state, action: int) -> dict:
        """Record `action` about to be applied to `state`."""
        player = state.current_player()
        entry = {"player": player, "by": self.by(player), "action": int(action),
                 "text": state.action_to_string(player, action)}
        self.actions.append(entry)
        return entry

    def truncate(self, n: int):
        """Forget the actions after the first `n` (undo)."""
        del self.actions[n:]
        self.result = None

    def finish(self, state):
        self.result = final_result(state) if state.is_terminal() else None

    def to_dict(self, viewer: int | None = None, state=None) -> dict:
        """The record as JSON-ready data: everything, or with `viewer` (a seat) and
        `state` (where the actions led) only what that player has seen: the entries
        hidden from them (CoreState.mask_history) without action or text, and no seeds."""
        seats, seed, actions = self.seats, self.seed, list(self.actions)
        if viewer is not None:
            history = [(e["player"], e["action"]) for e in self.actions]
            masked = core_of(state).mask_history(viewer, history)
            actions = [e if action >= 0 else {"player": e["player"], "by": e["by"], "hidden": True}
                       for e, (_, action) in zip(self.actions, masked)]
            seats = [{k: v for k, v in entry.items() if k != "seed"} for entry in self.seats]
            seed = None
        out = {"format": FORMAT, "version": VERSION, "command": self.command, "game": dict(self.params),
               "position": self.position, "seed": seed, "seats": seats}
        if viewer is not None:
            out["viewer"] = viewer
        out.update(self.extra)
        out["actions"] = actions
        out["finished"] = self.result is not None
        out["result"] = self.result
        return out

    def save(self, path, viewer: int | None = None, state=None) -> dict:
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


def write_json(path, data: dict):
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
def _int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def load_record(source) -> dict:
    """A record read from a path (or a dict) and checked field by field; RecordError
    names the first bad field. Legality of the actions is checked by replay()."""
    name = "record"
    if not isinstance(source, dict):
        name = os.path.basename(os.fspath(source))
        try:
            with open(source, encoding="utf-8") as f:
                data = json.load(f)
        except OSError as e:
            raise RecordError(name, "", f"cannot read it: {e.strerror or e}") from None
        except json.JSONDecodeError as e:
            raise RecordError(name, f"line {e.lineno}, column {e.colno}", f"invalid JSON: {e.msg}") from None
    else:
        data = source

    def fail(where, reason):
        raise RecordError(name, where, reason)

    if not isinstance(data, dict):
        fail("top level", "a record is a JSON object {...}")
    for key in ("format", "version", "game", "seats", "actions"):
        if key not in data:
            fail("top level", f"missing key {key!r}")
    if data["format"] != FORMAT:
        fail("format", f"{data['format']!r} is not {FORMAT!r} (is this a game record?)")
    if data["version"] != VERSION:
        fail("version", f"{data['version']!r}: this program reads version {VERSION}")
    game = data["game"]
    if not isinstance(game, dict):
        fail("game", "the game's parameters are an object {...}")
    unknown = sorted(set(game) - set(_GAME_KEYS))
    if unknown:
        fail(f"game.{unknown[0]}", f"unknown parameter (known: {', '.join(_GAME_KEYS)})")
    try:
        check_parameters(game)
    except ParameterError as e:
        field = str(e).split(":", 1)[0]
        fail(f"game.{field}" if field in DEFAULTS else "game", str(e))
    if data.get("position") is not None and not isinstance(data["position"], dict):
        fail("position", "a position (an object {...}) or null")
    seed = data.get("seed")
    if seed is not None and not _int(seed):
        fail("seed", f"{seed!r} is not a whole number")
    viewer = data.get("viewer")
    if viewer is not None and not _int(viewer):
        fail("viewer", f"{viewer!r} is not a seat number")
    seats = data["seats"]
    if not isinstance(seats, list):
        fail("seats", "a list [...] of {\"seat\": ..., \"player\": ...}")
    for i, entry in enumerate(seats):
        if not isinstance(entry, dict):
            fail(f"seats[{i}]", "an object {\"seat\": ..., \"player\": ...}")
        if not _int(entry.get("seat")):
            fail(f"seats[{i}].seat", f"{entry.get('seat')!r} is not a seat number")
        if not isinstance(entry.get("player"), str):
            fail(f"seats[{i}].player", f"{entry.get('player')!r} is not a name")
    actions = data["actions"]
    if not isinstance(actions, list):
        fail("actions", "a list [...] of {\"player\": ..., \"action\": ..., \"text\": ...}")
    for i, entry in enumerate(actions):
        if not isinstance(entry, dict):
            fail(f"actions[{i}]", "an object {\"player\": ..., \"action\": ..., \"text\": ...}")
        if "hidden" in entry:
            if entry["hidden"] is not True:
                fail(f"actions[{i}].hidden", f"{entry['hidden']!r}: only true (an entry its viewer has not seen)")
            if viewer is None:
                fail(f"actions[{i}].hidden", "a hidden entry in a record without a viewer")
            if not _int(entry.get("player")):
                fail(f"actions[{i}].player", f"{entry.get('player')!r} is not a whole number")
            for key in ("action", "text"):
                if key in entry:
                    fail(f"actions[{i}].{key}", "a hidden entry has no action or text")
            continue
        for key in ("player", "action"):
            if not _int(entry.get(key)):
                fail(f"actions[{i}].{key}", f"{entry.get(key)!r} is not a whole number"
                     if key in entry else "missing")
        if "text" in entry and not isinstance(entry["text"], str):
            fail(f"actions[{i}].text", f"{entry['text']!r} is not text")
    result = data.get("result")
    if result is not None:
        if not isinstance(result, dict):
            fail("result", "an object {...} or null")
        for key in ("scores", "returns", "winners"):
            value = result.get(key)
            if not isinstance(value, list) or not all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                                      for v in value):
                fail(f"result.{key}", f"{value!r} is not a list of numbers" if key in result else "missing")
    return data | {"_source": name}


def game_of(record: dict):
    """The OpenSpiel game of a (checked) record; a position the game started from is
    written to a temporary file, as the game parameter `position` wants a path."""
    params = dict(record["game"])
    if record.get("position") is not None:
        fd, path = tempfile.mkstemp(prefix="gutenberg-position-", suffix=".json")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(record["position"], f)
        params["position"] = path
    try:
        return pyspiel.load_game(GAME_NAME, params)
    except (ParameterError, pyspiel.SpielError, ValueError) as e:
        raise RecordError(record.get("_source", "record"), "position" if params.get("position") else "game",
                          str(e)) from None


# The most states fill_hidden tries before it gives up (a record whose visible actions
# no deal of the hidden draws fits: a hand-edited or corrupt file).
FILL_LIMIT = 20000


def _fits(state, entry) -> bool:
    """Whether a visible entry can be the next action of `state`."""
    player, action = entry["player"], entry["action"]
    if state.is_terminal() or player != state.current_player():
        return False
    legal = [a for a, _ in state.chance_outcomes()] if player == CHANCE else state.legal_actions()
    return action in legal and ("text" not in entry or entry["text"] == state.action_to_string(player, action))


def fill_hidden(record: dict, game=None, seed: int = 0) -> tuple[list, int]:
    """The actions of a checked record with what its viewer had not seen filled in:
    (entries, dropped). Every hidden draw gets a draw that fits everything recorded
    after it (the kept character among a player's two tiles, the viewer's own draws
    still in the pool...), tried in an order drawn with `seed`; filled entries are
    marked "filled". The hidden plans at the end of the record (committed in the plan
    step where it was saved) are dropped: their players choose again. `dropped` counts
    them. A hidden decision anywhere else, or draws that nothing fits, is a RecordError."""
    source = record.get("_source", "record")
    game = game_of(record) if game is None else game
    actions = record["actions"]
    end = len(actions)
    while end > 0 and actions[end - 1].get("hidden") and actions[end - 1]["player"] != CHANCE:
        end -= 1
    hidden = [i for i in range(end) if actions[i].get("hidden")]
    for i in hidden:
        if actions[i]["player"] != CHANCE:
            raise RecordError(source, f"actions[{i}]", "a hidden decision before the end of the record "
                                                       "(only the plans of the last plan step can be hidden)")
    entries = [dict(e) for e in actions[:end]]
    if not hidden:
        return entries, len(actions) - end
    rng = random.Random(f"gutenberg-fill/{seed}")
    tries = [0]

    def phase(state):
        return core_of(state).phase

    def go(i, state):
        # The visible entries up to the next hidden one must fit; after the last hidden
        # one, those of the same phase (later phases do not depend on the draws).
        k = i
        after = i > hidden[-1]
        start_phase = phase(state) if after else None
        while k < end and not entries[k].get("hidden"):
            if after and phase(state) != start_phase:
                return True
            if not _fits(state, entries[k]):
                return False
            state.apply_action(entries[k]["action"])
            k += 1
        if k == end:
            return True
        if state.is_terminal() or state.current_player() != CHANCE:
            return False
        outcomes = [a for a, _ in state.chance_outcomes()]
        rng.shuffle(outcomes)
        for a in outcomes:
            tries[0] += 1
            if tries[0] > FILL_LIMIT:
                raise RecordError(source, f"actions[{k}]", "no draw for the hidden entries fits the "
                                                           "record's other actions")
            child = state.clone()
            child.apply_action(a)
            entries[k] = {"player": CHANCE, "by": "chance", "action": a, "filled": True}
            if go(k + 1, child):
                return True
        entries[k] = dict(actions[k])
        return False

    if not go(0, game.new_initial_state()):
        raise RecordError(source, f"actions[{hidden[0]}]", "no draw for the hidden entries fits the "
                                                           "record's other actions")
    return entries, len(actions) - end


def replay(record: dict, to: int | None = None, on_action=None):
    """Replay a checked record (load_record) and return the state after its first `to`
    actions (default: all). Every action is checked: the player to act, legality, its
    text; at the end of a finished game the result. `on_action(index, state, entry)` is
    called before each action is applied. A record with hidden entries (a viewer's) is
    replayed with them filled in (fill_hidden): its hidden plans at the end are left out."""
    source = record.get("_source", "record")
    game = game_of(record)
    state = game.new_initial_state()
    actions = record["actions"]
    filled = any(e.get("hidden") for e in actions)
    if filled:
        actions, _ = fill_hidden(record, game)
    n = len(actions) if to is None else max(0, min(to, len(actions)))
    for i, entry in enumerate(actions[:n]):
        where = f"actions[{i}]"
        if state.is_terminal():
            raise RecordError(source, where, "the game is already over")
        player, action = entry["player"], entry["action"]
        if player != state.current_player():
            actor = "chance" if state.current_player() == CHANCE else f"player {state.current_player()}"
            raise RecordError(source, f"{where}.player", f"{player}, but {actor} acts here")
        legal = [a for a, _ in state.chance_outcomes()] if player == CHANCE else state.legal_actions()
        if action not in legal:
            raise RecordError(source, f"{where}.action", core_of(state).illegal_message(action))
        text = state.action_to_string(player, action)
        if "text" in entry and entry["text"] != text:
            raise RecordError(source, f"{where}.text", f"{entry['text']!r}, but this game reads action "
                                                       f"{action} as {text!r}")
        if on_action is not None:
            on_action(i, state, entry)
        state.apply_action(action)
    if n == len(actions) and record.get("result") is not None and not filled:
        check_result(source, record["result"], state)
    return state


def check_result(source: str, result: dict, state):
    """The replayed final state agrees with the record's result."""
    if not state.is_terminal():
        raise RecordError(source, "result", "the record has a result, but its actions stop before the end")
    got = final_result(state)
    for key in ("scores", "returns", "winners"):
        if [float(x) for x in result[key]] != [float(x) for x in got[key]]:
            raise RecordError(source, f"result.{key}", f"the record says {result[key]}, "
                                                       f"the replay gives {got[key]}")
    if result.get("state_digest") not in (None, got["state_digest"]):
        raise RecordError(source, "result.state_digest", "the replayed final state differs from the "
                                                         "recorded one (a record of another version "
                                                         "of the engine?)")
