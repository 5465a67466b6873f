// Lead Letter Printers as a native OpenSpiel game, registered as "lead_letter_printers": the shared
// glue of ext/engine/native_game.h over the GameState struct of
// ext/lead_letter_printers/llp_types.pxd, moved by the rules of ext/lead_letter_printers/core.pyx.
//
// This file is the one translation unit of the extension
// gutenberg_ai.games.lead_letter_printers._core. It includes the C++ that Cython generates from
// core.pyx first (a separate translation unit could not use the structs: Cython's header
// for `cdef public` items declares them under mangled names), so there is one compiled
// copy of the rules for this game and everything in Python.

#include "core.cpp"

#include "engine/native_game.h"

namespace open_spiel {
namespace lead_letter_printers {
namespace {

using printing_games::NativeGameInfo;

// The parameters and their defaults, as gutenberg_ai.games.lead_letter_printers.game.DEFAULTS
// (a test compares them). Their meaning and checks are in that module.
const NativeGameInfo kInfo = {
    /*short_name=*/"lead_letter_printers",
    /*long_name=*/"Lead Letter Printers",
    /*min_players=*/2,
    /*max_players=*/4,
    /*defaults=*/{
        {"players", GameParameter(2)},
        {"rounds", GameParameter(0)},
        {"returns", GameParameter(std::string("win"))},
        {"catalogue", GameParameter(std::string(""))},
        {"position", GameParameter(std::string(""))},
    }};

REGISTER_NATIVE_GAME(kInfo);

}  // namespace
}  // namespace lead_letter_printers
}  // namespace open_spiel
