"""Lead Letter Printers as an OpenSpiel game: the parameters and the Python side of the
native game "lead_letter_printers" (ext/engine/spiel.cc.in with data/native_game.json, in
gutenberg_ai.games.lead_letter_printers._core).

    import gutenberg_ai, pyspiel
    game = pyspiel.load_game("lead_letter_printers", {"players": 3})

Loading the game checks the parameters and makes the rules here (`setup`), as the other
games' modules do; what they share (data known by content, the game-string path checks,
the rules by key, the compiled state of a native state) is gutenberg_ai.games.gamedata.

Parameters
    players     2-4 (default 2)
    rounds      0 (default): until the orders run out, the game; 1-20: a small variant
                that goes to the final scoring after that many rounds (not the rulebook's
                game)
    factory_tops  true (default): the factory piles lie face up (setup 2a), each pile's
                top factory in view of all, the first of the three a player draws; false:
                the piles are drawn as from a face-down deck, every factory unseen until
                drawn (the reading before the rulebook's was taken: rulings.md 27)
    returns     "win" (zero-sum, the winners share; the default), "score" (the final
                score) or "margin" (the score minus the mean of the others')
    catalogue   path to a catalogue JSON file ("" for the built-in one)
    position    path to a "lead-letter-printers-position" file the game starts from: the
                moves of a game up to a decision (.position; docs/lead_letter_printers/
                positions.md), so that a small variant is the real game from a point on.
                The game's hidden information at that point (the factories a player drew
                or put back) is the moves'; a resample redraws it (the start records of
                ext/lead_letter_printers/spiel.pxi).

The game is sequential with explicit chance nodes (every draw from a pile, the letters
on the back of the lead letters' top tile) and imperfect information: the factories
another player draws and puts back. Information states have perfect recall: the string
is the player's view of the whole history (what they have not seen as "?"), the tensor
the observation followed by that masked history. The action encoding is at the top of
ext/lead_letter_printers/core.pyx; `action_to_string` says every action in the game's
words. docs/lead_letter_printers/rules.md says how the game is modelled.
"""
from __future__ import annotations

import functools

from gutenberg_ai.games import gamedata
from gutenberg_ai.games.gamedata import (  # noqa: F401  (this game's names for the shared ones)
    DATA_PREFIX, FileKind, ParameterError, Setup, data_of, register_data, returns_mode_of,
    sources_of)
from gutenberg_ai.common.jsonfile import FileDataError, decode_json, whole_number

from . import _core
from .catalogue import MAX_FILE_BYTES as CATALOGUE_MAX_BYTES
from .catalogue import CatalogueError, catalogue_from_bytes, default_catalogue

# The native game's names, players and parameters (data/native_game.json, compiled into
# ._core, which registers it).
NATIVE_GAME = gamedata.native_game(__package__)
GAME_NAME = NATIVE_GAME["short_name"]
KEY = "lead-letter-printers"         # its name in the games table and on the command line
RETURNS = _core.RETURNS_MODES
# What a player cannot see, in words (a game review says what its searches redrew).
HIDDEN_WORDS = "the factories another player drew and put back under a pile (all but a pile's top in view)"
DEFAULTS = NATIVE_GAME["defaults"]
MAX_ROUNDS = 20
ROUNDS_WORDS = f"0-{MAX_ROUNDS}, default {DEFAULTS['rounds']}: until the orders run out"   # --rounds, in the command line's help
# The evaluation's weights the searches run with (games.search_weights), over the core's
# (ext/lead_letter_printers/heuristic.pxi), which are the greedy heuristic player's: an
# Optuna study of smmcts at 200 iterations (docs/studies/lead-letter-printers-weights/)
# found these; against the core's they scored 65.8% (58.9-72.0%) of 200 games at 200
# iterations and 65.0% (58.2-71.3%) at 0.1 s a move, where the greedy player with them
# scored 13.5% against itself with the core's (benchmarks/README.md).
SEARCH_WEIGHTS = {
    "STAGE_SHARE": 0.67, "WAITING_SHARE": 0.11, "PER_ROUND_WORKFORCE": 0.41, "PER_ROUND_FACTORY": 1.11,
    "PER_ROUND_TECH": 0.64, "UNUSED_SIGN": 0.38, "UNUSED_DISC": 1.13, "HELD_CONTRACT": 0.98,
    "OPEN_SLOT": 0.37, "OTHERS_SHARE": 0.23,
}
RULE_PARAMETERS = ("players", "rounds", "factory_tops")
POSITION_MAX_BYTES = 1 << 20


def _rule_problems(p: dict) -> list[tuple[str, str]]:
    """The problems of the rules' parameters (RULE_PARAMETERS of `p`), (name, reason)."""
    out = []
    if not isinstance(p["factory_tops"], bool):
        out.append(("factory_tops", f"{p['factory_tops']!r} is not true or false"))
    for name, lo, hi, note in (("players", 2, _core.MAX_PLAYERS, "; the game has no solo play"),
                               ("rounds", 0, MAX_ROUNDS, "; 0 plays until the orders run out")):
        if not whole_number(p[name]):
            out.append((name, f"{p[name]!r} is not a whole number"))
        elif not lo <= p[name] <= hi:
            out.append((name, f"{p[name]} is out of range ({lo}-{hi}{note})"))
    return out


# ---------------------------------------------------------------------------------------
# The files a game is made of (gutenberg_ai.games.gamedata: read once, known by content).
# ---------------------------------------------------------------------------------------
_KINDS = {"catalogue": FileKind(CatalogueError, CATALOGUE_MAX_BYTES, "a catalogue"),
          "position": FileKind(FileDataError, POSITION_MAX_BYTES, "a position")}


_catalogue = gamedata.catalogue_reader(default_catalogue, catalogue_from_bytes, CatalogueError)


@functools.lru_cache(maxsize=gamedata.FILES_READ_KEPT)
def _position(digest: str, catalogue: str):
    """(the game's parameters, its Rules starting there, the moves from the beginning) of
    a position parameter."""
    from .position import position_from_data

    def read(raw, source):
        return position_from_data(decode_json(raw, source, FileDataError), _catalogue(catalogue), source)
    pos = gamedata.read_data("position", digest, read, FileDataError)
    return pos.game_params, pos.rules.starting_at(pos.state), pos.moves


start_moves = gamedata.start_moves


# ---------------------------------------------------------------------------------------
# Parameters and rules.
# ---------------------------------------------------------------------------------------
def setup(params: dict) -> Setup:
    """Check the parameters, read the catalogue and position files they name (once) and
    make the rules: one Rules object per content while games use it (native games point
    into its catalogue and initial state; gamedata.remember)."""
    p, catalogue, position = gamedata.settle_files(
        params, DEFAULTS, _KINDS.get, lambda digest, cat: _position(digest, cat)[0])
    start, moves = _position(position, catalogue)[1:] if position else (None, ())
    problems = _rule_problems(p)
    if problems:
        raise ParameterError.of(problems)
    if p["returns"] not in RETURNS:
        raise ParameterError(f"returns: {p['returns']!r} is not one of {', '.join(RETURNS)}")
    key = gamedata.key_for(KEY, catalogue, position, *(p[name] for name in RULE_PARAMETERS))

    def make():
        if start is not None:
            return start
        return _core.Rules(_catalogue(catalogue), **{name: p[name] for name in RULE_PARAMETERS})

    rules = gamedata.remember(key, make, catalogue, position)
    if start is not None:
        gamedata.remember_start_moves(key, moves)
    return Setup(params=p, rules=rules, info=game_info(p, rules), key=key)


check_parameters, rules_for = gamedata.setup_faces(setup)


def game_info(p: dict, rules: _core.Rules) -> dict:
    """pyspiel.GameInfo's fields for checked parameters `p` and their rules; "utility_sum"
    for the zero-sum modes ("win", "margin"). A score may be negative (orders bought and
    never started): its range is the catalogue's bound either way (`Catalogue.max_score`)."""
    top = float(rules.catalogue.max_score())
    low = -float(sum(sorted((o["points"] for o in rules.catalogue.data["orders"]), reverse=True)[:2]))
    lo, hi = {"win": (-1.0, 1.0), "score": (low, top), "margin": (low - top, top - low)}[p["returns"]]
    info = dict(
        num_distinct_actions=_core.NUM_ACTIONS,
        max_chance_outcomes=_core.NUM_CHANCE_OUTCOMES,
        num_players=p["players"],
        min_utility=lo,
        max_utility=hi,
        max_game_length=rules.max_game_length,
    )
    if p["returns"] != "score":
        info["utility_sum"] = 0.0
    return info


def key_of(game) -> str:
    """Setup.key of a loaded game."""
    return gamedata.key_of(game)


def rules_of(game) -> _core.Rules:
    """The compiled rules (Lead Letter Printers's Rules) of a loaded game."""
    return gamedata.rules_of(game)


def core_of(state) -> _core.CoreState:
    """The compiled state (Lead Letter Printers's CoreState) of a "lead_letter_printers"
    state, for reading: a copy of its struct; a CoreState is returned as it is."""
    return gamedata.core_of(state, _core)


# -- what the benchmark suite asks of a game (gutenberg_ai.tools.suite; docs/new-game.md) -----
_POSITION_KINDS = (("game end", "endgame"), ("Action phase", "action"), ("Order and contract phase", "orders and contracts"),
          ("Production phase", "production"), ("Preparation phase", "preparation"), ("tradesmen setup", "setup"),
          ("setup", "setup"))


def position_kind(core) -> str:
    """The kind of a decision for the benchmark suite: its phase ("action", "orders and
    contracts", "production", "preparation", "setup"), or "endgame" (the last optional
    actions at the game's end)."""
    step = core.step_name()
    for prefix, kind in _POSITION_KINDS:
        if step.startswith(prefix):
            return kind
    return "other"
