"""The Printing Press catalogue: every component that the rulebook shows only as a picture
(cards, plates, frames, tokens, the characters' initiative values, the time track's marked
steps, the solo board), as data, loaded and validated.

The built-in file is ``data/catalogue.json`` (``docs/printing_press/catalogue.md`` says
which facts are the rulebook's and which are our reconstruction); a person who owns the
box can check it against their components and load their own. Loading checks the file
against the JSON Schema ``data/catalogue.schema.json`` (the shape of every field), then
the facts the schema cannot say (numbering, the rulebook's counts, conditions that can be
met). Every problem is reported at once in one :class:`CatalogueError`, each with its place
in the file, values shown in short excerpts; nothing is returned half-loaded.

:meth:`Catalogue.to_core` gives the nested dict that the compiled core copies into its C
``struct Catalogue`` (ext/printing_press/pp_types.pxd), field for field.
"""
from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from gutenberg_ai.games.gutenberg.catalogue import FrozenMap
from gutenberg_ai.games.positionfile import not_a_catalogue
from gutenberg_ai.common.jsonfile import FileDataError, SchemaChecker, data_file_readers, packaged_json, raise_problems, show

from .names import (ADDITIONAL_KINDS, CHARACTERS, CORNERS, KINDS, LETTERS, LINES, SPECIALTIES,
                    SQUARES, SYMBOLS, VARIANTS)

__all__ = ["Card", "Catalogue", "CatalogueError", "Frame", "Plate", "SoloBoard", "TrackSide",
           "catalogue_schema", "default_catalogue", "load_catalogue", "parse_catalogue"]

# Counts fixed by the rulebook's component list (and the core's arrays).
N_CARDS = 90
N_PLATES = 16
N_FRAMES = 16
N_TOKENS = 48
N_CUBES = 7
CARD_STEPS = {"basic": 6, "advanced": 5}          # "6 times"; "only 5 steps" (advanced)
SOLO_POINTS = (4, 3, 2, 1)                         # "the side showing points value 4, 3, 2, 1"
SOLO_HARD_POINTS = (5, 4, 3, 1)                    # "the higher-scoring side (5, 4, 3, 1)"
SOLO_SPACES_PER_KIND = 3                           # "each of the 3 spaces with ink symbols"

BUILTIN_NAME = "catalogue.json"
SCHEMA_NAME = "catalogue.schema.json"
SECTIONS = tuple(packaged_json(__package__, SCHEMA_NAME)["required"])   # the keys a catalogue must have
MAX_FILE_BYTES = 1 << 20   # a catalogue file (the built-in one is about 30 KB)
MAX_ITEMS = 200            # entries of a list (90 cards is the longest)
EXCERPT = 40               # characters of a value shown in a message


class CatalogueError(FileDataError):
    """A catalogue that cannot be used. ``problems`` lists every problem found as
    (where, reason) pairs; ``str(error)`` has a line for each (jsonfile.FileDataError),
    for example::

        my.json: cards[4].squares[1]: 'purple' is not one of A, I, O, U, blue, ...
        my.json: plates[2].additional: an absent letter 'A' is one of the main letters AAI
    """


# ---------------------------------------------------------------------------------------
# The components
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Card:
    """A printing card: 3 squares as printed (left to right for a row, top to bottom for
    a column), each a symbol, "initiative" or "blank"."""

    number: int
    orientation: str
    squares: tuple[str, ...]

    @property
    def vertical(self) -> bool:
        return self.orientation == "column"


@dataclass(frozen=True)
class Plate:
    """A printing plate: the main letters and points, and the additional condition (one
    of ADDITIONAL_KINDS with its letter(s) and corner) and points."""

    number: int
    letters: str
    points: int
    kind: str
    letter: str            # the additional condition's letter (adjacent: the first)
    letter2: str           # adjacent: the second letter; "" otherwise
    corner: str            # corner: one of CORNERS; "" otherwise
    bonus: int


@dataclass(frozen=True)
class Frame:
    """A printing frame: the ink condition (an ink in a row or column), the specialty
    condition, and the symbols of its two bonus-marker slots."""

    number: int
    ink: str
    line: str
    ink_points: int
    specialties: tuple[str, ...]
    specialty_points: int
    bonus: tuple[str, str]


@dataclass(frozen=True)
class TrackSide:
    card_steps: int
    bonus_after: tuple[int, ...]   # per round, the marked (1-based) Select Cards step


@dataclass(frozen=True)
class SoloBoard:
    choices: tuple[tuple[str, ...], ...]   # per round: the kind of each choice space
    points: tuple[int, ...]
    hard_points: tuple[int, ...]


@dataclass(frozen=True)
class Catalogue:
    """Every component of the game. Built by :func:`load_catalogue`; immutable."""

    cards: tuple[Card, ...]
    plates: tuple[Plate, ...]
    frames: tuple[Frame, ...]
    tokens: FrozenMap                  # symbol -> tokens
    initiative_cubes: int
    characters: FrozenMap              # character -> initiative value
    time_track: FrozenMap              # variant -> TrackSide
    solo_board: SoloBoard
    about: str = ""
    path: str | None = field(default=None, compare=False)

    # -- words ---------------------------------------------------------------------------
    def describe_card(self, i: int) -> str:
        """E.g. "card 37 (A | blue | initiative)" (a row) or "card 5 (A / - / red)" (a
        column, top to bottom; "-" a blank square)."""
        card = self.cards[i]
        sep = " / " if card.vertical else " | "
        return f"card {card.number} (" + sep.join("-" if q == "blank" else q for q in card.squares) + ")"

    def describe_plate(self, i: int) -> str:
        """E.g. "plate 16: A A U I for 4, +2 if U in the middle row"."""
        p = self.plates[i]
        main = " ".join(p.letters)
        if p.kind == "adjacent":
            extra = f"{p.letter} next to {p.letter2}"
        elif p.kind == "absent":
            extra = f"no {p.letter}"
        elif p.kind == "corner":
            extra = f"{p.letter} in the {p.corner} corner"
        else:
            extra = f"{p.letter} in the {p.kind}"
        return f"plate {p.number}: {main} for {p.points}, +{p.bonus} if {extra}"

    def describe_frame(self, i: int) -> str:
        """E.g. "frame 13: grey in the bottom row 3, typesetting+woodcutting 4; bonus
        blue/illuminating"."""
        f = self.frames[i]
        return (f"frame {f.number}: {f.ink} in the {f.line} {f.ink_points}, "
                f"{'+'.join(f.specialties)} {f.specialty_points}; bonus {f.bonus[0]}/{f.bonus[1]}")

    def max_score(self) -> int:
        """A bound on any final score (a player's or the automa's), for the utility range:
        per round the best plate (both conditions) and the best frame (both), plus the end
        bonus at most 27 framed squares times the markers one symbol can gather (2 + 1 + 1,
        or Gutenberg's 3 + 1 + 1); the automa at most the solo board's top value per card."""
        round_best = (max(p.points + p.bonus for p in self.plates)
                      + max(f.ink_points + f.specialty_points for f in self.frames))
        player = 3 * round_best + 27 * 5
        steps = max(t.card_steps for t in self.time_track.values())
        automa = 3 * steps * max(self.solo_board.points + self.solo_board.hard_points)
        return max(player, automa)

    # -- the compiled core's struct --------------------------------------------------------
    def to_core(self) -> dict:
        """The catalogue as the core's C ``struct Catalogue`` (pp_types.pxd): same names and
        nesting, names as their index in names.py, specialty sets as bit masks."""
        return {
            "cards": [{"vertical": int(c.vertical), "squares": [SQUARES.index(q) for q in c.squares]}
                      for c in self.cards],
            "plates": [_plate_core(p) for p in self.plates],
            "frames": [{"ink": SYMBOLS.index(f.ink), "line": LINES.index(f.line),
                        "ink_points": f.ink_points,
                        "specialties": sum(1 << SPECIALTIES.index(x) for x in f.specialties),
                        "specialty_points": f.specialty_points,
                        "slots": [SYMBOLS.index(b) for b in f.bonus]} for f in self.frames],
            "tokens": [self.tokens[s] for s in SYMBOLS],
            "initiative": [self.characters[c] for c in CHARACTERS],
            "track": [{"card_steps": self.time_track[v].card_steps,
                       "bonus_after": list(self.time_track[v].bonus_after)} for v in VARIANTS],
            "solo_kinds": [[KINDS.index(k) for k in row] for row in self.solo_board.choices],
            "solo_points": [list(self.solo_board.points), list(self.solo_board.hard_points)],
            "cubes": self.initiative_cubes,
        }


def _plate_core(p: Plate) -> dict:
    return {"letters": [p.letters.count(x) for x in LETTERS], "points": p.points,
            "kind": ADDITIONAL_KINDS.index(p.kind), "letter": LETTERS.index(p.letter),
            "letter2": LETTERS.index(p.letter2 or p.letter),
            "corner": CORNERS.index(p.corner) if p.corner else 0, "bonus": p.bonus}


# ---------------------------------------------------------------------------------------
# Checking
# ---------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=1)
def catalogue_schema() -> dict:
    """The JSON Schema (draft 2020-12) of catalogue files, as shipped in the package."""
    return packaged_json(__package__, SCHEMA_NAME)


def _reason(error) -> str | None:
    """The catalogue's own words for its letter patterns and condition kinds (the rest is
    jsonfile.SchemaChecker's)."""
    v, inst, schema, value = error.validator, error.instance, error.schema, error.validator_value
    if v == "pattern" and "AIOU" in value:
        return f"{_excerpt(inst)} must be letters A, I, O, U ({schema.get('description', value)})"
    if v == "not":
        return "a key that does not belong to this kind of condition"
    return None


@functools.lru_cache(maxsize=1)
def _checker() -> SchemaChecker:
    return SchemaChecker(catalogue_schema(), reason=_reason, excerpt=EXCERPT)


def _excerpt(value: Any) -> str:
    """A value as the file writes it, cut to EXCERPT characters."""
    return show(value, EXCERPT)


def _schema_problems(data: Any) -> list[tuple[str, str]]:
    return _checker().problems(data)


def _semantic_problems(data: dict) -> list[tuple[str, str]]:
    """What the schema cannot say, on a file that has the schema's shape."""
    out = []
    for section in ("cards", "plates", "frames"):
        for i, item in enumerate(data[section]):
            if item["number"] != i + 1:
                out.append((f"{section}[{i}].number", f"{item['number']}: the {section} are numbered "
                            f"1, 2, 3... in order, this one must be {i + 1}"))
    total = sum(data["tokens"].values())
    if total != N_TOKENS:
        out.append(("tokens", f"{total} tokens in all, the rulebook has {N_TOKENS}"))
    if data["initiative_cubes"] != N_CUBES:
        out.append(("initiative_cubes", f"{data['initiative_cubes']}, the rulebook has {N_CUBES}"))
    values = Counter(data["characters"].values())
    for name, value in data["characters"].items():
        if values[value] > 1:
            out.append((f"characters[{_excerpt(name)}]", f"initiative {value} is on another tile too; "
                        "ties are broken by these values, so they must differ"))
    for variant, steps in CARD_STEPS.items():
        side = data["time_track"][variant]
        if side["card_steps"] != steps:
            out.append((f"time_track.{variant}.card_steps",
                        f"{side['card_steps']}, the rulebook has {steps} Select Cards steps"))
        for r, after in enumerate(side["bonus_after"]):
            if after > side["card_steps"]:
                out.append((f"time_track.{variant}.bonus_after[{r}]",
                            f"step {after}, the round has {side['card_steps']} steps"))
    kinds = Counter(k for row in data["solo_board"]["choices"] for k in row)
    for kind in KINDS:
        if kinds[kind] != SOLO_SPACES_PER_KIND:
            out.append(("solo_board.choices", f"{kinds[kind]} {kind} spaces, the solo board has "
                        f"{SOLO_SPACES_PER_KIND} of each kind"))
    for key, want in (("points", SOLO_POINTS), ("hard_points", SOLO_HARD_POINTS)):
        if tuple(data["solo_board"][key]) != want:
            out.append((f"solo_board.{key}", f"{_excerpt(data['solo_board'][key])}, the rulebook's "
                        f"side shows {', '.join(map(str, want))}"))
    for i, plate in enumerate(data["plates"]):
        add = plate["additional"]
        if add["kind"] == "absent" and add["letter"] in plate["letters"]:
            out.append((f"plates[{i}].additional", f"the absent letter {add['letter']!r} is one of the "
                        f"main letters {plate['letters']}: the condition could never be met"))
    for i, card in enumerate(data["cards"]):
        if all(q == "blank" for q in card["squares"]):
            out.append((f"cards[{i}].squares", "a card with nothing on it"))
    return out


def _build(data: dict, path: str | None) -> Catalogue:
    cards = tuple(Card(c["number"], c["orientation"], tuple(c["squares"])) for c in data["cards"])
    plates = []
    for p in data["plates"]:
        a = p["additional"]
        letters2 = a.get("letters", "")
        plates.append(Plate(p["number"], p["letters"], p["points"], a["kind"],
                            letters2[0] if letters2 else a["letter"],
                            letters2[1] if letters2 else "", a.get("corner", ""), a["points"]))
    frames = tuple(Frame(f["number"], f["ink"]["ink"], f["ink"]["line"], f["ink"]["points"],
                         tuple(x for x in SPECIALTIES if x in f["specialties"]["specialties"]),
                         f["specialties"]["points"], tuple(f["bonus"])) for f in data["frames"])
    track = FrozenMap((v, TrackSide(data["time_track"][v]["card_steps"],
                                    tuple(data["time_track"][v]["bonus_after"]))) for v in VARIANTS)
    solo = data["solo_board"]
    return Catalogue(
        cards=cards, plates=tuple(plates), frames=frames,
        tokens=FrozenMap((s, data["tokens"][s]) for s in SYMBOLS),
        initiative_cubes=data["initiative_cubes"],
        characters=FrozenMap((c, data["characters"][c]) for c in CHARACTERS),
        time_track=track,
        solo_board=SoloBoard(tuple(tuple(r) for r in solo["choices"]), tuple(solo["points"]),
                             tuple(solo["hard_points"])),
        about=data.get("about", ""), path=path)


# ---------------------------------------------------------------------------------------
# Public entry points
# ---------------------------------------------------------------------------------------
def parse_catalogue(data: Any, source: str = BUILTIN_NAME, path: str | None = None) -> Catalogue:
    """Validate already-decoded JSON data and build the Catalogue. ``source`` names the
    data in messages; raises CatalogueError listing every problem."""
    raise_problems(data, source, path, CatalogueError, _schema_problems, _semantic_problems)
    return _build(data, path)


# load_catalogue(path=None): a catalogue file, or the built-in one for None (or ""); a
# CatalogueError names the file and every problem, also when it cannot be read.
# catalogue_from_bytes(raw, source, path=None): the same from a file's bytes.
# default_catalogue(): the built-in one, loaded once.
load_catalogue, catalogue_from_bytes, default_catalogue = data_file_readers(
    parse_catalogue, CatalogueError, __package__, BUILTIN_NAME, MAX_FILE_BYTES, MAX_ITEMS, "a catalogue",
    not_a_catalogue("printing-press"))
