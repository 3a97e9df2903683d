// The encodings of issue 79's learned models that do not depend on the quantisation:
// the mover of observation_mover, the hand evaluator of observation_hand, and the cells
// of log2_cells and plane_cells, all read from observation_tensor(0) (or the state).
// Shared by the integer inference (learned.cc) and the native TD trainer
// (bots/native/learning/), so both read a state alike (bots/learned/encodings.py is the
// Python twin).
#ifndef STARSPIEL_BOTS_NATIVE_EVALUATORS_LEARNED_ENCODINGS_H_
#define STARSPIEL_BOTS_NATIVE_EVALUATORS_LEARNED_ENCODINGS_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "bots/native/evaluator.h"
#include "open_spiel/spiel.h"

namespace starspiel {

// observation_tensor(0) into `observation` (its size): zeroed first, as a fresh
// Python tensor is, since games may write only the set entries.
inline void ReadObservation(const open_spiel::State& state, std::vector<float>* observation) {
  std::fill(observation->begin(), observation->end(), 0.0f);
  state.ObservationTensor(0, absl::MakeSpan(*observation));
}

// observation_mover's mover: who moves at a decision node; at a chance node the player
// of the last decision before it (bots/learned/encodings.py mover); -1 if none came before.
inline int Mover(const open_spiel::State& state) {
  const open_spiel::Player player = state.CurrentPlayer();
  if (player >= 0) return player;
  const std::vector<open_spiel::State::PlayerAction>& history = state.FullHistory();
  for (auto it = history.rbegin(); it != history.rend(); ++it) {
    if (it->player >= 0) return it->player;
  }
  return -1;
}

// One input of an MLP, x quantised: int32(clamp(rint(x * 2**input_shift), -32767, 32767)),
// rounding half to even (std::nearbyint in the default mode, numpy's rint).
inline std::int32_t QuantisedInput(double x, int input_shift) {
  double q = std::nearbyint(x * std::ldexp(1.0, input_shift));
  q = std::min(std::max(q, -32767.0), 32767.0);
  return static_cast<std::int32_t>(q);
}

// observation_hand's extra inputs: the game's hand evaluator (the native twin of
// bots.evaluators.registry.default_evaluator's, registered under its Python class's
// native_name, which is the game's short name without a python_ prefix) and its values
// per player of a non-terminal state (of the C++ game, also for a model of its Python
// twin). Evaluators keep scratch state, so a copy builds its
// own evaluator; values() is preallocated, so Evaluate allocates nothing.
class HandEvaluator {
 public:
  HandEvaluator() = default;
  // Throws std::invalid_argument when the game has no native hand evaluator (or it
  // refuses the game), naming the encodings an MLP of the game can read instead.
  explicit HandEvaluator(std::shared_ptr<const open_spiel::Game> game)
      : game_(std::move(game)), values_(game_->NumPlayers(), 0.0) {
    name_ = game_->GetType().short_name;
    if (name_.rfind("python_", 0) == 0) {
      // A Python twin's model: the native engine evaluates the C++ game's states.
      name_ = name_.substr(7);
      game_ = open_spiel::LoadGame(name_, game_->GetParameters());
    }
    try {
      evaluator_ = MakeEvaluator(name_, *game_);
    } catch (const std::exception& error) {
      throw std::invalid_argument(
          "the observation_hand encoding needs the game's hand evaluator, and '" +
          game_->ToString() + "' has none (" + error.what() +
          "); an MLP of it reads the observation or observation_mover encoding");
    }
  }
  HandEvaluator(const HandEvaluator& other)
      : game_(other.game_), name_(other.name_), values_(other.values_) {
    if (game_ != nullptr) evaluator_ = MakeEvaluator(name_, *game_);
  }
  HandEvaluator& operator=(const HandEvaluator& other) {
    if (this != &other) {
      HandEvaluator copy(other);
      game_ = std::move(copy.game_);
      name_ = std::move(copy.name_);
      values_ = std::move(copy.values_);
      evaluator_ = std::move(copy.evaluator_);
    }
    return *this;
  }
  HandEvaluator(HandEvaluator&&) = default;
  HandEvaluator& operator=(HandEvaluator&&) = default;

  bool active() const { return evaluator_ != nullptr; }
  // Every player's hand value of the non-terminal `state`.
  const std::vector<double>& Evaluate(const open_spiel::State& state) {
    evaluator_->NonTerminalValues(state, &values_);
    return values_;
  }

 private:
  std::shared_ptr<const open_spiel::Game> game_;
  std::string name_;
  std::vector<double> values_;
  std::unique_ptr<Evaluator> evaluator_;
};

// log2_cells: 0 for an empty cell, else floor(log2 x) (tiles are powers of two), at
// most values - 1.
inline void Log2Cells(const float* x, int cells, int values, std::int32_t* out) {
  const std::int32_t last = values - 1;
  for (int i = 0; i < cells; ++i) {
    const std::int32_t c = x[i] == 0.0f ? 0 : std::ilogb(x[i]);
    out[i] = std::min(c, last);
  }
}

// plane_cells: x as (planes, cells) row-major; 1 + the first plane set at the cell, 0 if
// none, at most values - 1.
inline void PlaneCells(const float* x, int planes, int cells, int values, std::int32_t* out) {
  std::fill(out, out + cells, 0);
  for (int p = planes - 1; p >= 0; --p) {
    const float* plane = x + static_cast<std::size_t>(p) * cells;
    for (int i = 0; i < cells; ++i) {
      if (plane[i] != 0.0f) out[i] = p + 1;
    }
  }
  const std::int32_t last = values - 1;
  for (int i = 0; i < cells; ++i) out[i] = std::min(out[i], last);
}

}  // namespace starspiel

#endif  // STARSPIEL_BOTS_NATIVE_EVALUATORS_LEARNED_ENCODINGS_H_
