// Native twin of bots/evaluators/cant_stop.py (CantStopEvaluator): the rolls
// each player still needs for three columns, the mover's runners discounted by
// the next roll's bust risk at a chance node, a softmax into win chances and
// expected returns. The same floating-point operations in the same order, so
// the values are bit-identical; the fields are read from the C++ state.
#include "games/native/cant_stop.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <vector>

#include "bots/native/evaluator.h"
#include "bots/native/evaluators/common.h"
#include "open_spiel/spiel.h"

namespace starspiel {
namespace {

namespace cs = cant_stop;
using evaluators::kShrink;

// bots/evaluators/cant_stop.py's SCALE.
constexpr double kScale = 0.1;
constexpr int kMasks = 1 << cs::kColumns;

// bust_table: for each 11-bit column mask, the chance that no pair sum of a
// roll names one of its columns, summed over the rolls in order.
const std::array<double, kMasks>& BustTable() {
  static const auto* table = [] {
    std::array<int, cs::kNumRolls> sums{};
    for (int r = 0; r < cs::kNumRolls; ++r) {
      const auto& d = cs::Rolls()[r];
      const int pairs[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
      for (const auto& pair : pairs) sums[r] |= 1 << (d[pair[0]] + d[pair[1]] - 2);
    }
    auto* out = new std::array<double, kMasks>();
    for (int mask = 0; mask < kMasks; ++mask) {
      double total = 0.0;
      for (int r = 0; r < cs::kNumRolls; ++r) {
        if (!(sums[r] & mask)) total += cs::RollProbabilities()[r];
      }
      (*out)[mask] = total;
    }
    return out;
  }();
  return *table;
}

class CantStopEvaluator : public Evaluator {
 public:
  CantStopEvaluator() : bust_(BustTable()) {
    for (int c = 0; c < cs::kColumns; ++c) offered_[c] = 1.0 - bust_[1 << c];
  }

  double Value(const open_spiel::State& state, int player) override {
    if (state.IsTerminal()) return evaluators::TerminalValue(state, player);
    return NonTerminalValue(state, player);
  }

  double NonTerminalValue(const open_spiel::State& state, int player) override {
    const auto& s = evaluators::StateAs<cs::CantStopState>(state, "CantStopEvaluator");
    const int players = s.players();
    const int mover = s.mover();
    std::array<int, cs::kColumns> winner;
    winner.fill(-1);
    for (int p = 0; p < players; ++p) {
      for (int c = 0; c < cs::kColumns; ++c) {
        if (s.progress(p, c) == cs::kHeights[c]) winner[c] = p;
      }
    }
    double keep = 1.0;
    if (s.phase() == cs::kToRoll) keep = 1.0 - bust_[Usable(s, winner)];
    std::array<double, cs::kMaxPlayers> costs{};
    for (int p = 0; p < players; ++p) {
      std::array<double, cs::kColumns> left;
      int n = 0;
      for (int c = 0; c < cs::kColumns; ++c) {
        if (winner[c] >= 0 && winner[c] != p) continue;
        double height = static_cast<double>(s.progress(p, c));
        if (p == mover && s.runners(c)) height = s.progress(p, c) + s.runners(c) * keep;
        left[n++] = (cs::kHeights[c] - height) / offered_[c];
      }
      std::sort(left.begin(), left.begin() + n);
      costs[p] = left[0] + left[1] + left[2];
    }
    double best = costs[0];
    for (int p = 1; p < players; ++p) best = std::min(best, costs[p]);
    std::array<double, cs::kMaxPlayers> weights{};
    double total = 0.0;
    for (int p = 0; p < players; ++p) {
      weights[p] = std::exp(-kScale * (costs[p] - best));
      total += weights[p];
    }
    double others = 0.0;
    double value = 0.0;
    for (int p = 0; p < players - 1; ++p) {
      const double v = kShrink * (players * (weights[p] / total) - 1.0) / (players - 1);
      others += v;
      if (p == player) value = v;
    }
    return player == players - 1 ? -others : value;
  }

 private:
  // The mask of columns the mover's next roll can use.
  static int Usable(const cs::CantStopState& s, const std::array<int, cs::kColumns>& winner) {
    int used = 0;
    for (int c = 0; c < cs::kColumns; ++c) used += s.runners(c) ? 1 : 0;
    const bool free = used < cs::kRunners;
    int mask = 0;
    for (int c = 0; c < cs::kColumns; ++c) {
      if (winner[c] < 0 && (s.runners(c) || free) &&
          s.progress(s.mover(), c) + s.runners(c) < cs::kHeights[c]) {
        mask |= 1 << c;
      }
    }
    return mask;
  }

  const std::array<double, kMasks>& bust_;
  std::array<double, cs::kColumns> offered_;
};

std::unique_ptr<Evaluator> MakeCantStopEvaluator(const open_spiel::Game& game) {
  evaluators::CheckGameName(game, cs::kShortName, "CantStopEvaluator");
  if (dynamic_cast<const cs::CantStopGame*>(&game) == nullptr) {
    throw std::invalid_argument("the native cant_stop evaluator needs the C++ cant_stop game");
  }
  return std::make_unique<CantStopEvaluator>();
}

const bool kRegistered = RegisterEvaluator(cs::kShortName, MakeCantStopEvaluator);

}  // namespace
}  // namespace starspiel
