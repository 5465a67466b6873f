"""Position files of Printing Press: a game as it stands on a table, as JSON.

A person writes down the round, whose decision it is, the orders or cards on offer, and
each player's character and side, cubes, orders, bonus markers, closed frames, tableau
and tokens; :func:`load_position` checks it and returns the engine's state at exactly
that decision. :func:`position_of` writes the position of a state (with `viewer`, the
others' tokens they have not seen as "hidden"), :func:`save_position` to a file. The
format is the JSON Schema ``data/position.schema.json`` and
``docs/printing_press/positions.md``; the shared machinery (reading, the schema's words,
the error listing every problem with its place) is gutenberg_ai.games.positionfile and
gutenberg_ai.common.jsonfile.

    from gutenberg_ai.games.printing_press.position import load_position
    pos = load_position("my_table.json")
    pos.state.legal_actions()            # the choices of the player to act

A tableau is written as rows of the codes the terminal shows (view.py): the letters
A I O U, the inks blu red yel gry, the specialties Typ Woo Bnd Ill (or their full
names), `*` an initiative icon, `-` a blank square, `.` an empty cell, and after a
code `'` for a symbol token (`*'` one initiative side up) or `+` for Guillard's token:
``"tableau": ["A   blu  *", ".  Typ'  I"]``, its first row and column not empty.

What is not written is derived: the bag holds the 48 tokens that are nowhere else, the
decks every card, frame and plate not on the table (or in `cards_out`, `orders_out`),
the pool the cubes nobody holds; each player's points are what their closed frames
scored. Tokens written "hidden" (another player's setup tokens or tokens face down)
get stand-ins drawn from the bag's symbols; a search redraws them (what the player to
act has not seen), and `gutenberg-ai play --position` deals them with its seed.
"""
from __future__ import annotations

import functools
import json
import os
import pathlib
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from gutenberg_ai.common.jsonfile import (Problem, Problems, SchemaChecker, packaged_json, places_beside,
                                          readable_json, shaped, show, structure_problems)
from gutenberg_ai.games.positionfile import (AtDecision, PositionError, seat_names, not_a_position, position_catalogue, read_position,
                                      schema_checker)

from . import _core
from . import names as pp_names
from . import catalogue as _catalogue_module
from .catalogue import Catalogue, default_catalogue
from .game import START_FORMAT, StartError, start_from_data

__all__ = ["FORMAT", "VERSION", "Position", "PositionError", "load_position", "position_from_data",
           "position_of", "position_schema", "save_position", "STEPS"]

FORMAT = "printing-press-position"
VERSION = 1
SCHEMA_NAME = "position.schema.json"
MAX_ITEMS = 90              # the longest list: cards_out
STEPS = ("orders", "cards", "place", "markers", "close")
HIDDEN = "hidden"

PH = _core.PHASES
SUB = _core.SUBS
SLOT = _core.SLOTS
CELL = _core.CELL
GRID = _core.GRID_SIZE
N_SYMBOLS = len(pp_names.SYMBOLS)
ICON, BLANK = CELL["INITIATIVE"], CELL["BLANK"]
TOKEN, ABILITY = CELL["TOKEN"], CELL["ABILITY"]
SETUP_TOKENS = 3            # the rulebook's (core.pyx SETUP_TOKENS); 1 with one_token; Caxton A +1
MARKERS = 3
CAXTON_SLOT = 4             # the hand slot of the token Caxton (side B) takes from the bag (MAX_HAND - 1)
# A setup token once used: {"up": symbol} placed symbol side up, {"down": ...} initiative
# side up, {"returned": ...} given back to the bag (Caxton, side B); the slot's state.
USED = {"up": SLOT["UP"], "down": SLOT["DOWN"], "returned": SLOT["RETURNED"]}
USED_OF = {v: k for k, v in USED.items()}

# The codes of a square (view.py draws them), lower case, and their cell values.
_CODES = {".": -1, "*": ICON, "-": BLANK}
for _i, (_short, _name) in enumerate(zip(pp_names.SHORT, pp_names.SYMBOLS)):
    _CODES[_short.lower()] = _i
    _CODES[_name.lower()] = _i
_CODES["gray"] = pp_names.SYMBOLS.index("grey")
_SHORT_OF = {v: k for k, v in ((pp_names.SHORT[i], i) for i in range(N_SYMBOLS))}


@dataclass(frozen=True)
class Position(AtDecision):
    """A loaded position: ``state`` a fresh CoreState at its decision, following
    ``rules``; ``game_params`` the parameters of the OpenSpiel game ``printing_press``;
    ``step`` the decision ({"kind", "player", ...}); ``names`` the players' names (None
    where not given); ``hidden_tokens`` the seats with tokens written "hidden" (the state
    holds stand-ins); ``data`` the position as read."""

    rules: Any
    state: Any
    catalogue: Catalogue
    game_params: dict
    step: dict
    source: str = "position"
    names: tuple = ()
    hidden_tokens: tuple = ()
    data: dict = field(default_factory=dict, repr=False, compare=False)


# ---------------------------------------------------------------------------------------
# The JSON Schema
# ---------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=1)
def position_schema() -> dict:
    """The JSON Schema (draft 2020-12) of Printing Press position files."""
    return packaged_json(__package__, SCHEMA_NAME)


def _checker() -> SchemaChecker:
    return schema_checker(__package__, SCHEMA_NAME)


# ---------------------------------------------------------------------------------------
# Small parsers (the values have passed the schema)
# ---------------------------------------------------------------------------------------
def parse_row(text: str, where: str) -> list[int]:
    """A row of square codes -> cell values; Problem naming the column at fault."""
    out = []
    for k, code in enumerate(text.split()):
        mark = code[-1] if code[-1] in "'+" and len(code) > 1 else ""
        base = code[:-1] if mark else code
        v = _CODES.get(base.lower())
        if v is None:
            raise Problem(where, f"{show(code)} (column {k + 1}) is not a square: A I O U, blu red yel gry, "
                                 "Typ Woo Bnd Ill, * (initiative), - (blank), . (empty)")
        if mark == "'":
            if v == -1 or v == BLANK:
                raise Problem(where, f"{show(code)} (column {k + 1}): a token shows a symbol or, face down, *")
            v |= TOKEN
        elif mark == "+":
            if not 0 <= v < N_SYMBOLS or pp_names.SYMBOLS[v] in pp_names.LETTERS:
                raise Problem(where, f"{show(code)} (column {k + 1}): Guillard's token is an ink or a specialty")
            v |= ABILITY
        out.append(v)
    return out


def cell_code(v: int) -> str:
    """A cell value as its code (the inverse of parse_row's)."""
    if v < 0:
        return "."
    base = v & 15
    code = pp_names.SHORT[base] if base < N_SYMBOLS else "*" if base == ICON else "-"
    return code + ("'" if v & TOKEN else "+" if v & ABILITY else "")


def row_text(cells) -> str:
    """A row of cells as codes in columns 4 wide (a file's rows line up)."""
    return " ".join(f"{cell_code(v):<4}" for v in cells).rstrip()


def _character(name: str, where: str) -> int:
    low = name.strip().lower()
    for i, full in enumerate(pp_names.CHARACTERS):
        if low in (full.lower(), full.split()[-1].lower()):
            return i
    raise Problem(where, f"{show(name)} is not a character (one of {', '.join(pp_names.CHARACTERS)})")


def _icons(cells) -> int:
    return sum(1 for v in cells if v >= 0 and (v & 15) == ICON)


# ---------------------------------------------------------------------------------------
# The loader
# ---------------------------------------------------------------------------------------
class _Loader:
    """Builds the state of a position that passed the schema: each part that can be
    checked on its own records its problem and the loader goes on; it stops where what
    follows depends on a part with problems."""

    def __init__(self, data: dict, catalogue: Catalogue):
        self.data = data
        self.cat = catalogue
        self.found = Problems()

    def load(self):
        found = self.found
        with found.each():
            self.game()
        found.stop()
        for seat in range(self.n_people):
            with found.each():
                self.player(seat)
        with found.each():
            self.automa()
        found.stop()
        for part in (self.orders_and_cards, self.tokens, self.decision):
            with found.each():
                part()
            found.stop()
        return self

    # -- the game -----------------------------------------------------------------------
    def game(self):
        d = self.data
        g = d["game"]
        self.n_people = g["players"]
        self.params = {"players": g["players"], "variant": g.get("variant", "basic"),
                       "characters": g.get("characters", True), "rounds": g.get("rounds", 3)}
        for option in ("one_token", "automa_wins_ties", "hard_board"):
            if g.get(option):
                if self.n_people != 1:
                    raise Problem(f"game.{option}", "a solo difficulty option, and this game has "
                                                    f"{self.n_people} players")
                self.params[option] = True
        problems = []
        if len(d["players"]) != self.n_people:
            problems.append(("players", f"{len(d['players'])} players listed, game.players is {self.n_people}"))
        if d["round"] > self.params["rounds"]:
            problems.append(("round", f"round {d['round']}, but the game has {self.params['rounds']} rounds"))
        solo = self.n_people == 1
        if solo and "automa" not in d:
            problems.append(("automa", "missing: the solo game's automa (its points and solo board)"))
        if not solo and "automa" in d:
            problems.append(("automa", "there is no automa with more than one player"))
        if problems:
            ps = Problems()
            ps.found.extend(problems)
            raise ps
        self.rules = _core.Rules(self.cat, **self.params)
        self.s = self.rules.new_state().to_dict()
        self.n_seats = self.s["num_seats"]
        self.automa_seat = self.s["automa_seat"]
        self.round = d["round"]
        self.steps = self.cat.time_track[self.params["variant"]].card_steps
        self.names = tuple(p.get("name") for p in d["players"])
        self.hidden = []          # (seat, where, hand slot or None) of tokens written "hidden"
        self.unseen = []          # (seat, where) of tokens given back to the bag written "hidden"
        self.known = [0] * N_SYMBOLS
        self.kind = d["step"]["kind"]
        self.tiles: dict = {}         # character -> seat
        self.closed_now: dict = {}    # seat -> closed its frame this round (Close Frames)
        self.down_cells: dict = {}    # seat -> tokens face down in its tableau and frames

    # -- a player -----------------------------------------------------------------------
    def player(self, seat: int):
        d = self.data
        pd = d["players"][seat]
        w = f"players[{seat}]"
        p = self.s["players"][seat]
        found = Problems()
        with found.each():
            self.character(seat, pd, p, w)
        found.stop()
        p["cubes"] = pd.get("cubes", 0)
        # Orders: one a round so far (this round's once chosen).
        orders = pd.get("orders", [])
        for r, (f, pl) in enumerate(orders):
            p["order_frame"][r] = f - 1
            p["order_plate"][r] = pl - 1
        with found.each():
            chosen = self.round if self.kind != "orders" else None
            if chosen is not None and len(orders) != self.round:
                raise Problem(f"{w}.orders", f"{len(orders)} orders, but every player has one for each round "
                                             f"so far ({self.round}) once Select Orders is over")
            if len(orders) not in (self.round - 1, self.round):
                raise Problem(f"{w}.orders", f"{len(orders)} orders in round {self.round}: one a round")
        with found.each():
            self.grids(seat, pd, p, w)
        with found.each():
            self.markers(seat, pd, p, w)
        with found.each():
            self.hand(seat, pd, p, w)
        found.stop()

    def character(self, seat, pd, p, w):
        ch, side = pd.get("character"), pd.get("side")
        if not self.params["characters"]:
            for key in ("character", "side", "ability"):
                if key in pd:
                    raise Problem(f"{w}.{key}", "game.characters is false: no character tiles")
            p.update(character=-1, side=-1, ability=0)
            return
        if ch is None:
            raise Problem(f"{w}.character", "missing: the game is played with character tiles")
        if side is None:
            raise Problem(f"{w}.side", "missing: the side of the tile the player chose (A or B)")
        x = _character(ch, f"{w}.character")
        if x in self.tiles:
            raise Problem(f"{w}.character", f"{pp_names.CHARACTERS[x]} is also players[{self.tiles[x]}]'s")
        self.tiles[x] = seat
        p["character"], p["side"] = x, pp_names.SIDES.index(side)
        token = x == pp_names.CHARACTERS.index("Johannes Gutenberg") or \
            (x == pp_names.CHARACTERS.index("William Caxton") and side == "A")
        if "ability" in pd and pd["ability"] and token:
            raise Problem(f"{w}.ability", f"{pp_names.CHARACTERS[x]} (side {side}) has no ability token")
        p["ability"] = 0 if token else int(pd.get("ability", True))

    def grids(self, seat, pd, p, w):
        found = Problems()
        closed = pd.get("closed", [])
        closing_done = self.kind == "close"   # checked against the order in decision()
        if len(closed) > self.round or len(closed) < self.round - 1:
            raise Problem(f"{w}.closed", f"{len(closed)} closed frames in round {self.round}: one for each "
                                         "round before it (and this round's once closed)")
        self.closed_now[seat] = len(closed) == self.round and closing_done
        if len(closed) == self.round and not closing_done:
            raise Problem(f"{w}.closed", f"a frame for round {self.round}: frames close at Close Frames "
                                         f"(the step is '{self.kind}')")
        for r, rows in enumerate(closed):
            cells = []
            for i, row in enumerate(rows):
                with found.each():
                    values = parse_row(row, f"{w}.closed[{r}][{i}]")
                    if len(values) != 3:
                        raise Problem(f"{w}.closed[{r}][{i}]", f"{len(values)} squares, a frame's row has 3")
                    cells += values
            if len(cells) == 9:
                p["closed"][r] = cells
        tableau = pd.get("tableau", [])
        grid = []
        for i, row in enumerate(tableau):
            with found.each():
                grid.append(parse_row(row, f"{w}.tableau[{i}]"))
        found.stop()
        if grid:
            width = len(grid[0])
            for i, row in enumerate(grid):
                if len(row) != width:
                    raise Problem(f"{w}.tableau[{i}]", f"{len(row)} squares, the first row has {width}; write "
                                                       "'.' for an empty cell")
            if width > GRID:
                raise Problem(f"{w}.tableau", f"{width} columns, a round's tableau spans at most {GRID}")
            if all(v < 0 for v in grid[0]):
                raise Problem(f"{w}.tableau[0]", "empty: write the tableau from its top row")
            if all(row[0] < 0 for row in grid):
                raise Problem(f"{w}.tableau", "its first column is empty: write it from its leftmost column")
            if all(v < 0 for v in grid[-1]) or all(row[-1] < 0 for row in grid):
                raise Problem(f"{w}.tableau", "its last row or column is empty: leave it out")
        if grid and self.closed_now.get(seat):
            raise Problem(f"{w}.tableau", "the frame of this round is closed: the rest of the tableau has "
                                          "left the game (leave it out)")
        for r, row in enumerate(grid):
            for c, v in enumerate(row):
                p["grid"][r][c] = v
        p["height"], p["width"] = len(grid), len(grid[0]) if grid else 0
        least = derived_pieces(grid)
        p["pieces"] = pd.get("pieces", least)
        if p["pieces"] < least or (p["pieces"] > 0) != (least > 0):
            raise Problem(f"{w}.pieces", f"{p['pieces']}, but the tableau shows "
                                         + (f"at least {least} (its tokens, and a card for every 3 card squares)"
                                            if least else "nothing placed this round"))
        everything = [v for row in grid for v in row] + [v for r in range(len(closed)) for v in p["closed"][r]]
        for v in everything:
            if v >= 0 and v & TOKEN and (v & 15) < N_SYMBOLS:
                self.known[v & 15] += 1
        self.down_cells[seat] = sum(1 for v in everything if v >= 0 and v & TOKEN and (v & 15) == ICON)
        guillard = [v for v in everything if v >= 0 and v & ABILITY]
        if guillard:
            if p["character"] != pp_names.CHARACTERS.index("Charlotte Guillard"):
                raise Problem(f"{w}.tableau", "a '+' token is Charlotte Guillard's")
            kind = pp_names.KINDS[(guillard[0] & 15) // 4]
            want = "ink" if p["side"] == 0 else "specialty"
            if len(guillard) > 1 or kind != want:
                raise Problem(f"{w}.tableau", f"Guillard has one token, side {pp_names.SIDES[p['side']]} an {want}")
            if p["ability"]:
                raise Problem(f"{w}.ability", "true, but Guillard's token is in the tableau: it is used")

    def markers(self, seat, pd, p, w):
        placed = pd.get("bonus_markers", [])
        total = MARKERS
        gutenberg = p["character"] == pp_names.CHARACTERS.index("Johannes Gutenberg")
        if gutenberg and p["side"] == 1:
            total += 1
        for k, m in enumerate(placed):
            r, j = m["round"] - 1, m["slot"] - 1
            where = f"{w}.bonus_markers[{k}]"
            if p["order_frame"][r] < 0:
                raise Problem(where, f"round {r + 1}: the player has no order (frame) that round")
            if r + 1 == self.round and (self.kind in ("orders",) or self.kind in ("cards", "place") and
                                        self.data["step"].get("card_step", 1) - 1 <= self.marked()):
                raise Problem(where, f"round {r + 1}: bonus markers are placed after the round's marked step "
                                     f"({self.marked() + 1})")
            if p["marker"][r * 2 + j]:
                raise Problem(where, f"slot {j + 1} of round {r + 1}'s frame holds a marker already")
            if m["value"] == 3 and not (gutenberg and p["side"] == 0):
                raise Problem(f"{where}.value", "3 is the 1/3 marker's, Gutenberg's (side A)")
            p["marker"][r * 2 + j] = m["value"]
        side_b = gutenberg and p["side"] == 1
        self.marker_values(p, w, {(m["round"] - 1, m["slot"] - 1): k for k, m in enumerate(placed)},
                           gutenberg and p["side"] == 0, side_b)
        # Gutenberg (side B) places his extra "1" with a 1/2 marker, on the other slot of
        # the same frame: a frame with two markers shows it placed (rulings.md).
        extra_placed = side_b and any(p["marker"][r * 2] and p["marker"][r * 2 + 1]
                                      for r in range(len(p["marker"]) // 2))
        if "markers_left" in pd:
            half, third = pd["markers_left"]
        elif side_b:
            third = 0 if extra_placed else 1
            half = MARKERS - (len(placed) - extra_placed)
        else:
            third = 1 if gutenberg and not any(m["value"] == 3 for m in placed) and len(placed) < total else 0
            half = total - len(placed) - third
        if half < 0 or third not in (0, 1) or (third and not gutenberg):
            raise Problem(f"{w}.markers_left", f"[{half}, {third}]: the player has {total} bonus markers"
                                               + (", the 1/3 marker among them" if gutenberg else ""))
        if side_b and extra_placed and third:
            raise Problem(f"{w}.markers_left", f"[{half}, {third}]: a frame holds two markers, so Gutenberg's "
                                               "extra '1' marker is placed (0 left)")
        if len(placed) + half + third != total and not side_b or \
                side_b and len(placed) - extra_placed + half != MARKERS:
            raise Problem(f"{w}.bonus_markers", f"{len(placed)} placed and {half + third} left: the player has "
                                                f"{total} bonus markers")
        p["markers"], p["marker13"] = half, third

    def marker_values(self, p, w, entry: dict, side_a: bool, side_b: bool):
        """Each round's markers as the rules place them (p.11): one in each round with a
        marked step, from round 1 on (Gutenberg's side B: his extra "1" with it, on the
        frame's other slot), "2" side up, or "1" on a symbol that a "2" (or the 1/3
        marker's "3": rulings.md) marks from an earlier round; Gutenberg's 1/3 marker
        (side A) "3", or "1" so.
        `entry`: (round, slot) -> the index of its bonus_markers entry."""
        track = self.cat.time_track[self.params["variant"]]
        high: set[str] = set()     # symbols marked high side up in earlier rounds
        for r in range(len(p["marker"]) // 2):
            values = p["marker"][r * 2:r * 2 + 2]
            if not any(values):
                if r + 1 < self.round and p["order_frame"][r] >= 0 and track.bonus_after[r] > 0:
                    raise Problem(f"{w}.bonus_markers", f"round {r + 1} has no marker, but each player places "
                                                        "one a round, after its marked step")
                continue
            slots = self.cat.frames[p["order_frame"][r]].bonus
            due = [1 if slots[j] in high else 2 for j in (0, 1)]
            if all(values):
                where = f"{w}.bonus_markers[{entry[(r, 1)]}]"
                if not side_b:
                    raise Problem(where, f"round {r + 1}'s frame holds a marker already: one a round (only "
                                         "Gutenberg's side B places two, his extra '1' beside one)")
                if not any(values[j] == due[j] and values[1 - j] == 1 for j in (0, 1)):
                    raise Problem(where, f"round {r + 1}: Gutenberg's two markers show {values[0]} and "
                                         f"{values[1]}: his extra one shows 1, the other {due[0]} on "
                                         f"{slots[0]} or {due[1]} on {slots[1]}")
            else:
                j = 0 if values[0] else 1
                shown = {due[j], 3 if due[j] == 2 else 1} if side_a else {due[j]}
                if values[j] not in shown:
                    raise Problem(f"{w}.bonus_markers[{entry[(r, j)]}].value", (
                        f"{values[j]}, but {slots[j]} is marked from an earlier round: the next marker on "
                        "it shows 1") if due[j] == 1 else (
                        f"{values[j]}, but {slots[j]} is not marked from an earlier round: a marker on it "
                        "shows " + ("2 (the 1/3 marker 3)" if side_a else "2")))
            high |= {slots[j] for j in (0, 1) if values[j] > 1}

    def marked(self) -> int:
        """The round's marked Select Cards step, 0-based."""
        return self.cat.time_track[self.params["variant"]].bonus_after[self.round - 1] - 1

    def hand(self, seat, pd, p, w):
        due = 1 if self.params.get("one_token") else SETUP_TOKENS
        if p["character"] == pp_names.CHARACTERS.index("William Caxton") and p["side"] == 0:
            due += 1
        hand = pd.get("setup_tokens", [])
        caxton_b = p["character"] == pp_names.CHARACTERS.index("William Caxton") and p["side"] == 1
        if len(hand) > due + (1 if caxton_b else 0):
            raise Problem(f"{w}.setup_tokens", f"{len(hand)} tokens, the player took {due} at setup"
                          + (" (and Caxton's one from the bag)" if caxton_b else ""))
        if caxton_b and (len(hand) > due) != (not p["ability"]):
            raise Problem(f"{w}.setup_tokens", f"{len(hand)} tokens: Caxton takes one from the bag (setup_tokens"
                                               f"[{due}]) exactly when he uses his ability token (ability: "
                                               f"{str(bool(p['ability'])).lower()})")
        returned = []
        setup_down = 0
        for k, x in enumerate(hand):
            slot = k if k < due else CAXTON_SLOT     # Caxton's token from the bag has its own slot
            where = f"{w}.setup_tokens[{k}]"
            if x is None:                  # used: its token is in the tableau, or gone
                p["slot"][slot], p["hand"][slot] = SLOT["UP"], 0
                continue
            if isinstance(x, dict):        # used, and how: {"up": X}, {"down": X}, {"returned": X}
                (how, x), = x.items()
                p["slot"][slot] = USED[how]
                if how == "returned":
                    returned.append(where)
                    p["hand"][slot] = 0 if x == HIDDEN else pp_names.SYMBOLS.index(x)
                    if x == HIDDEN:
                        self.unseen.append((seat, where))
                    continue
                if how == "up":            # in sight in the tableau (or covered: tokens_out)
                    if x == HIDDEN:
                        raise Problem(where, "'hidden', but a token placed symbol side up shows its symbol")
                    p["hand"][slot] = pp_names.SYMBOLS.index(x)
                    continue
                setup_down += 1            # face down: counted as the face_down tokens are
            else:
                p["slot"][slot] = SLOT["HAND"]
            if x == HIDDEN:
                self.hidden.append((seat, where, slot))
                p["hand"][slot] = -1       # a stand-in, drawn in tokens()
            else:
                p["hand"][slot] = pp_names.SYMBOLS.index(x)
                self.known[p["hand"][slot]] += 1
        if returned and not (caxton_b and not p["ability"]):
            raise Problem(returned[0], "a token given back to the bag: only Caxton (side B) does, with his ability")
        if len(returned) not in (0, 2):
            raise Problem(returned[0], f"{len(returned)} tokens given back: Caxton gives 2 for the one he takes")
        for k in range(len(hand), due):
            p["slot"][k], p["hand"][k] = SLOT["UP"], 0     # used: its token is in the tableau, or gone
        p["n_setup"] = due
        down = pd.get("face_down", [])
        if len(down) + setup_down < self.down_cells.get(seat, 0):
            raise Problem(f"{w}.face_down", f"{len(down) + setup_down} tokens, but {self.down_cells[seat]} lie "
                                            "face down in the tableau and frames ('*'')")
        p["hidden_out"] = [0] * N_SYMBOLS
        for k, x in enumerate(down):
            if x == HIDDEN:
                self.hidden.append((seat, f"{w}.face_down[{k}]", None))
            else:
                p["hidden_out"][pp_names.SYMBOLS.index(x)] += 1
                self.known[pp_names.SYMBOLS.index(x)] += 1

    # -- the automa ---------------------------------------------------------------------
    def automa(self):
        if self.automa_seat < 0:
            return
        a = self.data["automa"]
        s = self.s
        p = s["players"][self.automa_seat]
        p["fame"] = a["points"]
        p["cubes"] = a.get("cubes", 0)
        p["columns"] = list(a.get("columns", [0, 0, 0, 0]))
        kinds = self.cat.solo_board.choices
        for r, row in enumerate(a["board"]):
            for k, x in enumerate(row):
                want = kinds[r][k]
                if pp_names.KINDS[pp_names.SYMBOLS.index(x) // 4] != want:
                    raise Problem(f"automa.board[{r}][{k}]", f"{show(x)}: this space of the solo board takes a {want}")
                s["solo"][r][k] = pp_names.SYMBOLS.index(x)
                if r >= self.round - 1:          # earlier rounds' tokens are back in the bag
                    self.known[s["solo"][r][k]] += 1
        s["solo_dealt"] = 9
        s["solo_returned"] = self.round - 1

    # -- orders and cards ---------------------------------------------------------------
    def orders_and_cards(self):
        d, s = self.data, self.s
        found = Problems()
        places = list(_numbered_places(d, self.kind == "place"))
        for where, reason in _in_two_places(places):
            found.add(where, reason)
        frames = {x - 1 for what, _, x in places if what == "frame"}
        plates = {x - 1 for what, _, x in places if what == "plate"}
        cards = {x - 1 for what, _, x in places if what == "card"}
        offered = d.get("orders", [])
        if offered and self.kind != "orders":
            found.add("orders", f"orders are on offer at Select Orders only (the step is '{self.kind}')")
        for i, o in enumerate(offered):
            if o is not None:
                s["offer_frame"][i], s["offer_plate"][i] = o[0] - 1, o[1] - 1
        s["frame_deck"] = sum(1 << x for x in range(16) if x not in frames)
        s["plate_deck"] = sum(1 << x for x in range(16) if x not in plates)
        s["n_orders"] = len(offered) if self.kind == "orders" else 0
        offer = d.get("offer", [])
        if offer and self.kind not in ("cards", "place"):
            found.add("offer", f"cards are on offer at Select Cards only (the step is '{self.kind}')")
        for i, x in enumerate(offer):
            if x is not None:
                s["offer"][i] = x - 1
        taken = d["step"].get("card")
        if self.kind == "place":
            if taken is None:
                found.add("step.card", "missing: the card the player took and is to place")
            else:
                s["taken"] = taken - 1
        elif taken is not None:
            found.add("step.card", "a card taken belongs to a 'place' step only")
        # Each Select Cards step deals one card more than the seats (p.9), so no more
        # can have left the deck than the steps dealt so far give.
        steps = (self.round - 1) * self.steps + (d["step"].get("card_step") or 0 if self.kind in ("cards", "place")
                                                 else 0 if self.kind == "orders" else self.steps)
        if len(cards) > (self.n_seats + 1) * steps:
            found.add("cards_out", f"{len(cards)} cards out of the deck (on offer, taken, out), but "
                                   f"{steps} Select Cards step{'s' if steps != 1 else ''} of {self.n_seats + 1} "
                                   f"cards deal at most {(self.n_seats + 1) * steps}")
        deck = [x for x in range(90) if x not in cards]
        s["card_deck"] = [sum(1 << x for x in deck if x < 64), sum(1 << (x - 64) for x in deck if x >= 64)]
        s["cards_dealt"] = 90 - len(deck)
        s["n_offer"] = s["n_deal"] = len(offer) if self.kind in ("cards", "place") else 0
        if self.params["characters"]:      # the tiles nobody holds (none without characters)
            s["tiles"] = sum(1 << x for x in range(len(pp_names.CHARACTERS)) if x not in self.tiles)
        found.stop()

    # -- tokens ---------------------------------------------------------------------------
    def tokens(self):
        d, s = self.data, self.s
        for x in d.get("tokens_out", []):
            s["box_tokens"][pp_names.SYMBOLS.index(x)] += 1
        have = list(s["tokens"])
        left = [have[x] - self.known[x] - s["box_tokens"][x] for x in range(N_SYMBOLS)]
        for x in range(N_SYMBOLS):
            if left[x] < 0:
                raise Problem("tokens_out" if s["box_tokens"][x] else "players",
                              f"{have[x] - left[x]} {pp_names.SYMBOLS[x]} tokens in sight (tableaux, frames, hands, "
                              f"the solo board{', out of the game' if s['box_tokens'][x] else ''}); "
                              f"the game has {have[x]}")
        if sum(left) < len(self.hidden):
            raise Problem("players", f"{len(self.hidden)} hidden tokens, but only {sum(left)} are unaccounted for")
        # Stand-ins for the hidden tokens: drawn from what is left, with a seed of the
        # file's content, so the same file gives the same state (a search redraws them).
        rng = random.Random(json.dumps(d, sort_keys=True))
        pool = [x for x in range(N_SYMBOLS) for _ in range(left[x])]
        rng.shuffle(pool)
        for seat, where, slot in self.hidden:
            x = pool.pop()
            left[x] -= 1
            p = s["players"][seat]
            if slot is not None:
                p["hand"][slot] = x
            else:
                p["hidden_out"][x] += 1
        s["bag"] = left
        held = sum(s["players"][seat]["cubes"] for seat in range(self.n_seats))
        cubes = self.cat.initiative_cubes
        if held > cubes:
            raise Problem("players", f"{held} initiative cubes held, the game has {cubes}")
        s["cubes_left"] = cubes - held

    # -- the decision ---------------------------------------------------------------------
    def initiative(self, seat: int) -> int:
        p = self.s["players"][seat]
        if seat == self.automa_seat:
            return p["cubes"] + p["columns"][3]
        cells = [p["grid"][r][c] for r in range(p["height"]) for c in range(p["width"])]
        return p["cubes"] + _icons(cells) + _icons(v for fr in p["closed"] for v in fr)

    def tiebreak(self, seat: int) -> int:
        x = self.s["players"][seat]["character"]
        if seat == self.automa_seat:
            return 100 if self.params.get("automa_wins_ties") else 0
        if self.params["characters"] and x >= 0:
            return 10 + self.cat.characters[pp_names.CHARACTERS[x]]
        return 10 - seat

    def decision(self):
        d, s = self.data, self.s
        step = d["step"]
        kind, player = step["kind"], step["player"]
        if player >= self.n_people:
            raise Problem("step.player", f"{player} is not a player (0-{self.n_people - 1})")
        card_step = step.get("card_step")
        if kind in ("cards", "place"):
            if card_step is None:
                raise Problem("step.card_step", "missing: which Select Cards step of the round (1-"
                                                f"{self.steps})")
            if card_step > self.steps:
                raise Problem("step.card_step", f"{card_step}, the {self.params['variant']} game has "
                                                f"{self.steps} steps a round")
        elif card_step is not None:
            raise Problem("step.card_step", f"a Select Cards step belongs to a 'cards' or 'place' step "
                                            f"(the step is '{kind}')")
        with_automa = kind in ("cards", "place")
        seats = [q for q in range(self.n_seats) if with_automa or q != self.automa_seat]
        if kind in ("markers", "close"):
            # Who takes part: at bonus markers those with an order this round and a marker
            # to place when the step began (placed this round, or still held). The choices
            # do not touch one another (rulings.md), so those done may be any of them (a
            # table going by initiative, say): they come first, then the player to act,
            # then the rest in seat order, as the engine asks them.
            r = self.round - 1
            part = [q for q in range(self.n_people) if kind == "close" or (
                s["players"][q]["order_frame"][r] >= 0 and (
                    s["players"][q]["markers"] or s["players"][q]["marker13"]
                    or s["players"][q]["marker"][r * 2] or s["players"][q]["marker"][r * 2 + 1]))]
            done = [q for q in part if (self.closed_now.get(q) if kind == "close" else
                                        s["players"][q]["marker"][r * 2] or s["players"][q]["marker"][r * 2 + 1])]
            if player in done:
                raise Problem("step.player", f"players[{player}] has " + (
                    "closed their frame" if kind == "close" else "placed their marker") + " this round already")
            # (a stable sort puts the player to act, if taking part, first of those not done)
            order = done + sorted((q for q in part if q not in done), key=lambda q: q != player)
            if "order" in step and player in part:
                given = list(step["order"])
                if sorted(given) != part or sorted(given[:given.index(player)]) != done:
                    raise Problem("step.order", f"{given}: " + (
                        f"those who take part ({', '.join(map(str, part))}) once each" if sorted(given) != part else
                        f"those done this round ({', '.join(map(str, done)) or 'none'}) come before "
                        f"players[{player}], the others after"))
                order = given
        elif "order" in step:
            order = list(step["order"])
            if sorted(order) != sorted(seats):
                raise Problem("step.order", f"{order}: every {'participant' if with_automa else 'player'} "
                                            f"once ({', '.join(map(str, seats))}; the automa is seat "
                                            f"{self.automa_seat})" if self.automa_seat >= 0 else
                              f"{order}: every player once (0-{self.n_people - 1})")
        else:
            order = sorted(seats, key=lambda q: -(self.initiative(q) * 1000 + self.tiebreak(q)))
        if player not in order:
            raise Problem("step.player", f"players[{player}] has no turn at this step (the order is {order})")
        turn = order.index(player)
        phase = {"orders": PH["ORDERS"], "cards": PH["CARDS"], "place": PH["CARDS"], "markers": PH["MARKERS"],
                 "close": PH["CLOSE"]}[kind]
        s.update(round=self.round, phase=phase, sub=SUB["PLACE"] if kind == "place" else SUB["TAKE"],
                 step=(card_step - 1) if card_step else (self.marked() if kind == "markers" else
                                                        self.steps - 1 if kind == "close" else 0),
                 turn_order=order + [0] * (4 - len(order)), n_turns=len(order), turn=turn,
                 asking=-1, token_window=-1, first_seat=-1, held=0, caxton=0, n_pool=0, pool_due=0)
        if kind == "markers" and self.marked() < 0:
            raise Problem("step.kind", "this round has no marked step")
        # Who has acted this step: those before the player in its order.
        before = order[:turn]
        if kind == "orders":
            for q in order:
                has = len(d["players"][q].get("orders", [])) == self.round
                if has != (q in before):
                    raise Problem(f"players[{q}].orders", f"players[{q}] chooses {'before' if q in before else 'after'} "
                                                          f"players[{player}] (the order is {order}): "
                                                          f"{'this round' + chr(39) + 's order is missing' if q in before else 'no order for this round yet'}")
            taken = sum(1 for o in d.get("orders", []) if o is None)
            if taken != len(before):
                raise Problem("orders", f"{taken} orders taken from the offer, but {len(before)} players chose "
                                        f"before players[{player}]")
        if kind in ("cards", "place"):
            taken = sum(1 for x in d.get("offer", []) if x is None)
            want = len(before) + (1 if kind == "place" else 0)
            if taken != want:
                raise Problem("offer", f"{taken} cards taken from the offer (null), but {want} were taken "
                                       f"before players[{player}] {'placed' if kind == 'place' else 'takes'} "
                                       f"(the order is {order})")
            if not d.get("offer"):
                raise Problem("offer", "missing: the cards on offer this step, left to right")
        own = [where for seat, where, *_ in self.hidden + self.unseen if seat == player]
        if own:
            raise Problem(own[0], f"'hidden', but players[{player}] is to decide: their own tokens are "
                                  "theirs to see")
        self.player_to_act = player
        self.step_info = {"kind": kind, "player": player, "order": order}
        if card_step:
            self.step_info["card_step"] = card_step

    # -- the result -----------------------------------------------------------------------
    def build(self, source: str) -> Position:
        s = self.s
        try:
            state = self.rules.state_from_dict(s)
        except ValueError as e:
            raise Problem("", f"inconsistent position ({e})") from None
        # The points of the closed frames, as the rules score them.
        for seat in range(self.n_people):
            s["players"][seat]["fame"] = sum(r["total"] for r in state.score_breakdown(seat)["rounds"])
        state = self.rules.state_from_dict(s)
        cp = state.current_player()
        if cp != self.player_to_act:
            raise Problem("step", f"the engine finds {'chance' if cp < 0 else f'players[{cp}]'} to act here, "
                                  f"not players[{self.player_to_act}]")
        if not state.legal_actions():
            raise Problem("step", "nothing to decide here")
        hidden = tuple(sorted({seat for seat, *_ in self.hidden + self.unseen}))
        return Position(rules=self.rules, state=state, catalogue=self.cat, game_params=dict(self.params),
                        step=dict(self.step_info), source=source, names=self.names, hidden_tokens=hidden,
                        data=self.data)


def _numbered_places(d: dict, taken: bool) -> Iterator[tuple[str, str, Any]]:
    """Every place holding an order's frame or plate or a card, by its printed number:
    ("frame" / "plate" / "card", where, the number), in the order of the file; the card
    taken (step.card) with `taken`. A part of another shape is stepped over (a file the
    schema refused is walked too, for _duplicates_beside)."""
    for seat, p in enumerate(shaped(d.get("players"), list)):
        for r, order in enumerate(shaped(shaped(p, dict).get("orders"), list)):
            if isinstance(order, list) and len(order) == 2:
                yield "frame", f"players[{seat}].orders[{r}]", order[0]
                yield "plate", f"players[{seat}].orders[{r}]", order[1]
    for i, order in enumerate(shaped(d.get("orders"), list)):
        if isinstance(order, list) and len(order) == 2:
            yield "frame", f"orders[{i}]", order[0]
            yield "plate", f"orders[{i}]", order[1]
    out = shaped(d.get("orders_out"), dict)
    for key, what in (("frames", "frame"), ("plates", "plate")):
        for i, x in enumerate(shaped(out.get(key), list)):
            yield what, f"orders_out.{key}[{i}]", x
    for i, x in enumerate(shaped(d.get("offer"), list)):
        if x is not None:
            yield "card", f"offer[{i}]", x
    step = shaped(d.get("step"), dict)
    if taken and "card" in step:
        yield "card", "step.card", step["card"]
    for i, x in enumerate(shaped(d.get("cards_out"), list)):
        yield "card", f"cards_out[{i}]", x


def _in_two_places(places) -> list[tuple[str, str]]:
    """A frame, plate or card found in two places: a problem at the later one."""
    seen: dict = {}
    found = []
    for what, where, x in places:
        if (what, x) in seen:
            found.append((where, f"{what} {x} is also at {seen[what, x]}; each is in one place"))
        seen[what, x] = where
    return found


_NUMBER_DEFS = {"frame": "number16", "plate": "number16", "card": "card"}   # the schema's $defs of each


def _duplicates_beside(data: Any, problems: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A frame, plate or card in two places in a file the schema refused, told with the
    schema's problems rather than after them (the numbers places_beside gives)."""
    data = shaped(data, dict)
    step = shaped(data.get("step"), dict)
    return _in_two_places(places_beside(_numbered_places(data, step.get("kind") == "place"), problems,
                                        lambda what, x: _checker().valid_as(_NUMBER_DEFS[what], x)))


def _worded_places(d: dict) -> Iterator[tuple[str, str, Any]]:
    """Every place holding words the loader reads: ("character", where, the name) where
    the game has character tiles, ("row", where, the squares' codes) of each tableau and
    closed frame, in the order of the file. A part of another shape is stepped over."""
    characters = shaped(d.get("game"), dict).get("characters", True) is True
    for seat, p in enumerate(shaped(d.get("players"), list)):
        p = shaped(p, dict)
        w = f"players[{seat}]"
        if characters and "character" in p:
            yield "character", f"{w}.character", p["character"]
        for r, frame in enumerate(shaped(p.get("closed"), list)):
            for i, row in enumerate(shaped(frame, list)):
                yield "row", f"{w}.closed[{r}][{i}]", row
        for i, row in enumerate(shaped(p.get("tableau"), list)):
            yield "row", f"{w}.tableau[{i}]", row


def _words_beside(data: Any, problems: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A character's name or a square's code the loader would refuse, in a file the
    schema refused, told with the schema's problems rather than after them."""
    def readable(what: str, x: Any) -> bool:
        return _checker().valid_as("row", x) if what == "row" else isinstance(x, str)
    found = []
    for what, where, x in places_beside(_worded_places(shaped(data, dict)), problems, readable):
        try:
            _character(x, where) if what == "character" else parse_row(x, where)
        except Problem as p:
            found.append((p.where, p.reason))
    return found


def position_from_data(data: Any, cat: Catalogue | None = None, source: str = "position",
                       path: str | None = None) -> Position:
    """The Position of decoded JSON `data` (load_position once the file is read)."""
    cat = cat or default_catalogue()
    try:
        if isinstance(data, dict) and data.get("format") == START_FORMAT:
            return _start_position(data, cat, source, path)
        problem = not_a_position(data, FORMAT)
        if problem:
            raise Problem(*problem)
        found = structure_problems(data, MAX_ITEMS, "a position")
        if found:
            raise PositionError.of(source, found, path)
        problems = _checker().problems(data)
        if problems:
            raise PositionError.of(source, problems + _words_beside(data, problems)
                                   + _duplicates_beside(data, problems), path)
        return _Loader(data, cat).load().build(source)
    except Problem as p:
        raise PositionError(source, p.where, p.reason, path) from None
    except Problems as ps:
        raise PositionError.of(source, ps.found, path) from None


def _start_position(data: dict, cat: Catalogue, source: str, path: str | None) -> Position:
    """The Position of a start file (game.py's START_FORMAT: the rules' parameters and
    a history of actions from the deal, as the game's `position` parameter takes it): the
    decision its history reaches."""
    try:
        params, rules = start_from_data(data, cat, source)
    except StartError as e:
        raise PositionError.of(source, e.problems, path) from None
    state = rules.new_state()
    if state.is_chance():
        raise Problem("history", "the history stops at a draw: a position is a player's decision")
    return Position(rules=rules, state=state, catalogue=cat, game_params=dict(params),
                    step={"kind": "start", "player": state.current_player()}, source=source,
                    names=(None,) * params["players"], data=data)


def load_position(path_or_dict, catalogue: Catalogue | str | os.PathLike | None = None) -> Position:
    """Load a position file (a path) or decoded JSON (a dict): the Position at its
    decision. `catalogue`: a Catalogue, a catalogue file, or None for the built-in one.
    PositionError lists every problem found, each with its field."""
    data, source, path = read_position(path_or_dict)
    return position_from_data(data, position_catalogue(catalogue, _catalogue_module, source, path), source, path)


# ---------------------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------------------
def _unsupported(state, d) -> str | None:
    if state.is_terminal():
        return "the game is over"
    if state.is_chance():
        return f"the state is at a chance node ({state.step_name()}); positions are decisions"
    if d["round"] < 1:
        return "the state is in the setup; positions start at the first Select Orders"
    if d["asking"] >= 0 or d["token_window"] >= 0 or d["caxton"] or d["held"] or d["n_pool"] or d["pool_due"]:
        return (f"the state is in the middle of a decision ({state.step_name()}); positions record "
                "Select Orders, taking or placing a card, a bonus marker and Close Frames")
    if d["phase"] not in (PH["ORDERS"], PH["CARDS"], PH["MARKERS"], PH["CLOSE"]):
        return f"the state is at {state.step_name()}, which positions do not record"
    if d["first_seat"] >= 0:
        return "Bonhomme goes first in this step: positions do not record it"
    return None


def setup_token(p: dict, k: int, seen: bool):
    """The entry of hand slot k in `setup_tokens`: its symbol (or "hidden") in hand, once used
    how ({"up": X} shows its symbol to all)."""
    symbol = pp_names.SYMBOLS[p["hand"][k]]
    if p["slot"][k] == SLOT["HAND"]:
        return symbol if seen else HIDDEN
    how = USED_OF[p["slot"][k]]
    return {how: symbol if seen or how == "up" else HIDDEN}


def derived_pieces(grid) -> int:
    """The pieces a tableau shows at least: each token in sight, and a card for every 3
    card squares in sight (a card has 3 squares; covered squares do not show)."""
    cells = [v for row in grid for v in row if v >= 0]
    tokens = sum(1 for v in cells if v & (TOKEN | ABILITY))
    return tokens + -(-(len(cells) - tokens) // 3)


def position_of(state, names=None, viewer: int | None = None) -> dict:
    """The position (a JSON-ready dict) of a CoreState at a decision the format records;
    PositionError (source "state") otherwise. With `viewer` (a seat), what that player
    can write down: the others' setup tokens and face-down tokens are "hidden"."""
    from gutenberg_ai.games import core_of
    state = core_of(state)    # a pyspiel state too, as every game's position_of takes
    d = state.to_dict()
    why = _unsupported(state, d)
    if why:
        raise PositionError("state", "", why)
    rules = state.rules
    n = d["num_players"]
    r = d["round"]
    kind = {PH["ORDERS"]: "orders", PH["MARKERS"]: "markers", PH["CLOSE"]: "close"}.get(
        d["phase"], "place" if d["sub"] == SUB["PLACE"] else "cards")
    player = d["turn_order"][d["turn"]]
    step = {"kind": kind, "player": player}
    if kind in ("cards", "place"):
        step["card_step"] = d["step"] + 1
        if kind == "place":
            step["card"] = d["taken"] + 1
    if kind in ("orders", "cards", "place"):
        step["order"] = list(d["turn_order"][:d["n_turns"]])
    game = {"players": n, "variant": rules.variant, "characters": rules.characters, "rounds": rules.rounds}
    for option in ("one_token", "automa_wins_ties", "hard_board"):
        if getattr(rules, option):
            game[option] = True
    out: dict = {"format": FORMAT, "version": VERSION, "game": game, "round": r, "step": step}
    if kind == "orders":
        out["orders"] = [None if f < 0 else [f + 1, p + 1]
                         for f, p in zip(d["offer_frame"][:d["n_orders"]], d["offer_plate"][:d["n_orders"]])]
    if kind in ("cards", "place"):
        out["offer"] = [None if x < 0 else x + 1 for x in d["offer"][:d["n_offer"]]]
    players = []
    for seat in range(n):
        p = d["players"][seat]
        e: dict = {}
        if names is not None and seat < len(names) and names[seat] is not None:
            e["name"] = names[seat]
        if p["character"] >= 0:
            e["character"] = pp_names.CHARACTERS[p["character"]]
            e["side"] = pp_names.SIDES[p["side"]]
            if p["character"] not in (0,) and not (p["character"] == 2 and p["side"] == 0):
                e["ability"] = bool(p["ability"])
        if p["cubes"]:
            e["cubes"] = p["cubes"]
        orders = [[p["order_frame"][k] + 1, p["order_plate"][k] + 1] for k in range(3) if p["order_frame"][k] >= 0]
        if orders:
            e["orders"] = orders
        markers = [{"round": k // 2 + 1, "slot": k % 2 + 1, "value": v} for k, v in enumerate(p["marker"]) if v]
        if markers:
            e["bonus_markers"] = markers
        e["markers_left"] = [p["markers"], p["marker13"]]
        done = d["turn_order"][:d["turn"]] if d["phase"] == PH["CLOSE"] else []
        closed = [k for k in range(r - 1)] + ([r - 1] if seat in done else [])
        if closed:
            e["closed"] = [[row_text(p["closed"][k][i * 3:i * 3 + 3]) for i in range(3)] for k in closed]
        if p["pieces"]:
            e["tableau"] = [row_text(p["grid"][i][:p["width"]]) for i in range(p["height"])]
        if p["pieces"] != derived_pieces(p["grid"]):
            e["pieces"] = p["pieces"]
        seen = viewer is None or viewer == seat
        hand = [setup_token(p, k, seen) for k in range(p["n_setup"])]
        if p["slot"][CAXTON_SLOT] != SLOT["NONE"] and p["n_setup"] <= CAXTON_SLOT:
            hand.append(setup_token(p, CAXTON_SLOT, seen))
        if hand:
            e["setup_tokens"] = hand
        down = [pp_names.SYMBOLS[x] for x in range(N_SYMBOLS) for _ in range(p["hidden_out"][x])]
        if down:
            e["face_down"] = down if seen else [HIDDEN] * len(down)
        players.append(e)
    out["players"] = players
    if d["automa_seat"] >= 0:
        a = d["players"][d["automa_seat"]]
        out["automa"] = {"points": a["fame"], "cubes": a["cubes"], "columns": list(a["columns"]),
                         "board": [[pp_names.SYMBOLS[x] for x in row] for row in d["solo"]]}
    gone = [x for x in range(N_SYMBOLS) for _ in range(d["box_tokens"][x])]
    if gone:
        out["tokens_out"] = [pp_names.SYMBOLS[x] for x in gone]
    deck = {x for w in range(2) for x in range(64) if d["card_deck"][w] >> x & 1 for x in [x + 64 * w]}
    on_table = {x for x in d["offer"][:d["n_offer"]] if x >= 0} | ({d["taken"]} if d["taken"] >= 0 else set())
    cards_out = sorted(x + 1 for x in range(90) if x not in deck and x not in on_table)
    if cards_out:
        out["cards_out"] = cards_out
    held_f = {p["order_frame"][k] for p in d["players"][:n] for k in range(3)} | set(d["offer_frame"])
    held_p = {p["order_plate"][k] for p in d["players"][:n] for k in range(3)} | set(d["offer_plate"])
    frames = sorted(x + 1 for x in range(16) if not d["frame_deck"] >> x & 1 and x not in held_f)
    plates = sorted(x + 1 for x in range(16) if not d["plate_deck"] >> x & 1 and x not in held_p)
    if frames or plates:
        out["orders_out"] = {"frames": frames, "plates": plates}
    return out


def save_position(state, path, names=None, viewer: int | None = None) -> dict:
    """Write position_of(state) (a CoreState, or a pyspiel state: its CoreState) to
    `path` as JSON and return it."""
    from gutenberg_ai.games import core_of
    state = core_of(state)
    data = position_of(state, names, viewer)
    # Short lists on one line, a tableau's numbers a few lines.
    pathlib.Path(path).write_text(readable_json(data, 90, number_width=84) + "\n", encoding="utf-8")
    return data


# ---------------------------------------------------------------------------------------
# Playing from a position (gutenberg-ai play --position)
# ---------------------------------------------------------------------------------------
def position_start(data: dict, pos: Position, seed: int = 0) -> tuple[dict, list, str]:
    """The position to play from: tokens written "hidden" are dealt with `seed` from
    the tokens the position leaves unaccounted for (not the file's stand-ins, which are
    the same every time), so that nobody plays against a fixed guess. No presets."""
    if not pos.hidden_tokens:
        return data, [], ""
    state = pos.state.determinize(pos.current_player, seed)
    dealt = position_of(state, pos.names)
    for seat, given in enumerate(data["players"]):     # what the file gives stays as given
        for key in ("name",):
            if key in given:
                dealt["players"][seat][key] = given[key]
    who = ", ".join(seat_names(pos.names)[seat] for seat in pos.hidden_tokens)
    return dealt, [], (f"The position hides tokens of {who}: dealt at random (seed {seed}) from the tokens "
                       "it leaves unaccounted for.")


def hidden_hint(state, entries, k: int) -> list:
    """For records.fill_hidden: the outcomes or moves for the record's hidden entry k,
    in the order to try them. First what follows reveals: a setup token drawn for a seat
    shows its symbol when that seat places it symbol side up (its slot is the k-th
    drawn); a token drawn for a discarded card, when the seat keeps it symbol side up.
    Then the symbols the bag can best spare: the most left in it after the draws the
    record shows later (a hidden token taken from the bag may be one a visible draw
    needs)."""
    from gutenberg_ai.games import core_of
    A, C = _core.ACTIONS, _core.CHANCE_OUTCOMES
    d = core_of(state).to_dict()
    need = [0] * N_SYMBOLS       # tokens of each symbol that later visible draws take
    for later in entries[k + 1:]:
        a = later.get("action")
        if later["player"] == -1 and a is not None:
            if C["SETUP"] <= a < C["FRAME"] or C["DRAW"] <= a < C["NUM_CHANCE"]:
                need[(a - (C["SETUP"] if a < C["FRAME"] else C["DRAW"])) % N_SYMBOLS] += 1
    spare = [d["bag"][x] - need[x] for x in range(N_SYMBOLS)]
    first = []
    if entries[k]["player"] == -1:
        options = [a for a, _ in state.chance_outcomes()]
        if not options:
            return []
        o = options[0]
        if C["SETUP"] <= o < C["FRAME"]:
            base, q = C["SETUP"], (o - C["SETUP"]) // N_SYMBOLS
            slot = d["players"][q]["n_setup"]
            for later in entries[k + 1:]:
                a = later.get("action")
                if later["player"] == q and a is not None and A["SETUP_UP"] <= a < A["SETUP_DOWN"] \
                        and (a - A["SETUP_UP"]) // N_SYMBOLS == slot:
                    first = [base + q * N_SYMBOLS + (a - A["SETUP_UP"]) % N_SYMBOLS]
                    break
        elif C["DRAW"] <= o < C["NUM_CHANCE"]:
            base, q = C["DRAW"], (o - C["DRAW"]) // N_SYMBOLS
            pool = d["pool"][:d["n_pool"]]
            for later in entries[k + 1:]:
                if later["player"] != q:
                    continue
                a = later.get("action")
                if a is not None and A["KEEP_UP"] <= a < A["KEEP_DOWN"] and a - A["KEEP_UP"] not in pool:
                    first = [base + q * N_SYMBOLS + a - A["KEEP_UP"]]
                break
        else:
            return []
        rest = sorted(options, key=lambda a: -spare[(a - base) % N_SYMBOLS])
        return first + [a for a in rest if a not in first]
    legal = state.legal_actions()
    down = [a for a in legal if A["KEEP_DOWN"] <= a < A["SETUP_UP"]]
    down.sort(key=lambda a: -spare[a - A["KEEP_DOWN"]])     # what stays out of the bag
    taken = [a for a in legal if A["CAXTON_TAKE"] <= a < A["TOKEN_AT"]]
    taken.sort(key=lambda a: -spare[a - A["CAXTON_TAKE"]])
    return down + taken


def preset_action(core, legal, preset, start_round: int):
    """Printing Press positions give no moves to replay (position_start has none)."""
    return None
