"""Lead Letter Printers in its own words: resources, letters, signboards, levels, effects.

The index of a name in its tuple is the number the compiled core uses for it
(ext/lead_letter_printers/llp_types.pxd); bit i of a mask stands for the i-th name.
"""

RESOURCES = ("paper", "lead", "ink")
# What a trading tile converts: the three resources, marks and victory points.
GOODS = RESOURCES + ("marks", "points")
LETTERS = ("A", "B", "C", "D", "E", "F")
SIGNBOARDS = ("white", "red", "blue")
LEVELS = ("I", "II", "III", "IV")
ROOMS = ("I", "II")
TECH_COLORS = ("blue", "green")            # chain (blue) and instant (green) technologies
CITY_KINDS = ("red", "grey", "plain")       # Mainz; cities with a city disc; the others

# Everything a room, a technology, a workshop space, a composing stick space, a contract
# slot, a city disc or a track space can give (the rulebook's Iconography), in the
# order of the core's E_* values. "n" is how much or how many times; "free", "level" and
# "letter" qualify some of them.
EFFECTS = (
    "paper", "lead", "ink", "marks", "points",
    "resource",            # n resources of choice from the supply
    "capacity",
    "capacity_reward",     # 1 capacity, and the reward of the space the marker enters
    "workforce",
    "trade",               # n trade actions
    "typesetting",         # n typesetting actions
    "typesetting_any",     # a lead letter onto the composing sticks, its action regardless of the letter
    "travel",              # free: no money for moving on the map
    "technology",          # free: "resources", "money" or both
    "technology_level",    # a technology of the level, for free
    "factory",             # a factory of any level (the next city marker pays)
    "assistant",
    "letter_resources",    # the resources of one of your lead letters
    "take_letter",         # a lead letter from the typesetting table; free: with its resources
    "discard_letter",      # discard a lead letter of the typesetting table for its resources
    "advance_order",       # one order 1 stage on; free: no resources
    "steps",               # n steps on the map and/or the order track (not a travel)
    "buy_order",           # free: no money
    "buy_contract",
    "signboard",           # one signboard action of choice (workforce, travel, technology)
    "city_disc",           # the city disc of a city of choice; the director stays
    "copy_technology",     # another technology of the workshop of level <= level
    "slide",               # a tradesman from a I room down to the II room, its action n times
    "pairing",             # from now on: a city tile may be paired with a lead letter
    "points_capacity",     # green: half the capacity, rounded down
    "points_workforce",    # green: the workforce
    "points_assistants",   # green: the assistants on the city board
    "points_technologies", # green: the technologies of levels I-III
    "points_letter",       # green: the lead letters (and paired city tiles) of the letter
)
GREEN_EFFECTS = ("points_capacity", "points_workforce", "points_assistants",
                 "points_technologies", "points_letter")
FREE_WORDS = ("resources", "money")        # "technology": bit 0 resources, bit 1 money

# Factories' continuous abilities (the rulebook's list), in the order of the core's FA_*.
FACTORY_ABILITIES = (
    "stage_marks",         # an order completes stage k: 1 mark
    "stage_capacity",      # ... 1 capacity
    "stage_trade",         # ... a trade action, the trading tile not discarded
    "stage_points",        # ... 1 victory point
    "reset_good",          # a Reset action: 1 paper / lead / ink / mark
    "reset_capacity",      # a Reset action: 1 capacity
    "reset_discard_resource",  # a lead letter discarded at a Reset: 1 resource of choice
    "letter_marks",        # a lead letter taken into the workshop: 1 mark
    "letter_capacity",     # ... 1 capacity
    "workforce_marks",     # a workforce gained: 1 mark
    "travel_discount",     # a Travel action: 1 mark less
    "technology_discount", # a technology action: 1 mark less
    "order_discount",      # buying an order: 1 mark less
    "contract_discount",   # buying a contract: 1 mark less
    "trade_marks",         # a trade action: 1 mark
    "disc_resource",       # a city disc gained: 1 resource of choice
    "signboard_points",    # an order with a signboard of the colour completed: 2 points
    "typesetting_points",  # a Typesetting action: 1 point
    "trading_points",      # a Trading action: 1 point
)

# Contracts' scoring (the rulebook's list), in the order of the core's K_*.
CONTRACT_KINDS = (
    "marks",               # 1 point for every 5 marks
    "signboards",          # 1 point for each signboard of the colour
    "technologies_level",  # 1 point for each technology of the level
    "technologies",        # 1 point for every 2 technologies
    "city_discs",          # 1 point for every 2 city tiles
    "orders",              # 1 point for every 2 finished orders
    "workforce",           # 1 point for every 2 workforce
    "factories",           # 1 point for each factory
    "letter",              # 1 point for each shown letter on the composing stick board
    "assistants",          # 1 point for each assistant on the city board
    "contracts",           # 1 point for each activated contract
    "slots",               # 1 point for each unlocked contract slot
    "columns",             # 2 points for each full column of the composing stick board
    "diagonals",           # 3 points for each full diagonal
)

RETURNS_MODES = ("win", "score", "margin")
