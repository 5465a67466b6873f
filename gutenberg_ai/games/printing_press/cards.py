"""Looking a card, plate or frame of Printing Press up by what it shows, for
`gutenberg-ai cards --game printing-press` (the games table's cards module).

    from gutenberg_ai.games.printing_press.cards import find_cards
    for match in find_cards("A blue initiative"):
        print(match.card, match.text)        # card 37 (A | blue | initiative)

A position file names them by their printed numbers (a card 1-90, a frame or plate
1-16); the person at the table sees their faces. Each is read as a bag of words of what
it shows (card_words: a card's squares and how it lies; a plate's letters, points and
additional condition; a frame's ink and line, specialties, points and bonus symbols),
and so is the query (query_words: "blu" is blue, "*" the initiative icon, "-" a blank
square, "typ" typesetting...). A match shows every word of the query, as many times as
the query says; the closest (fewest words the query left out) come first.
"""
from __future__ import annotations

import re
from collections import Counter

from gutenberg_ai.games import Match, card_lookup

from .catalogue import Catalogue, default_catalogue, load_catalogue  # noqa: F401 (the cards contract)

KINDS = ("card", "plate", "frame")
EXAMPLE = "A blue initiative"
NOTE = ("In a position file write a card by its number (\"offer\": [37, 5]), an order as [frame, plate] "
        "(docs/printing_press/positions.md). Components of your box that differ: copy the catalogue, "
        "correct it and pass --catalogue (docs/printing_press/catalogue.md).")
EXACT: dict = {}      # no options for exact letters or inks here
_SYNONYMS = {"*": "initiative", "icon": "initiative", "icons": "initiative", "-": "blank",
             "blu": "blue", "yel": "yellow", "gry": "grey", "gray": "grey", "typ": "typesetting",
             "woo": "woodcutting", "bnd": "binding", "ill": "illuminating", "columns": "column",
             "rows": "row", "vertical": "column", "horizontal": "row", "next": "adjacent",
             "no": "absent", "without": "absent", "cards": "card", "plates": "plate", "frames": "frame",
             "points": "points", "point": "points", "pts": "points", "p": "points"}


def card_words(kind: str, item) -> Counter:
    """The words a card, plate or frame shows, with their counts."""
    words = Counter([kind, str(item.number)])
    if kind == "card":
        words.update(q.lower() for q in item.squares)
        words.update([item.orientation])
    elif kind == "plate":
        words.update(x.lower() for x in item.letters)
        words.update([str(item.points), "points", item.kind.split()[0], str(item.bonus)])
        if item.kind == "adjacent":
            words.update(["adjacent", item.letter.lower(), item.letter2.lower()])
        elif item.kind == "corner":
            words.update(["corner", item.letter.lower()] + item.corner.split("-"))
        else:
            words.update([item.letter.lower()] + item.kind.split())
    else:
        words.update([item.ink, str(item.ink_points), str(item.specialty_points), "points"]
                     + item.line.split() + list(item.specialties) + list(item.bonus))
    return words


def query_words(text: str) -> Counter:
    """The words of a query, in the components' words."""
    out = []
    for raw in re.findall(r"[A-Za-z]+|\d+|[*-]", text):
        word = raw.lower()
        out.append(_SYNONYMS.get(word, word))
    return Counter(out)


def _items(cat: Catalogue, kind: str):
    return {"card": cat.cards, "plate": cat.plates, "frame": cat.frames}[kind]


def _describe(cat: Catalogue, kind: str, i: int) -> str:
    return {"card": cat.describe_card, "plate": cat.describe_plate, "frame": cat.describe_frame}[kind](i)


def _found(catalogue: Catalogue | None, kinds):
    """(kind, id, name, text, the words it shows) of each card, plate and frame of `kinds`."""
    cat = catalogue or default_catalogue()
    for k in kinds:
        for i, item in enumerate(_items(cat, k)):
            yield k, i, f"{k} {item.number}", _describe(cat, k, i), card_words(k, item)


find_cards, closest_cards = card_lookup(KINDS, query_words, _found)


__all__ = ["EXACT", "EXAMPLE", "KINDS", "Match", "NOTE", "card_words", "closest_cards", "find_cards",
           "query_words"]
