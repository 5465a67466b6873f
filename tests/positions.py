"""Hand-made positions for the rules tests.

A position is built as the dict of `CoreState.to_dict()`, starting from a blank table
(every card in its deck, all 48 inks in the bag, nothing on the board) and edited with
the helpers below, each of which moves things from one place to another so that every
card stays in exactly one place and the inks still add up to 12 of each colour. The
finishers (`at_turn`, `at_fulfil`, `at_phase`) put a player at a decision point and
return the validated state (`Rules.state_from_dict`).

Names are the game's words (letters "A", inks "blue", specialties "typesetting", ...);
the helpers turn them into the core's numbers.
"""
from __future__ import annotations

import functools

from gutenberg_ai.games.gutenberg import _core
from gutenberg_ai.games.gutenberg.catalogue import load_catalogue
from gutenberg_ai.games.gutenberg.names import CHARACTERS, INKS, LETTERS, SPECIALTIES

A = _core.ACTIONS
C = _core.CHANCE_OUTCOMES
PH = _core.PHASES
SUB = _core.SUBS
PD = _core.PENDING
FM = _core.FULFIL_MODES
PASS = A["PASS"]

ORDERS, INK_ROW, SPECIALTY_ROW, GEAR_ROW, PATRONAGE_ROW = range(5)
ROW_NAMES = {"orders": ORDERS, "inks": INK_ROW, "specialties": SPECIALTY_ROW,
             "gears": GEAR_ROW, "patronage": PATRONAGE_ROW}


# ---------------------------------------------------------------------------------------
# The game's components.
# ---------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=None)
def catalogue():
    return load_catalogue()


@functools.lru_cache(maxsize=None)
def rules(players=2, rounds=6, characters=False, automa=False):
    """`players` counts the people; with `automa` the automa takes the seat after theirs."""
    return _core.Rules(catalogue(), players=players, rounds=rounds, characters=characters,
                       automa=automa)


def counts(spec, names) -> list:
    """A count per name from "AIO"-style text, a {name: n} dict, a list of names or a
    list of 4 numbers."""
    if spec is None:
        return [0] * len(names)
    if isinstance(spec, str):
        spec = [spec] if spec in names else list(spec)
    if isinstance(spec, dict):
        out = [0] * len(names)
        for k, v in spec.items():
            out[names.index(k)] += v
        return out
    spec = list(spec)
    if spec and all(isinstance(v, int) for v in spec):
        assert len(spec) == len(names), spec
        return spec
    out = [0] * len(names)
    for k in spec:
        out[names.index(k)] += 1
    return out


def ink(name):
    return INKS.index(name)


def letter(name):
    return LETTERS.index(name)


def specialty(name):
    return SPECIALTIES.index(name)


def bits(mask):
    return [i for i in range(64) if mask >> i & 1]


def find_gear(kind, indicates=None, players=2):
    """(gear id, sector) of a gear with a sector of `kind` (usable with `players`),
    indicating exactly `indicates` (a tuple of names) when given."""
    for g in catalogue().gears:
        if g.white_line and players == 2:
            continue
        for o, sec in enumerate(g.sectors):
            if sec.reward == kind and (indicates is None or tuple(sec.indicates) == tuple(indicates)):
                return g.id, o
    raise LookupError(f"no gear with a {kind} sector {indicates or ''}")


def refinement_where(pred):
    """Ids of refinement cards (catalogue objects) satisfying pred."""
    return [c.id for c in catalogue().refinement if pred(c)]


# ---------------------------------------------------------------------------------------
# A blank table and the moves that build a position on it.
# ---------------------------------------------------------------------------------------
_PILES = {
    "printing": ("printing_deck", "printing_discard"),
    "refinement": ("refinement_deck", "refinement_discard"),
    "specialty": ("specialty_deck", "specialty_discard"),
    "gear": ("gear_deck", "gear_discard"),
}


def blank(rules, round=1, first_player=0, types="AIO", guilders=10):
    """The table between rounds: all cards in their decks, all inks in the bag, every
    player with `types` and `guilders`, initiative markers 7, 8, ... from the first player.
    An automa holds nothing; its markers stay on its board (set them with `automa`)."""
    d = rules.new_state().to_dict()
    n = d["num_seats"]
    d.update(round=round, first_player=first_player, phase=PH["PLAN"], step=0, sub=SUB["CHOOSE"])
    for seat in range(n):
        p = d["players"][seat]
        p["markers"] = 7 + (seat - first_player) % n
        if seat == d["automa_seat"]:
            continue
        p["types"] = counts(types, LETTERS)
        p["guilders"] = guilders
    return d


def humans(d):
    """The people's seats in seat order from the first player (the automa skipped)."""
    n = d["num_seats"]
    return [(d["first_player"] + k) % n for k in range(n)
            if (d["first_player"] + k) % n != d["automa_seat"]]


def automa(d, plan=None, card=None):
    """Set the automa's initiative markers (as many as its seat has this round) and this
    round's planning card (taken out of its deck)."""
    seat = d["automa_seat"]
    assert seat >= 0, "no automa in this game"
    p = d["players"][seat]
    if plan is not None:
        assert sum(plan) == p["markers"], f"the automa has {p['markers']} markers, not {sum(plan)}"
        p["plan"] = list(plan)
    if card is not None:
        d["automa_card"] = card
        d["automa_deck"] &= ~(1 << card)
    return d


def character(d, seat, name, wild=None):
    """Give a player a character tile (a name from names.CHARACTERS, or its surname);
    `wild` is Caxton's wild ink colour this round."""
    x = next(i for i, full in enumerate(CHARACTERS) if name in (full, full.split()[-1]))
    d["players"][seat]["character"] = x
    d["character_pool"] &= ~(1 << x)
    if wild is not None:
        d["players"][seat]["wild_ink"] = ink(wild)
    return d


def take(d, kind, card):
    """Take a card out of its deck (or its discard pile) to put it somewhere else."""
    deck, discard = _PILES[kind]
    if d[deck] >> card & 1:
        d[deck] &= ~(1 << card)
    elif d[discard] >> card & 1:
        d[discard] &= ~(1 << card)
    else:
        raise ValueError(f"{kind} card {card} is neither in the deck nor in the discard pile")
    return card


def to_discard(d, kind, *cards):
    deck, discard = _PILES[kind]
    for card in cards:
        take(d, kind, card)
        d[discard] |= 1 << card
    return d


def only_in_deck(d, kind, cards):
    """Leave exactly `cards` in the deck: the others still in it go to the discard pile."""
    deck, discard = _PILES[kind]
    keep = 0
    for c in cards:
        keep |= 1 << c
    assert d[deck] & keep == keep, "some of those cards are not in the deck"
    d[discard] |= d[deck] & ~keep
    d[deck] = keep
    return d


def board(d, printing=(), refinement=(), specialty=(), gears=(), inks=(), patronage=None):
    """Lay out the main board. `inks` is a list of ink sets, each a sequence of three
    colour names (None for an ink already taken), drawn from the bag."""
    for i, x in enumerate(printing):
        d["printing_space"][i] = take(d, "printing", x)
    for i, x in enumerate(refinement):
        d["refinement_space"][i] = take(d, "refinement", x)
    for i, x in enumerate(specialty):
        d["specialty_space"][i] = take(d, "specialty", x)
    for i, x in enumerate(gears):
        d["gear_space"][i] = take(d, "gear", x)
    for i, colours in enumerate(inks):
        for k, name in enumerate(colours):
            if name is None:
                d["ink_space"][i][k] = -1
            else:
                c = ink(name)
                assert d["bag"][c] > 0, f"no {name} ink left in the bag"
                d["bag"][c] -= 1
                d["ink_space"][i][k] = c
    for space, x in (patronage or {}).items():
        assert d["patronage_box"] >> x & 1, f"patronage card {x} is not in the box"
        d["patronage_box"] &= ~(1 << x)
        d["patronage_space"][space] = x
    return d


def player(d, seat, *, types=None, guilders=None, fame=None, levels=None, track=None,
           inks=None, plan=None, markers=None, patronage=None):
    """Edit one player. `levels` is a {specialty: level} dict (others 0) and sets the
    reward track to the spaces those levels have reached unless `track` is given; `inks`
    are taken from the bag (the player's old inks go back first)."""
    p = d["players"][seat]
    if types is not None:
        p["types"] = counts(types, LETTERS)
    if guilders is not None:
        p["guilders"] = guilders
    if fame is not None:
        p["fame"] = fame
    if levels is not None:
        p["levels"] = counts(levels, SPECIALTIES) if not isinstance(levels, dict) else \
            [levels.get(s, 0) for s in SPECIALTIES]
        if track is None:
            top = max(p["levels"])
            track = sum(1 for t in catalogue().reward_track if t.level <= top)
    if track is not None:
        p["track"] = track
    if inks is not None:
        for c in range(4):
            d["bag"][c] += p["inks"][c]
        p["inks"] = counts(inks, INKS)
        for c in range(4):
            d["bag"][c] -= p["inks"][c]
            assert d["bag"][c] >= 0, f"not enough {INKS[c]} ink in the bag"
    if plan is not None:
        p["plan"] = list(plan)
    if markers is not None:
        p["markers"] = markers
    if patronage is not None:
        # Taken patronage cards leave the game: they come out of the box.
        for _ in range(patronage - p["patronage"]):
            x = bits(d["patronage_box"])[0]
            d["patronage_box"] &= ~(1 << x)
        p["patronage"] = patronage
    return d


def give_order(d, seat, printing, refinement, slot=None):
    """Put the order (printing card, refinement card) into a free slot of the player."""
    p = d["players"][seat]
    if slot is None:
        slot = p["order_printing"].index(-1)
    assert p["order_printing"][slot] < 0, f"slot {slot} of seat {seat} is taken"
    p["order_printing"][slot] = take(d, "printing", printing)
    p["order_refinement"][slot] = take(d, "refinement", refinement)
    return d


def install_gear(d, seat, gear, active=0, used=False, pos=None):
    """Install a gear at the player's next gear position (or `pos`) with sector `active`
    next to the mark."""
    p = d["players"][seat]
    if pos is None:
        pos = p["gear"].index(-1)
    p["gear"][pos] = take(d, "gear", gear)
    p["gear_active"][pos] = active
    if used:
        p["gear_used"][pos] = 1
        p["gear_uses"] += 1
    return d


# ---------------------------------------------------------------------------------------
# Finishers: the decision point and the validated state.
# ---------------------------------------------------------------------------------------
def check_cards(rules, d):
    """Every card in exactly one place (the core's own check finds only duplicates)."""
    n = d["num_seats"]
    where = {"printing": [], "refinement": [], "specialty": [], "gear": []}
    for kind, (deck, discard) in _PILES.items():
        where[kind] += bits(d[deck]) + bits(d[discard])
    where["printing"] += [x for x in d["printing_space"] if x >= 0]
    where["printing"] += bits(d["draft_printing"]) + bits(d["pool_printing"])
    where["refinement"] += [x for x in d["refinement_space"] if x >= 0]
    where["refinement"] += bits(d["draft_refinement"]) + bits(d["pool_refinement"])
    where["specialty"] += [x for x in d["specialty_space"] if x >= 0]
    where["gear"] += [x for x in d["gear_space"] if x >= 0]
    for seat in range(n):
        p = d["players"][seat]
        where["printing"] += [x for x in p["order_printing"] if x >= 0]
        where["refinement"] += [x for x in p["order_refinement"] if x >= 0]
        where["gear"] += [x for x in p["gear"] if x >= 0]
    cat = catalogue()
    expect = {
        "printing": range(len(cat.printing)),
        "refinement": range(len(cat.refinement)),
        "specialty": range(len(cat.specialty_cards)),
        "gear": [g.id for g in cat.gears if not (g.white_line and n == 2)],
    }
    for kind, ids in where.items():
        assert sorted(ids) == sorted(expect[kind]), f"{kind} cards misplaced"


def state(rules, d):
    check_cards(rules, d)
    return rules.state_from_dict(d)


def at_turn(rules, d, row, order, sub=None, turn=0):
    """A turn at `row` (a number or its name); `order` is the turn order of the row (the
    seats with markers on it). Each of them gets markers on the row if none are set."""
    row = ROW_NAMES.get(row, row)
    order = list(order)
    for i, seat in enumerate(order):
        if d["players"][seat]["plan"][row] == 0:
            d["players"][seat]["plan"][row] = len(order) - i
    d.update(phase=PH["TURN"], row=row, n_turns=len(order), turn=turn,
             sub=SUB["CHOOSE"] if sub is None else sub, step=d["num_seats"])
    d["turn_order"] = order + [0] * (4 - len(order))
    return state(rules, d)


def turn_position(rules, seat, row, d=None, order=None, **fields):
    """`seat`'s turn at `row`, then the other seats (in seat order after it) unless
    `order` says otherwise. `fields` are top-level edits (round=3, ...)."""
    if d is None:
        d = blank(rules, round=fields.pop("round", 1), first_player=fields.pop("first_player", 0))
    d.update(fields)
    n = d["num_seats"]
    if order is None:
        order = [seat] + [(seat + k) % n for k in range(1, n)]
    return at_turn(rules, d, row, order)


def at_fulfil(rules, d, seat):
    """`seat`'s Fulfill turn: its first held order is up for a decision."""
    p = d["players"][seat]
    held = [k for k in range(4) if p["order_printing"][k] >= 0]
    d.update(phase=PH["FULFIL"], step=humans(d).index(seat),
             fulfil_slot=held[0] if held else FM["FINISH_SLOT"], fulfil_mode=[-1] * 4,
             n_turns=0, turn=0, sub=SUB["CHOOSE"])
    return state(rules, d)


def fulfil_position(rules, seat, d=None, **fields):
    if d is None:
        d = blank(rules, round=fields.pop("round", 1), first_player=fields.pop("first_player", 0))
    d.update(fields)
    return at_fulfil(rules, d, seat)


def at_phase(rules, d, phase, **fields):
    d.update(phase=PH[phase], **fields)
    return state(rules, d)


def at_end(rules, guilders=10, **seats):
    """The end of a 6-round game from a blank table (every player with `guilders`); each
    `pN=dict(...)` edits seat N (`player`)."""
    d = blank(rules, round=6, guilders=guilders)
    for seat, edits in seats.items():
        player(d, int(seat[1:]), **edits)
    return at_phase(rules, d, "TERMINAL")


# ---------------------------------------------------------------------------------------
# Reading a state.
# ---------------------------------------------------------------------------------------
def me(s, seat):
    return s.to_dict()["players"][seat]


def pending(s):
    d = s.to_dict()
    return d["pending"][:d["n_pending"]]


def chance_all(s, pick=0):
    """Resolve chance nodes with the `pick`-th outcome (0: the lowest) until a player decides."""
    while s.is_chance():
        outs = s.chance_outcomes()
        s.apply(outs[min(pick, len(outs) - 1)][0])
    return s


# ---------------------------------------------------------------------------------------
# Actions in the game's words.
# ---------------------------------------------------------------------------------------
def take_printing(x):
    return A["PRINTING"] + x


def take_refinement(x):
    return A["REFINEMENT"] + x


def take_inks(space, k):
    return A["INKS"] + space * 3 + k - 1


def develop(card, up=None):
    """Use specialty card `card`: its icons, or +1 to specialty `up`."""
    return A["SPECIALTY"] + card * 5 + (0 if up is None else 1 + specialty(up))


def take_gear(x):
    return A["GEAR"] + x


def place(pos, sector):
    return A["PLACE"] + pos * 3 + sector


def reorient(pos, sector):
    return A["REORIENT"] + pos * 3 + sector


def patron_reward(k):
    return A["PATRON_REWARD"] + k


def patron_card(x):
    return A["PATRON_CARD"] + x


def discard(slot):
    return A["DISCARD"] + slot


def buy(name):
    return A["BUY"] + letter(name)


def use_gear(pos):
    return A["USE_GEAR"] + pos


def fulfil(slot, mode):
    return A["FULFIL"] + slot * 5 + FM[mode.upper()]


def choose_ink(name):
    return A["INK"] + ink(name)


def choose_letter(name):
    return A["LETTER"] + letter(name)


def up(name):
    return A["SPECIALTY_UP"] + specialty(name)


MORE_PP, MORE_RR, MORE_PR = A["MORE"], A["MORE"] + 1, A["MORE"] + 2
REWARD_ORDER, REWARD_SPECIALTY, REWARD_GUILDERS, REWARD_INKS = range(4)


def play_until(s, pred, seed=0):
    """Play seeded random moves (chance by the core's sampler) until pred(s)."""
    import random
    rng = random.Random(seed)
    while not pred(s):
        assert not s.is_terminal(), "the game ended first"
        if s.is_chance():
            s.apply(s.sample_chance(rng.getrandbits(64)))
        else:
            s.apply(rng.choice(s.legal_actions()))
    return s


def in_window(s):
    """Whether `s` is a free-action window before the plans (no pending decision)."""
    d = s.to_dict()
    return d["phase"] == PH["PLAN"] and d["sub"] >= 0 and d["n_pending"] == 0


def to_plans(s):
    """Close the free-action windows before the plans with "done" (no free action taken)."""
    while in_window(s):
        s.apply(PASS)
    return s


def setup_to_plan(rules, seed=0):
    """A real game after its setup: round 1, the first player about to plan (every
    player's free-action window before the plans closed unused)."""
    return to_plans(play_until(rules.new_state(), lambda s: s.phase == "plan", seed))
