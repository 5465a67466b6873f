"""Building Lead Letter Printers positions for tests: a game after its setup with chosen
draws, and positions written by hand into a state's dict (checked by state_from_dict,
which keeps every component in one place and the resources and money conserved).

Components are named by their printed numbers (1-based), as in the catalogue and in
action strings; shops by their names; workshop spaces by their ids ("4t").
"""
import random

from gutenberg_ai.games.lead_letter_printers import _core, default_catalogue, make_rules, names
from every_game import edit  # noqa: F401  (the rules tests import it from here)

A = _core.ACTIONS
C = _core.CHANCE_OUTCOMES
PH = _core.PHASES
F = _core.FRAMES
RES = {name: i for i, name in enumerate(names.RESOURCES)}
EFFECT = {name: i for i, name in enumerate(names.EFFECTS)}
LEVEL = {name: i for i, name in enumerate(names.LEVELS)}


def cat():
    return default_catalogue()


def rules(players=2, **params):
    return make_rules({"players": players, **params})


def space(sid):
    """The index of workshop space "4t" (column 4, top)."""
    return [s["id"] for s in cat().data["workshop"]].index(sid)


def shop(name):
    return [s["name"] for s in cat().data["shops"]].index(name)


def cell_of(players, name):
    """The city board cell r * 4 + c of a shop for this player count."""
    grid = cat().data["city_board"][str(players)]
    number = shop(name) + 1
    for r, row in enumerate(grid):
        for c, x in enumerate(row):
            if x == number:
                return r * 4 + c
    raise ValueError(f"{name} is not on the {players}-player board")


def city(name):
    return cat().city_names.index(name)


def tech(number):
    return number - 1


def letters_tile(text, resources=None):
    """The index of a lead letter with these letters (and resources, a dict)."""
    for i, x in enumerate(cat().data["lead_letters"]):
        if x["letters"] == text and (resources is None or x["resources"] == resources):
            return i
    raise ValueError(text)


def after_setup(players=2, seed=1):
    """A game played to the first turn of the Action phase: chance by the seed, each
    tradesman into the first shop offered."""
    R = rules(players)
    s = R.new_state()
    rng = random.Random(seed)
    while s.phase != "Action phase" or s.is_chance() or s.frame() is not None:
        if s.is_chance():
            outs = s.chance_outcomes()
            s.apply(rng.choices([o for o, _ in outs], [p for _, p in outs])[0])
        else:
            legal = s.legal_actions()
            s.apply(legal[-1] if legal[0] == A["PASS"] and len(legal) > 1 else legal[0])
    return R, s


def give(d, seat, paper=None, lead=None, ink=None, marks=None):
    """Set a player's resources and marks, the supply and the bank keeping the totals."""
    p = d["players"][seat]
    for r, v in enumerate((paper, lead, ink)):
        if v is not None:
            d["supply"][r] += p["res"][r] - v
            p["res"][r] = v
    if marks is not None:
        d["bank"] += p["marks"] - marks
        p["marks"] = marks


def frame(kind, n=1, arg=0, a=-1, b=-1, c=0, d=0, kind2=-1):
    return {"kind": F[kind], "kind2": kind2, "n": n, "arg": arg, "a": a, "b": b, "c": c, "d": d}


def set_frames(d, seat, *frames):
    """The seat is acting with these frames waiting (the last on top)."""
    d["actor"] = seat
    d["n_frames"] = len(frames)
    for i, f in enumerate(frames):
        d["frames"][i] = f


def move_tile(d, code, kind):
    """Take a technology / factory / order / letter out of wherever the pile holds it (so
    that it can be placed by hand)."""
    if kind == "tech":
        d["tech_pile"] &= ~(1 << code)
        for lv in range(4):
            d["tech_face"][lv] = [-1 if x == code else x for x in d["tech_face"][lv]]
    elif kind == "factory":
        d["factory_pile"] &= ~(1 << code)
        if "factory_top" in d:      # a pile's top in view: the next comes into view at a draw
            d["factory_top"] = [-1 if x == code else x for x in d["factory_top"]]
    elif kind == "order":
        d["order_pile"] &= ~(1 << code)
        d["order_display"] = [-1 if x == code else x for x in d["order_display"]]
    elif kind == "letter":
        d["letter_pile"] &= ~(1 << code)
        d["letter_discard"] &= ~(1 << code)
        d["table"] = [-1 if x == code else x for x in d["table"]]
        for p in d["players"]:
            for k in range(2):
                n = p["stack_n"][k]
                st = [x for x in p["stack"][k][:n] if x != code]
                p["stack"][k] = st + [-1] * (16 - len(st))
                p["stack_n"][k] = len(st)
    elif kind == "contract":
        d["contract_pile"] &= ~(1 << code)
        d["contract_display"] = [-1 if x == code else x for x in d["contract_display"]]
    elif kind == "disc":
        d["disc_pile"] &= ~(1 << code)
        d["city_disc"] = [-1 if x == code else x for x in d["city_disc"]]


def push_letter(d, seat, code, stack=0):
    move_tile(d, code, "letter")
    p = d["players"][seat]
    p["stack"][stack][p["stack_n"][stack]] = code
    p["stack_n"][stack] += 1


def unseen_put_back(s, player):
    """The factories put back under the piles that `player` has not seen."""
    d = s.to_dict()
    return [d["factory_bottom"][lv][i] for lv in range(4) for i in range(d["factory_bottom_n"][lv])
            if not (d["factory_bottom_seen"][lv][i] >> player) & 1]


def factory_minded_step(s, rng, keen=None):
    """One seeded random step of core state `s`, building a factory where the game offers
    one (with probability `keen`, or always) so that hidden factories come up quickly.
    Returns (actor, action): actor -1 for a draw."""
    if s.is_chance():
        outs = s.chance_outcomes()
        a, actor = rng.choices([o for o, _ in outs], [p for _, p in outs])[0], -1
    else:
        legal = s.legal_actions()
        want = [x for x in legal if A["FACTORY_PILE"] <= x < A["UP"]]
        a, actor = (rng.choice(want) if want and (keen is None or rng.random() < keen) else rng.choice(legal)), \
            s.current_player()
    s.apply(a)
    return actor, a


def position_with_hidden_factories(players=2, player=0):
    """A random game up to a decision after another player has put factories back unseen."""
    for seed in range(400):
        R = make_rules({"players": players})
        s = R.new_state()
        rng = random.Random(seed)
        history = []
        while not s.is_terminal():
            history.append(factory_minded_step(s, rng, keen=0.9))
            if not s.is_chance() and not s.is_terminal() and len(unseen_put_back(s, player)) >= 2:
                return R, s, history
    raise LookupError("no position with hidden factories found")
