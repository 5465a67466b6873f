// Printing Press as a native OpenSpiel game, registered as "printing_press": the shared
// glue of ext/engine/native_game.h over the GameState struct of
// ext/printing_press/pp_types.pxd, moved by the rules of ext/printing_press/core.pyx.
//
// This file is the one translation unit of the extension
// gutenberg_ai.games.printing_press._core. It includes the C++ that Cython generates from
// core.pyx first (a separate translation unit could not use the structs: Cython's header
// for `cdef public` items declares them under mangled names), so there is one compiled
// copy of the rules for this game and everything in Python.

#include "core.cpp"

#include "engine/native_game.h"

namespace open_spiel {
namespace printing_press {
namespace {

using printing_games::NativeGameInfo;

// The parameters and their defaults, as gutenberg_ai.games.printing_press.game.DEFAULTS
// (a test compares them). Their meaning and checks are in that module.
const NativeGameInfo kInfo = {
    /*short_name=*/"printing_press",
    /*long_name=*/"Printing Press",
    /*min_players=*/1,
    /*max_players=*/4,
    /*defaults=*/{
        {"players", GameParameter(2)},
        {"variant", GameParameter(std::string("basic"))},
        {"rounds", GameParameter(3)},
        {"returns", GameParameter(std::string("auto"))},
        {"characters", GameParameter(true)},
        {"one_token", GameParameter(false)},
        {"automa_wins_ties", GameParameter(false)},
        {"hard_board", GameParameter(false)},
        {"catalogue", GameParameter(std::string(""))},
        {"position", GameParameter(std::string(""))},
    }};

REGISTER_NATIVE_GAME(kInfo);

}  // namespace
}  // namespace printing_press
}  // namespace open_spiel
