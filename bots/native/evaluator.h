// Native leaf evaluators: the C++ twins of bots/evaluators/*.py.
//
// A native evaluator must return, bit for bit, what its Python twin's
// player_value(state, player) returns: every published node count depends on
// the leaf values (tests/test_native_evaluators.py compares them with ==).
#ifndef STARSPIEL_BOTS_NATIVE_EVALUATOR_H_
#define STARSPIEL_BOTS_NATIVE_EVALUATOR_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "open_spiel/spiel.h"

namespace starspiel {

class Evaluator {
 public:
  virtual ~Evaluator() = default;
  // The value of `state` for `player`, as the Python twin's player_value().
  virtual double Value(const open_spiel::State& state, int player) = 0;
  // Value() for a state the caller knows is not terminal: the search evaluates
  // nothing else. An evaluator whose terminal check costs (2048's scans the board
  // for merges) skips it here.
  virtual double NonTerminalValue(const open_spiel::State& state, int player) {
    return Value(state, player);
  }
  // Every player's NonTerminalValue() into `values` (sized to the players):
  // max^n's leaf. An evaluator that rates all players at once (pig, maedn and
  // yacht at more than two players) overrides it to do so once, not per player.
  virtual void NonTerminalValues(const open_spiel::State& state, std::vector<double>* values) {
    for (int p = 0; p < static_cast<int>(values->size()); ++p) {
      (*values)[p] = NonTerminalValue(state, p);
    }
  }
};

using EvaluatorFactory = std::function<std::unique_ptr<Evaluator>(const open_spiel::Game& game)>;

// Registers `factory` under `name` (the Python class's `native_name`).
// Returns true, so a file can register itself from a static initializer:
//   const bool kRegistered = RegisterEvaluator("pig", ...);
bool RegisterEvaluator(const std::string& name, EvaluatorFactory factory);

// The evaluator registered as `name` for `game`; throws std::invalid_argument
// naming the registered evaluators when there is none, and whatever the
// factory throws when it refuses the game.
std::unique_ptr<Evaluator> MakeEvaluator(const std::string& name, const open_spiel::Game& game);

// The names registered so far, sorted.
std::vector<std::string> EvaluatorNames();

}  // namespace starspiel

#endif  // STARSPIEL_BOTS_NATIVE_EVALUATOR_H_
