"""Position files of every game: the machinery written once.

A position file describes a game as it stands on a table; its `format` says which game
("gutenberg-position", "printing-press-position"). Each game brings its own schema and
loader of its fields (the games table's `position_module`: gutenberg_ai.games.gutenberg.position,
gutenberg_ai.games.printing_press.position); what they share is here and in
gutenberg_ai.common.jsonfile: reading the file (size limit, UTF-8, keys given twice, deep
nesting), the error that lists every problem of a file at once with its place
(PositionError), the JSON Schema's wording (jsonfile.SchemaChecker), and finding the
game a file is for:

    from gutenberg_ai.games.positionfile import load_position
    game, pos = load_position("my_table.json")             # the file says its game
    game, pos = load_position("my_table.json", game="printing-press")   # or refuses
    pos.state.legal_actions()

A game's position module provides (docs/new-game.md): FORMAT, `position_from_data(data,
catalogue, source, path)` -> a Position (`state`, a CoreState at the decision; `rules`;
`game_params`, the OpenSpiel parameters; `step`; `names`; `data`), `load_position`,
`position_of(state, viewer=...)`, `save_position(state, path, viewer=...)`, and for
`play --position` and `table --position` (position_game) `position_start(data, pos, seed)`
and `preset_action(...)`.
"""
from __future__ import annotations

import functools
import os
from types import ModuleType
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from gutenberg_ai import games
from gutenberg_ai.common.jsonfile import (FileDataError, SchemaChecker, decode_json, name_reason, packaged_json,
                                  file_names, read_bytes, show)

__all__ = ["MAX_FILE_BYTES", "PositionError", "load_position", "position_game", "read_position"]

MAX_FILE_BYTES = 1 << 20    # a position is a few kilobytes
RECORD_FORMAT = "gutenberg-record"
SUITE_FORMAT = "gutenberg-ai-suite"   # a benchmark suite (gutenberg_ai.tools.suite)


class ProgramFile(NamedTuple):
    """A kind of this program's files, for a file given where another kind is asked for:
    what it is, in words, and what to do with one (`uses`: at a command, where it
    differs)."""
    what: str
    use: str
    uses: tuple[tuple[str, str], ...] = ()

    def use_at(self, command: str | None) -> str:
        """What to do with one, said to a person running `command` (None: any)."""
        return dict(self.uses).get(command or "", self.use)


# `uses` at "web": what the web page does with one, said on the page.
POSITION_FILE = ProgramFile("a position", "ask for a hint with `gutenberg-ai hint`, or play from it with "
                                          "`gutenberg-ai play --position`",
                            (("table", "follow the game from it with `gutenberg-ai table --position FILE`"),
                             ("web", "upload it under Your table")))
_OTHER_FILES = {RECORD_FORMAT: ProgramFile("a game record", "replay it with `gutenberg-ai replay`",
                                            (("play", "play on from it with `gutenberg-ai play --resume FILE`"),
                                             ("web", "upload it under Review"))),
                SUITE_FORMAT: ProgramFile("a benchmark suite", "score a bot on it with `gutenberg-ai suite --suite FILE`")}


# A followed table's save: a record of what one person (its viewer) has seen.
FOLLOWED_RECORD = ProgramFile("a followed game's record", "follow the game on with `gutenberg-ai table --resume FILE`",
                              (("web", "upload it under Review"),))


def program_file(data: Any, besides: str | None = None) -> ProgramFile | None:
    """Which of this program's files decoded JSON `data` is, by its "format": a
    position of any game (POSITION_FILE), a game record, a benchmark suite; by its
    sections, a game's catalogue (games.of_catalogue); None for anything else, and for
    a file of the format `besides` (the kind a loader reads). Each loader says "this is
    ..., not ..." with it."""
    if besides is not None and isinstance(data, dict) and data.get("format") == besides:
        return None
    if games.of_position(data) is not None:
        return POSITION_FILE
    catalogue_of = games.of_catalogue(data)
    if catalogue_of is not None:
        return ProgramFile(f"a catalogue of {catalogue_of.title}", "give it with --catalogue")
    fmt = data.get("format") if isinstance(data, dict) else None
    if fmt == RECORD_FORMAT and "viewer" in data:
        return FOLLOWED_RECORD
    return _OTHER_FILES.get(fmt) if isinstance(fmt, str) else None


def not_a_catalogue(key: str) -> Callable[[Any], list[tuple[str, str]]]:
    """The check, decoded JSON -> [(where, reason)], that refuses as a catalogue of the
    game `key` another of this program's files (program_file) or another game's
    catalogue, saying what it is; [] for anything else (the catalogue's own checks
    follow)."""
    def check(data: Any) -> list[tuple[str, str]]:
        other = games.of_catalogue(data)
        if other is not None:
            return [] if other.key == key else [
                ("top level", f"this is a catalogue of {other.title}, not of {games.get(key).title} (give it "
                              f"with --game {other.key})")]
        kind = program_file(data)
        return [] if kind is None else [("format", f"this is {kind.what}, not a catalogue ({kind.use})")]
    return check


class PositionError(FileDataError):
    """A position that cannot be loaded (or a state that cannot be written as one).

    ``str(error)`` reads ``"<source>: <where>: <reason>"``, e.g.
    ``position.json: players[1].orders[0][1]: 'R77' is not a refinement card (R0-R49)``;
    the parts are also available as ``source`` (the file's name, or "position" for a
    dict), ``where`` (the field, "" for the position as a whole) and ``reason``.
    """


class AtDecision:
    """What every game's Position (a dataclass with a `state`) has: the player to decide."""

    state: Any

    @property
    def current_player(self) -> int:
        return self.state.current_player()


@functools.lru_cache(maxsize=None)
def schema_checker(package: str, name: str) -> SchemaChecker:
    """The checker of a game's position schema (the file `name` in its package's data),
    worded as jsonfile words it, names included (name_reason)."""
    return SchemaChecker(packaged_json(package, name), reason=name_reason)


def read_position(path_or_dict: str | os.PathLike | dict) -> tuple[Any, str, str | None]:
    """The position's data, the name for messages and the file's path (None for a dict)."""
    if isinstance(path_or_dict, dict):
        return path_or_dict, "position", None
    if isinstance(path_or_dict, (str, os.PathLike)):
        if os.path.exists(path_or_dict) and not (os.path.isfile(path_or_dict) or os.path.isdir(path_or_dict)):
            # A pipe, a device: refused unread (a pipe read once is gone).
            source, shown = file_names(path_or_dict)
            raise PositionError(source, "",
                                "not a file (a pipe or a device?): a position's game reads its file again when "
                                "it is made; save it to a file and give that", shown)
        raw, source, shown = read_bytes(path_or_dict, PositionError, MAX_FILE_BYTES, "a position")
        return decode_json(raw, source, PositionError, shown), source, shown
    raise TypeError(f"load_position takes a path or a dict, got {type(path_or_dict).__name__}")


def position_catalogue(catalogue: Any, module: ModuleType, source: str, path: str | None) -> Any:
    """The catalogue a position's ids refer to: `catalogue` itself (a Catalogue of the
    game's catalogue `module`), the built-in one for None, or the catalogue file it names,
    whose problems are the position's (PositionError at "catalogue")."""
    if catalogue is None:
        return module.default_catalogue()
    if isinstance(catalogue, module.Catalogue):
        return catalogue
    try:
        return module.load_catalogue(catalogue)
    except module.CatalogueError as e:
        raise PositionError.of(source, [("catalogue", f"{e.source}: {w}: {r}" if w else f"{e.source}: {r}")
                                        for w, r in e.problems], path) from None


def seat_names(names: Sequence[str | None]) -> list[str]:
    """How a position's seats are called: "Anna (player 0)" where the file names the
    player, "player 1" where not (`names`: a position's, None or "" for no name)."""
    return [f"{name} (player {seat})" if name else f"player {seat}" for seat, name in enumerate(names)]


def not_a_position(data: Any, fmt: str, command: str | None = None) -> tuple[str, str] | None:
    """(where, reason) when `data` is plainly not a position of format `fmt`: another of
    this program's files (program_file; what to do with it said to a person running
    `command`), or another game's position."""
    kind = program_file(data)
    if kind is not None and kind is not POSITION_FILE:
        return ("format", f"this is {kind.what}, not a position ({kind.use_at(command)}, or give a position file)")
    other = games.of_position(data)
    if other is not None and other.position_format != fmt:
        return ("format", f"{show(data['format'])}: a position of {other.title} (give it with "
                          f"--game {other.key})")
    return None


def load_position(path_or_dict: str | os.PathLike | dict, game: str | None = None,
                  catalogue: Any = None, command: str | None = None) -> tuple[games.PrintingGame, Any]:
    """(the game, its Position) of a position file (or decoded JSON): the game its
    `format` names; with `game` (a games-table key, e.g. from --game) a file of another
    game is refused, saying which game it is for. A file without a known format is read
    as one of `game`'s (Gutenberg's by default), whose loader names what is wrong.
    `catalogue` is passed to the game's loader (its catalogue type, or a path); another
    of the program's files is refused saying what to do with it at `command`."""
    data, source, path = read_position(path_or_dict)
    found = games.of_position(data)
    wanted = games.get(game) if game is not None else None
    if wanted is not None and found is not None and found is not wanted:
        raise PositionError(source, "format", f"{show(data['format'])}: a position of {found.title}, "
                                              f"not of {wanted.title} (leave out --game, or give "
                                              f"--game {found.key})", path)
    g = found or wanted or games.get(games.DEFAULT_GAME)
    problem = not_a_position(data, g.position_format, command)
    if problem:
        raise PositionError(source, *problem, path)
    module = g.positions
    return g, module.load_position(data if path is None else path, catalogue=catalogue)


def position_game(path_or_dict: str | os.PathLike | dict, game: str | None = None, catalogue: Any = None,
                  seed: int = 0, settings: dict | None = None,
                  command: str | None = None) -> tuple[games.PrintingGame, Any, Any, list, str]:
    """A game to play or follow from a position file (or decoded JSON): (the game, its
    Position, the OpenSpiel game whose initial state is the position, presets, note).
    What the file hides is dealt with `seed` by the game's position_start (Gutenberg: the
    hidden plans planned again, the plans given after them as presets); `note` says so.
    `settings` (players, rounds...: None where not given) must be the file's: the first
    that is not is a ParameterError naming it. `game`, `catalogue` and `command` as
    load_position."""
    from gutenberg_ai.games.gamedata import ParameterError, refuse_contradiction, register_data
    g, pos = load_position(path_or_dict, game=game, catalogue=catalogue, command=command)
    for name, value in (settings or {}).items():
        if value is not None and name not in g.rules_module.DEFAULTS:
            raise ParameterError(f"{name}: {g.title} has no such parameter")
    refuse_contradiction(settings or {}, pos.game_params)
    data, presets, note = g.positions.position_start(pos.data, pos, seed)
    params = dict(pos.game_params, position=register_data(data, pos.source))
    if isinstance(catalogue, (str, os.PathLike)) and catalogue:
        params["catalogue"] = os.fspath(catalogue)
    return g, pos, g.load(**params), presets, note
