"""Gutenberg's table in the terminal, drawn with `rich` (its view: the games table's
view_module, see gutenberg_ai.interfaces.tui and docs/new-game.md): the board, a player's printing
house, the table at a decision fitted to a 100x40 terminal, what a move gives, the
automa's cards, the score sheet, the plan typed as five numbers, and the help on
characters and gears. Everything here only reads a CoreState (gutenberg_ai.core_of).

What a player may not see stays hidden: another player's plan until every plan is
committed (CoreState.plan_visible) and the character tiles another player drew.
Dynamic text goes through rich.text.Text, never markup, so a card such as
"G3 [ink swap | gain red]" prints as it is.
"""
from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from gutenberg_ai.games.gutenberg import _core, names
from gutenberg_ai.common.draw import LABEL, glossary, joined, pack, row_adder, rows_table, seat_label
from gutenberg_ai.common.words import counted, listed

INK_STYLES = {"blue": "bold blue", "silver": "bold white", "gold": "bold yellow", "red": "bold red"}


def _taker(s: dict, seat: int) -> str:
    """Who took a patronage reward: the automa by name, a player by seat."""
    return "automa" if seat == s["automa_seat"] else f"player {seat}"


def ink_text(colour: str | None) -> Text:
    if colour is None:
        return Text("-", style="dim")
    return Text(colour, style=INK_STYLES[colour])


def types_text(counts) -> str:
    """Types as letters, one per type: "A I I I U" (never "A III U", which reads as
    Roman numerals)."""
    return " ".join(letter for letter, n in zip(names.LETTERS, counts) for _ in range(n))


def _plan_text(plan) -> str:
    return ", ".join(f"{row} {n}" for row, n in zip(names.ROWS, plan))


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
            t.add_row(label, joined(parts, sep))

    if any(x >= 0 for x in s["printing_space"][:lay["printing"]] + s["refinement_space"][:lay["refinement"]]):
        row("printing cards", cards("printing_space", cat.describe_printing, lay["printing"]))
        row("refinement cards", cards("refinement_space", cat.describe_refinement, lay["refinement"]))
    ink_sets = s["ink_space"][:lay["ink_sets"]]
    if any(c >= 0 for space in ink_sets for c in space):
        sets = []
        for i, space in enumerate(ink_sets):
            line = Text(f"set {i + 1}: ")
            line.append_text(joined([ink_text(names.INKS[c] if c >= 0 else None) for c in space], " / "))
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
                       + (f" (taken by {_taker(s, taken)})" if taken >= 0 else ""))
    row("patronage rewards", rewards, "; ")
    row("bag", [joined([ink_text(c), Text(f" {n}")], "") for c, n in zip(names.INKS, s["bag"])], ", ")
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
    add = row_adder(t)
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
    add = row_adder(t)
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
    inks = [joined([ink_text(c), Text(f" {n}")], "") for c, n in zip(names.INKS, p["inks"]) if n]
    add("inks", joined(inks, ", ") if inks else Text("none", style="dim"))
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
    parts: list[RenderableType] = [heading, board_table(core)]
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
# tui.fit_decision picks the most detailed of COMPACTNESS levels that fits the terminal's
# height with the menu below it, so the offer and the person's holdings are in view at
# every decision of a 100x40 terminal.
COMPACTNESS = 5


def _ink_set_text(space) -> Text:
    return joined([ink_text(names.INKS[c] if c >= 0 else None) for c in space], " ")


def _inks_held(counts) -> Text:
    inks = [joined([ink_text(c), Text(f" {n}")], "") for c, n in zip(names.INKS, counts) if n]
    return joined(inks, ", ") if inks else Text("none", style="dim")


def _sector_text(cat, gear: int, sector: int) -> str:
    from gutenberg_ai.games.gutenberg.catalogue import describe_sector
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
    from gutenberg_ai.games.gutenberg.catalogue import describe_reward
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
# A plan step on a crowded table (four players with full hands): the board but the
# patronage row and its rewards, the last to act (the `board` command lists them).
_PLAN_ROWS_SHORT = tuple(row for row in _ALL_ROWS if row not in ("patronage", "rewards"))


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
                items.append(Text(text + (f" ({_taker(s, taken)})" if taken >= 0 else ""),
                                  style="dim" if taken >= 0 else ""))
            label = "rewards"
        elif row in ("draft", "drawn"):
            printing, refinement = ("draft_printing", "draft_refinement") if row == "draft" else \
                ("pool_printing", "pool_refinement")
            items = [cat.describe_printing(x) for x in _core._bits(s[printing])]
            if items:
                out.append((f"{row} P", pack(items, room)))
            items = [_refinement_text(cat, x) for x in _core._bits(s[refinement])]
            label = f"{row} R"
        elif row == "gear pool":
            items = [_gear_text(cat, x) for x in _core._bits(s["gear_pool"])]
        else:
            raise ValueError(f"no board row {row!r}")
        if items:
            out.append((label, pack(items, room)))
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
    who += [Text(f"fame {p['fame']} (scoring now {core.final_scores()[seat]})"), Text(counted(p['guilders'], "guilder")),
            Text(f"patronage cards {p['patronage']}")]
    rows = [(seat_label(seat, seat_names).split(" (")[0], pack(who, room, " | "))]
    held = [Text("types " + (types_text(p["types"]) or "none")), Text("inks ").append_text(_inks_held(p["inks"]))]
    rows.append(("holds", pack(held, room, " | ")))
    levels = ", ".join(f"{sp} {names.ROMAN[v]}" for sp, v in zip(names.SPECIALTIES, p["levels"]))
    rows.append(("specialties", Text(f"{levels} (reward track {p['track']})")))
    orders = [Text(f"{k + 1}. {cat.describe_printing(p['order_printing'][k])} + "
                   f"{_refinement_text(cat, p['order_refinement'][k])}")
              for k in range(len(p["order_printing"])) if p["order_printing"][k] >= 0]
    rows.append(("orders", joined(orders, "\n") if orders else Text("none", style="dim")))
    gears = []
    for k, g in enumerate(p["gear"]):
        if g >= 0:
            line = Text(f"{k + 1}. ").append_text(_gear_text(cat, g, p["gear_active"][k]))
            if p["gear_used"][k]:
                line.append(" (used this round)", style="dim")
            gears.append(line)
    if gears:
        rows.append(("gears", joined(gears, "\n")))
    if s["round"] > 0 and p["markers"]:
        rows.append((f"plan ({p['markers']})", _plan_cell(core, seat, viewer)))
    return rows


def _plan_cell(core, seat, viewer) -> Text:
    p = core.to_dict()["players"][seat]
    if viewer >= 0 and not core.plan_visible(seat, viewer):
        return Text("hidden until every plan is committed", style="dim")
    return Text(_plan_text(p["plan"])) if any(p["plan"]) else Text("not yet planned", style="dim")


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
             Text(counted(sum(x >= 0 for x in p["order_printing"]), "order") + ", "
                  + counted(sum(g >= 0 for g in p["gear"]), "gear"))]
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
        line.append_text(joined(parts, " | "))
    else:
        line.append_text(pack(parts, width - len(line), " | "))
    if one_line and len(line) > width:
        line.truncate(width - 1)
        line.append("…")
    return line


def decision_view(core, viewer: int, seat_names=None, width: int = 100, compact: int = 0) -> Group:
    """The table at `viewer`'s decision (see above), at a level of `compact`ness:
    0 in full; 1 the others in one line each; 2 the patronage cards not yet open only
    counted; 3 at a plan step, the board but its patronage row; 4 only the board rows the
    decision is about, even at a plan step."""
    s = core.to_dict()
    step = core.step_name()
    heading = Text(f"Round {s['round']} of {s['rounds']}" if s["round"] else "Setup", style="bold magenta")
    heading.append(f" | {step}", style="magenta")
    heading.append(" | bag ")
    heading.append_text(joined([joined([ink_text(c), Text(f" {n}")], "") for c, n in zip(names.INKS, s["bag"])], ", "))
    planning = core.phase in ("plan", "reveal") and step not in _OFFER and compact < 4
    whole = _ALL_ROWS if compact < 3 else _PLAN_ROWS_SHORT
    rows = offer_rows(core, whole if planning else _OFFER.get(step, ()), width, compact)
    if 0 <= viewer < s["num_players"]:
        rows += house_rows(core, viewer, viewer, seat_names, width)
    parts: list[RenderableType] = [heading, rows_table(rows)]
    for seat in range(s["num_players"]):
        if seat != viewer:
            parts.append(house_line(core, seat, viewer, seat_names, width, one_line=compact >= 1))
    if s["automa_seat"] >= 0:
        a = s["players"][s["automa_seat"]]
        line = Text("automa: ", style="bold")
        line.append(f"{a['markers']} markers, plan {' '.join(map(str, a['plan']))} | patronage cards {a['patronage']}")
        parts.append(line)
    return Group(*parts)


def move_text(core, action: int, text: str) -> str:
    """The move's words (CoreState.action_to_string) and what it gives where they do
    not say: the active sector of a gear used, the inks of an ink set, the character's
    ability, the sector a gear is installed or turned to, what fulfilling an order earns."""
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
    elif A["FULFIL"] <= action < A["INK"]:
        gains = _fulfil_gains(cat, p, *divmod(action - A["FULFIL"], len(_MODE)))
        if gains:
            return f"{text} ({gains})"
    return text


# The fulfil modes (A_FULFIL + slot * 5 + mode), by the core's names: which parts of the
# order each fulfils.
_MODE = {name: m for m, name in enumerate(_core.FULFIL_MODE_NAMES)}
_COLOUR = (_MODE["print+colour"], _MODE["print+both"])
_DECORATION = (_MODE["print+decoration"], _MODE["print+both"])
FIOL = names.CHARACTERS.index("Schweipolt Fiol")   # one refinement gains the completion reward too


def _fulfil_gains(cat, p: dict, slot: int, mode: int) -> str:
    """What fulfilling order `slot` in `mode` gives, by its cards (p.13-14): the printing
    card's guilders, each refinement part's fame, and the completion reward for both
    parts (Fiol: for one). The gears that count the orders of the turn come after."""
    from gutenberg_ai.games.gutenberg.catalogue import describe_reward
    if mode == _MODE["skip"] or p["order_printing"][slot] < 0:
        return ""
    gains = [f"+{cat.printing[p['order_printing'][slot]].guilders} guilders"]
    r = p["order_refinement"][slot]
    if r < 0:
        return gains[0]
    card = cat.refinement[r]
    fame = (card.colour_fame if mode in _COLOUR else 0) + (card.decoration_fame if mode in _DECORATION else 0)
    if fame:
        gains.append(f"+{fame} fame")
    if mode == _MODE["print+both"] or (mode in _COLOUR + _DECORATION and p["character"] == FIOL):
        gains.append(f"the completion reward: {describe_reward(card.reward)}")
    return ", ".join(gains)


def automa_took(core, outcome: int) -> str:
    """What the automa takes off the board with the execution card `outcome` (a chance
    outcome of `core`, the state before it; "" for any other outcome), in the game's
    words. It takes what the named space holds in the action's row (core.pyx,
    automa_take): at Take Orders the printing card, then (a second card) the
    refinement card; at Take Inks the whole ink set; a specialty card; a gear; at
    Patronage the reward on that space."""
    first = _core.CHANCE_OUTCOMES["AUTOMA_SPACE"]
    if not first <= outcome < _core.CHANCE_OUTCOMES["AUTOMA_NONE"]:
        return ""       # (AUTOMA_NONE: no execution card named a space with a card; nothing taken)
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


def automa_note(before, action: int) -> str | None:
    """What the automa did by a rule while `action` is played from `before`, or None:
    the patronage card it took, with the rule that chose it among the cards on offer
    (names.AUTOMA_PATRONAGE_RULE); the initiative markers it passed or received with the
    first player token at the end of the round, with the rule that placed them. Its
    other takes are drawn by execution cards, and its planning card is a draw
    (chance_note says them)."""
    if before.automa_seat < 0:
        return None
    after = before.clone()
    after.apply(action)
    b, a = before.to_dict(), after.to_dict()
    lines = [line for line in (_patronage_taken(before, action, b, a), _markers_passed(before, b, a)) if line]
    return "\n".join(lines) or None


def _patronage_taken(before, action: int, b: dict, a: dict) -> str | None:
    seat = before.automa_seat
    if a["players"][seat]["patronage"] != b["players"][seat]["patronage"] + 1:
        return None
    # The cards gone from the board, but the one `action` took itself (a player's card).
    mine = action - _core.ACTIONS["PATRON_CARD"] if not before.is_chance() else -1
    taken = [x for x, y in zip(b["patronage_space"], a["patronage_space"]) if x >= 0 > y and x != mine]
    if len(taken) != 1:
        return None
    card = before.rules.catalogue.describe_patronage(taken[0])
    return f"automa: took {card}: the rule '{names.AUTOMA_PATRONAGE_RULE}'"


def _markers_passed(before, b: dict, a: dict) -> str | None:
    """The end of the round (rulebook p.17): the automa passes a marker from its action
    with the most markers, or receives each player's onto its action with the fewest,
    ties to the first scanning down from the round's planning card's centre."""
    plan, now = b["players"][before.automa_seat]["plan"], a["players"][before.automa_seat]["plan"]
    if plan == now or b["first_player"] == a["first_player"]:
        return None     # (the token did not pass: a planning card moved them, a draw)
    centre = before.rules.catalogue.automa.planning[b["automa_card"]].centre
    moved = [(row, n - m) for row, m, n in zip(names.ROWS, plan, now) if n != m]
    if len(moved) == 1 and moved[0][1] == -1:
        row = moved[0][0]
        return (f"automa: passed an initiative marker with the first player token, from {row}, its action with "
                f"the most markers" + _tie(row, plan, max(plan), centre))
    gained = sum(n for _, n in moved)
    onto = "one after another onto its action with the fewest markers as each is placed" if gained > 1 else \
        "onto its action with the fewest markers"
    return (f"automa: received {counted(gained, 'initiative marker')} with the first player token, {onto} (ties: "
            f"the first scanning down from the planning card's centre, {centre}): "
            + ", ".join(f"{row} +{n}" for row, n in moved))


def _tie(row: str, plan: list, extreme: int, centre: str) -> str:
    """" (...)": how the rule chose `row` among the automa's actions holding `extreme`
    markers, where more than one does ("" where it alone does)."""
    rows = names.ROWS
    tied = [r for r, n in zip(rows, plan) if n == extreme]
    if len(tied) == 1:
        return f" ({counted(extreme, 'marker')})"
    if row == centre:
        return f" ({listed(tied)} tie at {extreme}; {row} is the card's centre, where the scan starts)"
    wrapped = ", wrapping to the top" if rows.index(row) < rows.index(centre) else ""
    return f" ({listed(tied)} tie at {extreme}; {row} comes first scanning down from the card's centre, {centre}{wrapped})"


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
        return f"Solo title: {names.solo_title(core.final_scores()[0])}"
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



def score_sheet(core) -> str:
    """The final score sheet as plain text: fame track, specialties, patronage, guilders,
    total (the rows of score_rows), the characters and the verdict."""
    lines = [f"{'player':<8}{'fame':>6}{'special.':>10}{'patron.':>9}{'guilders':>10}{'total':>7}"]
    rows = score_rows(core)
    for r in rows:
        lines.append(f"{r['seat']:<8}{r['fame']:>6}{r['specialties']:>10}{r['patronage']:>9}"
                     f"{r['guilders']:>10}{r['total']:>7}")
    lines += [f"player {r['seat']} played {r['character']}" for r in rows if r["character"]]
    lines.append(verdict(core))
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------
# The play loop's questions in Gutenberg's words (gutenberg_ai.interfaces.play asks them)
# ---------------------------------------------------------------------------------------
HELP_MOVES = ("[bold]Your move[/bold]: type its number from the menu, or its words (the start of its text, or words it contains). At a plan step you may also type "
              "your plan as five numbers, the initiative markers on orders, inks, specialties, gears "
              "and patronage: e.g. [green]3 2 1 1 0[/green].")


def help_characters() -> Text:
    return glossary("Characters (rulebook p.23): each player draws 2 tiles and keeps one.",
                    zip(names.CHARACTERS, names.CHARACTER_ABILITIES))


def help_gears() -> Text:
    return glossary("Gears (rulebook p.10 and p.22): a gear's active sector gives its reward once a round, at "
                    "any time, up to 3 gear uses a round. Taking a gear installs it; the top gear turns one "
                    "sector each round and turns the others with it. The rewards:",
                    ((kind.replace("_", " "), names.GEAR_REWARDS[kind]) for kind in names.GEAR_KINDS),
                    "On a card: G3 [ink swap | gain red | type fame A/O] lists the 3 sectors in the order "
                    "they reach the mark.")


# `help TOPIC` at the prompt: the topic's first letters are enough.
HELP_TOPICS = {"characters": ("what each character tile does", help_characters),
               "gears": ("what each gear reward gives", help_gears)}
UNSEEN_DRAW = "a character tile you do not see"


def hidden_move_text(core, player: int) -> str:
    """What the person is told of a move they do not see."""
    return "commits a plan (hidden until every plan is committed)"


def dropped_text(n: int) -> str:
    """What `play --resume` says of the hidden moves at the end of a record, chosen again."""
    return f"{n} plan{'s' if n > 1 else ''} committed before you saved, chosen again"


def chance_note(before, outcome: int, text: str) -> str | None:
    """A draw worth a line of its own, in the game's words (the automa's cards: an
    execution card with what it takes off the board; a planning card with a line for
    each arrow, planning_lines), or None for a draw among the others. `before` is the
    state before the draw."""
    if not before.step_name().startswith("automa"):
        return None
    if before.step_name() == "automa: planning card":
        return "\n".join([f"automa: {text}"] + planning_lines(before, outcome))
    took = automa_took(before, outcome)
    return f"automa: {text}" + (f" - takes {took}" if took else "") + set_aside(before)


def set_aside(before) -> str:
    """At an automa execution card's draw, " (...)": the spaces its cards name that hold
    nothing for it now, whose cards are set aside and the next drawn (p.16: "If there is
    no resource in that space ..., then draw the next execution card"); at take orders'
    refinement card, that the cards drawn for the printing card stay out until the
    action ends. "" where every card names a space with something on it."""
    s = before.to_dict()
    if names.ROWS[s["row"]] == "orders" and s["sub"] == _core.SUBS["REFINEMENT"]:
        return " (the cards drawn for the printing card stay out until the action ends)"
    first = _core.CHANCE_OUTCOMES["AUTOMA_SPACE"]
    drawn = {o - first + 1 for o, _ in before.chance_outcomes()}
    empty = sorted(set(before.rules.core_catalogue["automa_execution"]) - drawn)
    if not empty:
        return ""
    one = len(empty) == 1
    return (f" ({'space' if one else 'spaces'} {listed(empty)} empty: a card naming {'it' if one else 'one'} "
            "is set aside and the next drawn)")


def planning_lines(before, outcome: int) -> list[str]:
    """How the automa's planning card (chance outcome `outcome`, revealed at `before`)
    moves its markers, arrow by arrow, with the rule that chose each "min" or "max"
    (the rulebook p.17: a tie goes to the first tied action scanning down from the
    card's centre, wrapping to the top) and why an arrow moved nothing; then its markers."""
    card = before.rules.catalogue.automa.planning[outcome - _core.CHANCE_OUTCOMES["AUTOMA_PLAN"]]
    rows = names.ROWS
    lines = []
    for k, ((end_a, end_b), step) in enumerate(zip(card.moves, before.planning_steps(outcome)), 1):
        plan = step["before"]
        first, second = rows[step["first"]], rows[step["second"]]
        found = [_arrow_end(end, row, plan, card.centre) for end, row in ((end_a, first), (end_b, second))]
        outcome_words = {
            "moved": f"a marker from {first} to {second}",
            "back": f"{first} has none, so a marker from {second} to {first}",
            "full": f"{second} holds 6 markers already: nothing moves",
            "empty": f"neither {first} nor {second} has a marker: nothing moves",
            "same": f"both ends are {first}: nothing moves",
        }[step["outcome"]]
        lines.append(f"  arrow {k}, {end_a} to {end_b}: " + "; ".join([w for w in found if w] + [outcome_words]))
    after = before.clone()
    after.apply(outcome)
    plan = after.to_dict()["players"][before.automa_seat]["plan"]
    return lines + ["  its markers now: " + ", ".join(f"{row} {n}" for row, n in zip(rows, plan))]


def _arrow_end(end: str, row: str, plan: list, centre: str) -> str:
    """How an arrow's "min" or "max" end came to `row` ("" for an action printed)."""
    if end not in ("min", "max"):
        return ""
    return f"{end} is {row}" + _tie(row, plan, min(plan) if end == "min" else max(plan), centre)


def _plans(core, legal) -> dict:
    return {_core.plan_of(a): a for a in legal if a < _core.ACTIONS["PRINTING"]}


def _spread(markers: int):
    """An example plan: the markers spread over the five actions."""
    return [markers // 5 + (1 if i < markers % 5 else 0) for i in range(5)]


MENU_LIMIT = 40      # longer menus (the plan step: hundreds of plans) are listed on request


def menu(core, seat: int, legal, texts, width: int) -> Text | None:
    """The menu of this decision, or None for the numbered list of every move (up to
    MENU_LIMIT moves; a plan step's hundreds of plans are typed as five numbers)."""
    return long_menu(core, seat, legal, texts, width) if len(legal) > MENU_LIMIT else None


def long_menu(core, seat: int, legal, texts, width: int) -> Text:
    """The menu of a decision with more moves than a screen lists: a plan step's
    hundreds of plans, typed as five numbers."""
    markers = core.to_dict()["players"][seat]["markers"]
    menu = Text(f"{len(legal)} plans. Type how many of your {markers} initiative markers go on orders, "
                "inks, specialties, gears and patronage (five numbers, at most 6 on one), e.g. ")
    menu.append(" ".join(map(str, _spread(markers))), style="green")
    menu.append("; moves lists them all, hint suggests some.")
    return menu


def typed_move(core, numbers: list, legal):
    """The move a line of several numbers stands for (a plan as five numbers), or None
    when such a line means nothing here; ValueError says what would work."""
    plans = _plans(core, legal)
    if len(numbers) != 5:
        return None
    if not plans:
        if core.phase == "plan" and _core.ACTIONS["PASS"] in legal:
            # A free-action window before the plans: the plan is asked for once it closes.
            done = list(legal).index(_core.ACTIONS["PASS"]) + 1
            raise ValueError(f"your plan comes after this window of free actions: type a move "
                             f"number (1-{len(legal)}), or {done} (done) to go on to your plan")
        raise ValueError(f"five numbers are a plan, and this is not the plan step: type one move "
                         f"number (1-{len(legal)})")
    allocation = tuple(numbers)
    if allocation in plans:
        return plans[allocation]
    markers = sum(next(iter(plans)))
    raise ValueError(f"plan {' '.join(map(str, allocation))} is not legal: place all your {markers} "
                     "markers, at most 6 on one action (orders, inks, specialties, gears, patronage)")


def typed_move_help(core, legal) -> str:
    """What else than a move number the prompt takes here ("" for nothing)."""
    return ", or your plan as five numbers" if _plans(core, legal) else ""


# ---------------------------------------------------------------------------------------
# The table for the web page (gutenberg_ai.interfaces.web draws it: docs/web.md, "The board")
# ---------------------------------------------------------------------------------------
def _web_card(text: str, actions=(), kind: str = "card", **more) -> dict:
    """A card: its id and what it shows (the catalogue's words), and the moves that take
    it (the page makes it clickable when one of them is legal)."""
    card_id, _, rest = text.partition(" ")
    return {"kind": kind, "id": card_id, "text": rest, "actions": list(actions), **more}


def _web_gear(cat, gear: int, active=None, actions=(), used: bool = False) -> dict:
    return {"kind": "gear", "id": f"G{gear}", "actions": list(actions), "used": used,
            "sectors": [_sector_text(cat, gear, k) for k in range(len(cat.gears[gear].sectors))],
            "active": active}


def _web_inks(counts) -> list:
    return [{"kind": "ink", "colour": c, "count": n} for c, n in zip(names.INKS, counts) if n]


def web_board(core, viewer: int, seat_names=None) -> dict:
    """The table as `viewer` sees it (-1: everything), as data for the web page: the
    board's rows and each printing house, every card with the moves that take or use it
    (clickable where legal), what the viewer may not see as hidden items (another
    player's plan until every plan is committed, the character tiles they drew), and
    at a plan step the plan entry (five numbers, as typed_move reads them)."""
    A = _core.ACTIONS
    cat = core.rules.catalogue
    rules = core.rules.core_catalogue
    s = core.to_dict()
    lay = rules["board"][s["num_seats"]]
    board = []

    def on_spaces(field, count, describe, first_action, per=1, moves=1):
        return [_web_card(describe(x), [first_action + x * per + m for m in range(moves)])
                for x in s[field][:count] if x >= 0]

    board.append({"label": "printing cards", "items": on_spaces(
        "printing_space", lay["printing"], cat.describe_printing, A["PRINTING"])})
    board.append({"label": "refinement cards", "items": on_spaces(
        "refinement_space", lay["refinement"], lambda x: _refinement_text(cat, x), A["REFINEMENT"])})
    per_set = len(s["ink_space"][0])
    board.append({"label": "ink sets (free / 1g / 2g)", "items": [
        {"kind": "inkset", "id": f"set {i + 1}", "inks": [names.INKS[c] if c >= 0 else None for c in space],
         "actions": [A["INKS"] + i * per_set + k for k in range(per_set)]}
        for i, space in enumerate(s["ink_space"][:lay["ink_sets"]]) if any(c >= 0 for c in space)]})
    board.append({"label": "specialty cards", "items": on_spaces(
        "specialty_space", lay["specialty"], cat.describe_specialty_card, A["SPECIALTY"], per=5, moves=5)})
    board.append({"label": "gears", "items": [_web_gear(cat, x, actions=[A["GEAR"] + x])
                                              for x in s["gear_space"][:lay["gears"]] if x >= 0]})
    patronage = []
    for i, x in enumerate(s["patronage_space"]):
        if x >= 0:
            opens = rules["patronage_rounds"][i]
            patronage.append(_web_card(cat.describe_patronage(x), [A["PATRON_CARD"] + x],
                                       note=f"from round {opens}" if opens > s["round"] else ""))
    board.append({"label": "patronage cards", "items": patronage})
    rewards = []
    for k, reward in enumerate(rules["patronage_rewards"]):
        taken = s["patronage_reward_seat"][k]
        rewards.append({"kind": "chip", "text": _core._reward_text(reward["kind"], reward["amount"]),
                        "note": f"taken by {seat_label(taken, seat_names)}" if taken >= 0 else "",
                        "actions": [A["PATRON_REWARD"] + k], "dim": taken >= 0})
    board.append({"label": "patronage rewards", "items": rewards})
    board.append({"label": "bag", "items": _web_inks(s["bag"])})
    for label, field, describe, first in (
            ("draft: printing", "draft_printing", cat.describe_printing, A["PRINTING"]),
            ("draft: refinement", "draft_refinement", lambda x: _refinement_text(cat, x), A["REFINEMENT"]),
            ("drawn printing cards", "pool_printing", cat.describe_printing, A["PRINTING"]),
            ("drawn refinement cards", "pool_refinement", lambda x: _refinement_text(cat, x), A["REFINEMENT"]),
            ("gears drawn", "gear_pool", None, A["GEAR"])):
        xs = _core._bits(s[field])
        if xs:
            items = [_web_gear(cat, x, actions=[first + x]) if describe is None else
                     _web_card(describe(x), [first + x]) for x in xs]
            board.append({"label": label, "items": items})
    sections = [{"title": "Board", "groups": [g for g in board if g["items"]]}]
    if s["automa_seat"] >= 0:
        a = s["players"][s["automa_seat"]]
        groups = [{"label": "plan", "items": [{"kind": "chip", "text": f"{row} {n}"}
                                              for row, n in zip(names.ROWS, a["plan"])]},
                  {"label": "patronage cards", "items": [{"kind": "chip", "text": str(a["patronage"])}]}]
        if s["automa_card"] >= 0:
            groups.append({"label": "planning card", "items": [{"kind": "chip", "text": str(s["automa_card"])}]})
        sections.append({"title": f"Automa ({a['markers']} markers)", "groups": groups})
    seats = list(range(s["num_players"]))
    if 0 <= viewer < len(seats):
        seats.remove(viewer)
        seats.insert(0, viewer)
    for seat in seats:
        sections.append(_web_house(core, s, seat, viewer, seat_names))
    out: dict[str, Any] = {"heading": (f"Round {s['round']} of {s['rounds']}" if s["round"] else "Setup") + f" - {core.step_name()}",
           "sections": sections}
    legal = core.legal_actions() if core.current_player() == viewer else []
    plans = _plans(core, legal)
    if plans:
        markers = sum(next(iter(plans)))
        out["entry"] = {"kind": "numbers", "what": "plan", "labels": list(names.ROWS), "total": markers,
                        "max": 6, "example": _spread(markers),
                        "help": f"Place your {markers} initiative markers on the five actions (at most 6 on one)."}
    return out


def _web_house(core, s, seat: int, viewer: int, seat_names) -> dict:
    """One printing house for web_board, as `viewer` may see it."""
    A = _core.ACTIONS
    cat = core.rules.catalogue
    p = s["players"][seat]
    mine = viewer == seat
    groups = []
    who: list[dict[str, Any]] = []
    if p["character"] >= 0:
        who.append({"kind": "chip", "text": names.CHARACTERS[p["character"]],
                    "note": names.CHARACTER_ABILITIES[p["character"]]})
        if p["wild_ink"] >= 0:
            who.append({"kind": "ink", "colour": names.INKS[p["wild_ink"]], "note": "wild this round"})
    elif p["character_drawn"][0] >= 0:
        drawn = [x for x in p["character_drawn"] if x >= 0]
        if viewer < 0 or mine:
            who += [{"kind": "card", "id": names.CHARACTERS[x], "text": names.CHARACTER_ABILITIES[x],
                     "actions": [A["CHARACTER"] + x]} for x in drawn]
        else:
            who += [{"kind": "hidden", "text": "character tile"} for _ in drawn]
    if who:
        groups.append({"label": "character", "items": who})
    groups.append({"label": "fame", "items": [
        {"kind": "track", "value": p["fame"], "max": max(100, p["fame"]),
         "note": f"end scoring now: {core.final_scores()[seat]}"}]})
    groups.append({"label": "guilders", "items": [{"kind": "chip", "text": counted(p['guilders'], "guilder")}]})
    groups.append({"label": "types", "items": [{"kind": "letter", "text": letter, "actions": []}
                                               for letter, n in zip(names.LETTERS, p["types"]) for _ in range(n)]})
    groups.append({"label": "inks", "items": _web_inks(p["inks"])})
    groups.append({"label": "specialties", "items": [
        {"kind": "track", "label": sp, "value": v, "max": 6, "note": names.ROMAN[v]}
        for sp, v in zip(names.SPECIALTIES, p["levels"])] + [
        {"kind": "chip", "text": f"reward track {p['track']}"}]})
    orders = []
    for k in range(len(p["order_printing"])):
        if p["order_printing"][k] >= 0:
            orders.append({"kind": "order", "id": f"order {k + 1}",
                           "cards": [_web_card(cat.describe_printing(p["order_printing"][k])),
                                     _web_card(_refinement_text(cat, p["order_refinement"][k]))],
                           "actions": [A["FULFIL"] + k * 5 + m for m in range(5)] + [A["DISCARD"] + k]})
    groups.append({"label": "orders", "items": orders})
    gears = []
    for k, g in enumerate(p["gear"]):
        if g >= 0:
            gears.append(_web_gear(cat, g, p["gear_active"][k], used=bool(p["gear_used"][k]),
                                   actions=[A["USE_GEAR"] + k] + [A["REORIENT"] + k * 3 + o for o in range(3)]))
        elif mine:
            gears.append({"kind": "slot", "text": f"position {k + 1}",
                          "actions": [A["PLACE"] + k * 3 + o for o in range(3)]})
    groups.append({"label": "gears", "items": gears})
    groups.append({"label": "patronage cards", "items": [{"kind": "chip", "text": str(p["patronage"])}]})
    if s["round"] > 0 and p["markers"]:
        if viewer >= 0 and not core.plan_visible(seat, viewer):
            plan: list[dict[str, Any]] = [{"kind": "hidden", "text": "plan hidden until every plan is committed"}]
        elif any(p["plan"]):
            plan = [{"kind": "chip", "text": f"{row} {n}"} for row, n in zip(names.ROWS, p["plan"])]
        else:
            plan = [{"kind": "chip", "text": "not yet planned", "dim": True}]
        groups.append({"label": f"plan ({p['markers']} markers)", "items": plan})
    title = seat_label(seat, seat_names) + (" - first player" if seat == s["first_player"] else "")
    return {"title": title, "mine": mine, "seat": seat, "groups": groups}
