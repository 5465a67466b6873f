"""Looking a component of Lead Letter Printers up by what it shows, for `gutenberg-ai
cards --game lead-letter-printers` (the games table's cards module).

    from gutenberg_ai.games.lead_letter_printers.cards import find_cards
    for match in find_cards("technology III marks"):
        print(match.card, match.text)     # technology 25 (III: 3 marks)

The moves and the table name components by their printed numbers ("lead letter 35",
"technology 11", "factory 4", "trading tile 26", "order 12", "contract 24", "city disc
6"); a person at the table sees their faces. Each is read as the bag of the words the
game says of it (Catalogue.describe_*), and so is the query; a match shows every word of
the query as many times as the query says, the closest (fewest words left out) first.
"""
from __future__ import annotations

import re
from collections import Counter

from gutenberg_ai.games import Match, card_lookup

from .catalogue import Catalogue, default_catalogue, load_catalogue  # noqa: F401 (the cards contract)

KINDS = ("letter", "technology", "factory", "tile", "order", "contract", "disc")
EXAMPLE = "technology III marks"
NOTE = ("A position file writes the table as it stands, each component by its number, its name or "
        "these words, or the moves of a game (docs/lead_letter_printers/positions.md). Components of your box that differ: copy the catalogue, "
        "correct it and pass --catalogue (docs/lead_letter_printers/catalogue.md).")
EXACT: dict = {}      # no options for exact letters or inks here
_NAMES = {"letter": "lead letter", "technology": "technology", "factory": "factory", "tile": "trading tile",
          "order": "order", "contract": "contract", "disc": "city disc"}
_SYNONYMS = {"letters": "letter", "technologies": "technology", "tech": "technology", "factories": "factory",
             "tiles": "tile", "orders": "order", "contracts": "contract", "discs": "disc",
             "mark": "marks", "point": "points", "pts": "points", "resources": "resource"}


def _words(text: str) -> Counter:
    out = []
    for raw in re.findall(r"[A-Za-z']+|\d+", text):
        word = raw.lower() if not raw.isupper() or len(raw) > 4 else raw     # letters A-F and levels I-IV as printed
        out.append(_SYNONYMS.get(word, word))
    return Counter(out)


def query_words(text: str) -> Counter:
    """The words of a query, in the components' words."""
    return _words(text)


def card_words(cat: Catalogue, kind: str, i: int) -> Counter:
    """The words a component shows, with their counts (its kind among them)."""
    words = _words(describe(cat, kind, i))
    words.update([kind])
    return words


def describe(cat: Catalogue, kind: str, i: int) -> str:
    return {"letter": cat.describe_letter, "technology": cat.describe_tech, "factory": cat.describe_factory,
            "tile": cat.describe_tile, "order": cat.describe_order, "contract": cat.describe_contract,
            "disc": cat.describe_disc}[kind](i)


def _found(catalogue: Catalogue | None, kinds):
    """(kind, id, name, text, the words it shows) of each component of `kinds`."""
    cat = catalogue or default_catalogue()
    for k in kinds:
        for i in range(cat.count(k)):
            text = describe(cat, k, i)
            yield k, i, text.split(" (", 1)[0], text, card_words(cat, k, i)


find_cards, closest_cards = card_lookup(KINDS, query_words, _found)


__all__ = ["EXACT", "EXAMPLE", "KINDS", "Match", "NOTE", "card_words", "closest_cards", "find_cards",
           "query_words"]
