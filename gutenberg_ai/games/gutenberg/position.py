"""Position files: a game of Gutenberg as it stands on a table, as JSON.

A person writes down the round, whose decision it is, the main board, every player's
printing house and (optionally) the bag, the discard piles and the cards out of the
game; :func:`load_position` checks it and returns the engine's state at exactly that
decision point. :func:`position_of` is the inverse: it writes the position of a state
reached in a game (at the decision points the format supports), and
:func:`save_position` writes it to a file. The format is documented by the JSON Schema
``gutenberg_ai/games/gutenberg/data/position.schema.json`` and in ``docs/gutenberg/positions.md``.

    from gutenberg_ai.games.gutenberg.position import load_position
    pos = load_position("my_table.json")
    pos.state.legal_actions()            # the choices of the player to act
    pos.rules, pos.catalogue, pos.game_params

Loading checks the file in two stages: the JSON Schema (the shape of every field), then
the game's consistency (each card in one place, 48 inks, plans that add up, the player to
act able to act...). :class:`PositionError` names the file and, one line each, every
problem found with its field and reason: all of the schema's, then those of each part
of the position that can be checked on its own (the game, the cards, each player...).
Nothing is returned half-loaded.

Cards are named by catalogue id ("P12", "R7", "S3", "G5", "C2", or a plain number whose
kind the field implies) or described inline (``{"letters": "IOOU", "guilders": 5}``). An
inline card takes the id of a catalogue card of its kind that the position does not
otherwise use, so loading returns a catalogue (the given one with those cards replaced)
together with the state.
"""
from __future__ import annotations

import dataclasses
import functools
import json
import os
import pathlib
from dataclasses import dataclass
from typing import Any

from . import _core
from . import catalogue as _catalogue_module
from .catalogue import MARKERS_FIRST, Catalogue, default_catalogue
from gutenberg_ai.common.jsonfile import Problems, SchemaChecker, message, packaged_json, places_beside, shaped, text_problem
from gutenberg_ai.common.jsonfile import Problem as _Problem
from gutenberg_ai.common.jsonfile import structure_problems
from gutenberg_ai.common.jsonfile import show as _show
from gutenberg_ai.games.positionfile import MAX_FILE_BYTES, AtDecision, PositionError, not_a_position, position_catalogue, read_position, seat_names  # noqa: F401  (game.py reads it here: the position file bound)
from .names import CHARACTERS, GEAR_INDICATES, INKS, LETTERS, ROMAN, ROWS, SPECIALTIES

__all__ = ["FORMAT", "VERSION", "Position", "PositionError", "load_position",
           "position_of", "position_schema", "save_position", "STEPS"]

FORMAT = "gutenberg-position"
VERSION = 1
SCHEMA_NAME = "position.schema.json"
MAX_ITEMS = 50              # the longest list of a position: a discard pile of printing cards
STEPS = ("plan", "turn", "fulfil", "wild_ink", "free_actions", "shift")

_PH = _core.PHASES
_SUB = _core.SUBS
_PD = _core.PENDING
_FM = _core.FULFIL_MODES
_PASS = _core.ACTIONS["PASS"]

MAX_ORDERS = 4
MAX_INSTALLED = 3
MAX_GEAR_USES = 3

# Card kinds: the field names of the position, the letter of an id, the catalogue's
# attribute, and the state's piles.
_KINDS = ("printing", "refinement", "specialty", "gear", "patronage")
_LETTER = {"printing": "P", "refinement": "R", "specialty": "S", "gear": "G", "patronage": "C"}
_CAT_ATTR = {"printing": "printing", "refinement": "refinement", "specialty": "specialty_cards",
             "gear": "gears", "patronage": "patronage"}
_NOUN = {"printing": "printing card", "refinement": "refinement card",
         "specialty": "specialty card", "gear": "gear", "patronage": "patronage card"}
_PILE_KEYS = {"printing": "printing", "refinement": "refinement", "specialty": "specialty",
              "gears": "gear"}
_STATE_PILES = {"printing": ("printing_deck", "printing_discard", "printing_box"),
                "refinement": ("refinement_deck", "refinement_discard", "refinement_box"),
                "specialty": ("specialty_deck", "specialty_discard", "specialty_box"),
                "gear": ("gear_deck", "gear_discard", "gear_box")}
_ROW_WORDS = {"orders": "take orders", "inks": "take inks", "specialties": "develop specialties",
              "gears": "improve printing houses", "patronage": "patronage"}
_ROMAN_LEVEL = {r: i for i, r in enumerate(ROMAN)}


# ---------------------------------------------------------------------------------------
# Errors and the result
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Position(AtDecision):
    """A loaded position.

    ``state`` is a fresh ``CoreState`` at the position's decision point, following
    ``rules`` (built with ``catalogue``, which differs from the catalogue passed to
    :func:`load_position` only where the position describes cards inline).
    ``game_params`` are the OpenSpiel parameters of the game (players, rounds, characters,
    automa). ``step`` is the decision: {"kind", "player", and for a turn "action"}.
    ``names`` are the players' names (None where not given); ``hidden_plans`` the seats
    whose committed plans were given as "hidden" (the state holds a stand-in; a search
    must redraw them, e.g. with ``CoreState.resample_plans``). ``data`` is the position
    as read.
    """

    rules: Any
    state: Any
    catalogue: Catalogue
    game_params: dict
    step: dict
    source: str = "position"
    names: tuple = ()
    hidden_plans: tuple = ()
    data: dict = dataclasses.field(default_factory=dict, repr=False, compare=False)


# ---------------------------------------------------------------------------------------
# The JSON Schema
# ---------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=1)
def position_schema() -> dict:
    """The JSON Schema (draft 2020-12) of position files, as shipped in the package."""
    return packaged_json(__package__, SCHEMA_NAME)


def _reason(error) -> str | None:
    """The position format's own words for its patterns and its `not` (the rest is
    jsonfile.SchemaChecker's)."""
    v, inst, schema = error.validator, error.instance, error.schema
    if v == "pattern":
        if schema.get("pattern", "").startswith("^[^"):        # a name: plain text
            return text_problem(inst) or message(error)
        if schema.get("pattern", "").startswith("^[AIOU]"):
            return f"{_show(inst)}: only the letters A, I, O, U (at most 6 on a card)" \
                if "{" in schema["pattern"] else f"{_show(inst)}: only the letters A, I, O, U"
        return (f"{_show(inst)} is not a card id (a letter P, R, S, G or C and a number, "
                f"e.g. 'P12', or just the number)")
    if v == "not":
        return "'action' belongs to a 'turn' step only"
    return None


def _place(error, where: list) -> list:
    # The schema's `not` is on the step; the key at fault is its 'action'.
    if error.validator == "not" and isinstance(error.instance, dict):
        return where + ["action"]
    return where


@functools.lru_cache(maxsize=1)
def _checker() -> SchemaChecker:
    return SchemaChecker(position_schema(), reason=_reason, place=_place)


def _check_schema(data: Any) -> list[tuple[str, str]]:
    """Every problem the JSON Schema finds, in the order of the file's fields."""
    return _checker().problems(data)


# ---------------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------------
_read = read_position


def _not_a_record(data: Any) -> _Problem | None:
    """A game record (or another game's position) given where a position is expected
    says so."""
    problem = not_a_position(data, FORMAT)
    return _Problem(*problem) if problem else None


# ---------------------------------------------------------------------------------------
# Small parsers (the values have passed the schema)
# ---------------------------------------------------------------------------------------
def _at(where: str, key) -> str:
    if isinstance(key, int):
        return f"{where}[{key}]"
    return f"{where}.{key}" if where else key


def _level(v) -> int:
    return v if isinstance(v, int) else _ROMAN_LEVEL[v]


def _inks(v) -> list[int]:
    if v is None:
        return [0] * 4
    if isinstance(v, list):
        return [v.count(c) for c in INKS]
    return [v.get(c, 0) for c in INKS]


def _plan(v) -> list[int]:
    if isinstance(v, list):
        return list(v)
    return [v.get(r, 0) for r in ROWS]


def _plan_dict(plan) -> dict:
    return {r: int(n) for r, n in zip(ROWS, plan)}


def _stand_in(markers: int) -> list[int]:
    """A plan for a hidden commitment: the markers spread evenly (at most 6 a row)."""
    return [markers // 5 + (1 if r < markers % 5 else 0) for r in range(5)]


def _character(name: str, where: str) -> int:
    low = name.strip().lower()
    for i, full in enumerate(CHARACTERS):
        if low in (full.lower(), full.split()[-1].lower()):
            return i
    raise _Problem(where, f"{_show(name)} is not a character (one of {', '.join(CHARACTERS)})")


def _inline_entry(kind: str, value: dict, card_id: int) -> dict:
    """An inline card as the catalogue file's entry (for the catalogue's own checks)."""
    if kind == "printing":
        return {"id": card_id, "letters": value["letters"], "guilders": value["guilders"]}
    if kind == "refinement":
        colour = {c: n for c, n in zip(INKS, _inks(value["colour"])) if n}
        deco = {s: _level(value["decoration"][s]) for s in SPECIALTIES if s in value["decoration"]}
        return {"id": card_id, "colour": colour, "colour_fame": value["colour_fame"],
                "decoration": deco, "decoration_fame": value["decoration_fame"],
                "reward": dict(value["reward"])}
    if kind == "specialty":
        return {"id": card_id, "icons": list(value["icons"])}
    if kind == "gear":
        return {"id": card_id, "white_line": value.get("white_line", False),
                "sectors": [dict(s) for s in value["sectors"]]}
    specs = value.get("specialties", {})
    return {"id": card_id, "kind": value["kind"],
            "specialties": {s: _level(specs[s]) for s in SPECIALTIES if s in specs},
            "inks": {c: n for c, n in zip(INKS, _inks(value.get("inks"))) if n},
            "types": {c: value.get("types", "").count(c) for c in LETTERS
                      if c in value.get("types", "")}}


_PARSERS = {"printing": _catalogue_module._printing_card,
            "refinement": _catalogue_module._refinement_card,
            "specialty": _catalogue_module._specialty_card,
            "gear": _catalogue_module._gear,
            "patronage": _catalogue_module._patronage_card}


def _parse_inline(kind: str, value: dict, card_id: int, where: str):
    # The catalogue's own card validator, so an inline card obeys the same rules.
    return _PARSERS[kind](_inline_entry(kind, value, card_id), where)


def _same_card(a, b) -> bool:
    """Two catalogue cards with the same faces (ids aside)."""
    return dataclasses.replace(a, id=0) == dataclasses.replace(b, id=0)


# ---------------------------------------------------------------------------------------
# The loader
# ---------------------------------------------------------------------------------------
class _Loader:
    """Builds the state of a position that passed the schema. Each part that can be
    checked on its own (the game, each card, each player, the inks...) records its
    problem in `found` and the loader goes on; it stops (found.stop()) where what follows
    depends on the parts with problems."""

    def __init__(self, data: dict, catalogue: Catalogue):
        self.data = data
        self.base = catalogue
        self.found = Problems()

    # -- cards ----------------------------------------------------------------------------
    def card_places(self):
        """Every place holding a card: (kind, where, value), in the order of the file. The
        walk steps over a part of another shape (a file the schema refused elsewhere is
        walked too, for _card_problems_beside)."""
        d = shaped(self.data, dict)
        board = shaped(d.get("board"), dict)
        for key, kind in (("printing", "printing"), ("refinement", "refinement"),
                          ("specialty", "specialty"), ("gears", "gear")):
            for i, v in enumerate(shaped(board.get(key), list)):
                if v is not None:
                    yield kind, f"board.{key}[{i}]", v
        for i, v in enumerate(shaped(board.get("patronage"), list)):
            if v is not None:
                yield "patronage", f"board.patronage[{i}]", v
        for seat, p in enumerate(shaped(d.get("players"), list)):
            p = shaped(p, dict)
            for k, order in enumerate(shaped(p.get("orders"), list)):
                if isinstance(order, list) and len(order) == 2:
                    yield "printing", f"players[{seat}].orders[{k}][0]", order[0]
                    yield "refinement", f"players[{seat}].orders[{k}][1]", order[1]
            for k, g in enumerate(shaped(p.get("gears"), list)):
                if isinstance(g, dict) and "gear" in g:
                    yield "gear", f"players[{seat}].gears[{k}].gear", g["gear"]
            for k, v in enumerate(shaped(p.get("patronage"), list)):
                yield "patronage", f"players[{seat}].patronage[{k}]", v
        for pile in ("discard", "out_of_game"):
            for key, kind in _PILE_KEYS.items():
                for i, v in enumerate(shaped(shaped(d.get(pile), dict).get(key), list)):
                    yield kind, f"{pile}.{key}[{i}]", v

    def card_ids(self, places, used: dict):
        """The catalogue id of each place's card given by its id (an inline card is
        passed over): one that is not a card, or that is also in another place, is a
        problem (found) at its place. `used`: kind -> id -> where, filled."""
        for kind, where, value in places:
            if isinstance(value, dict):
                continue
            with self.found.each():
                x = self.card_id(kind, value, where)
                self.at[where] = x      # a place with a card: the checks that follow go on
                if x in used[kind]:
                    raise _Problem(where, f"{_LETTER[kind]}{x} is also at {used[kind][x]}; "
                                          "each card is in one place")
                if kind == "gear" and self.n_seats == 2 and self.base.gears[x].white_line:
                    raise _Problem(where, f"G{x} has white lines: it is not used with 2 "
                                          "participants (it stays in the box)")
                used[kind][x] = where

    def resolve_cards(self):
        """Catalogue ids for every card place; inline cards take unused ids; the
        catalogue with the inline cards in their places."""
        cat = self.base
        used: dict = {k: {} for k in _KINDS}     # kind -> id -> where
        self.at: dict = {}                        # where -> id
        found = self.found
        places = list(self.card_places())
        self.card_ids(places, used)
        inline = [(kind, where, value) for kind, where, value in places if isinstance(value, dict)]
        replaced: dict = {k: {} for k in _KINDS}
        for kind, where, value in inline:
            with found.each():
                self.inline_card(kind, where, value, used, replaced)
        changes: dict[str, Any] = {}     # catalogue field -> its cards
        for kind in _KINDS:
            if replaced[kind]:
                cards = list(getattr(cat, _CAT_ATTR[kind]))
                for x, card in replaced[kind].items():
                    cards[x] = card
                changes[_CAT_ATTR[kind]] = tuple(cards)
        if changes:
            cat = dataclasses.replace(cat, **changes)
            limit = cat.rules.inks_per_colour
            for kind, where, value in inline:
                x = self.card_at(where)
                if x < 0:
                    continue
                counts = (cat.refinement[x].colour if kind == "refinement" else
                          cat.patronage[x].inks if kind == "patronage" else {})
                for ink, n in counts.items():
                    if n > limit:
                        found.add(where, f"needs {n} {ink} inks, the game has only {limit}")
        self.cat = cat
        self.used = used

    def card_at(self, where: str) -> int:
        """The card id at a place; -1 for a card that is not one (its problem is recorded):
        the checks that follow see an empty place, and none of them needs the card."""
        return self.at.get(where, -1)

    def inline_card(self, kind: str, where: str, value: dict, used: dict, replaced: dict):
        """An inline card takes the id of an unused catalogue card of its kind."""
        cat = self.base
        two = self.n_seats == 2
        cards = getattr(cat, _CAT_ATTR[kind])
        card = _parse_inline(kind, value, 0, where)
        if kind == "gear" and two and card.white_line:
            raise _Problem(_at(where, "white_line"), "a gear with white lines is not used "
                                                     "with 2 participants")
        free = [c.id for c in cards if c.id not in used[kind]]
        if kind == "gear":
            free = [x for x in free if cards[x].white_line == card.white_line]
        if kind == "patronage":
            free = [x for x in free if cards[x].kind == card.kind]
        if not free:
            raise _Problem(where, f"no catalogue {_NOUN[kind]} is left for this inline card "
                                  f"to replace: the position uses all of them")
        same = [x for x in free if _same_card(cards[x], card)]
        x = same[0] if same else free[0]
        used[kind][x] = where
        self.at[where] = x
        replaced[kind][x] = dataclasses.replace(card, id=x)

    def card_id(self, kind: str, value, where: str) -> int:
        cards = getattr(self.base, _CAT_ATTR[kind])
        n = len(cards)
        bad = f"{_show(value)} is not a {_NOUN[kind]} ({_LETTER[kind]}0-{_LETTER[kind]}{n - 1})"
        if isinstance(value, int):
            if not 0 <= value < n:
                raise _Problem(where, bad)
            return value
        text = value.strip()
        if text[:1].isalpha():
            if text[0].upper() != _LETTER[kind]:
                raise _Problem(where, bad)
            text = text[1:]
        if len(text) > 6:       # no catalogue has a million cards (nor int() 5,000 digits)
            raise _Problem(where, bad)
        x = int(text)
        if not 0 <= x < n:
            raise _Problem(where, bad)
        return x

    # -- the whole ------------------------------------------------------------------------
    def load(self):
        """Check every part that can be checked on its own, all of them, and stop with the
        problems found: at the end, or earlier where what follows depends on a part with
        problems (the game, a card that is not one)."""
        self.game()
        game_problems = bool(self.found)
        self.resolve_cards()
        if game_problems:
            self.found.stop()
        self.layout = self.cat.board[self.n_seats]
        self.state_dict()
        self.found.stop()
        return self

    def game(self):
        d = self.data
        g = d["game"]
        add = self.found.add
        self.n_people = g["players"]
        self.automa = g.get("automa", False)
        self.rounds = g.get("rounds", 6)
        listed = len(d["players"])
        if listed != self.n_people:
            add("players", f"{listed} players listed, game.players is {self.n_people}")
        if self.automa and self.n_people > 3:
            add("game.players", f"{self.n_people} players and the automa: at most 4 "
                                "participants (3 players with the automa)")
        if not self.automa and self.n_people < 2:
            add("game.players", "1 player needs the automa (game.automa: true)")
        if self.automa and "automa" not in d:
            add("automa", "missing: game.automa is true, so the automa's plan is needed")
        if not self.automa and "automa" in d:
            add("automa", "there is no automa in this game (game.automa is false)")
        if d["round"] > self.rounds:
            add("round", f"round {d['round']}, but the game has {self.rounds} rounds")
        has = [p.get("character") is not None for p in d["players"]]
        self.characters = g.get("characters", any(has))
        self.n_seats = self.n_people + (1 if self.automa else 0)
        self.automa_seat = self.n_people if self.automa else -1
        fp = d["first_player"]
        if fp == "automa":
            if not self.automa:
                add("first_player", "'automa', but there is no automa in this game")
            fp = self.automa_seat
        elif fp >= self.n_people:
            add("first_player", f"{fp} is not a seat (players are 0-{self.n_people - 1})")
        self.first = fp
        # A small variant: every participant has this many markers in this round.
        self.markers_override = g.get("markers")
        if self.markers_override is not None and self.automa:
            add("game.markers", "the automa's markers follow its board: no variant marker count "
                                "with the automa")
        self.game_params = {"players": self.n_people, "rounds": self.rounds,
                            "characters": bool(self.characters), "automa": int(self.automa)}

    def seat(self, value, where: str) -> int:
        if value == "automa":
            if not self.automa:
                raise _Problem(where, "'automa', but there is no automa in this game")
            return self.automa_seat
        if value >= self.n_people:
            raise _Problem(where, f"{value} is not a seat (players are 0-{self.n_people - 1})")
        return value

    def humans(self) -> list[int]:
        """The players in seat order from the first player (the automa skipped)."""
        n = self.n_seats
        return [(self.first + k) % n for k in range(n) if (self.first + k) % n != self.automa_seat]

    def markers(self, seat: int) -> int:
        if self.markers_override is not None:
            return self.markers_override
        return MARKERS_FIRST + (seat - self.first) % self.n_seats

    # -- building the state -----------------------------------------------------------------
    def state_dict(self):
        d = self.data
        cat = self.cat
        rules = _core.Rules(cat, self.n_people, self.rounds, self.characters, self.automa)
        self.rules = rules
        s = rules.new_state().to_dict()
        self.s = s
        s.update(round=d["round"], first_player=self.first, sub=_SUB["CHOOSE"], sub_card=-1,
                 draft_printing=0, draft_refinement=0, pool_printing=0, pool_refinement=0,
                 pool_due_printing=0, pool_due_refinement=0, gear_pool=0, gear_pool_due=0,
                 n_pending=0, automa_card=-1, fulfil_mode=[-1] * 4, fulfil_slot=0,
                 turn=0, n_turns=0, row=0, step=0, turn_order=[0] * 4)
        self.step_kind = d["step"]["kind"]
        found = self.found
        for part in (self.board, self.players, self.automa_part, self.inks, self.piles,
                     self.patronage_count, self.decision, self.caxton_ink, self.automa_card):
            with found.each():
                part()

    def board(self):
        d = self.data
        s = self.s
        b = d["board"]
        lay = self.layout
        for key, field, count in (("printing", "printing_space", lay.printing),
                                  ("refinement", "refinement_space", lay.refinement),
                                  ("specialty", "specialty_space", lay.specialty),
                                  ("gears", "gear_space", lay.gears)):
            spaces = b.get(key, [])
            for i, v in enumerate(spaces):
                if v is not None and i >= count:
                    self.found.add(f"board.{key}[{i}]", f"the board has {count} {key} spaces "
                                                        f"with {self.n_seats} participants")
                s[field][i] = -1 if v is None else self.card_at(f"board.{key}[{i}]")
        self.board_inks = [0] * 4
        for i, sp in enumerate(b.get("inks", [])):
            if sp is None:
                continue
            if i >= lay.ink_sets and any(c is not None for c in sp):
                self.found.add(f"board.inks[{i}]", f"the board has {lay.ink_sets} ink spaces "
                                                   f"with {self.n_seats} participants")
            for k, c in enumerate(sp):
                if c is not None:
                    x = INKS.index(c)
                    s["ink_space"][i][k] = x
                    self.board_inks[x] += 1
        for i, v in enumerate(b["patronage"]):
            s["patronage_space"][i] = -1 if v is None else self.card_at(f"board.patronage[{i}]")
        rewards = b.get("patronage_rewards", [None] * 4)
        for k, v in enumerate(rewards):
            with self.found.each():
                s["patronage_reward_seat"][k] = -1 if v is None else \
                    self.seat(v, f"board.patronage_rewards[{k}]")

    def players(self):
        d = self.data
        s = self.s
        kept: dict = {}
        self.hidden = []
        self.names = tuple(p.get("name") for p in d["players"])
        self.put_back: dict = {}
        self.tile_unread = False
        for seat, pd in enumerate(d["players"]):
            with self.found.each():
                self.printing_house(seat, pd, kept)
        for y, seat in self.put_back.items():
            if y in kept:
                self.found.add(f"players[{seat}].character_put_back",
                               f"{CHARACTERS[y]} is players[{kept[y]}]'s: a tile put back has left the game")
        if self.characters:
            s["character_pool"] = sum(1 << i for i in range(len(CHARACTERS))
                                      if i not in kept and i not in self.put_back)
        else:
            s["character_pool"] = 0
        self.kept = kept

    def printing_house(self, seat: int, pd: dict, kept: dict):
        """One printing house (kept: the character tiles kept so far, by id). Its checks
        are independent of each other: each records its problem and the rest go on."""
        s = self.s
        cat = self.cat
        found = self.found
        w = f"players[{seat}]"
        p = s["players"][seat]
        p["fame"] = pd["fame"]
        p["guilders"] = pd["guilders"]
        p["types"] = [pd["types"].count(c) for c in LETTERS]
        p["inks"] = _inks(pd.get("inks"))
        specs = pd.get("specialties", {})
        p["levels"] = [_level(specs[x]) if x in specs else 0 for x in SPECIALTIES]
        top = max(p["levels"])
        derived = sum(1 for t in cat.reward_track if t.level <= top)
        p["track"] = pd.get("track", derived)
        if p["track"] > derived:
            found.add(_at(w, "track"), f"{pd['track']} reward-track spaces reached, but the "
                                       f"highest specialty ({ROMAN[top]}) reaches {derived}")
        for k, order in enumerate(pd.get("orders", [])):
            if order is not None:
                p["order_printing"][k] = self.card_at(f"{w}.orders[{k}][0]")
                p["order_refinement"][k] = self.card_at(f"{w}.orders[{k}][1]")
        pat = pd.get("patronage", 0)
        p["patronage"] = len(pat) if isinstance(pat, list) else pat
        p["markers"] = self.markers(seat)
        p["plan"] = [0] * 5
        # Character first: Schoeffer's double use depends on it.
        try:
            x = self.character(seat, pd, kept)
        except _Problem as e:
            found.add(e.where, e.reason)
            self.tile_unread = True     # the step's checks of who plays whom wait for it
            x = -1
        p["character"] = x
        with found.each():
            p["character_drawn"] = [x, self.character_put_back(seat, pd, x)]
        with found.each():
            self.gears(seat, pd, p, x)
        wild = pd.get("wild_ink")
        p["wild_ink"] = -1 if wild is None else INKS.index(wild)
        if wild is not None and x != CHARACTERS.index("William Caxton"):
            found.add(_at(w, "wild_ink"), "only William Caxton has a wild ink")
        if pd.get("plantin_swapped"):
            p["character_flags"] |= 1
            if x != CHARACTERS.index("Christophe Plantin"):
                found.add(_at(w, "plantin_swapped"), "only Christophe Plantin swaps specialties")

    def character(self, seat: int, pd: dict, kept: dict) -> int:
        """The tile the player kept (-1 without characters)."""
        w = f"players[{seat}]"
        ch = pd.get("character")
        if ch is None:
            if self.characters:
                raise _Problem(_at(w, "character"), "the game is played with characters: every "
                                                    "player keeps one")
            return -1
        if not self.characters:
            raise _Problem(_at(w, "character"), "game.characters is false: no character tiles")
        x = _character(ch, _at(w, "character"))
        if x in kept:
            raise _Problem(_at(w, "character"), f"{CHARACTERS[x]} is also players[{kept[x]}]'s")
        kept[x] = seat
        return x

    def character_put_back(self, seat: int, pd: dict, kept: int) -> int:
        """The other tile the player drew at setup (-1 when not given)."""
        name = pd.get("character_put_back")
        if name is None:
            return -1
        where = f"players[{seat}].character_put_back"
        if not self.characters:
            raise _Problem(where, "game.characters is false: no character tiles")
        y = _character(name, where)
        if y == kept:
            raise _Problem(where, f"{CHARACTERS[y]} is the tile the player kept")
        if y in self.put_back:
            raise _Problem(where, f"{CHARACTERS[y]} is also put back by players[{self.put_back[y]}]")
        self.put_back[y] = seat
        return y

    def gears(self, seat, pd, p, character):
        w = f"players[{seat}]"
        cat = self.cat
        total = 0
        twice = 0
        for k, g in enumerate(pd.get("gears", [])):
            p["gear"][k] = self.card_at(f"{w}.gears[{k}].gear")
            p["gear_active"][k] = g["active"] - 1
            used = g.get("used", False)
            used = int(used)
            if used == 2:
                if character != CHARACTERS.index("Peter Schoeffer"):
                    raise _Problem(
                        f"{w}.gears[{k}].used", "2 uses: only Peter Schoeffer uses a gear "
                        "twice in a round")
                if cat.characters.schoeffer_uses < 2:
                    raise _Problem(
                        f"{w}.gears[{k}].used", "2 uses, the catalogue lets Schoeffer use a "
                        "gear once")
                twice += 1
                if twice > 1:
                    raise _Problem(
                        f"{w}.gears[{k}].used", "Schoeffer uses only one gear twice a round")
            p["gear_used"][k] = used
            total += used
        if total > MAX_GEAR_USES:
            raise _Problem(_at(w, "gears"), f"{total} gear uses this round, at most "
                                            f"{MAX_GEAR_USES} used gear markers")
        if "gear_markers_used" in pd and pd["gear_markers_used"] != total:
            raise _Problem(_at(w, "gear_markers_used"), f"{pd['gear_markers_used']}, but the gears "
                                                        f"show {total} uses this round")
        p["gear_uses"] = total
        if twice:
            p["character_flags"] |= 2

    def automa_part(self):
        s = self.s
        if not self.automa:
            s["automa_deck"] = 0
            return
        add = self.found.add
        a = self.data["automa"]
        seat = self.automa_seat
        p = s["players"][seat]
        p["markers"] = self.markers(seat)
        p["patronage"] = a.get("patronage", 0)
        plan = _plan(a["plan"])
        p["plan"] = plan
        if sum(plan) != p["markers"]:
            add("automa.plan", f"{sum(plan)} markers, the automa has {p['markers']} this "
                               f"round ({'first player' if seat == self.first else 'seat ' + str(seat)}: "
                               f"7, 8, ... in seat order from the first player)")
        used = a.get("used_cards", [])
        r = self.data["round"]
        if len(used) > r - 1:
            add("automa.used_cards", f"{len(used)} cards used before round {r}: at most "
                                     f"one a round ({r - 1})")
        card = a.get("card")
        if card is not None and card in used:
            add("automa.card", f"planning card {card} is also in automa.used_cards")
        gone = set(used) | ({card} if card is not None else set())
        n_cards = len(self.cat.automa.planning)
        s["automa_deck"] = sum(1 << i for i in range(n_cards) if i not in gone)
        s["automa_card"] = -1 if card is None else card

    def inks(self):
        d = self.data
        s = self.s
        per = self.cat.rules.inks_per_colour
        held = list(self.board_inks)
        for p in s["players"][:self.n_seats]:
            for c in range(4):
                held[c] += p["inks"][c]
        if "bag" in d:
            bag = _inks(d["bag"])
            for c in range(4):
                if bag[c] + held[c] != per:
                    raise _Problem("bag", f"{bag[c] + held[c]} {INKS[c]} inks in all (bag, board, "
                                          f"players), the game has {per}")
        else:
            bag = [per - held[c] for c in range(4)]
            for c in range(4):
                if bag[c] < 0:
                    # Named where the most of them are (the bag is not written: it holds the rest).
                    places = [("board.inks", self.board_inks[c])] + \
                        [(f"players[{q}].inks.{INKS[c]}", p["inks"][c]) for q, p in enumerate(s["players"][:self.n_seats])]
                    where = max(places, key=lambda place: place[1])[0]
                    raise _Problem(where, f"{held[c]} {INKS[c]} inks on the board and with the players ("
                                          + ", ".join(f"{w} {n}" for w, n in places if n) + f"), the game has {per}")
        s["bag"] = bag

    def piles(self):
        s = self.s
        for key, kind in _PILE_KEYS.items():
            deck, discard, box = _STATE_PILES[kind]
            n = len(getattr(self.cat, _CAT_ATTR[kind]))
            dis = self.pile_mask("discard", key)
            out = self.pile_mask("out_of_game", key)
            if kind == "gear" and self.n_seats == 2:
                out |= sum(1 << g.id for g in self.cat.gears if g.white_line)
            placed = sum(1 << x for x in self.used[kind])
            s[discard] = dis
            s[box] = out
            s[deck] = ((1 << n) - 1) & ~placed & ~out
        # Patronage: the cards taken are out of play; the box holds the other 8 not dealt.
        on_board = {x for x in s["patronage_space"] if x >= 0}
        listed = set(self.used["patronage"]) - on_board
        unlisted = [x for x in range(len(self.cat.patronage)) if x not in on_board and x not in listed]
        counted = sum(s["players"][seat]["patronage"] for seat in range(self.n_seats))
        unnamed = counted - len(listed)
        s["patronage_box"] = sum(1 << x for x in unlisted[unnamed:]) if unnamed >= 0 else 0

    def pile_mask(self, pile: str, key: str) -> int:
        """The cards of a discard pile or of the cards out of the game, as a mask."""
        places = (f"{pile}.{key}[{i}]" for i in range(len(self.data.get(pile, {}).get(key, []))))
        return sum(1 << x for x in set(map(self.card_at, places)) if x >= 0)

    def patronage_count(self):
        s = self.s
        cat = self.cat
        taken = sum(s["players"][seat]["patronage"] for seat in range(self.n_seats))
        empty = [i for i, v in enumerate(self.data["board"]["patronage"]) if v is None]
        if taken != len(empty):
            who = "the players and the automa have" if self.automa else "the players have"
            raise _Problem("board.patronage", f"{len(empty)} of the 8 spaces are empty, but "
                                              f"{who} taken {taken} patronage cards; taken cards "
                                              "are not replaced")
        r = self.data["round"]
        for i in empty:
            if cat.patronage_spaces[i] > r:
                raise _Problem(
                    f"board.patronage[{i}]", f"empty, but this space opens in round "
                    f"{cat.patronage_spaces[i]} (now round {r})")

    # -- the decision point -----------------------------------------------------------------
    def decision(self):
        d = self.data
        s = self.s
        step = d["step"]
        kind = step["kind"]
        humans = self.humans()
        caxton = CHARACTERS.index("William Caxton")
        gutenberg = CHARACTERS.index("Johannes Gutenberg")
        player = step.get("player")
        if player is not None and player >= self.n_people:
            raise _Problem(
                "step.player", f"{player} is not a seat (players are 0-{self.n_people - 1})")
        plans = {}
        for seat, pd in enumerate(d["players"]):
            if "plan" in pd:
                plans[seat] = pd["plan"]
        before = kind in ("plan", "wild_ink", "free_actions")      # before the plans are revealed
        self.step_info = {"kind": kind}
        if before:
            if kind == "free_actions":
                # The windows go in seat order from the first player, before anybody plans.
                if player is None:
                    player = humans[0]
                window = humans.index(player)
                with self.found.each():
                    self.no_action_yet(kind, humans[window + 1:])
                k = 0
            elif kind == "wild_ink":
                if caxton not in self.kept and self.tile_unread:
                    return
                if caxton not in self.kept:
                    raise _Problem("step.kind", "'wild_ink' is William Caxton's choice; nobody "
                                                "plays him")
                who = self.kept[caxton]
                if player is not None and player != who:
                    raise _Problem("step.player", f"{player}, but William Caxton is players[{who}]")
                player = who
                k = 0
            else:
                if player is None:
                    k = 0
                    while k < len(humans) and humans[k] in plans:
                        k += 1
                    if k == len(humans):
                        raise _Problem("step", "every player has a plan: the plan step is over "
                                               "(give the step that follows)")
                    player = humans[k]
                k = humans.index(player)
            for i, seat in enumerate(humans):
                where = f"players[{seat}].plan"
                if i < k:
                    if seat not in plans:
                        raise _Problem(
                            where, f"missing: players[{seat}] plans before "
                            f"players[{player}] (seat order from the first "
                            "player) and has committed a plan; give it or 'hidden'")
                    if plans[seat] == "hidden":
                        s["players"][seat]["plan"] = _stand_in(self.markers(seat))
                        self.hidden.append(seat)
                    else:
                        s["players"][seat]["plan"] = self.check_plan(seat, plans[seat])
                elif seat in plans:
                    if kind == "free_actions":
                        raise _Problem(where, "nobody has planned yet: the free actions before the "
                                              "plans come first (the step is 'free_actions'); "
                                              "leave it out")
                    if seat == player:
                        raise _Problem(where, f"players[{seat}] is the one to plan now: leave "
                                              "the plan out")
                    raise _Problem(where, f"players[{seat}] has not planned yet (players[{player}] "
                                          "is to plan now, in seat order from the first player); "
                                          "leave it out")
            s.update(phase=_PH["PLAN"], step=k, reveal_stage=0)
            if kind == "wild_ink":
                self.push(_PD["CAXTON"], player)
                s.update(sub=0)   # the free actions before the plans follow his choice
            elif kind == "free_actions":
                s.update(sub=window)
        else:
            for seat in range(self.n_people):
                where = f"players[{seat}].plan"
                if seat not in plans:
                    raise _Problem(where, f"missing: after the plan step every plan is revealed "
                                          f"(the step is '{kind}')")
                if plans[seat] == "hidden":
                    raise _Problem(where, "'hidden' only in a plan step: plans are revealed now")
                s["players"][seat]["plan"] = self.check_plan(seat, plans[seat])
            s.update(step=self.n_people, reveal_stage=2)
        # Nothing of the actions has happened before the first turn; before the plans'
        # free-action windows (Caxton's colour comes first) no gear is used either.
        if kind in ("plan", "wild_ink", "free_actions", "shift"):
            if kind == "wild_ink":
                with self.found.each():
                    self.no_action_yet(kind, humans)
            with self.found.each():
                self.rows_done(0)
        if kind == "shift":
            if gutenberg not in self.kept and self.tile_unread:
                return
            if gutenberg not in self.kept:
                raise _Problem(
                    "step.kind", "'shift' is Johannes Gutenberg's choice; nobody plays him")
            who = self.kept[gutenberg]
            if player is not None and player != who:
                raise _Problem("step.player", f"{player}, but Johannes Gutenberg is players[{who}]")
            if self.cat.characters.gutenberg_shift <= 0:
                raise _Problem("step.kind", "the catalogue gives Gutenberg no shift")
            player = who
            s.update(phase=_PH["REVEAL"])
            self.push(_PD["SHIFT"], player)
            self.rewards_taken([], "before the patronage action")
        elif kind == "turn":
            row = ROWS.index(step["action"])
            order = self.turn_order(row)
            with self.found.each():
                self.rows_done(row)
            if player not in order:
                raise _Problem(
                    "step.player", f"players[{player}] has no initiative marker on "
                    f"{step['action']}: no turn at {_ROW_WORDS[step['action']]}")
            turn = order.index(player)
            self.rewards_taken(order[:turn] if row == 4 else [], f"before players[{player}]'s turn")
            s.update(phase=_PH["TURN"], row=row, n_turns=len(order), turn=turn,
                     turn_order=order + [0] * (4 - len(order)))
            self.step_info["action"] = step["action"]
        elif kind == "fulfil":
            order = self.turn_order(4)
            with self.found.each():
                self.rows_done(5)
            self.rewards_taken(order, "at the patronage action")
            k = humans.index(player)
            held = [j for j in range(MAX_ORDERS) if s["players"][player]["order_printing"][j] >= 0]
            s.update(phase=_PH["FULFIL"], step=k, row=4, n_turns=len(order), turn=len(order),
                     turn_order=order + [0] * (4 - len(order)),
                     fulfil_slot=held[0] if held else _FM["FINISH_SLOT"])
        else:
            self.rewards_taken([], "before the patronage action")
        self.step_info["player"] = player
        self.player = player

    def caxton_ink(self):
        """Caxton's wild ink is chosen at the start of the round."""
        caxton = CHARACTERS.index("William Caxton")
        if caxton in self.kept and self.step_kind != "wild_ink":
            who = self.kept[caxton]
            if self.data["players"][who].get("wild_ink") is None:
                raise _Problem(
                    f"players[{who}].wild_ink", "missing: William Caxton chooses his wild "
                    "ink at the start of the round (or make the "
                    "step 'wild_ink')")

    def automa_card(self):
        """This round's planning card is revealed with the players' plans."""
        if not self.automa:
            return
        card = self.data["automa"].get("card")
        before = self.step_kind in ("plan", "wild_ink", "free_actions")
        if before and card is not None:
            raise _Problem("automa.card", "this round's planning card is revealed after the "
                                          "players' plans: null in a plan step")
        if not before and card is None:
            raise _Problem("automa.card", "missing: this round's planning card was revealed "
                                          "with the plans")

    def push(self, kind: int, seat: int):
        s = self.s
        q = s["pending"][0]
        q.update(kind=kind, seat=seat, amount=1, arg=0, arg2=-1, stage=0)
        s["n_pending"] = 1

    def check_plan(self, seat: int, value) -> list[int]:
        plan = _plan(value)
        m = self.markers(seat)
        if sum(plan) != m:    # recorded; the checks that follow take the plan as written
            first = " (the first player)" if seat == self.first else ""
            self.found.add(
                f"players[{seat}].plan", f"{sum(plan)} markers placed, players[{seat}]"
                f"{first} has {m} this round (7, 8, ... in seat "
                "order from the first player)")
        return plan

    def turn_order(self, row: int) -> list[int]:
        """Most markers first, ties in seat order from the first player (start_row)."""
        n = self.n_seats
        seats = [(self.first + k) % n for k in range(n)]
        seats = [x for x in seats if self.s["players"][x]["plan"][row] > 0]
        return sorted(seats, key=lambda x: -self.s["players"][x]["plan"][row])

    def no_action_yet(self, kind: str, seats: list[int]):
        """`seats` have had no free action this round yet (no gear used, no swap)."""
        for seat in seats:
            pd = self.data["players"][seat]
            for k, g in enumerate(pd.get("gears", [])):
                if g.get("used", False):
                    raise _Problem(f"players[{seat}].gears[{k}].used",
                                   f"no gear is used before the free actions before the plans "
                                   f"(players[{seat}]'s are still to come; the step is '{kind}')")
            if pd.get("plantin_swapped"):
                raise _Problem(f"players[{seat}].plantin_swapped",
                               f"Plantin swaps in his free actions, none yet this round (the "
                               f"step is '{kind}')")

    def rows_done(self, row: int):
        """The spaces of the actions before `row` were cleared when they ended."""
        s = self.s
        checks = [("printing", s["printing_space"]), ("refinement", s["refinement_space"])], \
            [("inks", [x for sp in s["ink_space"] for x in sp])], \
            [("specialty", s["specialty_space"])], [("gears", s["gear_space"])]
        for r in range(min(row, 4)):
            for key, spaces in checks[r]:
                if any(x >= 0 for x in spaces):
                    first = next(i for i, x in enumerate(spaces) if x >= 0)
                    if key == "inks":
                        first //= 3
                    raise _Problem(f"board.{key}[{first}]",
                                   f"the {_ROW_WORDS[ROWS[r]]} action is over: what was left on "
                                   "its spaces has left the board; leave them empty")

    def rewards_taken(self, allowed: list[int], when: str):
        for k, seat in enumerate(self.s["patronage_reward_seat"]):
            if seat >= 0 and seat not in allowed:
                who = "the automa" if seat == self.automa_seat else f"players[{seat}]"
                raise _Problem(f"board.patronage_rewards[{k}]",
                               f"taken by {who}, who has had no patronage turn {when} "
                               "(the reward spaces are freed at the end of each round)")

    # -- the result -------------------------------------------------------------------------
    def build(self, source: str) -> Position:
        try:
            state = self.rules.state_from_dict(self.s)
        except ValueError as e:
            raise _Problem("", f"inconsistent position ({e})") from None
        expected = self.player
        cp = state.current_player()
        if cp != expected:
            raise _Problem("step", f"the engine finds players[{cp}] to act here, not "
                                   f"players[{expected}]")
        legal = state.legal_actions()
        kind = self.step_kind
        if kind in ("turn", "fulfil", "free_actions") and legal == [_PASS]:
            what = (_ROW_WORDS[self.step_info["action"]] if kind == "turn" else
                    "fulfil orders" if kind == "fulfil" else "the free actions before the plans")
            raise _Problem("step", f"players[{expected}] has nothing to decide at {what} (passing "
                                   "is the only move, and the game moves on without asking); give "
                                   "the next decision")
        return Position(rules=self.rules, state=state, catalogue=self.cat,
                        game_params=dict(self.game_params), step=dict(self.step_info),
                        source=source, names=self.names, hidden_plans=tuple(self.hidden),
                        data=self.data)


def _card_problems_beside(data: Any, cat: Catalogue, problems: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The problems of the cards given by id in a file the schema refused, so that its
    card ids are told with the schema's problems rather than after them: each card id
    places_beside gives is checked against the catalogue and the other such ids."""
    loader = _Loader(data, cat)
    loader.n_seats = 0      # white lines need the game: they wait for a file the schema passes
    loader.at = {}
    places = places_beside(loader.card_places(), problems, lambda _, value: _checker().valid_as("card_id", value))
    loader.card_ids(places, {k: {} for k in _KINDS})
    return loader.found.found


def load_position(path_or_dict, catalogue: Catalogue | str | os.PathLike | None = None
                  ) -> Position:
    """Load a position file (a path) or already-decoded JSON (a dict) and return the
    :class:`Position` at its decision point.

    ``catalogue`` is the catalogue the card ids refer to: a Catalogue, a path to a
    catalogue file, or None for the built-in one. Raises :class:`PositionError` listing
    the problems found (the schema's with the card ids', or the consistency's), each
    with its field.
    """
    data, source, path = _read(path_or_dict)
    return position_from_data(data, position_catalogue(catalogue, _catalogue_module, source, path), source, path)


def position_from_data(data: Any, cat: Catalogue, source: str = "position",
                       path: str | None = None) -> Position:
    """The Position of decoded JSON `data` whose card ids refer to the catalogue `cat`
    (load_position once the file is read)."""
    try:
        problem = _not_a_record(data)
        if problem:
            raise problem
        # No list of a position is long: a long one is refused before the schema (which
        # would check each entry), and so is deep nesting in a dict given directly.
        found = structure_problems(data, MAX_ITEMS, "a position")
        if found:
            raise PositionError.of(source, found, path)
        problems = _check_schema(data)
        if problems:
            raise PositionError.of(source, problems + _card_problems_beside(data, cat, problems), path)
        loader = _Loader(data, cat).load()
        return loader.build(source)
    except _Problem as p:
        raise PositionError(source, p.where, p.reason, path) from None
    except Problems as ps:
        raise PositionError.of(source, ps.found, path) from None


# ---------------------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------------------
def _bits(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


def _inline_out(kind: str, card) -> dict:
    """A catalogue card as an inline card of a position."""
    if kind == "printing":
        return {"letters": card.letters, "guilders": card.guilders}
    if kind == "refinement":
        return {"colour": dict(card.colour), "colour_fame": card.colour_fame,
                "decoration": {s: ROMAN[v] for s, v in card.decoration.items()},
                "decoration_fame": card.decoration_fame,
                "reward": {"kind": card.reward.kind, "amount": card.reward.amount}}
    if kind == "specialty":
        return {"icons": list(card.icons)}
    if kind == "gear":
        sectors = []
        for sec in card.sectors:
            entry = {"reward": sec.reward}
            names = GEAR_INDICATES.get(sec.reward)
            if names:
                key = {INKS: "inks", LETTERS: "letters", SPECIALTIES: "specialties"}[names]
                entry[key] = list(sec.indicates)
            sectors.append(entry)
        out: dict[str, Any] = {"sectors": sectors}
        if card.white_line:
            out["white_line"] = True
        return out
    out = {"kind": card.kind}
    if card.specialties:
        out["specialties"] = {s: ROMAN[v] for s, v in card.specialties.items()}
    if card.inks:
        out["inks"] = dict(card.inks)
    if card.types:
        out["types"] = "".join(c * n for c, n in card.types.items())
    return out


def _unsupported(state, d) -> str | None:
    """Why the state is not at a decision point the format records (None if it is)."""
    phase = d["phase"]
    n_pending = d["n_pending"]
    if phase == _PH["TERMINAL"]:
        return "the game is over"
    if state.is_chance():
        return f"the state is at a chance node ({state.step_name()}); positions are decisions"
    if phase in (_PH["SETUP_DEAL"], _PH["DRAFT"], _PH["TYPES"], _PH["CHARACTERS"]):
        return f"the state is in the setup ({state.phase}); positions start at the first plan"
    if n_pending > 0:
        q = d["pending"][0]
        if phase == _PH["PLAN"] and q["kind"] == _PD["CAXTON"] and d["step"] == 0:
            return None
        if phase == _PH["REVEAL"] and q["kind"] == _PD["SHIFT"] and d["reveal_stage"] == 2:
            return None
        return (f"the state is in the middle of a decision ({state.step_name()}); positions "
                "record plan steps, a player's free actions before the plans, the main choice "
                "of a turn and fulfil turns before the first order is chosen")
    if phase == _PH["PLAN"]:
        return None
    if phase == _PH["TURN"]:
        if d["sub"] != _SUB["CHOOSE"]:
            return (f"the state is in the middle of a turn ({state.step_name()}: a card is "
                    "chosen, its follow-up is not); positions record a turn at its main choice")
        return None
    if phase == _PH["FULFIL"]:
        if any(m >= 0 for m in d["fulfil_mode"]) or d["fulfil_slot"] >= _FM["APPLIED_SLOT"]:
            return ("the state is in the middle of a fulfil turn (orders already chosen); "
                    "positions record a fulfil turn before its first choice")
        return None
    return f"the state is at {state.step_name()}, which positions do not record"


def position_of(state, catalogue: Catalogue | None = None, names=None, viewer=None) -> dict:
    """The position (a JSON-ready dict) of a ``CoreState`` at a decision point the format
    supports: a plan step, a player's free actions before the plans, a turn at its main
    choice, a fulfil turn before the first order is chosen, Caxton's wild ink, Gutenberg's
    shift. Raises :class:`PositionError`
    (source "state") otherwise.

    Cards are written as catalogue ids of ``catalogue`` (default: the built-in one); a
    card of the state's catalogue that differs from it is written inline. ``names``
    optionally gives the players' names. With ``viewer`` (a seat), the position is the
    one that player can write down: plans committed this plan step that they have not
    seen are ``"hidden"``.
    """
    from gutenberg_ai.games import core_of
    state = core_of(state)    # a pyspiel state too, as every game's position_of takes
    d = state.to_dict()
    why = _unsupported(state, d)
    if why:
        raise PositionError("state", "", why)
    rules = state.rules
    cat = rules.catalogue
    base = catalogue if catalogue is not None else default_catalogue()
    common = {a: getattr(base, a) for a in _CAT_ATTR.values()}
    if dataclasses.replace(cat, **common) != base:
        raise PositionError("state", "", "the game's catalogue differs from the base catalogue "
                                         "beyond its cards; pass the game's catalogue as "
                                         "catalogue=")
    n_seats = d["num_seats"]
    n_people = d["num_players"]
    aseat = d["automa_seat"]

    def card(kind: str, x: int):
        c = getattr(cat, _CAT_ATTR[kind])[x]
        if c == getattr(base, _CAT_ATTR[kind])[x]:
            return f"{_LETTER[kind]}{x}"
        return _inline_out(kind, c)

    # Cards that differ from the base catalogue must be somewhere the position names.
    for kind, (deck, _discard, _box) in _STATE_PILES.items():
        for x in _bits(d[deck]):
            c = getattr(cat, _CAT_ATTR[kind])[x]
            if c != getattr(base, _CAT_ATTR[kind])[x]:
                raise PositionError("state", "", f"{_NOUN[kind]} {x} in the deck differs from the "
                                                 "base catalogue; pass the game's catalogue as "
                                                 "catalogue=")

    def seat_out(x: int):
        return "automa" if x == aseat else x

    def trim(values):
        values = list(values)
        while values and values[-1] is None:
            values.pop()
        return values

    lay = cat.board[n_seats]
    board: dict = {}
    spaces_of = (("printing", "printing_space", "printing", lay.printing),
                 ("refinement", "refinement_space", "refinement", lay.refinement),
                 ("specialty", "specialty_space", "specialty", lay.specialty),
                 ("gears", "gear_space", "gear", lay.gears))
    for key, field, kind, count in spaces_of:
        spaces = trim(None if x < 0 else card(kind, x) for x in d[field][:count])
        if spaces:
            board[key] = spaces
    inks = trim(None if all(c < 0 for c in sp) else [INKS[c] if c >= 0 else None for c in sp]
                for sp in d["ink_space"][:lay.ink_sets])
    if inks:
        board["inks"] = inks
    board["patronage"] = [None if x < 0 else card("patronage", x) for x in d["patronage_space"]]
    if any(x >= 0 for x in d["patronage_reward_seat"]):
        board["patronage_rewards"] = [None if x < 0 else seat_out(x)
                                      for x in d["patronage_reward_seat"]]

    # The step.
    phase = d["phase"]
    humans = [(d["first_player"] + k) % n_seats for k in range(n_seats)
              if (d["first_player"] + k) % n_seats != aseat]
    if phase == _PH["PLAN"] and d["n_pending"]:
        step = {"kind": "wild_ink", "player": d["pending"][0]["seat"]}
        planned: set[int] = set()
    elif phase == _PH["PLAN"] and d["sub"] >= 0:
        step = {"kind": "free_actions", "player": humans[d["sub"]]}
        planned = set()
    elif phase == _PH["PLAN"]:
        step = {"kind": "plan", "player": humans[d["step"]]}
        planned = set(humans[:d["step"]])
    elif phase == _PH["REVEAL"]:
        step = {"kind": "shift", "player": d["pending"][0]["seat"]}
        planned = set(humans)
    elif phase == _PH["TURN"]:
        step = {"kind": "turn", "player": d["turn_order"][d["turn"]], "action": ROWS[d["row"]]}
        planned = set(humans)
    else:
        step = {"kind": "fulfil", "player": humans[d["step"]]}
        planned = set(humans)

    out: dict = {"format": FORMAT, "version": VERSION,
                 "game": {"players": n_people, "rounds": d["rounds"],
                          "characters": bool(d["characters"]), "automa": aseat >= 0},
                 "round": d["round"], "first_player": seat_out(d["first_player"]),
                 "step": step, "board": board,
                 "bag": {c: n for c, n in zip(INKS, d["bag"])}}
    rulebook = [MARKERS_FIRST + (seat - d["first_player"]) % n_seats for seat in range(n_seats)]
    held = [d["players"][seat]["markers"] for seat in range(n_seats)]
    if held != rulebook and d["phase"] != _PH["SETUP_DEAL"]:
        if len(set(held)) != 1 or aseat >= 0:
            raise PositionError("state", "markers", f"{held} markers: neither the rulebook's "
                                f"{rulebook} nor one variant count for every player")
        out["game"]["markers"] = held[0]
    for pile, index in (("discard", 1), ("out_of_game", 2)):
        piles = {}
        for key, kind in _PILE_KEYS.items():
            mask = d[_STATE_PILES[kind][index]]
            if kind == "gear" and pile == "out_of_game" and n_seats == 2:
                mask &= ~sum(1 << g.id for g in cat.gears if g.white_line)
            if mask:
                piles[key] = [card(kind, x) for x in _bits(mask)]
        if piles:
            out[pile] = piles
    players = []
    for seat in range(n_people):
        p = d["players"][seat]
        entry: dict = {}
        if names is not None and seat < len(names) and names[seat] is not None:
            entry["name"] = names[seat]
        entry["fame"] = p["fame"]
        entry["guilders"] = p["guilders"]
        entry["types"] = "".join(c * n for c, n in zip(LETTERS, p["types"]))
        if any(p["inks"]):
            entry["inks"] = {c: n for c, n in zip(INKS, p["inks"]) if n}
        if any(p["levels"]):
            entry["specialties"] = {s: ROMAN[v] for s, v in zip(SPECIALTIES, p["levels"]) if v}
        top = max(p["levels"])
        if p["track"] != sum(1 for t in cat.reward_track if t.level <= top):
            entry["track"] = p["track"]
        orders = trim(None if p["order_printing"][k] < 0 else
                      [card("printing", p["order_printing"][k]),
                       card("refinement", p["order_refinement"][k])] for k in range(MAX_ORDERS))
        if orders:
            entry["orders"] = orders
        gears = []
        for k in range(MAX_INSTALLED):
            if p["gear"][k] >= 0:
                g = {"gear": card("gear", p["gear"][k]), "active": p["gear_active"][k] + 1}
                if p["gear_used"][k]:
                    g["used"] = True if p["gear_used"][k] == 1 else p["gear_used"][k]
                gears.append(g)
        if gears:
            entry["gears"] = gears
        if p["patronage"]:
            entry["patronage"] = p["patronage"]
        if p["character"] >= 0:
            entry["character"] = CHARACTERS[p["character"]]
            back = [x for x in p["character_drawn"] if x >= 0 and x != p["character"]]
            if back and (viewer is None or viewer == seat):    # the others never saw it
                entry["character_put_back"] = CHARACTERS[back[0]]
        if p["wild_ink"] >= 0:
            entry["wild_ink"] = INKS[p["wild_ink"]]
        if p["character_flags"] & 1:
            entry["plantin_swapped"] = True
        if seat in planned:
            unseen = viewer is not None and not state.plan_visible(seat, viewer)
            entry["plan"] = "hidden" if unseen else _plan_dict(p["plan"])
        players.append(entry)
    out["players"] = players
    if aseat >= 0:
        a = d["players"][aseat]
        gone = ((1 << len(cat.automa.planning)) - 1) & ~d["automa_deck"]
        used = [x for x in _bits(gone) if x != d["automa_card"]]
        automa = {"plan": _plan_dict(a["plan"]), "used_cards": used,
                  "card": None if d["automa_card"] < 0 else d["automa_card"]}
        if a["patronage"]:
            automa["patronage"] = a["patronage"]
        out["automa"] = automa
    return out


def save_position(state, path: str | os.PathLike, catalogue: Catalogue | None = None,
                  names=None, viewer=None) -> dict:
    """Write :func:`position_of` ``state`` (a CoreState, or a pyspiel state: its
    CoreState) to ``path`` as JSON (UTF-8) and return it."""
    from gutenberg_ai.games import core_of
    state = core_of(state)
    data = position_of(state, catalogue=catalogue, names=names, viewer=viewer)
    text = _dumps(data)
    pathlib.Path(path).write_text(text + "\n", encoding="utf-8")
    return data


def _dumps(data) -> str:
    """JSON with short lists on one line (a position stays readable)."""
    def compact(value, indent):
        pad = "  " * indent
        if isinstance(value, dict):
            if not value:
                return "{}"
            flat = json.dumps(value)
            if len(flat) <= 88 - len(pad) and not any(isinstance(v, (dict, list)) and v
                                                      for v in value.values()) or len(flat) <= 60:
                return flat
            items = [f'{pad}  {json.dumps(k)}: {compact(v, indent + 1)}' for k, v in value.items()]
            return "{\n" + ",\n".join(items) + f"\n{pad}}}"
        if isinstance(value, list):
            flat = json.dumps(value)
            if len(flat) <= 88 - len(pad):
                return flat
            items = [f"{pad}  {compact(v, indent + 1)}" for v in value]
            return "[\n" + ",\n".join(items) + f"\n{pad}]"
        return json.dumps(value)
    return compact(data, 0)


# ---------------------------------------------------------------------------------------
# Playing from a position (gutenberg-ai play --position)
# ---------------------------------------------------------------------------------------
def plan_order(state_dict) -> list:
    """The people in plan order: seat order from the first player, the automa skipped."""
    n, first, automa = state_dict["num_seats"], state_dict["first_player"], state_dict["automa_seat"]
    return [(first + i) % n for i in range(n) if (first + i) % n != automa]


def position_start(data: dict, pos, seed: int = 0) -> tuple[dict, list, str]:
    """A position whose plans are hidden, made playable: the plans written "hidden" are
    not stand-ins to play with but decisions still to make. Returns (position data to
    start from, presets, what to tell the person): the position rewound to the turn of
    the first seat, in plan order, whose plan is hidden (that seat plans again: the AI
    searches, a person is asked), and the plans the file gives for the seats after it,
    as (seat, allocation) to play for them when their turn comes (preset_action). A
    position without hidden plans is returned as it is, with no presets."""
    if not pos.hidden_plans:
        return data, [], ""
    d = pos.state.to_dict()
    order = plan_order(d)
    committed = order[:d["step"]]
    first = min(committed.index(seat) for seat in pos.hidden_plans)
    rewound = {**data, "players": [dict(p) for p in data["players"]]}
    rewound["step"] = {"kind": "plan", "player": order[first]}
    presets = []
    for seat in committed[first:]:
        rewound["players"][seat].pop("plan", None)
        if seat not in pos.hidden_plans:
            presets.append((seat, tuple(d["players"][seat]["plan"])))
    hidden = ", ".join(seat_names(pos.names)[seat] for seat in pos.hidden_plans)
    note = (f"The position hides the plan of {hidden}: planned again now, from the first of them "
            "in plan order.")
    return rewound, presets, note


def preset_action(core, legal, preset, start_round: int):
    """The move a preset of position_start stands for, if it is to be played now: the
    plan the position gave the seat to act, in the position's first plan step."""
    if core.round != start_round or core.phase != "plan":
        return None
    for a in legal:
        if a < _core.ACTIONS["PRINTING"] and tuple(_core.plan_of(a)) == tuple(preset):
            return a
    return None
