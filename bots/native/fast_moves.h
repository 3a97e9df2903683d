// The signatures of a game's fast move generation and player to move, faster than its
// own LegalActions() and CurrentPlayer() with the same result. Each game's are in its
// adapter (adapters/registry.h); the search finds them with FastMovesFor/FastPlayerFor.
#ifndef STARSPIEL_BOTS_NATIVE_FAST_MOVES_H_
#define STARSPIEL_BOTS_NATIVE_FAST_MOVES_H_

#include <string>
#include <vector>

#include "open_spiel/spiel.h"

namespace starspiel {

// A game's LegalActions() at a decision node, into `actions`; false (and `actions`
// untouched) for states of another class, chance nodes and terminals. The state may
// change while moves are tried; it is restored before the function returns.
using FastMoves = bool (*)(open_spiel::State& state, std::vector<open_spiel::Action>* actions);

// The generator for `game` (a short name), or nullptr where the game has none or its
// generator reads OpenSpiel's private fields and they are off (internals_gate.h).
FastMoves FastMovesFor(const std::string& game);

// A game's CurrentPlayer(), the same value for less (a game's own may scan the board for
// an end, or make virtual calls, several times a node). States of another class get
// their own CurrentPlayer().
using FastPlayer = open_spiel::Player (*)(const open_spiel::State& state);

// The function for `game` (a short name), or nullptr where the game's own is used (as
// where it reads OpenSpiel's private fields and they are off, internals_gate.h).
FastPlayer FastPlayerFor(const std::string& game);

}  // namespace starspiel

#endif  // STARSPIEL_BOTS_NATIVE_FAST_MOVES_H_
