"""The search: bots by name, hints, CFR solvers and learned evaluations.

bots       every bot by name (make_bot): the compiled searches, heuristic, random, bots of your own
hints      ranked moves of a decision, with win chances and intervals
cfr        OpenSpiel's CFR solvers on each game's small variant, tree audits
learn      learned evaluations: training data from records, the network, its weights files

May import: gutenberg_ai.games and gutenberg_ai.common.
"""
