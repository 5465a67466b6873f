"""Lead Letter Printers position files: a game as it stands, for `hint`, `play
--position` and the game's `position` parameter (docs/lead_letter_printers/positions.md).

A file says its form. "table" (table.py): the table as a person at it writes it down
mid-game, the round, the phase and whose decision it is, the displays, the boards and
each player's workshop, components by number or words; what is hidden ("hidden"
factories under a pile) drawn with the file's seed. "moves" (the default): the game
that led to the position, every move from the beginning, chance draws included, each a
number (OpenSpiel's action) or the move's own words as the game says them at that point
("tradesman 1 to Market (row 3, column 2), room II"), each checked legal in turn; the
only form for a decision in the middle of an effect.

    {"format": "lead-letter-printers-position", "version": 1, "players": 2,
     "names": ["Anna", "Kate"], "moves": [12, 30, "discard the lead letter for its resources", ...]}

Optional: "rounds" (the small variant's, 0 for the whole game), "factory_tops" (false:
the factory piles drawn as from a face-down deck; true, the rulebook's, when left out),
"names", "comment", and
"seen_by": the seat whose view the file is. A player saving a game cannot know the
factories another player drew and put back: in a table they are "hidden"; in moves,
`position_of(state, viewer=seat, form="moves")` writes those draws as the rules could
have made them, given all the player saw (a resample: ext/lead_letter_printers/hidden.pxi);
playing from either deals them again with the seed (`position_start`), so nobody plays
against a fixed guess.
"""
from __future__ import annotations

import functools
import json
import os
import pathlib
from dataclasses import dataclass, field
from typing import Any

from gutenberg_ai.common.jsonfile import (Problems, SchemaChecker, overlaps, packaged_json, readable_json, shaped, show,
                                          structure_problems)
from gutenberg_ai.games.positionfile import (AtDecision, PositionError, not_a_position, position_catalogue, read_position,
                                      schema_checker)
from gutenberg_ai.games import gamedata

from . import _core
from . import catalogue as _catalogue_module
from . import table as _table
from .catalogue import Catalogue, default_catalogue

FORMAT, VERSION = _table.FORMAT, _table.VERSION     # the file's format, written by both forms
SCHEMA_NAME = "position.schema.json"
MAX_MOVES = 5000
TABLE_KEYS = ("seed", "round", "phase", "to_act", "turn", "main_action_done", "stages_left",
              "player_order", "displays", "city_discs", "assistants", "seats")


@dataclass(frozen=True)
class Position(AtDecision):
    """A loaded position: ``state`` a fresh CoreState at its decision, following
    ``rules`` (which start at the beginning of the game); ``game_params`` the parameters
    of the OpenSpiel game ``lead_letter_printers``; ``step`` the decision ({"kind",
    "player"}); ``names`` the players' names (None where not given); ``moves`` the action
    numbers that lead there; ``data`` the position as read."""

    rules: Any
    state: Any
    catalogue: Catalogue
    game_params: dict
    step: dict
    moves: tuple | None = ()      # None: the table form (no moves)
    source: str = "position"
    names: tuple = ()
    seen_by: int | None = None
    data: dict = field(default_factory=dict, repr=False, compare=False)
    form: str = "moves"
    hidden: int = 0         # factories written "hidden" (a table's; drawn with its seed)


@functools.lru_cache(maxsize=1)
def position_schema() -> dict:
    """The JSON Schema (draft 2020-12) of Lead Letter Printers position files."""
    return packaged_json(__package__, SCHEMA_NAME)


def _checker() -> SchemaChecker:
    return schema_checker(__package__, SCHEMA_NAME)


def _rules(cat: Catalogue, players: int, rounds: int, factory_tops: bool = True):
    return _core.Rules(cat, players=players, rounds=rounds, factory_tops=factory_tops)


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


def _moves_beside(data: Any, problems: list[tuple[str, str]], cat: Catalogue) -> list[tuple[str, str]]:
    """The first move that is not legal before the first move the schema refused, in a
    file the schema refused in its moves only (the game they are moves of is sound),
    told with the schema's problems rather than after them."""
    if not problems or any(not w.startswith("moves[") for w, _ in problems):
        return []
    d = shaped(data, dict)
    moves = shaped(d.get("moves"), list)
    first = next(i for i in range(len(moves) + 1)
                 if i == len(moves) or any(overlaps(f"moves[{i}]", w) for w, _ in problems))
    state = _rules(cat, d["players"], d.get("rounds", 0), d.get("factory_tops", True)).new_state()
    try:
        for i in range(first):
            state.apply(move_of(state, moves[i], f"moves[{i}]"))
    except _Stop as e:
        return [(e.where, e.reason)]
    return []


def position_from_data(data: Any, cat: Catalogue | None = None, source: str = "position",
                       path: str | None = None) -> Position:
    """The Position of decoded JSON `data` (load_position once the file is read):
    PositionError lists the schema's problems all at once, or names the first move that
    is not legal (the moves after it would follow from another game)."""
    cat = cat or default_catalogue()
    problem = not_a_position(data, FORMAT)
    if problem:
        raise PositionError(source, *problem, path)
    shape = structure_problems(data, MAX_MOVES, "a position")
    if shape:
        raise PositionError.of(source, shape, path)
    if isinstance(data, dict) and data.get("form", "moves") == "moves":
        extra = [k for k in TABLE_KEYS if k in data]
        if extra:
            raise PositionError.of(source, [(k, "a part of the table form: with the moves, leave it out (or write "
                                                "\"form\": \"table\" and no moves)") for k in extra], path)
    problems = _checker().problems(data)
    if problems:
        if isinstance(data, dict) and data.get("form") == "table":
            problems += _table.names_beside(data, problems, cat)
        else:
            problems += _moves_beside(data, problems, cat)
        raise PositionError.of(source, problems, path)
    players, rounds = data["players"], data.get("rounds", 0)
    factory_tops = data.get("factory_tops", True)
    game_params = {"players": players, "rounds": rounds, "factory_tops": factory_tops}
    names = list(data.get("names", []))
    seen_by = data.get("seen_by")
    found = Problems()          # reported with a table's own problems, all at once
    if names and len(names) != players:     # a name a seat, or none at all
        found.add("names", f"{len(names)} names for {players} players")
    if seen_by is not None and seen_by >= players:
        found.add("seen_by", f"{seen_by} is not a seat of {players} players (0-{players - 1})")
    rules = _rules(cat, players, rounds, factory_tops)
    names += [None] * (players - len(names))
    if data.get("form", "moves") == "table":
        with found.each():
            loader = _table.TableLoader(data, cat, rules).load()
            state = loader.state()
        if found:
            raise PositionError.of(source, found.found, path)
        return Position(rules=rules, state=state, catalogue=cat, game_params=game_params,
                        step={"kind": state.step_name(), "player": state.current_player()}, moves=None,
                        source=source, names=tuple(names), seen_by=seen_by, data=data, form="table",
                        hidden=len(loader.hidden))
    if found:
        raise PositionError.of(source, found.found, path)
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
    return Position(rules=rules, state=state, catalogue=cat,
                    game_params=game_params,
                    step={"kind": state.step_name(), "player": state.current_player()},
                    moves=tuple(moves), source=source, names=tuple(names), seen_by=seen_by, data=data)


def load_position(path_or_dict, catalogue: Catalogue | str | os.PathLike | None = None) -> Position:
    """Load a position file (a path) or decoded JSON (a dict): the Position at its
    decision. `catalogue`: a Catalogue, a catalogue file, or None for the built-in one."""
    data, source, path = read_position(path_or_dict)
    return position_from_data(data, position_catalogue(catalogue, _catalogue_module, source, path), source, path)


# ---------------------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------------------
def moves_of(state) -> list[int]:
    """The moves from the beginning of the game of a pyspiel state: those of the
    position its game started from (the game's `position` parameter), then its history.
    PositionError for a game that started from a table (its moves before are unknown)."""
    before = gamedata.start_moves(state.get_game())
    if before is None:
        raise PositionError("state", "", "the game started from a table, so its moves from the beginning are "
                                         "not known: save it at a turn's menu (the table form)")
    return before + list(state.history())


def position_of(state, names=None, viewer: int | None = None, seed: int = 0, form: str | None = None) -> dict:
    """The position (a JSON-ready dict) of a pyspiel state at a decision: the table as
    it stands (form "table", at a turn's own menu), or the moves from the beginning
    (form "moves"); None: the table where it can be written, else the moves. With
    `viewer` (a seat), what that player has not seen: in a table the factories under
    the piles are "hidden"; in moves, those draws are a resample of them (seeded by
    `seed`)."""
    from gutenberg_ai.games import core_of
    core = core_of(state)
    if core.is_terminal():
        raise PositionError("state", "", "the game is over")
    if core.is_chance():
        raise PositionError("state", "", f"the state is at a draw ({core.step_name()}); positions are decisions")
    if form == "table" or (form is None and _table.unsupported(core) is None):
        return _table.table_of(core, names, viewer)
    moves = moves_of(state)
    if viewer is not None:
        moves = _resampled(core.rules, moves, viewer, seed)
    data = {"format": FORMAT, "version": VERSION, "form": "moves", "players": core.num_players}
    if core.rules.rounds:
        data["rounds"] = core.rules.rounds
    if not core.rules.factory_tops:
        data["factory_tops"] = False
    if written := _table.written_names(names, core.num_players):
        data["names"] = written
    if viewer is not None:
        data["seen_by"] = viewer
    data["moves"] = moves
    return data


def _resampled(rules, moves, viewer: int, seed: int) -> list[int]:
    """The moves with what `viewer` has not seen drawn again (uniformly, seeded)."""
    state = _core.Rules(rules.catalogue, **rules.params).new_state()
    actors = []
    for a in moves:
        actors.append(state.current_player())
        state.apply(a)
    _, redrawn = state.resample_history(viewer, list(zip(actors, moves)), seed)
    return redrawn


def save_position(state, path, names=None, viewer: int | None = None, form: str | None = None) -> dict:
    """Write position_of(state, ...) to `path` as JSON and return it."""
    data = position_of(state, names, viewer, form=form)
    # A table a person can read: short lists and objects on one line.
    text = readable_json(data, 100) if data["form"] == "table" else json.dumps(data)
    pathlib.Path(path).write_text(text + "\n", encoding="utf-8")
    return data


# ---------------------------------------------------------------------------------------
# Playing from a position (gutenberg-ai play --position)
# ---------------------------------------------------------------------------------------
def position_start(data: dict, pos: Position, seed: int = 0) -> tuple[dict, list, str]:
    """The position to play from: in a file seen by one player, the factories that
    player had not seen are dealt again with `seed` (a table's "hidden" factories drawn
    with it). No presets."""
    if pos.form == "table":
        if not pos.hidden:
            return data, [], ""
        return dict(data, seed=seed), [], (f"The position hides {pos.hidden} factor{'y' if pos.hidden == 1 else 'ies'} "
                                           f"under the piles: drawn at random (seed {seed}).")
    if pos.seen_by is None:
        return data, [], ""
    dealt = dict(data, moves=_resampled(pos.rules, list(pos.moves or ()), pos.seen_by, seed))
    return dealt, [], (f"The position is player {pos.seen_by}'s view: the factories they had not seen "
                       f"are dealt at random (seed {seed}).")


def preset_action(core, legal, preset, start_round: int):
    """Lead Letter Printers positions give no moves to replay (position_start has none)."""
    return None
