// Helpers shared by the native evaluators (bots/native/evaluators/*.cc).
//
// They mirror what the Python evaluators do before computing a value:
// bots.evaluators.api.check_game_name, params.get(key, default), and the
// base class's terminal handling. Kept header-only so each evaluator's file
// stands alone.
#ifndef STARSPIEL_BOTS_NATIVE_EVALUATORS_COMMON_H_
#define STARSPIEL_BOTS_NATIVE_EVALUATORS_COMMON_H_

#include <memory>
#include <stdexcept>
#include <string>
#include <typeinfo>
#include <vector>

#include "bots/native/evaluator.h"
#include "open_spiel/game_parameters.h"
#include "open_spiel/spiel.h"

namespace starspiel {
namespace evaluators {

// bots.evaluators.api.SHRINK.
inline constexpr double kShrink = 0.99;

// Throws std::invalid_argument unless `game` is the game `expected`, with
// the message of bots.evaluators.api.check_game_name.
inline void CheckGameName(const open_spiel::Game& game, const std::string& expected,
                          const std::string& cls) {
  const std::string name = game.GetType().short_name;
  if (name != expected) {
    throw std::invalid_argument(cls + " evaluates game '" + expected + "', got game '" + name +
                                "'; use make_evaluator('default', game) to pick the right one");
  }
}

// Registers the evaluator `name` of the games of class `GameClass` (a C++ custom game of
// games/native/): `make(game)` builds it; any other game is refused, naming it.
template <typename GameClass, typename Make>
bool RegisterGameEvaluator(const std::string& name, Make make) {
  return RegisterEvaluator(name, [name, make](const open_spiel::Game& game) {
    const auto* typed = dynamic_cast<const GameClass*>(&game);
    if (typed == nullptr) {
      throw std::invalid_argument("the native " + name + " evaluator needs a " + name +
                                  " game, got " + game.GetType().short_name);
    }
    return std::unique_ptr<Evaluator>(make(*typed));
  });
}

// params.get(key, default) of a Python evaluator, for int and bool values.
inline int IntParameter(const open_spiel::GameParameters& params, const std::string& key,
                        int default_value) {
  auto it = params.find(key);
  return it == params.end() ? default_value : it->second.int_value();
}

inline bool BoolParameter(const open_spiel::GameParameters& params, const std::string& key,
                          bool default_value) {
  auto it = params.find(key);
  return it == params.end() ? default_value : it->second.bool_value();
}

// The concrete state class of the evaluated game. The factory checked the
// game, so this is one pointer comparison; a state of another game (a caller
// mixing games) is an error instead of undefined behaviour.
template <typename T>
const T& StateAs(const open_spiel::State& state, const char* evaluator) {
  if (typeid(state) != typeid(T)) {
    throw std::invalid_argument(std::string(evaluator) + ": the state is not a state of its game");
  }
  return static_cast<const T&>(state);
}

// bots.evaluators.multiplayer.pairwise_win_values: each player's expected
// return from the two-player races `pairs` (v_ij for i < j, i-major), with
// the same operations in the same order, so the same floats.
inline std::vector<double> PairwiseWinValues(const std::vector<double>& pairs, int n,
                                             double divisor) {
  // Player m's product takes its factors in the order of the partners 0..n-1.
  std::vector<double> strength(n, 1.0);
  size_t k = 0;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      const double v = pairs[k++];
      strength[i] *= 0.5 + 0.5 * v;
      strength[j] *= 0.5 - 0.5 * v;
    }
  }
  double total = 0.0;  // ordered_sum: left to right from 0
  for (int i = 0; i < n; ++i) total += strength[i];
  std::vector<double> values(n);
  for (int i = 0; i < n; ++i) {
    values[i] = (static_cast<double>(n) * (strength[i] / total) - 1.0) / divisor;
  }
  return values;
}

// The Python base class's player_value for terminal states.
inline double TerminalValue(const open_spiel::State& state, int player) {
  return state.Returns()[player];
}

}  // namespace evaluators
}  // namespace starspiel

#endif  // STARSPIEL_BOTS_NATIVE_EVALUATORS_COMMON_H_
