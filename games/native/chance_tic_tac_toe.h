// Tic-tac-toe with random blocked squares, the C++ twin of
// games/chance_tic_tac_toe.py (same rules, encoding, strings and tensor).
#ifndef STARSPIEL_GAMES_NATIVE_CHANCE_TIC_TAC_TOE_H_
#define STARSPIEL_GAMES_NATIVE_CHANCE_TIC_TAC_TOE_H_

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "games/native/common.h"
#include "open_spiel/spiel.h"

namespace starspiel::chance_tic_tac_toe {

inline constexpr char kShortName[] = "chance_tic_tac_toe";
inline constexpr int kNoBlock = 9;  // the chance outcome "nothing happens"
// Rows, columns, diagonals: the Python module's _LINES, in its order (the
// evaluator sums over them in this order).
inline constexpr std::array<int, 8> kLines = {
    0007, 0070, 0700, 0111, 0222, 0444, 0421, 0124,
};

class ChanceTTTGame : public open_spiel::Game {
 public:
  explicit ChanceTTTGame(const open_spiel::GameParameters& params);

  int NumDistinctActions() const override { return 9; }
  std::unique_ptr<open_spiel::State> NewInitialState() const override;
  int MaxChanceOutcomes() const override { return 10; }
  int NumPlayers() const override { return 2; }
  double MinUtility() const override { return -1.0; }
  double MaxUtility() const override { return 1.0; }
  absl::optional<double> UtilitySum() const override { return 0.0; }
  int MaxGameLength() const override { return 9; }
  int MaxChanceNodesInHistory() const override { return 8; }
  std::vector<int> ObservationTensorShape() const override { return {4 * 9 + 2 + 1}; }
};

// A position of the Python ChanceTTTPosition: (x, o, blocked, cp, nxt).
class ChanceTTTState : public games::TurnState<ChanceTTTState, 0> {
 public:
  explicit ChanceTTTState(std::shared_ptr<const open_spiel::Game> game) : TurnState(game) {}

  std::vector<open_spiel::Action> LegalActions() const override;
  std::vector<std::pair<open_spiel::Action, double>> ChanceOutcomes() const override;
  std::string ActionToString(open_spiel::Player player, open_spiel::Action action) const override;
  std::string ToString() const override;
  std::vector<double> Returns() const override;
  void ObservationTensor(open_spiel::Player player, absl::Span<float> values) const override;
  void UndoAction(open_spiel::Player player, open_spiel::Action action) override;

  int x_stones() const { return x_; }
  int o_stones() const { return o_; }
  int blocked() const { return b_; }
  // canonical_text of the Python position (MCMS seeds its draws with it).
  std::string SamplingText() const;

 protected:
  void DoApplyAction(open_spiel::Action action) override;

 private:
  int Empty() const;

  int x_ = 0;
  int o_ = 0;
  int b_ = 0;
  // The player to move after a chance node; player 0's result at a terminal;
  // 0 at decision nodes.
  int nxt_ = 0;
};

}  // namespace starspiel::chance_tic_tac_toe

#endif  // STARSPIEL_GAMES_NATIVE_CHANCE_TIC_TAC_TOE_H_
