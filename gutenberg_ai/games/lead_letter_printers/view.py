"""Lead Letter Printers's table in the terminal, drawn with `rich` (its view: the games
table's view_module; gutenberg_ai.tui and gutenberg_ai.play call it, docs/new-game.md
lists what a view provides).

The city board is drawn as its grid of shops, numbered by row and column as the moves
name them ("tradesman 1 to room II of Market (row 3, column 2)"), each shop with the
tradesmen standing there under its name: the player's number and the room, upright in
capitals ("0:II"), lying down in lower case ("0:ii"). Below it the displays (the typesetting table, the
trading tiles, the technologies of each level, the orders, the contracts, the city
discs) and each player's boards, in the words of the observation strings
(describe.py): one source of words for both.

What a player may not see stays hidden: the factories another player draws. Everything
here only reads a CoreState; dynamic text goes through rich.text.Text, never markup.
"""
from __future__ import annotations

import re

from rich.console import Group
from rich.table import Table
from rich.text import Text

from gutenberg_ai.tui import _pack, _rows_table, seat_label

from . import _core, describe, names

A = _core.ACTIONS
COMPACTNESS = 5
SEAT_STYLES = ("bold bright_red", "bold bright_blue", "bold bright_green", "bold bright_yellow")
SHOP_WIDTH = 19


_KIND_WORDS = re.compile(r"^(lead letter|technology|trading tile|order|contract|city disc) ")
LABELS = {"Typesetting table": "Table", "Trading tiles": "Tiles", "City discs": "Discs",
          "Factories drawn": "Factories"}


def _short(item: str) -> str:
    """A display's item by its number alone: "technology 11 (I: 2 paper)" -> "11",
    "lead letter 35 BC (1 ink)" -> "35 BC", "Cologne: city disc 6 (...)" -> "Cologne 6"."""
    city, _, rest = item.partition(": ") if ": city disc" in item else ("", "", item)
    out = _KIND_WORDS.sub("", rest.split(" (", 1)[0])
    return f"{city} {out}" if city else out


def board_grid(core) -> Table:
    """The city board: a cell per shop (its name and the tradesmen in it)."""
    s = core.to_dict()
    cat = core.rules.catalogue
    side = _core.SIZES["grid_side"]
    rows = cat.city_board(s["num_players"])
    there = {}
    for seat in range(s["num_players"]):
        p = s["players"][seat]
        for t in range(_core.SIZES["tradesmen"]):
            if p["pos"][t] >= 0:
                room = names.ROOMS[p["room"][t]]
                there.setdefault(p["pos"][t], []).append(
                    Text(f"{seat}:{room if p['upright'][t] else room.lower()}", style=SEAT_STYLES[seat % 4]))
    t = Table(show_header=True, header_style="bold", box=None, padding=(0, 1))
    t.add_column("", justify="right", style="bold")
    for c in range(len(rows[0])):
        t.add_column(f"column {c + 1}", width=SHOP_WIDTH, no_wrap=True)
    for r, row in enumerate(rows):
        cells = []
        for c, number in enumerate(row):
            cell = Text(cat.shop_name(number - 1))
            marks = there.get(r * side + c, [])
            if marks:
                cell.append("\n").append_text(Text(" ").join(marks))
            cells.append(cell)
        t.add_row(f"row {r + 1}", *cells)
    return t


def heading(core) -> Text:
    x = describe.parts(core, -1)
    out = Text(x.heading, style="bold magenta")
    out.append(" | " + x.order, style="magenta")
    return out


def display_rows(core, viewer: int, width: int, short: bool = False) -> list:
    """(label, Text) rows of the shared displays; `short`: the items by number only, the
    technologies of the four levels on one row."""
    rows = []
    techs = []
    for label, items in describe.parts(core, viewer).displays:
        if short:
            shown = [i if i.startswith("the pile") else _short(i) for i in items]
            if label.startswith("Technologies"):
                techs.append(Text(f"{label.split()[-1]}: " + " ".join(shown)))
                if len(techs) == len(names.LEVELS):
                    rows.append(("Tech", _pack(techs, width - 14, " | ")))
                continue
            rows.append((LABELS.get(label, label), _pack([Text(i) for i in shown], width - 14, ", ")))
        else:
            rows.append((LABELS.get(label, label.replace("Technologies", "Tech")),
                         _pack([Text(i) for i in items], width - 14, "; ")))
    return rows


def seat_rows(core, seat: int, viewer: int, seat_names, width: int, one_line: bool = False,
              short: bool = False) -> list:
    """(label, Text) rows of a player's boards; `one_line`: the brief summary alone
    (points, marks, resources, workforce and capacity); `short`: the components in the
    details by number only."""
    one = describe.parts(core, viewer).seats[seat]
    label = seat_label(seat, seat_names)
    head = Text(one.brief if one_line else one.summary)
    if seat == viewer:
        head.stylize("bold")
    rows = [(label[:11], head)]
    if not one_line:
        for k, v in one.details:
            if short and k not in ("tradesmen", "composing sticks"):
                v = ", ".join(_short(x) for x in v.split("; ") if not x.startswith("slots"))
            rows.append((f"  {k}"[:11], Text(v)))
    return rows


# ---------------------------------------------------------------------------------------
# The table (the view's contract)
# ---------------------------------------------------------------------------------------
def game_view(core, viewer: int, seat_names=None, width: int = 100):
    """The whole table as `viewer` sees it (-1: everything)."""
    s = core.to_dict()
    rows = display_rows(core, viewer, width)
    seats = list(range(s["num_players"]))
    if 0 <= viewer < len(seats):
        seats.remove(viewer)
        seats.insert(0, viewer)
    for seat in seats:
        rows += seat_rows(core, seat, viewer, seat_names, width)
    return Group(heading(core), board_grid(core), _rows_table(rows))


def decision_view(core, viewer: int, seat_names=None, width: int = 100, compact: int = 0):
    """The table at `viewer`'s decision: the heading, the city board, the displays, the
    viewer's boards in full and the others'. `compact` 1: the others in a line each; 2:
    the displays by number only; 3: the city board left out too; 4: the viewer's
    components by number only."""
    s = core.to_dict()
    parts = [heading(core)]
    if compact < 3:
        parts.append(board_grid(core))
    rows = display_rows(core, viewer, width, short=compact >= 2)
    if 0 <= viewer < s["num_players"]:
        rows += seat_rows(core, viewer, viewer, seat_names, width, short=compact >= 4)
    for seat in range(s["num_players"]):
        if seat != viewer:
            rows += seat_rows(core, seat, viewer, seat_names, width, one_line=compact >= 1)
    parts.append(_rows_table(rows))
    return Group(*parts)


def move_text(core, action: int, text: str) -> str:
    """The move's words (they say it all)."""
    return text


SHORT_MENU = 12     # shop moves listed one by one up to this many


def _shop_move(action: int):
    """(tradesman, cell, room) of a Shop action's move, else None (the encoding at the
    top of core.pyx: A_MOVE + (t * GRID_CELLS + X) * 2 + room)."""
    if not A["MOVE"] <= action < A["RESET"]:
        return None
    cells = _core.SIZES["grid_side"] ** 2
    k, room = divmod(action - A["MOVE"], 2)
    t, cell = divmod(k, cells)
    return t, cell, room


def menu(core, seat: int, legal, texts, width: int) -> Text | None:
    """None (the numbered list of every move), except for a Shop action with many moves:
    those by tradesman and room, each shop by name with its move's number (the board
    shows where it is; TRADESMAN ROW COLUMN ROOM may be typed instead), then the
    others."""
    moves = [(i, _shop_move(a)) for i, a in enumerate(legal)]
    shop = [(i, m) for i, m in moves if m is not None]
    if len(shop) <= SHORT_MENU:
        return None
    side = _core.SIZES["grid_side"]
    out = Text()
    groups = {}
    for i, (t, cell, room) in shop:
        groups.setdefault((t, room), []).append(
            Text(f"{i + 1:>2}) ", style="bold green").append(core._cell(cell).split(" (")[0]))
    for (t, room), items in sorted(groups.items()):
        head = Text(f"tradesman {t + 1}, room {names.ROOMS[room]}:", style="cyan")
        out.append_text(_pack([head] + items, width, "  ")).append("\n")
    others = [Text(f"{i + 1:>2}) ", style="bold green").append(texts[i]) for i, m in moves if m is None]
    if others:
        out.append_text(_pack(others, width)).append("\n")
    t, cell, room = shop[0][1]
    out.append(f"Type a number, or TRADESMAN ROW COLUMN ROOM (e.g. {t + 1} {cell // side + 1} "
               f"{cell % side + 1} {room + 1}).", style="dim")
    return out


def typed_move(core, numbers: list, legal):
    """TRADESMAN ROW COLUMN ROOM (1-based, room 1 or 2): that Shop move, if legal."""
    if len(numbers) != 4:
        return None
    t, r, c, room = (n - 1 for n in numbers)
    side = _core.SIZES["grid_side"]
    if not (0 <= t < _core.SIZES["tradesmen"] and 0 <= r < side and 0 <= c < side and 0 <= room < 2):
        return None
    for a in legal:
        if _shop_move(a) == (t, r * side + c, room):
            return a
    return None


def typed_move_help(core, legal) -> str:
    if any(_shop_move(a) for a in legal):
        return ", or TRADESMAN ROW COLUMN ROOM for a Shop move (e.g. 1 2 3 2)"
    return ""


# ---------------------------------------------------------------------------------------
# Scores
# ---------------------------------------------------------------------------------------
SCORE_LINES = ("track", "signboard_sets", "orders_in_production", "orders_not_started",
               "composing_sticks", "director", "contracts", "resources_and_cash")
SCORE_WORDS = ("points track", "signboard sets", "orders in production", "orders not started",
               "composing sticks", "director", "contracts", "resources and cash")


def score_rows(core) -> list[dict]:
    """The final score sheet's rows, one per player: each scoring line, the total, the
    completed orders and cash (the tie-breaks) and the place (1 = winner)."""
    s = core.to_dict()
    winners = core.winners()
    totals = core.final_scores()
    rows = []
    for seat in range(s["num_players"]):
        b = core.score_breakdown(seat)
        ahead = sum(totals[q] > totals[seat] or (totals[q] == totals[seat] and q in winners
                                                 and seat not in winners) for q in range(len(totals)))
        rows.append(dict(seat=seat, lines=[b[k] for k in SCORE_LINES], total=b["total"], place=1 + ahead))
    return rows


def verdict(core, seat_names=None) -> str:
    winners = core.winners()
    who = " and ".join(seat_label(w, seat_names) for w in winners)
    return f"{'Winner' if len(winners) == 1 else 'Shared win'}: {who}"


def score_table(core, seat_names=None):
    """The final score sheet: a row per scoring line of the rulebook, a column per player."""
    rows = score_rows(core)
    t = Table(title="Final score sheet", title_justify="left", title_style="bold")
    t.add_column("")
    for row in rows:
        t.add_column(Text(seat_label(row["seat"], seat_names)), justify="right")
    for k, word in enumerate(SCORE_WORDS):
        t.add_row(word, *[str(row["lines"][k]) for row in rows])
    t.add_row(Text("total", style="bold"), *[Text(str(row["total"]), style="bold") for row in rows])
    t.add_row("place", *[str(row["place"]) for row in rows])
    legend = Text("ties: the most completed orders, then the most cash; else shared", style="dim")
    return Group(t, legend, Text(verdict(core, seat_names), style="bold green"))


def score_sheet(core) -> str:
    """The final score sheet as plain text: a line per scoring line, a column per player."""
    rows = score_rows(core)
    lines = [f"{'':<22}" + "".join(f"{'player ' + str(row['seat']):>10}" for row in rows)]
    for k, word in enumerate(SCORE_WORDS):
        lines.append(f"{word:<22}" + "".join(f"{row['lines'][k]:>10}" for row in rows))
    lines.append(f"{'total':<22}" + "".join(f"{row['total']:>10}" for row in rows))
    lines.append(verdict(core))
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------
# The play loop's words
# ---------------------------------------------------------------------------------------
HELP_MOVES = ("[bold]Your move[/bold]: type its number from the menu. A shop is named by its row and "
              "column on the city board as the table draws it; the tradesmen in it as player:room "
              "(upright in capitals, lying in lower case). A Shop move may also be typed as TRADESMAN ROW "
              "COLUMN ROOM: e.g. [green]1 2 3 2[/green], tradesman 1 to room II of the shop in row 2, column 3.")


def help_scoring() -> Text:
    return Text("Game end (rulebook): the points track, sets of the three signboards, orders in "
                "production and those not started, full composing sticks, the director, contracts "
                "(doubled by a lead letter under them), and resources and cash by 5. Ties: the most "
                "completed orders, then the most cash; else shared.\n")


def help_turn() -> Text:
    return Text("Action phase: two turns each in player order. A turn is a Shop action (an upright "
                "tradesman in a II room moves exactly the order marker's steps, paying capacity for "
                "each step fewer or more, lies down and takes the room's action) or a Reset action "
                "(a lead letter from the typesetting table; the tradesmen slide to II rooms), and any "
                "number of optional actions (signboards, contracts, city discs) before or after.\n")


HELP_TOPICS = {"turn": ("what a turn of the Action phase is", help_turn),
               "scoring": ("the final scoring's lines", help_scoring)}
UNSEEN_DRAW = "a factory you do not see"


def hidden_move_text(core, player: int) -> str:
    return "draws factories you do not see"


def dropped_text(n: int) -> str:
    return f"{n} move{'s' if n > 1 else ''} you had not seen, chosen again"


def chance_note(before, outcome: int, text: str) -> str | None:
    """Every draw of Lead Letter Printers is shown on the table or hidden: none gets a
    line of its own."""
    return None
