"""Lead Letter Printers position files: a game as it stands, for `hint`, `play
--position` and the game's `position` parameter (docs/lead_letter_printers/positions.md).

The table of Lead Letter Printers holds hundreds of numbers (four boards, six displays,
each player's workshop, sticks, tracks and production line), each depending on the
others, so a position is written as the game that led to it: the moves from the
beginning, chance draws included, each a number (OpenSpiel's action) or the move's own
words as the game says them at that point ("tradesman 1 to Market (row 3, column 2),
room II"). Every move is checked legal in turn, so a position is always one the rules
reach.

    {"format": "lead-letter-printers-position", "version": 1, "players": 2,
     "names": ["Anna", "Kate"], "moves": [12, 30, "discard the lead letter for its resources", ...]}

Optional: "rounds" (the small variant's, 0 for the whole game), "names", "note", and
"seen_by": the seat whose view the file is. A player saving a game cannot know the
factories another player drew and put back: `position_of(state, viewer=seat)` writes
those draws as the rules could have made them, given all the player saw (a resample:
ext/lead_letter_printers/hidden.pxi), and marks the file "seen_by"; playing from it
deals them again with the seed (`position_start`), so nobody plays against a fixed
guess.
"""
from __future__ import annotations

import functools
import json
import os
import pathlib
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from gutenberg_ai.jsonfile import SchemaChecker, show, structure_problems, text_problem
from gutenberg_ai.positionfile import PositionError, not_a_position, read_position

from . import _core
from .catalogue import Catalogue, CatalogueError, default_catalogue, load_catalogue

FORMAT = "lead-letter-printers-position"
VERSION = 1
SCHEMA_NAME = "position.schema.json"
MAX_MOVES = 5000


@dataclass(frozen=True)
class Position:
    """A loaded position: ``state`` a fresh CoreState at its decision, following
    ``rules`` (which start at the beginning of the game); ``game_params`` the parameters
    of the OpenSpiel game ``lead_letter_printers``; ``step`` the decision ({"kind",
    "player"}); ``names`` the players' names ("" where not given); ``moves`` the action
    numbers that lead there; ``data`` the position as read."""

    rules: Any
    state: Any
    catalogue: Catalogue
    game_params: dict
    step: dict
    moves: tuple = ()
    source: str = "position"
    names: tuple = ()
    seen_by: int | None = None
    data: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def current_player(self) -> int:
        return self.state.current_player()


@functools.lru_cache(maxsize=1)
def position_schema() -> dict:
    """The JSON Schema (draft 2020-12) of Lead Letter Printers position files."""
    raw = (resources.files(__package__) / "data" / SCHEMA_NAME).read_text(encoding="utf-8")
    return json.loads(raw)


def _reason(error) -> str | None:
    if error.validator == "pattern" and error.schema.get("maxLength") == 40:      # a name
        return text_problem(error.instance)
    return None


@functools.lru_cache(maxsize=1)
def _checker() -> SchemaChecker:
    return SchemaChecker(position_schema(), reason=_reason)


def _rules(cat: Catalogue, players: int, rounds: int):
    return _core.Rules(cat, players=players, rounds=rounds)


def move_of(state, entry, where: str) -> int:
    """The action number of a move entry (a number, or the move's words at this state);
    _Stop(where, reason) when it is not one."""
    if state.is_terminal():
        raise _Stop(where, "the game is already over")
    options = [a for a, _ in state.chance_outcomes()] if state.is_chance() else state.legal_actions()
    if isinstance(entry, int):
        if entry not in options:
            raise _Stop(where, state.illegal_message(entry))
        return entry
    words = {state.action_to_string(a): a for a in options}
    if entry in words:
        return words[entry]
    close = [w for w in words if w.lower().startswith(entry.lower()[:12])][:3]
    hint = f"; close: {'; '.join(close)}" if close else ""
    raise _Stop(where, f"{show(entry)} is not a move here ({state.step_name()}: "
                       f"{len(words)} {'outcomes' if state.is_chance() else 'moves'}{hint})")


class _Stop(Exception):
    def __init__(self, where, reason):
        super().__init__(where, reason)
        self.where, self.reason = where, reason


def position_from_data(data: Any, cat: Catalogue | None = None, source: str = "position",
                       path: str | None = None) -> Position:
    """The Position of decoded JSON `data` (load_position once the file is read):
    PositionError lists the schema's problems all at once, or names the first move that
    is not legal (the moves after it would follow from another game)."""
    cat = cat or default_catalogue()
    problem = not_a_position(data, FORMAT)
    if problem:
        raise PositionError(source, *problem, path)
    found = structure_problems(data, MAX_MOVES, "a position")
    if found:
        raise PositionError.of(source, found, path)
    problems = _checker().problems(data)
    if problems:
        raise PositionError.of(source, problems, path)
    players, rounds = data["players"], data.get("rounds", 0)
    names = list(data.get("names", []))
    if len(names) > players:
        raise PositionError(source, "names", f"{len(names)} names for {players} players", path)
    seen_by = data.get("seen_by")
    if seen_by is not None and seen_by >= players:
        raise PositionError(source, "seen_by", f"{seen_by} is not a seat of {players} players (0-{players - 1})", path)
    rules = _rules(cat, players, rounds)
    state = rules.new_state()
    moves = []
    try:
        for i, entry in enumerate(data["moves"]):
            a = move_of(state, entry, f"moves[{i}]")
            state.apply(a)
            moves.append(a)
    except _Stop as e:
        raise PositionError(source, e.where, e.reason, path) from None
    if state.is_terminal():
        raise PositionError(source, "moves", "the game is over at their end: nothing to decide", path)
    if state.is_chance():
        raise PositionError(source, "moves", f"they end at a draw ({state.step_name()}): a position is a "
                                             "decision; give the draw's outcome too", path)
    names += [""] * (players - len(names))
    return Position(rules=rules, state=state, catalogue=cat,
                    game_params={"players": players, "rounds": rounds},
                    step={"kind": state.step_name(), "player": state.current_player()},
                    moves=tuple(moves), source=source, names=tuple(names), seen_by=seen_by, data=data)


def load_position(path_or_dict, catalogue: Catalogue | str | os.PathLike | None = None) -> Position:
    """Load a position file (a path) or decoded JSON (a dict): the Position at its
    decision. `catalogue`: a Catalogue, a catalogue file, or None for the built-in one."""
    data, source, path = read_position(path_or_dict)
    if catalogue is None or isinstance(catalogue, Catalogue):
        cat = catalogue or default_catalogue()
    else:
        try:
            cat = load_catalogue(catalogue)
        except CatalogueError as e:
            raise PositionError.of(source, [("catalogue", f"{e.source}: {w}: {r}" if w else f"{e.source}: {r}")
                                            for w, r in e.problems], path) from None
    return position_from_data(data, cat, source, path)


# ---------------------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------------------
def moves_of(state) -> list[int]:
    """The moves from the beginning of the game of a pyspiel state: those of the
    position its game started from (the game's `position` parameter), then its history."""
    from . import game as llp_game
    return llp_game.start_moves(state.get_game()) + list(state.history())


def position_of(state, names_=None, viewer: int | None = None, seed: int = 0) -> dict:
    """The position (a JSON-ready dict) of a pyspiel state at a decision. With `viewer`
    (a seat), the factories that player has not seen are written as a resample of them
    (seeded by `seed`): what the player may know."""
    from gutenberg_ai.games import core_of
    core = core_of(state)
    if core.is_terminal():
        raise PositionError("state", "", "the game is over")
    if core.is_chance():
        raise PositionError("state", "", f"the state is at a draw ({core.step_name()}); positions are decisions")
    moves = moves_of(state)
    if viewer is not None:
        moves = _resampled(core.rules, moves, viewer, seed)
    data = {"format": FORMAT, "version": VERSION, "players": core.num_players}
    if core.rules.rounds:
        data["rounds"] = core.rules.rounds
    if names_:
        data["names"] = [str(n) for n in names_][:core.num_players]
    if viewer is not None:
        data["seen_by"] = viewer
    data["moves"] = moves
    return data


def _resampled(rules, moves, viewer: int, seed: int) -> list[int]:
    """The moves with what `viewer` has not seen drawn again (uniformly, seeded)."""
    state = _core.Rules(rules.catalogue, players=rules.players, rounds=rules.rounds).new_state()
    actors = []
    for a in moves:
        actors.append(state.current_player())
        state.apply(a)
    _, redrawn = state.resample_history(viewer, list(zip(actors, moves)), seed)
    return redrawn


def save_position(state, path, names_=None, viewer: int | None = None) -> dict:
    """Write position_of(state, ...) to `path` as JSON and return it."""
    data = position_of(state, names_, viewer)
    pathlib.Path(path).write_text(json.dumps(data) + "\n", encoding="utf-8")
    return data


# ---------------------------------------------------------------------------------------
# Playing from a position (gutenberg-ai play --position)
# ---------------------------------------------------------------------------------------
def position_start(data: dict, pos: Position, seed: int = 0) -> tuple[dict, list, str]:
    """The position to play from: in a file seen by one player, the factories that
    player had not seen are dealt again with `seed`. No presets."""
    if pos.seen_by is None:
        return data, [], ""
    dealt = dict(data, moves=_resampled(pos.rules, list(pos.moves), pos.seen_by, seed))
    return dealt, [], (f"The position is player {pos.seen_by}'s view: the factories they had not seen "
                       f"are dealt at random (seed {seed}).")


def preset_action(core, legal, preset, start_round: int):
    """Lead Letter Printers positions give no moves to replay (position_start has none)."""
    return None
