// Move generation faster than a game's own LegalActions(), with the same result.
#ifndef STARSPIEL_BOTS_NATIVE_FAST_MOVES_H_
#define STARSPIEL_BOTS_NATIVE_FAST_MOVES_H_

#include <vector>

#include "open_spiel/spiel.h"

namespace starspiel {

// OpenSpiel's backgammon LegalActions() at a decision node of a BackgammonState,
// into `actions`; false (and `actions` untouched) for other states. The state is
// changed while moves are tried and restored before it returns.
bool BackgammonLegalActions(open_spiel::State& state, std::vector<open_spiel::Action>* actions);

}  // namespace starspiel

#endif  // STARSPIEL_BOTS_NATIVE_FAST_MOVES_H_
