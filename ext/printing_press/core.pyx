# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled rules of Printing Press (Granna, 2023): one C struct per state, rule
functions without the GIL.

Sequence of a game (rulebook: Game Preparation, Sequence of Play, Solo Variant):

    setup: character tiles (chance; solo: chosen), sides, the solo board (chance, solo),
    setup tokens (chance, seen by their owner only) -> 3 x [Bonhomme's cube (side B),
    Select Orders (chance deal, then picks), 6 (advanced: 5) x Select Cards (chance deal,
    then each player takes a card and places it, or discards it, draws 3 tokens (chance)
    and places one of them), bonus markers after the round's marked step, Close Frames
    (each player chooses the 3x3 window; the round is scored)] -> end bonus.

Who decides: the players one after another in initiative order (cubes + initiative
icons in the current tableau + in closed frames; ties by the character tile's initiative
value; without characters by seat order); bonus markers and Close Frames in seat order
(they touch only the player's own frames). The solo game's automa decides nothing: its
pick is a rule applied when its turn comes (automa_pick). Setup tokens, Caxton's
exchange (side B) and Guillard's token are free actions at the player's own decisions of
the round: choosing an order, taking a card, placing it, a bonus marker, choosing the
window. Setup tokens and Guillard's token may also be placed in a token window before
each step's order is decided (after its orders or cards are dealt, before Bonhomme's
question): one window a player, in seat order, opened only for a player whose tokens,
placed then, could change the order (tokens_could_reorder); A_DONE closes it
(docs/printing_press/rulings.md).

Hidden information: the symbols of the setup tokens in a player's hand, of the tokens a
player draws for a discarded card (the two put back and the one kept), of tokens placed
initiative side up, and of the token Caxton takes from the bag are seen by their owner
only. Everything else (tiles, sides, orders, cards, the solo board) is public. Decks are
unordered sets drawn at chance nodes.

Action encoding (player actions; the ranges are enums in pp_types.pxd). An anchor is a
cell (r, c) relative to the top-left square of the player's current tableau, r and c in
-3..22: anchor = (r + 3) * 26 + (c + 3). A card's anchor is its first square as it lies
(left end of a row, top of a column).

    [A_CHARACTER, +5)    solo: play character X (names.CHARACTERS)
    [A_SIDE, +2)         the side of the character tile: 0 = A, 1 = B
    A_YES, A_NO          Bonhomme: use the ability now (side A: go first this step;
                         side B: take a cube this round), or not
    A_DONE (= A_NO)      the token window: no more tokens before this step's order
    [A_ORDER, +16)       Select Orders: the order of frame X (its plate comes with it)
    [A_TAKE, +90)        Select Cards: take card X from the offer
    [A_PLACE, +4*676)    place the taken card: orientation o * 676 + anchor; o = 0 a row
                         as printed, 1 a column as printed (top to bottom), 2 a row
                         reversed, 3 a column reversed. The card's own orientation is
                         always legal; the others only with Ungler's ability (side B)
    [A_UNDER, +676)      Ungler (side A): place it at anchor with the squares that meet
                         occupied ones slid under them
    A_DISCARD            discard the taken card and draw 3 tokens (then keep one)
    [A_KEEP_UP, +12)     keep the drawn token of symbol X and place it symbol side up
    [A_KEEP_DOWN, +12)   keep the drawn token of symbol X, initiative side up (hidden)
    [A_SETUP_UP, +60)    free: place the setup token of hand slot k (symbol X) symbol side
                         up: k * 12 + X
    [A_SETUP_DOWN, +5)   free: place the setup token of hand slot k initiative side up
    [A_GUILLARD, +12)    free: Guillard's token as symbol X (side A an ink, B a specialty)
                         (these three also in the token window)
    [A_CAXTON_GIVE, +6)  free: Caxton (side B) gives the tokens of a pair of hand slots
                         (01 02 03 12 13 23) back to the bag ...
    [A_CAXTON_TAKE, +12) ... and takes a token of symbol X from the bag (hidden)
    [A_TOKEN_AT, +676)   put the token just chosen (kept, setup, Guillard's) at anchor
    [A_MARKER, +6)       bonus marker m on slot j of this round's frame: m * 2 + j; m = 0 a
                         1/2 marker, 1 Gutenberg's 1/3 marker (side A), 2 a 1/2 marker and
                         Gutenberg's 1/3 marker 1 side up on the other slot (side B)
    [A_WINDOW, +676)     Close Frames: the 3x3 window whose top-left cell is at anchor

Chance outcomes: [C_TILE, +5) a character tile, [C_SOLO, +12) a choice token on the solo
board, [C_SETUP, +48) a setup token for seat q of symbol X (q * 12 + X), [C_FRAME, +16),
[C_PLATE, +16), [C_CARD, +90) the next frame, plate or card, [C_DRAW, +48) a token drawn
for seat q's discarded card (q * 12 + X). Tiles, frames, plates and cards are drawn
uniformly from those left; tokens in proportion to the bag's contents; a solo-board
space uniformly among the symbols of its kind not on the board yet. The recipient seat is
part of a token outcome so that the entries hidden from a player are known from the
outcome alone (entry_hidden).
"""
from libc.string cimport memset, memcpy

from engine_types cimport *
from pp_types cimport *
from libc.stdint cimport int16_t, uint64_t
from cpython.bytes cimport PyBytes_FromStringAndSize, PyBytes_AS_STRING, PyBytes_GET_SIZE

include "engine.pxi"

# Numbers of the rulebook's text (not pictures), so not catalogue data.
cdef enum:
    SETUP_TOKENS = 3        # face-down tokens each player takes at setup
    SETUP_TOKENS_SOLO_HARD = 1   # the solo difficulty option
    CAXTON_EXTRA = 1        # Caxton (side A): additional setup tokens
    MARKERS = 3             # 1/2 bonus markers each player takes
    DRAW_FOR_DISCARD = 3    # tokens drawn for a discarded card
    BONHOMME_CUBES = 1      # Bonhomme (side B)
    MARKER_TWO = 2          # a 1/2 marker on a symbol not marked yet
    MARKER_THREE = 3        # the 1/3 marker likewise (Gutenberg, side A)
    MARKER_ONE = 1          # either on a symbol already marked high side up; Gutenberg's extra marker
    AUTOMA_ICON_COLUMN = 3  # cards in this column count for the automa's initiative
    SIDE_CORNERS = 4

# The pairs of hand slots Caxton (side B) may give, in the order of A_CAXTON_GIVE.
cdef int PAIR_FIRST[N_PAIRS]
cdef int PAIR_SECOND[N_PAIRS]
for _k, (_i, _j) in enumerate(((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))):
    PAIR_FIRST[_k] = _i
    PAIR_SECOND[_k] = _j
del _k, _i, _j

# The cell of each corner in a window read row by row (CORNER_*).
cdef int CORNER_CELL[SIDE_CORNERS]
CORNER_CELL[:] = [0, 2, 6, 8]

# ---------------------------------------------------------------------------------------
# Small helpers.
# ---------------------------------------------------------------------------------------
cdef inline int sym_kind(int sym) noexcept nogil:
    return sym >> 2


cdef inline int anchor_of(int r, int c) noexcept nogil:
    return (r - ANCHOR_MIN) * ANCHOR_SIDE + (c - ANCHOR_MIN)


cdef inline int anchor_row(int a) noexcept nogil:
    return a // ANCHOR_SIDE + ANCHOR_MIN


cdef inline int anchor_col(int a) noexcept nogil:
    return a % ANCHOR_SIDE + ANCHOR_MIN


cdef inline int cell_at(const PlayerState* p, int r, int c) noexcept nogil:
    """The cell at (r, c) of the current tableau, CELL_EMPTY outside it."""
    if r < 0 or c < 0 or r >= p.height or c >= p.width:
        return CELL_EMPTY
    return p.grid[r][c]


cdef inline int shown_symbol(int v) noexcept nogil:
    """The symbol (0-11) a cell shows, or -1 (empty, initiative icon, blank)."""
    if v < 0:
        return -1
    v &= CELL_BASE
    return v if v < N_SYMBOLS else -1


cdef inline bint shows_icon(int v) noexcept nogil:
    return v >= 0 and (v & CELL_BASE) == SQ_INITIATIVE


cdef inline bint in_deck(const uint64_t* deck, int x) noexcept nogil:
    return (deck[x >> 6] >> (x & 63)) & 1


cdef inline int total_bag(const GameState* s) noexcept nogil:
    cdef int x, n = 0
    for x in range(N_SYMBOLS):
        n += s.bag[x]
    return n


cdef inline bint is_automa(const GameState* s, int seat) noexcept nogil:
    return seat == s.automa_seat


cdef inline int card_steps(const GameState* s, const Catalogue* cat) noexcept nogil:
    return cat.track[s.variant].card_steps


cdef inline int marked_step(const GameState* s, const Catalogue* cat) noexcept nogil:
    """The round's marked Select Cards step, 0-based (bonus markers after it)."""
    return cat.track[s.variant].bonus_after[s.round - 1] - 1


cdef inline bint has_ability(const PlayerState* p, int character, int side) noexcept nogil:
    return p.character == character and p.side == side and p.ability


cdef inline int setup_tokens_due(const GameState* s, const PlayerState* p) noexcept nogil:
    cdef int n = SETUP_TOKENS_SOLO_HARD if s.one_token else SETUP_TOKENS
    if p.character == CH_CAXTON and p.side == SIDE_A:
        n += CAXTON_EXTRA
    return n


cdef inline int hand_count(const PlayerState* p) noexcept nogil:
    cdef int k, n = 0
    for k in range(MAX_HAND):
        n += p.slot[k] == SLOT_HAND
    return n

# ---------------------------------------------------------------------------------------
# Initiative (rulebook p.8; solo p.15).
# ---------------------------------------------------------------------------------------
cdef int tableau_icons(const PlayerState* p) noexcept nogil:
    cdef int r, c, n = 0
    for r in range(p.height):
        for c in range(p.width):
            n += shows_icon(p.grid[r][c])
    return n


cdef int closed_icons(const PlayerState* p) noexcept nogil:
    cdef int r, i, n = 0
    for r in range(N_ROUNDS):
        for i in range(9):
            n += shows_icon(p.closed[r][i])
    return n


cdef int initiative(const GameState* s, int seat) noexcept nogil:
    """Cubes + initiative icons visible in the current tableau + in the closed frames;
    the automa: cubes + its cards in the rightmost column (no printed icons)."""
    cdef const PlayerState* p = &s.players[seat]
    if is_automa(s, seat):
        return p.cubes + p.columns[AUTOMA_ICON_COLUMN]
    return p.cubes + tableau_icons(p) + closed_icons(p)


cdef int tiebreak(const GameState* s, const Catalogue* cat, int seat) noexcept nogil:
    """Who wins an initiative tie: the higher character initiative value; the automa's
    is 0 (the player wins ties) unless the difficulty option gives it the ties; without
    characters, seat order."""
    cdef int x = s.players[seat].character
    if is_automa(s, seat):
        return 100 if s.automa_wins_ties else 0
    if s.characters and x >= 0:
        return 10 + cat.initiative[x]
    return 10 - seat


cdef inline int order_key(const GameState* s, const Catalogue* cat, int seat, int init) noexcept nogil:
    """Where `seat` with initiative `init` stands in a step's order: higher goes first,
    the tie-break below the initiative."""
    return init * 1000 + tiebreak(s, cat, seat)


cdef void set_order(GameState* s, const Catalogue* cat, bint with_automa) noexcept nogil:
    """The player order of this step: highest initiative first (Bonhomme's ability puts
    her first)."""
    cdef int key[MAX_SEATS]
    cdef int n = 0, seat, i, j, t
    for seat in range(s.num_seats):
        if is_automa(s, seat) and not with_automa:
            continue
        s.turn_order[n] = seat
        key[n] = order_key(s, cat, seat, initiative(s, seat))
        if seat == s.first_seat:
            key[n] = 1 << 30
        n += 1
    # Insertion sort, highest key first (keys differ: the tie-breaks differ).
    for i in range(1, n):
        t = s.turn_order[i]
        seat = key[i]
        j = i - 1
        while j >= 0 and key[j] < seat:
            s.turn_order[j + 1] = s.turn_order[j]
            key[j + 1] = key[j]
            j -= 1
        s.turn_order[j + 1] = t
        key[j + 1] = seat
    s.n_turns = n
    s.turn = 0


cdef void seat_order(GameState* s, bint markers) noexcept nogil:
    """The people in seat order (bonus markers: those who still have one; Close
    Frames: all)."""
    cdef int seat
    s.n_turns = 0
    for seat in range(s.num_players):
        if markers and ((s.players[seat].markers == 0 and not s.players[seat].marker13)
                        or s.players[seat].order_frame[s.round - 1] < 0):
            continue
        s.turn_order[s.n_turns] = seat
        s.n_turns += 1
    s.turn = 0


cdef void take_cube(GameState* s, int seat) noexcept nogil:
    if s.cubes_left > 0:
        s.cubes_left -= 1
        s.players[seat].cubes += 1

# ---------------------------------------------------------------------------------------
# Scoring (rulebook pp.12-13 and 19): a 3x3 window, cells row by row.
# ---------------------------------------------------------------------------------------
cdef inline bint window_has(const int16_t* w, int sym) noexcept nogil:
    cdef int i
    for i in range(9):
        if shown_symbol(w[i]) == sym:
            return True
    return False


cdef bint plate_main(const Plate* pl, const int16_t* w) noexcept nogil:
    """All the indicated letters visible (as many of each as indicated)."""
    cdef int count[N_LETTERS]
    cdef int i, x
    memset(count, 0, sizeof(count))
    for i in range(9):
        x = shown_symbol(w[i])
        if 0 <= x < N_LETTERS:
            count[x] += 1
    for x in range(N_LETTERS):
        if count[x] < pl.letters[x]:
            return False
    return True


cdef bint plate_additional(const Plate* pl, const int16_t* w) noexcept nogil:
    cdef int i, r, c, a, b
    if pl.kind == ADD_ADJACENT:
        for r in range(3):
            for c in range(3):
                a = shown_symbol(w[r * 3 + c])
                if a != pl.letter and a != pl.letter2:
                    continue
                if c < 2:
                    b = shown_symbol(w[r * 3 + c + 1])
                    if (a == pl.letter and b == pl.letter2) or (a == pl.letter2 and b == pl.letter):
                        return True
                if r < 2:
                    b = shown_symbol(w[(r + 1) * 3 + c])
                    if (a == pl.letter and b == pl.letter2) or (a == pl.letter2 and b == pl.letter):
                        return True
        return False
    if pl.kind == ADD_ABSENT:
        return not window_has(w, pl.letter)
    if pl.kind == ADD_CORNER:
        return shown_symbol(w[CORNER_CELL[pl.corner]]) == pl.letter
    if pl.kind == ADD_MIDDLE_COLUMN:
        return shown_symbol(w[1]) == pl.letter or shown_symbol(w[4]) == pl.letter or \
            shown_symbol(w[7]) == pl.letter
    return shown_symbol(w[3]) == pl.letter or shown_symbol(w[4]) == pl.letter or \
        shown_symbol(w[5]) == pl.letter


cdef bint frame_ink(const Frame* fr, const int16_t* w) noexcept nogil:
    """The indicated ink in the indicated row or column."""
    cdef int k, i
    for k in range(3):
        if fr.line <= LINE_BOTTOM_ROW:
            i = (fr.line - LINE_TOP_ROW) * 3 + k
        else:
            i = k * 3 + (fr.line - LINE_LEFT_COLUMN)
        if shown_symbol(w[i]) == fr.ink:
            return True
    return False


cdef bint frame_specialties(const Frame* fr, const int16_t* w) noexcept nogil:
    """Every indicated specialty somewhere in the window."""
    cdef int j
    for j in range(N_KIND):
        if (fr.specialties >> j) & 1 and not window_has(w, SYM_TYPESETTING + j):
            return False
    return True


cdef void score_window(const Catalogue* cat, int frame, int plate, const int16_t* w,
                       int* parts) noexcept nogil:
    """The points of a closed frame: parts[0] plate main, [1] plate additional (only with
    the main), [2] frame ink, [3] frame specialty."""
    cdef const Plate* pl = &cat.plates[plate]
    cdef const Frame* fr = &cat.frames[frame]
    parts[0] = parts[1] = parts[2] = parts[3] = 0
    if plate_main(pl, w):
        parts[0] = pl.points
        if plate_additional(pl, w):
            parts[1] = pl.bonus
    if frame_ink(fr, w):
        parts[2] = fr.ink_points
    if frame_specialties(fr, w):
        parts[3] = fr.specialty_points


cdef inline int window_points(const Catalogue* cat, int frame, int plate, const int16_t* w) noexcept nogil:
    cdef int parts[4]
    score_window(cat, frame, plate, w, parts)
    return parts[0] + parts[1] + parts[2] + parts[3]


cdef void read_window(const PlayerState* p, int r0, int c0, int16_t* w) noexcept nogil:
    cdef int r, c
    for r in range(3):
        for c in range(3):
            w[r * 3 + c] = cell_at(p, r0 + r, c0 + c)


cdef int marker_multiplier(const GameState* s, const Catalogue* cat, const PlayerState* p,
                           int sym) noexcept nogil:
    """Bonus points per instance of `sym` in the closed frames: the values of the markers
    on slots showing it."""
    cdef int r, j, m = 0
    for r in range(N_ROUNDS):
        if p.order_frame[r] < 0:
            continue
        for j in range(2):
            if p.marker[r * 2 + j] > 0 and cat.frames[p.order_frame[r]].slots[j] == sym:
                m += p.marker[r * 2 + j]
    return m


cdef int bonus_points(const GameState* s, const Catalogue* cat, const PlayerState* p) noexcept nogil:
    """The end-of-game bonus: each marked symbol, in all the closed frames, times the
    markers' values on it."""
    cdef int r, i, x, total = 0
    for r in range(N_ROUNDS):
        for i in range(9):
            x = shown_symbol(p.closed[r][i])
            if x >= 0:
                total += marker_multiplier(s, cat, p, x)
    return total


cdef int final_score(const GameState* s, const Catalogue* cat, int seat) noexcept nogil:
    cdef const PlayerState* p = &s.players[seat]
    if is_automa(s, seat):
        return p.fame
    return p.fame + bonus_points(s, cat, p)


cdef void final_scores(const GameState* s, const Catalogue* cat, int* out) noexcept nogil:
    """Fame with the end bonus, per seat (what the scoring would give now)."""
    cdef int seat
    for seat in range(s.num_seats):
        out[seat] = final_score(s, cat, seat)


cdef int automa_round_points(const GameState* s, const Catalogue* cat) noexcept nogil:
    cdef const PlayerState* p = &s.players[s.automa_seat]
    cdef int k, n = 0
    for k in range(N_COLUMNS):
        n += p.columns[k] * cat.solo_points[s.hard_board][k]
    return n

# ---------------------------------------------------------------------------------------
# Placement (rulebook pp.10-11): beside or on, never under, orientation as printed.
# ---------------------------------------------------------------------------------------
cdef inline int orient_dr(int o) noexcept nogil:
    return 1 if (o & 1) else 0


cdef inline int orient_dc(int o) noexcept nogil:
    return 0 if (o & 1) else 1


cdef inline int card_square(const Card* card, int o, int i) noexcept nogil:
    """The i-th square along the card as placed (orientations 2, 3 run backwards)."""
    return card.squares[2 - i] if o >= 2 else card.squares[i]


cdef inline bint touches(const PlayerState* p, int r, int c) noexcept nogil:
    """Whether a square at (r, c) would be on an occupied cell or beside one."""
    return (cell_at(p, r, c) >= 0 or cell_at(p, r - 1, c) >= 0 or cell_at(p, r + 1, c) >= 0
            or cell_at(p, r, c - 1) >= 0 or cell_at(p, r, c + 1) >= 0)


cdef inline bint within_grid(const PlayerState* p, int r0, int c0, int r1, int c1) noexcept nogil:
    """Whether the tableau with cells r0..r1, c0..c1 added still fits GRID x GRID."""
    cdef int top = r0 if r0 < 0 else 0
    cdef int left = c0 if c0 < 0 else 0
    cdef int bottom = r1 if r1 >= p.height else p.height - 1
    cdef int right = c1 if c1 >= p.width else p.width - 1
    return bottom - top < GRID and right - left < GRID


cdef bint card_fits(const PlayerState* p, int o, int r, int c, bint under) noexcept nogil:
    """A card (or Ungler's slid card) at anchor (r, c) in orientation o."""
    cdef int dr = orient_dr(o), dc = orient_dc(o), i
    cdef bint touch = False
    if p.pieces == 0:
        # The first card starts the tableau: where is immaterial, so it goes at (0, 0).
        return r == 0 and c == 0 and not under
    if not within_grid(p, r, c, r + 2 * dr, c + 2 * dc):
        return False
    for i in range(3):
        if under:
            if cell_at(p, r + i * dr, c + i * dc) >= 0:
                return True
        elif touches(p, r + i * dr, c + i * dc):
            touch = True
    return touch


cdef bint token_fits(const PlayerState* p, int r, int c) noexcept nogil:
    """A token goes beside or on an existing card or token (so never first)."""
    return p.pieces > 0 and within_grid(p, r, c, r, c) and touches(p, r, c)


cdef void shift_grid(PlayerState* p, int down, int right) noexcept nogil:
    """Move the tableau so that rows/columns added above and to the left start at 0."""
    cdef int r, c
    if down == 0 and right == 0:
        return
    for r in range(p.height - 1, -1, -1):
        for c in range(p.width - 1, -1, -1):
            p.grid[r + down][c + right] = p.grid[r][c]
    for r in range(p.height + down):
        for c in range(p.width + right):
            if r < down or c < right:
                p.grid[r][c] = CELL_EMPTY
    p.height += down
    p.width += right


cdef void grow_to(PlayerState* p, int r0, int c0, int r1, int c1, int* dr, int* dc) noexcept nogil:
    """Make room for cells r0..r1, c0..c1 (current coordinates): shifts the tableau so
    its top-left stays at (0, 0) and returns the shift in dr, dc."""
    cdef int r, c
    dr[0] = -r0 if r0 < 0 else 0
    dc[0] = -c0 if c0 < 0 else 0
    shift_grid(p, dr[0], dc[0])
    r1 += dr[0]
    c1 += dc[0]
    if r1 >= p.height:
        for r in range(p.height, r1 + 1):
            for c in range(GRID):
                p.grid[r][c] = CELL_EMPTY
        p.height = r1 + 1
    if c1 >= p.width:
        for r in range(p.height):
            for c in range(p.width, c1 + 1):
                p.grid[r][c] = CELL_EMPTY
        p.width = c1 + 1


cdef void cover(GameState* s, int v) noexcept nogil:
    """A covered token leaves the game (to the box); covered card squares just vanish."""
    if v >= 0 and (v & CELL_TOKEN) and (v & CELL_BASE) < N_SYMBOLS:
        s.box_tokens[v & CELL_BASE] += 1


cdef void put_card(GameState* s, const Catalogue* cat, int seat, int card, int o, int r, int c,
                   bint under) noexcept nogil:
    cdef PlayerState* p = &s.players[seat]
    cdef const Card* cd = &cat.cards[card]
    cdef int dr = orient_dr(o), dc = orient_dc(o), sr, sc, i, rr, cc, old
    if p.pieces == 0:
        p.height = 0
        p.width = 0
    grow_to(p, r, c, r + 2 * dr, c + 2 * dc, &sr, &sc)
    for i in range(3):
        rr = r + sr + i * dr
        cc = c + sc + i * dc
        old = p.grid[rr][cc]
        if old >= 0:
            if under:
                continue
            cover(s, old)
        p.grid[rr][cc] = card_square(cd, o, i)
    p.pieces += 1


cdef void put_token(GameState* s, int seat, int r, int c, int value) noexcept nogil:
    cdef PlayerState* p = &s.players[seat]
    cdef int sr, sc
    grow_to(p, r, c, r, c, &sr, &sc)
    cover(s, p.grid[r + sr][c + sc])
    p.grid[r + sr][c + sc] = value
    p.pieces += 1


cdef void clear_tableau(GameState* s, PlayerState* p) noexcept nogil:
    """The end of the round: what the frame does not hold leaves the game."""
    cdef int r, c
    for r in range(p.height):
        for c in range(p.width):
            cover(s, p.grid[r][c])
            p.grid[r][c] = CELL_EMPTY
    p.height = 0
    p.width = 0
    p.pieces = 0

# ---------------------------------------------------------------------------------------
# Chance nodes.
# ---------------------------------------------------------------------------------------
cdef int setup_seat(const GameState* s) noexcept nogil:
    """The player still to receive setup tokens, -1 when all have theirs."""
    cdef int seat
    for seat in range(s.num_players):
        if s.players[seat].n_setup < setup_tokens_due(s, &s.players[seat]):
            return seat
    return -1


cdef int tile_seat(const GameState* s) noexcept nogil:
    cdef int seat
    for seat in range(s.num_players):
        if s.players[seat].character < 0:
            return seat
    return -1


cdef inline bint solo_used(const GameState* s, int sym) noexcept nogil:
    cdef int i
    for i in range(s.solo_dealt):
        if s.solo[i // N_CHOICES][i % N_CHOICES] == sym:
            return True
    return False


cdef int token_outcomes(const GameState* s, int base, int* out, double* prob) noexcept nogil:
    cdef int x, n = 0, total = total_bag(s)
    for x in range(N_SYMBOLS):
        if s.bag[x] > 0:
            out[n] = base + x
            prob[n] = s.bag[x] / <double>total
            n += 1
    return n


cdef int mask_outcomes(uint64_t m, int base, int* out, double* prob) noexcept nogil:
    cdef int n = 0, total = popcount64(m)
    while m:
        out[n] = base + ctz64(m)
        prob[n] = 1.0 / total
        n += 1
        m &= m - 1
    return n


cdef int chance_outcomes(const GameState* s, const Catalogue* cat, int* out, double* prob) noexcept nogil:
    """The outcomes of the chance node s, ascending, with their exact probabilities."""
    cdef int n = 0, x, i, kind, total
    cdef uint64_t m
    if s.pool_due > 0:
        return token_outcomes(s, C_DRAW + s.turn_order[s.turn] * N_SYMBOLS, out, prob)
    if s.phase == PH_TILES:
        return mask_outcomes(<uint64_t>s.tiles, C_TILE, out, prob)
    if s.phase == PH_SOLO_BOARD:
        kind = cat.solo_kinds[s.solo_dealt // N_CHOICES][s.solo_dealt % N_CHOICES]
        total = 0
        for x in range(kind * N_KIND, kind * N_KIND + N_KIND):
            if not solo_used(s, x) and s.bag[x] > 0:
                out[n] = C_SOLO + x
                n += 1
        for i in range(n):
            prob[i] = 1.0 / n
        return n
    if s.phase == PH_SETUP_TOKENS:
        return token_outcomes(s, C_SETUP + setup_seat(s) * N_SYMBOLS, out, prob)
    if s.phase == PH_DEAL_ORDERS:
        for i in range(s.n_orders):
            if s.offer_frame[i] < 0:
                return mask_outcomes(s.frame_deck, C_FRAME, out, prob)
        return mask_outcomes(s.plate_deck, C_PLATE, out, prob)
    if s.phase == PH_DEAL_CARDS:
        n = mask_outcomes(s.card_deck[0], C_CARD, out, prob)
        n += mask_outcomes(s.card_deck[1], C_CARD + 64, out + n, prob + n)
        for i in range(n):
            prob[i] = 1.0 / n
        return n
    return 0


cdef int sample_chance(const GameState* s, const Catalogue* cat, Rng* rng) noexcept nogil:
    """A chance outcome drawn with its probability."""
    cdef int out[N_CHANCE]
    cdef double prob[N_CHANCE]
    cdef int n = chance_outcomes(s, cat, out, prob), i
    cdef double u = rng_uniform(rng)
    for i in range(n - 1):
        if u < prob[i]:
            return out[i]
        u -= prob[i]
    return out[n - 1]


cdef void apply_chance(GameState* s, const Catalogue* cat, int a) noexcept nogil:
    cdef int x, seat, i
    cdef PlayerState* p
    if s.pool_due > 0:
        x = (a - C_DRAW) % N_SYMBOLS
        s.bag[x] -= 1
        s.pool[s.n_pool] = x
        s.n_pool += 1
        s.pool_due -= 1
    elif s.phase == PH_TILES:
        x = a - C_TILE
        s.tiles &= ~(1 << x)
        s.players[tile_seat(s)].character = x
    elif s.phase == PH_SOLO_BOARD:
        x = a - C_SOLO
        s.bag[x] -= 1
        s.solo[s.solo_dealt // N_CHOICES][s.solo_dealt % N_CHOICES] = x
        s.solo_dealt += 1
    elif s.phase == PH_SETUP_TOKENS:
        seat = (a - C_SETUP) // N_SYMBOLS
        x = (a - C_SETUP) % N_SYMBOLS
        p = &s.players[seat]
        s.bag[x] -= 1
        p.hand[p.n_setup] = x
        p.slot[p.n_setup] = SLOT_HAND
        p.n_setup += 1
    elif s.phase == PH_DEAL_ORDERS:
        for i in range(s.n_orders):
            if s.offer_frame[i] < 0:
                x = a - C_FRAME
                s.frame_deck &= ~bit(x)
                s.offer_frame[i] = x
                return
        for i in range(s.n_orders):
            if s.offer_plate[i] < 0:
                x = a - C_PLATE
                s.plate_deck &= ~bit(x)
                s.offer_plate[i] = x
                return
    elif s.phase == PH_DEAL_CARDS:
        x = a - C_CARD
        s.card_deck[x >> 6] &= ~bit(x & 63)
        s.offer[s.n_offer] = x
        s.n_offer += 1
        s.cards_dealt += 1

# ---------------------------------------------------------------------------------------
# The solo game's automa (rulebook pp.15-17).
# ---------------------------------------------------------------------------------------
cdef inline bint card_shows(const Card* card, int sym) noexcept nogil:
    return card.squares[0] == sym or card.squares[1] == sym or card.squares[2] == sym


cdef int automa_choice(const GameState* s, const Catalogue* cat, int* column) noexcept nogil:
    """The automa's rule (rulebook p.16): the offer's index of the leftmost card with the
    first choice's symbol, which goes above the first column (`column`); else the
    second's, the third's; else the leftmost card, above the rightmost column. -1 for an
    empty offer. Asked by automa_pick, and by CoreState.automa_took to name the rule."""
    cdef int k, i
    column[0] = N_COLUMNS - 1
    for k in range(N_CHOICES):
        for i in range(s.n_offer):
            if s.offer[i] >= 0 and card_shows(&cat.cards[s.offer[i]], s.solo[s.round - 1][k]):
                column[0] = k
                return i
    for i in range(s.n_offer):
        if s.offer[i] >= 0:
            return i
    return -1


cdef void automa_pick(GameState* s, const Catalogue* cat) noexcept nogil:
    """The automa takes the card its rule chooses (automa_choice) into that column."""
    cdef int column
    cdef int chosen = automa_choice(s, cat, &column)
    if chosen < 0:
        return
    s.offer[chosen] = -1
    s.players[s.automa_seat].columns[column] += 1

# ---------------------------------------------------------------------------------------
# Legal actions.
# ---------------------------------------------------------------------------------------
cdef bint free_actions_open(const GameState* s) noexcept nogil:
    """Whether the player to act is at one of the decisions where setup tokens (and the
    other free actions) may be played: choosing an order or a card, placing the card, a
    bonus marker, choosing the window."""
    if s.held != HELD_NONE or s.caxton or s.asking >= 0 or s.pool_due > 0 or s.token_window >= 0:
        return False
    if s.phase == PH_ORDERS or s.phase == PH_MARKERS or s.phase == PH_CLOSE:
        return True
    return s.phase == PH_CARDS and (s.sub == SUB_TAKE or s.sub == SUB_PLACE)


cdef inline bint holds_guillard(const PlayerState* p) noexcept nogil:
    return has_ability(p, CH_GUILLARD, SIDE_A) or has_ability(p, CH_GUILLARD, SIDE_B)


cdef int add_token_actions(const PlayerState* p, int* out, int n) noexcept nogil:
    """The setup tokens in hand (either side up) and Guillard's token, once the tableau
    has a piece for them to touch."""
    cdef int k, x
    if p.pieces > 0:
        for k in range(MAX_HAND):
            if p.slot[k] == SLOT_HAND:
                out[n] = A_SETUP_UP + k * N_SYMBOLS + p.hand[k]
                out[n + 1] = A_SETUP_DOWN + k
                n += 2
        if holds_guillard(p):
            for x in range(N_KIND):
                out[n] = A_GUILLARD + (KIND_INK if p.side == SIDE_A else KIND_SPECIALTY) * N_KIND + x
                n += 1
    return n


cdef int add_free_actions(const GameState* s, const PlayerState* p, int* out, int n) noexcept nogil:
    cdef int k
    n = add_token_actions(p, out, n)
    if has_ability(p, CH_CAXTON, SIDE_B):
        for k in range(N_PAIRS):
            if p.slot[PAIR_FIRST[k]] == SLOT_HAND and p.slot[PAIR_SECOND[k]] == SLOT_HAND:
                out[n] = A_CAXTON_GIVE + k
                n += 1
    return n


cdef int add_token_anchors(const PlayerState* p, int* out, int n) noexcept nogil:
    cdef int r, c
    for r in range(-1, p.height + 1):
        for c in range(-1, p.width + 1):
            if token_fits(p, r, c):
                out[n] = A_TOKEN_AT + anchor_of(r, c)
                n += 1
    return n


cdef int add_card_anchors(const PlayerState* p, int base, int o, bint under, int* out, int n) noexcept nogil:
    cdef int r, c, dr = orient_dr(o), dc = orient_dc(o)
    if p.pieces == 0:
        if not under:
            out[n] = base + anchor_of(0, 0)
            n += 1
        return n
    for r in range(-1 - 2 * dr, p.height + 1):
        for c in range(-1 - 2 * dc, p.width + 1):
            if card_fits(p, o, r, c, under):
                out[n] = base + anchor_of(r, c)
                n += 1
    return n


cdef inline bint palindrome(const Card* card) noexcept nogil:
    return card.squares[0] == card.squares[2]


cdef inline bint orientation_open(const PlayerState* p, const Card* card, int o) noexcept nogil:
    """Whether the taken card may be placed in orientation o: as printed, or one of
    Ungler's others (side B; a palindrome reversed is the printed card again)."""
    return o == card.vertical or (has_ability(p, CH_UNGLER, SIDE_B) and not (o >= 2 and palindrome(card)))


cdef int legal_place(const GameState* s, const Catalogue* cat, const PlayerState* p, int* out, int n) noexcept nogil:
    """Placing the taken card: as printed; Ungler's other orientations (side B) or slid
    under (side A); or discard it for tokens (a token needs a tableau to touch)."""
    cdef const Card* card = &cat.cards[s.taken]
    cdef int o, printed = card.vertical
    for o in range(4):
        if orientation_open(p, card, o):
            n = add_card_anchors(p, A_PLACE + o * N_ANCHORS, o, False, out, n)
    if has_ability(p, CH_UNGLER, SIDE_A) and p.pieces > 0:
        n = add_card_anchors(p, A_UNDER, printed, True, out, n)
    if p.pieces > 0 and total_bag(s) > 0:
        out[n] = A_DISCARD
        n += 1
    return n


cdef bint marked(const Catalogue* cat, const PlayerState* p, int sym) noexcept nogil:
    """Whether `sym` already has a bonus marker high side up (a "2", or the 1/3 marker's
    "3") on one of the player's frames: "a symbol that already has a '2' bonus marker"
    takes the next one "with the '1' side up". A "1" alone (Gutenberg's extra) does not."""
    cdef int r, j
    for r in range(N_ROUNDS):
        if p.order_frame[r] < 0:
            continue
        for j in range(2):
            if p.marker[r * 2 + j] > MARKER_ONE and cat.frames[p.order_frame[r]].slots[j] == sym:
                return True
    return False


cdef bint frames_a_square(const PlayerState* p, int r0, int c0) noexcept nogil:
    """Whether the 3x3 window at (r0, c0) frames some square of the tableau."""
    cdef int16_t w[9]
    cdef int i
    read_window(p, r0, c0, w)
    for i in range(9):
        if w[i] != CELL_EMPTY:
            return True
    return False


cdef int legal_actions(const GameState* s, const Catalogue* cat, int* out) noexcept nogil:
    """Legal player actions, ascending; 0 at chance and terminal nodes."""
    cdef int n = 0, i, x, seat, r, c
    cdef const PlayerState* p
    seat = current_player(s)
    if seat < 0:
        return 0
    p = &s.players[seat]
    if s.asking >= 0:
        out[0] = A_YES
        out[1] = A_NO
        return 2
    if s.caxton:
        for x in range(N_SYMBOLS):
            if s.bag[x] > 0:
                out[n] = A_CAXTON_TAKE + x
                n += 1
        return n
    if s.held != HELD_NONE:
        return add_token_anchors(p, out, 0)
    if s.token_window >= 0:
        out[0] = A_DONE
        n = add_token_actions(p, out, 1)
        sort_ints(out, n)
        return n
    if s.phase == PH_CHARACTER:
        for x in range(N_CHARACTERS):
            out[x] = A_CHARACTER + x
        return N_CHARACTERS
    if s.phase == PH_SIDES:
        out[0] = A_SIDE + SIDE_A
        out[1] = A_SIDE + SIDE_B
        return 2
    if s.phase == PH_ORDERS:
        for i in range(s.n_orders):
            if s.offer_frame[i] >= 0:
                out[n] = A_ORDER + s.offer_frame[i]
                n += 1
    elif s.phase == PH_CARDS:
        if s.sub == SUB_TAKE:
            for i in range(s.n_offer):
                if s.offer[i] >= 0:
                    out[n] = A_TAKE + s.offer[i]
                    n += 1
        elif s.sub == SUB_PLACE:
            n = legal_place(s, cat, p, out, 0)
        else:
            for i in range(s.n_pool):
                x = s.pool[i]
                if i == 0 or not _in(s.pool, i, x):
                    out[n] = A_KEEP_UP + x
                    out[n + 1] = A_KEEP_DOWN + x
                    n += 2
    elif s.phase == PH_MARKERS:
        for i in range(2):
            if p.markers > 0:
                out[n] = A_MARKER + MK_NORMAL * 2 + i
                n += 1
            if p.marker13 and p.side == SIDE_A:
                out[n] = A_MARKER + MK_THIRTEEN * 2 + i
                n += 1
            if p.marker13 and p.side == SIDE_B and p.markers > 0:
                out[n] = A_MARKER + MK_WITH_EXTRA * 2 + i
                n += 1
    elif s.phase == PH_CLOSE:
        for r in range(-2, p.height if p.height > 0 else 1):
            for c in range(-2, p.width if p.width > 0 else 1):
                if p.pieces == 0 and not (r == 0 and c == 0):
                    continue   # an empty tableau: one window, framing nothing
                if p.pieces > 0 and not frames_a_square(p, r, c):
                    continue   # "onto their tableau": some squares may be empty, not all
                out[n] = A_WINDOW + anchor_of(r, c)
                n += 1
    if free_actions_open(s):
        n = add_free_actions(s, p, out, n)
    sort_ints(out, n)
    return n


cdef inline bint _in(const int16_t* a, int n, int x) noexcept nogil:
    cdef int i
    for i in range(n):
        if a[i] == x:
            return True
    return False


cdef int current_player(const GameState* s) noexcept nogil:
    """The seat to decide, CHANCE or TERMINAL."""
    if s.phase == PH_TERMINAL:
        return TERMINAL
    if s.pool_due > 0:
        return CHANCE
    if s.phase == PH_TILES or s.phase == PH_SOLO_BOARD or s.phase == PH_SETUP_TOKENS or \
            s.phase == PH_DEAL_ORDERS or s.phase == PH_DEAL_CARDS:
        return CHANCE
    if s.asking >= 0:
        return s.asking
    if s.token_window >= 0:
        return s.token_window
    if s.phase == PH_CHARACTER:
        return 0
    return s.turn_order[s.turn]


cdef bint is_legal(const GameState* s, const Catalogue* cat, int a) noexcept nogil:
    """Whether `a` is a legal action (a chance outcome at chance nodes) now. Placements
    are checked directly; other decisions have short lists, generated."""
    cdef int buf[MAX_LEGAL]
    cdef double prob[N_CHANCE]
    cdef int n, i, cp = current_player(s), o, r, c
    cdef const PlayerState* p
    if cp == TERMINAL:
        return False
    if cp == CHANCE:
        n = chance_outcomes(s, cat, buf, prob)
    else:
        p = &s.players[cp]
        if s.asking < 0 and not s.caxton and s.held == HELD_NONE and s.phase == PH_CARDS \
                and s.sub == SUB_PLACE and A_PLACE <= a < A_DISCARD:
            if a >= A_UNDER:
                o = cat.cards[s.taken].vertical
                if not has_ability(p, CH_UNGLER, SIDE_A):
                    return False
            else:
                o = (a - A_PLACE) // N_ANCHORS
                if not orientation_open(p, &cat.cards[s.taken], o):
                    return False
            r = anchor_row((a - A_PLACE) % N_ANCHORS)
            c = anchor_col((a - A_PLACE) % N_ANCHORS)
            return card_fits(p, o, r, c, a >= A_UNDER)
        if s.asking < 0 and not s.caxton and s.held != HELD_NONE:
            if not A_TOKEN_AT <= a < A_TOKEN_AT + N_ANCHORS:
                return False
            return token_fits(p, anchor_row(a - A_TOKEN_AT), anchor_col(a - A_TOKEN_AT))
        n = legal_actions(s, cat, buf)
    for i in range(n):
        if buf[i] == a:
            return True
    return False

# ---------------------------------------------------------------------------------------
# Applying player actions.
# ---------------------------------------------------------------------------------------
cdef void end_turn(GameState* s) noexcept nogil:
    s.turn += 1
    s.sub = SUB_TAKE
    s.taken = -1


cdef void place_marker(GameState* s, const Catalogue* cat, PlayerState* p, int kind, int j) noexcept nogil:
    cdef int r = s.round - 1
    cdef const Frame* fr = &cat.frames[p.order_frame[r]]
    cdef bint already = marked(cat, p, fr.slots[j])
    if kind == MK_THIRTEEN:
        p.marker[r * 2 + j] = MARKER_ONE if already else MARKER_THREE
        p.marker13 = 0
    else:
        p.marker[r * 2 + j] = MARKER_ONE if already else MARKER_TWO
        p.markers -= 1
        if kind == MK_WITH_EXTRA:
            p.marker[r * 2 + 1 - j] = MARKER_ONE
            p.marker13 = 0


cdef void close_frame(GameState* s, const Catalogue* cat, int seat, int r0, int c0) noexcept nogil:
    """Frame the 3x3 window, score the round, and clear the tableau."""
    cdef PlayerState* p = &s.players[seat]
    cdef int r = s.round - 1, i
    cdef int16_t w[9]
    read_window(p, r0, c0, w)
    for i in range(9):
        p.closed[r][i] = w[i]
        # The framed squares stay with the frame; the rest of the tableau leaves.
        if 0 <= r0 + i // 3 < p.height and 0 <= c0 + i % 3 < p.width:
            p.grid[r0 + i // 3][c0 + i % 3] = CELL_EMPTY
    if p.order_frame[r] >= 0:
        p.fame += window_points(cat, p.order_frame[r], p.order_plate[r], w)
    clear_tableau(s, p)


cdef void apply_decision(GameState* s, const Catalogue* cat, int a) noexcept nogil:
    cdef int seat = current_player(s), i, x, o, k
    cdef PlayerState* p
    if seat < 0:
        return
    p = &s.players[seat]
    if s.asking >= 0:
        s.asking = -1
        if a == A_YES:
            p.ability = 0
            if s.phase == PH_ROUND_START:
                for i in range(BONHOMME_CUBES):
                    take_cube(s, seat)
            else:
                s.first_seat = seat
        if s.phase != PH_ROUND_START:
            set_order(s, cat, s.phase == PH_CARDS)
        return
    if s.token_window >= 0 and s.held == HELD_NONE and a == A_DONE:
        next_token_window(s, cat, seat + 1)
        return
    if A_CAXTON_TAKE <= a < A_TOKEN_AT:
        x = a - A_CAXTON_TAKE
        s.bag[x] -= 1
        p.hand[MAX_HAND - 1] = x
        p.slot[MAX_HAND - 1] = SLOT_HAND
        s.caxton = 0
        return
    if A_TOKEN_AT <= a < A_MARKER:
        i = a - A_TOKEN_AT
        if s.held == HELD_GUILLARD:
            put_token(s, seat, anchor_row(i), anchor_col(i), CELL_ABILITY | s.held_shown)
        else:
            put_token(s, seat, anchor_row(i), anchor_col(i), CELL_TOKEN | s.held_shown)
            if s.held == HELD_KEPT and s.held_shown == SQ_INITIATIVE:
                p.hidden_out[s.held_symbol] += 1
        if s.held == HELD_KEPT:
            end_turn(s)
        s.held = HELD_NONE
        s.held_shown = -1
        s.held_symbol = -1
        if s.token_window >= 0 and not tokens_could_reorder(s, cat, seat):
            next_token_window(s, cat, seat + 1)   # nothing the player still holds could change the order
        return
    if A_SETUP_UP <= a < A_SETUP_DOWN:
        k = (a - A_SETUP_UP) // N_SYMBOLS
        p.slot[k] = SLOT_UP
        s.held = HELD_SETUP
        s.held_shown = s.held_symbol = p.hand[k]
        return
    if A_SETUP_DOWN <= a < A_GUILLARD:
        k = a - A_SETUP_DOWN
        p.slot[k] = SLOT_DOWN
        s.held = HELD_SETUP
        s.held_shown = SQ_INITIATIVE
        s.held_symbol = -1          # the slot holds it (and hides it)
        return
    if A_GUILLARD <= a < A_CAXTON_GIVE:
        p.ability = 0
        s.held = HELD_GUILLARD
        s.held_shown = s.held_symbol = a - A_GUILLARD
        return
    if A_CAXTON_GIVE <= a < A_CAXTON_TAKE:
        k = a - A_CAXTON_GIVE
        p.slot[PAIR_FIRST[k]] = SLOT_RETURNED
        p.slot[PAIR_SECOND[k]] = SLOT_RETURNED
        s.bag[p.hand[PAIR_FIRST[k]]] += 1
        s.bag[p.hand[PAIR_SECOND[k]]] += 1
        p.ability = 0
        s.caxton = 1
        return
    if s.phase == PH_CHARACTER:
        p.character = a - A_CHARACTER
        s.tiles &= ~(1 << p.character)
        return
    if s.phase == PH_SIDES:
        p.side = a - A_SIDE
        s.turn += 1
        return
    if s.phase == PH_ORDERS:
        x = a - A_ORDER
        for i in range(s.n_orders):
            if s.offer_frame[i] == x:
                p.order_frame[s.round - 1] = x
                p.order_plate[s.round - 1] = s.offer_plate[i]
                s.offer_frame[i] = -1
                s.offer_plate[i] = -1
        s.turn += 1
        return
    if s.phase == PH_CARDS:
        if s.sub == SUB_TAKE:
            x = a - A_TAKE
            for i in range(s.n_offer):
                if s.offer[i] == x:
                    s.offer[i] = -1
            s.taken = x
            s.sub = SUB_PLACE
        elif s.sub == SUB_PLACE:
            if a == A_DISCARD:
                k = total_bag(s)
                s.pool_due = DRAW_FOR_DISCARD if k > DRAW_FOR_DISCARD else k
                s.n_pool = 0
                s.taken = -1
                s.sub = SUB_KEEP
            elif a >= A_UNDER:
                i = a - A_UNDER
                put_card(s, cat, seat, s.taken, cat.cards[s.taken].vertical, anchor_row(i),
                         anchor_col(i), True)
                p.ability = 0
                end_turn(s)
            else:
                o = (a - A_PLACE) // N_ANCHORS
                i = (a - A_PLACE) % N_ANCHORS
                put_card(s, cat, seat, s.taken, o, anchor_row(i), anchor_col(i), False)
                if o != cat.cards[s.taken].vertical:
                    p.ability = 0
                end_turn(s)
        else:
            # Keep one drawn token; the others go back to the bag.
            x = (a - A_KEEP_UP) % N_SYMBOLS
            k = -1
            for i in range(s.n_pool):
                if s.pool[i] == x and k < 0:
                    k = i
                else:
                    s.bag[s.pool[i]] += 1
                s.pool[i] = -1
            s.n_pool = 0
            s.held = HELD_KEPT
            s.held_symbol = x
            s.held_shown = x if a < A_KEEP_DOWN else SQ_INITIATIVE
        return
    if s.phase == PH_MARKERS:
        place_marker(s, cat, p, (a - A_MARKER) // 2, (a - A_MARKER) % 2)
        s.turn += 1
        return
    if s.phase == PH_CLOSE:
        i = a - A_WINDOW
        close_frame(s, cat, seat, anchor_row(i), anchor_col(i))
        s.turn += 1
        return

# ---------------------------------------------------------------------------------------
# The flow of the game: everything that happens without a decision.
# ---------------------------------------------------------------------------------------
cdef void setup_characters(GameState* s) noexcept nogil:
    """Setup step 5 with the chosen sides: markers and ability tokens."""
    cdef int seat
    cdef PlayerState* p
    for seat in range(s.num_players):
        p = &s.players[seat]
        if p.character == CH_GUTENBERG:
            # Side A: one 1/2 marker replaced by the 1/3 marker; side B: the 1/3 on top.
            p.marker13 = 1
            if p.side == SIDE_A:
                p.markers -= 1
        elif p.character == CH_CAXTON and p.side == SIDE_A:
            p.ability = 0           # an extra setup token instead of an ability token
        elif p.character >= 0:
            p.ability = 1


cdef bint tokens_could_reorder(const GameState* s, const Catalogue* cat, int seat) noexcept nogil:
    """Whether the tokens `seat` holds, placed now, could change this step's order. Each
    token moves the player's initiative by at most 1: a face-down one adds an icon, one
    laid on an icon of the tableau (symbol side up, or Guillard's) takes it away. The
    order changes only if the player can pass or fall behind another participant: the
    seats before in seat order have closed their windows (fixed), those after may still
    move within their own reach. Uses public information only (how many tokens each
    holds, the tableaux)."""
    cdef const PlayerState* p = &s.players[seat]
    cdef int lo, hi, q_lo, q_hi, q, v, theirs
    if p.pieces == 0:
        return False
    token_reach(s, seat, &lo, &hi)
    if lo == hi:
        return False
    for q in range(s.num_seats):
        if q == seat or (is_automa(s, q) and s.phase != PH_CARDS):
            continue
        if q > seat:
            token_reach(s, q, &q_lo, &q_hi)
        else:
            q_lo = q_hi = initiative(s, q)
        for v in range(q_lo, q_hi + 1):
            # q at v sits strictly between the player's lowest and highest key.
            theirs = order_key(s, cat, q, v)
            if order_key(s, cat, seat, lo) < theirs < order_key(s, cat, seat, hi):
                return True
    return False


cdef void token_reach(const GameState* s, int seat, int* lo, int* hi) noexcept nogil:
    """The lowest and highest initiative `seat` can reach with the tokens it holds."""
    cdef const PlayerState* p = &s.players[seat]
    cdef int now = initiative(s, seat), held, icons
    lo[0] = hi[0] = now
    if seat >= s.num_players or p.pieces == 0:
        return
    held = hand_count(p) + holds_guillard(p)
    icons = tableau_icons(p)
    lo[0] = now - (held if held < icons else icons)
    hi[0] = now + hand_count(p)


cdef void next_token_window(GameState* s, const Catalogue* cat, int first) noexcept nogil:
    """Open the token window of the next seat from `first` (seat order) whose tokens could
    change this step's order; when none is left, the order is decided."""
    cdef int seat
    for seat in range(first, s.num_players):
        if tokens_could_reorder(s, cat, seat):
            s.token_window = seat
            return
    s.token_window = -1
    decide_order(s, cat)


cdef void decide_order(GameState* s, const Catalogue* cat) noexcept nogil:
    """Ask Bonhomme (side A) whether she goes first, else set the order."""
    cdef int seat
    for seat in range(s.num_players):
        if has_ability(&s.players[seat], CH_BONHOMME, SIDE_A):
            s.asking = seat
            return
    set_order(s, cat, s.phase == PH_CARDS)


cdef void begin_picks(GameState* s, const Catalogue* cat) noexcept nogil:
    """Determine the player order of a Select Orders / Select Cards step: first the token
    windows (setup tokens "at any time during a round", so before the order is decided),
    then Bonhomme's question (side A), then the order."""
    s.first_seat = -1
    next_token_window(s, cat, 0)


cdef void start_round(GameState* s, const Catalogue* cat) noexcept nogil:
    cdef int seat, i
    s.round += 1
    s.step = 0
    for i in range(MAX_OFFER):
        s.offer_frame[i] = -1
        s.offer_plate[i] = -1
    s.n_orders = s.num_seats + 1
    if popcount64(s.frame_deck) < s.n_orders:
        s.n_orders = popcount64(s.frame_deck)
    if popcount64(s.plate_deck) < s.n_orders:
        s.n_orders = popcount64(s.plate_deck)
    s.phase = PH_DEAL_ORDERS
    for seat in range(s.num_players):
        if has_ability(&s.players[seat], CH_BONHOMME, SIDE_B):
            s.phase = PH_ROUND_START
            s.asking = seat


cdef void start_card_step(GameState* s) noexcept nogil:
    cdef int i
    cdef int left = popcount64(s.card_deck[0]) + popcount64(s.card_deck[1])
    for i in range(MAX_OFFER):
        s.offer[i] = -1
    s.n_offer = 0
    s.n_deal = s.num_seats + 1 if left >= s.num_seats + 1 else left
    s.phase = PH_DEAL_CARDS


cdef void after_card_step(GameState* s, const Catalogue* cat) noexcept nogil:
    """The next Select Cards step, or Close Frames (cubes back to the pool)."""
    cdef int seat
    if s.step + 1 < card_steps(s, cat):
        s.step += 1
        start_card_step(s)
        return
    for seat in range(s.num_seats):
        s.players[seat].cubes = 0
    s.cubes_left = cat.cubes
    s.phase = PH_CLOSE
    seat_order(s, False)


cdef void end_round(GameState* s, const Catalogue* cat) noexcept nogil:
    cdef int k
    cdef PlayerState* a
    if s.automa_seat >= 0:
        a = &s.players[s.automa_seat]
        a.fame += automa_round_points(s, cat)
        for k in range(N_COLUMNS):
            a.columns[k] = 0
        # The automa's cards go to the box; this round's choice tokens back to the bag.
        for k in range(N_CHOICES):
            if s.solo[s.round - 1][k] >= 0:
                s.bag[s.solo[s.round - 1][k]] += 1
        s.solo_returned += 1
    if s.round >= s.rounds:
        s.phase = PH_TERMINAL
        return
    start_round(s, cat)


cdef inline bint offer_left(const int16_t* offer, int n) noexcept nogil:
    cdef int i
    for i in range(n):
        if offer[i] >= 0:
            return True
    return False


cdef void advance(GameState* s, const Catalogue* cat) noexcept nogil:
    """Run what follows without a decision until a decision or a chance node."""
    cdef int seat, i
    while True:
        if s.phase == PH_TERMINAL or s.asking >= 0 or s.pool_due > 0 or s.held != HELD_NONE or s.caxton \
                or s.token_window >= 0:
            return
        if s.phase == PH_TILES:
            if tile_seat(s) >= 0:
                return
            s.phase = PH_SIDES
            s.first_seat = -1
            set_order(s, cat, False)
        elif s.phase == PH_SOLO_BOARD:
            if s.solo_dealt < N_ROUNDS * N_CHOICES:
                return
            s.phase = PH_CHARACTER if s.characters else PH_SETUP_TOKENS
        elif s.phase == PH_CHARACTER:
            if s.players[0].character < 0:
                return
            s.phase = PH_SIDES
            s.first_seat = -1
            set_order(s, cat, False)
        elif s.phase == PH_SIDES:
            if s.turn < s.n_turns:
                return
            setup_characters(s)
            s.phase = PH_SETUP_TOKENS
        elif s.phase == PH_SETUP_TOKENS:
            if setup_seat(s) >= 0 and total_bag(s) > 0:
                return
            start_round(s, cat)
        elif s.phase == PH_ROUND_START:
            s.phase = PH_DEAL_ORDERS
        elif s.phase == PH_DEAL_ORDERS:
            if s.n_orders > 0 and (s.offer_frame[s.n_orders - 1] < 0 or s.offer_plate[s.n_orders - 1] < 0):
                return
            s.phase = PH_ORDERS
            begin_picks(s, cat)
        elif s.phase == PH_ORDERS:
            if s.turn < s.n_turns and offer_left(s.offer_frame, s.n_orders):
                return
            # The last to choose takes a cube (solo: the automa, "the last player");
            # the order left over goes to the box.
            if s.automa_seat >= 0:
                take_cube(s, s.automa_seat)
            elif s.n_turns > 0:
                take_cube(s, s.turn_order[s.n_turns - 1])
            for i in range(MAX_OFFER):
                s.offer_frame[i] = -1
                s.offer_plate[i] = -1
            start_card_step(s)
        elif s.phase == PH_DEAL_CARDS:
            if s.n_offer < s.n_deal:
                return
            s.phase = PH_CARDS
            s.sub = SUB_TAKE
            s.taken = -1
            begin_picks(s, cat)
        elif s.phase == PH_CARDS:
            if s.turn < s.n_turns:
                seat = s.turn_order[s.turn]
                if not is_automa(s, seat):
                    if s.sub == SUB_TAKE and not offer_left(s.offer, s.n_offer):
                        end_turn(s)       # nothing left to take (the deck ran short)
                        continue
                    return
                automa_pick(s, cat)
                end_turn(s)
                continue
            # The last to take a card takes a cube, except after the round's last step;
            # the card left over goes to the box.
            if s.step + 1 < card_steps(s, cat) and s.n_turns > 0:
                take_cube(s, s.turn_order[s.n_turns - 1])
            for i in range(MAX_OFFER):
                s.offer[i] = -1
            s.n_offer = 0
            if s.step == marked_step(s, cat):
                s.phase = PH_MARKERS
                seat_order(s, True)
            else:
                after_card_step(s, cat)
        elif s.phase == PH_MARKERS:
            if s.turn < s.n_turns:
                return
            after_card_step(s, cat)
        elif s.phase == PH_CLOSE:
            if s.turn < s.n_turns:
                return
            end_round(s, cat)
        else:
            return


cdef inline bint at_chance(const GameState* s) noexcept nogil:
    return current_player(s) == CHANCE


include "plain_moves.pxi"   # after_action, chance_run, legal_range, advance_listing: none to shortcut (engine)
include "moves.pxi"         # apply_action, play_random (engine)

# ---------------------------------------------------------------------------------------
# The end of the game: ranking and returns (shared by the Python face, the OpenSpiel
# glue and search).
# ---------------------------------------------------------------------------------------
cdef int winners_of(const GameState* s, const double* scores, bint* win) noexcept nogil:
    """Marks the winners by `scores` (final, or projected by a search) and returns how
    many share the win. The rulebook names no tie-break: tied players share. Solo: the
    player wins with more points than the automa (a tie is no win); the automa is never
    a winner."""
    cdef int seat, k = 0
    cdef double best
    for seat in range(s.num_seats):
        win[seat] = False
    if s.automa_seat >= 0:
        win[0] = scores[0] > scores[s.automa_seat]
        return 1 if win[0] else 0
    best = scores[0]
    for seat in range(1, s.num_players):
        if scores[seat] > best:
            best = scores[seat]
    for seat in range(s.num_players):
        win[seat] = scores[seat] == best
        k += win[seat]
    return k


include "scoring.pxi"   # final_scores_double, winners, returns_of (engine)

include "hidden.pxi"


cdef void init_state(GameState* s, const Catalogue* cat, int players, int variant, int rounds,
                     bint characters, bint one_token, bint automa_wins_ties,
                     bint hard_board) noexcept nogil:
    """The state before the first setup draw; with one player, the automa joins in the
    second seat."""
    cdef int seat, r, i, x
    cdef PlayerState* p
    memset(s, 0, sizeof(GameState))
    s.num_players = players
    s.num_seats = players + 1 if players == 1 else players
    s.automa_seat = 1 if players == 1 else -1
    s.rounds = rounds
    s.variant = variant
    s.characters = characters
    s.one_token = one_token
    s.automa_wins_ties = automa_wins_ties
    s.hard_board = hard_board
    s.asking = -1
    s.first_seat = -1
    s.token_window = -1
    s.taken = -1
    s.held_shown = -1
    s.held_symbol = -1
    s.cubes_left = cat.cubes
    s.tiles = (1 << N_CHARACTERS) - 1
    s.card_deck[0] = ~(<uint64_t>0)
    s.card_deck[1] = bit(N_CARDS - 64) - 1
    s.frame_deck = bit(N_FRAMES) - 1
    s.plate_deck = bit(N_PLATES) - 1
    for x in range(N_SYMBOLS):
        s.tokens[x] = cat.tokens[x]
        s.bag[x] = cat.tokens[x]
    for i in range(N_POOL):
        s.pool[i] = -1
    for i in range(MAX_OFFER):
        s.offer[i] = -1
        s.offer_frame[i] = -1
        s.offer_plate[i] = -1
    for r in range(N_ROUNDS):
        for i in range(N_CHOICES):
            s.solo[r][i] = -1
    for seat in range(MAX_SEATS):
        p = &s.players[seat]
        p.character = -1
        p.side = -1
        p.markers = MARKERS if seat < players else 0
        for i in range(MAX_HAND):
            p.hand[i] = -1
        for r in range(N_ROUNDS):
            p.order_frame[r] = -1
            p.order_plate[r] = -1
            for i in range(9):
                p.closed[r][i] = CELL_EMPTY
        for r in range(GRID):
            for i in range(GRID):
                p.grid[r][i] = CELL_EMPTY
    if s.automa_seat >= 0:
        s.phase = PH_SOLO_BOARD
    elif characters:
        s.phase = PH_TILES
    else:
        s.phase = PH_SETUP_TOKENS
    if not characters:
        s.tiles = 0
    advance(s, cat)

include "api.pxi"
include "heuristic.pxi"
include "search_hooks.pxi"
include "engine/search.pxi"
include "spiel.pxi"
