"""Printing Press in its own words: symbols, squares, characters, conditions.

The index of a name in its tuple is the number the compiled core uses for it
(ext/printing_press/pp_types.pxd), and bit i of a mask stands for the i-th name.
"""

LETTERS = ("A", "I", "O", "U")
INKS = ("blue", "red", "yellow", "grey")
SPECIALTIES = ("typesetting", "woodcutting", "binding", "illuminating")
# The 12 symbols of the tokens and cards: letters, inks, specialties (a symbol's kind is
# its index // 4).
SYMBOLS = LETTERS + INKS + SPECIALTIES
KINDS = ("letter", "ink", "specialty")
KIND_SYMBOLS = {"letter": LETTERS, "ink": INKS, "specialty": SPECIALTIES}

# A card's square shows a symbol, the initiative icon, or nothing.
INITIATIVE = "initiative"
BLANK = "blank"
SQUARES = SYMBOLS + (INITIATIVE, BLANK)

# Three-character codes of the squares, for drawing a tableau.
SHORT = ("A", "I", "O", "U", "blu", "red", "yel", "gry", "Typ", "Woo", "Bnd", "Ill", "*", "-")

ORIENTATIONS = ("row", "column")   # how a card is printed: 3 squares side by side or stacked

# Plate additional conditions (rulebook p.19).
ADDITIONAL_KINDS = ("adjacent", "absent", "corner", "middle column", "middle row")
CORNERS = ("top-left", "top-right", "bottom-left", "bottom-right")
# Frame ink conditions: "the indicated color of ink appears in the indicated row or column".
LINES = ("top row", "middle row", "bottom row", "left column", "middle column", "right column")

# Time track sides: A the basic variant, B the advanced one.
VARIANTS = ("basic", "advanced")

# The solo game's difficulty (p.17, "Setting the difficulty level of the solo variant":
# "any combination of these 3 options"), by the game's parameter for each.
SOLO_DIFFICULTY = {"one_token": "1 setup token (not 3)",
                   "automa_wins_ties": "automa wins ties",
                   "hard_board": "solo board 5-4-3-1"}

# The 5 character tiles (rulebook p.18), in the order of their ids. The rulebook's
# ability pages spell her "Helena Angler"; the tile and the history books say Ungler.
CHARACTERS = (
    "Johannes Gutenberg",   # A: a 1/3 bonus marker instead of a 1/2 one; B: an extra 1/3 marker
    "Helena Ungler",        # A: once, slide squares of a card under; B: once, orient a card freely
    "William Caxton",       # A: a fourth setup token; B: once, two hand tokens for one of choice
    "Charlotte Guillard",   # her token in the tableau as an ink (A) or a specialty (B)
    "Yolande Bonhomme",     # A: once, go first in a step; B: once, a cube for a round
)
SIDES = ("A", "B")

# Bonus markers: a 1/2 marker, Gutenberg's 1/3 marker (side A), a 1/2 marker with the 1/3
# marker 1 side up on the other slot (Gutenberg, side B).
MARKER_KINDS = ("1/2 marker", "1/3 marker", "1/2 marker and the 1/3 marker")

RETURNS_MODES = ("win", "score", "margin")

# The rule the solo automa took a card by (rulebook p.16), by the column it went above
# (CoreState.automa_took), {symbol} the round's choice: the words the log quotes.
AUTOMA_RULES = (
    "the automa takes a card with its first choice symbol ({symbol}); of several, the leftmost",
    "if there is none, a card with its second choice symbol ({symbol}); of several, the leftmost",
    "if there is none, a card with its third choice symbol ({symbol}); of several, the leftmost",
    "if no card has any of its preferred symbols for the current round, the leftmost card, "
    "in the rightmost column",
)
