// Can't Stop (Sid Sackson), the C++ twin of games/cant_stop.py (same rules,
// action and chance encoding, horizon, strings and observation tensor; see
// that module's doc).
#ifndef STARSPIEL_GAMES_NATIVE_CANT_STOP_H_
#define STARSPIEL_GAMES_NATIVE_CANT_STOP_H_

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "games/native/common.h"
#include "open_spiel/spiel.h"

namespace starspiel::cant_stop {

inline constexpr char kShortName[] = "cant_stop";
inline constexpr int kColumns = 11;  // columns 2..12
inline constexpr int kFirstColumn = 2;
inline constexpr std::array<int, kColumns> kHeights = {3, 5, 7, 9, 11, 13, 11, 9, 7, 5, 3};
inline constexpr int kMaxPlayers = 4;
inline constexpr int kRunners = 3;
inline constexpr int kColumnsToWin = 3;
inline constexpr int kNumRolls = 126;  // sorted rolls of four dice
inline constexpr open_spiel::Action kRoll = 0;
inline constexpr open_spiel::Action kStop = 1;
inline constexpr int kPairBase = kFirstColumn + kColumns;                      // 13
inline constexpr int kNumActions = kPairBase + kColumns * (kColumns + 1) / 2;  // 79
inline constexpr int kDecisionsPerTurn = 71;
inline constexpr int kChancePerTurn = 36;

// Phases of a state, as the Python position's.
enum Phase { kToRoll = 0, kToMove = 1, kRollOrStop = 2, kBusted = 3, kOver = 4 };

// The sorted rolls (faces ascending, in lexicographic order) and their probabilities.
const std::array<std::array<int, 4>, kNumRolls>& Rolls();
const std::array<double, kNumRolls>& RollProbabilities();

class CantStopGame : public open_spiel::Game {
 public:
  explicit CantStopGame(const open_spiel::GameParameters& params);

  int NumDistinctActions() const override { return kNumActions; }
  std::unique_ptr<open_spiel::State> NewInitialState() const override;
  int MaxChanceOutcomes() const override { return kNumRolls; }
  int NumPlayers() const override { return players_; }
  double MinUtility() const override { return -1.0; }
  double MaxUtility() const override { return 1.0; }
  absl::optional<double> UtilitySum() const override { return 0.0; }
  int MaxGameLength() const override { return horizon_ * kDecisionsPerTurn; }
  int MaxChanceNodesInHistory() const override { return horizon_ * kChancePerTurn; }
  std::vector<int> ObservationTensorShape() const override {
    return {players_ * kColumns + kColumns + players_ + 4 + 6};
  }

  int horizon() const { return horizon_; }

 private:
  int players_;
  int horizon_;
};

// A position of games/cant_stop.py's CantStopPosition:
// (progress, runners, mover, phase, roll, turns).
class CantStopState : public games::CustomState<CantStopState> {
 public:
  explicit CantStopState(std::shared_ptr<const open_spiel::Game> game);

  open_spiel::Player CurrentPlayer() const override;
  std::vector<open_spiel::Action> LegalActions() const override;
  std::vector<std::pair<open_spiel::Action, double>> ChanceOutcomes() const override;
  std::string ActionToString(open_spiel::Player player, open_spiel::Action action) const override;
  std::string ToString() const override;
  bool IsTerminal() const override { return phase_ == kOver; }
  std::vector<double> Returns() const override;
  void ObservationTensor(open_spiel::Player player, absl::Span<float> values) const override;

  int players() const { return players_; }
  // Player p's banked height in column index c (0..10).
  int progress(int p, int c) const { return progress_[p][c]; }
  // The mover's steps this turn in column index c (0: no runner).
  int runners(int c) const { return runners_[c]; }
  // Whose turn it is; at the end, the winner (-1: a draw).
  int mover() const { return mover_; }
  Phase phase() const { return phase_; }
  // Whether column index c is won (closed to everyone).
  bool Closed(int c) const;
  // The mover's legal moves for a roll, ascending; empty is a bust.
  std::vector<open_spiel::Action> Moves(int roll) const;
  // canonical_text of the Python position (MCMS seeds its draws with it).
  std::string SamplingText() const;

 protected:
  void DoApplyAction(open_spiel::Action action) override;

 private:
  void EndTurn();

  int players_;
  int horizon_;
  std::array<std::array<int, kColumns>, kMaxPlayers> progress_{};
  std::array<int, kColumns> runners_{};
  int mover_ = 0;
  Phase phase_ = kToRoll;
  int roll_ = -1;
  int turns_ = 0;
};

}  // namespace starspiel::cant_stop

#endif  // STARSPIEL_GAMES_NATIVE_CANT_STOP_H_
