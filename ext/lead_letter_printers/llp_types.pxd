# cython: language_level=3
"""Plain C data of the Lead Letter Printers core: the catalogue, the game state, the
action and chance encodings.

Everything here is a fixed-size C struct with no Python objects, so a state is cloned by
a struct copy and the rule functions in core.pyx run without the GIL. Arrays are int16_t
(Cython converts them to and from Python lists, which keeps `to_dict`/`state_from_dict`
automatic). The meaning of every action range is documented at the top of core.pyx.
"""
from libc.stdint cimport int16_t, int32_t, uint16_t, uint32_t, uint64_t

# ---------------------------------------------------------------------------------------
# Sizes fixed by the rulebook's component list (a catalogue with other counts is rejected
# at load) and by the boards as reconstructed (docs/lead_letter_printers/catalogue.md).
# ---------------------------------------------------------------------------------------
cdef enum:
    MAX_SEATS = 4
    N_RES = 3              # paper, lead, ink
    N_GOODS = 5            # + marks, points (trading tiles)
    G_MARKS = 3
    G_POINTS = 4
    N_LETTERS = 6          # A-F
    N_SIGNS = 3            # white, red, blue signboards
    N_LEVELS = 4           # I-IV
    TECH_PILES = 4         # = N_LEVELS: other names for the piles' arrays (Cython keys its
    FACTORY_PILES = 4      #   list converters of 2-d arrays by the outer dimension's name)
    N_LETTER_TILES = 54
    N_TECHS = 48
    N_FACTORIES = 36
    N_TILES = 36           # trading tiles
    N_ORDERS = 36
    N_CONTRACTS = 24
    N_DISCS = 24
    N_SHOPS = 16
    PER_LEVEL_TECHS = 12
    PER_LEVEL_FACTORIES = 9
    PER_LEVEL_ORDERS = 9
    N_ASSISTANTS = 5       # a player's assistants: 1 paper / 1 lead / 1 ink / 1 mark / 1 capacity
    N_MARKERS = 12         # a player's city markers (the director's track has 12 spaces)
    N_TRADESMEN = 2
    N_ROOMS = 2            # room I (index 0), room II (index 1)
    GRID_SIDE = 4          # the city board is at most 4 x 4 shops
    GRID_CELLS = 16
    N_STREETS = 32         # street of cell c: c * 2 (to the right), c * 2 + 1 (below)
    N_SPACES = 15          # workshop technology spaces: 5 columns x 3 rows
    N_COLUMNS = 5
    STICK_SIDE = 3         # 3 composing sticks of 3 spaces
    N_STICK = 9
    N_SLOTS = 4            # contract slots
    MAX_FORMATION = 4      # cells of a formation
    TECH_ROWS = 3          # face-up technologies of each level
    N_FACE_TILES = 3       # face-up trading tiles
    N_TABLE = 4            # lead letters on the typesetting table
    N_DISPLAY = 5          # orders / contracts next to the order track
    N_STACKS = 2           # lead letter stacks on the workshop's left
    MAX_STACK = 16         # letters in one stack (the struct's limit; covered letters pile up)
    N_WAITING = 2          # orders waiting next to the workshop
    N_STAGES = 4           # production stages
    N_SECTIONS = 6         # order track: the player order section + 5 sections
    CAP_SPACES = 11        # capacity track 0..10
    MAX_WORKFORCE = 8
    MAX_CITIES = 16
    MAX_ROADS = 32
    MAX_NODES = 64         # cities and coin spaces of the travel map
    MAX_DEGREE = 6
    MAX_EFFECTS = 3        # effects printed in one place
    MAX_FRAMES = 32        # effects waiting to be carried out (nested)
    MAX_LEGAL = 256
    BANK = 10000           # marks in the bank at the start (coins are not a limit: rulings.md)
    RESOURCE_SUPPLY = 20   # "20 paper, 20 lead, 20 ink"

# Effects (names.EFFECTS, in this order).
cdef enum:
    E_PAPER = 0
    E_LEAD = 1
    E_INK = 2
    E_MARKS = 3
    E_POINTS = 4
    E_RESOURCE = 5
    E_CAPACITY = 6
    E_CAPACITY_REWARD = 7
    E_WORKFORCE = 8
    E_TRADE = 9
    E_TYPESETTING = 10
    E_TYPESET_ANY = 11
    E_TRAVEL = 12
    E_TECHNOLOGY = 13
    E_TECH_LEVEL = 14
    E_FACTORY = 15
    E_ASSISTANT = 16
    E_LETTER_RESOURCES = 17
    E_TAKE_LETTER = 18
    E_DISCARD_LETTER = 19
    E_ADVANCE = 20
    E_STEPS = 21
    E_BUY_ORDER = 22
    E_BUY_CONTRACT = 23
    E_SIGNBOARD = 24
    E_CITY_DISC = 25
    E_COPY = 26
    E_SLIDE = 27
    E_PAIRING = 28
    E_PTS_CAPACITY = 29
    E_PTS_WORKFORCE = 30
    E_PTS_ASSISTANTS = 31
    E_PTS_TECHS = 32
    E_PTS_LETTER = 33
    N_EFFECTS = 34
    FREE_RESOURCES = 1     # E_TECHNOLOGY's arg bits
    FREE_MONEY = 2

# Factory abilities (names.FACTORY_ABILITIES, in this order).
cdef enum:
    FA_STAGE_MARKS = 0
    FA_STAGE_CAPACITY = 1
    FA_STAGE_TRADE = 2
    FA_STAGE_POINTS = 3
    FA_RESET_GOOD = 4
    FA_RESET_CAPACITY = 5
    FA_RESET_DISCARD = 6
    FA_LETTER_MARKS = 7
    FA_LETTER_CAPACITY = 8
    FA_WORKFORCE_MARKS = 9
    FA_TRAVEL_DISCOUNT = 10
    FA_TECH_DISCOUNT = 11
    FA_ORDER_DISCOUNT = 12
    FA_CONTRACT_DISCOUNT = 13
    FA_TRADE_MARKS = 14
    FA_DISC_RESOURCE = 15
    FA_SIGNBOARD_POINTS = 16
    FA_TYPESETTING_POINTS = 17
    FA_TRADING_POINTS = 18
    N_ABILITIES = 19

# Contract scoring (names.CONTRACT_KINDS, in this order).
cdef enum:
    K_MARKS = 0
    K_SIGNBOARDS = 1
    K_TECH_LEVEL = 2
    K_TECHS = 3
    K_DISCS = 4
    K_ORDERS = 5
    K_WORKFORCE = 6
    K_FACTORIES = 7
    K_LETTER = 8
    K_ASSISTANTS = 9
    K_CONTRACTS = 10
    K_SLOTS = 11
    K_COLUMNS = 12
    K_DIAGONALS = 13

# City kinds.
cdef enum:
    CITY_RED = 0
    CITY_GREY = 1
    CITY_PLAIN = 2

# ---------------------------------------------------------------------------------------
# The catalogue: every component as numbers, built by games.lead_letter_printers.catalogue
# from the JSON data and copied once into the rules.
# ---------------------------------------------------------------------------------------
ctypedef struct Effect:
    int16_t kind                    # E_*
    int16_t n                       # how much / how many times
    int16_t arg                     # E_TECHNOLOGY: FREE_* bits; E_TRAVEL, E_ADVANCE, E_BUY_*,
                                    # E_TAKE_LETTER: 1 free / with resources; E_TECH_LEVEL,
                                    # E_COPY: a level 0-3; E_PTS_LETTER: a letter 0-5

ctypedef struct Effects:
    int16_t n
    Effect e[MAX_EFFECTS]

ctypedef struct LetterTile:
    int16_t letters                 # bit mask over A-F
    int16_t res[N_RES]

ctypedef struct Technology:
    int16_t level                   # 0-3
    int16_t green                   # 1: an instant (green) technology
    Effects action

ctypedef struct Factory:
    int16_t level
    int16_t ability                 # FA_*
    int16_t arg                     # stage 0-3, good 0-3 (paper, lead, ink, marks), signboard 0-2

ctypedef struct TradingTile:
    int16_t give[N_GOODS]
    int16_t get[N_GOODS]
    int16_t two_way
    int16_t times

ctypedef struct Order:
    int16_t level
    int16_t points
    int16_t sign                    # signboard 0-2, -1 none
    int16_t cost[N_STAGES][N_RES]   # resources to leave stage k (1-4)

ctypedef struct Contract:
    int16_t kind                    # K_*
    int16_t arg                     # signboard, level or letter

ctypedef struct Disc:
    int16_t letter
    int16_t sign                    # -1 none
    Effects reward

ctypedef struct Shop:
    int16_t players                 # in play from this many players on
    Effects room[N_ROOMS]

ctypedef struct Space:
    int16_t level
    int16_t column                  # 0-4
    int16_t left                    # bit mask of the spaces it is linked to in the column to its left
    Effects action

ctypedef struct StickSpace:
    int16_t letter
    Effects action

ctypedef struct Slot:
    int16_t n
    int16_t dr[MAX_FORMATION]
    int16_t dc[MAX_FORMATION]
    Effects action

ctypedef struct Board:
    int16_t rows
    int16_t cols
    int16_t shop[GRID_CELLS]        # cell r * GRID_SIDE + c: a shop index, -1 outside

ctypedef struct Catalogue:
    LetterTile letters[N_LETTER_TILES]
    Technology techs[N_TECHS]
    Factory factories[N_FACTORIES]
    TradingTile tiles[N_TILES]
    Order orders[N_ORDERS]
    Contract contracts[N_CONTRACTS]
    Disc discs[N_DISCS]
    Shop shops[N_SHOPS]
    Board boards[MAX_SEATS + 1]     # by player count (2-4)
    Space spaces[N_SPACES]
    StickSpace stick[N_STICK]
    Slot slots[N_SLOTS]
    Effects capacity_reward[CAP_SPACES]
    Effects director_reward[N_MARKERS]
    int16_t director_points[N_MARKERS + 1]   # above the director at 0..12 cities
    int16_t workforce_max
    int16_t assistant_at[2]
    int16_t order_steps[MAX_SEATS]  # steps shown on player order markers 1-4
    int16_t row_cost[TECH_ROWS][N_RES]
    int16_t column_money[N_LEVELS]
    int16_t order_price[N_DISPLAY]
    int16_t contract_price[N_DISPLAY]
    int16_t n_cities
    int16_t city_kind[MAX_CITIES]
    int16_t mainz
    int16_t n_nodes                 # cities first, then the coin spaces
    int16_t degree[MAX_NODES]
    int16_t next[MAX_NODES][MAX_DEGREE]
    int16_t road_of[MAX_NODES][MAX_DEGREE]   # the road each link belongs to
    int16_t n_roads
    int16_t road_end[MAX_ROADS][2]  # its two cities
    # Derived at load from the orders and discs (not in the catalogue's data), so that a
    # player's signboards are counted with a few bit operations (sign_counts, unused_signs):
    uint64_t sign_orders[N_SIGNS]   # the orders showing a signboard of each colour
    uint32_t sign_discs[N_SIGNS]    # the city discs showing one

# ---------------------------------------------------------------------------------------
# The game state.
# ---------------------------------------------------------------------------------------
cdef enum:
    PH_DEAL = 0            # setup: chance fills the boards; then the tradesmen are placed
    PH_SETUP = 1           # tradesmen on II rooms, in player order then reversed
    PH_ACTIONS = 2         # two turns each in player order
    PH_ORDERS = 3          # order and contract phase, reverse order of the order track
    PH_PRODUCTION = 4      # each player in player order, then wages
    PH_PREPARATION = 5     # new player order, the displays refilled (chance)
    PH_FINAL = 6           # no orders left: the last optional actions in player order
    PH_TERMINAL = 7

# Frames: the effects being carried out, innermost on top (GameState.frames). Those
# marked * wait for a decision of the acting player.
cdef enum:
    F_EFFECT = 0           # an effect of the catalogue (E_* in kind2), carried out when it comes up
    F_RESOURCE = 1         # * n resources of choice
    F_TRADE = 2            # * a trade action (a: tiles refreshed; b: 1 keep the tile; n trades)
    F_CONVERT = 3          # * the 1:2 conversion: a = the resource paid (-1 first), n gains left
    F_TILE_AGAIN = 4       # * once more with the trading tile: a tile, b direction, n times left
    F_TYPESET = 5          # * a typesetting action (arg 1: the action regardless of the letter)
    F_TYPESET_WHERE = 6    # * where the letter from stack a goes
    F_TRAVEL = 7           # * a = steps left, b = 1 moved on the map, c = 1 stopped there,
                           #   d = 1 a real Travel action; arg = 1 no money; n = discount left
    F_CITY_CHOICE = 8      # * after a travel's stop in a city: trade, factory or nothing
    F_COIN_CHOICE = 9      # * after a travel's stop on a coin: trade or nothing
    F_TECHNOLOGY = 10      # * arg FREE_* bits, a: column refreshed, b: a level for free (-1 any)
    F_TECH_DONE = 11       # the bought technology's own effect once it is built (a: tech, b: space)
    F_BUILD = 12           # * a: tile code (tech id, or N_TECHS + factory id); b: 1 a replaced tile
    F_CHAIN = 13           # * a blue chain at space a, going left
    F_FACTORY = 14         # * choose the factory pile (arg 1: optional)
    F_FACTORY_DRAW = 15    # chance: a = level, n = drawn so far (GameState.drawn)
    F_FACTORY_KEEP = 16    # * keep one of the drawn factories
    F_ASSISTANT = 17       # * a: the kind chosen (-1 first); b: workforce level it comes from (-1)
    F_LETTER_RES = 18      # * n times: the resources of a top lead letter
    F_TABLE = 19           # * a lead letter of the table: arg 0 take, 1 take with resources, 2 discard
    F_KEEP = 20            # * keep letter a on a stack, or (b = 1: a Reset) discard it for its resources
    F_ADVANCE = 21         # * one order 1 stage on (arg 1 no resources)
    F_BUY = 22             # * arg 0 an order, 1 a contract; b 1 free
    F_SIGNBOARD = 23       # * one signboard action of choice, for free
    F_CITY_DISC = 24       # * the disc of a city of choice
    F_COPY = 25            # * copy a technology of level <= arg
    F_SLIDE = 26           # * slide a tradesman from a I room; its II action n times
    F_LAY = 27             # * the Reset: lay down one of the upright tradesmen
    F_RESET_ACT = 28       # the Reset: the II actions of the tradesmen that slid (a, b: 1 slid)
    F_STAGE = 29           # an order left stage arg (0-3): the factories' stage abilities
    F_SIGN_SOURCE = 30     # * which signboard of colour arg to turn face down (n still to turn)
    N_FRAME_KINDS = 31

ctypedef struct Frame:
    int16_t kind                    # F_*
    int16_t kind2                   # F_EFFECT: the effect's E_*
    int16_t n
    int16_t arg
    int16_t a
    int16_t b
    int16_t c
    int16_t d

ctypedef struct PlayerState:
    int16_t marks
    int16_t points
    int16_t res[N_RES]
    int16_t workforce
    int16_t capacity
    int16_t assistants              # bit mask of the assistant kinds not on the board
    int16_t wf_street[2]            # the street of the assistant gained at workforce 3 / 6, -1
    int16_t stack[N_STACKS][MAX_STACK]   # lead letters on the workshop's left, bottom first
    int16_t stack_n[N_STACKS]
    int16_t stick[N_STICK]          # lead letter on each composing stick space, -1
    int16_t stick_disc[N_STICK]     # city disc paired with it, -1
    int16_t slots_open              # bit mask of unlocked contract slots
    int16_t slots_used              # ... whose bonus action was taken
    int16_t slot_contract[N_SLOTS]  # active contract, -1
    int16_t slots_changed           # slots given a contract this turn (once a turn each: rulings.md)
    uint32_t contracts              # bought contracts (bit mask), active or not
    int16_t contract_letter[N_CONTRACTS]   # lead letter under each contract, -1
    int16_t up[N_SPACES]            # face-up tile on a space: tech id, N_TECHS + factory id, -1
    int16_t down[N_SPACES]          # face-down tile under it (or alone), -1
    int16_t waiting[N_WAITING]      # bought orders not in the workshop, -1
    int16_t stage[N_STAGES]         # order in production stage 1-4, -1
    uint64_t completed              # completed orders (bit mask)
    uint64_t signs_used             # completed orders whose signboard was used
    uint64_t signs_fresh            # completed in this Action phase: usable from the next one
    uint32_t discs                  # city discs gained
    uint32_t discs_used             # ... turned face down
    uint32_t cities                 # cities with this player's city marker
    int16_t factories_paid          # city markers spent on factories
    int16_t pairing                 # 1: may pair city tiles with lead letters
    int16_t agent                   # node of the agent on the travel map
    int16_t section                 # order track section 0-5
    int16_t track_slot              # its slot in the section (0 the rightmost)
    int16_t pos[N_TRADESMEN]        # city board cell of each tradesman
    int16_t room[N_TRADESMEN]       # 0: room I, 1: room II
    int16_t upright[N_TRADESMEN]
    int16_t entered[N_TRADESMEN]    # when it entered its room (who was there first)
    int16_t bought_order            # in this order and contract phase
    int16_t bought_contract

ctypedef struct GameState:
    int16_t num_players
    int16_t num_seats               # = num_players (no automa in this game)
    int16_t rounds_played
    int16_t max_rounds              # 0: until the orders run out; k: a small variant of k rounds
    int16_t phase
    int16_t order[MAX_SEATS]        # player order (seats, first player first)
    int16_t turn                    # index into the phase's sequence
    int16_t n_turns
    int16_t seq[2 * MAX_SEATS]      # the phase's sequence of seats
    int16_t actor                   # the seat carrying out effects / deciding, -1
    int16_t deal                    # the deal a chance node makes now (core.pyx DEAL_*), -1
    int16_t main_done               # the turn's Shop or Reset action is done
    int16_t prod_left               # production: stages the player may still advance
    int16_t stamp                   # entry counter for tradesmen (who entered first)
    int32_t bank                    # marks in the bank
    int16_t supply[N_RES]
    # decks: bit masks of what is still to be drawn, face-up displays, bottom queues
    uint64_t letter_pile
    int16_t letter_top              # the letters on the back of the pile's top tile (mask), -1 not shown yet
    uint64_t letter_discard
    int16_t table[N_TABLE]
    int16_t start_letters_due       # players still to get their starting lead letter
    uint64_t tile_pile
    uint64_t tile_discard
    int16_t face_tiles[N_FACE_TILES]
    uint64_t tech_pile              # not drawn yet and not at the bottom queue
    int16_t tech_bottom[TECH_PILES][PER_LEVEL_TECHS]   # returned face up, drawn after the rest
    int16_t tech_bottom_n[N_LEVELS]
    int16_t tech_face[N_LEVELS][TECH_ROWS]
    uint64_t factory_pile           # unseen part of each factory pile
    int16_t factory_bottom[FACTORY_PILES][PER_LEVEL_FACTORIES]   # put back under the pile
    int16_t factory_bottom_n[N_LEVELS]
    int16_t factory_bottom_seen[FACTORY_PILES][PER_LEVEL_FACTORIES]   # bit mask of the seats that saw it
    int16_t drawn[3]                # factories drawn now, -1
    int16_t drawn_seen[3]           # bit mask of the seats that have seen each
    int16_t factory_tops            # the rule: 1 the piles lie face up (setup 2a), their tops in sight; 0 as a face-down deck
    int16_t factory_top[FACTORY_PILES]   # the factory on top of each pile, in sight of all; -1 not shown yet
    uint64_t order_pile             # orders not drawn (including those left in the box)
    int16_t orders_left[N_LEVELS]   # orders still in each pile
    uint64_t order_discard          # orders discarded at a preparation (to the box)
    int16_t order_display[N_DISPLAY]
    uint32_t contract_pile
    uint32_t contract_discard
    int16_t contract_display[N_DISPLAY]
    int16_t refill_display          # 1: empty order and contract spaces are filled now
    int16_t taken[2]                # orders, contracts taken from the displays this round
    uint32_t disc_pile              # discs not placed yet (the rest go to the box)
    int16_t city_disc[MAX_CITIES]   # disc on each city, -1
    int16_t discs_due               # grey cities still to get a disc (setup)
    int16_t street_owner[N_STREETS] # assistants on the city board: seat, -1
    int16_t street_kind[N_STREETS]
    int16_t n_frames
    Frame frames[MAX_FRAMES]
    PlayerState players[MAX_SEATS]

# ---------------------------------------------------------------------------------------
# Action encoding (player actions; core.pyx says what each range means).
# ---------------------------------------------------------------------------------------
cdef enum:
    A_PASS = 0                                  # end the turn / decline / stop
    A_SETUP = 1                                 # setup: a tradesman into the II room of cell X
    A_MOVE = A_SETUP + GRID_CELLS               # shop: tradesman t to cell X, room r: (t*16+X)*2+r
    A_RESET = A_MOVE + N_TRADESMEN * GRID_CELLS * N_ROOMS   # reset: lead letter X of the table
    A_KEEP = A_RESET + N_TABLE                  # keep the letter on stack k
    A_DISCARD = A_KEEP + N_STACKS               # discard it for its resources
    A_LAY = A_DISCARD + 1                       # lay down tradesman t
    A_RESOURCE = A_LAY + N_TRADESMEN            # a resource: paper, lead, ink
    A_CONVERT = A_RESOURCE + N_RES              # trade: the 1:2 conversion
    A_TILE = A_CONVERT + 1                      # trade: face-up tile i, direction d: i*2+d
    A_REFRESH_TILES = A_TILE + N_FACE_TILES * 2 # trade: 1 mark, 3 new tiles
    A_AGAIN = A_REFRESH_TILES + 1               # trade: the tile once more
    A_STACK = A_AGAIN + 1                       # the top lead letter of stack k
    A_STICK = A_STACK + N_STACKS                # typesetting: composing stick space X
    A_STICK_PAIR = A_STICK + N_STICK            # ... paired with a city tile of the space's letter
    A_UNDER = A_STICK_PAIR + N_STICK            # ... under the contract of slot X
    A_MAP = A_UNDER + N_SLOTS                   # travel: along link k of the agent's node
    A_TRACK = A_MAP + MAX_DEGREE                # travel: 1 section on the order track
    A_STOP = A_TRACK + 1                        # travel: stop on the map here
    A_TRADE = A_STOP + 1                        # after a travel: a trade action
    A_FACTORY_PILE = A_TRADE + 1                # a factory of level X: draw 3
    A_FACTORY = A_FACTORY_PILE + N_LEVELS       # keep factory X
    A_UP = A_FACTORY + N_FACTORIES              # build face up on space X
    A_DOWN = A_UP + N_SPACES                    # build face down on space X
    A_REPLACE = A_DOWN + N_SPACES               # build on space X, its tile goes face down elsewhere
    A_TECH = A_REPLACE + N_SPACES               # technology of level column c, row r: c*3+r
    A_REFRESH_COLUMN = A_TECH + N_LEVELS * TECH_ROWS   # 1 mark: 3 new technologies of level X
    A_CHAIN = A_REFRESH_COLUMN + N_LEVELS       # the chain goes on to space X
    A_ASSISTANT = A_CHAIN + N_SPACES            # the assistant of kind X
    A_STREET = A_ASSISTANT + N_ASSISTANTS       # onto street X
    A_TABLE = A_STREET + N_STREETS              # lead letter X of the typesetting table
    A_ADVANCE = A_TABLE + N_TABLE               # order: waiting 0-1 (X), stage 1-4 (X = 2..5)
    A_BUY_ORDER = A_ADVANCE + N_WAITING + N_STAGES   # the order on display space X
    A_BUY_CONTRACT = A_BUY_ORDER + N_DISPLAY    # the contract on display space X
    A_SIGNBOARD = A_BUY_CONTRACT + N_DISPLAY    # signboard action: white, red, blue
    A_ACTIVATE = A_SIGNBOARD + N_SIGNS          # contract X into slot k: X*4+k
    A_DISC = A_ACTIVATE + N_CONTRACTS * N_SLOTS # use city disc X
    A_CITY = A_DISC + N_DISCS                   # the disc of city X
    A_COPY = A_CITY + MAX_CITIES                # copy the technology on space X
    A_SLIDE = A_COPY + N_SPACES                 # slide tradesman t
    A_PAIR = A_SLIDE + N_TRADESMEN              # pair city disc X with a lead letter
    N_ACTIONS = A_PAIR + N_DISCS

# Chance outcomes.
cdef enum:
    C_LETTER = 0                                # lead letter X
    C_TILE = C_LETTER + N_LETTER_TILES          # trading tile X
    C_TECH = C_TILE + N_TILES                   # technology X
    C_ORDER = C_TECH + N_TECHS                  # order X
    C_CONTRACT = C_ORDER + N_ORDERS             # contract X
    C_DISC = C_CONTRACT + N_CONTRACTS           # city disc X (onto the next grey city)
    C_FACTORY = C_DISC + N_DISCS                # factory X drawn by seat q: q*36+X
    C_TOP = C_FACTORY + MAX_SEATS * N_FACTORIES # the lead letters' pile shows letters X (a mask) on top
    C_FACTORY_TOP = C_TOP + (1 << N_LETTERS)    # factory X comes into view on top of its level's pile
    N_CHANCE = C_FACTORY_TOP + N_FACTORIES
