"""Printing Press as an OpenSpiel game: the parameters and the Python side of the native
game "printing_press" (ext/engine/spiel.cc.in with data/native_game.json, in
gutenberg_ai.games.printing_press._core).

    import gutenberg_ai, pyspiel
    game = pyspiel.load_game("printing_press", {"players": 3, "variant": "advanced"})

Loading the game checks the parameters and makes the rules here (`setup`), as
gutenberg_ai.games.gutenberg.game does for Gutenberg; what the two games share (data known by content,
the game-string path checks, the rules by key, the compiled state of a native state) is
gutenberg_ai.games.gamedata.

Parameters
    players           1-4 (default 2); 1 is the solo game against the automa (seat 1)
    variant           "basic" (default; time track side A, 6 Select Cards steps a round)
                      or "advanced" (side B, 5 steps)
    rounds            1-3 (default 3); fewer make small variants (not the rulebook's game)
    returns           "win" (zero-sum, the winners share; the default with 2+ players),
                      "score" (the final score; the default and only choice solo) or
                      "margin" (the score minus the mean of the others')
    characters        true (default): a random character tile each, side of the player's
                      choice (solo: the tile of the player's choice); false: no tiles
    one_token, automa_wins_ties, hard_board
                      the solo difficulty options (default false; solo only)
    catalogue         path to a catalogue JSON file ("" for the built-in one)
    position          path to a file the game starts from: a "printing-press-start" file
                      (below), or a position file of the table ("printing-press-position",
                      read by the games table's position module); the file says the game
                      (players, variant, rounds, characters, solo options)

A "printing-press-start" file is a game's history from its beginning and the components
then taken out of the game, so that a small variant is the real game from a point on:

    {"format": "printing-press-start", "players": 2, "variant": "advanced", "rounds": 1,
     "characters": false, "history": [12, 30, ...],
     "out_of_game": {"cards": [4, 17], "tokens": {"A": 2, "blue": 1}}}

`history` is OpenSpiel's action numbers, chance outcomes included, each checked legal in
turn; `out_of_game` then takes cards (the catalogue's numbers, 1-90) out of the deck and
tokens out of the bag into the box (after the setup only: it draws from the bag), leaving
a draw under way something to draw. The game's hidden information at that point (the
symbols of the setup tokens, of the tokens placed initiative side up) is the history's;
a resample redraws it (the start records of ext/printing_press/spiel.pxi).

The game is sequential with explicit chance nodes (tiles, the solo board, tokens, orders,
cards) and imperfect information: the symbols of another player's setup tokens, of the
tokens they draw for a discarded card, keep initiative side up or take with Caxton's
ability. Information states have perfect recall: the string is the player's view of the
whole history (what they have not seen as "?"), the tensor the observation followed by
that masked history. The action encoding is at the top of ext/printing_press/core.pyx;
`action_to_string` says every action in the game's words. docs/printing_press/rules.md
says how the game is modelled.
"""
from __future__ import annotations

import functools

from gutenberg_ai.games import gamedata
from gutenberg_ai import games
from gutenberg_ai.games.gamedata import (  # noqa: F401  (this game's names for the shared ones)
    DATA_PREFIX, FileKind, ParameterError, Setup, data_of, register_data, returns_mode_of,
    sources_of)
from gutenberg_ai.common.jsonfile import FileDataError, Problems, decode_json, show, whole_number

from . import _core, names
from .catalogue import MAX_FILE_BYTES as CATALOGUE_MAX_BYTES
from .catalogue import CatalogueError, catalogue_from_bytes, default_catalogue

# The native game's names, players and parameters (data/native_game.json, compiled into
# ._core, which registers it).
NATIVE_GAME = gamedata.native_game(__package__)
GAME_NAME = NATIVE_GAME["short_name"]
KEY = "printing-press"             # its name in the games table and on the command line
RETURNS = _core.RETURNS_MODES
# What a player cannot see, in words (a game review says what its searches redrew).
HIDDEN_WORDS = "the symbols of the tokens others keep face down and of the tokens in the bag"
DEFAULTS = NATIVE_GAME["defaults"]
SOLO_OPTIONS = ("one_token", "automa_wins_ties", "hard_board")
MAX_ROUNDS = 3                     # the rulebook's game; fewer make small variants
ROUNDS_WORDS = f"1-{MAX_ROUNDS}, default {DEFAULTS['rounds']}"   # --rounds, in the command line's help
# The parameters that make the rules (Rules' arguments); a start file says each.
RULE_PARAMETERS = ("players", "variant", "rounds", "characters") + SOLO_OPTIONS
START_FORMAT = "printing-press-start"
POSITION_FORMAT = "printing-press-position"
START_MAX_BYTES = 1 << 20
MAX_START_HISTORY = 2000


class StartError(FileDataError):
    """A start file that cannot be read: every problem, with its place."""


def _rule_problems(p: dict) -> list[tuple[str, str]]:
    """The problems of the rules' parameters (RULE_PARAMETERS of `p`), (name, reason)."""
    out = []
    for name, top, note in (("players", _core.MAX_PLAYERS, "; 1 is the solo game"),
                            ("rounds", MAX_ROUNDS, "")):
        if not whole_number(p[name]):
            out.append((name, f"{p[name]!r} is not a whole number"))
        elif not 1 <= p[name] <= top:
            out.append((name, f"{p[name]} is out of range (1-{top}{note})"))
    if p["variant"] not in names.VARIANTS:
        out.append(("variant", f"{p['variant']!r} is not one of {', '.join(names.VARIANTS)}"))
    for name in ("characters",) + SOLO_OPTIONS:
        if not isinstance(p[name], bool):
            out.append((name, f"{p[name]!r} is not true or false"))
    for name in SOLO_OPTIONS:
        if p[name] is True and p["players"] != 1:
            out.append((name, f"a solo difficulty option, but players is {p['players']}"))
    return out


# ---------------------------------------------------------------------------------------
# The files a game is made of (gutenberg_ai.games.gamedata: read once, known by content).
# ---------------------------------------------------------------------------------------
_KINDS = {"catalogue": FileKind(CatalogueError, CATALOGUE_MAX_BYTES, "a catalogue"),
          "position": FileKind(StartError, START_MAX_BYTES, "a position")}


_catalogue = gamedata.catalogue_reader(default_catalogue, catalogue_from_bytes, CatalogueError)


@functools.lru_cache(maxsize=gamedata.FILES_READ_KEPT)
def _position(digest: str, catalogue: str):
    """(the game's parameters, its Rules starting there) of a position parameter."""
    def read(raw, source):
        data = decode_json(raw, source, StartError)
        if isinstance(data, dict) and data.get("format") == POSITION_FORMAT:
            return _table_position(data, _catalogue(catalogue), source)
        return start_from_data(data, _catalogue(catalogue), source)
    return gamedata.read_data("position", digest, read, FileDataError)


def _table_position(data, catalogue, source):
    """A position file of the table, read by the games table's position module."""
    g = games.get(KEY)
    module = getattr(g, "position_module", "")
    if not module:
        raise StartError(source, "format", f"{POSITION_FORMAT!r}: this build reads no "
                                           f"position files of the table for {g.title}; "
                                           f"give a {START_FORMAT!r} file")
    pos = g.positions.position_from_data(data, catalogue, source, None)
    # Every rule parameter, those the file leaves out at their defaults: the rules are made
    # with them, so a parameter given against them is refused (gamedata.apply_position).
    params = {name: pos.game_params.get(name, DEFAULTS[name]) for name in RULE_PARAMETERS}
    return params, pos.rules.starting_at(pos.state)


def start_from_data(data, catalogue, source: str = "start"):
    """(the game's parameters, its Rules starting there) of a "printing-press-start" file's
    data (see the module's docstring); StartError lists its problems."""
    problems = Problems()
    if not isinstance(data, dict):
        raise StartError(source, "", f"a start file is an object {{...}}, got {show(data)}")
    known = ("format",) + RULE_PARAMETERS + ("history", "out_of_game")
    for key in data:
        if key not in known:
            problems.add(str(key), f"unknown key (expected {', '.join(known)})")
    if data.get("format") != START_FORMAT:
        problems.add("format", f"must be {START_FORMAT!r}, got {show(data.get('format'))}")
    p = {name: data.get(name, DEFAULTS[name]) for name in RULE_PARAMETERS}
    for where, reason in _rule_problems(p):
        problems.add(where, reason)
    history = data.get("history", [])
    if not isinstance(history, list):
        problems.add("history", f"must be a list of action numbers, got {show(history)}")
        history = []
    elif len(history) > MAX_START_HISTORY:
        problems.add("history", f"{len(history)} actions, at most {MAX_START_HISTORY}")
    for i, a in enumerate(history[:MAX_START_HISTORY]):
        if isinstance(a, bool) or not isinstance(a, int) or a < 0:
            problems.add(f"history[{i}]", f"{show(a)} is not an action number (a whole number >= 0)")
    out = data.get("out_of_game", {})
    cards, tokens = [], {}
    if not isinstance(out, dict):
        problems.add("out_of_game", f"must be an object {{...}}, got {show(out)}")
    else:
        for key in out:
            if key not in ("cards", "tokens"):
                problems.add(f"out_of_game.{key}", "unknown key (expected cards, tokens)")
        cards = out.get("cards", [])
        if not isinstance(cards, list):
            problems.add("out_of_game.cards", f"must be a list of card numbers, got {show(cards)}")
            cards = []
        for i, c in enumerate(cards):
            if isinstance(c, bool) or not isinstance(c, int) or not 1 <= c <= len(catalogue.cards):
                problems.add(f"out_of_game.cards[{i}]", f"{show(c)} is not a card number "
                                                        f"(1-{len(catalogue.cards)})")
            elif c in cards[:i]:
                problems.add(f"out_of_game.cards[{i}]", f"card {c} is listed twice")
        tokens = out.get("tokens", {})
        if not isinstance(tokens, dict):
            problems.add("out_of_game.tokens", f"must be an object of symbol counts, got {show(tokens)}")
            tokens = {}
        for sym, n in tokens.items():
            if sym not in names.SYMBOLS:
                problems.add(f"out_of_game.tokens.{sym}", f"not a symbol ({', '.join(names.SYMBOLS)})")
            elif isinstance(n, bool) or not isinstance(n, int) or n < 0:
                problems.add(f"out_of_game.tokens.{sym}", f"{show(n)} is not a count (a whole number >= 0)")
    if problems:
        raise StartError.of(source, problems.found)
    # The history, each action legal in turn (the first that is not ends the check: the
    # rest would follow from another game).
    rules = _core.Rules(catalogue, **p)
    state = rules.new_state()
    for i, a in enumerate(history):
        if state.is_terminal():
            raise StartError(source, f"history[{i}]", "the game is already over")
        try:
            state.apply(a)
        except _core.IllegalActionError as e:
            raise StartError(source, f"history[{i}]", str(e)) from None
    if state.is_terminal():
        raise StartError(source, "history", "the game is over at its end: nothing to play")
    d = state.to_dict()
    for i, c in enumerate(cards):
        word, bit = divmod(c - 1, 64)
        if not d["card_deck"][word] >> bit & 1:
            problems.add(f"out_of_game.cards[{i}]", f"card {c} is not in the deck after the history")
            continue
        d["card_deck"][word] &= ~(1 << bit)
        d["cards_dealt"] += 1
    if any(tokens.values()) and d["round"] < 1:
        problems.add("out_of_game.tokens", "tokens leave the game after the setup only (the "
                                           "setup draws them): the history must reach round 1")
        tokens = {}
    for sym, n in tokens.items():
        x = names.SYMBOLS.index(sym)
        if n > d["bag"][x]:
            problems.add(f"out_of_game.tokens.{sym}", f"{n} {sym} tokens, the bag holds "
                                                      f"{d['bag'][x]} after the history")
            continue
        d["bag"][x] -= n
        d["box_tokens"][x] += n
    if problems:
        raise StartError.of(source, problems.found)
    start = rules.state_from_dict(d)
    # A draw under way (cards of a step, tokens for a discard) must still find its items.
    if start.is_chance() and not start.chance_outcomes():
        raise StartError(source, "out_of_game", "the draw under way after the history has "
                                                "nothing left to draw")
    return p, rules.starting_at(start)


# ---------------------------------------------------------------------------------------
# Parameters and rules.
# ---------------------------------------------------------------------------------------
def setup(params: dict) -> Setup:
    """Check the parameters, read the catalogue and position files they name (once) and
    make the rules: one Rules object per content while games use it (native games point
    into its catalogue and initial state; gamedata.remember)."""
    p, catalogue, position = gamedata.settle_files(
        params, DEFAULTS, _KINDS.get, lambda digest, cat: _position(digest, cat)[0])
    start = _position(position, catalogue)[1] if position else None
    problems = _rule_problems(p)
    if problems:
        raise ParameterError.of(problems)
    gamedata.resolve_returns(p, RETURNS)
    key = gamedata.key_for(KEY, catalogue, position, *(p[name] for name in RULE_PARAMETERS))

    def make():
        if start is not None:
            return start
        return _core.Rules(_catalogue(catalogue), **{name: p[name] for name in RULE_PARAMETERS})

    rules = gamedata.remember(key, make, catalogue, position)
    return Setup(params=p, rules=rules, info=game_info(p, rules), key=key)


check_parameters, rules_for = gamedata.setup_faces(setup)


def game_info(p: dict, rules: _core.Rules) -> dict:
    """pyspiel.GameInfo's fields for checked parameters `p` and their rules
    (gamedata.game_info). The score's bound is the catalogue's (`Catalogue.max_score`:
    the best plate and frame every round with every framed square at the highest bonus,
    or the automa's best)."""
    return gamedata.game_info(p, rules.catalogue.max_score(), _core.NUM_ACTIONS,
                              _core.NUM_CHANCE_OUTCOMES, rules.max_game_length)


def key_of(game) -> str:
    """Setup.key of a loaded game."""
    return gamedata.key_of(game)


def rules_of(game) -> _core.Rules:
    """The compiled rules (Printing Press's Rules) of a loaded game: its catalogue,
    random playouts in the core, states from dicts (the game's own: the files it was made
    of may have changed since)."""
    return gamedata.rules_of(game)


def core_of(state) -> _core.CoreState:
    """The compiled state (Printing Press's CoreState) of a "printing_press" state, for
    reading: a copy of its struct (changing it does not change the state); a CoreState is
    returned as it is."""
    return gamedata.core_of(state, _core)


# -- what the studies and the benchmark suite ask of a game (gutenberg_ai.tools.studies, .suite)
def seat_facts(core) -> list[dict]:
    """Per seat, what a balance study groups by: the character tile and its side (None
    without characters)."""
    from gutenberg_ai.games.printing_press.names import CHARACTERS, SIDES
    out = []
    for p in core.to_dict()["players"][:core.num_players]:
        c, side = p["character"], p["side"]
        known = 0 <= c < len(CHARACTERS)
        out.append({"character": CHARACTERS[c] if known else None,
                    "character side": f"{CHARACTERS[c]} {SIDES[side]}" if known and 0 <= side < len(SIDES) else None})
    return out


def position_kind(core) -> str:
    """The kind of a decision for the benchmark suite: "endgame" (any decision of the
    last round), "select cards", "select orders", "close frames", "setup" (characters,
    sides, setup tokens, before round 1) or "other" (bonus markers, a character's question
    at the start of a round)."""
    step = core.step_name()
    if core.round >= core.to_dict()["rounds"]:
        return "endgame"
    for kind in ("Select Cards", "Select Orders", "Close Frames"):
        if step.startswith(kind):
            return kind.lower()
    return "setup" if core.round < 1 else "other"
