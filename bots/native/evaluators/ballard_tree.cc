// Native twin of bots/evaluators/ballard_tree.py (BallardEvaluator) for the C++ Ballard
// tree (games/native/ballard_tree.h); its keys are in bots/native/adapters/ballard_tree.cc.
#include "games/native/ballard_tree.h"

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <typeinfo>

#include "bots/native/evaluator.h"
#include "bots/native/evaluators/common.h"
#include "open_spiel/spiel.h"

namespace starspiel::ballard_tree {
namespace {

// The twin of BallardEvaluator: the arc sum so far, exact at leaves.
class BallardEvaluator : public Evaluator {
 public:
  double Value(const open_spiel::State& state, int player) override {
    const auto& s = static_cast<const BallardState&>(state);
    if (s.IsTerminal()) return s.PlayerReturn(player);
    const double v = static_cast<double>(s.value());
    return player == 1 ? -v : v;
  }
};

const bool kEvaluatorRegistered = evaluators::RegisterGameEvaluator<BallardGame>(
    kShortName, [](const BallardGame&) { return std::make_unique<BallardEvaluator>(); });

}  // namespace
}  // namespace starspiel::ballard_tree
