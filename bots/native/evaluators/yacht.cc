// Native twin of bots/evaluators/yacht.py (YachtEvaluator).
//
// Python reads the category-used flags and the normalised totals from the
// observation tensor; here the flags come from category_used() and each
// total is put through the tensor's float32 normalisation and Python's
// round(x * 305) so that it is the very number Python sees.
#include "open_spiel/games/yacht/yacht.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "bots/native/evaluator.h"
#include "bots/native/evaluators/common.h"
#include "open_spiel/spiel.h"

namespace starspiel {
namespace {

using open_spiel::yacht::YachtState;

// Rough expected scores of the 12 categories (yacht.py's _YACHT_EXPECTED).
constexpr double kExpected[12] = {2.1,  5.3,  8.6,  12.2, 15.7, 19.2,
                                  22.0, 13.0, 15.0, 15.0, 15.0, 15.0};
constexpr double kSdPerCategory = 9.0;
constexpr double kMaxScore = 305.0;  // yacht.py's hard-coded _max_score

class YachtEvaluator : public Evaluator {
 public:
  YachtEvaluator(double max_possible_score, int num_players)
      : max_possible_score_(max_possible_score), num_players_(num_players) {
    ev_total_ = 0.0;
    for (double e : kExpected) ev_total_ += e;
  }

  double Value(const open_spiel::State& state, int player) override {
    if (state.IsTerminal()) return evaluators::TerminalValue(state, player);
    const auto& y = evaluators::StateAs<YachtState>(state, "YachtEvaluator");
    if (num_players_ > 2) return Values(y)[player];
    if (num_players_ == 1) return SoloValue(y);
    double used_sum[2] = {0.0, 0.0};
    int used_count = 0;
    for (int p = 0; p < 2; ++p) {
      for (int c = 0; c < open_spiel::yacht::kNumCategories; ++c) {
        if (y.category_used(p, c)) {
          used_sum[p] += kExpected[c];
          ++used_count;
        }
      }
    }
    const double total0 = Total(y, 0), total1 = Total(y, 1);
    const double rest0 = ev_total_ - used_sum[0];
    const double rest1 = ev_total_ - used_sum[1];
    const double left = 24.0 - used_count;
    const double d = total0 + rest0 - total1 - rest1;
    const double spread = kSdPerCategory * std::sqrt(left) + 1.0;
    const double v = evaluators::kShrink * std::erf(d / (1.4142135623730951 * spread));
    return player == 1 ? -v : v;
  }

  void NonTerminalValues(const open_spiel::State& state, std::vector<double>* values) override {
    if (num_players_ <= 2) return Evaluator::NonTerminalValues(state, values);
    *values = Values(evaluators::StateAs<YachtState>(state, "YachtEvaluator"));
  }

 private:
  // YachtEvaluator._solo_value: 0.99 * expected final score / 305.
  double SoloValue(const YachtState& y) const {
    double used_sum = 0.0;
    for (int c = 0; c < open_spiel::yacht::kNumCategories; ++c) {
      if (y.category_used(0, c)) used_sum += kExpected[c];
    }
    const double final_score = Total(y, 0) + (ev_total_ - used_sum);
    return evaluators::kShrink * std::min(final_score, kMaxScore) / kMaxScore;
  }

  // YachtEvaluator._values: every pair's race on the expected final scores.
  std::vector<double> Values(const YachtState& y) const {
    const int n = num_players_;
    std::vector<double> final_score(n), left(n);
    for (int p = 0; p < n; ++p) {
      double used_sum = 0.0;  // ordered_sum(compress(...)): category order from 0
      int used = 0;
      for (int c = 0; c < open_spiel::yacht::kNumCategories; ++c) {
        if (y.category_used(p, c)) {
          used_sum += kExpected[c];
          ++used;
        }
      }
      final_score[p] = Total(y, p) + (ev_total_ - used_sum);
      left[p] = 12.0 - used;
    }
    std::vector<double> pairs;
    for (int i = 0; i < n; ++i) {
      for (int j = i + 1; j < n; ++j) {
        const double spread = kSdPerCategory * std::sqrt(left[i] + left[j]) + 1.0;
        const double d = final_score[i] - final_score[j];
        pairs.push_back(evaluators::kShrink * std::erf(d / (1.4142135623730951 * spread)));
      }
    }
    return evaluators::PairwiseWinValues(pairs, n, n - 1);
  }

  // round(o[t] * 305.0) of Python, o[t] the tensor's float32 total.
  double Total(const YachtState& y, int player) const {
    const float normalised = static_cast<float>(y.total_score(player)) / max_possible_score_;
    return std::nearbyint(static_cast<double>(normalised) * kMaxScore);
  }

  double max_possible_score_;
  int num_players_;
  double ev_total_;
};

std::unique_ptr<Evaluator> MakeYachtEvaluator(const open_spiel::Game& game) {
  evaluators::CheckGameName(game, "yacht", "YachtEvaluator");
  const open_spiel::GameParameters params = game.GetParameters();
  const auto* yacht = dynamic_cast<const open_spiel::yacht::YachtGame*>(&game);
  if (yacht == nullptr || evaluators::IntParameter(params, "num_dice", 5) != 5 ||
      evaluators::IntParameter(params, "dice_sides", 6) != 6) {
    throw std::invalid_argument("YachtEvaluator supports 5 six-sided dice, got players=" +
                                std::to_string(game.NumPlayers()) + ", game " + game.ToString());
  }
  return std::make_unique<YachtEvaluator>(yacht->MaxPossibleScore(), game.NumPlayers());
}

const bool kRegistered = RegisterEvaluator("yacht", MakeYachtEvaluator);

}  // namespace
}  // namespace starspiel
