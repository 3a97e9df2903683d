// Native twin of bots/evaluators/fallbacks.py's MidpointEvaluator ("zero"):
// the midpoint of the utility range for non-terminal states, returns() in
// games with intermediate rewards and at terminal states. Works for every
// game, Python-registered ones included.
#include <memory>

#include "bots/native/evaluator.h"
#include "open_spiel/spiel.h"

namespace starspiel {
namespace {

class MidpointEvaluator : public Evaluator {
 public:
  MidpointEvaluator(double mid, bool rewards) : mid_(mid), rewards_(rewards) {}

  double Value(const open_spiel::State& state, int player) override {
    if (rewards_ || state.IsTerminal()) return state.Returns()[player];
    return mid_;
  }

 private:
  double mid_;
  bool rewards_;
};

std::unique_ptr<Evaluator> MakeMidpointEvaluator(const open_spiel::Game& game) {
  const double mid = (game.MinUtility() + game.MaxUtility()) / 2.0;
  const bool rewards = game.GetType().reward_model == open_spiel::GameType::RewardModel::kRewards;
  return std::make_unique<MidpointEvaluator>(mid, rewards);
}

const bool kRegistered = RegisterEvaluator("midpoint", MakeMidpointEvaluator);

}  // namespace
}  // namespace starspiel
