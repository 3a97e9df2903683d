// Hauk's Dice, the C++ twin of games/dice.py (same rules, action encoding,
// chance outcomes, strings and observation tensor; see that module's doc).
#ifndef STARSPIEL_GAMES_NATIVE_DICE_H_
#define STARSPIEL_GAMES_NATIVE_DICE_H_

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "games/native/common.h"
#include "open_spiel/spiel.h"

namespace starspiel::dice {

inline constexpr char kShortName[] = "dice";
// Bit boards of one 64-bit word.
inline constexpr int kMaxN = 8;

// The tables of one (n, k), shared by every state of a game.
struct Rules {
  Rules(int n, int k);
  int n;
  int k;
  int cells;
  int pass_action;
  std::uint64_t full;
  // Every k-window as a cell mask, ascending (the evaluator sums in this order).
  std::vector<std::uint64_t> windows;
  // wins[cell]: the windows through that cell.
  std::vector<std::vector<std::uint64_t>> wins;
  // line_mask[p][i]: the line player p plays after rolling i (columns for x,
  // rows for o).
  std::array<std::vector<std::uint64_t>, 2> line_mask;
  int max_length;
};

// games/dice.py's max_decisions(n).
int MaxDecisions(int n);

class DiceGame : public open_spiel::Game {
 public:
  explicit DiceGame(const open_spiel::GameParameters& params);

  int NumDistinctActions() const override { return rules_->cells + 1; }
  std::unique_ptr<open_spiel::State> NewInitialState() const override;
  int MaxChanceOutcomes() const override { return rules_->n; }
  int NumPlayers() const override { return 2; }
  double MinUtility() const override { return -1.0; }
  double MaxUtility() const override { return 1.0; }
  absl::optional<double> UtilitySum() const override { return 0.0; }
  int MaxGameLength() const override { return rules_->max_length; }
  int MaxChanceNodesInHistory() const override { return rules_->max_length; }
  std::vector<int> ObservationTensorShape() const override {
    return {3 * rules_->cells + 2 + rules_->n};
  }

  const Rules& rules() const { return *rules_; }
  std::shared_ptr<const Rules> rules_ptr() const { return rules_; }

 private:
  std::shared_ptr<const Rules> rules_;
};

// A position of games/dice.py's DicePosition: (b0, b1, cp, x).
class DiceState : public games::TurnState<DiceState, open_spiel::kChancePlayerId> {
 public:
  explicit DiceState(std::shared_ptr<const open_spiel::Game> game);

  std::vector<open_spiel::Action> LegalActions() const override;
  std::vector<std::pair<open_spiel::Action, double>> ChanceOutcomes() const override;
  std::string ActionToString(open_spiel::Player player, open_spiel::Action action) const override;
  std::string ToString() const override;
  std::vector<double> Returns() const override;
  void ObservationTensor(open_spiel::Player player, absl::Span<float> values) const override;
  void UndoAction(open_spiel::Player player, open_spiel::Action action) override;

  std::uint64_t x_stones() const { return b0_; }
  std::uint64_t o_stones() const { return b1_; }
  // The line index at a decision node, the roller at a chance node, player
  // 0's result (+1, -1, 0) at a terminal.
  int aux() const { return x_; }
  const Rules& rules() const { return *rules_; }
  // canonical_text of the Python position (MCMS seeds its draws with it).
  std::string SamplingText() const;

 protected:
  void DoApplyAction(open_spiel::Action action) override;

 private:
  std::string BoardString() const;
  std::string StatusString() const;

  std::shared_ptr<const Rules> rules_;
  std::uint64_t b0_ = 0;
  std::uint64_t b1_ = 0;
  int x_ = 0;
};

}  // namespace starspiel::dice

#endif  // STARSPIEL_GAMES_NATIVE_DICE_H_
