"""Tools that play many games and report on them.

arena      round robins of bots, their records, standings and ratings
ratings    Plackett-Luce ratings from finishing orders (openskill), for the arena
sprt       the arena's sequential test of two bots on paired deals (Fishtest's GSPRT)
cluster    Ray: starting or joining a cluster the arena's games run on
selfplay   games of a search bot against itself, each move's search kept (training data)
studies    balance and scaling studies of a game, as pages with tables and plots
suite      the benchmark suite: positions with reference answers, bots scored on them
tune       a bot's search options tuned against a reference bot (Optuna), then validated
review     a played game reviewed move by move by a search
plots      the plots of reviews, arenas and studies (matplotlib)

May import: gutenberg_ai.search, gutenberg_ai.games and gutenberg_ai.common.
"""
