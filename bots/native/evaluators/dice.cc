// Native twin of bots/evaluators/dice.py (DiceEvaluator) of the C++ dice game
// (games/native/dice.h). Its transposition keys are in its adapter (bots/native/adapters/dice.cc).
#include "games/native/dice.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <typeinfo>
#include <vector>

#include "bots/native/evaluator.h"
#include "bots/native/evaluators/common.h"
#include "open_spiel/spiel.h"

namespace starspiel::dice {
namespace {

// The twin of games/dice.py's DiceEvaluator: open k-windows weighted by
// stones, squashed with tanh, summed in the same order for equal bits.
class DiceEvaluator : public Evaluator {
 public:
  explicit DiceEvaluator(const DiceGame& game) : rules_(game.rules()) {
    for (int s = 0; s <= rules_.k; ++s) {
      weights_.push_back(s == 0 ? 0.0 : std::pow(3.0, s - 1) / std::pow(3.0, rules_.k - 1));
    }
  }

  double Value(const open_spiel::State& state, int player) override {
    const auto& s = static_cast<const DiceState&>(state);
    if (s.IsTerminal()) return s.Returns()[player];
    const std::uint64_t b0 = s.x_stones(), b1 = s.o_stones();
    double sum = 0.0;
    for (std::uint64_t m : rules_.windows) {
      const std::uint64_t a = b0 & m, b = b1 & m;
      if (a) {
        if (!b) sum += weights_[std::popcount(a)];
      } else if (b) {
        sum -= weights_[std::popcount(b)];
      }
    }
    const double v = 0.99 * std::tanh(sum);
    return player == 1 ? -v : v;
  }

 private:
  const Rules rules_;
  std::vector<double> weights_;
};

const bool kEvaluatorRegistered = evaluators::RegisterGameEvaluator<DiceGame>(
    kShortName, [](const DiceGame& game) { return std::make_unique<DiceEvaluator>(game); });

}  // namespace
}  // namespace starspiel::dice
