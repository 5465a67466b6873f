"""The game's words: names of letters, inks, specialties, rows and reward kinds.

The index of a name in its tuple is the number the compiled core uses for it, and bit i
of a mask stands for the i-th name.
"""

LETTERS = ("A", "I", "O", "U")
INKS = ("blue", "silver", "gold", "red")
SPECIALTIES = ("typesetting", "woodcutting", "binding", "illuminating")
ROWS = ("orders", "inks", "specialties", "gears", "patronage")

# Rewards for completing an order, on the reward track and on the patronage spaces.
REWARD_KINDS = ("ink", "guilders", "fame", "specialty", "order", "type")

# The 13 gear sector rewards of the rulebook's p.22 table.
GEAR_KINDS = (
    "ink_swap",           # swap one of your inks for another available in the bag
    "type_swap",          # swap one of your types for another from the pool
    "lowest_specialty",   # +1 level to one of your lowest specialties
    "round_fame",         # fame equal to the round number
    "order",              # an order as a reward
    "sell_type",          # discard a type, then 5 guilders or 3 fame
    "colour_fame",        # 2 fame per order fulfilled now using an indicated ink
    "gain_ink",           # the indicated ink from the bag
    "ink_trade",          # return the indicated ink, take any 2 from the bag
    "type_fame",          # 2 fame per order fulfilled now that needs an indicated type
    "type_discount",      # buy an indicated type for 3 guilders less
    "decoration_fame",    # 2 fame per decoration fulfilled now with the indicated specialty
    "specialty_up",       # +1 level to the indicated specialty
)

# Which gear kinds indicate something, and what: the mask's bits index this tuple.
GEAR_INDICATES = {
    "colour_fame": INKS,
    "gain_ink": INKS,
    "ink_trade": INKS,
    "type_fame": LETTERS,
    "type_discount": LETTERS,
    "decoration_fame": SPECIALTIES,
    "specialty_up": SPECIALTIES,
}
# Kinds whose indication is exactly one thing (the others take one or more).
GEAR_SINGLE = ("gain_ink", "ink_trade", "decoration_fame", "specialty_up")

PATRONAGE_KINDS = ("specialties", "inks_types", "specialty_inks", "specialty_types")

# Automa planning-card arrows point at a row or at the row with the fewest/most markers.
AUTOMA_TARGETS = ROWS + ("min", "max")

ROMAN = ("0", "I", "II", "III", "IV", "V", "VI")

# The 10 character tiles (rulebook p.23), in the order of their ids.
CHARACTERS = (
    "Johannes Gutenberg",   # shifts one initiative marker after the reveal
    "Aldus Manutius",       # ignores one required type when fulfilling 2+ orders
    "Charlotte Guillard",   # draws 4 gears at setup and installs 2
    "Helena Ungler",        # starts with specialties at II and I and the II reward
    "Peter Schoeffer",      # uses one gear twice a round
    "Geoffroy Tory",        # 3 fame at the end of a round if all inks fit held orders
    "William Caxton",       # one wild ink colour each round
    "Christophe Plantin",   # swaps two specialty levels once a round
    "Schweipolt Fiol",      # completion reward for one refinement part
    "Hieronymus Vietor",    # doubled fame from guilders at the end
)

# Solo titles (rulebook p.17): (lowest score, title), best last.
SOLO_TITLES = ((0, "Student"), (101, "Senior Student"), (111, "Apprentice"),
               (121, "Senior Apprentice"), (131, "Junior Master"), (141, "Master of Printing"),
               (151, "Guildmaster"))
