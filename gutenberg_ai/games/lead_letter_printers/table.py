"""Lead Letter Printers positions written as the table stands ("form": "table";
docs/lead_letter_printers/positions.md): the round, the phase and whose decision it is;
the displays and piles; the order track, the travel board and the city board; each
player's workshop, composing sticks, contracts, production line and tracks.

    {"format": "lead-letter-printers-position", "version": 1, "form": "table",
     "players": 2, "round": 2, "phase": "actions", "to_act": 1, "turn": 1, ...}

A component is named by its printed number (12) or by words: its name ("technology
12", "factory 4") or what it shows, as `gutenberg-ai cards` finds it ("III 3 marks").
What a person at the table does not write is derived: the piles hold every component
that is nowhere else (the orders left of each level counted from the box's removal),
the supply and the bank what the players do not hold, the assistants in hand those not
on the city board, the contract slots those the composing sticks unlock, the city
markers spent those on the map and under the factories built. Factories put back under
a pile that the file's player has not seen are written "hidden": they are drawn at
random (with the file's `seed`, 0 unless given) from the factories of their level that
are nowhere else, and a search or `play --position` draws them again.

The state built is checked by the core (Rules.state_from_dict: every value it indexes
with, every component in one place, resources and money conserved), and the player the
file names must be the one the rules ask.
"""
from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

from gutenberg_ai.common.jsonfile import Problem, Problems, places_beside, shaped, show

from . import _core, names
from .cards import closest_cards, find_cards

FORMAT = "lead-letter-printers-position"    # a position file's "format" and "version"
VERSION = 1

HIDDEN = "hidden"
PHASES = ("actions", "orders", "production", "final")
PH = _core.PHASES
PHASE_OF = {"actions": PH["ACTIONS"], "orders": PH["ORDERS"], "production": PH["PRODUCTION"],
            "final": PH["FINAL"]}
ASSISTANT_KINDS = _core.ASSISTANT_KINDS
SIGN_STATES = ("unused", "used", "fresh")
N_TECHS, N_FACTORIES = 48, 36
PER_LEVEL_FACTORIES, PER_LEVEL_TECHS = 9, 12
REMOVED_ORDERS = {2: 5, 3: 3, 4: 1}     # "remove 5 of each ... 3 of each ... 1 of each"
N_MARKERS = 12
BANK = 10000                           # llp_types.pxd BANK
RESOURCE_SUPPLY = 20
GRID_SIDE = 4
STICK_SIDE = 3

# The kinds of components (cards.KINDS) and the words that name them.
KIND_WORDS = {"letter": "lead letter", "technology": "technology", "factory": "factory",
              "tile": "trading tile", "order": "order", "contract": "contract", "disc": "city disc"}
_NAMED = re.compile(r"^\s*(lead letter|technology|factory|trading tile|order|contract|city disc)\s+(\d+)\s*$",
                    re.IGNORECASE)


# ---------------------------------------------------------------------------------------
# Components by number or words
# ---------------------------------------------------------------------------------------
def component(cat, ref, kinds: tuple, where: str) -> tuple[str, int]:
    """(kind, 0-based id) of a reference to a component of one of `kinds`: its printed
    number (one kind only), its name ("technology 12") or the words it shows."""
    if isinstance(ref, int):
        if len(kinds) != 1:
            raise Problem(where, f"{ref}: say which component, e.g. "
                                 f"{' or '.join(show(KIND_WORDS[k] + ' ' + str(ref)) for k in kinds)}")
        kind = kinds[0]
        if not 1 <= ref <= cat.count(kind):
            raise Problem(where, f"{ref} is not a {KIND_WORDS[kind]} (1-{cat.count(kind)})")
        return kind, ref - 1
    m = _NAMED.match(ref)
    if m:
        kind = next(k for k, w in KIND_WORDS.items() if w == m.group(1).lower())
        number = int(m.group(2))
        if kind not in kinds:
            raise Problem(where, f"{show(ref)}: a {' or '.join(KIND_WORDS[k] for k in kinds)} goes here")
        if not 1 <= number <= cat.count(kind):
            raise Problem(where, f"{show(ref)}: no such {KIND_WORDS[kind]} (1-{cat.count(kind)})")
        return kind, number - 1
    found = [mt for k in kinds for mt in find_cards(ref, k, cat)]
    if len(found) == 1:
        return found[0].kind, found[0].id
    if not found:
        close = [c.text for k in kinds for c in closest_cards(ref, k, cat, top=2)][:3]
        hint = f"; close: {'; '.join(close)}" if close else ""
        raise Problem(where, f"{show(ref)} names no {' or '.join(KIND_WORDS[k] for k in kinds)}{hint}")
    few = "; ".join(m.text for m in found[:3])
    raise Problem(where, f"{show(ref)} fits {len(found)} components ({few}{'; ...' if len(found) > 3 else ''}): "
                         "give its number")


def name_of(kind: str, x: int) -> str:
    """The name a file writes for component x of `kind`: "technology 12"."""
    return f"{KIND_WORDS[kind]} {x + 1}"


def _bits(m: int) -> list[int]:
    return [i for i in range(64) if (m >> i) & 1]


def _mask(xs) -> int:
    out = 0
    for x in xs:
        out |= 1 << x
    return out


def city_of(cat, name, where: str) -> int:
    """A city of the travel map by its name; Problem where it is none."""
    for i, c in enumerate(cat.city_names):
        if c.lower() == str(name).strip().lower():
            return i
    raise Problem(where, f"{show(name)} is not a city of the travel map ({', '.join(cat.city_names)})")


def node_of(cat, name, where: str) -> int:
    """A city or coin space of the travel map by its name; Problem where it is none."""
    for i, c in enumerate(cat._nodes["names"]):
        if c.lower() == str(name).strip().lower():
            return i
    raise Problem(where, f"{show(name)} is not a city or coin space of the travel map (a city, or "
                         f"'coin 1 of Mainz-Cologne')")


def cell_of(cat, players: int, shop, where: str) -> int:
    """The city board cell of a shop (its name or number) for the player count."""
    board = cat.data["city_board"][str(players)]
    number = shop if isinstance(shop, int) else None
    if number is None:
        for s in cat.data["shops"]:
            if s["name"].lower() == shop.strip().lower():
                number = s["number"]
    for r, row in enumerate(board):
        for c, x in enumerate(row):
            if x == number:
                return r * GRID_SIDE + c
    shops = ", ".join(cat.data["shops"][x - 1]["name"] for row in board for x in row)
    raise Problem(where, f"{show(shop)} is not a shop of the {players}-player city board ({shops})")


def _named_places(d: dict) -> Iterator[tuple[str, str, Any]]:
    """Every place of a table holding a name of the travel map or of the city board:
    ("node", where, each seat's agent), ("shop", ..., each tradesman's shop), ("city",
    ..., each city the seat has reached), in the order of the file. A part of another
    shape is stepped over (a table the schema refused is walked too)."""
    for seat, pd in enumerate(shaped(d.get("seats"), list)):
        pd = shaped(pd, dict)
        w = f"seats[{seat}]"
        if "agent" in pd:
            yield "node", f"{w}.agent", pd["agent"]
        for k, tm in enumerate(shaped(pd.get("tradesmen"), list)):
            if "shop" in shaped(tm, dict):
                yield "shop", f"{w}.tradesmen[{k}].shop", tm["shop"]
        for i, c in enumerate(shaped(pd.get("cities"), list)):
            yield "city", f"{w}.cities[{i}]", c


def names_beside(data: Any, problems: list[tuple[str, str]], cat) -> list[tuple[str, str]]:
    """A name of the travel map or of the city board that is none, in a table the schema
    refused, told with the schema's problems rather than after them (a shop only where
    the player count, which chooses the city board, is one the game has)."""
    d = shaped(data, dict)
    players = d.get("players")
    boards = cat.data["city_board"]
    has_board = isinstance(players, int) and not isinstance(players, bool) and str(players) in boards

    def readable(kind: str, x: Any) -> bool:
        if kind == "shop":
            return has_board and (isinstance(x, str) or (isinstance(x, int) and not isinstance(x, bool)))
        return isinstance(x, str)
    found = []
    for kind, where, x in places_beside(_named_places(d), problems, readable):
        try:
            if kind == "node":
                node_of(cat, x, where)
            elif kind == "city":
                city_of(cat, x, where)
            else:
                cell_of(cat, players, x, where)
        except Problem as p:
            found.append((p.where, p.reason))
    return found


# ---------------------------------------------------------------------------------------
# Reading a table
# ---------------------------------------------------------------------------------------
class TableLoader:
    """Builds the CoreState of a table position that passed the schema. Each part
    (the decision, the displays, the travel board, each player) records its problems
    and the loader goes on; the core's check comes once every part is sound."""

    def __init__(self, data: dict, cat, rules):
        self.data, self.cat, self.rules = data, cat, rules
        self.n = data["players"]
        self.s = rules.new_state().to_dict()
        self.core = rules.core_catalogue
        self.cd = cat.data
        self.found = Problems()
        self.placed: dict = {k: {} for k in KIND_WORDS}     # kind -> id -> where
        self.hidden: list = []                               # (level, index under the pile)

    # -- shared ---------------------------------------------------------------------------
    def take(self, ref, kinds, where) -> tuple[str, int]:
        """A component placed at `where`: a Problem if another place already has it."""
        kind, x = component(self.cat, ref, kinds, where)
        other = self.placed[kind].get(x)
        if other is not None:
            raise Problem(where, f"{name_of(kind, x)} is also at {other}")
        self.placed[kind][x] = where
        return kind, x

    def one(self, ref, kind, where) -> int:
        return self.take(ref, (kind,), where)[1]

    def slots(self, refs, kind, size, where) -> list[int]:
        """A display's spaces: a component or null each (-1)."""
        out = []
        for i, ref in enumerate(refs):
            with self.found.each():
                out.append(-1 if ref is None else self.one(ref, kind, f"{where}[{i}]"))
                continue
            out.append(-1)
        return out + [-1] * (size - len(out))

    def city(self, name, where) -> int:
        return city_of(self.cat, name, where)

    def node(self, name, where) -> int:
        return node_of(self.cat, name, where)

    def cell(self, shop, where) -> int:
        return cell_of(self.cat, self.n, shop, where)

    def cells(self, shops, where, field="") -> list[int]:
        """The cells of several shops, every unknown shop reported."""
        found, out = Problems(), []
        for k, shop in enumerate(shops):
            with found.each():
                out.append(self.cell(shop, f"{where}[{k}]{field}"))
        found.stop()
        return out

    # -- the whole ------------------------------------------------------------------------
    def load(self):
        found = self.found
        for part in (self.decision, self.displays, self.travel_board, self.city_board):
            with found.each():
                part()
        for seat in range(min(self.n, len(self.data["seats"]))):    # a count that differs is decision's problem
            with found.each():
                self.player(seat)
        found.stop()
        with found.each():
            self.derived()
        found.stop()
        return self

    # -- the decision ---------------------------------------------------------------------
    def decision(self):
        d, s, n = self.data, self.s, self.n
        order, phase, to_act = d["player_order"], d["phase"], d["to_act"]
        rounds = d.get("rounds", 0)
        # Independent checks, each reported. After the last round of the small variant the
        # final phase counts the next one.
        checks = [("seats", len(d["seats"]) != n, f"{len(d['seats'])} players described, \"players\" says {n}"),
                  ("player_order", sorted(order) != list(range(n)), f"{show(order)} is not an order of the seats 0-{n - 1}"),
                  ("to_act", to_act >= n, f"{to_act} is not a seat of {n} players (0-{n - 1})"),
                  ("round", rounds and d["round"] > rounds + (phase == "final"),
                   f"round {d['round']} of a game of {rounds} rounds")]
        checks += [(key, key in d and phase != only, f"only in the {only} phase (the phase is {phase})")
                   for key, only in (("turn", "actions"), ("main_action_done", "actions"), ("stages_left", "production"))]
        found = Problems()
        for where, bad, reason in checks:
            if bad:
                found.add(where, reason)
        found.stop()
        s["order"][:n] = order
        s["phase"] = PHASE_OF[phase]
        s["rounds_played"] = d["round"] - 1
        s["actor"] = to_act
        s["deal"] = -1
        s["n_frames"] = 0
        s["refill_display"] = 0
        s["start_letters_due"] = 0
        s["discs_due"] = 0
        s["main_done"] = 0
        self.phase, self.to_act = phase, to_act

    def sequence(self):
        """The phase's sequence and the turn in it (needs the order track)."""
        d, s, n = self.data, self.s, self.n
        order = list(s["order"][:n])
        if self.phase == "actions":
            seq = order + order
            turn = (d.get("turn", 1) - 1) * n + order.index(self.to_act)
            s["main_done"] = int(d.get("main_action_done", False))
        elif self.phase == "orders":
            seq = sorted(range(n), key=lambda q: s["players"][q]["section"] * 16 - s["players"][q]["track_slot"])
            turn = seq.index(self.to_act)
        else:
            seq = order
            turn = order.index(self.to_act)
            if self.phase == "production":
                s["main_done"] = 1
                cap = s["players"][self.to_act]["capacity"]
                left = d.get("stages_left", cap)
                if left > cap:
                    raise Problem("stages_left", f"{left}: more than the capacity of seats[{self.to_act}] ({cap})")
                s["prod_left"] = left
        s["seq"][:len(seq)] = seq
        s["n_turns"] = len(seq)
        s["turn"] = turn

    # -- displays and piles ---------------------------------------------------------------
    def displays(self):
        d, s = self.data["displays"], self.s
        found = self.found
        s["face_tiles"] = self.slots(d["trading_tiles"], "tile", 3, "displays.trading_tiles")
        tile_discard = [self.one(r, "tile", f"displays.trading_tiles_discarded[{i}]")
                        for i, r in enumerate(d.get("trading_tiles_discarded", []))]
        s["tile_discard"] = _mask(tile_discard)
        for lv, level in enumerate(names.LEVELS):
            w = f"displays.technologies.{level}"
            row = self.slots(d["technologies"].get(level, []), "technology", 3, w)
            for i, x in enumerate(row):
                with found.each():
                    if x >= 0 and self.cd["technologies"][x]["level"] != level:
                        raise Problem(f"{w}[{i}]", f"{name_of('technology', x)} is of level "
                                                   f"{self.cd['technologies'][x]['level']}")
            s["tech_face"][lv] = row
            under = []
            for i, r in enumerate(d.get("technologies_under", {}).get(level, [])):
                with found.each():
                    x = self.one(r, "technology", f"displays.technologies_under.{level}[{i}]")
                    if self.cd["technologies"][x]["level"] != level:
                        raise Problem(f"displays.technologies_under.{level}[{i}]", f"{name_of('technology', x)} "
                                      f"is of level {self.cd['technologies'][x]['level']}")
                    under.append(x)
            s["tech_bottom"][lv] = under + [-1] * (PER_LEVEL_TECHS - len(under))
            s["tech_bottom_n"][lv] = len(under)
            fu: list[int] = []           # the factories under the pile, bottom first
            seen: list[int] = []         # who saw each (a mask of seats)
            for i, e in enumerate(d.get("factories_under", {}).get(level, [])):
                w = f"displays.factories_under.{level}[{i}]"
                with found.each():
                    who = e["seen_by"]
                    if any(q >= self.n for q in who):
                        raise Problem(f"{w}.seen_by", f"{who} names a seat of no player (0-{self.n - 1})")
                    if e["factory"] == HIDDEN:
                        viewer = self.data.get("seen_by")
                        if viewer is not None and viewer in who:
                            raise Problem(w, f"seats[{viewer}] (the file's player) saw it: name it")
                        self.hidden.append((lv, len(fu)))
                        x = -1
                    else:
                        x = self.one(e["factory"], "factory", f"{w}.factory")
                        if self.cd["factories"][x]["level"] != level:
                            raise Problem(f"{w}.factory", f"{name_of('factory', x)} is of level "
                                          f"{self.cd['factories'][x]['level']}")
                    fu.append(x)
                    seen.append(_mask(who))
            s["factory_bottom"][lv] = fu + [-1] * (PER_LEVEL_FACTORIES - len(fu))
            s["factory_bottom_seen"][lv] = seen + [0] * (PER_LEVEL_FACTORIES - len(seen))
            s["factory_bottom_n"][lv] = len(fu)
            self.factory_top(d.get("factory_pile_tops", {}).get(level), lv, level)
        self.order_spaces = self.display(d["orders"], "order", "displays.orders")
        self.contract_spaces = self.display(d["contracts"], "contract", "displays.contracts")
        s["order_display"] = [max(x, -1) for x in self.order_spaces]
        s["contract_display"] = [max(x, -1) for x in self.contract_spaces]
        s["taken"] = [sum(1 for x in self.order_spaces if x == -2), sum(1 for x in self.contract_spaces if x == -2)]
        for i, key in enumerate(("orders", "contracts")):
            bought = d.get("bought", {}).get(key)
            if bought is not None and bought < s["taken"][i]:
                found.add(f"displays.bought.{key}", f"{bought}, but {s['taken'][i]} spaces of the display are "
                                                    "written \"taken\"")
            elif bought is not None:
                s["taken"][i] = bought
        s["order_discard"] = _mask(self.one(r, "order", f"displays.orders_discarded[{i}]")
                                   for i, r in enumerate(d.get("orders_discarded", [])))
        s["contract_discard"] = _mask(self.one(r, "contract", f"displays.contracts_discarded[{i}]")
                                      for i, r in enumerate(d.get("contracts_discarded", [])))
        s["table"] = self.slots(d["typesetting_table"], "letter", 4, "displays.typesetting_table")
        s["letter_discard"] = _mask(self.one(r, "letter", f"displays.lead_letters_discarded[{i}]")
                                    for i, r in enumerate(d.get("lead_letters_discarded", [])))
        top = d.get("letter_pile_top")
        s["letter_top"] = -1 if top is None else _mask(names.LETTERS.index(ch) for ch in top)

    def factory_top(self, ref, lv: int, level: str):
        """The factory on top of a level's pile, in view (the piles lie face up); none
        given: not known yet, the next draw's chance node deals it."""
        if ref is None:
            return
        w = f"displays.factory_pile_tops.{level}"
        with self.found.each():
            if not self.rules.factory_tops:
                raise Problem(w, "the factory piles lie face down in this game (factory_tops false): "
                                 "no top is in view, leave it out")
            x = self.one(ref, "factory", w)
            if self.cd["factories"][x]["level"] != level:
                raise Problem(w, f"{name_of('factory', x)} is of level {self.cd['factories'][x]['level']}, "
                                 f"not on the pile of level {level}")
            self.s["factory_top"][lv] = x

    def display(self, refs, kind, where) -> list[int]:
        """An order or contract display: a component, null (empty) or "taken" (bought
        this round: -2) each."""
        out = []
        for i, ref in enumerate(refs):
            if ref == "taken":
                out.append(-2)
                continue
            with self.found.each():
                out.append(-1 if ref is None else self.one(ref, kind, f"{where}[{i}]"))
                continue
            out.append(-1)
        return out + [-1] * (5 - len(out))

    # -- travel board and city board --------------------------------------------------------
    def travel_board(self):
        s = self.s
        discs = self.data.get("city_discs", {})
        for name, ref in discs.items():
            w = f"city_discs.{name}"
            with self.found.each():
                c = self.city(name, w)
                if names.CITY_KINDS[self.core["city_kind"][c]] != "grey":
                    raise Problem(w, f"{self.cat.city_names[c]} is not a grey city: it has no city disc")
                s["city_disc"][c] = -1 if ref is None else self.one(ref, "disc", w)

    def city_board(self):
        s = self.s
        self.wf: dict[int, dict[int, int]] = {}    # seat -> {3: street, 6: street}
        for i, a in enumerate(self.data.get("assistants", [])):
            w = f"assistants[{i}]"
            with self.found.each():
                owner = a["owner"]
                if owner >= self.n:
                    raise Problem(f"{w}.owner", f"{owner} is not a seat (0-{self.n - 1})")
                c1, c2 = self.cells(a["between"], f"{w}.between")
                c1, c2 = min(c1, c2), max(c1, c2)
                if c2 - c1 == 1 and c1 // GRID_SIDE == c2 // GRID_SIDE:
                    e = c1 * 2
                elif c2 - c1 == GRID_SIDE:
                    e = c1 * 2 + 1
                else:
                    raise Problem(f"{w}.between", "the two shops are not side by side: a street joins neighbours")
                if s["street_owner"][e] >= 0:
                    raise Problem(f"{w}.between", "another assistant stands on this street")
                s["street_owner"][e] = owner
                s["street_kind"][e] = ASSISTANT_KINDS.index(a["kind"])
                if "from_workforce" in a:
                    at = self.wf.setdefault(owner, {})
                    if a["from_workforce"] in at:
                        raise Problem(f"{w}.from_workforce", f"seats[{owner}] has one assistant of "
                                                             f"workforce {a['from_workforce']}")
                    at[a["from_workforce"]] = e

    # -- a player -----------------------------------------------------------------------
    def player(self, seat: int):
        pd = self.data["seats"][seat]
        w = f"seats[{seat}]"
        p = self.s["players"][seat]
        found = Problems()
        for key in ("marks", "points", "workforce", "capacity"):
            p[key] = pd[key]
        p["res"] = [pd.get(r, 0) for r in names.RESOURCES]
        p["pairing"] = int(pd.get("pairing", False))
        bought = pd.get("bought", [])        # at the last (or this) Order and contract phase
        p["bought_order"], p["bought_contract"] = int("order" in bought), int("contract" in bought)
        with found.each():
            self.order_track(seat, pd, p, w)
        with found.each():
            p["agent"] = self.node(pd.get("agent", self.cat.city_names[self.core["mainz"]]), f"{w}.agent")
        with found.each():
            self.tradesmen(seat, pd, p, w)
        with found.each():
            self.workshop(pd, p, w)
        with found.each():
            self.letters(pd, p, w)
        with found.each():
            self.contracts(pd, p, w)
        with found.each():
            self.production(pd, p, w)
        with found.each():
            cities = [self.city(c, f"{w}.cities[{i}]") for i, c in enumerate(pd.get("cities", []))]
            p["cities"] = _mask(cities)
        with found.each():
            discs = pd.get("city_discs", [])
            own = [self.one(e["disc"], "disc", f"{w}.city_discs[{i}].disc") for i, e in enumerate(discs)]
            p["discs"] = _mask(own)
            p["discs_used"] = _mask(x for x, e in zip(own, discs) if e.get("used"))
        found.stop()

    def order_track(self, seat, pd, p, w):
        t = pd.get("order_track", {})
        p["section"] = t.get("section", 0)
        p["track_slot"] = t.get("slot", self.s["order"][:self.n].index(seat) if p["section"] == 0 else 0)
        for q in range(seat):
            other = self.s["players"][q]
            if other["section"] == p["section"] and other["track_slot"] == p["track_slot"]:
                raise Problem(f"{w}.order_track", f"seats[{q}] stands on the same slot of the order track")

    def tradesmen(self, seat, pd, p, w):
        ts = pd["tradesmen"]
        self.arrivals = getattr(self, "arrivals", [])
        cells = self.cells([tm["shop"] for tm in ts], f"{w}.tradesmen", ".shop")
        for t, (tm, x) in enumerate(zip(ts, cells)):
            p["pos"][t] = x
            p["room"][t] = names.ROOMS.index(tm["room"])
            p["upright"][t] = int(tm["upright"])
            self.arrivals.append((tm.get("arrived", 0), seat, t))
        if cells[0] == cells[1]:
            raise Problem(f"{w}.tradesmen", "both in one shop: never two tradesmen of a player in a shop")

    def workshop(self, pd, p, w):
        found = Problems()
        ids = [x["id"] for x in self.cd["workshop"]]
        for key, e in pd.get("workshop", {}).items():
            where = f"{w}.workshop.{key}"
            with found.each():
                if key not in ids:
                    raise Problem(where, f"{show(key)} is not a workshop space ({', '.join(ids)})")
                x = ids.index(key)
                for side in ("up", "down"):
                    if side in e and e[side] is not None:
                        with found.each():
                            kind, i = self.take(e[side], ("technology", "factory"), f"{where}.{side}")
                            p[side][x] = i if kind == "technology" else N_TECHS + i
        found.stop()

    def letters(self, pd, p, w):
        found = Problems()
        stacks = pd.get("lead_letters", [])
        if len(stacks) > 2:
            raise Problem(f"{w}.lead_letters", f"{len(stacks)} stacks: at most 2")
        for k, stack in enumerate(stacks):
            xs = []
            for i, r in enumerate(stack):
                with found.each():
                    xs.append(self.one(r, "letter", f"{w}.lead_letters[{k}][{i}]"))
            p["stack"][k] = xs + [-1] * (16 - len(xs))
            p["stack_n"][k] = len(xs)
        sticks = pd.get("composing_sticks", [])
        for r, stick in enumerate(sticks):
            for c, e in enumerate(stick):
                where = f"{w}.composing_sticks[{r}][{c}]"
                if e is None:
                    continue
                with found.each():
                    letter, disc = (e, None) if not isinstance(e, dict) else (e["letter"], e.get("disc"))
                    p["stick"][r * 3 + c] = self.one(letter, "letter", where if disc is None else f"{where}.letter")
                    if disc is not None:
                        d = self.one(disc, "disc", f"{where}.disc")
                        p["stick_disc"][r * 3 + c] = d
        found.stop()
        # The slots the sticks unlock (core.pyx open_slots): a formation anywhere, not rotated.
        open_ = 0
        for k, sl in enumerate(self.cd["contract_slots"]):
            cells = [(dr, dc) for dr, dc in sl["formation"]]
            for r0 in range(STICK_SIDE):
                for c0 in range(STICK_SIDE):
                    if all(0 <= r0 + dr < 3 and 0 <= c0 + dc < 3 and p["stick"][(r0 + dr) * 3 + c0 + dc] >= 0
                           for dr, dc in cells):
                        open_ |= 1 << k
        p["slots_open"] = open_

    def contracts(self, pd, p, w):
        found = Problems()
        owned = 0
        for i, e in enumerate(pd.get("contracts", [])):
            where = f"{w}.contracts[{i}]"
            with found.each():
                c = self.one(e["contract"], "contract", f"{where}.contract")
                owned |= 1 << c
                if "slot" in e:
                    k = e["slot"] - 1
                    if not (p["slots_open"] >> k) & 1:
                        raise Problem(f"{where}.slot", f"slot {k + 1} is locked: the composing sticks do not show "
                                                       "its formation")
                    if p["slot_contract"][k] >= 0:
                        raise Problem(f"{where}.slot", f"slot {k + 1} holds another contract")
                    p["slot_contract"][k] = c
                if "letter" in e:
                    p["contract_letter"][c] = self.one(e["letter"], "letter", f"{where}.letter")
        p["contracts"] = owned
        used = pd.get("slot_bonuses_taken")
        filled = [k for k in range(4) if p["slot_contract"][k] >= 0]
        p["slots_used"] = _mask(filled) if used is None else _mask(k - 1 for k in used)
        with found.each():
            missing = [k + 1 for k in filled if not (p["slots_used"] >> k) & 1]
            if missing:
                raise Problem(f"{w}.slot_bonuses_taken", f"slots {missing} hold a contract, so their bonus was taken")
            locked = [k + 1 for k in _bits(p["slots_used"]) if not (p["slots_open"] >> k) & 1]
            if locked:
                raise Problem(f"{w}.slot_bonuses_taken", f"slots {locked} are locked")
        p["slots_changed"] = _mask(k - 1 for k in pd.get("slots_filled_this_turn", []))
        found.stop()

    def production(self, pd, p, w):
        found = Problems()
        line = pd.get("production", {})
        for key, size in (("waiting", 2), ("stages", 4)):
            refs = line.get(key, [])
            xs = []
            for i, r in enumerate(refs):
                with found.each():
                    xs.append(-1 if r is None else self.one(r, "order", f"{w}.production.{key}[{i}]"))
                    continue
                xs.append(-1)
            p[key if key == "waiting" else "stage"] = xs + [-1] * (size - len(xs))
        done, used, fresh = [], [], []
        for i, e in enumerate(pd.get("completed_orders", [])):
            with found.each():
                ref, state = (e, "unused") if not isinstance(e, dict) else (e["order"], e.get("signboard", "unused"))
                x = self.one(ref, "order", f"{w}.completed_orders[{i}]")
                done.append(x)
                if state == "used":
                    used.append(x)
                elif state == "fresh":
                    fresh.append(x)
        p["completed"], p["signs_used"], p["signs_fresh"] = _mask(done), _mask(used), _mask(fresh)
        found.stop()

    # -- what follows from the rest ----------------------------------------------------------
    def derived(self):
        s, n, cat = self.s, self.n, self.cd
        d = self.data
        players = s["players"][:n]
        found = Problems()          # every independent problem, reported at once
        with found.each():
            self.sequence()
        # Who entered a room first: "arrived" (1 first), else the seats' order.
        given: dict = {}
        for arrived, seat, t in self.arrivals:
            if arrived and arrived in given:
                found.add(f"seats[{seat}].tradesmen[{t}].arrived", f"{arrived}, as seats[{given[arrived][0]}]."
                                                                    f"tradesmen[{given[arrived][1]}]: one tradesman "
                                                                    "arrives at a time")
            given.setdefault(arrived, (seat, t))
        for stamp, (_, seat, t) in enumerate(sorted(self.arrivals), start=1):
            s["players"][seat]["entered"][t] = stamp
        s["stamp"] = len(self.arrivals)
        # Assistants: in hand those not on the board; those of workforce 3 and 6.
        for seat, p in enumerate(players):
            on = {s["street_kind"][e] for e in range(32) if s["street_owner"][e] == seat}
            p["assistants"] = _mask(k for k in range(len(ASSISTANT_KINDS)) if k not in on)
            at = self.wf.get(seat, {})
            p["wf_street"] = [at.get(3, -1), at.get(6, -1)]
            for workforce in at:
                if p["workforce"] < workforce:
                    found.add(f"seats[{seat}].workforce", f"{p['workforce']}, but an assistant of the player "
                                                          f"came from workforce {workforce}")
            p["factories_paid"] = sum(1 for code in list(p["up"]) + list(p["down"]) if code >= N_TECHS)
            left = N_MARKERS - len(_bits(p["cities"])) - p["factories_paid"]
            given = d["seats"][seat].get("city_markers_left")
            if given is not None and given != left:
                found.add(f"seats[{seat}].city_markers_left",
                          f"{given}, but {len(_bits(p['cities']))} on the map and {p['factories_paid']} under "
                          f"factories leave {left}")
        # Resources and marks: the supply and the bank hold the rest.
        for r, res in enumerate(names.RESOURCES):
            held = sum(p["res"][r] for p in players)
            if held > RESOURCE_SUPPLY:
                found.add("seats", f"{held} {res} held; the game has {RESOURCE_SUPPLY}")
            s["supply"][r] = RESOURCE_SUPPLY - held
        s["bank"] = BANK - sum(p["marks"] for p in players)
        # Hidden factories: drawn from those of their level that are nowhere else.
        rng = random.Random(d.get("seed", 0))
        named = set(self.placed["factory"])
        for lv, i in self.hidden:
            pool = [x for x in range(lv * PER_LEVEL_FACTORIES, (lv + 1) * PER_LEVEL_FACTORIES)
                    if x not in named and cat["factories"][x]["level"] == names.LEVELS[lv]]
            if not pool:
                found.add(f"displays.factories_under.{names.LEVELS[lv]}[{i}]",
                          f"hidden, but every factory of level {names.LEVELS[lv]} is elsewhere")
                continue
            x = rng.choice(pool)
            named.add(x)
            s["factory_bottom"][lv][i] = x
        # The piles: what is nowhere else.
        def rest(kind, total):
            return _mask(x for x in range(total) if x not in self.placed[kind])
        s["letter_pile"] = rest("letter", len(cat["lead_letters"]))
        s["tile_pile"] = rest("tile", len(cat["trading_tiles"]))
        s["tech_pile"] = rest("technology", len(cat["technologies"]))
        s["factory_pile"] = _mask(x for x in range(len(cat["factories"])) if x not in named)
        s["order_pile"] = rest("order", len(cat["orders"]))
        # Each round's preparation leaves at least as many empty spaces in the orders'
        # supply as there are players ("discard as many as needed from the cheapest
        # spaces"), so by round r at least players x (r - 1) orders have left the display.
        # (The final phase follows a round with no preparation.)
        prepared = d["round"] - 1 - (d["phase"] == "final")
        shown = sum(1 for x in self.order_spaces if x >= 0)
        gone = len(self.placed["order"]) - shown
        least = min(self.n * prepared, len(cat["orders"]) - shown)
        if gone < least:
            found.add("round", f"round {d['round']}: each round's preparation takes at least {self.n} orders off "
                               f"the display (bought or discarded), {least} by now, but {gone} are out (in the workshops, "
                               "completed, discarded: displays.orders_discarded)")
        s["contract_pile"] = rest("contract", len(cat["contracts"]))
        s["disc_pile"] = rest("disc", len(cat["city_discs"]))
        s["drawn"] = [-1, -1, -1]
        s["drawn_seen"] = [0, 0, 0]
        if s["letter_pile"] and s["letter_top"] < 0:
            found.add("displays.letter_pile_top", "missing: the letters on the back of the lead letters' top tile "
                                                  "(the pile is not empty)")
        if not s["letter_pile"] and s["letter_top"] >= 0:
            found.add("displays.letter_pile_top", "the lead letters' pile is empty: write null")
        # Orders left in each pile: the level's orders less the box's share and those drawn.
        given = d["displays"].get("orders_left", {})
        for lv, level in enumerate(names.LEVELS):
            of_level = [x for x in range(len(cat["orders"])) if cat["orders"][x]["level"] == level]
            drawn = sum(1 for x in of_level if x in self.placed["order"])
            s["orders_left"][lv] = given.get(level, len(of_level) - REMOVED_ORDERS[n] - drawn)
            if s["orders_left"][lv] < 0:
                found.add(f"displays.orders_left.{level}", f"{drawn} orders of level {level} out of "
                          f"{len(of_level)}, {REMOVED_ORDERS[n]} of them in the box: too many")
        # A table at a decision has every face-up space filled that its pile can fill.
        for what, spaces, left in (("trading_tiles", s["face_tiles"], s["tile_pile"] or s["tile_discard"]),
                                   ("typesetting_table", s["table"], s["letter_pile"] or s["letter_discard"])):
            if left and -1 in spaces:
                found.add(f"displays.{what}", "an empty space, and the pile (or its discards) would fill it")
        for lv, level in enumerate(names.LEVELS):
            pile = any(cat["technologies"][x]["level"] == level for x in _bits(s["tech_pile"]))
            if (pile or s["tech_bottom_n"][lv]) and -1 in s["tech_face"][lv]:
                found.add(f"displays.technologies.{level}", "an empty space, and the pile would fill it")
        found.stop()

    # -- the result -----------------------------------------------------------------------
    def state(self):
        try:
            state = self.rules.state_from_dict(self.s)
        except ValueError as e:
            raise Problem("", f"inconsistent position ({e})") from None
        cp = state.current_player()
        if cp != self.to_act:
            who = "a draw" if cp == -1 else "nobody" if cp < 0 else f"seats[{cp}]"
            raise Problem("to_act", f"the rules ask {who} here, not seats[{self.to_act}]")
        legal = state.legal_actions()
        if not legal:
            raise Problem("to_act", "nothing to decide here")
        if legal == [_core.ACTIONS["PASS"]] and self.phase in ("orders", "production"):
            # The rules pass over a player with nothing to buy, or no order to advance.
            what = "nothing they can buy" if self.phase == "orders" else "no order they can advance now"
            raise Problem("to_act", f"seats[{self.to_act}] has {what}: the rules go on without asking")
        return state


# ---------------------------------------------------------------------------------------
# Writing a table
# ---------------------------------------------------------------------------------------
def unsupported(core) -> str | None:
    """Why the table form cannot write this state (None: it can)."""
    if core.is_terminal():
        return "the game is over"
    if core.is_chance():
        return f"the state is at a draw ({core.step_name()}); positions are decisions"
    d = core.to_dict()
    if d["phase"] not in PHASE_OF.values():
        return "the setup is written as moves"
    if d["n_frames"]:
        return (f"an effect is waiting for a decision ({core.step_name()}); the table form writes a turn's "
                "own menu (before or after its Shop or Reset, an order phase's or production's choice)")
    return None


def written_names(seat_names, players: int) -> list[str] | None:
    """The "names" a file writes: one a seat ("player K" where a seat has none), or None
    where no seat has a name."""
    given = list(seat_names or [])[:players]
    if not any(given):
        return None
    given += [None] * (players - len(given))
    return [str(name) if name else f"player {seat}" for seat, name in enumerate(given)]


def table_of(core, seat_names=None, viewer: int | None = None) -> dict:
    """The table form (a JSON-ready dict) of a CoreState at a decision of the turn's
    own menu. With `viewer`, the factories under the piles that player has not seen are
    written "hidden"."""
    why = unsupported(core)
    if why:
        from gutenberg_ai.games.positionfile import PositionError
        raise PositionError("state", "", why)
    s = core.to_dict()
    rules = core.rules
    cd = rules.catalogue.data
    n = s["num_players"]
    phase = next(k for k, v in PHASE_OF.items() if v == s["phase"])
    to_act = core.current_player()
    out: dict = {"format": FORMAT, "version": VERSION, "form": "table", "players": n}
    if rules.rounds:
        out["rounds"] = rules.rounds
    if not rules.factory_tops:
        out["factory_tops"] = False
    if written := written_names(seat_names, n):
        out["names"] = written
    if viewer is not None:
        out["seen_by"] = viewer
    out.update({"round": s["rounds_played"] + 1, "phase": phase, "to_act": to_act,
                "player_order": list(s["order"][:n])})
    if phase == "actions":
        out["turn"] = s["turn"] // n + 1
        out["main_action_done"] = bool(s["main_done"])
    elif phase == "production":
        out["stages_left"] = s["prod_left"]

    def refs(kind, xs):
        return [None if x < 0 else name_of(kind, x) for x in xs]

    def listed(kind, mask):
        return [name_of(kind, x) for x in _bits(mask)]

    disp: dict = {"trading_tiles": refs("tile", s["face_tiles"])}
    if s["tile_discard"]:
        disp["trading_tiles_discarded"] = listed("tile", s["tile_discard"])
    disp["technologies"] = {lv: refs("technology", s["tech_face"][i]) for i, lv in enumerate(names.LEVELS)}
    under = {lv: refs("technology", s["tech_bottom"][i][:s["tech_bottom_n"][i]])
             for i, lv in enumerate(names.LEVELS) if s["tech_bottom_n"][i]}
    if under:
        disp["technologies_under"] = under
    fu = {}
    for i, lv in enumerate(names.LEVELS):
        es = []
        for k in range(s["factory_bottom_n"][i]):
            seen = s["factory_bottom_seen"][i][k]
            x = s["factory_bottom"][i][k]
            shown = viewer is None or (seen >> viewer) & 1
            es.append({"factory": name_of("factory", x) if shown else HIDDEN,
                       "seen_by": [q for q in range(n) if (seen >> q) & 1]})
        if es:
            fu[lv] = es
    if fu:
        disp["factories_under"] = fu
    tops = {lv: name_of("factory", s["factory_top"][i]) for i, lv in enumerate(names.LEVELS)
            if s.get("factory_top", [-1] * 4)[i] >= 0}
    if tops:
        disp["factory_pile_tops"] = tops
    orders_taken, contracts_taken = s["taken"]
    disp["orders"] = _display(refs("order", s["order_display"]), orders_taken)
    disp["contracts"] = _display(refs("contract", s["contract_display"]), contracts_taken)
    if disp["orders"].count("taken") != orders_taken or disp["contracts"].count("taken") != contracts_taken:
        disp["bought"] = {"orders": orders_taken, "contracts": contracts_taken}   # refilled at once
    if s["order_discard"]:
        disp["orders_discarded"] = listed("order", s["order_discard"])
    if s["contract_discard"]:
        disp["contracts_discarded"] = listed("contract", s["contract_discard"])
    disp["orders_left"] = {lv: s["orders_left"][i] for i, lv in enumerate(names.LEVELS)}
    disp["typesetting_table"] = refs("letter", s["table"])
    disp["letter_pile_top"] = None if s["letter_top"] < 0 else \
        "".join(names.LETTERS[i] for i in range(6) if (s["letter_top"] >> i) & 1)
    if s["letter_discard"]:
        disp["lead_letters_discarded"] = listed("letter", s["letter_discard"])
    out["displays"] = disp
    cities = rules.catalogue.city_names
    out["city_discs"] = {cities[c]: (None if s["city_disc"][c] < 0 else name_of("disc", s["city_disc"][c]))
                         for c in range(len(cities)) if cd["travel_map"]["cities"][c]["kind"] == "grey"}
    board = cd["city_board"][str(n)]

    def shop_at(cell):
        return cd["shops"][board[cell // GRID_SIDE][cell % GRID_SIDE] - 1]["name"]

    assistants = []
    for street in range(32):
        q = s["street_owner"][street]
        if q < 0:
            continue
        cell = street // 2
        other = cell + 1 if street % 2 == 0 else cell + GRID_SIDE
        a = {"owner": q, "kind": ASSISTANT_KINDS[s["street_kind"][street]], "between": [shop_at(cell), shop_at(other)]}
        wf = s["players"][q]["wf_street"]
        if street in wf:
            a["from_workforce"] = (3, 6)[list(wf).index(street)]
        assistants.append(a)
    if assistants:
        out["assistants"] = assistants
    # Arrival order: only who came first into a shared room matters; written as ranks.
    stamps = sorted((s["players"][q]["entered"][t], q, t) for q in range(n) for t in range(2))
    rank = {(q, t): i + 1 for i, (_, q, t) in enumerate(stamps)}
    spaces = [x["id"] for x in cd["workshop"]]
    players = []
    for q in range(n):
        p = s["players"][q]
        e: dict = {"marks": p["marks"], "points": p["points"], "workforce": p["workforce"],
                   "capacity": p["capacity"]}
        for r, res in enumerate(names.RESOURCES):
            e[res] = p["res"][r]
        e["order_track"] = {"section": p["section"], "slot": p["track_slot"]}
        e["agent"] = rules.catalogue.node_name(p["agent"])
        e["tradesmen"] = [{"shop": shop_at(p["pos"][t]), "room": names.ROOMS[p["room"][t]],
                           "upright": bool(p["upright"][t]), "arrived": rank[(q, t)]} for t in range(2)]
        ws = {}
        for x in range(15):
            sp = {}
            for side in ("up", "down"):
                code = p[side][x]
                if code >= 0:
                    sp[side] = name_of("technology", code) if code < N_TECHS else name_of("factory", code - N_TECHS)
            if sp:
                ws[spaces[x]] = sp
        if ws:
            e["workshop"] = ws
        stacks = [refs("letter", p["stack"][k][:p["stack_n"][k]]) for k in range(2)]
        while stacks and not stacks[-1]:
            stacks.pop()
        if stacks:
            e["lead_letters"] = stacks
        if any(x >= 0 for x in p["stick"]):
            e["composing_sticks"] = [[None if p["stick"][r * 3 + c] < 0 else
                                      (name_of("letter", p["stick"][r * 3 + c]) if p["stick_disc"][r * 3 + c] < 0 else
                                       {"letter": name_of("letter", p["stick"][r * 3 + c]),
                                        "disc": name_of("disc", p["stick_disc"][r * 3 + c])})
                                      for c in range(3)] for r in range(3)]
        cs = []
        for c in _bits(p["contracts"]):
            ce: dict = {"contract": name_of("contract", c)}
            if c in p["slot_contract"]:
                ce["slot"] = list(p["slot_contract"]).index(c) + 1
            if p["contract_letter"][c] >= 0:
                ce["letter"] = name_of("letter", p["contract_letter"][c])
            cs.append(ce)
        if cs:
            e["contracts"] = cs
        if p["slots_used"]:
            e["slot_bonuses_taken"] = [k + 1 for k in _bits(p["slots_used"])]
        if p["slots_changed"]:
            e["slots_filled_this_turn"] = [k + 1 for k in _bits(p["slots_changed"])]
        e["production"] = {"waiting": refs("order", p["waiting"]), "stages": refs("order", p["stage"])}
        done = []
        for x in _bits(p["completed"]):
            state = "used" if (p["signs_used"] >> x) & 1 else "fresh" if (p["signs_fresh"] >> x) & 1 else "unused"
            done.append({"order": name_of("order", x), "signboard": state})
        if done:
            e["completed_orders"] = done
        if p["discs"]:
            e["city_discs"] = [{"disc": name_of("disc", x), "used": bool((p["discs_used"] >> x) & 1)}
                               for x in _bits(p["discs"])]
        if p["cities"]:
            e["cities"] = [cities[c] for c in _bits(p["cities"])]
        e["city_markers_left"] = N_MARKERS - len(_bits(p["cities"])) - p["factories_paid"]
        if p["pairing"]:
            e["pairing"] = True
        bought = [w for w, f in (("order", p["bought_order"]), ("contract", p["bought_contract"])) if f]
        if bought:
            e["bought"] = bought
        players.append(e)
    out["seats"] = players
    return out


def _display(spaces: list, taken: int) -> list:
    """A display's spaces with the empty ones bought this round written "taken" (the
    cheapest empty spaces first: which ones does not change the rules)."""
    out = list(spaces)
    for i, x in enumerate(out):
        if taken and x is None:
            out[i] = "taken"
            taken -= 1
    return out
