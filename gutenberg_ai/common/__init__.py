"""What every layer uses and that knows no game: the bottom layer.

limits     the bounds on every budget, count and size a user can name
jsonfile   reading JSON files a user gives: size, encoding, nesting, every problem at once
words      words every game's text shares (counted nouns)
stats      intervals of win rates (Wilson)
draw       the drawing kit: rich tables, columns and labels the games' views are made of
extras     the optional extras (Ray, PyTorch), imported with an error that says how to install them

May import: the standard library and third-party packages only, nothing of gutenberg_ai.
"""
