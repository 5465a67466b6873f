# cython: language_level=3
"""Plain C data of the Printing Press core: the catalogue, the game state, the action
encoding.

Everything here is a fixed-size C struct with no Python objects, so a state is cloned by
a struct copy and the rule functions in core.pyx run without the GIL. Arrays are int16_t
(not char): Cython converts int16_t arrays to and from Python lists, which keeps
`to_dict`/`state_from_dict` automatic. The meaning of every action range is documented
at the top of core.pyx.
"""
from libc.stdint cimport int16_t, uint64_t

# ---------------------------------------------------------------------------------------
# Sizes fixed by the rulebook (a catalogue with other counts is rejected at load).
# ---------------------------------------------------------------------------------------
cdef enum:
    N_SYMBOLS = 12         # 4 letters, 4 inks, 4 specialties (names.SYMBOLS)
    N_LETTERS = 4
    N_KIND = 4             # symbols of one kind (letters, inks or specialties)
    N_CARDS = 90
    N_PLATES = 16
    N_FRAMES = 16
    N_CHARACTERS = 5
    N_ROUNDS = 3
    MAX_CARD_STEPS = 6     # basic side of the time track (advanced: 5)
    MAX_SEATS = 4          # participants, the solo game's automa counting as one
    MAX_OFFER = 5          # orders or cards laid out: participants + 1
    N_POOL = 3             # tokens drawn for a discarded card
    N_SETUP_SLOTS = 4      # setup tokens: 3, Caxton (side A) 4
    MAX_HAND = 5           # hand slots: the setup tokens, then the one Caxton (side B) takes
    N_PAIRS = 6            # pairs of setup slots (Caxton side B gives two tokens)
    N_COLUMNS = 4          # the solo board's columns
    N_CHOICES = 3          # the automa's choices a round
    N_TRACK_SIDES = 2      # basic, advanced
    # The tableau. A round's tableau is connected, every piece touches an earlier one, so
    # it spans at most (first piece) 3 + 3 per further card + 1 per token squares in each
    # direction: 6 card steps x 3 + 4 setup tokens (Caxton, side A) = 22, and so does
    # 18 + 3 setup tokens + Guillard's token. GRID x GRID holds every reachable tableau,
    # kept with its top-left square at (0, 0); placements are anchored relative to it.
    GRID = 22
    ANCHOR_MIN = -3        # anchors run -3..GRID in rows and columns
    ANCHOR_SIDE = GRID + 4
    N_ANCHORS = ANCHOR_SIDE * ANCHOR_SIDE
    MAX_LEGAL = 3072       # 4 orientations x N_ANCHORS placements + free actions, at most

# Symbols (names.SYMBOLS): a symbol's kind is symbol // 4.
cdef enum:
    SYM_A = 0
    SYM_I = 1
    SYM_O = 2
    SYM_U = 3
    SYM_BLUE = 4
    SYM_RED = 5
    SYM_YELLOW = 6
    SYM_GREY = 7
    SYM_TYPESETTING = 8
    SYM_WOODCUTTING = 9
    SYM_BINDING = 10
    SYM_ILLUMINATING = 11
    KIND_LETTER = 0
    KIND_INK = 1
    KIND_SPECIALTY = 2

# What a square shows: a symbol 0-11, the initiative icon, or nothing (a card's blank
# square). A tableau cell holds that value, -1 when empty, with a flag for a symbol token
# (one of the 48; face down it shows the initiative icon) or Guillard's ability token.
cdef enum:
    SQ_INITIATIVE = 12
    SQ_BLANK = 13
    CELL_EMPTY = -1
    CELL_BASE = 15         # mask of what the cell shows
    CELL_TOKEN = 16
    CELL_ABILITY = 32

# Plate additional conditions (rulebook p.19), frame ink lines and plate corners.
cdef enum:
    ADD_ADJACENT = 0       # the indicated letters adjacent (horizontally or vertically)
    ADD_ABSENT = 1         # the indicated letter does not appear
    ADD_CORNER = 2         # the indicated letter in the indicated corner
    ADD_MIDDLE_COLUMN = 3
    ADD_MIDDLE_ROW = 4
    CORNER_TOP_LEFT = 0
    CORNER_TOP_RIGHT = 1
    CORNER_BOTTOM_LEFT = 2
    CORNER_BOTTOM_RIGHT = 3
    LINE_TOP_ROW = 0
    LINE_MIDDLE_ROW = 1
    LINE_BOTTOM_ROW = 2
    LINE_LEFT_COLUMN = 3
    LINE_MIDDLE_COLUMN = 4
    LINE_RIGHT_COLUMN = 5

# Character tiles (rulebook p.18), ids in the order of names.CHARACTERS; sides A, B.
cdef enum:
    CH_GUTENBERG = 0
    CH_UNGLER = 1
    CH_CAXTON = 2
    CH_GUILLARD = 3
    CH_BONHOMME = 4
    SIDE_A = 0
    SIDE_B = 1

# ---------------------------------------------------------------------------------------
# The catalogue: every component as numbers, built by games.printing_press.catalogue from
# the JSON data and copied once into the rules.
# ---------------------------------------------------------------------------------------
ctypedef struct Card:
    int16_t vertical                # 0: a row of 3 squares, 1: a column
    int16_t squares[3]              # left to right / top to bottom as printed: SYM or SQ_*

ctypedef struct Plate:
    int16_t letters[N_LETTERS]      # main condition: count of each letter required
    int16_t points
    int16_t kind                    # ADD_*
    int16_t letter                  # the additional condition's letter
    int16_t letter2                 # ADD_ADJACENT: the other letter (the same for a~a)
    int16_t corner                  # ADD_CORNER: CORNER_*
    int16_t bonus                   # the additional condition's points

ctypedef struct Frame:
    int16_t ink                     # ink condition: this ink (SYM_*) ...
    int16_t line                    # ... in this row or column (LINE_*)
    int16_t ink_points
    int16_t specialties             # specialty condition: bit mask over the 4 specialties
    int16_t specialty_points
    int16_t slots[2]                # bonus-marker slots: a symbol (an ink or a specialty) each

ctypedef struct TrackSide:
    int16_t card_steps              # Select Cards steps a round (6 basic, 5 advanced)
    int16_t bonus_after[N_ROUNDS]   # the marked step of each round (1-based): markers after it

ctypedef struct Catalogue:
    Card cards[N_CARDS]
    Plate plates[N_PLATES]
    Frame frames[N_FRAMES]
    int16_t tokens[N_SYMBOLS]       # symbol tokens of each symbol (4 each, 48)
    int16_t initiative[N_CHARACTERS]  # initiative value on each character tile
    TrackSide track[N_TRACK_SIDES]
    int16_t solo_kinds[N_ROUNDS][N_CHOICES]   # solo board: the kind of each choice space
    int16_t solo_points[2][N_COLUMNS]         # solo board sides: 4-3-2-1 and 5-4-3-1
    int16_t cubes                   # initiative cubes in the box (7)

# ---------------------------------------------------------------------------------------
# The game state.
# ---------------------------------------------------------------------------------------
cdef enum:
    PH_TILES = 0           # chance: a random character tile for each player
    PH_SOLO_BOARD = 1      # chance: the automa's choice tokens (solo)
    PH_CHARACTER = 2       # solo: the player chooses a character
    PH_SIDES = 3           # each player chooses the side of the tile
    PH_SETUP_TOKENS = 4    # chance: each player's face-down setup tokens
    PH_ROUND_START = 5     # Bonhomme (side B) may take a cube
    PH_DEAL_ORDERS = 6     # chance: frames, then a plate on each
    PH_ORDERS = 7          # Select Orders
    PH_DEAL_CARDS = 8      # chance: the cards of a Select Cards step, left to right
    PH_CARDS = 9           # Select Cards: take, then place (or discard and take a token)
    PH_MARKERS = 10        # bonus markers after the marked step
    PH_CLOSE = 11          # Close Frames
    PH_TERMINAL = 12

# Inside a Select Cards turn (GameState.sub).
cdef enum:
    SUB_TAKE = 0           # take one of the offered cards
    SUB_PLACE = 1          # place the taken card, or discard it for tokens
    SUB_KEEP = 2           # keep one of the drawn tokens

# A token being put into the tableau (GameState.held): the position is the next decision.
cdef enum:
    HELD_NONE = 0
    HELD_KEPT = 1          # drawn for a discarded card: placing it ends the turn
    HELD_SETUP = 2         # a setup token (a free action)
    HELD_GUILLARD = 3      # Guillard's ability token (a free action)

# Where the token of a hand slot is (PlayerState.slot).
cdef enum:
    SLOT_NONE = 0          # not drawn
    SLOT_HAND = 1          # face down in front of the player
    SLOT_UP = 2            # placed symbol side up
    SLOT_DOWN = 3          # placed initiative side up
    SLOT_RETURNED = 4      # given back to the bag (Caxton, side B)

ctypedef struct PlayerState:
    int16_t character               # -1: no character tile
    int16_t side                    # SIDE_A / SIDE_B, -1 before the choice
    int16_t ability                 # 1: the one-time ability is still there to use
    int16_t cubes                   # initiative cubes this round
    int16_t hand[MAX_HAND]          # the symbol of each slot's token (kept as a record)
    int16_t slot[MAX_HAND]          # SLOT_*
    int16_t n_setup                 # setup tokens drawn
    int16_t markers                 # 1/2 bonus markers not placed yet
    int16_t marker13                # 1: holds the 1/3 bonus marker (Gutenberg)
    int16_t order_frame[N_ROUNDS]   # the order (frame and plate) of each round, -1
    int16_t order_plate[N_ROUNDS]
    int16_t marker[N_ROUNDS * 2]    # bonus marker on slot j of round r's frame ([r * 2 + j]): its value, 0 none
    int16_t closed[N_ROUNDS][9]     # the 3x3 cells of each closed frame, row by row
    int16_t fame                    # points of the closed rounds (the end bonus comes on top)
    int16_t height                  # the current tableau: rows and columns used
    int16_t width
    int16_t pieces                  # cards and tokens placed in it
    int16_t grid[GRID][GRID]
    int16_t hidden_out[N_SYMBOLS]   # drawn tokens this player placed initiative side up
    int16_t columns[N_COLUMNS]      # the automa: its cards in each column this round

ctypedef struct GameState:
    int16_t num_seats               # participants, the automa counting as one
    int16_t num_players             # people
    int16_t automa_seat             # -1: no automa (it sits after the player)
    int16_t rounds                  # 3 (fewer for small variants)
    int16_t variant                 # 0 basic (time track side A), 1 advanced (side B)
    int16_t characters              # 1: character tiles are in play
    int16_t one_token               # solo difficulty: 1 setup token instead of 3
    int16_t automa_wins_ties        # solo difficulty: the automa wins initiative ties
    int16_t hard_board              # solo difficulty: the 5-4-3-1 side of the solo board
    int16_t round                   # 1-based; 0 during setup
    int16_t phase
    int16_t step                    # Select Cards step of the round, 0-based
    int16_t sub                     # SUB_*
    int16_t turn_order[MAX_SEATS]
    int16_t n_turns
    int16_t turn
    int16_t asking                  # the seat asked whether to use Bonhomme's ability, -1
    int16_t first_seat              # Bonhomme (side A) goes first this step, -1
    int16_t token_window            # the seat whose token window is open (tokens before this step's order), -1
    int16_t unused[3]               # 0: keeps the struct free of padding (states compare as bytes)
    int16_t taken                   # the card taken this turn, -1
    int16_t held                    # HELD_*
    int16_t held_shown              # what the held token will show: a symbol or SQ_INITIATIVE
    int16_t held_symbol             # its symbol (face down: seen by its owner only)
    int16_t caxton                  # 1: Caxton (side B) gave two tokens, chooses one from the bag
    int16_t offer[MAX_OFFER]        # cards laid out left to right, -1 taken or empty
    int16_t n_offer                 # cards laid out so far
    int16_t n_deal                  # cards to lay out this step (participants + 1, or what is left)
    int16_t offer_frame[MAX_OFFER]  # orders laid out: frame and plate, -1 taken or empty
    int16_t offer_plate[MAX_OFFER]
    int16_t n_orders
    uint64_t card_deck[2]           # cards not dealt yet (bit i of word i // 64)
    uint64_t frame_deck
    uint64_t plate_deck
    int16_t tiles                   # character tiles not dealt yet (bit mask)
    int16_t tokens[N_SYMBOLS]       # the game's symbol tokens of each symbol (the catalogue's)
    int16_t bag[N_SYMBOLS]
    int16_t pool[N_POOL]            # tokens drawn for a discarded card, -1
    int16_t n_pool
    int16_t pool_due                # draws still to make
    int16_t box_tokens[N_SYMBOLS]   # tokens shown symbol side up that left the game
    int16_t solo[N_ROUNDS][N_CHOICES]   # the automa's choice tokens, -1
    int16_t solo_dealt              # choice tokens placed
    int16_t solo_returned           # rows given back to the bag
    int16_t cubes_left              # initiative cubes in the pool
    int16_t cards_dealt
    PlayerState players[MAX_SEATS]

# ---------------------------------------------------------------------------------------
# Action encoding (player actions; core.pyx says what each range means).
# ---------------------------------------------------------------------------------------
cdef enum:
    A_CHARACTER = 0                            # solo: play character X
    A_SIDE = A_CHARACTER + N_CHARACTERS        # side A / B of the tile
    A_YES = A_SIDE + 2                         # Bonhomme: use the ability now
    A_NO = A_YES + 1                           # ... or not
    A_DONE = A_NO                              # the token window: no (more) tokens before this step's order
    A_ORDER = A_NO + 1                         # take the order of frame X
    A_TAKE = A_ORDER + N_FRAMES                # take card X
    A_PLACE = A_TAKE + N_CARDS                 # place the card: orientation o, anchor: o*N_ANCHORS + anchor
    A_UNDER = A_PLACE + 4 * N_ANCHORS          # Ungler (side A): slide it partly under, at anchor
    A_DISCARD = A_UNDER + N_ANCHORS            # discard the card and draw 3 tokens
    A_KEEP_UP = A_DISCARD + 1                  # keep the drawn token of symbol X, symbol side up
    A_KEEP_DOWN = A_KEEP_UP + N_SYMBOLS        # keep it, initiative side up
    A_SETUP_UP = A_KEEP_DOWN + N_SYMBOLS       # setup token of slot k (symbol X) symbol side up: k*12 + X
    A_SETUP_DOWN = A_SETUP_UP + MAX_HAND * N_SYMBOLS   # setup token of slot k, initiative side up
    A_GUILLARD = A_SETUP_DOWN + MAX_HAND       # Guillard's token, declared symbol X
    A_CAXTON_GIVE = A_GUILLARD + N_SYMBOLS     # Caxton (side B): give the tokens of a pair of slots
    A_CAXTON_TAKE = A_CAXTON_GIVE + N_PAIRS    # ... and take a token of symbol X from the bag
    A_TOKEN_AT = A_CAXTON_TAKE + N_SYMBOLS     # put the held token at an anchor
    A_MARKER = A_TOKEN_AT + N_ANCHORS          # bonus marker m on slot j: m*2 + j
    A_WINDOW = A_MARKER + 6                    # close the frame on the 3x3 window at an anchor
    N_ACTIONS = A_WINDOW + N_ANCHORS

# Bonus marker kinds (A_MARKER).
cdef enum:
    MK_NORMAL = 0          # a 1/2 marker (2, or 1 on a symbol already marked)
    MK_THIRTEEN = 1        # Gutenberg (side A): the 1/3 marker (3, or 1)
    MK_WITH_EXTRA = 2      # Gutenberg (side B): a 1/2 marker, and the 1/3 marker 1 side up on the other slot

# Chance outcomes.
cdef enum:
    C_TILE = 0                                 # character tile X
    C_SOLO = C_TILE + N_CHARACTERS             # a choice token of symbol X on the solo board
    C_SETUP = C_SOLO + N_SYMBOLS               # setup token for seat q, symbol X: q*12 + X
    C_FRAME = C_SETUP + MAX_SEATS * N_SYMBOLS  # frame X
    C_PLATE = C_FRAME + N_FRAMES               # plate X
    C_CARD = C_PLATE + N_PLATES                # card X
    C_DRAW = C_CARD + N_CARDS                  # token drawn for seat q's discarded card: q*12 + X
    N_CHANCE = C_DRAW + MAX_SEATS * N_SYMBOLS
