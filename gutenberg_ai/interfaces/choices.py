"""What a person chooses before a game or a search: the game, its parameters and the
seed, checked as the command line and the page both need them.

    game = load_game({"players": 3}, "printing-press")     # UsageError / ParameterError
    seed = fresh_seed()                                     # a new deal, to be printed
"""
from __future__ import annotations

import os
import re
import secrets
import tempfile
from collections.abc import Callable
from dataclasses import dataclass

from gutenberg_ai import games
from gutenberg_ai.common.jsonfile import not_a_folder

__all__ = ["NEW_DEAL", "NEW_SEED", "NEW_STAND_INS", "RECORD_FILES", "UsageError", "WrittenOver", "check_folder",
           "check_output", "chosen_seed", "file_format", "fresh_seed", "known_params", "load_game", "of_formats",
           "position_files", "printing_game", "same_game"]


class UsageError(Exception):
    """A problem with what was asked; printed as one line, exit status 2."""


@dataclass(frozen=True)
class WrittenOver:
    """What an existing file must be for a command to write over it: `what`, in words,
    and `fits(path)`, the test of a file."""
    what: str
    fits: Callable[[str], bool]


def of_formats(what: str, *formats: str) -> WrittenOver:
    """A file of this program's of one of `formats` (its "format", file_format)."""
    return WrittenOver(what, lambda path: file_format(path) in formats)


RECORD_FILES = of_formats("a game record", "gutenberg-record")   # what a record written over may be


def position_files() -> WrittenOver:
    """What a position file written over may be: a position of any game."""
    return of_formats("a position file", *(g.position_format for g in games.GAMES.values()))


def file_format(path: str) -> str | None:
    """The "format" a JSON file of this program's names near its start (its writers put
    it first), None for any other file (a pipe or a device is not opened: nobody may
    write to it)."""
    if not os.path.isfile(path):
        return None
    try:
        with open(path, "rb") as f:
            head = f.read(4096).decode("utf-8", "replace")
    except OSError:
        return None
    found = re.match(r'\s*\{\s*"format"\s*:\s*"([a-z-]{1,64})"', head)
    return found.group(1) if found else None


def check_output(path: str, option: str, reads: tuple = (), replaces: WrittenOver | None = None) -> str:
    """`path` as a file a command will write, checked before any work (UsageError
    naming `option` otherwise): not empty, not a folder, not under a file, not one of
    the files the command `reads` (which it would overwrite); with `replaces` (e.g.
    RECORD_FILES), an existing file is written over only if it is what that says (a
    record saved again), never a file of anything else. Its folder must exist (a
    mistyped one is refused, not made) and take a new file (tried: a folder of the
    system's, such as /proc, may say it can be written and then refuse)."""
    if not path:
        raise UsageError(f"{option}: an empty path")
    if os.path.isdir(path):
        raise UsageError(f"{option}: {path} is a folder, not a file")
    parent = os.path.dirname(os.path.abspath(path))
    if os.path.isfile(parent):
        raise UsageError(f"{option}: {path} would be inside {parent}, which is a file")
    if not os.path.isdir(parent):      # a mistyped folder is said, not made
        raise UsageError(f"{option}: {path}: no folder {parent} (make it first)")
    if not os.access(parent, os.W_OK) or not _takes_files(parent):
        raise UsageError(f"{option}: {parent} cannot be written to here")
    for read in reads:
        if os.path.exists(path) and os.path.exists(read) and os.path.samefile(path, read):
            raise UsageError(f"{option}: {path} is the file read ({read}); writing it would replace it")
    if replaces is not None and os.path.lexists(path) and not replaces.fits(path):
        raise UsageError(f"{option}: {path} exists and is not {replaces.what}: it is not written over (name "
                         "another file, or remove this one first)")
    return path


def _takes_files(folder: str) -> bool:
    """Whether a new file can be made in `folder` (one is made and removed)."""
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".gutenberg-ai-probe-"):
            return True
    except OSError:
        return False


def check_folder(path: str, option: str) -> str:
    """`path` as a folder a command writes into (made, with its parents, where missing),
    checked before any work (UsageError naming `option` otherwise): not empty, not a
    file, not under a file, and in a folder that can be written to."""
    if not path:
        raise UsageError(f"{option}: an empty path")
    problem = not_a_folder(path)
    if problem:
        raise UsageError(f"{option}: {problem}")
    made = os.path.abspath(path)
    while not os.path.exists(made):      # the nearest folder that is there: the one written to
        made = os.path.dirname(made)
    if not os.path.isdir(made):
        raise UsageError(f"{option}: {path} would be inside {made}, which is a file")
    if not os.access(made, os.W_OK | os.X_OK) or not _takes_files(made):
        raise UsageError(f"{option}: {made} cannot be written to here")
    return path


def fresh_seed() -> int:
    """A new deal: a seed drawn from the system's randomness (printed, so the game can
    be played again with --seed)."""
    return secrets.randbelow(1_000_000)


NEW_SEED = "a new one (--seed {seed} uses it again)"
NEW_DEAL = "a new deal (play it again with --seed {seed})"
NEW_STAND_INS = ("a new one for the stand-ins for what you cannot see and for the hints (--seed {seed} uses it "
                 "again; the saved game keeps it)")


def chosen_seed(given: int | None, recorded: int | None = None, where: str = "",
                new: str = NEW_SEED) -> tuple[int, str]:
    """The seed a command uses, and the line that tells the person (empty when they gave
    it): the seed given; else the seed an earlier run into the folder `where` recorded,
    so that the same command goes on with the same games; else a new one, said in the
    command's words `new` (a template of {seed}).

    >>> chosen_seed(7)
    (7, '')
    >>> chosen_seed(None, 12, "out")
    (12, 'Seed 12, the seed of the earlier run in out')
    """
    if given is not None:
        return given, ""
    if recorded is not None:
        return recorded, f"Seed {recorded}, the seed of the earlier run in {where}"
    seed = fresh_seed()
    return seed, f"Seed {seed}, " + new.format(seed=seed)


def printing_game(key: str | None):
    """The game of --game (Gutenberg when not given); UsageError lists the known ones."""
    try:
        return games.get(games.DEFAULT_GAME if key is None else key)
    except ValueError as e:
        raise UsageError(f"--{e}") from None


def same_game(given: str | None, found, what: str):
    """Refuse a --game that is not the game a file (`what`) is of."""
    if given is not None and printing_game(given) is not found:
        raise UsageError(f"--game {given}: {what} is a game of {found.title}; leave out --game "
                         f"(or give --game {found.key})")


def load_game(params: dict, key: str | None = None):
    """The game `key` with `params`, checked here first: a ParameterError names the bad
    one (the native game would say the same, after OpenSpiel printed it to stderr)."""
    g = printing_game(key)
    g.rules_module.check_parameters(params)
    return g.load(**params)


def known_params(g, params: dict, prefix: str = "--") -> dict:
    """The parameters among `params` that the game knows and that were given (None: not
    given); one the game does not know is a UsageError naming it (`prefix`: as an option
    of the command line, or "" as a field)."""
    known = g.rules_module.DEFAULTS
    out = {}
    for name, value in params.items():
        if value is None or value == "" and name == "catalogue":
            continue
        if name not in known:
            raise UsageError(f"{prefix}{name.replace('_', '-') if prefix else name}: {g.title} has no such parameter")
        out[name] = value
    return out
