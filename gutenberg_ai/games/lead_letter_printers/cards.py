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
from dataclasses import dataclass

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


@dataclass(frozen=True)
class Match:
    kind: str
    id: int          # 0-based
    card: str        # how it is named: "technology 11"
    text: str        # what it shows, in the game's words
    missing: int     # words it shows that the query did not mention


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


def _matches(query: str, kind: str | None, catalogue: Catalogue | None):
    cat = catalogue or default_catalogue()
    if kind is not None and kind not in KINDS:
        raise ValueError(f"kind: {kind!r} is not one of {', '.join(KINDS)}")
    words = query_words(query)
    for k in (kind,) if kind else KINDS:
        for i in range(cat.count(k)):
            shows = card_words(cat, k, i)
            hit = sum(min(n, shows[w]) for w, n in words.items())
            text = describe(cat, k, i)
            yield hit, sum(words.values()), Match(k, i, text.split(" (", 1)[0], text, sum(shows.values()) - hit)


def find_cards(query: str = "", kind: str | None = None, catalogue: Catalogue | None = None) -> list[Match]:
    """The components (or those of `kind`) that show every word of `query`, closest
    first; ValueError for a kind that does not exist."""
    out = [m for hit, wanted, m in _matches(query, kind, catalogue) if hit == wanted]
    out.sort(key=lambda m: (m.missing, KINDS.index(m.kind), m.id))
    return out


def closest_cards(query: str, kind: str | None = None, catalogue: Catalogue | None = None, top: int = 5):
    """When nothing shows every word: those that show the most of them."""
    scored = [(-hit, m.missing, KINDS.index(m.kind), m.id, m) for hit, _, m in _matches(query, kind, catalogue) if hit]
    scored.sort(key=lambda x: x[:4])
    return [m for *_, m in scored[:top]]


__all__ = ["EXACT", "EXAMPLE", "KINDS", "Match", "NOTE", "card_words", "closest_cards", "find_cards",
           "query_words"]
