// Native twin of bots/evaluators/einstein.py (EinsteinEvaluator).
//
// Python parses str(state) for the cubes; here the cubes come from the
// board(row, col) accessor. Distances are small integers, so the per-side
// expectations are exact and the value is Python's expression in its order.
#include <cmath>
#include <memory>

#include "bots/native/adapters/einstein_wurfelt_nicht_fields.h"
#include "bots/native/evaluator.h"
#include "bots/native/evaluators/common.h"
#include "bots/native/internals_gate.h"
#include "open_spiel/spiel.h"

namespace starspiel {
namespace {

namespace ewn = open_spiel::einstein_wurfelt_nicht;

constexpr int kSize = 5;   // the board ToString prints: 5 x 5
constexpr int kNone = -1;  // no cube with this number

// EinsteinEvaluator._expected: mean over die values of the best selectable
// cube distance (the cube with the die's number, else the nearest lower and
// higher numbers).
double Expected(const int (&dists)[6]) {
  double total = 0.0;
  for (int die = 0; die < 6; ++die) {
    if (dists[die] != kNone) {
      total += dists[die];
      continue;
    }
    int best = kNone;
    for (int n = die - 1; n >= 0; --n) {
      if (dists[n] != kNone) {
        best = dists[n];
        break;
      }
    }
    for (int n = die + 1; n < 6; ++n) {
      if (dists[n] != kNone) {
        if (best == kNone || dists[n] < best) best = dists[n];
        break;
      }
    }
    total += best;
  }
  return total / 6.0;
}

class EinsteinEvaluator : public Evaluator {
 public:
  EinsteinEvaluator() : fields_(FieldPathsOn()) {}

  double Value(const open_spiel::State& state, int player) override {
    if (state.IsTerminal()) return evaluators::TerminalValue(state, player);
    return NonTerminalValue(state, player);
  }

  double NonTerminalValue(const open_spiel::State& state, int player) override {
    const auto& ewn_state =
        evaluators::StateAs<ewn::EinsteinWurfeltNichtState>(state, "EinsteinEvaluator");
    int black[6] = {kNone, kNone, kNone, kNone, kNone, kNone};
    int white[6] = {kNone, kNone, kNone, kNone, kNone, kNone};
    bool any_black = false, any_white = false;
    for (int r = 0; r < kSize; ++r) {
      for (int c = 0; c < kSize; ++c) {
        const ewn::Cube cube = ewn_state.board(r, c);
        if (cube.color == ewn::Color::kBlack) {
          // Black runs to the bottom-right corner, white to the top-left.
          black[cube.value - 1] = std::max(4 - r, 4 - c);
          any_black = true;
        } else if (cube.color == ewn::Color::kWhite) {
          white[cube.value - 1] = std::max(r, c);
          any_white = true;
        }
      }
    }
    double v = 0.0;  // before the cubes are placed
    if (any_black && any_white) {
      const double x = Expected(white) - Expected(black) + (NextMover(ewn_state) == 0 ? 0.5 : -0.5);
      v = evaluators::kShrink * std::tanh(0.6 * x);
    }
    return player == 1 ? -v : v;
  }

 private:
  // EinsteinEvaluator.next_mover: at a die roll, player 1 moves after a roll
  // at move number 4k + 2.
  // The state is not terminal, so its CurrentPlayer() is cur_player_ (read without the
  // two virtual calls where the fields may be read).
  int NextMover(const ewn::EinsteinWurfeltNichtState& state) const {
    const int player = fields_ ? state.*kEwnCurPlayer : state.CurrentPlayer();
    if (player >= 0) return player;
    return state.MoveNumber() % 4 == 2 ? 1 : 0;
  }

  bool fields_;  // the player read from the state's field (internals_gate.h)
};

std::unique_ptr<Evaluator> MakeEinsteinEvaluator(const open_spiel::Game& game) {
  evaluators::CheckGameName(game, "einstein_wurfelt_nicht", "EinsteinEvaluator");
  return std::make_unique<EinsteinEvaluator>();
}

const bool kRegistered = RegisterEvaluator("einstein_wurfelt_nicht", MakeEinsteinEvaluator);

}  // namespace
}  // namespace starspiel
