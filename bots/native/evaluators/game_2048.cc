// Native twin of bots/evaluators/game_2048.py (Game2048Evaluator).
//
// Python scores each of the 4 rows and 4 columns from the tile values in the
// observation tensor and memoises the lines; here the tiles come from
// BoardAt() and a line is scored directly (a few integer operations). Line
// scores are small integers, so the sum is exact in any order.
#include <algorithm>
#include <bit>
#include <memory>

#include "bots/native/evaluator.h"
#include "bots/native/evaluators/common.h"
// 2048.h declares `const int max_tile() const`, which -Wextra flags.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-qualifiers"
#include "open_spiel/games/twenty_forty_eight/2048.h"
#pragma GCC diagnostic pop
#include "open_spiel/spiel.h"

namespace starspiel {
namespace {

using open_spiel::twenty_forty_eight::TwentyFortyEightState;

constexpr double kEmpty = 5.0;
constexpr double kMerge = 5.0;
constexpr double kMono = 2.0;
constexpr double kBase = 40.0;

// Game2048Evaluator._line for the tile values a, b, c, d.
double Line(const int (&tiles)[4]) {
  int ranks[4];
  int empty = 0;
  for (int i = 0; i < 4; ++i) {
    const int v = tiles[i];
    ranks[i] = v > 0 ? std::bit_width(static_cast<unsigned>(v)) - 1 : 0;
    empty += v == 0;
  }
  // Adjacent equal ranks among the non-empty tiles (zeros skipped).
  int merges = 0;
  int previous = 0;
  for (int r : ranks) {
    if (r <= 0) continue;
    if (r == previous) merges += previous;
    previous = r;
  }
  int inc = 0, dec = 0;
  for (int i = 0; i + 1 < 4; ++i) {
    inc += std::max(0, ranks[i + 1] - ranks[i]);
    dec += std::max(0, ranks[i] - ranks[i + 1]);
  }
  return kEmpty * empty + kMerge * merges - kMono * std::min(inc, dec);
}

class Game2048Evaluator : public Evaluator {
 public:
  explicit Game2048Evaluator(double max_value) : max_(max_value) {}

  double Value(const open_spiel::State& state, int player) override {
    if (state.IsTerminal()) return evaluators::TerminalValue(state, player);
    return NonTerminalValue(state, player);
  }

  double NonTerminalValue(const open_spiel::State& state, int /*player*/) override {
    const auto& board = evaluators::StateAs<TwentyFortyEightState>(state, "Game2048Evaluator");
    const double score = state.Returns()[0];
    int cell[4][4];
    for (int r = 0; r < 4; ++r) {
      for (int c = 0; c < 4; ++c) cell[r][c] = board.BoardAt(r, c).value;
    }
    double h = kBase;
    for (int r = 0; r < 4; ++r) {
      h += Line({cell[r][0], cell[r][1], cell[r][2], cell[r][3]});
    }
    for (int c = 0; c < 4; ++c) {
      h += Line({cell[0][c], cell[1][c], cell[2][c], cell[3][c]});
    }
    const double room = max_ - score;
    if (h > room) h = room;
    if (h < 0.0) h = 0.0;
    return score + h;
  }

 private:
  double max_;  // bounds[1] = 16 * max_utility (game_value_bounds)
};

std::unique_ptr<Evaluator> MakeGame2048Evaluator(const open_spiel::Game& game) {
  evaluators::CheckGameName(game, "2048", "Game2048Evaluator");
  return std::make_unique<Game2048Evaluator>(16.0 * game.MaxUtility());
}

const bool kRegistered = RegisterEvaluator("2048", MakeGame2048Evaluator);

}  // namespace
}  // namespace starspiel
