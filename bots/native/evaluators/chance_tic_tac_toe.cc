// Native twin of bots/evaluators/chance_tic_tac_toe.py (ChanceTTTEvaluator) for the C++
// game (games/native/chance_tic_tac_toe.h); its keys are in its adapter (adapters/).
#include "games/native/chance_tic_tac_toe.h"

#include <bit>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "bots/native/evaluator.h"
#include "bots/native/evaluators/common.h"
#include "open_spiel/spiel.h"

namespace starspiel::chance_tic_tac_toe {
namespace {

// The twin of ChanceTTTEvaluator: lines still open (no opponent stone, no
// block) weighted by stones, summed in the Python order, squashed with tanh.
class ChanceTTTEvaluator : public Evaluator {
 public:
  double Value(const open_spiel::State& state, int player) override {
    const auto& s = static_cast<const ChanceTTTState&>(state);
    if (s.IsTerminal()) return s.Returns()[player];
    static constexpr double kWeights[4] = {0.0, 1.0 / 9.0, 1.0 / 3.0, 1.0};
    const int x = s.x_stones(), o = s.o_stones(), b = s.blocked();
    double sum = 0.0;
    for (int m : kLines) {
      if (b & m) continue;
      const int a = x & m, c = o & m;
      if (a) {
        if (!c) sum += kWeights[std::popcount(unsigned(a))];
      } else if (c) {
        sum -= kWeights[std::popcount(unsigned(c))];
      }
    }
    const double v = 0.99 * std::tanh(sum);
    return player == 1 ? -v : v;
  }
};

const bool kEvaluatorRegistered = evaluators::RegisterGameEvaluator<ChanceTTTGame>(
    kShortName, [](const ChanceTTTGame&) { return std::make_unique<ChanceTTTEvaluator>(); });

}  // namespace
}  // namespace starspiel::chance_tic_tac_toe
