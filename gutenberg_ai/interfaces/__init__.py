"""What a person uses: the top layer.

cli        the `gutenberg-ai` command and its subcommands
play       a game at the terminal or the page: seats, bots, record, undo (play.Session)
table      a real game followed at the table: placeholders, reveals, corrections, hints
table_terminal  `gutenberg-ai table`: the followed game's terminal loop
tui        the terminal table: each game's view drawn with rich, the prompt, its words
web        `gutenberg-ai serve`: the FastAPI application and the page

May import: every layer below (gutenberg_ai.tools, .search, .games, .common).
"""
