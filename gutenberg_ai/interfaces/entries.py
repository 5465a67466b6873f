"""What a person types to name a move or a draw among those possible now, read the same
way by `play`, `table` and the page's At the table:

- its number in the menu (1 to the number of entries), or `#ID` for the action's id;
- numbers the game's view reads as one move (Gutenberg: a plan as five numbers; Printing
  Press: a row and a column);
- the game's words: the whole text, its start, or words it contains (one entry must fit);
- a card by what it shows, as `gutenberg-ai cards` finds it (`O O O U U 7 guilders`).

    find_entry("take ink", {12: "take ink red", 13: "pass"})          # -> 12
"""
from __future__ import annotations

import re

__all__ = ["EntryRefused", "NothingNamed", "find_entry", "number_shown"]


class EntryRefused(ValueError):
    """An entry that cannot be taken; its text says why. Nothing changed."""


class NothingNamed(ValueError):
    """Words that name none of the entries (a caller may say what else it reads)."""


def number_shown(digits: str) -> str:
    """A number typed, as a message repeats it: its first 12 digits."""
    return digits if len(digits) <= 12 else digits[:12] + "..."


def _norm(text: str) -> str:
    return " ".join(text.lower().replace(",", " ").split())


# How a number that names nothing is answered, by what the numbers count: the table's
# entries, play's moves. {k}: the number typed, {n}: how many there are, {line}: the
# line, {more}: what else the game's view reads (view.typed_move_help).
NUMBERED = {
    "entry": ("there is no entry {k} in the list: they are numbered 1 to {n}",
              "{line!r}: type one number from the list (1-{n}), or the words"),
    "move": ("there is no move {k}: the moves are numbered 1 to {n}",
             "type one move number (1-{n}){more}"),
}


def find_entry(line: str, options: dict, core=None, view=None, cards=None, noun: str = "entry",
               more: str = "") -> int:
    """The action `line` names among `options` (action -> words): `#ID`, a number of the
    menu, numbers the game's view reads (typed_move), the words (whole, start, or all
    contained), or a card found by what it shows. ValueError says why none or which, of
    a number in the words of `noun` (NUMBERED)."""
    line = line.strip()
    actions = list(options)
    if re.fullmatch(r"#-?\d{1,9}", line):
        action = int(line[1:])
        if action not in options:
            raise EntryRefused(f"not possible: action {action} is not among what can be entered now (list)")
        return action
    numbers = line.replace(",", " ").split()
    if numbers and all(re.fullmatch(r"-?\d+", w) for w in numbers):
        none, several = NUMBERED[noun]
        if len(numbers) == 1:
            # (a number of more digits than a menu has is not read: any length is typed)
            k = int(numbers[0]) if len(numbers[0]) <= 6 else None
            if k is not None and 1 <= k <= len(actions):
                return actions[k - 1]
            raise ValueError(none.format(k=number_shown(numbers[0]), n=len(actions)))
        if view is not None and core is not None and not core.is_chance() and all(len(w) <= 6 for w in numbers):
            action = view.typed_move(core, [int(w) for w in numbers], core.legal_actions())
            if action is not None:
                return action
        raise ValueError(several.format(line=line[:60], n=len(actions), more=more))
    said = _norm(line)
    texts = {a: _norm(t) for a, t in options.items()}
    for test in (lambda t: t == said, lambda t: t.startswith(said),
                 lambda t: all(w in t.split() for w in said.split()),
                 lambda t: all(w in t for w in said.split())):
        found = [a for a, t in texts.items() if test(t)]
        if len(found) > 1:
            # Words a card shows ("woodcutting O illuminating") can fit several entries
            # word by word; the card they show, if one, is the entry.
            found = _cards_showing(line, found, options, cards) or found
        if found:
            return _one_of(found, options, line, cards)
    found = _cards_showing(line, actions, options, cards)
    if found:
        return _one_of(found, options, line, cards)
    raise NothingNamed(f"{line!r} is none of what can be entered now: type its words, or list")


def _names(card: str, text: str) -> bool:
    """Whether an entry's `text` names the card named `card` ("card 7" is not "card 78")."""
    return re.search(rf"(^|\W){re.escape(card)}(\W|$)", text) is not None


def _cards_showing(line: str, actions: list, options: dict, cards) -> list:
    """The entries among `actions` naming a card that shows what `line` says, as
    `gutenberg-ai cards` finds it (none without the game's card lookup)."""
    if cards is None:
        return []
    shown = [m.card for m in cards.find_cards(line) if m.card]
    return [a for a in actions if any(_names(card, options[a]) for card in shown)]


def _printed_alike(found: list, options: dict, cards) -> bool:
    """Whether the entries each name one card, all of one kind and showing the same but
    for the card's number (two tiles printed alike, such as Lead Letter Printers' two lead
    letters "AD, 1 paper")."""
    every = cards.find_cards("") if cards is not None else []
    faces = set()
    for a in found:
        named = [m for m in every if _names(m.card, options[a])]
        if len(named) != 1:
            return False
        m = named[0]
        faces.add((m.kind, m.text.replace(m.card, re.sub(r"\b\d+\b", "#", m.card, count=1), 1)))
    return len(faces) == 1


def _one_of(found, options, line, cards=None):
    """The one entry found; cards printed alike, the first of them (a person cannot tell
    which of the two was drawn, and the game does not depend on it); several others:
    ValueError naming them."""
    if len(found) == 1 or _printed_alike(found, options, cards):
        return found[0]
    shown = "; ".join(options[a] for a in found[:4]) + ("; ..." if len(found) > 4 else "")
    raise ValueError(f"{line!r} fits {len(found)} entries: {shown} (more words, or its number in list)")
