// Native twin of bots/evaluators/game_2048.py (Game2048Evaluator).
//
// Python scores each of the 4 rows and 4 columns from the tile values in the
// observation tensor and memoises the lines; here the tiles come from
// BoardAt() and a line is looked up by its four ranks in a table of every line's
// score (LineTable). Line scores are small integers, so the sum is exact in any order.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <memory>

#include "bots/native/adapters/game_2048_fields.h"
#include "bots/native/evaluator.h"
#include "bots/native/evaluators/common.h"
#include "bots/native/internals_gate.h"
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

// A tile's rank (log2 of its value, 0 for an empty cell) where a line of such ranks is
// scored by LineTable, else -1: values 1 and 3 (rank 0 and 1 yet not empty; never dealt)
// and ranks above 15.
constexpr int kTableRanks = 16;

int TableRank(int value) {
  if (value == 0) return 0;
  if (value < 2) return -1;
  const int rank = std::bit_width(static_cast<unsigned>(value)) - 1;
  return rank < kTableRanks ? rank : -1;
}

// Line() of every line of ranks below 16, indexed by the four ranks in four bits each:
// a whole score in 128 KB, where scoring a line cost ~145 instructions (a quarter of a
// search's). Line scores are small integers.
using LineScores = std::array<std::int16_t, 1 << 16>;

const LineScores& LineTable() {
  static const LineScores table = [] {
    LineScores scores;
    for (int index = 0; index < (1 << 16); ++index) {
      int tiles[4];
      for (int i = 0; i < 4; ++i) {
        const int rank = index >> (4 * (3 - i)) & 0xF;
        tiles[i] = rank == 0 ? 0 : 1 << rank;
      }
      scores[index] = static_cast<std::int16_t>(Line(tiles));
    }
    return scores;
  }();
  return table;
}

class Game2048Evaluator : public Evaluator {
 public:
  explicit Game2048Evaluator(double max_value) : max_(max_value), fields_(FieldPathsOn()) {}

  double Value(const open_spiel::State& state, int player) override {
    if (state.IsTerminal()) return evaluators::TerminalValue(state, player);
    return NonTerminalValue(state, player);
  }

  double NonTerminalValue(const open_spiel::State& state, int /*player*/) override {
    const auto& board = evaluators::StateAs<TwentyFortyEightState>(state, "Game2048Evaluator");
    // Returns()[0], without its vector where the fields may be read (total_score_ is all
    // it reads).
    const double score = fields_ ? static_cast<double>(board.*k2048TotalScore) : board.Returns()[0];
    int cell[4][4];
    int rank[4][4];
    bool tabled = true;
    for (int r = 0; r < 4; ++r) {
      for (int c = 0; c < 4; ++c) {
        cell[r][c] = board.BoardAt(r, c).value;
        rank[r][c] = TableRank(cell[r][c]);
        tabled = tabled && rank[r][c] >= 0;
      }
    }
    double h = kBase;
    if (tabled) {
      const LineScores& lines = LineTable();
      int line_sum = 0;
      for (int i = 0; i < 4; ++i) {
        line_sum += lines[rank[i][0] << 12 | rank[i][1] << 8 | rank[i][2] << 4 | rank[i][3]];
        line_sum += lines[rank[0][i] << 12 | rank[1][i] << 8 | rank[2][i] << 4 | rank[3][i]];
      }
      h += line_sum;
    } else {
      for (int r = 0; r < 4; ++r) {
        h += Line({cell[r][0], cell[r][1], cell[r][2], cell[r][3]});
      }
      for (int c = 0; c < 4; ++c) {
        h += Line({cell[0][c], cell[1][c], cell[2][c], cell[3][c]});
      }
    }
    const double room = max_ - score;
    if (h > room) h = room;
    if (h < 0.0) h = 0.0;
    return score + h;
  }

 private:
  double max_;   // bounds[1] = 16 * max_utility (game_value_bounds)
  bool fields_;  // the score read from the state's field (internals_gate.h)
};

std::unique_ptr<Evaluator> MakeGame2048Evaluator(const open_spiel::Game& game) {
  evaluators::CheckGameName(game, "2048", "Game2048Evaluator");
  return std::make_unique<Game2048Evaluator>(16.0 * game.MaxUtility());
}

const bool kRegistered = RegisterEvaluator("2048", MakeGame2048Evaluator);

}  // namespace
}  // namespace starspiel
