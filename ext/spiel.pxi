# Gutenberg's native OpenSpiel game (ext/gutenberg_spiel.cc) through the shared face of
# ext/engine/spiel.pxi: gutenberg_ai.game checks the parameters and makes the rules.

SPIEL_GAME_MODULE = "gutenberg_ai.game"

include "engine/spiel.pxi"
