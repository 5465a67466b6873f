"""Looking a card up by what it shows, for `gutenberg-ai cards`.

    from gutenberg_ai.games.gutenberg.cards import find_cards
    for match in find_cards("A I I U 5 guilders"):
        print(match.card, match.text)          # P30 [A I I U] 5g

A position file names cards by catalogue id ("P30"); the person at the table holds a
card and sees its faces. Every card is read as a bag of words of its faces (card_words:
its kind, letters, inks, specialties with their levels, numbers with what they count,
gear rewards), and so is the query (query_words: "5g" and "5 guilders" are 5 guilders,
"2f" 2 fame, "IV" is level 4, "inks" is ink...). A number of guilders or fame is one
word ("guilders:5"): "2f" finds a card that shows 2 fame, not one that shows a 2 and
some fame. A card matches when it shows every word of the query, as many times
as the query says; the closest matches (fewest words the query left out) come first.
`letters=` and `inks=` ask for exactly those letters (a printing card's, a patronage
card's types) or inks (a refinement card's colour part, a patronage card's inks).
"""
from __future__ import annotations

import re
from collections import Counter

from gutenberg_ai.games import Match, cards_showing, kinds_asked
from gutenberg_ai.games.gutenberg.catalogue import Catalogue, default_catalogue, load_catalogue  # noqa: F401 (the cards contract)
from gutenberg_ai.games.gutenberg.names import INKS, LETTERS, SPECIALTIES

KINDS = ("printing", "refinement", "specialty", "gear", "patronage")
_PREFIX = {"printing": "P", "refinement": "R", "specialty": "S", "gear": "G", "patronage": "C"}
# Words of a query that mean the same as a card's word.
_SYNONYMS = {"g": "guilders", "guilder": "guilders", "f": "fame", "inks": "ink", "types": "type",
             "orders": "order", "gears": "gear", "specialties": "specialty", "deco": "decoration",
             "color": "colour", "colours": "colour", "colors": "colour", "printings": "printing",
             "refinements": "refinement", "cards": "", "card": "", "with": "", "and": "", "of": "",
             "level": "", "levels": "", "patron": "patronage", "spec": "specialty"}
AMOUNTS = ("guilders", "fame")   # what a number on a card counts, written with it
_ROMAN = {"ii": "2", "iii": "3", "iv": "4", "v": "5", "vi": "6"}   # a lone "i" is the letter


def _level_words(specialty: str, level: int) -> list:
    # "binding IV" in a query is the one word "binding:4": the level of that specialty.
    return [specialty, str(level), f"{specialty}:{level}"] + (["i"] if level == 1 else [])


def _amount_words(n: int, unit: str) -> list:
    # "5 guilders" in a query is the one word "guilders:5": that many of them.
    return [str(n), unit, f"{unit}:{n}"]


def card_words(kind: str, card) -> Counter:
    """The words a card shows, with their counts."""
    words = Counter([kind])
    if kind == "printing":
        words.update(c.lower() for c in card.letters)
        words.update(_amount_words(card.guilders, "guilders"))
    elif kind == "refinement":
        words.update(["colour"] + [ink for ink, n in card.colour.items() for _ in range(n)])
        words.update(_amount_words(card.colour_fame, "fame") + ["decoration"]
                     + _amount_words(card.decoration_fame, "fame"))
        for specialty, level in card.decoration.items():
            words.update(_level_words(specialty, level))
        words.update(["reward"] + (_amount_words(card.reward.amount, card.reward.kind)
                                   if card.reward.kind in AMOUNTS else [card.reward.kind, str(card.reward.amount)]))
    elif kind == "specialty":
        words.update(card.icons)
    elif kind == "gear":
        if card.white_line:
            words.update(["white", "line"])
        for sector in card.sectors:
            words.update(re.split("[_ ]", sector.reward.replace("colour", "colour_ink")))
            words.update(x.lower() for x in sector.indicates)
    elif kind == "patronage":
        for specialty, level in card.specialties.items():
            words.update(_level_words(specialty, level))
        for ink, n in card.inks.items():
            words.update([ink] * n + ["ink"])
        for letter, n in card.types.items():
            words.update([letter.lower()] * n + ["type"])
    return words


def query_words(text: str) -> Counter:
    """The words of a query, in the cards' words (see the module's docstring)."""
    words = []
    for raw in re.findall(r"[A-Za-z]+|\d+[gGfF]?", text):
        word = raw.lower()
        m = re.fullmatch(r"(\d+)([gf])", word)
        if m:
            words.append(f"{'guilders' if m.group(2) == 'g' else 'fame'}:{m.group(1)}")
            continue
        level = _ROMAN.get(word, "1" if word == "i" else word)
        if words and words[-1] in SPECIALTIES and level.isdigit():
            words[-1] = f"{words[-1]}:{level}"   # a specialty and its level
            continue
        word = _ROMAN.get(word, _SYNONYMS.get(word, word))
        if word in AMOUNTS and words and words[-1].isdigit():
            words[-1] = f"{word}:{words[-1]}"   # a number and what it counts
            continue
        if word:
            words.append(word)
    return Counter(words)


def _describe(cat: Catalogue, kind: str, i: int) -> str:
    return {"printing": cat.describe_printing, "refinement": cat.describe_refinement,
            "specialty": cat.describe_specialty_card, "gear": cat.describe_gear,
            "patronage": cat.describe_patronage}[kind](i)


def _cards(cat: Catalogue, kind: str):
    return {"printing": cat.printing, "refinement": cat.refinement, "specialty": cat.specialty_cards,
            "gear": cat.gears, "patronage": cat.patronage}[kind]


def _exact(kind, card, letters, inks) -> bool:
    if letters is not None:
        held = (Counter(card.letters) if kind == "printing" else
                Counter(dict(card.types)) if kind == "patronage" else None)
        if held is None or held != letters:
            return False
    if inks is not None:
        held = (Counter(dict(card.colour)) if kind == "refinement" else
                Counter(dict(card.inks)) if kind == "patronage" else None)
        if held is None or held != inks:
            return False
    return True


def _counts(text: str | None, names, what: str) -> Counter | None:
    if text is None:
        return None
    counts: Counter[str] = Counter()
    for item in re.findall(r"[A-Za-z]+", text):
        match = [n for n in names if n.lower() == item.lower()]
        if not match and len(item) > 1 and what == "letters":
            match = [n for n in names for c in item if n.lower() == c.lower()]
            if len(match) == len(item):
                counts.update(match)
                continue
        if len(match) != 1:
            raise ValueError(f"{what}: {item!r} is not one of {', '.join(names)}")
        counts.update(match)
    if not counts:
        raise ValueError(f"{what}: name at least one of {', '.join(names)}")
    return counts


def _found(cat: Catalogue, kinds, ids=(), letters=None, inks=None):
    """(kind, id, name, text, the words it shows) of each card of `kinds` (of `ids`, with
    exactly `letters` and `inks`, where given)."""
    for k in kinds:
        for card in _cards(cat, k):
            if (ids and (k, card.id) not in ids) or not _exact(k, card, letters, inks):
                continue
            yield k, card.id, f"{_PREFIX[k]}{card.id}", _describe(cat, k, card.id), card_words(k, card)


def find_cards(query: str = "", kind: str | None = None, letters: str | None = None, inks: str | None = None,
               catalogue: Catalogue | None = None) -> list[Match]:
    """The cards that show every word of `query` (and exactly `letters`, `inks` where
    given), of `kind` (default: every kind), closest first. An id such as "P30" in the
    query finds that card. ValueError for a kind, letter or ink that does not exist."""
    cat = catalogue or default_catalogue()
    kinds = kinds_asked(kind, KINDS)
    want_letters = _counts(letters, LETTERS, "letters")
    want_inks = _counts(inks, INKS, "inks")
    ids = {(k, int(n)) for p, n in re.findall(r"\b([PRSGCprsgc])(\d+)\b", query)
           for k in KINDS if _PREFIX[k] == p.upper()}
    words = query_words(re.sub(r"\b[PRSGCprsgc]\d+\b", " ", query))
    return cards_showing(words, _found(cat, kinds, ids, want_letters, want_inks), KINDS)


def closest_cards(query: str, kind: str | None = None, catalogue: Catalogue | None = None, top: int = 5):
    """When nothing shows every word: the cards that show the most of them."""
    cat = catalogue or default_catalogue()
    return cards_showing(query_words(query), _found(cat, kinds_asked(kind, KINDS)), KINDS, top)


# What `gutenberg-ai cards` says of this game (the games table's cards module contract:
# KINDS, find_cards, closest_cards, load_catalogue, EXAMPLE, NOTE, EXACT).
EXAMPLE = "A I I U 5 guilders"
NOTE = ("In a position file write a card as its id, as the cards found are named (\"P30\": printing card 30). A card of "
        "your box that differs: describe it inline in the position (docs/gutenberg/positions.md), or copy the catalogue, correct it "
        "and pass --catalogue (docs/gutenberg/catalogue.md).")
EXACT = {"letters": "exactly these letters (a printing card's, a patronage card's types)",
         "inks": "exactly these inks (a refinement card's colour part, a patronage card's inks)"}

__all__ = ["EXACT", "EXAMPLE", "KINDS", "Match", "NOTE", "card_words", "closest_cards", "find_cards",
           "query_words"]
