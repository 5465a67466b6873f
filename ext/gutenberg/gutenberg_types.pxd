# cython: language_level=3
"""Plain C data of the Gutenberg core: the catalogue, the game state, the action encoding.

Everything here is a fixed-size C struct with no Python objects, so a state is cloned
by a struct copy and the rule functions in core.pyx run without the GIL.

Arrays are int16_t (not uint8_t): Cython converts char arrays to bytes, while int16_t
arrays convert to and from Python lists, which keeps `to_dict`/`from_dict` automatic.
Card sets (decks, discard piles, draw pools) are bit masks over catalogue ids.
"""
from libc.stdint cimport int16_t, uint16_t, uint32_t, uint64_t

# ---------------------------------------------------------------------------------------
# Sizes fixed by the rulebook (a catalogue with other counts is rejected at load).
# ---------------------------------------------------------------------------------------
cdef enum:
    N_LETTERS = 4          # types: A, I, O, U
    N_INKS = 4             # blue, silver, gold, red
    N_SPECIALTIES = 4      # typesetting, woodcutting, binding, illuminating
    N_ROWS = 5             # orders, inks, specialties, gears, patronage
    N_PRINTING = 50
    N_REFINEMENT = 50
    N_SPECIALTY_CARDS = 10
    N_GEARS = 32
    N_PATRONAGE = 16
    N_PATRONAGE_SPACES = 8
    N_PATRONAGE_REWARDS = 4
    N_TRACK = 4            # reward track spaces (levels II, IV, V, VI by default)
    N_SECTORS = 3
    N_AUTOMA_PLANNING = 10
    N_AUTOMA_EXECUTION = 4
    MAX_AUTOMA_MOVES = 4
    MAX_SEATS = 4          # participants, an automa counting as one
    MAX_SPACES = 5         # board spaces per kind (participants + 1)
    INK_SET = 3            # inks per ink space
    MAX_ORDERS = 4
    MAX_INSTALLED = 3      # gear positions in a printing house
    MAX_LEVEL = 6
    MAX_GEAR_USES = 3      # used gear markers per round
    MAX_PENDING = 24
    MAX_LEGAL = 1024
    N_TYPE_SETS = 20       # multisets of 3 letters from 4 (the setup choice of types)
    N_CHARACTERS = 10
    N_PLANS = 2723         # allocations of 0..10 markers on 5 rows, at most 6 a row
    MAX_MARKERS = 10
    MAX_ROW = 6            # initiative markers on one row
    # The engine's fame track and purse end here (the rulebook has no end; docs/gutenberg/rulings.md):
    # every bound (position files, utilities, consistency checks) follows from them.
    MAX_FAME = 999
    MAX_GUILDERS = 999
    MAX_TYPES = 99         # types a player holds in all (the n-th costs n: far beyond 999 guilders)

# Character tiles (rulebook p.23), ids in the order of names.CHARACTERS.
cdef enum:
    CH_GUTENBERG = 0
    CH_MANUTIUS = 1
    CH_GUILLARD = 2
    CH_UNGLER = 3
    CH_SCHOEFFER = 4
    CH_TORY = 5
    CH_CAXTON = 6
    CH_PLANTIN = 7
    CH_FIOL = 8
    CH_VIETOR = 9

# PlayerState.character_flags: once-a-round powers used.
cdef enum:
    FLAG_PLANTIN_SWAPPED = 1
    FLAG_SCHOEFFER_TWICE = 2

# Automa planning-card arrow ends beyond the rows.
cdef enum:
    AUTOMA_MIN = 5
    AUTOMA_MAX = 6

# Rows of the initiative board, top to bottom.
cdef enum:
    ROW_ORDERS = 0
    ROW_INKS = 1
    ROW_SPECIALTIES = 2
    ROW_GEARS = 3
    ROW_PATRONAGE = 4

# A reward (order completion, reward track, patronage reward spaces).
cdef enum:
    REWARD_INK = 0         # amount inks of choice from the bag
    REWARD_GUILDERS = 1
    REWARD_FAME = 2
    REWARD_SPECIALTY = 3   # +1 level in a specialty of choice (amount times)
    REWARD_ORDER = 4       # order as a reward
    REWARD_TYPE = 5        # a free type of choice
    N_REWARD_KINDS = 6

# Gear sector rewards: the 13 kinds of the rulebook's p.22 table. `mask` is a bit mask of
# the indicated inks, letters or specialty (0 where the kind indicates nothing).
cdef enum:
    GEAR_INK_SWAP = 0          # swap one of your inks for another from the bag
    GEAR_TYPE_SWAP = 1         # swap one of your types for another
    GEAR_LOWEST_SPECIALTY = 2  # +1 to a lowest specialty
    GEAR_ROUND_FAME = 3        # fame = round number
    GEAR_ORDER = 4             # order as a reward
    GEAR_SELL_TYPE = 5         # discard a type: 5 guilders or 3 fame
    GEAR_COLOUR_FAME = 6       # 2 fame per order fulfilled now using an indicated ink
    GEAR_GAIN_INK = 7          # the indicated ink from the bag
    GEAR_INK_TRADE = 8         # return the indicated ink, take any 2 from the bag
    GEAR_TYPE_FAME = 9         # 2 fame per order fulfilled now needing an indicated type
    GEAR_TYPE_DISCOUNT = 10    # buy an indicated type for 3 guilders less
    GEAR_DECORATION_FAME = 11  # 2 fame per decoration fulfilled now with the specialty
    GEAR_SPECIALTY_UP = 12     # +1 to the indicated specialty
    N_GEAR_KINDS = 13

# Patronage card requirement kinds (rulebook p.11).
cdef enum:
    PATRON_SPECIALTIES = 0
    PATRON_INKS_TYPES = 1
    PATRON_SPECIALTY_INKS = 2
    PATRON_SPECIALTY_TYPES = 3

# ---------------------------------------------------------------------------------------
# The catalogue: every component as numbers. Built by gutenberg_ai.games.gutenberg.catalogue from the
# JSON data files and copied once into the game.
# ---------------------------------------------------------------------------------------
ctypedef struct PrintingCard:
    int16_t letters[N_LETTERS]      # required count of each letter
    int16_t guilders                # reward for printing

ctypedef struct RefinementCard:
    int16_t inks[N_INKS]            # colour part: inks required (all zero: no colour part)
    int16_t colour_fame
    int16_t levels[N_SPECIALTIES]   # decoration part: minimum levels (0: not required)
    int16_t decoration_fame
    int16_t reward                  # completion reward kind (REWARD_*)
    int16_t reward_amount

ctypedef struct SpecialtyCard:
    int16_t icons[N_SPECIALTIES]    # icons of each specialty on the card (two in all)

ctypedef struct GearSector:
    int16_t kind                    # GEAR_*
    int16_t mask                    # indicated inks / letters / specialty as a bit mask

ctypedef struct Gear:
    GearSector sectors[N_SECTORS]   # in the order they reach the mark turning clockwise
    int16_t white_line              # 1: not used with 2 participants

ctypedef struct PatronageCard:
    int16_t kind                    # PATRON_*
    int16_t levels[N_SPECIALTIES]
    int16_t inks[N_INKS]            # returned to the bag when the card is taken
    int16_t types[N_LETTERS]        # owned, not spent

ctypedef struct Reward:
    int16_t kind
    int16_t amount

ctypedef struct AutomaPlanningCard:
    int16_t n_moves
    int16_t move_from[MAX_AUTOMA_MOVES]   # a row 0-4, 5 = min, 6 = max
    int16_t move_to[MAX_AUTOMA_MOVES]
    int16_t centre                        # row printed in the middle (tie-break scan start)
    int16_t patronage                     # 1: shows a patronage card

ctypedef struct BoardLayout:
    int16_t printing                # spaces for printing cards
    int16_t refinement
    int16_t ink_sets                # ink spaces, INK_SET inks each
    int16_t specialty
    int16_t gears
    int16_t draft                   # cards of each kind laid out for the setup draft

ctypedef struct Catalogue:
    PrintingCard printing[N_PRINTING]
    RefinementCard refinement[N_REFINEMENT]
    SpecialtyCard specialty[N_SPECIALTY_CARDS]
    Gear gears[N_GEARS]
    PatronageCard patronage[N_PATRONAGE]
    int16_t patronage_rounds[N_PATRONAGE_SPACES]   # the round from which each space opens
    Reward patronage_rewards[N_PATRONAGE_REWARDS]
    int16_t track_level[N_TRACK]
    Reward track_reward[N_TRACK]
    AutomaPlanningCard automa_planning[N_AUTOMA_PLANNING]
    int16_t automa_execution[N_AUTOMA_EXECUTION]
    int16_t automa_start[N_ROWS]    # the automa's initiative markers at setup (2,1,2,1,1)
    BoardLayout board[MAX_SEATS + 1]  # indexed by the number of participants (2-4)
    int16_t inks_per_colour
    int16_t starting_guilders
    int16_t starting_types
    int16_t markers_first           # initiative markers of the first player (7)
    int16_t specialty_points[MAX_LEVEL + 1]  # end scoring per level (IV 1, V 3, VI 6)
    int16_t patronage_points
    int16_t guilders_per_point
    int16_t overflow_guilders       # developing a specialty already at VI
    # The characters' special rules (rulebook p.23), as numbers.
    int16_t gutenberg_shift
    int16_t manutius_ignored_types
    int16_t guillard_draw
    int16_t guillard_keep
    int16_t ungler_levels[2]
    int16_t schoeffer_uses
    int16_t tory_fame
    int16_t tory_needs_inks
    int16_t vietor_multiplier

# ---------------------------------------------------------------------------------------
# The game state.
# ---------------------------------------------------------------------------------------

# Phases: what kind of step comes next when no pending reward is waiting.
cdef enum:
    PH_SETUP_DEAL = 0   # chance: the draft cards, the board and the patronage cards
    PH_DRAFT = 1        # setup: one order each clockwise, then counter-clockwise
    PH_TYPES = 2        # setup: each player chooses 3 types
    PH_PLAN = 3         # hidden commitments, in seat order from the first player
    PH_TURN = 4         # execute plans: a player's turn at the current row
    PH_FULFIL = 5       # fulfil orders, in seat order from the first player
    PH_REFILL = 6       # chance: prepare the next round
    PH_TERMINAL = 7
    PH_CHARACTERS = 8   # setup: each player draws 2 character tiles (chance) and keeps one
    PH_REVEAL = 9       # plans revealed: the automa's planning card (chance), Gutenberg's shift

# Steps inside a turn (GameState.sub). In the plan step `sub` is the free-action window:
# k >= 0 while the k-th player (seat order from the first player) may take free actions
# before anyone commits a plan, SUB_CHOOSE once the plans are being committed.
cdef enum:
    SUB_CHOOSE = -1     # the turn's main choice (with free actions and pass); plans
    SUB_REFINEMENT = 1  # take orders: the refinement card to pair with sub_card
    SUB_DISCARD = 2     # take orders: the order to discard for the new one
    SUB_PLACE = 3       # improve: where and how to install gear sub_card
    SUB_DONE = 9        # the choice is made; the turn ends once pending rewards are done

# Fulfil turn cursor (GameState.fulfil_slot) beyond the order slots 0-3.
cdef enum:
    FULFIL_FINISH = 4   # orders chosen: fulfilment gears, then print
    FULFIL_APPLIED = 5  # printed: the rewards' choices, then free actions until done
    FULFIL_DONE = 6     # the turn is over: the next player

# Pending decisions (rewards and gear effects waiting for the player's choices).
cdef enum:
    PD_INK = 0            # `amount` inks of choice from the bag
    PD_SPECIALTY = 1      # `amount` levels in specialties of choice
    PD_LOWEST = 2         # +1 level to one of the lowest specialties
    PD_TYPE = 3           # a free type of choice
    PD_ORDER = 4          # order as a reward (stage 3 with 4 held: discard first; 0 draws, 1 printing, 2 refinement)
    PD_INK_SWAP = 5       # stage 0 give an ink, 1 take another (`arg` = the ink given)
    PD_TYPE_SWAP = 6      # stage 0 give a type, 1 take another
    PD_SELL_TYPE = 7      # stage 0 give a type, 1 choose 5 guilders or 3 fame
    PD_TYPE_DISCOUNT = 8  # buy a type in mask `arg` for 3 guilders less
    PD_CAXTON = 9         # Caxton chooses this round's wild ink colour
    PD_UNGLER = 10        # Ungler: stage 0 the specialty at II, 1 another at I
    PD_GUILLARD = 11      # Guillard: stage 0 draws, 1 choose a gear, 2 install it; amount left
    PD_SHIFT = 12         # Gutenberg may shift one initiative marker
    N_PENDING_KINDS = 13

# Pending.arg of PD_INK, PD_SPECIALTY and PD_TYPE: whether the reward may be declined.
cdef enum:
    REWARD_TAKEN = 0      # "takes the indicated reward" (reward track, patronage, gears)
    REWARD_OPTIONAL = 1   # "Taking a reward is optional" (the completion reward, p.14)

ctypedef struct Pending:
    int16_t kind
    int16_t seat
    int16_t amount
    int16_t arg
    int16_t arg2
    int16_t stage                     # -1: not started

ctypedef struct PlayerState:
    int16_t fame                      # fame track (end scoring is added at the end)
    int16_t guilders
    int16_t types[N_LETTERS]
    int16_t inks[N_INKS]
    int16_t levels[N_SPECIALTIES]
    int16_t track                     # reward-track spaces reached
    int16_t order_printing[MAX_ORDERS]     # card id per order slot, -1 empty
    int16_t order_refinement[MAX_ORDERS]
    int16_t gear[MAX_INSTALLED]       # gear id per position, -1 empty
    int16_t gear_active[MAX_INSTALLED]
    int16_t gear_used[MAX_INSTALLED]  # uses this round
    int16_t gear_uses                 # used gear markers placed this round
    int16_t plan[N_ROWS]              # initiative markers per row this round
    int16_t markers                   # initiative markers this round
    int16_t patronage                 # patronage cards taken
    int16_t character                 # kept character tile, -1: none
    int16_t character_drawn[2]        # tiles drawn at setup (the other one went back)
    int16_t character_flags           # FLAG_*: once-a-round powers used
    int16_t wild_ink                  # Caxton's wild colour this round, -1

ctypedef struct GameState:
    int16_t num_seats                 # participants, an automa counting as one
    int16_t num_players               # people
    int16_t automa_seat               # -1: no automa
    int16_t rounds
    int16_t round                     # 1-based; 0 during setup
    int16_t phase
    int16_t first_player
    int16_t step                      # draft step, type chooser, planner, fulfiller
    int16_t row
    int16_t turn_order[MAX_SEATS]
    int16_t n_turns
    int16_t turn
    int16_t sub                       # a step inside a turn, the draft or the plan step
    int16_t sub_card                  # a card taken mid-turn; the automa: the printing space it took
    int16_t fulfil_slot
    int16_t fulfil_mode[MAX_ORDERS]   # -1 undecided, else FULFIL_* mode
    int16_t printing_space[MAX_SPACES]    # card ids on the board, -1 empty
    int16_t refinement_space[MAX_SPACES]
    int16_t specialty_space[MAX_SPACES]
    int16_t gear_space[MAX_SPACES]
    int16_t ink_space[MAX_SPACES][INK_SET]  # ink colours, -1 empty
    int16_t patronage_space[N_PATRONAGE_SPACES]
    int16_t patronage_reward_seat[N_PATRONAGE_REWARDS]  # -1 free
    int16_t bag[N_INKS]
    uint64_t printing_deck
    uint64_t printing_discard
    uint64_t refinement_deck
    uint64_t refinement_discard
    uint64_t specialty_deck
    uint64_t specialty_discard
    uint64_t gear_deck
    uint64_t gear_discard
    uint64_t patronage_box
    uint64_t printing_box             # cards out of the game (a position may set some aside)
    uint64_t refinement_box
    uint64_t specialty_box
    uint64_t gear_box                 # also the white-line gears with 2 participants
    uint64_t draft_printing           # the setup draft's face-up cards
    uint64_t draft_refinement
    uint64_t pool_printing            # cards drawn for an order as a reward
    uint64_t pool_refinement
    int16_t pool_due_printing         # draws still to make
    int16_t pool_due_refinement
    uint64_t gear_pool                # Guillard's drawn gears
    int16_t gear_pool_due
    int16_t characters                # 1: character tiles are in play
    uint64_t character_pool           # tiles not drawn yet
    uint64_t automa_deck              # automa planning cards not revealed yet
    int16_t automa_card               # this round's planning card, -1 before the reveal
    int16_t reveal_stage              # PH_REVEAL: 0 automa card, 1 Gutenberg's shift, 2 done
    int16_t n_pending
    Pending pending[MAX_PENDING]      # a queue: pending[0] is decided first
    PlayerState players[MAX_SEATS]

# Fulfilment modes of one order.
cdef enum:
    FULFIL_SKIP = 0
    FULFIL_PRINT = 1
    FULFIL_COLOUR = 2
    FULFIL_DECORATION = 3
    FULFIL_BOTH = 4

# ---------------------------------------------------------------------------------------
# Action encoding (player actions; see core.pyx for the meaning of each range).
# ---------------------------------------------------------------------------------------
cdef enum:
    A_PLAN = 0
    A_PRINTING = A_PLAN + N_PLANS                 # printing card X (draft, take, keep)
    A_REFINEMENT = A_PRINTING + N_PRINTING        # refinement card X
    A_TYPES = A_REFINEMENT + N_REFINEMENT         # setup type set k
    A_INKS = A_TYPES + N_TYPE_SETS                # ink space s, take k inks: s*3 + k-1
    A_SPECIALTY = A_INKS + MAX_SPACES * INK_SET   # specialty card X, use m: X*5 + m
    A_GEAR = A_SPECIALTY + N_SPECIALTY_CARDS * 5  # take gear X
    A_PLACE = A_GEAR + N_GEARS                    # install at position p, sector o: p*3 + o
    A_REORIENT = A_PLACE + MAX_INSTALLED * N_SECTORS
    A_PATRON_REWARD = A_REORIENT + MAX_INSTALLED * N_SECTORS
    A_PATRON_CARD = A_PATRON_REWARD + N_PATRONAGE_REWARDS
    A_DISCARD = A_PATRON_CARD + N_PATRONAGE       # discard order slot k
    A_BUY = A_DISCARD + MAX_ORDERS                # buy a type (free action)
    A_USE_GEAR = A_BUY + N_LETTERS                # use the gear at position p (free action)
    A_PASS = A_USE_GEAR + MAX_INSTALLED           # pass / done / decline
    A_FULFIL = A_PASS + 1                         # order slot k, mode m: k*5 + m
    A_INK = A_FULFIL + MAX_ORDERS * 5             # choose an ink colour
    A_LETTER = A_INK + N_INKS                     # choose a letter
    A_SPECIALTY_UP = A_LETTER + N_LETTERS         # choose a specialty
    A_SELL_GUILDERS = A_SPECIALTY_UP + N_SPECIALTIES
    A_SELL_FAME = A_SELL_GUILDERS + 1
    A_MORE = A_SELL_FAME + 1                      # pay 2 for 2 more: PP, RR, PR
    A_CHARACTER = A_MORE + 3                      # keep character tile X
    A_SHIFT = A_CHARACTER + N_CHARACTERS          # Gutenberg: a marker from row i to j: i*5 + j
    A_SWAP = A_SHIFT + N_ROWS * N_ROWS            # Plantin: swap specialties i < j: i*4 + j
    N_ACTIONS = A_SWAP + N_SPECIALTIES * N_SPECIALTIES

# Chance outcomes.
cdef enum:
    C_PRINTING = 0
    C_REFINEMENT = C_PRINTING + N_PRINTING
    C_SPECIALTY = C_REFINEMENT + N_REFINEMENT
    C_GEAR = C_SPECIALTY + N_SPECIALTY_CARDS
    C_PATRONAGE = C_GEAR + N_GEARS
    C_INK = C_PATRONAGE + N_PATRONAGE
    C_CHARACTER = C_INK + N_INKS                  # a character tile
    C_AUTOMA_PLAN = C_CHARACTER + N_CHARACTERS    # an automa planning card
    C_AUTOMA_SPACE = C_AUTOMA_PLAN + N_AUTOMA_PLANNING  # the space an execution card names
    C_AUTOMA_NONE = C_AUTOMA_SPACE + MAX_SPACES   # no execution card left (take orders)
    N_CHANCE = C_AUTOMA_NONE + 1

