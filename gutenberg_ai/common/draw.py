"""The drawing kit: the pieces of rich text every game's view and the terminal table are
made of, so that a game draws its table without depending on an interface.

    from gutenberg_ai.common import draw
    draw.rows_table([("Money", draw.cell("5 guilders"))])   # a label column LABEL wide
    draw.pack([Text("A"), Text("B")], width=40)              # side by side, as many as fit

Text from a file (a player's name) is shown as plain text: never read as rich markup, its
escape codes escaped.
"""
from __future__ import annotations

from rich.table import Table
from rich.text import Text

from gutenberg_ai.common.jsonfile import plain_text

__all__ = ["LABEL", "cell", "glossary", "joined", "pack", "row_adder", "rows_table", "seat_label"]

LABEL = 11   # width of the labels on the left of a decision view


def joined(parts, sep="; ") -> Text:
    out = Text()
    for i, part in enumerate(parts):
        if i:
            out.append(sep)
        out.append(part if isinstance(part, Text) else Text(str(part)))
    return out


def cell(value) -> Text:
    # A plain str given to rich would be read as markup ("G3 [ink swap | ...]" vanishes).
    return value if isinstance(value, Text) else Text(str(value))


def row_adder(table: Table):
    """table.add_row for (label, value) rows, the value as Text."""
    return lambda label, value: table.add_row(label, cell(value))


def seat_label(seat: int, seat_names) -> str:
    # A name may come from a file: shown as plain text (escape codes escaped).
    return plain_text(seat_names[seat]) if seat_names and seat < len(seat_names) else f"player {seat}"


def pack(items, width: int, sep: str = "   ") -> Text:
    """Items (Text) side by side, as many on a line as fit `width`; never split."""
    out, used = Text(), 0
    for item in items:
        item = item if isinstance(item, Text) else Text(str(item))
        if used and used + len(sep) + len(item) > width:
            out.append("\n")
            used = 0
        elif used:
            out.append(sep)
            used += len(sep)
        out.append_text(item)
        used += len(item)
    return out


def pack_tight(items: list[Text], width: int, sep: str = "   ") -> Text:
    """Items on as few lines of `width` as first fit finds them, the longest first (their
    order is not kept): uneven items, such as a Shop menu's 16 shops, in fewer lines than
    pack's."""
    lines: list[list[Text]] = []
    for item in sorted(items, key=len, reverse=True):
        line = next((line for line in lines
                     if sum(map(len, line)) + len(sep) * len(line) + len(item) <= width), None)
        if line is None:
            lines.append([item])
        else:
            line.append(item)
    return Text("\n").join(Text(sep).join(line) for line in lines)


def rows_table(rows) -> Table:
    t = Table.grid(padding=(0, 1))
    t.add_column(style="bold cyan", no_wrap=True, width=LABEL)
    t.add_column()
    for label, value in rows:
        t.add_row(label, value)
    return t


def glossary(heading: str, entries, note: str | None = None) -> Text:
    """A help page: the heading (bold), then each (name, text) entry on a line of its own,
    the name bold cyan, and a closing note (dim)."""
    out = Text(heading + "\n", style="bold")
    for name, text in entries:
        out.append(f"  {name}", style="bold cyan")
        out.append(f": {text}\n")
    if note:
        out.append(note, style="dim")
    return out
