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
    "ink_swap", "type_swap", "lowest_specialty", "round_fame", "order", "sell_type", "colour_fame",
    "gain_ink", "ink_trade", "type_fame", "type_discount", "decoration_fame", "specialty_up",
)
# What each gives (p.22), in a line, for `help gears` and the menus. "Indicated" is what
# the sector shows: inks, types or a specialty (GEAR_INDICATES).
GEAR_REWARDS = {
    "ink_swap": "swap one of your inks for another available in the bag",
    "type_swap": "swap one of your types for another from the pool",
    "lowest_specialty": "+1 level to one of your lowest specialties",
    "round_fame": "fame equal to the round number (1-6)",
    "order": "an order as a reward (draw 2 printing and 2 refinement cards, keep one of each)",
    "sell_type": "discard one of your types, then 5 guilders or 3 fame",
    "colour_fame": "2 fame for each order you fulfil now using an indicated ink for its colour",
    "gain_ink": "the indicated ink from the bag",
    "ink_trade": "put 1 ink of the indicated colour into the bag, then take any 2 from the bag",
    "type_fame": "2 fame for each order you fulfil now that needs an indicated type",
    "type_discount": "buy one of the indicated types for 3 guilders less",
    "decoration_fame": "2 fame for each order you fulfil now decorated with the indicated specialty",
    "specialty_up": "+1 level to the indicated specialty",
}

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
    "Johannes Gutenberg", "Aldus Manutius", "Charlotte Guillard", "Helena Ungler", "Peter Schoeffer",
    "Geoffroy Tory", "William Caxton", "Christophe Plantin", "Schweipolt Fiol", "Hieronymus Vietor",
)
# What each does (p.23), in a line, in the same order, for `help characters` and the menus.
CHARACTER_ABILITIES = (
    "after the plans are revealed, may shift 1 initiative marker to another action",
    "fulfilling 2 or more orders at once, may ignore one required type on one order",
    "at once draws 4 gears, keeps 2 and installs them",
    "at once has specialties at II and I, and the reward track's level II reward (an ink)",
    "may use the active sector of one gear twice a round (still 3 gear uses in all)",
    "3 fame at the end of a round if all their inks fit their current orders",
    "each round chooses one ink colour that is wild (usable as any colour) for them",
    "once a round may swap the levels of 2 of their specialties",
    "fulfilling only one refinement of an order (colour or decoration) still gains its completion reward",
    "at the end doubles the fame gained from guilders",
)

# Solo titles (rulebook p.17): (lowest score, title), best last.
SOLO_TITLES = ((0, "Student"), (101, "Senior Student"), (111, "Apprentice"),
               (121, "Senior Apprentice"), (131, "Junior Master"), (141, "Master of Printing"),
               (151, "Guildmaster"))


def solo_title(score: int) -> str:
    """The printing guild's title for a solo score (rulebook p.17): Student below 101,
    then Senior Student, Apprentice, Senior Apprentice, Junior Master, Master of
    Printing, and Guildmaster above 150."""
    title = SOLO_TITLES[0][1]
    for lowest, name in SOLO_TITLES:
        if score >= lowest:
            title = name
    return title

# The rule the automa takes a patronage card by (rulebook p.17, "Actions"): the words the
# log quotes when it does (view.automa_note).
AUTOMA_PATRONAGE_RULE = ("if this round's planning card shows a patronage card, the automa takes the "
                         "leftmost card (in the first and second rounds it must take a reward)")
