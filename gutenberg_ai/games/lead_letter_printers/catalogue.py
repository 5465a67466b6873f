"""The Lead Letter Printers catalogue: every component that the rulebook shows only as a
picture (the tracks, the shops and how they lie for each player count, the workshop's
technology spaces and lines, the composing sticks and the contract slots' formations, the
travel map, 54 lead letters, 48 technologies, 36 factories, 36 trading tiles, 36 orders,
24 contracts, 24 city discs), as data, loaded and validated.

The built-in file is ``data/catalogue.json`` (``docs/lead_letter_printers/catalogue.md``
says which facts are the rulebook's and which are our reconstruction); a person who owns
the box can write their own and load it as the game parameter ``catalogue``. Loading
checks the file against the JSON Schema ``data/catalogue.schema.json`` (the shape of every
field), then what the schema cannot say (numbering, the rulebook's counts and worked
examples, references between parts, a map in one piece). Every problem is reported at
once in one :class:`CatalogueError`, each with its place in the file; nothing is returned
half-loaded.

:meth:`Catalogue.to_core` gives the nested dict that the compiled core copies into its C
``struct Catalogue`` (ext/lead_letter_printers/llp_types.pxd), field for field.
"""
from __future__ import annotations

import copy
import functools
import json
from collections import Counter
from typing import Any

from gutenberg_ai.games.positionfile import not_a_catalogue
from gutenberg_ai.common.jsonfile import (FileDataError, data_file_readers, packaged_json, raise_problems, path_text, show,
                                  text_problem)
from gutenberg_ai.common.words import counted

from .names import (CITY_KINDS, CONTRACT_KINDS, EFFECTS, FACTORY_ABILITIES, FREE_WORDS, GOODS,
                    GREEN_EFFECTS, LETTERS, LEVELS, RESOURCES, SIGNBOARDS)

__all__ = ["Catalogue", "CatalogueError", "catalogue_schema", "default_catalogue",
           "load_catalogue", "parse_catalogue"]

# Counts fixed by the rulebook's component list (and the core's arrays).
COUNTS = {"lead_letters": 54, "technologies": 48, "factories": 36, "trading_tiles": 36,
          "orders": 36, "contracts": 24, "city_discs": 24, "shops": 16}
TECHS_PER_LEVEL = 12          # "draw 3 technologies from each deck" (48 = 4 decks of 12: ours)
FACTORIES_PER_LEVEL = 9       # the core keeps factory piles by id (ours: 36 = 4 x 9)
ORDERS_REMOVED = {2: 5, 3: 3, 4: 1}   # "remove 5 of each; ... 3 of each; ... 1 of each"
ORDERS_FACE_UP = 5            # "draw 5 tiles from the I deck"
BOARD_SHAPES = {"2": (3, 3), "3": (3, 4), "4": (4, 4)}   # rows x columns ("4x3": 4 across)
SHOPS_FOR = {2: 9, 3: 12, 4: 16}
ROWS = ("top", "middle", "bottom")
MAX_NODES = 64
MAX_DEGREE = 6
MAX_CITIES = 16
ASSISTANT_AT = (3, 6)         # "If your workforce reaches 3 ... The 6th workforce ..."
# Effects with a qualifier, and effects found only on green technologies.
NEEDS_LEVEL = ("technology_level", "copy_technology")
NEEDS_LETTER = ("points_letter",)

BUILTIN_NAME = "catalogue.json"
SCHEMA_NAME = "catalogue.schema.json"
SECTIONS = tuple(packaged_json(__package__, SCHEMA_NAME)["required"])   # the keys a catalogue must have
MAX_FILE_BYTES = 1 << 20
MAX_ITEMS = 200
EXCERPT = 40


class CatalogueError(FileDataError):
    """A catalogue that cannot be used. ``problems`` lists every problem found as
    (where, reason) pairs; ``str(error)`` has a line for each."""


def _excerpt(value: Any) -> str:
    return show(value, EXCERPT)


# ---------------------------------------------------------------------------------------
# The catalogue
# ---------------------------------------------------------------------------------------
class Catalogue:
    """Every component of the game, as the validated file gives it (read-only: use the
    accessors; ``data`` is a private deep copy). Built by :func:`load_catalogue`."""

    def __init__(self, data: dict, path: str | None = None):
        self._data = copy.deepcopy(data)
        self.path = path
        self.about = data.get("about", "")
        self.city_names = tuple(c["name"] for c in data["travel_map"]["cities"])
        self._nodes = _map_nodes(data["travel_map"])

    def __eq__(self, other):
        return isinstance(other, Catalogue) and self._data == other._data

    def __hash__(self):
        return hash(json.dumps(self._data, sort_keys=True))

    @property
    def data(self) -> dict:
        """A copy of the catalogue as JSON data."""
        return copy.deepcopy(self._data)

    # -- words ---------------------------------------------------------------------------
    def describe_effects(self, effects) -> str:
        return ", ".join(describe_effect(e) for e in effects) or "nothing"

    # The components a kind of gutenberg-ai cards counts (cards.py).
    _KINDS = {"letter": "lead_letters", "technology": "technologies", "factory": "factories",
              "tile": "trading_tiles", "order": "orders", "contract": "contracts", "disc": "city_discs"}

    def count(self, kind: str) -> int:
        """How many components of a kind ("letter", "technology", ... as cards.KINDS)."""
        return len(self._data[self._KINDS[kind]])

    def city_board(self, players: int) -> list[list[int]]:
        """The city board's shops for a player count: rows of shop numbers (1-based)."""
        return [list(row) for row in self._data["city_board"][str(players)]]

    def letters_of(self, i: int) -> str:
        """The letters on lead letter i."""
        return self._data["lead_letters"][i]["letters"]

    def describe_letter(self, i: int) -> str:
        x = self._data["lead_letters"][i]
        return f"lead letter {x['number']} {x['letters']} ({_goods_text(x['resources'])})"

    def describe_tech(self, i: int) -> str:
        t = self._data["technologies"][i]
        return f"technology {t['number']} ({t['level']}: {self.describe_effects(t['action'])})"

    def describe_factory(self, i: int) -> str:
        f = self._data["factories"][i]
        return f"factory {f['number']} ({f['level']}: {describe_ability(f)})"

    def describe_tile(self, i: int) -> str:
        t = self._data["trading_tiles"][i]
        arrow = "<->" if t["two_way"] else "->"
        times = f" up to {t['times']}x" if t["times"] > 1 else ""
        return f"trading tile {t['number']} ({_goods_text(t['give'])} {arrow} {_goods_text(t['get'])}{times})"

    def describe_order(self, i: int) -> str:
        o = self._data["orders"][i]
        stages = " | ".join(_goods_text(x) or "-" for x in o["stages"])
        sign = f", {o['signboard']} signboard" if "signboard" in o else ""
        return f"order {o['number']} ({o['level']}, {counted(o['points'], 'point')}{sign}; {stages})"

    def describe_contract(self, i: int) -> str:
        c = self._data["contracts"][i]
        return f"contract {c['number']} ({describe_contract_rule(c)})"

    def describe_disc(self, i: int) -> str:
        d = self._data["city_discs"][i]
        sign = f", {d['signboard']} signboard" if "signboard" in d else ""
        return f"city disc {d['number']} ({d['letter']}{sign}: {self.describe_effects(d['reward'])})"

    def shop_name(self, i: int) -> str:
        return self._data["shops"][i]["name"]

    def room_action(self, shop: int, room: int) -> str:
        """What a tradesman entering room I (0) or II (1) of the shop does, in words."""
        return self.describe_effects(self._data["shops"][shop]["rooms"][room])

    def describe_room(self, shop: int, room: int) -> str:
        return f"{self.shop_name(shop)} room {('I', 'II')[room]} ({self.room_action(shop, room)})"

    def space_name(self, x: int) -> str:
        return self._data["workshop"][x]["id"]

    def node_name(self, node: int) -> str:
        return self._nodes["names"][node]

    def max_score(self) -> int:
        """A generous bound on a final score, for the utility range: every order's points,
        three sticks, the director's best, four contracts at a full board doubled, every
        signboard set, a track of points from effects, and the resources and cash."""
        orders = sum(o["points"] for o in self._data["orders"])
        director = max(s["points"] for s in self._data["tracks"]["director"])
        return orders + 3 * 5 + director + 4 * 2 * 40 + 12 * 5 + 150 + (60 + 300) // 5

    # -- the compiled core's struct --------------------------------------------------------
    def to_core(self) -> dict:
        """The catalogue as the core's C ``struct Catalogue`` (llp_types.pxd)."""
        d = self._data
        space_index = {s["id"]: i for i, s in enumerate(d["workshop"])}
        boards: list[dict[str, Any]] = [{"rows": 0, "cols": 0, "shop": [-1] * 16} for _ in range(5)]
        for k, grid in d["city_board"].items():
            b = boards[int(k)]
            b["rows"], b["cols"] = len(grid), len(grid[0])
            for r, row in enumerate(grid):
                for c, shop in enumerate(row):
                    b["shop"][r * 4 + c] = shop - 1
        slots = []
        for s in d["contract_slots"]:
            cells = s["formation"] + [[0, 0]] * (4 - len(s["formation"]))
            slots.append({"n": len(s["formation"]), "dr": [c[0] for c in cells], "dc": [c[1] for c in cells],
                          "action": _effects_core(s["action"])})
        nodes = self._nodes
        return {
            "letters": [{"letters": sum(1 << LETTERS.index(x) for x in t["letters"]),
                         "res": _vector(t["resources"], RESOURCES)} for t in d["lead_letters"]],
            "techs": [{"level": LEVELS.index(t["level"]),
                       "green": int(t["action"][0]["do"] in GREEN_EFFECTS),
                       "action": _effects_core(t["action"])} for t in d["technologies"]],
            "factories": [{"level": LEVELS.index(f["level"]), "ability": FACTORY_ABILITIES.index(f["ability"]),
                           "arg": _ability_arg(f)} for f in d["factories"]],
            "tiles": [{"give": _vector(t["give"], GOODS), "get": _vector(t["get"], GOODS),
                       "two_way": int(t["two_way"]), "times": t["times"]} for t in d["trading_tiles"]],
            "orders": [{"level": LEVELS.index(o["level"]), "points": o["points"],
                        "sign": SIGNBOARDS.index(o["signboard"]) if "signboard" in o else -1,
                        "cost": [_vector(x, RESOURCES) for x in o["stages"]]} for o in d["orders"]],
            "contracts": [{"kind": CONTRACT_KINDS.index(c["scores"]), "arg": _contract_arg(c)} for c in d["contracts"]],
            "discs": [{"letter": LETTERS.index(x["letter"]),
                       "sign": SIGNBOARDS.index(x["signboard"]) if "signboard" in x else -1,
                       "reward": _effects_core(x["reward"])} for x in d["city_discs"]],
            "shops": [{"players": s["players"], "room": [_effects_core(r) for r in s["rooms"]]} for s in d["shops"]],
            "boards": boards,
            "spaces": [{"level": LEVELS.index(s["level"]), "column": s["column"] - 1,
                        "left": sum(1 << space_index[x] for x in s["left"]),
                        "action": _effects_core(s["action"])} for s in d["workshop"]],
            "stick": [{"letter": LETTERS.index(x["letter"]), "action": _effects_core(x["action"])}
                      for row in d["composing_sticks"] for x in row],
            "slots": slots,
            "capacity_reward": [_effects_core(x) for x in d["tracks"]["capacity"]],
            "director_reward": [_effects_core(x["reward"]) for x in d["tracks"]["director"]],
            "director_points": [0] + [x["points"] for x in d["tracks"]["director"]],
            "workforce_max": d["tracks"]["workforce_max"],
            "assistant_at": list(d["tracks"]["assistant_at"]),
            "order_steps": list(d["tracks"]["order_marker_steps"]),
            "row_cost": [_vector(x, RESOURCES) for x in d["technology_market"]["row_costs"]],
            "column_money": list(d["technology_market"]["column_money"]),
            "order_price": list(d["order_prices"]),
            "contract_price": list(d["contract_prices"]),
            "n_cities": nodes["n_cities"],
            "city_kind": _pad([CITY_KINDS.index(c["kind"]) for c in d["travel_map"]["cities"]], MAX_CITIES, -1),
            "mainz": nodes["mainz"],
            "n_nodes": len(nodes["names"]),
            "degree": _pad([len(x) for x in nodes["next"]], MAX_NODES, 0),
            "next": _pad([_pad(x, MAX_DEGREE, -1) for x in nodes["next"]], MAX_NODES, [-1] * MAX_DEGREE),
            "road_of": _pad([_pad(x, MAX_DEGREE, -1) for x in nodes["road_of"]], MAX_NODES, [-1] * MAX_DEGREE),
            "n_roads": len(nodes["road_end"]),
            "road_end": _pad(nodes["road_end"], 32, [-1, -1]),
        }


def _pad(xs, n, fill):
    return list(xs) + [copy.deepcopy(fill) for _ in range(n - len(xs))]


def _vector(goods: dict, names) -> list[int]:
    return [goods.get(x, 0) for x in names]


# The goods counted by the piece, named in the plural: "1 mark", "2 marks".
_PIECES = {"marks": "mark", "points": "point"}


def _goods_text(goods: dict) -> str:
    return " + ".join(counted(n, _PIECES[g], g) if g in _PIECES else f"{n} {g}" for g, n in goods.items())


def _effect_arg(e: dict) -> int:
    if e["do"] == "technology":
        free = e.get("free", [])
        return sum(1 << FREE_WORDS.index(w) for w in free) if isinstance(free, list) else (3 if free else 0)
    if e["do"] in NEEDS_LEVEL:
        return LEVELS.index(e["level"])
    if e["do"] in NEEDS_LETTER:
        return LETTERS.index(e["letter"])
    return int(bool(e.get("free", False)))


def _effects_core(effects: list) -> dict:
    es = [{"kind": EFFECTS.index(e["do"]), "n": e.get("n", 1), "arg": _effect_arg(e)} for e in effects]
    return {"n": len(es), "e": es + [{"kind": 0, "n": 0, "arg": 0}] * (3 - len(es))}


def _ability_arg(f: dict) -> int:
    if "stage" in f:
        return f["stage"] - 1
    if "good" in f:
        return (RESOURCES + ("marks",)).index(f["good"])
    if "signboard" in f:
        return SIGNBOARDS.index(f["signboard"])
    return 0


def _contract_arg(c: dict) -> int:
    if "signboard" in c:
        return SIGNBOARDS.index(c["signboard"])
    if "level" in c:
        return LEVELS.index(c["level"])
    if "letter" in c:
        return LETTERS.index(c["letter"])
    return 0


_EFFECT_WORDS = {
    "paper": "{n} paper", "lead": "{n} lead", "ink": "{n} ink", "marks": "{n} marks", "points": "{n} points",
    "resource": "{n} resource(s) of choice", "capacity": "{n} capacity", "capacity_reward": "1 capacity with its reward",
    "workforce": "{n} workforce", "trade": "{n} trade", "typesetting": "{n} typesetting",
    "typesetting_any": "typesetting, the action regardless of the letter", "travel": "travel",
    "technology": "technology", "technology_level": "a level {level} technology for free", "factory": "a factory",
    "assistant": "an assistant", "letter_resources": "{n}x the resources of a lead letter",
    "take_letter": "a lead letter from the table", "discard_letter": "a lead letter of the table for its resources",
    "advance_order": "an order 1 stage on", "steps": "{n} steps on the map or the order track",
    "buy_order": "buy an order", "buy_contract": "buy a contract", "signboard": "a signboard action",
    "city_disc": "a city disc of choice", "copy_technology": "copy a technology of level {level} or lower",
    "slide": "a tradesman down to its II room ({n}x its action)", "pairing": "city tiles pair with lead letters",
    "points_capacity": "points: half the capacity", "points_workforce": "points: the workforce",
    "points_assistants": "points: the assistants on the city board",
    "points_technologies": "points: the I-III technologies", "points_letter": "points: the {letter} letters",
}


def describe_effect(e: dict) -> str:
    n = e.get("n", 1)
    if e["do"] in _PIECES:
        return counted(n, _PIECES[e["do"]], e["do"])
    text = _EFFECT_WORDS[e["do"]].format(n=n, level=e.get("level", ""), letter=e.get("letter", ""))
    free = e.get("free")
    if free:
        if e["do"] == "technology":
            text += " without paying " + " or ".join(free)
        elif e["do"] == "take_letter":
            text += " with its resources"
        else:
            text += " for free"
    return text


def describe_ability(f: dict) -> str:
    a = f["ability"]
    if a.startswith("stage_"):
        gain = {"stage_marks": "1 mark", "stage_capacity": "1 capacity", "stage_trade": "a trade",
                "stage_points": "1 point"}[a]
        return f"{gain} when an order leaves stage {f['stage']}"
    if a == "reset_good":
        return f"Reset: 1 {f['good'].rstrip('s') if f['good'] == 'marks' else f['good']}"
    if a == "signboard_points":
        return f"2 points for an order with a {f['signboard']} signboard completed"
    return {"reset_capacity": "Reset: 1 capacity", "reset_discard_resource": "a letter discarded at a Reset: 1 resource",
            "letter_marks": "a lead letter taken: 1 mark", "letter_capacity": "a lead letter taken: 1 capacity",
            "workforce_marks": "a workforce gained: 1 mark", "travel_discount": "Travel: 1 mark less",
            "technology_discount": "technology: 1 mark less", "order_discount": "an order: 1 mark less",
            "contract_discount": "a contract: 1 mark less", "trade_marks": "a trade: 1 mark",
            "disc_resource": "a city disc: 1 resource", "typesetting_points": "a typesetting: 1 point",
            "trading_points": "a trade: 1 point"}[a]


def describe_contract_rule(c: dict) -> str:
    k = c["scores"]
    return {"marks": "1 point per 5 marks", "signboards": f"1 point per {c.get('signboard')} signboard",
            "technologies_level": f"1 point per level {c.get('level')} technology",
            "technologies": "1 point per 2 technologies", "city_discs": "1 point per 2 city tiles",
            "orders": "1 point per 2 finished orders", "workforce": "1 point per 2 workforce",
            "factories": "1 point per factory", "letter": f"1 point per {c.get('letter')} on the composing sticks",
            "assistants": "1 point per assistant on the city board", "contracts": "1 point per active contract",
            "slots": "1 point per unlocked contract slot", "columns": "2 points per full column",
            "diagonals": "3 points per full diagonal"}[k]


def _map_nodes(m: dict) -> dict:
    """The travel map as a graph: the cities first, then each road's coin spaces in order
    from its first city; links in the order the roads are listed."""
    cities = [c["name"] for c in m["cities"]]
    index = {n: i for i, n in enumerate(cities)}
    names = list(cities)
    nxt: list[list[int]] = [[] for _ in cities]
    road_of: list[list[int]] = [[] for _ in cities]
    ends = []
    for r, road in enumerate(m["roads"]):
        a, b = index.get(road["from"], 0), index.get(road["to"], 0)
        ends.append([a, b])
        chain = [a]
        for k in range(road["coins"]):
            names.append(f"coin {k + 1} of {road['from']}-{road['to']}")
            nxt.append([])
            road_of.append([])
            chain.append(len(names) - 1)
        chain.append(b)
        for x, y in zip(chain, chain[1:]):
            nxt[x].append(y)
            road_of[x].append(r)
            nxt[y].append(x)
            road_of[y].append(r)
    mainz = next((i for i, c in enumerate(m["cities"]) if c["kind"] == "red"), 0)
    return {"names": names, "next": nxt, "road_of": road_of, "road_end": ends,
            "n_cities": len(cities), "mainz": mainz}


# ---------------------------------------------------------------------------------------
# Checking
# ---------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=1)
def catalogue_schema() -> dict:
    """The JSON Schema (draft 2020-12) of catalogue files, as shipped in the package."""
    return packaged_json(__package__, SCHEMA_NAME)


@functools.lru_cache(maxsize=1)
def _validator():
    import jsonschema
    cls = jsonschema.Draft202012Validator
    cls.check_schema(catalogue_schema())
    return cls(catalogue_schema())


_TYPE_WORDS = {"integer": "a whole number", "number": "a number", "string": "text",
               "boolean": "true or false", "object": "an object {...}", "array": "a list [...]"}


def _schema_reason(error) -> str:
    v, inst, schema, value = error.validator, error.instance, error.schema, error.validator_value
    if v == "required":
        missing = [k for k in value if isinstance(inst, dict) and k not in inst]
        return f"missing key {missing[0]!r}" if missing else error.message
    if v == "additionalProperties":
        allowed = list(schema.get("properties", {}))
        extra = [k for k in inst if k not in allowed]
        return f"unknown key {_excerpt(extra[0])} (expected {', '.join(allowed)})"
    if v == "type":
        want: list[str] = value if isinstance(value, list) else [value]
        return f"must be {' or '.join(_TYPE_WORDS.get(w, w) for w in want)}, got {_excerpt(inst)}"
    if v == "enum":
        shown = ", ".join(map(str, value[:12])) + (" ..." if len(value) > 12 else "")
        return f"{_excerpt(inst)} is not one of {shown}"
    if v in ("minimum", "maximum"):
        return f"{_excerpt(inst)} is out of range ({schema.get('minimum')}-{schema.get('maximum')})"
    if v in ("minItems", "maxItems"):
        lo, hi = schema.get("minItems"), schema.get("maxItems")
        need = f"{lo}" if lo == hi else f"{lo or 0}-{hi if hi is not None else 'any'}"
        return f"{len(inst)} entries, {need} needed"
    if v in ("minLength", "maxLength"):
        return f"{len(inst)} characters, {schema.get('minLength', 0)}-{schema.get('maxLength')} allowed"
    if v == "pattern":
        return f"{_excerpt(inst)} does not match {value}"
    if v == "uniqueItems":
        return "an entry is listed twice"
    if v == "oneOf":
        return f"{_excerpt(inst)} must be true/false or a list of {', '.join(FREE_WORDS)}"
    return error.message


def _schema_problems(data: Any) -> list[tuple[str, str]]:
    errors = sorted(_validator().iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path])
    out, seen = [], set()
    for e in errors:
        p = (path_text(e.absolute_path), _schema_reason(e))
        if p not in seen:
            seen.add(p)
            out.append(p)
    return out


def _effect_problems(where: str, effects: list, green_ok: bool) -> list[tuple[str, str]]:
    out = []
    for i, e in enumerate(effects):
        w = f"{where}[{i}]"
        if e["do"] in NEEDS_LEVEL and "level" not in e:
            out.append((w, f"{e['do']} names a level"))
        if e["do"] in NEEDS_LETTER and "letter" not in e:
            out.append((w, f"{e['do']} names a letter"))
        if "level" in e and e["do"] not in NEEDS_LEVEL:
            out.append((w, f"a level does not belong to {e['do']}"))
        if "letter" in e and e["do"] not in NEEDS_LETTER:
            out.append((w, f"a letter does not belong to {e['do']}"))
        if isinstance(e.get("free"), list) and e["do"] != "technology":
            out.append((w, f"free is true or false for {e['do']}"))
        if e.get("free") is True and e["do"] not in ("travel", "take_letter", "advance_order", "buy_order", "buy_contract"):
            out.append((w, f"{e['do']} has no free form"))
        if e["do"] in GREEN_EFFECTS and not green_ok:
            out.append((w, f"{e['do']} is a green technology's points, not an action"))
        if e["do"] in GREEN_EFFECTS and len(effects) > 1:
            out.append((w, "a green technology gives its points alone"))
    return out


def _semantic_problems(d: dict) -> list[tuple[str, str]]:
    out = []
    # Names reach the terminal: plain text only.
    for i, x in enumerate(d["shops"]):
        if problem := text_problem(x["name"]):
            out.append((f"shops[{i}].name", problem))
    for i, x in enumerate(d["travel_map"]["cities"]):
        if problem := text_problem(x["name"]):
            out.append((f"travel_map.cities[{i}].name", problem))
    if out:
        return out
    for section, n in COUNTS.items():
        for i, item in enumerate(d[section]):
            if item["number"] != i + 1:
                out.append((f"{section}[{i}].number", f"{item['number']}: the {section} are numbered 1, 2, 3... "
                            f"in order, this one must be {i + 1}"))
    # Piles by level: ids grouped by level, in order (the core's piles are ranges).
    for section, per in (("technologies", TECHS_PER_LEVEL), ("factories", FACTORIES_PER_LEVEL)):
        for i, item in enumerate(d[section]):
            level = LEVELS[i // per]
            if item["level"] != level:
                out.append((f"{section}[{i}].level", f"{item['level']}: the {section} come in piles of {per} by "
                            f"level, I first; this one must be {level}"))
    levels = Counter(o["level"] for o in d["orders"])
    if levels["I"] < ORDERS_REMOVED[2] + ORDERS_FACE_UP:
        out.append(("orders", f"{levels['I']} orders of level I; a 2-player game removes "
                    f"{ORDERS_REMOVED[2]} and lays out {ORDERS_FACE_UP}"))
    for lv in LEVELS[1:]:
        if levels[lv] < ORDERS_REMOVED[2] + 1:
            out.append(("orders", f"{levels[lv]} orders of level {lv}; a 2-player game removes {ORDERS_REMOVED[2]}"))
    for i, o in enumerate(d["orders"]):
        if i and LEVELS.index(o["level"]) < LEVELS.index(d["orders"][i - 1]["level"]):
            out.append((f"orders[{i}].level", "the orders are listed by level, I first"))
    # Effects.
    for i, s in enumerate(d["shops"]):
        for r, room in enumerate(s["rooms"]):
            out += _effect_problems(f"shops[{i}].rooms[{r}]", room, False)
            if not room:
                out.append((f"shops[{i}].rooms[{r}]", "a room with no action"))
    for i, t in enumerate(d["technologies"]):
        out += _effect_problems(f"technologies[{i}].action", t["action"], True)
    for i, x in enumerate(d["city_discs"]):
        out += _effect_problems(f"city_discs[{i}].reward", x["reward"], False)
    for i, x in enumerate(d["workshop"]):
        out += _effect_problems(f"workshop[{i}].action", x["action"], False)
    for i, row in enumerate(d["composing_sticks"]):
        for j, x in enumerate(row):
            out += _effect_problems(f"composing_sticks[{i}][{j}].action", x["action"], False)
    for i, x in enumerate(d["contract_slots"]):
        out += _effect_problems(f"contract_slots[{i}].action", x["action"], False)
        cells = [tuple(c) for c in x["formation"]]
        if len(set(cells)) != len(cells) or (0, 0) not in cells:
            out.append((f"contract_slots[{i}].formation", "distinct cells, (0, 0) among them"))
    for i, x in enumerate(d["tracks"]["capacity"]):
        out += _effect_problems(f"tracks.capacity[{i}]", x, False)
    for i, x in enumerate(d["tracks"]["director"]):
        out += _effect_problems(f"tracks.director[{i}].reward", x["reward"], False)
    # Factories' qualifiers.
    for i, f in enumerate(d["factories"]):
        want = ("stage" if f["ability"].startswith("stage_") else "good" if f["ability"] == "reset_good"
                else "signboard" if f["ability"] == "signboard_points" else None)
        for key in ("stage", "good", "signboard"):
            if key == want and key not in f:
                out.append((f"factories[{i}]", f"{f['ability']} names a {key}"))
            if key != want and key in f:
                out.append((f"factories[{i}].{key}", f"does not belong to {f['ability']}"))
    for i, c in enumerate(d["contracts"]):
        want = {"signboards": "signboard", "technologies_level": "level", "letter": "letter"}.get(c["scores"])
        for key in ("signboard", "level", "letter"):
            if key == want and key not in c:
                out.append((f"contracts[{i}]", f"{c['scores']} names a {key}"))
            if key != want and key in c:
                out.append((f"contracts[{i}].{key}", f"does not belong to {c['scores']}"))
    for i, t in enumerate(d["trading_tiles"]):
        if not t["give"] or not t["get"]:
            out.append((f"trading_tiles[{i}]", "a conversion gives something for something"))
        if "points" in t["give"] or (t["two_way"] and "points" in t["get"]):
            out.append((f"trading_tiles[{i}]", "victory points are never paid in a trade"))
    for i, x in enumerate(d["lead_letters"]):
        if len(set(x["letters"])) != len(x["letters"]) or "".join(sorted(x["letters"])) != x["letters"]:
            out.append((f"lead_letters[{i}].letters", f"{_excerpt(x['letters'])}: different letters, in order"))
        if not 1 <= sum(x["resources"].values()) <= 3:
            out.append((f"lead_letters[{i}].resources", "1 to 3 resources"))
    # Tracks.
    if tuple(d["tracks"]["assistant_at"]) != ASSISTANT_AT:
        out.append(("tracks.assistant_at", f"{_excerpt(d['tracks']['assistant_at'])}: the rulebook's levels are 3 and 6"))
    if d["tracks"]["workforce_max"] < ASSISTANT_AT[1]:
        out.append(("tracks.workforce_max", "the track reaches 6 at least (the 6th workforce's assistant)"))
    # Shops and the city board.
    shops_for = Counter(s["players"] for s in d["shops"])
    if [shops_for[2], shops_for[3], shops_for[4]] != [9, 3, 4]:
        out.append(("shops", f"{shops_for[2]}/{shops_for[3]}/{shops_for[4]} shops for 2+/3+/4+ players; the boards need 9/3/4 "
                    "(3x3, 4x3, 4x4)"))
    for k, (rows, cols) in BOARD_SHAPES.items():
        grid = d["city_board"][k]
        w = f"city_board.{k}"
        if len(grid) != rows or any(len(r) != cols for r in grid):
            out.append((w, f"{len(grid)} rows; {k} players play on {rows} rows of {cols} shops"))
            continue
        used = [x for r in grid for x in r]
        allowed = sorted(s["number"] for s in d["shops"] if s["players"] <= int(k))
        if sorted(used) != allowed:
            out.append((w, f"must use each shop of {k} players or fewer once ({_excerpt(allowed)})"))
    # Workshop.
    ids = [s["id"] for s in d["workshop"]]
    if len(set(ids)) != len(ids):
        out.append(("workshop", "a space id is listed twice"))
    for i, s in enumerate(d["workshop"]):
        if s["id"] != f"{s['column']}{s['row'][0]}":
            out.append((f"workshop[{i}].id", f"{_excerpt(s['id'])}: column and row's first letter, "
                        f"{s['column']}{s['row'][0]}"))
        for x in s["left"]:
            if x not in ids or not x.startswith(str(s["column"] - 1)):
                out.append((f"workshop[{i}].left", f"{_excerpt(x)} is not a space of column {s['column'] - 1}"))
    spaces = Counter((s["column"], s["row"]) for s in d["workshop"])
    if len(spaces) != 15:
        out.append(("workshop", "5 columns of 3 rows, each space once"))
    # The travel map.
    m = d["travel_map"]
    names = [c["name"] for c in m["cities"]]
    if len(set(names)) != len(names):
        out.append(("travel_map.cities", "a city is listed twice"))
    reds = [c["name"] for c in m["cities"] if c["kind"] == "red"]
    if reds != ["Mainz"]:
        out.append(("travel_map.cities", f"one red city, Mainz (the agents' start); got {_excerpt(reds)}"))
    greys = sum(c["kind"] == "grey" for c in m["cities"])
    if not 1 <= greys <= COUNTS["city_discs"]:
        out.append(("travel_map.cities", f"{greys} grey cities; each takes one of the 24 city discs"))
    for i, r in enumerate(m["roads"]):
        for key in ("from", "to"):
            if r[key] not in names:
                out.append((f"travel_map.roads[{i}].{key}", f"{_excerpt(r[key])} is not a city of the map"))
        if r["from"] == r["to"]:
            out.append((f"travel_map.roads[{i}]", "a road joins two different cities"))
    if not out:
        nodes = _map_nodes(m)
        if len(nodes["names"]) > MAX_NODES:
            out.append(("travel_map", f"{len(nodes['names'])} cities and coin spaces, at most {MAX_NODES}"))
        for i, x in enumerate(nodes["next"][:len(names)]):
            if len(x) > MAX_DEGREE:
                out.append((f"travel_map.cities[{i}]", f"{len(x)} roads, at most {MAX_DEGREE}"))
        seen, todo = {0}, [0]
        while todo:
            for y in nodes["next"][todo.pop()]:
                if y not in seen:
                    seen.add(y)
                    todo.append(y)
        if len(seen) != len(nodes["names"]):
            out.append(("travel_map.roads", "the map is not in one piece"))
    # The rulebook's worked examples, which the boards must allow.
    cap = d["tracks"]["capacity"]
    if cap[0] != [{"do": "marks"}] or cap[1] != [{"do": "marks"}] or cap[2] != [{"do": "points"}]:
        out.append(("tracks.capacity", "the purple player's production: spaces 0 and 1 give 1 mark, space 2 "
                    "1 point"))
    if d["tracks"]["director"][0]["reward"] != [{"do": "paper"}]:
        out.append(("tracks.director[0]", "the purple player's travel: the director's first space gives 1 paper"))
    if d["technology_market"]["column_money"][2] != 3 or {"lead": 1} not in d["technology_market"]["row_costs"]:
        out.append(("technology_market", "the blue player's level III technology costs 3 marks and 1 lead"))
    if not any(x["letters"] == "AD" and x["resources"] == {"paper": 1} for x in d["lead_letters"]):
        out.append(("lead_letters", "the purple player's lead letter AD gives 1 paper"))
    if not any(x["letter"] == "A" and x["action"] == [{"do": "trade", "n": 2}]
               for row in d["composing_sticks"] for x in row):
        out.append(("composing_sticks", "the green player's space A gives 2 trades"))
    return out


def parse_catalogue(data: Any, source: str = BUILTIN_NAME, path: str | None = None) -> Catalogue:
    """Validate already-decoded JSON data and build the Catalogue; CatalogueError lists
    every problem."""
    raise_problems(data, source, path, CatalogueError, _schema_problems, _semantic_problems)
    return Catalogue(data, path)


# load_catalogue(path=None): a catalogue file, or the built-in one for None (or ""); a
# CatalogueError names the file and every problem, also when it cannot be read.
# catalogue_from_bytes(raw, source, path=None): the same from a file's bytes.
# default_catalogue(): the built-in one, loaded once.
load_catalogue, catalogue_from_bytes, default_catalogue = data_file_readers(
    parse_catalogue, CatalogueError, __package__, BUILTIN_NAME, MAX_FILE_BYTES, MAX_ITEMS, "a catalogue",
    not_a_catalogue("lead-letter-printers"))
