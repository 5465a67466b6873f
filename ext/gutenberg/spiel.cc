// Gutenberg as a native OpenSpiel game, registered as "gutenberg": the shared glue of
// ext/engine/native_game.h over the GameState struct of ext/gutenberg/gutenberg_types.pxd, moved
// by the rules of ext/gutenberg/core.pyx.
//
// This file is the one translation unit of the extension gutenberg_ai.games.gutenberg._core. It
// includes the C++ that Cython generates from ext/gutenberg/core.pyx first: a separate
// translation unit could not use the structs (Cython's header for `cdef public` items
// declares them under mangled, undefined names). So there is one compiled copy of the
// rules, shared by this game, the Python shell "gutenberg_py" and everything in Python.

#include "core.cpp"

#include "engine/native_game.h"

namespace open_spiel {
namespace gutenberg {
namespace {

using printing_games::NativeGameInfo;

// The parameters and their defaults, as gutenberg_ai.games.gutenberg.game.DEFAULTS (a test compares
// the two games' specifications). Their meaning and checks are in gutenberg_ai.games.gutenberg.game.
const NativeGameInfo kInfo = {
    /*short_name=*/"gutenberg",
    /*long_name=*/"Gutenberg",
    /*min_players=*/1,
    /*max_players=*/4,
    /*defaults=*/{
        {"players", GameParameter(2)},
        {"rounds", GameParameter(6)},
        {"returns", GameParameter(std::string("auto"))},
        {"characters", GameParameter(true)},
        {"automa", GameParameter(-1)},
        {"catalogue", GameParameter(std::string(""))},
        {"position", GameParameter(std::string(""))},
    }};

REGISTER_NATIVE_GAME(kInfo);

}  // namespace
}  // namespace gutenberg
}  // namespace open_spiel
