"""The card catalogue: every component of Gutenberg as data, loaded and validated.

The cards are pictures in the box and no text lists them, so the catalogue is a JSON
file (``gutenberg_ai/games/gutenberg/data/catalogue.json`` by default, see ``docs/gutenberg/catalogue.md``) that a
person who owns the game can check against their box and replace. This module reads
such a file, checks every entry and either returns a frozen :class:`Catalogue` or raises
:class:`CatalogueError` naming the file, the exact place and the reason. It never
returns a partly loaded catalogue.

:meth:`Catalogue.to_core` turns the catalogue into the nested dict that the compiled
core copies into its C ``struct Catalogue`` (declared in the .pxd of ext/), field for field.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Callable

from gutenberg_ai.common.jsonfile import FileDataError, Problems, data_file_readers, json_type
from gutenberg_ai.common.jsonfile import Problem as _Problem
from gutenberg_ai.common.jsonfile import show as _show
from gutenberg_ai.games.positionfile import not_a_catalogue
from .names import (
    CHARACTERS,
    AUTOMA_TARGETS,
    GEAR_INDICATES,
    GEAR_KINDS,
    GEAR_SINGLE,
    INKS,
    LETTERS,
    PATRONAGE_KINDS,
    REWARD_KINDS,
    ROMAN,
    ROWS,
    SPECIALTIES,
)

__all__ = [
    "Automa",
    "AutomaPlanningCard",
    "BoardLayout",
    "Catalogue",
    "CatalogueError",
    "FrozenMap",
    "Gear",
    "GearSector",
    "PatronageCard",
    "PrintingCard",
    "RefinementCard",
    "Reward",
    "Rules",
    "SpecialtyCard",
    "TrackSpace",
    "default_catalogue",
    "describe_reward",
    "load_catalogue",
    "parse_catalogue",
]

# ---------------------------------------------------------------------------------------
# Sizes. The counts are the rulebook's (or RULINGS.md's) and match the fixed arrays of
# the core's .pxd (ext/), so a file with other counts cannot be copied into the core.
# ---------------------------------------------------------------------------------------
N_PRINTING = 50
N_REFINEMENT = 50
N_SPECIALTY_CARDS = 10
N_GEARS = 32
N_WHITE_LINE = 8
N_SECTORS = 3
N_PATRONAGE = 16
N_PATRONAGE_PER_KIND = 4
N_PATRONAGE_SPACES = 8
N_PATRONAGE_REWARDS = 4
N_TRACK = 4
N_AUTOMA_PLANNING = 10
N_AUTOMA_EXECUTION = 4
MAX_AUTOMA_MOVES = 4
MAX_SEATS = 4
MAX_SPACES = 5
MAX_LEVEL = 6
N_ROUNDS = 6
MAX_ROW = 6                 # initiative markers on one row
MARKERS_FIRST = 7           # the core's plan encoding covers 7..10 markers
STARTING_TYPES = 3          # the core encodes the setup choice as a multiset of 3 letters
PARTICIPANTS = (2, 3, 4)    # board layouts, an automa counting as a participant

BUILTIN_NAME = "catalogue.json"

# The key that carries a gear sector's indication, by the tuple of names it indexes.
_INDICATION_KEY = {INKS: "inks", LETTERS: "letters", SPECIALTIES: "specialties"}
_SINGULAR = {"inks": "ink", "letters": "letter", "specialties": "specialty"}
_ONE_OF = {"inks": "an ink", "letters": "a letter", "specialties": "a specialty"}


# ---------------------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------------------
class CatalogueError(FileDataError):
    """A catalogue file that cannot be used, with every place and reason.

    ``str(error)`` has a line per problem, ``"<file>: <where>: <reason>"``, for example
    ``catalogue.json: printing[12].letters: 'X' is not a letter (A, I, O, U)``.
    The parts are also available as ``problems`` (every (where, reason)), ``source``
    (the file's name), ``where`` and ``reason`` (the first problem's; where is "" for
    the file as a whole) and ``path`` (the full path, or None when the data did not
    come from a file).
    """


# ---------------------------------------------------------------------------------------
# Frozen values
# ---------------------------------------------------------------------------------------
class FrozenMap(Mapping):
    """A read-only, hashable mapping; compares equal to a dict with the same items."""

    __slots__ = ("_items",)

    def __init__(self, items: Mapping | Any = ()):
        self._items = dict(items)

    def __getitem__(self, key):
        return self._items[key]

    def __iter__(self) -> Iterator:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(frozenset(self._items.items()))

    def __repr__(self) -> str:
        return repr(self._items)


@dataclass(frozen=True)
class Reward:
    """A reward: ``kind`` is one of REWARD_KINDS, ``amount`` how many."""

    kind: str
    amount: int


@dataclass(frozen=True)
class PrintingCard:
    """A printing card: the letters it requires (e.g. "IOOU") and the guilders it pays."""

    id: int
    letters: str
    guilders: int

    @property
    def letter_counts(self) -> FrozenMap:
        """How many of each letter the card requires, e.g. {"I": 1, "O": 2, "U": 1}."""
        return FrozenMap((c, self.letters.count(c)) for c in LETTERS if c in self.letters)


@dataclass(frozen=True)
class RefinementCard:
    """A refinement card: colour part (inks), decoration part (levels) and the reward."""

    id: int
    colour: FrozenMap          # ink -> count
    colour_fame: int
    decoration: FrozenMap      # specialty -> minimum level
    decoration_fame: int
    reward: Reward


@dataclass(frozen=True)
class SpecialtyCard:
    """A specialty card: its two icons (the same specialty twice on a double)."""

    id: int
    icons: tuple[str, ...]


@dataclass(frozen=True)
class GearSector:
    """One sector of a gear: its reward kind and what it indicates (inks, letters or a
    specialty; empty for kinds that indicate nothing)."""

    reward: str
    indicates: tuple[str, ...] = ()


@dataclass(frozen=True)
class Gear:
    """A gear: three sectors in the order they reach the mark turning clockwise."""

    id: int
    white_line: bool
    sectors: tuple[GearSector, ...]


@dataclass(frozen=True)
class PatronageCard:
    """A patronage card of one of PATRONAGE_KINDS and its requirements."""

    id: int
    kind: str
    specialties: FrozenMap     # specialty -> minimum level
    inks: FrozenMap            # ink -> count, returned to the bag
    types: FrozenMap           # letter -> count, owned


@dataclass(frozen=True)
class TrackSpace:
    """A reward-track space: the level that reaches it and its reward."""

    level: int
    reward: Reward


@dataclass(frozen=True)
class AutomaPlanningCard:
    """An automa planning card: arrows (from, to) between rows or "min"/"max", the row
    printed in the centre, and whether it shows a patronage card."""

    id: int
    moves: tuple[tuple[str, str], ...]
    centre: str
    patronage: bool


@dataclass(frozen=True)
class Automa:
    """The automa deck: planning cards, execution card numbers, starting markers per row."""

    planning: tuple[AutomaPlanningCard, ...]
    execution: tuple[int, ...]
    start: tuple[int, ...]


@dataclass(frozen=True)
class BoardLayout:
    """Spaces on the main board for one number of participants."""

    printing: int
    refinement: int
    ink_sets: int
    specialty: int
    gears: int
    draft: int


@dataclass(frozen=True)
class Rules:
    """The numbers of the rules that a catalogue may state."""

    inks_per_colour: int
    starting_guilders: int
    starting_types: int
    markers_first: int
    specialty_points: FrozenMap    # level -> end-game points (missing levels: 0)
    patronage_points: int
    guilders_per_point: int
    overflow_guilders: int


@dataclass(frozen=True)
class Characters:
    """The 10 character tiles (their ids are positions in names.CHARACTERS) and the
    numbers their special rules use."""

    tiles: tuple[str, ...]
    gutenberg_shift: int       # initiative markers Gutenberg may shift after the reveal
    manutius_ignored_types: int
    guillard_draw: int         # gears Guillard draws at setup ...
    guillard_keep: int         # ... and installs
    ungler_levels: tuple[int, int]   # Ungler's two starting levels (the first >= the second)
    schoeffer_uses: int        # uses of Schoeffer's one favoured gear a round
    tory_fame: int
    tory_needs_inks: bool      # whether Tory must hold an ink to score (our ruling: no)
    vietor_multiplier: int


def describe_reward(reward: Reward) -> str:
    """A short text for a reward in the game's words: "2 inks", "3g", "2f", "1 order"."""
    n = reward.amount
    plural = "" if n == 1 else "s"
    return {
        "ink": f"{n} ink{plural}",
        "guilders": f"{n}g",
        "fame": f"{n}f",
        "specialty": f"+{n} specialty",
        "order": f"{n} order{plural}",
        "type": f"{n} type{plural}",
    }[reward.kind]


def describe_sector(sector: GearSector) -> str:
    """A gear sector in a few words: "gain red", "type fame A/O", "ink swap"."""
    named = "/".join(sector.indicates)
    texts = {
        "ink_swap": "ink swap",
        "type_swap": "type swap",
        "lowest_specialty": "lowest specialty +1",
        "round_fame": "round fame",
        "order": "order",
        "sell_type": "sell type",
        "colour_fame": f"colour fame {named}",
        "gain_ink": f"gain {named}",
        "ink_trade": f"trade {named} for 2",
        "type_fame": f"type fame {named}",
        "type_discount": f"type discount {named}",
        "decoration_fame": f"deco fame {named}",
        "specialty_up": f"{named} +1",
    }
    return texts[sector.reward]


def _spell(counts: Mapping[str, int]) -> list[str]:
    """Expand {"red": 2, "gold": 1} to ["red", "red", "gold"]."""
    return [name for name, n in counts.items() for _ in range(n)]


def _levels_text(levels: Mapping[str, int], joiner: str) -> str:
    return joiner.join(f"{s} {ROMAN[lv]}" for s, lv in levels.items())


@dataclass(frozen=True)
class Catalogue:
    """Every component of the game. Built by :func:`load_catalogue`; immutable."""

    printing: tuple[PrintingCard, ...]
    refinement: tuple[RefinementCard, ...]
    specialty_cards: tuple[SpecialtyCard, ...]
    gears: tuple[Gear, ...]
    patronage: tuple[PatronageCard, ...]
    patronage_spaces: tuple[int, ...]        # the round from which each space opens
    patronage_rewards: tuple[Reward, ...]
    reward_track: tuple[TrackSpace, ...]
    automa: Automa
    board: FrozenMap                         # participants (2, 3, 4) -> BoardLayout
    rules: Rules
    characters: Characters
    about: str = ""
    path: str | None = field(default=None, compare=False)

    # -- short texts for action strings ------------------------------------------------
    def describe_printing(self, i: int) -> str:
        """E.g. "P37 [I O O U] 5g"."""
        card = self.printing[i]
        letters = " ".join(sorted(card.letters, key=LETTERS.index))
        return f"P{card.id} [{letters}] {card.guilders}g"

    def describe_refinement(self, i: int) -> str:
        """E.g. "R0 colour red 2f, deco typesetting II+binding II 3f, reward 1 ink"."""
        card = self.refinement[i]
        colour = "+".join(_spell(card.colour))
        deco = _levels_text(card.decoration, "+")
        return (f"R{card.id} colour {colour} {card.colour_fame}f, "
                f"deco {deco} {card.decoration_fame}f, reward {describe_reward(card.reward)}")

    def describe_gear(self, i: int) -> str:
        """E.g. "G3 [ink swap | gain red | type fame A/O]"."""
        gear = self.gears[i]
        return f"G{gear.id} [" + " | ".join(describe_sector(s) for s in gear.sectors) + "]"

    def describe_specialty_card(self, i: int) -> str:
        """E.g. "S2 typesetting+illuminating"."""
        card = self.specialty_cards[i]
        return f"S{card.id} " + "+".join(card.icons)

    def describe_patronage(self, i: int) -> str:
        """E.g. "C8 typesetting IV + 2 inks (gold, red)"."""
        card = self.patronage[i]
        parts = []
        if card.specialties:
            parts.append(_levels_text(card.specialties, " + "))
        for counts, word in ((card.inks, "ink"), (card.types, "type")):
            if counts:
                names = _spell(counts)
                plural = "" if len(names) == 1 else "s"
                parts.append(f"{len(names)} {word}{plural} ({', '.join(names)})")
        return f"C{card.id} " + " + ".join(parts)

    # -- the compiled core's struct ----------------------------------------------------
    def to_core(self) -> dict:
        """The catalogue as the core's C ``struct Catalogue`` (ext/*.pxd): same names and
        nesting, arrays as lists of their exact length (unused slots 0), nested structs
        as dicts, names as their index in gutenberg_ai.games.gutenberg.names, masks with bit i for the
        i-th name, board indexed by the number of participants 0..4."""
        rules = self.rules
        return {
            "printing": [_printing_core(c) for c in self.printing],
            "refinement": [_refinement_core(c) for c in self.refinement],
            "specialty": [{"icons": [c.icons.count(s) for s in SPECIALTIES]}
                          for c in self.specialty_cards],
            "gears": [_gear_core(g) for g in self.gears],
            "patronage": [_patronage_core(c) for c in self.patronage],
            "patronage_rounds": list(self.patronage_spaces),
            "patronage_rewards": [_reward_core(r) for r in self.patronage_rewards],
            "track_level": [t.level for t in self.reward_track],
            "track_reward": [_reward_core(t.reward) for t in self.reward_track],
            "automa_planning": [_planning_core(c) for c in self.automa.planning],
            "automa_execution": list(self.automa.execution),
            "automa_start": list(self.automa.start),
            "board": [_board_core(self.board.get(p)) for p in range(MAX_SEATS + 1)],
            "inks_per_colour": rules.inks_per_colour,
            "starting_guilders": rules.starting_guilders,
            "starting_types": rules.starting_types,
            "markers_first": rules.markers_first,
            "specialty_points": [rules.specialty_points.get(lv, 0)
                                 for lv in range(MAX_LEVEL + 1)],
            "patronage_points": rules.patronage_points,
            "guilders_per_point": rules.guilders_per_point,
            "overflow_guilders": rules.overflow_guilders,
            "gutenberg_shift": self.characters.gutenberg_shift,
            "manutius_ignored_types": self.characters.manutius_ignored_types,
            "guillard_draw": self.characters.guillard_draw,
            "guillard_keep": self.characters.guillard_keep,
            "ungler_levels": list(self.characters.ungler_levels),
            "schoeffer_uses": self.characters.schoeffer_uses,
            "tory_fame": self.characters.tory_fame,
            "tory_needs_inks": int(self.characters.tory_needs_inks),
            "vietor_multiplier": self.characters.vietor_multiplier,
        }


# ---------------------------------------------------------------------------------------
# to_core helpers
# ---------------------------------------------------------------------------------------
def _vector(counts: Mapping[str, int], names: tuple[str, ...]) -> list[int]:
    return [counts.get(n, 0) for n in names]


def _mask(chosen, names: tuple[str, ...]) -> int:
    return sum(1 << names.index(n) for n in chosen)


def _reward_core(r: Reward) -> dict:
    return {"kind": REWARD_KINDS.index(r.kind), "amount": r.amount}


def _printing_core(c: PrintingCard) -> dict:
    return {"letters": [c.letters.count(x) for x in LETTERS], "guilders": c.guilders}


def _refinement_core(c: RefinementCard) -> dict:
    return {
        "inks": _vector(c.colour, INKS),
        "colour_fame": c.colour_fame,
        "levels": _vector(c.decoration, SPECIALTIES),
        "decoration_fame": c.decoration_fame,
        "reward": REWARD_KINDS.index(c.reward.kind),
        "reward_amount": c.reward.amount,
    }


def _gear_core(g: Gear) -> dict:
    sectors = []
    for s in g.sectors:
        names = GEAR_INDICATES.get(s.reward, ())
        sectors.append({"kind": GEAR_KINDS.index(s.reward), "mask": _mask(s.indicates, names)})
    return {"sectors": sectors, "white_line": int(g.white_line)}


def _patronage_core(c: PatronageCard) -> dict:
    return {
        "kind": PATRONAGE_KINDS.index(c.kind),
        "levels": _vector(c.specialties, SPECIALTIES),
        "inks": _vector(c.inks, INKS),
        "types": _vector(c.types, LETTERS),
    }


def _planning_core(c: AutomaPlanningCard) -> dict:
    pad = [0] * (MAX_AUTOMA_MOVES - len(c.moves))
    return {
        "n_moves": len(c.moves),
        "move_from": [AUTOMA_TARGETS.index(a) for a, _ in c.moves] + pad,
        "move_to": [AUTOMA_TARGETS.index(b) for _, b in c.moves] + pad,
        "centre": ROWS.index(c.centre),
        "patronage": int(c.patronage),
    }


_BOARD_FIELDS = ("printing", "refinement", "ink_sets", "specialty", "gears", "draft")


def _board_core(layout: BoardLayout | None) -> dict:
    if layout is None:      # 0 and 1 participants: no game, all zero
        return dict.fromkeys(_BOARD_FIELDS, 0)
    return {f: getattr(layout, f) for f in _BOARD_FIELDS}


# ---------------------------------------------------------------------------------------
# Validation helpers. Each takes the value and its place ("where") and either returns
# the checked value or raises _Problem(where, reason).
# ---------------------------------------------------------------------------------------
def _at(where: str, key: str | int) -> str:
    """The place of a member: printing[3], refinement[0].colour, board["2"]."""
    if isinstance(key, int):
        return f"{where}[{key}]"
    if key.isidentifier():
        return f"{where}.{key}" if where else key
    return f'{where}["{key}"]'


_KIND_WORDS = {"boolean": "true/false", "integer": "a number", "number": "a number", "string": "text",
               "null": "null", "array": "a list", "object": "an object"}


def _kind_of(value: Any) -> str:
    """What a value is, in the words of an error message ("got a list")."""
    return _KIND_WORDS[json_type(value)]


def _object(value: Any, where: str, required: tuple, optional: tuple = ()) -> dict:
    """An object with exactly the required keys (and maybe the optional ones); every
    unknown and missing key is reported."""
    if not isinstance(value, dict):
        raise _Problem(where, f"must be an object {{...}}, got {_kind_of(value)}")
    found = Problems()
    for key in getattr(value, "duplicates", ()):
        found.add(where, f"key {_show(key)} is given twice")
    allowed = required + optional
    for key in value:
        if key not in allowed:
            found.add(where, f"unknown key {_show(key)} (expected {', '.join(allowed)})")
    for key in required:
        if key not in value:
            found.add(where, f"missing key {key!r}")
    found.stop()
    return value


def _fields(**checks: Callable[[], Any]) -> dict:
    """Run every check (a field's parser), report all their problems together, and
    return the fields' values by name."""
    found = Problems()
    out = {}
    for name, check in checks.items():
        with found.each():
            out[name] = check()
    found.stop()
    return out


def _each(values: list, where: str, parse: Callable[[Any, str], Any]) -> tuple:
    """Parse every entry of a list, reporting the problems of all of them."""
    found = Problems()
    out = []
    for k, raw in enumerate(values):
        with found.each():
            out.append(parse(raw, _at(where, k)))
    found.stop()
    return tuple(out)


def _list(value: Any, where: str) -> list:
    if not isinstance(value, list):
        raise _Problem(where, f"must be a list [...], got {_kind_of(value)}")
    return value


def _counted(value: Any, where: str, n: int, authority: str = "the rulebook has") -> list:
    """A list of exactly n entries."""
    _list(value, where)
    if len(value) != n:
        raise _Problem(where, f"{len(value)} entries, {authority} {n}")
    return value


def _int(value: Any, where: str, lo: int, hi: int, what: str = "value") -> int:
    """A whole number in lo..hi (true/false and 2.0 are not whole numbers here)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Problem(where, f"{what} must be a whole number, got {_show(value)}")
    if not lo <= value <= hi:
        raise _Problem(where, f"{what} must be {lo} to {hi}, got {_show(value)}")
    return value


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise _Problem(where, f"must be true or false, got {_show(value)}")
    return value


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise _Problem(where, f"must be text, got {_kind_of(value)}")
    return value


def _name(value: Any, where: str, names: tuple[str, ...], what: str | None = None) -> str:
    """One of names. `what` ("a letter") gives the short form of the message."""
    if not isinstance(value, str):
        raise _Problem(where, f"must be a name (text), got {_show(value)}")
    if value not in names:
        listed = ", ".join(names)
        if what:
            raise _Problem(where, f"{_show(value)} is not {what} ({listed})")
        raise _Problem(where, f"{_show(value)} is not one of {listed}")
    return value


def _counts(value: Any, where: str, names: tuple[str, ...], what: str, number: str,
            lo: int, hi: int) -> FrozenMap:
    """An object name -> whole number, e.g. {"red": 2}; returned in names.py order."""
    if not isinstance(value, dict):
        raise _Problem(where, f"must be an object {{...}}, got {_kind_of(value)}")
    found = Problems()
    for key in getattr(value, "duplicates", ()):
        found.add(where, f"key {_show(key)} is given twice")
    for key, n in value.items():
        with found.each():
            _name(key, where, names, what)
            _int(n, _at(where, key), lo, hi, number)
    found.stop()
    return FrozenMap((k, value[k]) for k in names if k in value)


def _ids(cards: list, where: str, parse: Callable[[Any, str], Any]) -> tuple:
    """Parse a list of cards whose ids must be their positions 0..n-1."""
    found = Problems()
    out = []
    for i, raw in enumerate(cards):
        place = _at(where, i)
        with found.each():
            if isinstance(raw, dict) and "id" in raw:
                card_id = _int(raw["id"], _at(place, "id"), 0, len(cards) - 1, "id")
                if card_id != i:
                    raise _Problem(_at(place, "id"),
                                   f"id must be {i} (its position in the list), got {card_id}")
            out.append(parse(raw, place))
    found.stop()
    return tuple(out)


# ---------------------------------------------------------------------------------------
# The sections. A card's fields are checked together (_fields), so a card with two
# mistakes shows both.
# ---------------------------------------------------------------------------------------
def _reward(value: Any, where: str) -> Reward:
    _object(value, where, ("kind", "amount"))
    f = _fields(kind=lambda: _name(value["kind"], _at(where, "kind"), REWARD_KINDS),
                amount=lambda: _int(value["amount"], _at(where, "amount"), 1, 10, "amount"))
    return Reward(f["kind"], f["amount"])


def _letters(value: Any, where: str) -> str:
    letters = _text(value, where)
    for c in letters:
        _name(c, where, LETTERS, "a letter")
    if not 1 <= len(letters) <= 6:
        raise _Problem(where, f"{len(letters)} letters, a printing card has 1 to 6")
    return letters


def _printing_card(value: Any, where: str) -> PrintingCard:
    _object(value, where, ("id", "letters", "guilders"))
    f = _fields(letters=lambda: _letters(value["letters"], _at(where, "letters")),
                guilders=lambda: _int(value["guilders"], _at(where, "guilders"), 0, 20,
                                      "guilders"))
    return PrintingCard(value["id"], f["letters"], f["guilders"])


def _colour(value: Any, where: str) -> FrozenMap:
    colour = _counts(value, where, INKS, "an ink", "count", 1, 12)
    if not 1 <= sum(colour.values()) <= 6:
        raise _Problem(where, f"{sum(colour.values())} inks, a colour part needs 1 to 6")
    return colour


def _decoration(value: Any, where: str) -> FrozenMap:
    decoration = _counts(value, where, SPECIALTIES, "a specialty", "level", 1, MAX_LEVEL)
    if not decoration:
        raise _Problem(where, "a decoration part needs at least one specialty")
    return decoration


def _refinement_card(value: Any, where: str) -> RefinementCard:
    _object(value, where, ("id", "colour", "colour_fame", "decoration", "decoration_fame",
                           "reward"))
    f = _fields(
        colour=lambda: _colour(value["colour"], _at(where, "colour")),
        colour_fame=lambda: _int(value["colour_fame"], _at(where, "colour_fame"), 0, 30, "fame"),
        decoration=lambda: _decoration(value["decoration"], _at(where, "decoration")),
        decoration_fame=lambda: _int(value["decoration_fame"], _at(where, "decoration_fame"),
                                     0, 30, "fame"),
        reward=lambda: _reward(value["reward"], _at(where, "reward")))
    return RefinementCard(value["id"], **f)


def _specialty_card(value: Any, where: str) -> SpecialtyCard:
    _object(value, where, ("id", "icons"))
    place = _at(where, "icons")
    icons = _list(value["icons"], place)
    if len(icons) != 2:
        raise _Problem(place, f"{len(icons)} icons, a specialty card has 2")
    _each(icons, place, lambda icon, at: _name(icon, at, SPECIALTIES, "a specialty"))
    return SpecialtyCard(value["id"], tuple(icons))


def _gear_sector(value: Any, where: str) -> GearSector:
    keys = ("inks", "letters", "specialties")
    _object(value, where, ("reward",), keys)
    kind = _name(value["reward"], _at(where, "reward"), GEAR_KINDS)
    names = GEAR_INDICATES.get(kind)
    key = _INDICATION_KEY[names] if names else None
    for other in keys:
        if other in value and other != key:
            if key is None:
                raise _Problem(where, f"{kind} indicates nothing, remove {other!r}")
            raise _Problem(where, f"{kind} indicates {key}, not {other}")
    if key is None or names is None:     # (either both or neither)
        return GearSector(kind)
    if key not in value:
        raise _Problem(where, f"missing key {key!r} ({kind} indicates {key})")
    place = _at(where, key)
    listed = _list(value[key], place)
    _each(listed, place, lambda name, at: _name(name, at, names, _ONE_OF[key]))
    for k, name in enumerate(listed):
        if name in listed[:k]:
            raise _Problem(place, f"{_show(name)} is listed twice")
    if kind in GEAR_SINGLE:
        if len(listed) != 1:
            raise _Problem(where, f"{kind} indicates exactly one {_SINGULAR[key]}, "
                                  f"got {len(listed)}")
    elif not 1 <= len(listed) <= 2:
        raise _Problem(where, f"{kind} indicates one or two {key}, got {len(listed)}")
    ordered = tuple(n for n in names if n in listed)   # names.py order, as the mask has it
    return GearSector(kind, ordered)


def _sectors(value: Any, where: str) -> tuple:
    sectors = _list(value, where)
    if len(sectors) != N_SECTORS:
        raise _Problem(where, f"{len(sectors)} sectors, a gear has {N_SECTORS}")
    return _each(sectors, where, _gear_sector)


def _gear(value: Any, where: str) -> Gear:
    _object(value, where, ("id", "white_line", "sectors"))
    f = _fields(white_line=lambda: _bool(value["white_line"], _at(where, "white_line")),
                sectors=lambda: _sectors(value["sectors"], _at(where, "sectors")))
    return Gear(value["id"], f["white_line"], f["sectors"])


# What each patronage kind asks for: (specialties, inks, types) with
# None = nothing, 1 = exactly one specialty, "+" = at least one.
_PATRONAGE_SHAPE = {
    "specialties": ("+", None, None),
    "inks_types": (None, "+", "+"),
    "specialty_inks": (1, "+", None),
    "specialty_types": (1, None, "+"),
}


def _patronage_card(value: Any, where: str) -> PatronageCard:
    _object(value, where, ("id", "kind", "specialties", "inks", "types"))
    f = _fields(
        kind=lambda: _name(value["kind"], _at(where, "kind"), PATRONAGE_KINDS),
        specialties=lambda: _counts(value["specialties"], _at(where, "specialties"),
                                    SPECIALTIES, "a specialty", "level", 1, MAX_LEVEL),
        inks=lambda: _counts(value["inks"], _at(where, "inks"), INKS, "an ink", "count", 1, 12),
        types=lambda: _counts(value["types"], _at(where, "types"), LETTERS, "a letter", "count",
                              1, 6))
    kind = f["kind"]
    article = "an" if kind == "inks_types" else "a"
    parts = (("specialties", "specialty"), ("inks", "ink"), ("types", "type"))
    found = Problems()
    for (key, word), need in zip(parts, _PATRONAGE_SHAPE[kind]):
        place = _at(where, key)
        counts = f[key]
        if need is None and counts:
            found.add(place, f"{article} {kind} card asks for no {key}")
        if need == 1 and len(counts) != 1:
            found.add(place, f"{article} {kind} card asks for exactly one {word}, "
                             f"got {len(counts)}")
        if need == "+" and not counts:
            found.add(place, f"{article} {kind} card asks for at least one {word}")
    found.stop()
    return PatronageCard(value["id"], kind, f["specialties"], f["inks"], f["types"])


def _track_space(value: Any, where: str) -> TrackSpace:
    _object(value, where, ("level", "reward"))
    f = _fields(level=lambda: _int(value["level"], _at(where, "level"), 1, MAX_LEVEL, "level"),
                reward=lambda: _reward(value["reward"], _at(where, "reward")))
    return TrackSpace(f["level"], f["reward"])


def _arrow(value: Any, where: str) -> tuple[str, str]:
    _list(value, where)
    if len(value) != 2:
        raise _Problem(where, f"an arrow is [from, to], got {len(value)} entries")
    a, b = _each(value, where, lambda end, at: _name(end, at, AUTOMA_TARGETS))
    if a == b:
        raise _Problem(where, f"an arrow needs two different ends, got {a!r} twice")
    return a, b


def _arrows(value: Any, where: str) -> tuple:
    moves = _list(value, where)
    if not 1 <= len(moves) <= MAX_AUTOMA_MOVES:
        raise _Problem(where, f"{len(moves)} arrows, a planning card has 1 to "
                              f"{MAX_AUTOMA_MOVES}")
    return _each(moves, where, _arrow)


def _planning_card(value: Any, where: str) -> AutomaPlanningCard:
    _object(value, where, ("id", "moves", "centre", "patronage"))
    f = _fields(moves=lambda: _arrows(value["moves"], _at(where, "moves")),
                centre=lambda: _name(value["centre"], _at(where, "centre"), ROWS, "a row"),
                patronage=lambda: _bool(value["patronage"], _at(where, "patronage")))
    return AutomaPlanningCard(value["id"], f["moves"], f["centre"], f["patronage"])


def _automa_start(value: Any, where: str) -> tuple:
    rows = _list(value, where)
    if len(rows) != len(ROWS):
        raise _Problem(where, f"{len(rows)} entries, one per row ({', '.join(ROWS)}) "
                              f"makes {len(ROWS)}")
    return _each(rows, where, lambda n, at: _int(n, at, 0, MAX_ROW, "markers"))


def _automa(value: Any, where: str) -> Automa:
    _object(value, where, ("planning", "execution", "start"))
    planning, execution, start = (_at(where, k) for k in ("planning", "execution", "start"))
    f = _fields(
        planning=lambda: _ids(_counted(value["planning"], planning, N_AUTOMA_PLANNING), planning,
                              _planning_card),
        execution=lambda: _each(_counted(value["execution"], execution, N_AUTOMA_EXECUTION),
                                execution, lambda n, at: _int(n, at, 1, MAX_SPACES, "space")),
        start=lambda: _automa_start(value["start"], start))
    return Automa(**f)


def _board_layout(value: Any, where: str, participants: int) -> BoardLayout:
    _object(value, where, _BOARD_FIELDS)
    f = _fields(**{k: (lambda k=k: _int(value[k], _at(where, k), 1, MAX_SPACES, "spaces"))
                   for k in _BOARD_FIELDS[:-1]},
                draft=lambda: _int(value["draft"], _at(where, "draft"), 1, 10, "draft"))
    # In setup every participant drafts two orders from the laid-out cards.
    if f["draft"] < 2 * participants:
        raise _Problem(_at(where, "draft"),
                       f"{f['draft']} cards cannot give {participants} participants two orders "
                       f"each (at least {2 * participants})")
    return BoardLayout(**f)


def _board(value: Any, where: str) -> FrozenMap:
    keys = tuple(str(p) for p in PARTICIPANTS)
    _object(value, where, keys)
    f = _fields(**{f"p{p}": (lambda p=p: _board_layout(value[str(p)], _at(where, str(p)), p))
                   for p in PARTICIPANTS})
    return FrozenMap((p, f[f"p{p}"]) for p in PARTICIPANTS)


def _fixed(value: Any, where: str, must: int, why: str) -> int:
    """A number the core's encoding fixes."""
    _int(value, where, -32768, 32767)
    if value != must:
        raise _Problem(where, f"must be {must} ({why}), got {value}")
    return value


_RULE_FIELDS = ("inks_per_colour", "starting_guilders", "starting_types", "markers_first",
                "specialty_points", "patronage_points", "guilders_per_point",
                "overflow_guilders")


def _specialty_points(value: Any, where: str) -> FrozenMap:
    levels = tuple(str(lv) for lv in range(MAX_LEVEL + 1))
    if not isinstance(value, dict):
        raise _Problem(where, f"must be an object {{...}}, got {_kind_of(value)}")
    found = Problems()
    for key in value:
        if key not in levels:
            found.add(where, f"{_show(key)} is not a level (0 to {MAX_LEVEL})")
    found.stop()
    _object(value, where, (), levels)     # duplicate keys
    f = _fields(**{f"l{k}": (lambda k=k: _int(value[k], _at(where, k), 0, 30, "points"))
                   for k in levels if k in value})
    return FrozenMap((int(k), f[f"l{k}"]) for k in levels if k in value)


def _rules(value: Any, where: str) -> Rules:
    _object(value, where, _RULE_FIELDS)

    def at(key):
        return _at(where, key)

    return Rules(**_fields(
        # The board draws up to 15 inks (5 sets of 3) from the bag.
        inks_per_colour=lambda: _int(value["inks_per_colour"], at("inks_per_colour"), 4, 20,
                                     "inks"),
        starting_guilders=lambda: _int(value["starting_guilders"], at("starting_guilders"), 0, 50,
                                       "guilders"),
        starting_types=lambda: _fixed(value["starting_types"], at("starting_types"),
                                      STARTING_TYPES,
                                      "the setup choice of types is encoded as 3 letters"),
        markers_first=lambda: _fixed(value["markers_first"], at("markers_first"), MARKERS_FIRST,
                                     "plans are encoded for 7 to 10 markers"),
        specialty_points=lambda: _specialty_points(value["specialty_points"],
                                                   at("specialty_points")),
        patronage_points=lambda: _int(value["patronage_points"], at("patronage_points"), 0, 30,
                                      "points"),
        guilders_per_point=lambda: _int(value["guilders_per_point"], at("guilders_per_point"), 1,
                                        10, "guilders"),
        overflow_guilders=lambda: _int(value["overflow_guilders"], at("overflow_guilders"), 0, 10,
                                       "guilders"),
    ))


SECTIONS = ("printing", "refinement", "specialty_cards", "gears", "patronage",
            "patronage_spaces", "patronage_rewards", "reward_track", "automa", "board",
            "rules", "characters")   # the top level's keys besides "about"

_CHARACTER_FIELDS = ("tiles", "gutenberg_shift", "manutius_ignored_types", "guillard_draw",
                     "guillard_keep", "ungler_levels", "schoeffer_uses", "tory_fame",
                     "tory_needs_inks", "vietor_multiplier")


def _tiles(value: Any, where: str) -> tuple:
    tiles = _counted(value, where, len(CHARACTERS))
    found = Problems()
    for k, name in enumerate(tiles):
        # The ids carry the special rules: a tile may be renamed only by its own name.
        if name != CHARACTERS[k]:
            found.add(_at(where, k), f"{_show(name)} is not {CHARACTERS[k]!r} "
                                     f"(tile {k}'s special rule)")
    found.stop()
    return tuple(tiles)


def _ungler(value: Any, where: str) -> tuple[int, int]:
    levels = _counted(value, where, 2, "Ungler has")
    high = _int(levels[0], _at(where, 0), 1, 5, "level")
    low = _int(levels[1], _at(where, 1), 1, high, "level")
    return high, low


def _characters(value: Any, where: str) -> Characters:
    _object(value, where, _CHARACTER_FIELDS)

    def at(key):
        return _at(where, key)

    f = _fields(
        tiles=lambda: _tiles(value["tiles"], at("tiles")),
        gutenberg_shift=lambda: _int(value["gutenberg_shift"], at("gutenberg_shift"), 0, 1,
                                     "markers"),
        manutius_ignored_types=lambda: _int(value["manutius_ignored_types"],
                                            at("manutius_ignored_types"), 0, 1, "types"),
        guillard_draw=lambda: _int(value["guillard_draw"], at("guillard_draw"), 1, 8, "gears"),
        ungler_levels=lambda: _ungler(value["ungler_levels"], at("ungler_levels")),
        schoeffer_uses=lambda: _int(value["schoeffer_uses"], at("schoeffer_uses"), 1, 3, "uses"),
        tory_fame=lambda: _int(value["tory_fame"], at("tory_fame"), 0, 30, "fame"),
        tory_needs_inks=lambda: _bool(value["tory_needs_inks"], at("tory_needs_inks")),
        vietor_multiplier=lambda: _int(value["vietor_multiplier"], at("vietor_multiplier"), 1, 5,
                                       "multiplier"),
    )
    # Guillard keeps at most what he draws (and installs at most 3).
    keep = _int(value["guillard_keep"], at("guillard_keep"), 0, min(f["guillard_draw"], 3),
                "gears")
    return Characters(guillard_keep=keep, **f)


def _card_list(data: dict, key: str, n: int, parse: Callable[[Any, str], Any]) -> tuple:
    cards = _list(data[key], key)
    found = Problems()
    if len(cards) != n:
        found.add(key, f"{len(cards)} entries, the rulebook has {n}")
    with found.each():
        parsed = _ids(cards, key, parse)
    found.stop()
    return parsed


def _check_gears(gears: tuple[Gear, ...]) -> None:
    white = sum(g.white_line for g in gears)
    if white != N_WHITE_LINE:
        raise _Problem("gears", f"{white} gears have white_line true, there must be "
                                f"{N_WHITE_LINE} (removed with 2 participants)")


def _check_patronage(cards: tuple[PatronageCard, ...]) -> None:
    found = Problems()
    for kind in PATRONAGE_KINDS:
        n = sum(c.kind == kind for c in cards)
        if n != N_PATRONAGE_PER_KIND:
            found.add("patronage", f"{n} cards of kind {kind!r}, the rulebook has "
                                   f"{N_PATRONAGE_PER_KIND} of each kind")
    found.stop()


def _check_track(track: tuple[TrackSpace, ...]) -> None:
    found = Problems()
    for k in range(1, len(track)):
        if track[k].level <= track[k - 1].level:
            found.add(f"reward_track[{k}].level",
                      f"levels must rise along the track, {track[k].level} follows "
                      f"{track[k - 1].level}")
    found.stop()


def _check_inks(cat: dict, rules: Rules) -> None:
    """No card can ask for more inks of a colour than the game has."""
    limit = rules.inks_per_colour
    places = [(f"refinement[{c.id}].colour", c.colour) for c in cat["refinement"]]
    places += [(f"patronage[{c.id}].inks", c.inks) for c in cat["patronage"]]
    found = Problems()
    for where, counts in places:
        for ink, n in counts.items():
            if n > limit:
                found.add(f"{where}.{ink}", f"needs {n} {ink} inks, the game has only "
                                            f"{limit} (rules.inks_per_colour)")
    found.stop()


def _catalogue(data: Any, path: str | None) -> Catalogue:
    """Every section is checked, each card on its own; the checks across sections follow
    once the sections are sound."""
    found = Problems()
    with found.each():
        _object(data, "top level", SECTIONS, ("about",))
    if not isinstance(data, dict):
        found.stop()

    def counted(key, n, parse, authority="the rulebook has"):
        return lambda: _each(_counted(data[key], key, n, authority), key, parse)

    sections = {
        "printing": lambda: _card_list(data, "printing", N_PRINTING, _printing_card),
        "refinement": lambda: _card_list(data, "refinement", N_REFINEMENT, _refinement_card),
        "specialty_cards": lambda: _card_list(data, "specialty_cards", N_SPECIALTY_CARDS,
                                              _specialty_card),
        "gears": lambda: _card_list(data, "gears", N_GEARS, _gear),
        "patronage": lambda: _card_list(data, "patronage", N_PATRONAGE, _patronage_card),
        "patronage_spaces": counted("patronage_spaces", N_PATRONAGE_SPACES,
                                    lambda n, at: _int(n, at, 1, N_ROUNDS, "round"),
                                    "the game has"),
        "patronage_rewards": counted("patronage_rewards", N_PATRONAGE_REWARDS, _reward),
        "reward_track": counted("reward_track", N_TRACK, _track_space),
        "automa": lambda: _automa(data["automa"], "automa"),
        "board": lambda: _board(data["board"], "board"),
        "rules": lambda: _rules(data["rules"], "rules"),
        "characters": lambda: _characters(data["characters"], "characters"),
        "about": lambda: _text(data.get("about", ""), "about"),
    }
    cat: dict = {}
    for key, parse in sections.items():
        if key in data or key == "about":
            with found.each():
                cat[key] = parse()
    found.stop()
    # Checks across entries and sections.
    rules = cat["rules"]
    with found.each():
        _check_gears(cat["gears"])
    with found.each():
        _check_patronage(cat["patronage"])
    with found.each():
        _check_track(cat["reward_track"])
    started = sum(cat["automa"].start)
    if started != rules.markers_first:
        found.add("automa.start", f"the markers add up to {started}, the automa has "
                                  f"{rules.markers_first} (rules.markers_first)")
    with found.each():
        _check_inks(cat, rules)
    found.stop()
    about = cat.pop("about")
    return Catalogue(**cat, about=about, path=path)


# ---------------------------------------------------------------------------------------
# Public entry points
# ---------------------------------------------------------------------------------------
MAX_FILE_BYTES = 1 << 20    # a catalogue is about 22 kB
MAX_ITEMS = 1000            # its longest lists have 50 cards


def parse_catalogue(data: Any, source: str = BUILTIN_NAME, path: str | None = None
                    ) -> Catalogue:
    """Validate already-decoded JSON data (a dict) and build the Catalogue.

    ``source`` is the name used in error messages; ``path`` is stored as
    ``Catalogue.path``. Raises CatalogueError listing every problem found.
    """
    try:
        return _catalogue(data, path)
    except _Problem as problem:
        raise CatalogueError(source, problem.where, problem.reason, path) from None
    except Problems as problems:
        raise CatalogueError.of(source, problems.found, path) from None


# load_catalogue(path=None): a catalogue file (a str or path-like, as the OpenSpiel game
# parameter `catalogue` passes it), or the built-in one for None (or ""); a
# CatalogueError (a ValueError) names the file and every place with its reason, also
# when the file cannot be read. catalogue_from_bytes(raw, source, path=None): the same
# from a file's bytes. default_catalogue(): the built-in one, loaded once.
load_catalogue, catalogue_from_bytes, default_catalogue = data_file_readers(
    parse_catalogue, CatalogueError, __package__, BUILTIN_NAME, MAX_FILE_BYTES, MAX_ITEMS, "a catalogue",
    not_a_catalogue("gutenberg"))
