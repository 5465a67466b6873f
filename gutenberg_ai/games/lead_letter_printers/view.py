"""Lead Letter Printers's table in the terminal, drawn with `rich` (its view: the games
table's view_module; gutenberg_ai.interfaces.tui and gutenberg_ai.interfaces.play call it, docs/new-game.md
lists what a view provides).

The city board is drawn as its grid of shops, numbered by row and column as the moves
name them ("tradesman 1 to room II of Market (row 3, column 2)"), each shop with the
tradesmen standing there under its name: the player's number and the room, upright in
capitals ("0:II"), lying down in lower case ("0:ii"). Below it the displays (the typesetting table, the
trading tiles, the technologies of each level, the orders, the contracts, the city
discs) and each player's boards, in the words of the observation strings
(describe.py): one source of words for both. Where the screen is short, the same words
are made short (BRIEF_WORDS: "1 paper>2 marks x2"), and by number alone only at the last
level of compactness.

What a player may not see stays hidden: the factories another player draws (but a
pile's top, in everyone's view while the piles lie face up). Everything
here only reads a CoreState; dynamic text goes through rich.text.Text, never markup.
"""
from __future__ import annotations

import re

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from gutenberg_ai.common.draw import LABEL, pack, pack_tight, rows_table, seat_label
from gutenberg_ai.common.words import counted

from . import _core, describe, names

A = _core.ACTIONS
COMPACTNESS = 6
SEAT_STYLES = ("bold bright_red", "bold bright_blue", "bold bright_green", "bold bright_yellow")
SHOP_WIDTH = 19


_KIND_WORDS = re.compile(r"^(lead letter|technology|trading tile|order|contract|city disc) ")
LABELS = {"Typesetting table": "Table", "Trading tiles": "Tiles", "City discs": "Discs",
          "Factories drawn": "Factories", "Factory piles": "Fact. piles"}
# A player's details whose names are longer than the label column (LABEL, indented 2).
DETAIL_LABELS = {"composing sticks": "sticks", "production": "stages"}


# The game's words made short for the compact displays, in this order (first the whole
# phrases, then the words): what a component does stays readable in a few characters.
BRIEF_WORDS = (
    ("1x the resources of a lead letter", "a letter's resources"),
    ("2x the resources of a lead letter", "2x a letter's resources"),
    ("a lead letter of the table for its resources", "a table letter's resources"),
    ("a lead letter from the table with its resources", "a table letter + its resources"),
    ("a tradesman down to its II room (1x its action)", "slide a tradesman down"),
    ("a tradesman down to its II room (2x its action)", "slide a tradesman down, 2x"),
    ("typesetting, the action regardless of the letter", "typesetting, any letter"),
    ("city tiles pair with lead letters", "pair city tiles"),
    (" on the map or the order track", ""),
    ("without paying resources or money", "unpaid"),
    ("without paying resources", "without resources"),
    ("without paying money", "without money"),
    ("resource(s) of choice", "any resource"),
    ("points: the assistants on the city board", "points: assistants"),
    ("points: the ", "points: "),
    (" on the composing sticks", " on sticks"),
    (" on the city board", ""),
    ("unlocked contract slot", "open slot"),
    ("a technology of level ", "a tech of "),
    ("technologies", "techs"), ("technology", "tech"),
    (" signboard", ""), ("for free", "free"), (" up to 2x", " x2"),
    (" <-> ", "<>"), (" -> ", ">"), (" + ", "+"), (" up to 3x", " x3"), (" up to 4x", " x4"),
    ("1 point per ", "1 per "), ("2 points per ", "2 per "), ("3 points per ", "3 per "),
)


_PLACE = re.compile(r"^(\d[tmb]|\d|I|II|III|IV): (?=technology |factory |order )")


def _brief(item: str) -> str:
    """A component by its number and what it shows, in short words:
    "technology 11 (I: 1 capacity with its reward)" -> "11 1 capacity with its reward",
    "order 14 (II, 3 points, blue signboard; ...)" -> "14 3 points, blue" (the stages'
    costs left out), "Cologne: city disc 6 (A: 1 trade)" -> "Cologne 6 A: 1 trade"; a
    workshop space's, a stage's or a factory pile's item keeps its place: "1m: technology
    10 (I: 2 paper)" -> "1m: 10 2 paper"."""
    place = _PLACE.match(item)
    if place:
        return place.group(0) + _brief(item[place.end():])
    head = _short(item)
    words = item.split(" (", 1)[1][:-1] if " (" in item else ""
    if item.startswith("order "):
        words = ", ".join(w for w in words.split(";", 1)[0].split(", ")[1:])
    elif item.startswith("technology ") or item.startswith("factory "):
        words = words.split(": ", 1)[-1]
    elif item.startswith("lead letter "):
        return item.replace("lead letter ", "", 1)
    for long, short in BRIEF_WORDS:
        words = words.replace(long, short)
    return f"{head} {words}".rstrip()


def _short(item: str) -> str:
    """A display's item by its number alone: "technology 11 (I: 2 paper)" -> "11",
    "lead letter 35 BC (1 ink)" -> "35 BC", "Cologne: city disc 6 (...)" -> "Cologne 6"."""
    city, _, rest = item.partition(": ") if ": city disc" in item else ("", "", item)
    out = _KIND_WORDS.sub("", rest.split(" (", 1)[0])
    return f"{city} {out}" if city else out


def _items(text: str) -> list:
    """A detail's items: the parts between "; " outside parentheses (an order's stages
    inside its parentheses are separated by "; " too)."""
    items, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += (ch == "(") - (ch == ")")
        if depth == 0 and text.startswith("; ", i):
            items.append(text[start:i])
            start = i + 2
    return items + [text[start:]]


def board_grid(core) -> Table:
    """The city board: a cell per shop (its name and the tradesmen in it)."""
    s = core.to_dict()
    cat = core.rules.catalogue
    side = _core.SIZES["grid_side"]
    rows = cat.city_board(s["num_players"])
    there: dict[int, list[Text]] = {}       # cell -> its tradesmen
    for seat in range(s["num_players"]):
        p = s["players"][seat]
        for k in range(_core.SIZES["tradesmen"]):
            if p["pos"][k] >= 0:
                room = names.ROOMS[p["room"][k]]
                there.setdefault(p["pos"][k], []).append(
                    Text(f"{seat}:{room if p['upright'][k] else room.lower()}", style=SEAT_STYLES[seat % 4]))
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


def display_rows(core, viewer: int, width: int, short: int = 0) -> list:
    """(label, Text) rows of the shared displays; `short` 1: the items by number and what
    they show in short words (_brief), the technologies of the four levels in one row;
    2: by number alone."""
    rows = []
    techs = []
    for label, items in describe.parts(core, viewer).displays:
        if short:
            shown = [i if i.startswith("the pile") else _brief(i) if short == 1 else _short(i) for i in items]
            if label.startswith("Technologies"):
                techs.append(Text(f"{label.split()[-1]}: " + "; ".join(shown)))
                if len(techs) == len(names.LEVELS):
                    rows.append(("Tech", pack(techs, width - 14, " | ")))
                continue
            rows.append((LABELS.get(label, label), pack([Text(i) for i in shown], width - 14, "; ")))
        else:
            rows.append((LABELS.get(label, label.replace("Technologies", "Tech")),
                         pack([Text(i) for i in items], width - 14, "; ")))
    return rows


def seat_rows(core, seat: int, viewer: int, seat_names, width: int, one_line: bool = False,
              short: int = 0) -> list:
    """(label, Text) rows of a player's boards; `one_line`: the brief summary alone
    (points, marks, resources, workforce and capacity); `short` 1: the components in the
    details by number and in short words (_brief); 2: by number only."""
    one = describe.parts(core, viewer).seats[seat]
    label = seat_label(seat, seat_names)
    head = Text(one.brief if one_line else one.summary)
    if len(label) > LABEL:
        # A name longer than the labels' column leads the summary whole; the seat labels the row.
        head = Text(f"{label}: ").append_text(head)
        label = f"player {seat}"
    if seat == viewer:
        head.stylize("bold")
    rows = [(label, head)]
    if not one_line:
        stacks = []
        for k, v in one.details:
            if short and k not in ("tradesmen", "composing sticks"):
                v = "; ".join((_brief if short == 1 else _short)(x) for x in _items(v) if not x.startswith("slots"))
            if short and k.startswith("stack "):
                stacks.append(v)          # the stacks share a row
                if len(stacks) > 1:
                    rows[-1] = ("  stacks", Text(" | ".join(stacks)))
                    continue
            rows.append((f"  {DETAIL_LABELS.get(k, k)}", Text(v)))
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
    return Group(heading(core), board_grid(core), rows_table(rows))


def decision_view(core, viewer: int, seat_names=None, width: int = 100, compact: int = 0):
    """The table at `viewer`'s decision: the heading, the city board, the displays, the
    viewer's boards in full and the others'. `compact` 1: the others in a line each; 2:
    the displays in short words; 3: the city board left out too; 4: the viewer's
    components in short words, the two stacks of lead letters in a row; 5: the displays
    and the viewer's components by number only (where the menu leaves no room for their
    words)."""
    s = core.to_dict()
    parts: list[RenderableType] = [heading(core)]
    if compact < 3:
        parts.append(board_grid(core))
    rows = display_rows(core, viewer, width, short=2 if compact >= 5 else int(compact >= 2))
    if 0 <= viewer < s["num_players"]:
        rows += seat_rows(core, viewer, viewer, seat_names, width, short=2 if compact >= 5 else int(compact >= 4))
    for seat in range(s["num_players"]):
        if seat != viewer:
            rows += seat_rows(core, seat, viewer, seat_names, width, one_line=compact >= 1)
    parts.append(rows_table(rows))
    return Group(*parts)


_ROW_COLUMN = re.compile(r" \(row \d+, column \d+\)")


def move_text(core, action: int, text: str) -> str:
    """The move's words; a Shop move with what its room does and the capacity it costs
    (the steps not matching the order marker's, rulebook "Shop"); a street by its two
    shops' names alone (the board shows where they are), so that the 24 streets of a
    4-player board pack into a few lines."""
    if A["STREET"] <= action < A["TABLE"]:
        return _ROW_COLUMN.sub("", text)
    move = _shop_move(action)
    if move is not None:
        t, cell, room = move
        cost = _capacity_cost(core, t, cell)
        return f"{text}: {_room_action(core, cell, room)}" + (f"; costs {cost} capacity" if cost else "")
    return text


def _shop_of(core, cell: int) -> int:
    """The shop (its index in the catalogue) on a cell of this game's city board."""
    side = _core.SIZES["grid_side"]
    return core.rules.catalogue.city_board(core.num_players)[cell // side][cell % side] - 1


def _room_action(core, cell: int, room: int) -> str:
    return core.rules.catalogue.room_action(_shop_of(core, cell), room)


def _rooms_brief(core, cell: int) -> str:
    """What rooms I and II of the shop on `cell` do, in short words: "3/2 paper", "2/1
    lead+1 ink" where they differ in the first count alone, else "I / II" ("travel+1
    mark / travel")."""
    rooms = []
    for room in range(2):
        words = _room_action(core, cell, room)
        for long, short in BRIEF_WORDS:
            words = words.replace(long, short)
        rooms.append(words.replace(", ", "+"))
    counts = [re.fullmatch(r"(\d+) (.+)", r) for r in rooms]
    if counts[0] and counts[1] and counts[0].group(2) == counts[1].group(2):
        return f"{counts[0].group(1)}/{counts[1].group(1)} {counts[0].group(2)}"
    return " / ".join(rooms)


def _capacity_cost(core, tradesman: int, cell: int) -> int:
    """The capacity the acting player pays to move the tradesman to the cell now (the
    least any path there costs, as the rules charge it)."""
    return core.move_costs(core.current_player(), tradesman)[cell]


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
    those by shop, each by name (the board shows where it is) with what its rooms I/II
    do and each tradesman's moves' numbers for room I and room II ("Paper mill 3/2
    paper: 1/2 | 15/16 -1"; one room: "2 (II)"; -1: the capacity paid; TRADESMAN ROW
    COLUMN ROOM may be typed instead), then the others."""
    moves = [(i, _shop_move(a)) for i, a in enumerate(legal)]
    shop = [(i, m) for i, m in moves if m is not None]
    if len(shop) <= SHORT_MENU:
        return None
    side = _core.SIZES["grid_side"]
    out = Text()
    numbers: dict[int, dict[int, dict[int, int]]] = {}    # cell -> tradesman -> room -> move number
    for i, (t, cell, room) in shop:
        numbers.setdefault(cell, {}).setdefault(t, {})[room] = i + 1
    tradesmen = sorted({t for _, (t, _, _) in shop})
    costs = {t: core.move_costs(core.current_player(), t) for t in tradesmen}
    # A shop a line's part: what its rooms I/II do (room I the stronger action, rulebook
    # "Setup"), then each tradesman's move numbers for room I/II and the capacity paid.
    out.append(f"Shop: what rooms I/II do, then the moves of tradesman {' | '.join(str(t + 1) for t in tradesmen)}"
               " (room I/II; -N: the capacity paid)", style="cyan")
    out.append("\n")
    items = []
    for cell, by_tradesman in numbers.items():
        item = Text(core._cell(cell).split(" (")[0], style="bold").append(f" {_rooms_brief(core, cell)}: ")
        for k, t in enumerate(tradesmen):
            if k:
                item.append(" | ")
            rooms = by_tradesman.get(t)
            if not rooms:
                item.append("-", style="dim")
                continue
            shown = "/".join(str(rooms[r]) for r in sorted(rooms)) if len(rooms) > 1 else \
                f"{next(iter(rooms.values()))} ({names.ROOMS[next(iter(rooms))]})"
            item.append(shown, style="bold green")
            if costs[t][cell]:
                item.append(f" -{costs[t][cell]}", style="yellow")
        items.append(item)
    out.append_text(pack_tight(items, width, "; ")).append("\n")
    others = [Text(f"{i + 1:>2}) ", style="bold green").append(texts[i]) for i, m in moves if m is None]
    if others:
        out.append_text(pack(others, width)).append("\n")
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
TIE_BREAKS = ("completed orders", "cash")    # the rulebook's tie-breaks, in their order


def score_rows(core) -> list[dict]:
    """The final score sheet's rows, one per player: each scoring line, the total, the
    completed orders and cash (the tie-breaks) and the place (1 = winner)."""
    from gutenberg_ai.games.records import ranking_keys
    s = core.to_dict()
    keys = ranking_keys(core)     # the tie-breaks decide every place, as the records' ranks
    rows = []
    for seat in range(s["num_players"]):
        b = core.score_breakdown(seat)
        p = s["players"][seat]
        ahead = sum(key > keys[seat] for key in keys)
        rows.append(dict(seat=seat, **{word: b[k] for word, k in zip(SCORE_WORDS, SCORE_LINES)},
                         lines=[b[k] for k in SCORE_LINES], total=b["total"],
                         **{"completed orders": len(_bits(p["completed"])), "cash": p["marks"]}, place=1 + ahead))
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
    for word in TIE_BREAKS:
        t.add_row(Text(word, style="dim"), *[Text(str(row[word]), style="dim") for row in rows])
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
    for word in TIE_BREAKS:
        lines.append(f"{word:<22}" + "".join(f"{row[word]:>10}" for row in rows))
    lines.append(verdict(core))
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------
# The play loop's words
# ---------------------------------------------------------------------------------------
HELP_MOVES = ("[bold]Your move[/bold]: type its number from the menu, or its words (the start of its text, or words it contains). A shop is named by its row and "
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


# ---------------------------------------------------------------------------------------
# The table for the web page (docs/web.md on the web branch: sections of labelled groups
# of items, each item with the moves that take or use it; board.js draws them)
# ---------------------------------------------------------------------------------------
N_TECHS = _core.SIZES["technologies"]


def _bits(m: int) -> list[int]:
    return [i for i in range(64) if (m >> i) & 1]


def _card(text: str, actions=(), note: str = "") -> dict:
    """A component as the page's card: its name as the id, what it shows as the text."""
    name, _, rest = text.partition(" (")
    out = {"kind": "card", "id": name, "text": rest[:-1] if rest.endswith(")") else rest,
           "actions": list(actions)}
    if note:
        out["note"] = note
    return out


def _legal(legal, *actions) -> list[int]:
    return [a for a in actions if a in legal]


def _tile_text(cat, code: int) -> str:
    return cat.describe_tech(code) if code < N_TECHS else cat.describe_factory(code - N_TECHS)


def web_board(core, viewer: int, seat_names=None) -> dict:
    """The table as `viewer` sees it (-1: everything), as data for the web page: the city
    board as a grid of shops (a shop takes the Shop moves that end there), the displays
    (the typesetting table, the trading tiles, the technologies by level, the orders,
    the contracts, the factories drawn), the travel board's discs, and each player's
    tracks, tradesmen, workshop, lead letters, composing sticks, contracts, production
    line, completed orders and discs, each thing with the moves that use it (clickable
    where legal). The factories another player drew are hidden."""
    cat = core.rules.catalogue
    s = core.to_dict()
    to_act = core.current_player()
    legal = set(core.legal_actions()) if to_act == viewer and viewer >= 0 else set()
    n = s["num_players"]
    names_ = [seat_label(q, seat_names) or f"player {q}" for q in range(n)]
    sections = [{"title": "City board", "groups": [_city_grid(core, s, legal, names_)] + _assistants(core, s)}]
    sections.append({"title": "Displays", "groups": _displays(core, s, viewer, legal)})
    discs = [_card(f"{cat.city_names[c]}: " + cat.describe_disc(d), _legal(legal, A["CITY"] + c))
             for c, d in enumerate(s["city_disc"]) if d >= 0]
    sections.append({"title": "Travel board", "groups": [
        {"label": "city discs", "items": discs},
        {"label": "agents", "items": [{"kind": "chip", "text": f"{names_[q]}: {cat.node_name(s['players'][q]['agent'])}"}
                                      for q in range(n)]}]})
    seats = list(range(n))
    if 0 <= viewer < n:
        seats.remove(viewer)
        seats.insert(0, viewer)
    for q in seats:
        sections.append(_web_seat(core, s, q, viewer, names_, legal))
    return {"heading": heading(core).plain, "sections": sections}


def _city_grid(core, s, legal, names_) -> dict:
    """The city board: a wide grid (docs/web.md), a cell per shop, its full name and the
    tradesmen there as pieces ("0:II", lying in lower case); a cell takes the Shop moves
    (and setup placements) that end there."""
    cat = core.rules.catalogue
    n = s["num_players"]
    board = core.rules.core_catalogue["boards"][n]["shop"]
    side = _core.GRID
    rows, cols = (len(cat.city_board(n)), len(cat.city_board(n)[0]))
    cells = []
    for r in range(rows):
        row: list[dict] = []
        for c in range(cols):
            x = r * side + c
            shop = board[x]
            if shop < 0:
                row.append({"actions": []})
                continue
            here = [_tradesman(q, p, t, names_) for q, p in enumerate(s["players"][:n]) for t in range(2)
                    if p["pos"][t] == x]
            moves = [a for a in legal if A["MOVE"] <= a < A["RESET"] and ((a - A["MOVE"]) // 2) % _core.SIZES["grid_side"] ** 2 == x]
            moves += _legal(legal, A["SETUP"] + x)
            row.append({"name": cat.shop_name(shop), "pieces": here, "actions": sorted(moves)})
        cells.append(row)
    return {"label": "shops", "items": [{"kind": "grid", "cells": cells, "first_row": 1, "first_col": 1, "wide": True,
                                         "note": "tradesmen: player:room, lying in lower case"}]}


def _tradesman(q: int, p: dict, t: int, names_) -> dict:
    """Player q's tradesman t on the city board: "0:II" (its room), lower case lying."""
    room = "II" if p["room"][t] else "I"
    upright = bool(p["upright"][t])
    return {"seat": q, "text": f"{q}:{room if upright else room.lower()}",
            "title": f"{names_[q]}'s tradesman, room {room}, {'upright' if upright else 'lying'}"}


def _assistants(core, s) -> list:
    items = []
    for e in range(len(s["street_owner"])):
        q = s["street_owner"][e]
        if q >= 0:
            a, b = e // 2, e // 2 + (1 if e % 2 == 0 else _core.GRID)
            items.append({"kind": "chip", "text": f"player {q}'s {_core.ASSISTANT_KINDS[s['street_kind'][e]]} assistant "
                                                  f"between {core._cell(a)} and {core._cell(b)}"})
    return [{"label": "assistants", "items": items}] if items else []


def _displays(core, s, viewer, legal) -> list:
    cat = core.rules.catalogue
    table = [_card(cat.describe_letter(x), _legal(legal, A["RESET"] + i, A["TABLE"] + i))
             for i, x in enumerate(s["table"]) if x >= 0]
    if s["letter_top"] >= 0:
        table.append({"kind": "chip", "text": f"the pile shows {_core._letters_text(s['letter_top'])} on top"})
    groups = [{"label": "typesetting table", "items": table},
              {"label": "trading tiles", "items": [
                  _card(cat.describe_tile(x), _legal(legal, A["TILE"] + 2 * i, A["TILE"] + 2 * i + 1))
                  for i, x in enumerate(s["face_tiles"]) if x >= 0]
               + ([{"kind": "chip", "text": "refresh: 1 mark", "actions": [A["REFRESH_TILES"]]}]
                  if A["REFRESH_TILES"] in legal else [])}]
    for lv, level in enumerate(names.LEVELS):
        items = [_card(cat.describe_tech(x), _legal(legal, A["TECH"] + lv * 3 + r))
                 for r, x in enumerate(s["tech_face"][lv]) if x >= 0]
        if A["REFRESH_COLUMN"] + lv in legal:
            items.append({"kind": "chip", "text": "refresh: 1 mark", "actions": [A["REFRESH_COLUMN"] + lv]})
        if A["FACTORY_PILE"] + lv in legal:
            items.append({"kind": "chip", "text": f"draw 3 factories of level {level}",
                          "actions": [A["FACTORY_PILE"] + lv]})
        groups.append({"label": f"technologies {level}", "items": items})
    groups.append({"label": "orders", "items": [_card(cat.describe_order(x), _legal(legal, A["BUY_ORDER"] + i),
                                                      note=f"space {i + 1}")
                                                for i, x in enumerate(s["order_display"]) if x >= 0]})
    groups.append({"label": "contracts", "items": [_card(cat.describe_contract(x), _legal(legal, A["BUY_CONTRACT"] + i),
                                                         note=f"space {i + 1}")
                                                   for i, x in enumerate(s["contract_display"]) if x >= 0]})
    if core.rules.factory_tops:
        # The piles lie face up: each top is in everyone's view, the first a draw takes.
        groups.append({"label": "factory piles", "items": [
            _card(cat.describe_factory(x), _legal(legal, A["FACTORY_PILE"] + lv), note=f"level {names.LEVELS[lv]} on top")
            for lv, x in enumerate(s["factory_top"]) if x >= 0]})
    drawn = [(x, seen) for x, seen in zip(s["drawn"], s["drawn_seen"]) if x >= 0]
    if drawn:
        groups.append({"label": "factories drawn", "items": [
            _card(cat.describe_factory(x), _legal(legal, A["FACTORY"] + x))
            if viewer < 0 or viewer == s["actor"] or (seen >> viewer) & 1 else {"kind": "hidden", "text": "factory"}
            for x, seen in drawn]})
    under = sum(s["factory_bottom_n"])
    if under:
        groups.append({"label": "factories under the piles", "items": [
            _card(cat.describe_factory(x)) if viewer < 0 or (seen >> viewer) & 1
            else {"kind": "hidden", "text": f"factory {names.LEVELS[lv]}"}
            for lv in range(len(names.LEVELS))
            for x, seen in zip(s["factory_bottom"][lv][:s["factory_bottom_n"][lv]],
                               s["factory_bottom_seen"][lv][:s["factory_bottom_n"][lv]])]})
    return groups


def _web_seat(core, s, q: int, viewer: int, names_, legal) -> dict:
    cat = core.rules.catalogue
    p = s["players"][q]
    mine = q == viewer
    R = names.RESOURCES
    tracks = [{"kind": "track", "label": "workforce", "value": p["workforce"], "max": 8},
              {"kind": "track", "label": "capacity", "value": p["capacity"], "max": 10},
              {"kind": "chip", "text": f"{counted(p['points'], 'point')}, {counted(p['marks'], 'mark')}"},
              {"kind": "chip", "text": ", ".join(f"{p['res'][r]} {R[r]}" for r in range(len(R)))},
              {"kind": "chip", "text": f"order track section {p['section']}"}]
    groups = [{"label": "tracks", "items": tracks}]
    groups.append({"label": "tradesmen", "items": [
        {"kind": "chip", "text": f"{t + 1}: {core._cell(p['pos'][t])} room {names.ROOMS[p['room'][t]]} "
                                 f"{'upright' if p['upright'][t] else 'lying'}",
         "actions": _legal(legal, A["LAY"] + t, A["SLIDE"] + t) if mine else []}
        for t in range(2) if p["pos"][t] >= 0]})
    spaces = []
    for x in range(len(p["up"])):
        acts = _legal(legal, A["UP"] + x, A["DOWN"] + x, A["REPLACE"] + x, A["CHAIN"] + x, A["COPY"] + x) if mine else []
        up, down = p["up"][x], p["down"][x]
        if up < 0 and down < 0 and not acts:
            continue
        text = _tile_text(cat, up) if up >= 0 else "empty"
        item = {"kind": "slot", "id": cat.space_name(x), "text": text, "actions": acts}
        if down >= 0:
            item["note"] = "face down under it: " + _tile_text(cat, down).split(" (")[0]
        spaces.append(item)
    groups.append({"label": "workshop", "items": spaces})
    for k in range(2):
        if p["stack_n"][k] or (mine and A["KEEP"] + k in legal):
            letters = p["stack"][k][:p["stack_n"][k]]
            items = [_card(cat.describe_letter(x), _legal(legal, A["STACK"] + k) if mine and i == len(letters) - 1 else [])
                     for i, x in enumerate(letters)]
            if mine and A["KEEP"] + k in legal:
                items.append({"kind": "chip", "text": "keep the letter here", "actions": [A["KEEP"] + k]})
            groups.append({"label": f"lead letters, stack {k + 1}", "items": items})
    cells = [[{"symbol": describe.letters_text(core, p["stick"][r * 3 + c]) if p["stick"][r * 3 + c] >= 0 else None,
               "code": describe.letters_text(core, p["stick"][r * 3 + c]),
               "actions": _legal(legal, A["STICK"] + r * 3 + c, A["STICK_PAIR"] + r * 3 + c) if mine else []}
              for c in range(3)] for r in range(3)]
    groups.append({"label": "composing sticks", "items": [{"kind": "grid", "cells": cells, "first_row": 1,
                                                           "first_col": 1, "numbers": False}]})
    contracts = []
    for c in _bits(p["contracts"]):
        slot = list(p["slot_contract"]).index(c) + 1 if c in p["slot_contract"] else 0
        note = describe.contract_place(cat, p, c)
        acts = [a for a in legal if mine and A["ACTIVATE"] <= a < A["DISC"] and (a - A["ACTIVATE"]) // 4 == c]
        acts += _legal(legal, A["UNDER"] + slot - 1) if mine and slot else []
        contracts.append(_card(cat.describe_contract(c), acts, note))
    if contracts:
        groups.append({"label": "contracts", "items": contracts})
    line = [_card(cat.describe_order(x), _legal(legal, A["ADVANCE"] + i) if mine else [], note="waiting")
            for i, x in enumerate(p["waiting"]) if x >= 0]
    line += [_card(cat.describe_order(x), _legal(legal, A["ADVANCE"] + 2 + i) if mine else [], note=f"stage {i + 1}")
             for i, x in enumerate(p["stage"]) if x >= 0]
    groups.append({"label": "production line", "items": line})
    done = [_card(cat.describe_order(x), note="signboard used" if (p["signs_used"] >> x) & 1 else "")
            for x in _bits(p["completed"])]
    if done:
        groups.append({"label": "completed orders", "items": done})
    discs = [_card(cat.describe_disc(x), _legal(legal, A["DISC"] + x) if mine else [],
                   note="used" if (p["discs_used"] >> x) & 1 else "") for x in _bits(p["discs"])]
    if discs:
        groups.append({"label": "city discs", "items": discs})
    if mine:
        signs = [{"kind": "chip", "text": f"{names.SIGNBOARDS[c]} signboard action", "actions": [A["SIGNBOARD"] + c]}
                 for c in range(len(names.SIGNBOARDS)) if A["SIGNBOARD"] + c in legal]
        if signs:
            groups.append({"label": "signboards", "items": signs})
    cities = [cat.city_names[c] for c in _bits(p["cities"])]
    groups.append({"label": "city markers", "items": [{"kind": "chip", "text": ", ".join(cities) or "none placed"}]})
    title = names_[q] + (" (you)" if mine and not names_[q].startswith("you") else "")
    return {"title": title, "seat": q, "mine": mine, "groups": groups}
