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

from rich import box
from rich.console import Group
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
    types = " ".join(letter * n for letter, n in zip(names.LETTERS, p["types"]) if n)
    add("types", types or Text("none", style="dim"))
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


def hints_table(hints, numbers=None, title="Hints", line_steps: int = 2, solo: bool = False) -> Table:
    """Hints (gutenberg_ai.Hint) as a table, each move with the first steps of the line
    the search expects after it; `numbers` maps an action to its menu number. Solo
    there is nobody to beat: no win column, the expected fame says it all."""
    t = Table(title=_cell(title), title_justify="left", box=box.SIMPLE_HEAD)
    if numbers is not None:
        t.add_column("#", justify="right", style="bold green")
    t.add_column("move (then, as the search expects)", ratio=1)
    t.add_column("searched", justify="right")
    if not solo:
        t.add_column("win", justify="right", style="bold")
    t.add_column("fame", justify="right")
    for h in hints:
        cells = [] if numbers is None else [str(numbers.get(h.action, "?"))]
        fame = "-" if h.expected_fame is None else f"{h.expected_fame:.0f}"
        move = Text(h.text)
        for step in h.line[:line_steps]:
            move.append(f"\n  then {step}", style="dim")
        win = [] if solo else [_pct(h.win_probability)]
        t.add_row(*cells, move, f"{h.share:.0%}", *win, fame)
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
