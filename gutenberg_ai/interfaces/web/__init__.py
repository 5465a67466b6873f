"""`gutenberg-ai serve`: play, hints, your table and review in a web page, for every game
of the games table (docs/web.md).

The page reaches every game through the layer the command line uses: play.Session (the
game, its seats, bots, record and undo), hints.hint, the games' position modules and
positionfile.load_position, records.load_record and replay, and each game's view
(`web_board`: its table as data the page draws; `move_text`, `typed_move`, the score
sheet). Nothing here knows a game's rules.

    gutenberg_ai.interfaces.web.app.create_app(Limits())   the FastAPI application
    gutenberg_ai.interfaces.web.app.serve(host, port)      run it with uvicorn
"""
