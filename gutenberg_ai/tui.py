"""The game in the terminal, drawn with `rich`: the board, a player's printing house, the
menu of legal moves, hints and the score sheet. Everything here only reads a CoreState
(gutenberg_ai.core_of) and returns rich renderables; gutenberg_ai.play asks the
questions.

What a player may not see stays hidden: another player's plan until every plan is
committed (CoreState.plan_visible) and the character tiles another player drew.
Dynamic text goes through rich.text.Text, never markup, so a card such as
"G3 [ink swap | gain red]" prints as it is.
"""
from __future__ import annotations

import contextlib

from rich import box
from rich.console import Group
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from gutenberg_ai import _core, names, solo_title
from gutenberg_ai.jsonfile import plain_text

INK_STYLES = {"blue": "bold blue", "silver": "bold white", "gold": "bold yellow", "red": "bold red"}


def ink_text(colour: str | None) -> Text:
    if colour is None:
        return Text("-", style="dim")
    return Text(colour, style=INK_STYLES[colour])


def _join(parts, sep="; ") -> Text:
    out = Text()
    for i, part in enumerate(parts):
        if i:
            out.append(sep)
        out.append(part if isinstance(part, Text) else Text(str(part)))
    return out


def _cell(value) -> Text:
    # A plain str given to rich would be read as markup ("G3 [ink swap | ...]" vanishes).
    return value if isinstance(value, Text) else Text(str(value))


def _adder(table: Table):
    """table.add_row for (label, value) rows, the value as Text."""
    return lambda label, value: table.add_row(label, _cell(value))


def types_text(counts) -> str:
    """Types as letters, one per type: "A I I I U" (never "A III U", which reads as
    Roman numerals)."""
    return " ".join(letter for letter, n in zip(names.LETTERS, counts) for _ in range(n))


def _plan_text(plan) -> str:
    return ", ".join(f"{row} {n}" for row, n in zip(names.ROWS, plan))


def seat_label(seat: int, seat_names) -> str:
    # A name may come from a file: shown as plain text (escape codes escaped).
    return plain_text(seat_names[seat]) if seat_names and seat < len(seat_names) else f"player {seat}"


# ---------------------------------------------------------------------------------------
# The board
# ---------------------------------------------------------------------------------------
def board_table(core) -> Table:
    """The main board: the cards on the spaces, the ink sets, the patronage cards and
    rewards, the bag (and the draft or drawn cards while there are any)."""
    cat = core.rules.catalogue
    rules = core.rules.core_catalogue
    s = core.to_dict()
    lay = rules["board"][s["num_seats"]]
    t = Table(box=box.SIMPLE_HEAD, show_header=False, expand=False, padding=(0, 1))
    t.add_column(style="bold cyan", no_wrap=True)
    t.add_column()

    def cards(field, describe, count):
        return [Text(describe(x)) if x >= 0 else Text("(empty)", style="dim") for x in s[field][:count]]

    def row(label, parts, sep="\n"):
        if parts:
            t.add_row(label, _join(parts, sep))

    if any(x >= 0 for x in s["printing_space"][:lay["printing"]] + s["refinement_space"][:lay["refinement"]]):
        row("printing cards", cards("printing_space", cat.describe_printing, lay["printing"]))
        row("refinement cards", cards("refinement_space", cat.describe_refinement, lay["refinement"]))
    ink_sets = s["ink_space"][:lay["ink_sets"]]
    if any(c >= 0 for space in ink_sets for c in space):
        sets = []
        for i, space in enumerate(ink_sets):
            line = Text(f"set {i + 1}: ")
            line.append_text(_join([ink_text(names.INKS[c] if c >= 0 else None) for c in space], " / "))
            sets.append(line)
        row("inks (free / 1g / 2g)", sets)
    if any(x >= 0 for x in s["specialty_space"][:lay["specialty"]]):
        row("specialty cards", cards("specialty_space", cat.describe_specialty_card, lay["specialty"]))
    if any(x >= 0 for x in s["gear_space"][:lay["gears"]]):
        row("gears", cards("gear_space", cat.describe_gear, lay["gears"]))
    patronage = []
    for i, x in enumerate(s["patronage_space"]):
        if x >= 0:
            opens = rules["patronage_rounds"][i]
            later = "" if opens <= s["round"] else f" (from round {opens})"
            patronage.append(Text(cat.describe_patronage(x) + later, style="dim" if later else ""))
    row("patronage cards", patronage or [Text("none left", style="dim")])
    rewards = []
    for k, reward in enumerate(rules["patronage_rewards"]):
        taken = s["patronage_reward_seat"][k]
        rewards.append(_core._reward_text(reward["kind"], reward["amount"])
                       + (f" (taken by player {taken})" if taken >= 0 else ""))
    row("patronage rewards", rewards, "; ")
    row("bag", [_join([ink_text(c), Text(f" {n}")], "") for c, n in zip(names.INKS, s["bag"])], ", ")
    for label, field, describe in (("draft: printing", "draft_printing", cat.describe_printing),
                                   ("draft: refinement", "draft_refinement", cat.describe_refinement),
                                   ("drawn printing", "pool_printing", cat.describe_printing),
                                   ("drawn refinement", "pool_refinement", cat.describe_refinement)):
        row(label, [describe(x) for x in _core._bits(s[field])])
    return t


def automa_table(core) -> Table | None:
    s = core.to_dict()
    seat = s["automa_seat"]
    if seat < 0:
        return None
    a = s["players"][seat]
    t = Table(title=f"Automa (seat {seat})", title_justify="left", box=box.SIMPLE_HEAD,
              show_header=False, padding=(0, 1))
    t.add_column(style="bold cyan", no_wrap=True)
    t.add_column()
    add = _adder(t)
    add("initiative", f"{a['markers']} markers: {_plan_text(a['plan'])}")
    if s["automa_card"] >= 0:
        add("planning card", str(s["automa_card"]))
    add("patronage cards", str(a["patronage"]))
    return t


# ---------------------------------------------------------------------------------------
# A printing house
# ---------------------------------------------------------------------------------------
def player_table(core, seat: int, viewer: int, seat_names=None) -> Table:
    """One player's printing house as `viewer` sees it (viewer -1: everything)."""
    cat = core.rules.catalogue
    s = core.to_dict()
    p = s["players"][seat]
    title = seat_label(seat, seat_names)
    if seat == s["first_player"]:
        title += " - first player"
    # The title holds a name from a file: Text, so "[/]" is shown, not read as markup.
    t = Table(title=Text(title), title_justify="left", title_style="bold", box=box.SIMPLE_HEAD,
              show_header=False, padding=(0, 1))
    t.add_column(style="bold cyan", no_wrap=True)
    t.add_column()
    add = _adder(t)
    if p["character"] >= 0:
        wild = f"; wild ink this round: {names.INKS[p['wild_ink']]}" if p["wild_ink"] >= 0 else ""
        add("character", names.CHARACTERS[p["character"]] + wild)
    elif p["character_drawn"][0] >= 0:
        drawn = [x for x in p["character_drawn"] if x >= 0]
        seen = viewer < 0 or viewer == seat
        add("characters drawn", " / ".join(names.CHARACTERS[x] for x in drawn) if seen
                  else Text(f"{len(drawn)} tiles (hidden)", style="dim"))
    score = core.final_scores()[seat]
    add("fame", f"{p['fame']}  (end scoring now: {score})")
    add("guilders", str(p["guilders"]))
    add("types", types_text(p["types"]) or Text("none", style="dim"))
    inks = [_join([ink_text(c), Text(f" {n}")], "") for c, n in zip(names.INKS, p["inks"]) if n]
    add("inks", _join(inks, ", ") if inks else Text("none", style="dim"))
    add("specialties", ", ".join(f"{sp} {names.ROMAN[v]}" for sp, v in zip(names.SPECIALTIES, p["levels"]))
              + f"; reward track {p['track']}")
    orders = [f"{k + 1}. {cat.describe_printing(p['order_printing'][k])}\n"
              f"   + {cat.describe_refinement(p['order_refinement'][k])}"
              for k in range(len(p["order_printing"])) if p["order_printing"][k] >= 0]
    add("orders", "\n".join(orders) if orders else Text("none", style="dim"))
    gears = [f"{k + 1}. {cat.describe_gear(g)}, sector {p['gear_active'][k] + 1} active"
             + (" (used)" if p["gear_used"][k] else "")
             for k, g in enumerate(p["gear"]) if g >= 0]
    if gears:
        add("gears", "\n".join(gears))
    add("patronage cards", str(p["patronage"]))
    if s["round"] > 0 and p["markers"]:
        if viewer < 0 or core.plan_visible(seat, viewer):
            plan = _plan_text(p["plan"]) if any(p["plan"]) else Text("not yet planned", style="dim")
        else:
            plan = Text("hidden until every plan is committed", style="dim")
        add(f"initiative ({p['markers']})", plan)
    return t


def game_view(core, viewer: int, seat_names=None):
    """The whole table as `viewer` sees it: a heading, the board, the automa, every
    printing house (the viewer's first)."""
    s = core.to_dict()
    heading = Text(f"Round {s['round']} of {s['rounds']}" if s["round"] else "Setup", style="bold magenta")
    heading.append(f"  -  {core.step_name()}", style="magenta")
    parts = [heading, board_table(core)]
    automa = automa_table(core)
    if automa is not None:
        parts.append(automa)
    seats = [seat for seat in range(s["num_players"])]
    if 0 <= viewer < len(seats):
        seats.remove(viewer)
        seats.insert(0, viewer)
    parts += [player_table(core, seat, viewer, seat_names) for seat in seats]
    return Group(*parts)


# ---------------------------------------------------------------------------------------
# The table at a decision: what fits a 100x40 terminal
# ---------------------------------------------------------------------------------------
# game_view above is the whole table (the `board` command). At a decision the person sees
# decision_view: a heading, the part of the board the decision is about (all of it at a
# plan step), their own printing house in full and the others in a line or two each.
# fit_decision picks the most detailed of COMPACTNESS levels that fits the terminal's
# height with the menu below it, so the offer and the person's holdings are in view at
# every decision of a 100x40 terminal.
LABEL = 11   # width of the labels on the left of decision_view
COMPACTNESS = 4


def _pack(items, width: int, sep: str = "   ") -> Text:
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


def _ink_set_text(space) -> Text:
    return _join([ink_text(names.INKS[c] if c >= 0 else None) for c in space], " ")


def _inks_held(counts) -> Text:
    inks = [_join([ink_text(c), Text(f" {n}")], "") for c, n in zip(names.INKS, counts) if n]
    return _join(inks, ", ") if inks else Text("none", style="dim")


def _sector_text(cat, gear: int, sector: int) -> str:
    from gutenberg_ai.catalogue import describe_sector
    return describe_sector(cat.gears[gear].sectors[sector])


def _gear_text(cat, gear: int, active: int | None = None) -> Text:
    """G3 [ink swap | *gain red* | type fame A/O]: the active sector between stars."""
    text = Text(f"G{gear} [")
    for k in range(len(cat.gears[gear].sectors)):
        if k:
            text.append(" | ")
        sector = _sector_text(cat, gear, k)
        text.append(f"*{sector}*" if k == active else sector, style="bold" if k == active else "")
    return text.append("]")


def _refinement_text(cat, x: int) -> str:
    """A refinement card in short: R0 red 2f | typesetting II+binding II 3f | reward 1 ink."""
    from gutenberg_ai.catalogue import describe_reward
    c = cat.refinement[x]
    colour = "+".join(ink for ink, n in c.colour.items() for _ in range(n))
    deco = "+".join(f"{sp} {names.ROMAN[lv]}" for sp, lv in c.decoration.items())
    return f"R{c.id} {colour} {c.colour_fame}f | {deco} {c.decoration_fame}f | {describe_reward(c.reward)}"


# The board rows a decision is about, by step (step_name); a plan step shows them all.
_OFFER = {
    "take orders": ("printing", "refinement"),
    "take inks": ("inks",),
    "develop specialties": ("specialties",),
    "improve printing house": ("gears",),
    "patronage": ("patronage", "rewards"),
    "draft": ("draft",),
    "order as a reward": ("drawn",),
    "Guillard's gears": ("gear pool",),
}
_ALL_ROWS = ("printing", "refinement", "inks", "specialties", "gears", "patronage", "rewards")


def offer_rows(core, rows, width: int, compact: int = 0) -> list:
    """(label, Text) rows of the board: the cards on the spaces, the ink sets, ...
    From compact 2 the patronage cards not yet open are counted, not listed."""
    cat = core.rules.catalogue
    rules = core.rules.core_catalogue
    s = core.to_dict()
    lay = rules["board"][s["num_seats"]]
    room = width - LABEL - 1
    out = []

    def on_spaces(field, count):
        return [x for x in s[field][:count] if x >= 0]

    for row in rows:
        label = row
        if row == "printing":
            items = [cat.describe_printing(x) for x in on_spaces("printing_space", lay["printing"])]
        elif row == "refinement":
            items = [_refinement_text(cat, x) for x in on_spaces("refinement_space", lay["refinement"])]
        elif row == "inks":
            items = [Text(f"{i + 1}: ").append_text(_ink_set_text(space))
                     for i, space in enumerate(s["ink_space"][:lay["ink_sets"]]) if any(c >= 0 for c in space)]
            label = "inks 0/1/2g"
        elif row == "specialties":
            items = [cat.describe_specialty_card(x) for x in on_spaces("specialty_space", lay["specialty"])]
            label = "spec. cards"
        elif row == "gears":
            items = [_gear_text(cat, x) for x in on_spaces("gear_space", lay["gears"])]
            label = "new gears"
        elif row == "patronage":
            items, later = [], []
            for i, x in enumerate(s["patronage_space"]):
                if x >= 0:
                    opens = rules["patronage_rounds"][i]
                    if opens <= s["round"]:
                        items.append(cat.describe_patronage(x))
                    elif compact < 2:
                        items.append(Text(f"{cat.describe_patronage(x)} (round {opens})", style="dim"))
                    else:
                        later.append(opens)
            if later:
                items.append(Text(f"{len(later)} more from round {min(later)} (board lists them)", style="dim"))
        elif row == "rewards":
            items = []
            for k, reward in enumerate(rules["patronage_rewards"]):
                taken = s["patronage_reward_seat"][k]
                text = _core._reward_text(reward["kind"], reward["amount"])
                items.append(Text(text + (f" (player {taken})" if taken >= 0 else ""),
                                  style="dim" if taken >= 0 else ""))
            label = "rewards"
        elif row in ("draft", "drawn"):
            printing, refinement = ("draft_printing", "draft_refinement") if row == "draft" else \
                ("pool_printing", "pool_refinement")
            items = [cat.describe_printing(x) for x in _core._bits(s[printing])]
            if items:
                out.append((f"{row} P", _pack(items, room)))
            items = [_refinement_text(cat, x) for x in _core._bits(s[refinement])]
            label = f"{row} R"
        elif row == "gear pool":
            items = [_gear_text(cat, x) for x in _core._bits(s["gear_pool"])]
        else:
            raise ValueError(f"no board row {row!r}")
        if items:
            out.append((label, _pack(items, room)))
    return out


def house_rows(core, seat: int, viewer: int, seat_names, width: int) -> list:
    """(label, Text) rows of a printing house in full, as `viewer` may see it."""
    cat = core.rules.catalogue
    s = core.to_dict()
    p = s["players"][seat]
    room = width - LABEL - 1
    who = [Text(f"player {seat}" + (", first player" if seat == s["first_player"] else ""))]
    if p["character"] >= 0:
        name = Text(names.CHARACTERS[p["character"]])
        if p["wild_ink"] >= 0:
            name.append(" (wild: ").append_text(ink_text(names.INKS[p["wild_ink"]])).append(")")
        who.append(name)
    elif p["character_drawn"][0] >= 0 and (viewer < 0 or viewer == seat):
        who.append(Text("drew " + " / ".join(names.CHARACTERS[x] for x in p["character_drawn"] if x >= 0)))
    who += [Text(f"fame {p['fame']} (scoring now {core.final_scores()[seat]})"), Text(f"{p['guilders']} guilders"),
            Text(f"patronage cards {p['patronage']}")]
    rows = [(seat_label(seat, seat_names).split(" (")[0], _pack(who, room, " | "))]
    held = [Text("types " + (types_text(p["types"]) or "none")), Text("inks ").append_text(_inks_held(p["inks"]))]
    rows.append(("holds", _pack(held, room, " | ")))
    levels = ", ".join(f"{sp} {names.ROMAN[v]}" for sp, v in zip(names.SPECIALTIES, p["levels"]))
    rows.append(("specialties", Text(f"{levels} (reward track {p['track']})")))
    orders = [Text(f"{k + 1}. {cat.describe_printing(p['order_printing'][k])} + "
                   f"{_refinement_text(cat, p['order_refinement'][k])}")
              for k in range(len(p["order_printing"])) if p["order_printing"][k] >= 0]
    rows.append(("orders", _join(orders, "\n") if orders else Text("none", style="dim")))
    gears = []
    for k, g in enumerate(p["gear"]):
        if g >= 0:
            line = Text(f"{k + 1}. ").append_text(_gear_text(cat, g, p["gear_active"][k]))
            if p["gear_used"][k]:
                line.append(" (used this round)", style="dim")
            gears.append(line)
    if gears:
        rows.append(("gears", _join(gears, "\n")))
    if s["round"] > 0 and p["markers"]:
        rows.append((f"plan ({p['markers']})", _plan_cell(core, seat, viewer)))
    return rows


def _plan_cell(core, seat, viewer) -> Text:
    p = core.to_dict()["players"][seat]
    if viewer >= 0 and not core.plan_visible(seat, viewer):
        return Text("hidden until every plan is committed", style="dim")
    return Text(_plan_text(p["plan"])) if any(p["plan"]) else Text("not yet planned", style="dim")


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def house_line(core, seat: int, viewer: int, seat_names, width: int, one_line: bool = False) -> Text:
    """Another player's printing house in a line or two (one, cut short, with
    `one_line`): fame, guilders, types, inks, specialty levels, orders and gears held,
    character, plan."""
    s = core.to_dict()
    p = s["players"][seat]
    line = Text(seat_label(seat, seat_names) + (", first" if seat == s["first_player"] else "") + ": ",
                style="bold")
    parts = [Text(f"fame {p['fame']} ({core.final_scores()[seat]})"), Text(f"{p['guilders']}g"),
             Text("types " + (types_text(p["types"]) or "none")), Text("inks ").append_text(_inks_held(p["inks"])),
             Text("specialties " + " ".join(names.ROMAN[v] for v in p["levels"])),
             Text(_count(sum(x >= 0 for x in p["order_printing"]), "order") + ", "
                  + _count(sum(g >= 0 for g in p["gear"]), "gear"))]
    if p["patronage"]:
        parts.append(Text(f"patronage {p['patronage']}"))
    if p["character"] >= 0:
        wild = f" (wild {names.INKS[p['wild_ink']]})" if p["wild_ink"] >= 0 else ""
        parts.append(Text(names.CHARACTERS[p["character"]].split()[-1] + wild))
    if s["round"] > 0 and p["markers"]:
        if viewer >= 0 and not core.plan_visible(seat, viewer):
            parts.append(Text("plan hidden", style="dim"))
        elif any(p["plan"]):
            parts.append(Text("plan " + " ".join(map(str, p["plan"]))))
    if one_line:
        line.append_text(_join(parts, " | "))
    else:
        line.append_text(_pack(parts, width - len(line), " | "))
    if one_line and len(line) > width:
        line.truncate(width - 1)
        line.append("…")
    return line


def decision_view(core, viewer: int, seat_names=None, width: int = 100, compact: int = 0) -> Group:
    """The table at `viewer`'s decision (see above), at a level of `compact`ness:
    0 in full; 1 the others in one line each; 2 the patronage cards not yet open only
    counted; 3 only the board rows the decision is about, even at a plan step."""
    s = core.to_dict()
    step = core.step_name()
    heading = Text(f"Round {s['round']} of {s['rounds']}" if s["round"] else "Setup", style="bold magenta")
    heading.append(f" | {step}", style="magenta")
    heading.append(" | bag ")
    heading.append_text(_join([_join([ink_text(c), Text(f" {n}")], "") for c, n in zip(names.INKS, s["bag"])], ", "))
    planning = core.phase in ("plan", "reveal") and step not in _OFFER and compact < 3
    rows = offer_rows(core, _ALL_ROWS if planning else _OFFER.get(step, ()), width, compact)
    if 0 <= viewer < s["num_players"]:
        rows += house_rows(core, viewer, viewer, seat_names, width)
    parts = [heading, _rows_table(rows)]
    for seat in range(s["num_players"]):
        if seat != viewer:
            parts.append(house_line(core, seat, viewer, seat_names, width, one_line=compact >= 1))
    if s["automa_seat"] >= 0:
        a = s["players"][s["automa_seat"]]
        line = Text("automa: ", style="bold")
        line.append(f"{a['markers']} markers, plan {' '.join(map(str, a['plan']))} | patronage cards {a['patronage']}")
        parts.append(line)
    return Group(*parts)


def _rows_table(rows) -> Table:
    t = Table.grid(padding=(0, 1))
    t.add_column(style="bold cyan", no_wrap=True, width=LABEL)
    t.add_column()
    for label, value in rows:
        t.add_row(label, value)
    return t


def fit_decision(console, core, viewer: int, seat_names, below, height: int | None = None):
    """decision_view at the most detailed level at which it fits `height` lines (the
    console's) together with `below` (the menu and what follows it, `below` lines)."""
    height = height or console.height
    options = console.options
    for compact in range(COMPACTNESS):
        view = decision_view(core, viewer, seat_names, options.max_width, compact)
        if len(console.render_lines(view, options, pad=False)) + below <= height:
            break
    return view


def move_text(core, action: int, text: str) -> str:
    """The move's words (CoreState.action_to_string) and what it gives where they do
    not say: the active sector of a gear used, the inks of an ink set, the character's
    ability, the sector a gear is installed or turned to."""
    A = _core.ACTIONS
    cat = core.rules.catalogue
    s = core.to_dict()
    seat = core.current_player()
    if not 0 <= seat < s["num_seats"]:
        return text
    p = s["players"][seat]
    if A["USE_GEAR"] <= action < A["PASS"]:
        k = action - A["USE_GEAR"]
        if p["gear"][k] >= 0:
            return f"{text}: {_sector_text(cat, p['gear'][k], p['gear_active'][k])}"
    elif A["INKS"] <= action < A["SPECIALTY"]:
        per_set = len(s["ink_space"][0])
        x, m = divmod(action - A["INKS"], per_set)
        inks = [names.INKS[c] for c in s["ink_space"][x] if c >= 0][:m + 1]
        return f"{text} ({', '.join(inks)})"
    elif A["CHARACTER"] <= action < A["SHIFT"]:
        return f"{text} ({names.CHARACTER_ABILITIES[action - A['CHARACTER']]})"
    elif A["PLACE"] <= action < A["REORIENT"]:
        guillard = s["n_pending"] > 0 and _core.PENDING_NAMES[s["pending"][0]["kind"]] == "Guillard's gears"
        gear = s["pending"][0]["arg"] if guillard else s["sub_card"]
        if 0 <= gear < len(cat.gears):
            return f"{text} ({_sector_text(cat, gear, (action - A['PLACE']) % 3)})"
    elif A["REORIENT"] <= action < A["PATRON_REWARD"]:
        k = (action - A["REORIENT"]) // 3
        if p["gear"][k] >= 0:
            return f"{text} ({_sector_text(cat, p['gear'][k], (action - A['REORIENT']) % 3)})"
    return text


def _common_prefix(texts) -> str:
    """The longest start shared by all `texts` that ends at a space and leaves each a
    rest that does not begin with a digit unless the start ends a list item (", "):
    "printing " of "printing P12 ..." and "printing P15 ...", "set 1, " of "set 1, 1 ink
    ..." and "set 1, 2 inks ...", but not "use gear " of "use gear 2: order"."""
    first = texts[0]
    n = 0
    while n < len(first) and all(len(t) > n and t[n] == first[n] for t in texts):
        n += 1
    while n > 0:
        cut = first.rfind(" ", 0, n)
        if cut < 0:
            return ""
        prefix = first[:cut + 1]
        if prefix.endswith(", ") or not any(t[len(prefix):len(prefix) + 1].isdigit() for t in texts):
            return prefix
        n = cut
    return ""


GROUP_MIN = 6   # a shared start of at least this many characters groups moves on a line


def menu_text(texts, step: str, width: int) -> Text:
    """The numbered moves (1-based), the step's name dropped from their words (the
    heading says it), and consecutive moves that start alike grouped under that start:
    "printing  1) P12 [A I U] 3g   2) P15 [I I I] 5g" (on the next lines if they do not
    fit on one)."""
    words = [t[len(step) + 2:] if t.startswith(step + ": ") else t for t in texts]
    groups = []   # (prefix, [(number, rest)])
    i = 0
    while i < len(words):
        j, prefix = i + 1, ""
        while j < len(words):
            candidate = _common_prefix(words[i:j + 1])
            if len(candidate) < GROUP_MIN:
                break
            prefix, j = candidate, j + 1
        groups.append((prefix, [(k + 1, words[k][len(prefix):]) for k in range(i, j)]))
        i = j
    out = Text()
    for g, (prefix, items) in enumerate(groups):
        if g:
            out.append("\n")
        cells = []
        for number, rest in items:
            cell = Text(f"{number:>2}) ", style="bold green")
            cells.append(cell.append(rest))
        if not prefix:
            out.append_text(cells[0])
            continue
        head = Text(prefix.rstrip(", ") + "  ", style="cyan")
        one_line = len(head) + sum(len(c) for c in cells) + 3 * (len(cells) - 1)
        if one_line <= width:
            out.append_text(head).append_text(_join(cells, "   "))
        else:
            body = _pack(cells, width - 2)
            out.append_text(head.rstrip() or head)
            out.append("\n  ").append_text(Text("\n  ").join(body.split("\n")))
    return out


def automa_took(core, outcome: int) -> str:
    """What the automa takes off the board with the execution card `outcome` (a chance
    outcome of `core`, the state before it; "" for any other outcome), in the game's
    words. It takes what the named space holds in the action's row (core.pyx,
    automa_take): at Take Orders the printing card, then (a second card) the
    refinement card; at Take Inks the whole ink set; a specialty card; a gear; at
    Patronage the reward on that space."""
    first = _core.CHANCE_OUTCOMES["AUTOMA_SPACE"]
    if not first <= outcome < _core.CHANCE_OUTCOMES["NUM_CHANCE"]:
        return ""
    cat = core.rules.catalogue
    s = core.to_dict()
    i = outcome - first
    row = names.ROWS[s["row"]]
    if row == "orders":
        if s["sub"] == _core.SUBS["CHOOSE"]:
            x = s["printing_space"][i]
            return cat.describe_printing(x) if x >= 0 else ""
        x = s["refinement_space"][i]
        return cat.describe_refinement(x) if x >= 0 else ""
    if row == "inks":
        inks = [names.INKS[c] for c in s["ink_space"][i] if c >= 0]
        return f"ink set {i + 1} ({', '.join(inks)})" if inks else ""
    if row == "specialties":
        x = s["specialty_space"][i]
        return cat.describe_specialty_card(x) if x >= 0 else ""
    if row == "gears":
        x = s["gear_space"][i]
        return cat.describe_gear(x) if x >= 0 else ""
    reward = core.rules.core_catalogue["patronage_rewards"][i]
    return "the patronage reward " + _core._reward_text(reward["kind"], reward["amount"])


# ---------------------------------------------------------------------------------------
# Moves, hints, scores
# ---------------------------------------------------------------------------------------
def moves_table(texts, limit: int | None = None) -> Table:
    """The numbered menu of moves (1-based), the first `limit` of them."""
    t = Table(box=box.SIMPLE, show_header=False, padding=(0, 1))
    t.add_column(justify="right", style="bold green", no_wrap=True)
    t.add_column()
    for i, text in enumerate(texts[:limit] if limit else texts):
        t.add_row(str(i + 1), Text(text))
    return t


def _pct(x) -> str:
    return "-" if x is None else f"{x:.0%}"


def _vs_best(i: int, h) -> str:
    if i == 0:
        return "best"
    return {True: "level", False: "behind", None: "unsure"}[h.level]


def hints_table(hints, numbers=None, title="Hints", line_steps: int = 2, solo: bool = False) -> Table:
    """Hints (gutenberg_ai.Hint) as a table, each move with the first steps of the line
    the search expects after it; `numbers` maps an action to its menu number. The
    measure (the chance to win; solo, where there is nobody to beat, the expected fame)
    comes with its 95% interval, and each move says how it stands against the best:
    level (within the search's noise), behind, or unsure (tried too little to tell)."""
    caption = ("fame: expected final fame, with a 95% interval" if solo else
               "win: chance to win, with a 95% interval; fame: expected final fame") + \
        "; level: the search cannot tell it from the best move"
    t = Table(title=_cell(title), title_justify="left", box=box.SIMPLE_HEAD, caption=caption, caption_justify="left")
    if numbers is not None:
        t.add_column("#", justify="right", style="bold green")
    t.add_column("move (then, as the search expects)", ratio=1)
    t.add_column("searched", justify="right")
    if not solo:
        t.add_column("win", justify="right", style="bold", no_wrap=True)
    t.add_column("fame", justify="right", style="bold" if solo else "", no_wrap=True)
    t.add_column("vs best", no_wrap=True)
    for i, h in enumerate(hints):
        cells = [] if numbers is None else [str(numbers.get(h.action, "?"))]
        move = Text(h.text)
        for step in h.line[:line_steps]:
            move.append(f"\n  then {step}", style="dim")
        if solo:
            fame = "-" if h.expected_fame is None else f"{h.expected_fame:.0f}"
            if h.interval is not None:
                fame += f" ({h.interval[0]:.0f}-{h.interval[1]:.0f})"
            measures = [fame]
        else:
            win = _pct(h.win_probability)
            if h.interval is not None:
                win += f" ({h.interval[0] * 100:.0f}-{h.interval[1] * 100:.0f}%)"
            measures = [win, "-" if h.expected_fame is None else f"{h.expected_fame:.0f}"]
        t.add_row(*cells, move, f"{h.share:.0%}", *measures, _vs_best(i, h))
    return t


def score_rows(core) -> list[dict]:
    """The final score sheet's rows, one per player: fame track, specialties, patronage,
    guilders, total, the character played and the place (1 = winner)."""
    keys = [core.ranking_key(seat) for seat in range(core.num_players)]
    rows = []
    for seat in range(core.num_players):
        b = core.score_breakdown(seat)
        rows.append(dict(seat=seat, **b, character=core.character(seat),
                         place=1 + sum(other > keys[seat] for other in keys)))
    return rows


def verdict(core, seat_names=None) -> str:
    """The line under the score sheet: the winner(s), or the solo title."""
    if core.num_players == 1:
        return f"Solo title: {solo_title(core.final_scores()[0])}"
    winners = core.winners()
    who = " and ".join(seat_label(w, seat_names) for w in winners)
    return f"{'Winner' if len(winners) == 1 else 'Shared win'}: {who}"


def score_table(core, seat_names=None) -> Group:
    t = Table(title="Final score sheet", title_justify="left", title_style="bold", box=box.SIMPLE_HEAD)
    t.add_column("#", justify="right")
    t.add_column("player")
    for column in ("fame", "spec.", "patr.", "guild."):
        t.add_column(column, justify="right")
    t.add_column("total", justify="right", style="bold")
    t.add_column("character")
    for r in sorted(score_rows(core), key=lambda r: (r["place"], r["seat"])):
        t.add_row(str(r["place"]), Text(seat_label(r["seat"], seat_names)), str(r["fame"]), str(r["specialties"]),
                  str(r["patronage"]), str(r["guilders"]), str(r["total"]), Text(r["character"] or ""))
    legend = Text("fame track + specialties + patronage cards + guilders = total", style="dim")
    return Group(t, legend, Text(verdict(core, seat_names), style="bold green"))


# ---------------------------------------------------------------------------------------
# A search in progress
# ---------------------------------------------------------------------------------------
@contextlib.contextmanager
def search_progress(console, description: str, iterations=None, seconds=None):
    """A progress bar while a search runs, on `console` if it is a terminal: yields the
    callback for the search's `progress=` (progress(iterations, seconds)). The bar fills
    with the iterations done (an iteration budget) or the time spent (seconds)."""
    if not console.is_terminal:
        yield None
        return
    columns = [SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
               TextColumn("{task.fields[done]:,} iterations"), TimeElapsedColumn()]
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(description, total=iterations or seconds, done=0)

        def update(done, elapsed):
            bar.update(task, completed=done if iterations else min(elapsed, seconds), done=done)

        yield update
