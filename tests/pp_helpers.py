"""Building Printing Press positions for tests: the setup played with chosen draws, and
tableaux written by hand into a state's dict (checked by state_from_dict).

Cards, frames and plates are named by their printed numbers (1-based), as in the
catalogue and in action strings; symbols by their names (names.SYMBOLS).
"""
from gutenberg_ai.games.printing_press import _core, default_catalogue, make_rules, names
from every_game import edit  # noqa: F401  (the rules tests import it from here)

A = _core.ACTIONS
C = _core.CHANCE_OUTCOMES
PH = _core.PHASES
SUB = _core.SUBS
HELD = _core.HELD
SLOT = _core.SLOTS
CELL = _core.CELL
SYM = {name: i for i, name in enumerate(names.SYMBOLS)}
CH = {name.split()[-1]: i for i, name in enumerate(names.CHARACTERS)}   # "Caxton" -> 2
N = 12
EMPTY = -1
ICON = CELL["INITIATIVE"]
BLANK = CELL["BLANK"]
TOKEN = CELL["TOKEN"]
ABILITY = CELL["ABILITY"]


def cat():
    return default_catalogue()


def rules(players=2, **params):
    return make_rules({"players": players, **params})


def anchor(r, c):
    return _core.anchor(r, c)


def place(orientation, r, c):
    """A_PLACE for orientation 0 (row) / 1 (column) / 2, 3 (turned around) at (r, c)."""
    return _core.place_action(orientation, r, c)


def token_at(r, c):
    return A["TOKEN_AT"] + anchor(r, c)


def window(r, c):
    return A["WINDOW"] + anchor(r, c)


def under(r, c):
    return A["UNDER"] + anchor(r, c)


def take(number):
    return A["TAKE"] + number - 1


def order(frame_number):
    return A["ORDER"] + frame_number - 1


def card_number_with(squares, orientation=None):
    """The printed number of a catalogue card with exactly these squares (in order)."""
    for c in cat().cards:
        if list(c.squares) == list(squares) and (orientation is None or c.orientation == orientation):
            return c.number
    raise LookupError(squares)


def cards_where(pred):
    return [c.number for c in cat().cards if pred(c)]


def chance(s, outcome):
    assert s.is_chance(), s.step_name()
    legal = [o for o, _ in s.chance_outcomes()]
    assert outcome in legal, (s.step_name(), outcome, legal)
    s.apply(outcome)


def setup(R, tiles=None, sides=None, tokens=None, solo=None, character=None):
    """Play the setup with chosen draws and choices: tiles[seat] (a character's last
    name), sides[seat] ("A"/"B"), tokens[seat] (symbol names), solo (9 symbol names for
    the solo board), character (the solo player's). Returns the state when the first
    order is to be dealt (or Bonhomme's question before it)."""
    s = R.new_state()
    n = R.players
    if R.players == 1:
        solo = solo or ["A", "blue", "typesetting", "red", "woodcutting", "I", "binding", "O", "yellow"]
        for name in solo:
            chance(s, C["SOLO"] + SYM[name])
        if R.characters:
            s.apply(A["CHARACTER"] + CH[character or "Guillard"])
    elif R.characters:
        tiles = tiles or ["Guillard", "Caxton", "Ungler", "Gutenberg"][:n]
        for name in tiles:
            chance(s, C["TILE"] + CH[name])
    if R.characters:
        sides = sides or ["A"] * n
        while s.phase == "character sides":
            seat = s.current_player()
            s.apply(A["SIDE"] + names.SIDES.index(sides[seat]))
    tokens = tokens or [["A", "blue", "typesetting", "I"][:4] for _ in range(n)]
    while s.phase == "setup tokens":
        seat = _core_seat_needing_token(s)
        have = s.to_dict()["players"][seat]["n_setup"]
        chance(s, C["SETUP"] + seat * N + SYM[tokens[seat][have]])
    return s


def _core_seat_needing_token(s):
    outcome = s.chance_outcomes()[0][0]
    return (outcome - C["SETUP"]) // N


def deal_orders(s, pairs):
    """Deal the orders [(frame number, plate number), ...]."""
    for f, _ in pairs:
        chance(s, C["FRAME"] + f - 1)
    for _, p in pairs:
        chance(s, C["PLATE"] + p - 1)


def deal_cards(s, numbers):
    for x in numbers:
        chance(s, C["CARD"] + x - 1)


def take_orders(s, players):
    """Deal orders (frame and plate 1, 2, ...: players + 1 of them) and let each player
    take the first one left; returns s at the first Select Cards deal."""
    deal_orders(s, [(f, f) for f in range(1, players + 2)])
    while s.phase == "Select Orders":
        s.apply(first_main(s))
    return s


def pass_token_windows(s):
    """Close every token window before the step's order with no token placed."""
    while s.to_dict()["token_window"] >= 0:
        assert A["DONE"] in s.legal_actions()
        s.apply(A["DONE"])


def cell(spec):
    """A cell from a short spec: a symbol name, "*" (an initiative icon), "-" (a blank
    square), None (empty); "t:" before a symbol for a token shown symbol side up, "t:*"
    for a token initiative side up (see put_tokens), "g:" for Guillard's token."""
    if spec is None:
        return EMPTY
    if spec.startswith("t:"):
        rest = spec[2:]
        return TOKEN | (ICON if rest == "*" else SYM[rest])
    if spec.startswith("g:"):
        return ABILITY | SYM[spec[2:]]
    if spec == "*":
        return ICON
    if spec == "-":
        return BLANK
    return SYM[spec]


def with_tableau(R, s, seat, rows, down_symbols=()):
    """A copy of state s where `seat`'s current tableau is `rows` (lists of cell specs,
    top-left at (0, 0)). Tokens shown symbol side up come out of the bag; tokens
    initiative side up ("t:*") take their symbols from down_symbols, also out of the bag
    (recorded as drawn tokens placed face down)."""
    d = s.to_dict()
    p = d["players"][seat]
    grid = [[EMPTY] * _core.GRID_SIZE for _ in range(_core.GRID_SIZE)]
    downs = list(down_symbols)
    pieces = 0
    for r, row in enumerate(rows):
        for c, spec in enumerate(row):
            v = cell(spec)
            grid[r][c] = v
            pieces += v >= 0
            if v >= 0 and v & TOKEN:
                if (v & CELL["BASE"]) == ICON:
                    x = SYM[downs.pop(0)]
                    p["hidden_out"][x] += 1
                else:
                    x = v & CELL["BASE"]
                d["bag"][x] -= 1
    assert not downs, "more down_symbols than face-down tokens"
    p["grid"] = grid
    p["height"] = len(rows)
    p["width"] = max(len(row) for row in rows) if rows else 0
    p["pieces"] = pieces
    return R.state_from_dict(d)


def is_free(a):
    """Setup tokens, Guillard's token, Caxton's exchange: the free actions."""
    return A["SETUP_UP"] <= a < A["CAXTON_TAKE"]


def first_main(s):
    """The first legal action that is not a free action."""
    return next(a for a in s.legal_actions() if not is_free(a))


def play_until(s, phase, policy=first_main):
    """Advance with `policy(s)` (the first legal action that is not a free action) and the
    first chance outcome until the phase is reached."""
    while s.phase != phase:
        assert not s.is_terminal()
        if s.is_chance():
            s.apply(s.chance_outcomes()[0][0])
        else:
            s.apply(policy(s))
    return s


def legal_in(s, lo, n):
    return [a for a in s.legal_actions() if lo <= a < lo + n]


def row_card(pred=lambda c: True):
    return cards_where(lambda c: c.orientation == "row" and pred(c))[0]


def column_card(pred=lambda c: True):
    return cards_where(lambda c: c.orientation == "column" and pred(c))[0]


def at_place(R, card, rows=None, tiles=None, sides=None, down_symbols=()):
    """The state where the first player of Select Cards step 1 has taken `card` (a printed
    number), with that player's tableau replaced by `rows` if given. Returns (state, seat)."""
    s = setup(R, tiles=tiles or ["Guillard", "Gutenberg", "Ungler", "Caxton"][:R.players], sides=sides)
    take_orders(s, R.players)
    others = [x for x in range(1, 91) if x != card][:R.players]
    deal_cards(s, [card] + others)
    while s.to_dict()["asking"] >= 0:
        s.apply(A["NO"])
    seat = s.current_player()
    s.apply(take(card))
    if rows is not None:
        s = with_tableau(R, s, seat, rows, down_symbols)
    return s, seat


def caxton_b_to_choose():
    """2 players: Guillard (side A, tokens A I O) and Caxton (side B, tokens red U grey),
    three orders dealt, Guillard has chosen first; Caxton, with a free action, to choose."""
    s = setup(rules(2), tiles=["Guillard", "Caxton"], sides=["A", "B"],
              tokens=[["A", "I", "O"], ["red", "U", "grey"]])
    deal_orders(s, [(1, 1), (2, 2), (3, 3)])
    s.apply(first_main(s))                      # Guillard chooses first
    return s



P8_TILES = {"anna": "Guillard", "kate": "Ungler", "john": "Gutenberg", "tom": "Caxton"}


def p8_table(seats=("anna", "kate", "john", "tom"), tokens=None):
    """p.8's table at a Select Cards step, its cards dealt: Anna 2 (1 cube + 1 icon on a
    card), Kate 1 (a cube), John 1 (an icon on a token), Tom 0, each with the tile of the
    example (Anna Guillard, Kate Ungler, John Gutenberg, Tom Caxton); `seats` names who
    sits where, `tokens` the setup tokens (setup's). Returns (R, s, {name: seat})."""
    R = rules(4)
    at = {name: seat for seat, name in enumerate(seats)}
    s = take_orders(setup(R, tiles=[P8_TILES[name] for name in seats], tokens=tokens), 4)

    def cubes(d):
        for name, seat in at.items():
            d["players"][seat]["cubes"] = 1 if name in ("anna", "kate") else 0
        d["cubes_left"] = 5
    s = edit(R, s, cubes)
    s = with_tableau(R, s, at["anna"], [["A", "*", "blue"]])
    s = with_tableau(R, s, at["kate"], [["O", "red", "grey"]])
    s = with_tableau(R, s, at["john"], [["O", "red", "grey", "t:*"]], down_symbols=["U"])
    s = with_tableau(R, s, at["tom"], [["I", "yellow", "binding"]])
    assert [s.initiative(at[name]) for name in ("anna", "kate", "john", "tom")] == [2, 1, 1, 0]
    deal_cards(s, [10, 20, 30, 40, 50])
    return R, s, at
