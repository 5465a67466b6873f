"""The table of Lead Letter Printers in words, as a viewer sees it: once, for the
observation strings of the core (CoreState.observation_string, str) and for the table
in the terminal (view.py), which lays the same parts out.

`parts(core, viewer)` gives the parts; `text(core, viewer)` the observation string. A
viewer of -1 sees everything; a player does not see the factories another player drew.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import names
from gutenberg_ai.common.words import counted


@dataclass
class Seat:
    """One player's boards: a summary line and labelled details."""
    seat: int
    summary: str
    brief: str                     # the summary without the order track and the agent
    details: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class Parts:
    heading: str                   # round, step and who acts
    order: str                     # player order and the storage's supply
    displays: list[tuple[str, list[str]]]   # (label, items): the shared displays
    seats: list[Seat]


def letters_text(core, tile: int) -> str:
    """The letters of a lead letter in the order of names.LETTERS ("." for none)."""
    if tile < 0:
        return "."
    on = core.rules.catalogue.letters_of(tile)
    return "".join(c for c in names.LETTERS if c in on)


def parts(core, viewer: int) -> Parts:
    """The table as `viewer` sees it (-1: everything)."""
    from . import _core
    N = _core.SIZES
    cat = core.rules.catalogue
    s = core.to_dict()
    R = names.RESOURCES
    heading = ((f"Player {viewer} sees. " if viewer >= 0 else "")
               + f"Round {core.round}, {core.step_name()}"
               + (f"; player {s['actor']} to act" if s["actor"] >= 0 else ""))
    order = ("Player order: " + " ".join(str(x) for x in s["order"][:s["num_players"]])
             + "; supply: " + ", ".join(f"{s['supply'][r]} {R[r]}" for r in range(len(R))))
    top = [f"the pile shows {_core._letters_text(s['letter_top'])} on top"] if s["letter_top"] >= 0 else []
    displays = [
        ("Typesetting table", [cat.describe_letter(x) if x >= 0 else "-" for x in s["table"]] + top),
        ("Trading tiles", [cat.describe_tile(x) if x >= 0 else "-" for x in s["face_tiles"]]),
    ]
    for lv in range(len(names.LEVELS)):
        displays.append((f"Technologies {names.LEVELS[lv]}",
                         [cat.describe_tech(x) if x >= 0 else "-" for x in s["tech_face"][lv]]))
    displays.append(("Orders", [cat.describe_order(x) if x >= 0 else "-" for x in s["order_display"]]))
    displays.append(("Contracts", [cat.describe_contract(x) if x >= 0 else "-" for x in s["contract_display"]]))
    displays.append(("City discs", [f"{cat.city_names[c]}: {cat.describe_disc(d)}"
                                    for c, d in enumerate(s["city_disc"]) if d >= 0]))
    if core.rules.factory_tops:
        # The piles lie face up: each top is in everyone's view.
        displays.append(("Factory piles", [f"{level}: " + (cat.describe_factory(s["factory_top"][lv])
                                                           if s["factory_top"][lv] >= 0 else "-")
                                           for lv, level in enumerate(names.LEVELS)]))
    drawn = [x for x in s["drawn"] if x >= 0]
    if drawn:
        if viewer in (-1, s["actor"]):
            displays.append(("Factories drawn", [cat.describe_factory(x) for x in drawn]))
        elif core.rules.factory_tops:
            # a pile's top, drawn first, was in everyone's view
            everyone = (1 << s["num_players"]) - 1
            seen = [cat.describe_factory(x) for x, k in zip(s["drawn"], s["drawn_seen"])
                    if x >= 0 and k & everyone == everyone]
            displays.append(("Factories drawn", seen + [f"{len(drawn) - len(seen)} (hidden)"]))
        else:
            displays.append(("Factories drawn", [f"{len(drawn)} (hidden)"]))
    seats = []
    for seat in range(s["num_players"]):
        p = s["players"][seat]
        brief = (f"{counted(p['points'], 'point')}, {counted(p['marks'], 'mark')}, "
                 + ", ".join(f"{p['res'][r]} {R[r]}" for r in range(len(R)))
                 + f"; workforce {p['workforce']}, capacity {p['capacity']}")
        one = Seat(seat, brief + f"; order track section {p['section']}; agent at {cat.node_name(p['agent'])}",
                   brief)
        one.details.append(("tradesmen", "; ".join(
            f"{core._cell(p['pos'][t])} room {names.ROOMS[p['room'][t]]} "
            f"{'upright' if p['upright'][t] else 'lying'}"
            for t in range(N['tradesmen']) if p["pos"][t] >= 0)))
        for k in range(N['stacks']):
            if p["stack_n"][k]:
                one.details.append((f"stack {k + 1}", ", ".join(
                    cat.describe_letter(x) for x in p["stack"][k][:p["stack_n"][k]])))
        built = [f"{cat.space_name(x)}: " + (cat.describe_tech(c) if c < N['technologies']
                                             else cat.describe_factory(c - N['technologies']))
                 for x, c in enumerate(p["up"]) if c >= 0]
        if built:
            one.details.append(("workshop", "; ".join(built)))
        sticks = [letters_text(core, x) for x in p["stick"]]
        one.details.append(("composing sticks", " / ".join(" ".join(sticks[i * 3:i * 3 + 3]) for i in range(3))))
        waiting = [cat.describe_order(x) for x in p["waiting"] if x >= 0]
        if waiting:
            one.details.append(("waiting", "; ".join(waiting)))
        stages = [f"{i + 1}: {cat.describe_order(x)}" for i, x in enumerate(p["stage"]) if x >= 0]
        if stages:
            one.details.append(("production", "; ".join(stages)))
        held = [f"{cat.describe_contract(c)} ({contract_place(cat, p, c)})"
                for c in range(N['contracts']) if (p["contracts"] >> c) & 1]
        if held:
            one.details.append(("contracts", "; ".join(held)))
        seats.append(one)
    return Parts(heading, order, displays, seats)


def contract_place(cat, p: dict, c: int) -> str:
    """Where a player's contract c lies: its slot of the workshop (1-4) or beside it, and
    the lead letter under it."""
    slots = list(p["slot_contract"])
    place = f"slot {slots.index(c) + 1}" if c in slots else "beside the workshop"
    if p["contract_letter"][c] >= 0:
        place += f", under it {cat.describe_letter(p['contract_letter'][c]).split(' (')[0]}"
    return place


# How each display's items are joined in the observation string.
_JOIN = {"Typesetting table": ", ", "City discs": ", "}


def text(core, viewer: int) -> str:
    """The observation string: the parts, a line each."""
    x = parts(core, viewer)
    lines = [x.heading, x.order]
    for label, items in x.displays:
        if label == "Typesetting table" and items and items[-1].startswith("the pile shows"):
            lines.append(f"{label}: " + ", ".join(items[:-1]) + "; " + items[-1])
        else:
            lines.append(f"{label}: " + _JOIN.get(label, "; ").join(items))
    for one in x.seats:
        lines.append(f"Player {one.seat}: {one.summary}")
        lines.extend(f"  {label}: {value}" for label, value in one.details)
    return "\n".join(lines)
