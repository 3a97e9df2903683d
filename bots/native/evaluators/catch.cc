// Native twin of bots/evaluators/catch.py (CatchEvaluator): the slack
// between the rows left and the paddle's distance to the ball, read from the
// same ball_row/ball_col/paddle_col accessors Python uses.
#include "open_spiel/games/catch/catch.h"

#include <cmath>
#include <cstdlib>
#include <memory>

#include "bots/native/evaluator.h"
#include "bots/native/evaluators/common.h"
#include "open_spiel/spiel.h"

namespace starspiel {
namespace {

using open_spiel::catch_::CatchState;

class CatchEvaluator : public Evaluator {
 public:
  explicit CatchEvaluator(int rows) : rows_(rows) {}

  double Value(const open_spiel::State& state, int player) override {
    if (state.IsTerminal()) return evaluators::TerminalValue(state, player);
    const auto& c = evaluators::StateAs<CatchState>(state, "CatchEvaluator");
    const int row = c.ball_row();
    if (row < 0) return 0.0;  // before the ball is dropped
    const int slack = (rows_ - 1 - row) - std::abs(c.paddle_col() - c.ball_col());
    return evaluators::kShrink * std::tanh(slack + 0.5);
  }

 private:
  int rows_;
};

std::unique_ptr<Evaluator> MakeCatchEvaluator(const open_spiel::Game& game) {
  evaluators::CheckGameName(game, "catch", "CatchEvaluator");
  const int rows = evaluators::IntParameter(game.GetParameters(), "rows", 10);
  return std::make_unique<CatchEvaluator>(rows);
}

const bool kRegistered = RegisterEvaluator("catch", MakeCatchEvaluator);

}  // namespace
}  // namespace starspiel
