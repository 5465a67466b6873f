"""Printing Press's table in the terminal, drawn with `rich` (its view: the games table's
view_module; gutenberg_ai.interfaces.tui and gutenberg_ai.interfaces.play call it, docs/new-game.md lists what
a view provides).

Each tableau is drawn as a grid with its rows and columns numbered from the top-left
square, as the moves name them ("place ... at row 2, column 5"; "close the frame on
rows 1-3, columns 2-4"), a square as a short code in its colour: the letters A I O U,
the inks blu red yel gry, the specialties Typ Woo Bnd Ill, `*` an initiative icon, `-`
a blank square, `.` an empty cell; a token is marked `'` after its code (`*'` one
initiative side up), Guillard's token `+`. The 3x3 window that would score most now is
shaded, and at Close Frames the windows are listed best first with their points. The
same codes are how a position file writes a tableau (docs/printing_press/positions.md).

What a player may not see stays hidden: the others' setup tokens and the symbols of
their tokens face down. Everything here only reads a CoreState; dynamic text goes
through rich.text.Text, never markup.
"""
from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from gutenberg_ai.common.draw import LABEL, glossary, joined, pack, rows_table, seat_label
from gutenberg_ai.common.words import counted

from . import _core, names

A = _core.ACTIONS
CELL = _core.CELL
PH = _core.PHASES
SLOTS = _core.SLOTS
N_SYMBOLS = len(names.SYMBOLS)
ICON = CELL["INITIATIVE"]
BLANK = CELL["BLANK"]
CELL_BASE = 15

# A square's code (names.SHORT) and its colour.
SYMBOL_STYLES = (("bold bright_white",) * 4
                 + ("bold blue", "bold red", "bold yellow", "bold grey62")
                 + ("bold cyan", "bold green", "bold magenta", "bold bright_magenta"))
ICON_STYLE = "bold bright_yellow"
WINDOW_STYLE = "on grey23"      # the cells of the best window now
CELL_WIDTH = 4                  # 3 for the code, 1 for a token's mark
COMPACTNESS = 4


# ---------------------------------------------------------------------------------------
# Squares and grids
# ---------------------------------------------------------------------------------------
def symbol_text(x: int) -> Text:
    """A symbol (0-11) as its code in its colour."""
    return Text(names.SHORT[x], style=SYMBOL_STYLES[x])


def cell_text(v: int) -> Text:
    """A tableau cell, CELL_WIDTH wide: its code right-aligned and a token's mark."""
    if v < 0:
        return Text("  . ", style="dim")
    base = v & CELL_BASE
    code = names.SHORT[base]
    style = SYMBOL_STYLES[base] if base < N_SYMBOLS else ICON_STYLE if base == ICON else "dim"
    mark = "'" if v & CELL["TOKEN"] else "+" if v & CELL["ABILITY"] else " "
    return Text(f"{code:>3}", style=style).append(mark, style="bold")


def grid_text(cells, first_row: int = 0, first_col: int = 0, shade=None, numbers: bool = True) -> Text:
    """Rows of cells as a grid; with `numbers`, the row and column numbers (1-based from
    the tableau's top-left square, so `first_row` -2 numbers the first row -1). `shade`:
    (r, c) the top-left cell of a 3x3 window to shade, in the same coordinates."""
    out = Text()
    if not cells:
        return out.append("(empty)", style="dim")
    width = len(cells[0])
    if numbers:
        out.append("    ")
        for c in range(width):
            out.append(f"{first_col + c + 1:>{CELL_WIDTH - 1}} ", style="dim")
    for r, row in enumerate(cells):
        if numbers or r:
            out.append("\n")
        if numbers:
            out.append(f"{first_row + r + 1:>3} ", style="dim")
        for c, v in enumerate(row):
            cell = cell_text(v)
            if shade is not None and 0 <= first_row + r - shade[0] < 3 and 0 <= first_col + c - shade[1] < 3:
                cell.stylize(WINDOW_STYLE)
            out.append_text(cell)
    return out


def tableau_cells(p: dict) -> list:
    return [[p["grid"][r][c] for c in range(p["width"])] for r in range(p["height"])]


def window_cells(closed) -> list:
    return [[closed[i * 3 + j] for j in range(3)] for i in range(3)]


def card_text(cat, x: int) -> Text:
    """A card of the offer: its number and its squares in their colours, "|" between
    the squares of a row, "/" of a column (top to bottom)."""
    card = cat.cards[x]
    out = Text(f"{card.number}: ", style="bold")
    for k, q in enumerate(card.squares):
        if k:
            out.append("/" if card.vertical else "|", style="dim")
        i = names.SQUARES.index(q)
        out.append_text(Text(names.SHORT[i], style=SYMBOL_STYLES[i] if i < N_SYMBOLS else
                             ICON_STYLE if i == ICON else "dim"))
    return out


def plate_text(cat, i: int) -> str:
    return cat.describe_plate(i)


def frame_text(cat, i: int) -> str:
    return cat.describe_frame(i)


# ---------------------------------------------------------------------------------------
# Windows: what a frame closed now would score
# ---------------------------------------------------------------------------------------
def windows(core, seat: int) -> list:
    """Every window the seat could close its frame on now, best first: (points, (plate,
    additional, ink, specialty), r, c) with (r, c) its top-left cell (0-based). Empty
    without an order this round."""
    s = core.to_dict()
    p = s["players"][seat]
    if s["round"] < 1 or p["order_frame"][s["round"] - 1] < 0:
        return []
    h, w = p["height"], p["width"]
    out = []
    for r in range(-2, h if h > 0 else 1):
        for c in range(-2, w if w > 0 else 1):
            parts = core.window_score(seat, r, c)
            out.append((sum(parts), parts, r, c))
    out.sort(key=lambda x: (-x[0], x[2], x[3]))
    return out


def parts_text(parts) -> str:
    plate, extra, ink, spec = parts
    return f"plate {plate}" + (f" + {extra}" if extra else "") + f", ink {ink}, specialty {spec}"


def where_text(r: int, c: int) -> str:
    """A window as the moves say it (the core's words)."""
    return _core.window_words(r, c)


# ---------------------------------------------------------------------------------------
# A player
# ---------------------------------------------------------------------------------------
CHARACTER_SIDES = {
    "Johannes Gutenberg": ("a 1/3 bonus marker instead of a 1/2 one",
                           "an extra 1/3 bonus marker, 1 side up beside a 1/2 marker"),
    "Helena Ungler": ("once, slide one or more squares of a card under occupied ones",
                      "once, place a card in any orientation"),
    "William Caxton": ("a fourth setup token",
                       "once, give two setup tokens back for one of your choice from the bag"),
    "Charlotte Guillard": ("her token in the tableau as an ink of your choice",
                           "her token in the tableau as a specialty of your choice"),
    "Yolande Bonhomme": ("once, go first in a step", "once, take an initiative cube for a round"),
}


def character_text(p: dict) -> Text:
    if p["character"] < 0:
        return Text("no character", style="dim")
    name = names.CHARACTERS[p["character"]]
    out = Text(name)
    if p["side"] >= 0:
        out.append(f" side {names.SIDES[p['side']]}")
        if p["ability"]:
            out.append(" (ability unused)", style="dim")
    return out


def hand_text(p: dict, seen: bool) -> Text:
    """The setup tokens still in the hand; another player's as a count."""
    held = [p["hand"][k] for k in range(len(p["slot"])) if p["slot"][k] == SLOTS["HAND"]]
    if not held:
        return Text("none", style="dim")
    if not seen:
        return Text(counted(len(held), "token") + " (hidden)", style="dim")
    return joined([Text(f"{k + 1}:").append_text(symbol_text(p["hand"][k]))
                  for k in range(len(p["slot"])) if p["slot"][k] == SLOTS["HAND"]], " ")


def markers_text(core, seat: int) -> Text:
    """Bonus markers placed (each round's frame slot with its value) and those left."""
    s = core.to_dict()
    cat = core.rules.catalogue
    p = s["players"][seat]
    placed = []
    for r in range(len(p["order_frame"])):
        f = p["order_frame"][r]
        for j in range(2):
            v = p["marker"][r * 2 + j]
            if v and f >= 0:
                x = names.SYMBOLS.index(cat.frames[f].bonus[j])
                placed.append(Text(f"r{r + 1} ").append_text(symbol_text(x)).append(f" {v}"))
    left = f"{p['markers']} left" + (" + the 1/3" if p["marker13"] else "")
    return joined(placed + [Text(left, style="dim")], ", ")


def score_now(core, seat: int) -> str:
    b = core.score_breakdown(seat)
    return f"{b['total']} ({core.to_dict()['players'][seat]['fame']} + bonus {b['bonus']})"


def order_rows(core, seat: int) -> list:
    """(label, Text) rows of the seat's order this round and its best window now."""
    s = core.to_dict()
    cat = core.rules.catalogue
    p = s["players"][seat]
    r = s["round"] - 1
    if r < 0 or p["order_frame"][r] < 0:
        return [("order", Text("none yet this round", style="dim"))]
    rows = [("plate", Text(plate_text(cat, p["order_plate"][r]))),
            ("frame", Text(frame_text(cat, p["order_frame"][r])))]
    best = windows(core, seat)
    if best and p["pieces"]:
        points, parts, wr, wc = best[0]
        rows.append(("best window", Text(f"{counted(points, 'point')} now on {where_text(wr, wc)} "
                                         f"({parts_text(parts)}), shaded") if points else
                     Text("no window scores yet", style="dim")))
    return rows


def closed_text(core, seat: int) -> Text:
    """The closed frames side by side, each 3x3 with its round's points."""
    s = core.to_dict()
    p = s["players"][seat]
    done = [r for r in range(len(p["closed"])) if any(v >= 0 for v in p["closed"][r])]
    if not done:
        return Text("")
    breakdown = core.score_breakdown(seat)["rounds"]
    grids = [grid_text(window_cells(p["closed"][r]), numbers=False).split("\n") for r in done]
    out = Text()
    out.append_text(joined([Text(f"round {r + 1}" + (f": {breakdown[k]['total']} pts" if k < len(breakdown) else ""))
                           .append(" " * max(0, 3 * CELL_WIDTH + 2 - len(f"round {r + 1}: 00 pts")))
                           for k, r in enumerate(done)], "  "))
    for line in range(3):
        out.append("\n")
        out.append_text(joined([g[line].append("  ") for g in grids], ""))
    return out


def tableau_grid(core, seat: int, shade: bool = True) -> Text:
    s = core.to_dict()
    p = s["players"][seat]
    if not p["pieces"]:
        return Text("empty this round", style="dim")
    best = windows(core, seat) if shade else []
    window = (best[0][2], best[0][3]) if best and best[0][0] > 0 else None
    return grid_text(tableau_cells(p), shade=window)


def house_rows(core, seat: int, viewer: int, seat_names, width: int, compact: int = 0) -> list:
    """(label, Text) rows of a player in full, as `viewer` may see them."""
    s = core.to_dict()
    p = s["players"][seat]
    seen = viewer < 0 or viewer == seat
    room = width - LABEL - 1
    who = [character_text(p), Text(f"score {score_now(core, seat)}"),
           Text(f"initiative {core.initiative(seat)} (cubes {p['cubes']})")]
    rows = [(seat_label(seat, seat_names).split(" (")[0], pack(who, room, " | "))]
    tokens = [Text("setup tokens ").append_text(hand_text(p, seen))]
    down = [x for x in range(N_SYMBOLS) for _ in range(p["hidden_out"][x])]
    down += [p["hand"][k] for k in range(len(p["slot"])) if p["slot"][k] == SLOTS["DOWN"]]
    if down:
        tokens.append(Text("face down: ").append_text(joined([symbol_text(x) for x in down], " ")) if seen
                      else Text(f"{len(down)} face down", style="dim"))
    tokens.append(Text("markers ").append_text(markers_text(core, seat)))
    rows.append(("tokens", pack(tokens, room, " | ")))
    rows += order_rows(core, seat)
    if compact < 2:
        closed = closed_text(core, seat)
        if closed.plain:
            rows.append(("closed", closed))
    rows.append(("tableau", tableau_grid(core, seat)))
    return rows


def house_line(core, seat: int, viewer: int, seat_names, width: int, one_line: bool = False) -> Text:
    """Another player in a line or two: character, score, initiative, the order this
    round, the tableau's size, the tokens."""
    s = core.to_dict()
    p = s["players"][seat]
    line = Text(seat_label(seat, seat_names) + ": ", style="bold")
    parts = [character_text(p), Text(f"score {score_now(core, seat)}"),
             Text(f"initiative {core.initiative(seat)}")]
    r = s["round"] - 1
    if r >= 0 and p["order_frame"][r] >= 0:
        parts.append(Text(f"order frame {p['order_frame'][r] + 1} + plate {p['order_plate'][r] + 1}"))
    parts.append(Text(f"tableau {p['height']}x{p['width']}" if p["pieces"] else "tableau empty"))
    held = sum(1 for k in range(len(p["slot"])) if p["slot"][k] == SLOTS["HAND"])
    if held:
        parts.append(Text(counted(held, "setup token")))
    if one_line:
        line.append_text(joined(parts, " | "))
        if len(line) > width:
            line.truncate(width - 1)
            line.append("…")
        return line
    line.append_text(pack(parts, width - len(line), " | "))
    return line


def automa_note(before, action: int) -> str | None:
    """What the solo automa took while `action` is played from `before`, and the rule
    that chose it among the cards on offer (names.AUTOMA_RULES), or None when its turn
    does not come then."""
    took = before.automa_took(action)
    if took is None:
        return None
    card, column = took
    choices = before.to_dict()["solo"][before.round - 1]
    rule = names.AUTOMA_RULES[column].format(symbol=names.SYMBOLS[choices[column]] if column < len(choices) else "")
    return f"automa: took {before.rules.catalogue.describe_card(card)} into column {column + 1}: the rule '{rule}'"


def automa_line(core) -> Text | None:
    s = core.to_dict()
    seat = s["automa_seat"]
    if seat < 0:
        return None
    a = s["players"][seat]
    line = Text("automa: ", style="bold")
    line.append(f"{counted(a['fame'], 'point')}, initiative {core.initiative(seat)} (cubes {a['cubes']}), "
                f"cards by column {' '.join(map(str, a['columns']))} | solo board ")
    boards = []
    for r in range(s["solo_returned"], len(s["solo"])):
        row = [symbol_text(x) if x >= 0 else Text("-", style="dim") for x in s["solo"][r]]
        boards.append(Text(f"r{r + 1} ").append_text(joined(row, "/")))
    line.append_text(joined(boards, " "))
    return line


# ---------------------------------------------------------------------------------------
# The offer
# ---------------------------------------------------------------------------------------
def offer_rows(core, width: int, viewer: int = -1) -> list:
    """(label, Text) rows of what is on offer: the orders, the cards, the card taken, the
    tokens drawn (their owner's only), the token being placed."""
    s = core.to_dict()
    cat = core.rules.catalogue
    room = width - LABEL - 1
    rows = []
    orders = [(f, p) for f, p in zip(s["offer_frame"], s["offer_plate"]) if f >= 0]
    if orders:
        rows.append(("orders", joined([Text(f"{frame_text(cat, f)}\n  + {plate_text(cat, p)}" if p >= 0
                                           else frame_text(cat, f)) for f, p in orders], "\n")))
    cards = [x for x in s["offer"][:s["n_offer"]] if x >= 0]
    if cards:
        rows.append(("cards", pack([card_text(cat, x) for x in cards], room)))
    if s["taken"] >= 0:
        rows.append(("taken", card_text(cat, s["taken"])))
    if s["n_pool"] > 0:
        me = s["turn_order"][s["turn"]] if s["turn"] < s["n_turns"] else -1
        if viewer in (-1, me):
            rows.append(("drawn", joined([symbol_text(x) for x in s["pool"][:s["n_pool"]]], " ")))
        else:
            rows.append(("drawn", Text(f"{s['n_pool']} tokens (player {me}'s)", style="dim")))
    if s["held"] != _core.HELD["NONE"]:
        rows.append(("placing", Text("a token initiative side up") if s["held_shown"] == ICON
                     else Text("a token ").append_text(symbol_text(s["held_shown"]))))
    return rows


def heading(core) -> Text:
    s = core.to_dict()
    steps = core.rules.core_catalogue["track"][s["variant"]]["card_steps"]
    out = Text(f"Round {s['round']} of {s['rounds']}" if s["round"] else "Setup", style="bold magenta")
    out.append(f" | {core.step_name()}", style="magenta")
    out.append(f" | {names.VARIANTS[s['variant']]}, {steps} card steps | bag {sum(s['bag'])} tokens, "
               f"cubes {s['cubes_left']}")
    harder = [words for option, words in names.SOLO_DIFFICULTY.items() if s.get(option)]
    if harder:
        out.append(f" | harder: {', '.join(harder)}")
    return out


def order_text(core, seat_names) -> Text | None:
    """The order of this step: who acts when (the one to act marked); None where one seat
    alone acts (the solo game's person: a line of one name says nothing)."""
    s = core.to_dict()
    if s["n_turns"] <= 1 or s["phase"] not in (PH["ORDERS"], PH["CARDS"], PH["MARKERS"], PH["CLOSE"]):
        return None
    if s["token_window"] >= 0:
        return Text("order: not decided yet (setup tokens first)", style="bold cyan")
    out = Text("order: ", style="bold cyan")
    for t in range(s["n_turns"]):
        seat = s["turn_order"][t]
        who = "automa" if seat == s["automa_seat"] else seat_label(seat, seat_names).split(" (")[0]
        if t:
            out.append(" > ")
        out.append(who, style="bold" if t == s["turn"] else "dim" if t < s["turn"] else "")
    return out


# ---------------------------------------------------------------------------------------
# The table (the view's contract)
# ---------------------------------------------------------------------------------------
def game_view(core, viewer: int, seat_names=None, width: int = 100):
    """The whole table as `viewer` sees it (-1: everything): every tableau in full."""
    s = core.to_dict()
    parts: list[RenderableType] = [heading(core)]
    rows = offer_rows(core, width, viewer)
    if rows:
        parts.append(rows_table(rows))
    order = order_text(core, seat_names)
    if order is not None:
        parts.append(order)
    seats = list(range(s["num_players"]))
    if 0 <= viewer < len(seats):
        seats.remove(viewer)
        seats.insert(0, viewer)
    for seat in seats:
        parts.append(rows_table(house_rows(core, seat, viewer, seat_names, width)))
    automa = automa_line(core)
    if automa is not None:
        parts.append(automa)
    return Group(*parts)


def decision_view(core, viewer: int, seat_names=None, width: int = 100, compact: int = 0):
    """The table at `viewer`'s decision: the heading, the offer, the order of the step,
    the viewer in full (their tableau as a grid, the best window shaded), the others in
    a line or two. `compact` 1: the others in one line; 2: the closed frames left out;
    3: the order of the step left out too."""
    s = core.to_dict()
    parts: list[RenderableType] = [heading(core)]
    rows = offer_rows(core, width, viewer)
    if 0 <= viewer < s["num_players"]:
        rows += house_rows(core, viewer, viewer, seat_names, width, compact)
    parts.append(rows_table(rows))
    order = order_text(core, seat_names) if compact < 3 else None
    if order is not None:
        parts.append(order)
    for seat in range(s["num_players"]):
        if seat != viewer:
            parts.append(house_line(core, seat, viewer, seat_names, width, one_line=compact >= 1))
    automa = automa_line(core)
    if automa is not None:
        parts.append(automa)
    return Group(*parts)


def move_text(core, action: int, text: str) -> str:
    """The move's words and what they do not say: a window's points, what a character's
    side does (and a character's two sides, when choosing one)."""
    if A["CHARACTER"] <= action < A["SIDE"]:
        a, b = CHARACTER_SIDES[names.CHARACTERS[action - A["CHARACTER"]]]
        return f"{text} (side A: {a}; side B: {b})"
    if A["SIDE"] <= action < A["YES"]:
        character = core.character(core.current_player())
        if character in CHARACTER_SIDES:
            return f"{text}: {CHARACTER_SIDES[character][action - A['SIDE']]}"
        return text
    if A["WINDOW"] <= action < A["NUM_ACTIONS"]:
        seat = core.current_player()
        r, c = _core.anchor_cell(action - A["WINDOW"])
        parts = core.window_score(seat, r, c)
        return f"{text}: {counted(sum(parts), 'point')} ({parts_text(parts)})"
    return text


# ---------------------------------------------------------------------------------------
# Long menus and typed moves: placements, tokens and windows by row and column
# ---------------------------------------------------------------------------------------
def _cell_of(action: int):
    """(what, r, c) of a move that names a cell, else None: what is "place" (a card as
    printed or turned: with its orientation), "under", "token" or "window"."""
    if A["PLACE"] <= action < A["UNDER"]:
        o, k = divmod(action - A["PLACE"], _core.NUM_ANCHORS)
        return ("place", o) + _core.anchor_cell(k)
    if A["UNDER"] <= action < A["DISCARD"]:
        return ("under", 0) + _core.anchor_cell(action - A["UNDER"])
    if A["TOKEN_AT"] <= action < A["MARKER"]:
        return ("token", 0) + _core.anchor_cell(action - A["TOKEN_AT"])
    if A["WINDOW"] <= action < A["NUM_ACTIONS"]:
        return ("window", 0) + _core.anchor_cell(action - A["WINDOW"])
    return None


SHORT_MENU = 12     # places (a card's, a token's) listed by number up to this many


def menu(core, seat: int, legal, texts, width: int) -> Text | None:
    """The menu of this decision, or None for the numbered list of every move: windows
    are always listed best first (long_menu), and so are places beyond SHORT_MENU."""
    cells = [_cell_of(a) for a in legal]
    if any(c is not None and c[0] == "window" for c in cells) or \
            sum(c is not None for c in cells) > SHORT_MENU:
        return long_menu(core, seat, legal, texts, width)
    return None


def long_menu(core, seat: int, legal, texts, width: int) -> Text:
    """A decision with more moves than a screen lists: the moves that name no cell, by
    their numbers; those that do (where a card or token goes, a window) are typed as a
    row and a column; windows are listed best first with their numbers."""
    out = Text()
    cells = [(i, _cell_of(a)) for i, a in enumerate(legal)]
    others = [i for i, c in cells if c is None]
    kinds = {c[0] for _, c in cells if c is not None}
    if "window" in kinds:
        best = sorted(((int(texts[i].rsplit(": ", 1)[1].split(" ")[0]), i) for i, c in cells
                       if c is not None and c[0] == "window"), key=lambda x: (-x[0], x[1]))
        out.append(f"{len(best)} windows; the best:\n", style="cyan")
        items = [Text(f"{i + 1:>3}) ", style="bold green").append(texts[i].replace("close the frame on ", ""))
                 for _, i in best[:6]]
        out.append_text(joined(items, "\n"))
        out.append("\nType ROW COLUMN of a window's top-left square (e.g. ")
        _, _, r, c = _cell_of(legal[best[0][1]])
        out.append(f"{r + 1} {c + 1}", style="green")
        out.append(") or its number.")
    else:
        what = "where the card's first square goes (its left end; a column's top)" if "place" in kinds \
            else "where the token goes"
        spots = sum(1 for _, c in cells if c is not None and c[0] in ("place", "token"))
        out.append(f"{spots} places. Type ROW COLUMN for {what}, e.g. ")
        example = next(c for _, c in cells if c is not None and c[0] in ("place", "token"))
        out.append(f"{example[2] + 1} {example[3] + 1}", style="green")
        out.append("; rows and columns as the grid numbers them (0 or below: above or left of it).")
        if "under" in kinds:
            out.append(" Ungler's slide under: its numbers in moves.", style="dim")
    if others:
        out.append("\n")
        items = [Text(f"{i + 1:>2}) ", style="bold green").append(texts[i]) for i in others]
        out.append_text(pack(items, width))
    out.append("\nmoves lists them all, hint suggests some.", style="dim")
    return out


def typed_move(core, numbers: list, legal):
    """ROW COLUMN: the card placed there as printed (or the token put there, or the
    window with its top-left square there). None for other counts of numbers."""
    if len(numbers) != 2:
        return None
    r, c = numbers[0] - 1, numbers[1] - 1
    found: dict[str, list[tuple[int, int]]] = {}     # what -> [(orientation, action)]
    for a in legal:
        cell = _cell_of(a)
        if cell is not None and (cell[2], cell[3]) == (r, c):
            found.setdefault(cell[0], []).append((cell[1], a))
    if not any(_cell_of(a) for a in legal):
        raise ValueError("a row and a column name where a card or token goes, or a window: not "
                         f"this decision; type one move number (1-{len(legal)})")
    s = core.to_dict()
    if "place" in found:
        taken = s["taken"]
        printed = int(core.rules.catalogue.cards[taken].vertical) if taken >= 0 else 0
        return min(found["place"], key=lambda x: (x[0] != printed, x[0]))[1]
    for kind in ("token", "window", "under"):
        if kind in found:
            return found[kind][0][1]
    raise ValueError(f"nothing goes at row {r + 1}, column {c + 1}: a card or token goes beside "
                     "or on one already there (moves lists every place)")


def typed_move_help(core, legal) -> str:
    if any(_cell_of(a) for a in legal):
        return ", or a row and a column (e.g. 2 3)"
    return ""


# ---------------------------------------------------------------------------------------
# Scores
# ---------------------------------------------------------------------------------------
def score_rows(core) -> list[dict]:
    """The final score sheet's rows, one per player: each round's points, the end bonus,
    the total, the character and the place (1 = winner; solo, 2 where the automa wins: it
    takes ties of the score, verdict)."""
    s = core.to_dict()
    totals = core.final_scores()
    automa = core.automa_score() if s["automa_seat"] >= 0 else None
    rows = []
    for seat in range(s["num_players"]):
        b = core.score_breakdown(seat)
        rounds = [r["total"] for r in b["rounds"]]
        rows.append(dict(seat=seat, rounds=rounds + [None] * (s["rounds"] - len(rounds)), bonus=b["bonus"],
                         total=b["total"], character=core.character(seat),
                         place=1 + sum(t > totals[seat] for t in totals)
                         + (automa is not None and automa >= totals[seat])))
    return rows


def verdict(core, seat_names=None) -> str:
    s = core.to_dict()
    if s["automa_seat"] >= 0:
        mine, theirs = core.final_scores()[0], core.automa_score()
        # "You" for the person; a demo's bot (no names) or a named seat by its name.
        who = seat_label(0, seat_names)
        you = who.lower().split(" (")[0] == "you"      # "you", "you (player 0)"
        return (f"{'You beat' if you else who + ' beats'} the automa, {mine} to {theirs}" if mine > theirs else
                f"The automa wins, {theirs} to {mine}" if theirs > mine else
                f"A tie with the automa at {mine}: {'you do' if you else who + ' does'} not win (the solo game is "
                "won with more fame points than the automa)")
    winners = core.winners()
    who = " and ".join(seat_label(w, seat_names) for w in winners)
    return f"{'Winner' if len(winners) == 1 else 'Shared win'}: {who}"


def score_table(core, seat_names=None):
    s = core.to_dict()
    t = Table(title="Final score sheet", title_justify="left", title_style="bold")
    t.add_column("#", justify="right")
    t.add_column("player")
    for r in range(s["rounds"]):
        t.add_column(f"round {r + 1}", justify="right")
    t.add_column("bonus", justify="right")
    t.add_column("total", justify="right", style="bold")
    t.add_column("character")
    for row in sorted(score_rows(core), key=lambda x: (x["place"], x["seat"])):
        t.add_row(str(row["place"]), Text(seat_label(row["seat"], seat_names)),
                  *["-" if v is None else str(v) for v in row["rounds"]], str(row["bonus"]), str(row["total"]),
                  Text(row["character"] or ""))
    if s["automa_seat"] >= 0:
        t.add_row("", "automa", *[""] * s["rounds"], "", str(core.automa_score()), "")
    legend = Text("each round: its plate (main + additional) and its frame (ink + specialty); bonus: "
                  "the bonus markers' symbols over the closed frames", style="dim")
    return Group(t, legend, Text(verdict(core, seat_names), style="bold green"))


def score_sheet(core) -> str:
    """The final score sheet as plain text."""
    s = core.to_dict()
    head = f"{'player':<8}" + "".join(f"{'round ' + str(r + 1):>9}" for r in range(s["rounds"])) \
        + f"{'bonus':>7}{'total':>7}"
    lines = [head]
    rows = score_rows(core)
    for row in rows:
        lines.append(f"{row['seat']:<8}" + "".join(f"{'-' if v is None else v:>9}" for v in row["rounds"])
                     + f"{row['bonus']:>7}{row['total']:>7}")
    if s["automa_seat"] >= 0:
        lines.append(f"{'automa':<8}" + " " * (9 * s["rounds"] + 7) + f"{core.automa_score():>7}")
    lines += [f"player {r['seat']} played {r['character']}" for r in rows if r["character"]]
    lines.append(verdict(core))
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------
# The play loop's words
# ---------------------------------------------------------------------------------------
HELP_MOVES = ("[bold]Your move[/bold]: type its number from the menu, or its words (the start of its text, or words it contains). Where a card or token goes, or the "
              "window of a frame, you may also type its row and column as the grid numbers them: e.g. "
              "[green]2 4[/green] (a card's first square: its left end, a column's top).")


def help_characters() -> Text:
    return glossary("Characters (rulebook p.18): each player gets a tile and chooses its side.",
                    ((name, f"A {a}; B {b}") for name, (a, b) in CHARACTER_SIDES.items()))


def help_symbols() -> Text:
    text = Text("The grid: each square as a short code in its colour.\n", style="bold")
    for kind, symbols in names.KIND_SYMBOLS.items():
        text.append(f"  {kind}s: ".replace("specialtys", "specialties"), style="bold cyan")
        text.append_text(joined([symbol_text(names.SYMBOLS.index(x)).append(
            "" if names.SHORT[names.SYMBOLS.index(x)] == x else f" {x}") for x in symbols], ", "))
        text.append("\n")
    text.append("  * ", style=ICON_STYLE)
    text.append("an initiative icon, - a blank square, . an empty cell; a token has ' after its code (*' face "
                "down), Guillard's token +. The shaded 3x3 is the window that scores most now.\n")
    return text


def help_scoring() -> Text:
    return Text("Close Frames (rulebook pp.12-13, 19): the 3x3 window you choose scores the plate's main "
                "points if every indicated letter shows, its additional points with the main and its "
                "condition, the frame's ink points if the ink is in the indicated row or column and its "
                "specialty points if every indicated specialty shows. At the end each symbol with bonus "
                "markers on its slot scores their values for each time it shows in your closed frames.\n")


HELP_TOPICS = {"characters": ("what each character's sides do", help_characters),
               "symbols": ("the codes and colours of the grid", help_symbols),
               "scoring": ("how a frame and the bonus markers score", help_scoring)}
UNSEEN_DRAW = "a token you do not see"


def hidden_move_text(core, player: int) -> str:
    return "keeps or takes a token you do not see"


# ---------------------------------------------------------------------------------------
# The table for the web page (gutenberg_ai.interfaces.web draws it: docs/web.md, "The board")
# ---------------------------------------------------------------------------------------
def _web_square(v: int) -> dict:
    """A tableau cell (CELL coding) for the page: its symbol's name and code, whether it
    is a token, and whether Guillard's or Caxton's ability put it there."""
    if v < 0:
        return {"symbol": None}
    base = v & CELL_BASE
    return {"symbol": names.SQUARES[base] if base < len(names.SQUARES) else "blank", "code": names.SHORT[base],
            "token": bool(v & CELL["TOKEN"]), "ability": bool(v & CELL["ABILITY"])}


def _web_symbol(x: int, actions=()) -> dict:
    return {"kind": "token", "symbol": names.SYMBOLS[x], "code": names.SHORT[x], "actions": list(actions)}


def _web_card(cat, x: int, actions=()) -> dict:
    card = cat.cards[x]
    return {"kind": "pcard", "id": str(card.number), "vertical": bool(card.vertical), "actions": list(actions),
            "squares": [{"symbol": q, "code": names.SHORT[names.SQUARES.index(q)]} for q in card.squares]}


def _web_tableau(core, seat: int, legal) -> dict:
    """The seat's tableau as a grid, with room around it for the cells the legal moves
    name (where a card or token goes, a window's top-left square), each cell with those
    moves; the best window now shaded."""
    s = core.to_dict()
    p = s["players"][seat]
    h, w = (p["height"], p["width"]) if p["pieces"] else (0, 0)
    named: dict[tuple[int, int], list[int]] = {}
    for a in legal:
        cell = _cell_of(a)
        if cell is not None:
            named.setdefault((cell[2], cell[3]), []).append(a)
    rows = [r for r, _ in named] + [0, max(h - 1, 0)]
    cols = [c for _, c in named] + [0, max(w - 1, 0)]
    top, bottom, left, right = min(rows), max(rows), min(cols), max(cols)
    best = windows(core, seat) if p["pieces"] else []
    shade = (best[0][2], best[0][3]) if best and best[0][0] > 0 else None
    cells = []
    for r in range(top, bottom + 1):
        row = []
        for c in range(left, right + 1):
            cell = _web_square(p["grid"][r][c]) if 0 <= r < h and 0 <= c < w else {"symbol": None}
            cell["actions"] = named.get((r, c), [])
            cell["shade"] = shade is not None and 0 <= r - shade[0] < 3 and 0 <= c - shade[1] < 3
            row.append(cell)
        cells.append(row)
    return {"kind": "grid", "first_row": top + 1, "first_col": left + 1, "cells": cells,
            "note": "empty this round" if not p["pieces"] else ""}


def web_board(core, viewer: int, seat_names=None) -> dict:
    """The table as `viewer` sees it (-1: everything), as data for the web page: the
    offer (orders, cards, the card taken, tokens drawn), every player's character,
    tokens, order, closed frames and tableau, each thing with the moves that take or
    place it (clickable where legal: the tableau's cells take the card or token being
    placed, or close the frame on the window there). What the viewer may not see is
    hidden: another player's setup tokens and face-down tokens, tokens another drew."""
    A = _core.ACTIONS
    cat = core.rules.catalogue
    s = core.to_dict()
    to_act = core.current_player()
    legal = core.legal_actions() if to_act == viewer and viewer >= 0 else []
    offer = []
    orders = [{"kind": "order", "id": f"frame {f + 1}", "actions": [A["ORDER"] + f],
               "cards": [{"kind": "card", "id": "frame", "text": frame_text(cat, f)}]
               + ([{"kind": "card", "id": "plate", "text": plate_text(cat, pl)}] if pl >= 0 else [])}
              for f, pl in zip(s["offer_frame"], s["offer_plate"]) if f >= 0]
    if orders:
        offer.append({"label": "orders", "items": orders})
    cards = [_web_card(cat, x, [A["TAKE"] + x]) for x in s["offer"][:s["n_offer"]] if x >= 0]
    if cards:
        offer.append({"label": "cards", "items": cards})
    if s["taken"] >= 0:
        offer.append({"label": "card taken", "items": [_web_card(cat, s["taken"], [A["DISCARD"]])]})
    if s["n_pool"] > 0:
        me = s["turn_order"][s["turn"]] if s["turn"] < s["n_turns"] else -1
        pool = s["pool"][:s["n_pool"]]
        if viewer in (-1, me):
            items = [_web_symbol(x, [A["KEEP_UP"] + x, A["KEEP_DOWN"] + x]) for x in pool]
        else:
            items = [{"kind": "hidden", "text": "token"} for _ in pool]
        offer.append({"label": "tokens drawn", "items": items})
    if s["held"] != _core.HELD["NONE"]:
        offer.append({"label": "placing", "items": [
            {"kind": "chip", "text": "a token initiative side up"} if s["held_shown"] == ICON else
            _web_symbol(s["held_shown"])]})
    order = order_text(core, seat_names)
    if order is not None:
        offer.append({"label": "order of the step", "items": [{"kind": "chip", "text": order.plain[len("order: "):]}]})
    offer.append({"label": "bag", "items": [{"kind": "chip", "text": f"{sum(s['bag'])} tokens, cubes {s['cubes_left']}"}]})
    sections = [{"title": "Offer", "groups": offer}]
    seats = list(range(s["num_players"]))
    if 0 <= viewer < len(seats):
        seats.remove(viewer)
        seats.insert(0, viewer)
    for seat in seats:
        sections.append(_web_player(core, s, seat, viewer, seat_names, legal))
    automa = automa_line(core)
    if automa is not None:
        sections.append({"title": "Automa", "groups": [{"label": "", "items": [{"kind": "chip", "text": automa.plain}]}]})
    return {"heading": heading(core).plain, "sections": sections}


def _web_player(core, s, seat: int, viewer: int, seat_names, legal) -> dict:
    A = _core.ACTIONS
    p = s["players"][seat]
    seen = viewer < 0 or viewer == seat
    groups = [{"label": "character", "items": [
        {"kind": "chip", "text": character_text(p).plain,
         "note": CHARACTER_SIDES[names.CHARACTERS[p["character"]]][p["side"]] if p["character"] >= 0 and p["side"] >= 0
         else ""}]},
        {"label": "score", "items": [{"kind": "chip", "text": score_now(core, seat)},
                                     {"kind": "chip", "text": f"initiative {core.initiative(seat)} (cubes {p['cubes']})"}]}]
    hand = [k for k in range(len(p["slot"])) if p["slot"][k] == SLOTS["HAND"]]
    if hand:
        items = [_web_symbol(p["hand"][k], [A["SETUP_UP"] + k * N_SYMBOLS + p["hand"][k], A["SETUP_DOWN"] + k])
                 if seen else {"kind": "hidden", "text": "setup token"} for k in hand]
        groups.append({"label": "setup tokens", "items": items})
    down = [x for x in range(N_SYMBOLS) for _ in range(p["hidden_out"][x])]
    down += [p["hand"][k] for k in range(len(p["slot"])) if p["slot"][k] == SLOTS["DOWN"]]
    if down:
        groups.append({"label": "face down", "items": [_web_symbol(x) | {"down": True} if seen else
                                                       {"kind": "hidden", "text": "token"} for x in down]})
    groups.append({"label": "bonus markers", "items": [{"kind": "chip", "text": markers_text(core, seat).plain}]})
    for label, text in order_rows(core, seat):
        groups.append({"label": label, "items": [{"kind": "chip", "text": text.plain}]})
    closed = [r for r in range(len(p["closed"])) if any(v >= 0 for v in p["closed"][r])]
    if closed:
        breakdown = core.score_breakdown(seat)["rounds"]
        groups.append({"label": "closed frames", "items": [
            {"kind": "grid", "first_row": 1, "first_col": 1, "numbers": False,
             "note": f"round {r + 1}" + (f": {breakdown[k]['total']} pts" if k < len(breakdown) else ""),
             "cells": [[_web_square(v) | {"actions": []} for v in row] for row in window_cells(p["closed"][r])]}
            for k, r in enumerate(closed)]})
    groups.append({"label": "tableau", "items": [_web_tableau(core, seat, legal if viewer == seat else [])]})
    return {"title": seat_label(seat, seat_names), "mine": viewer == seat, "seat": seat, "groups": groups}
