// Native twin of bots/evaluators/backgammon.py (BackgammonEvaluator).
//
// Python derives eight integer features (pip counts, blots, borne-off
// checkers, home points) from the Tesauro observation tensor with one float32
// matrix product. Every partial sum there is a small integer, exact in
// float32, so reading the same counts from the board accessors gives the same
// features; the final expression is evaluated in Python's order.
#include "open_spiel/games/backgammon/backgammon.h"

#include <cmath>
#include <memory>

#include "bots/native/evaluator.h"
#include "bots/native/evaluators/common.h"
#include "open_spiel/spiel.h"

namespace starspiel {
namespace {

using open_spiel::backgammon::BackgammonState;

class BackgammonEvaluator : public Evaluator {
 public:
  double Value(const open_spiel::State& state, int player) override {
    if (state.IsTerminal()) return evaluators::TerminalValue(state, player);
    const auto& bg = evaluators::StateAs<BackgammonState>(state, "BackgammonEvaluator");
    // Player 0 is x (moves from point 0 toward 23), player 1 is o.
    int pip_x = 25 * bg.bar(0), pip_o = 25 * bg.bar(1);
    int blot_x = 0, blot_o = 0, home_x = 0, home_o = 0;
    for (int p = 0; p < open_spiel::backgammon::kNumPoints; ++p) {
      const int x = bg.board(0, p);
      const int o = bg.board(1, p);
      pip_x += x * (24 - p);
      pip_o += o * (p + 1);
      blot_x += x == 1;
      blot_o += o == 1;
      if (p >= 18) home_x += x >= 2;
      if (p <= 5) home_o += o >= 2;
    }
    const double off_x = bg.score(0), off_o = bg.score(1);
    const double px = pip_x, po = pip_o;
    const double x = 8.0 * (po - px) / (px + po + 20.0) +
                     0.15 * static_cast<double>(blot_o - blot_x) +
                     0.1 * static_cast<double>(home_x - home_o) + 0.03 * (off_x - off_o);
    const double v = evaluators::kShrink * std::tanh(x);
    return player == 1 ? -v : v;
  }
};

std::unique_ptr<Evaluator> MakeBackgammonEvaluator(const open_spiel::Game& game) {
  evaluators::CheckGameName(game, "backgammon", "BackgammonEvaluator");
  const auto shape = game.ObservationTensorShape();
  if (shape.size() != 1 || shape[0] != 200) {
    throw std::invalid_argument("BackgammonEvaluator expects a 200-entry observation tensor, got " +
                                std::to_string(game.ObservationTensorSize()));
  }
  return std::make_unique<BackgammonEvaluator>();
}

const bool kRegistered = RegisterEvaluator("backgammon", MakeBackgammonEvaluator);

}  // namespace
}  // namespace starspiel
