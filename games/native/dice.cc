#include "games/native/dice.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <set>
#include <stdexcept>

#include "games/native/common.h"

namespace starspiel::dice {
namespace {

using open_spiel::Action;
using open_spiel::kChancePlayerId;
using open_spiel::kTerminalPlayerId;
using open_spiel::Player;

// -ln(1e-30), games/_common.py's NEG_LOG_EPS.
constexpr double kNegLogEps = 69.08;

const open_spiel::GameParameters& Spec() {
  static const auto* spec = new open_spiel::GameParameters{{"n", open_spiel::GameParameter(5)},
                                                           {"k", open_spiel::GameParameter(4)}};
  return *spec;
}

std::shared_ptr<const open_spiel::Game> Factory(const open_spiel::GameParameters& params) {
  return std::make_shared<DiceGame>(params);
}

const open_spiel::GameRegisterer kRegisterer(
    games::ChanceGameType(kShortName, "Dice (Hauk): k in a row, line chosen by a die", Spec()),
    Factory);

const open_spiel::RegisterSingleTensorObserver kObserver(kShortName);

std::string PlayerMark(Player player) { return player == 0 ? "x" : "o"; }

}  // namespace

int MaxDecisions(int n) {
  // The same expression, in the same order, as the Python twin.
  const int a = n * n;
  const double c = kNegLogEps;
  const double mu = a + c + std::sqrt(c * c + 2 * a * c);
  return static_cast<int>(std::ceil(n * mu));
}

Rules::Rules(int n, int k) : n(n), k(k), cells(n * n), pass_action(n * n) {
  full = cells == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << cells) - 1;
  std::set<std::uint64_t> unique;  // k == 1: all directions give one window
  const int directions[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
  for (int r = 0; r < n; ++r) {
    for (int c = 0; c < n; ++c) {
      for (const auto& d : directions) {
        const int rr = r + (k - 1) * d[0], cc = c + (k - 1) * d[1];
        if (rr < 0 || rr >= n || cc < 0 || cc >= n) continue;
        std::uint64_t m = 0;
        for (int i = 0; i < k; ++i) m |= std::uint64_t{1} << ((r + i * d[0]) * n + c + i * d[1]);
        unique.insert(m);
      }
    }
  }
  windows.assign(unique.begin(), unique.end());
  wins.resize(cells);
  for (int cell = 0; cell < cells; ++cell) {
    for (std::uint64_t m : windows) {
      if (games::Bit(m, cell)) wins[cell].push_back(m);
    }
  }
  for (int i = 0; i < n; ++i) {
    std::uint64_t column = 0, row = 0;
    for (int j = 0; j < n; ++j) {
      column |= std::uint64_t{1} << (j * n + i);
      row |= std::uint64_t{1} << (i * n + j);
    }
    line_mask[0].push_back(column);
    line_mask[1].push_back(row);
  }
  max_length = MaxDecisions(n);
}

DiceGame::DiceGame(const open_spiel::GameParameters& params)
    : Game(games::ChanceGameType(kShortName, "Dice (Hauk): k in a row, line chosen by a die",
                                 Spec()),
           games::FullParameters(params, Spec(), kShortName)) {
  const open_spiel::GameParameters full = GetParameters();
  // The Python game has no upper bound on n; one 64-bit word per board here.
  const int n = games::CheckInt(full, "n", 2, std::nullopt, kShortName, " (board side)");
  if (n > kMaxN) {
    throw std::invalid_argument(std::string(kShortName) + ": parameter n=" + std::to_string(n) +
                                " is out of range for the native game; accepted: integers in [2, " +
                                std::to_string(kMaxN) +
                                "] (set STARSPIEL_ENGINE=python for larger boards)");
  }
  const int k =
      games::CheckInt(full, "k", 1, n, kShortName, " (stones in a row to win; 1 <= k <= n)");
  rules_ = std::make_shared<const Rules>(n, k);
}

std::unique_ptr<open_spiel::State> DiceGame::NewInitialState() const {
  return std::make_unique<DiceState>(shared_from_this());
}

DiceState::DiceState(std::shared_ptr<const open_spiel::Game> game)
    : TurnState(game), rules_(static_cast<const DiceGame&>(*game).rules_ptr()) {}

std::vector<Action> DiceState::LegalActions() const {
  const Rules& r = *rules_;
  std::vector<Action> actions;
  if (cp_ >= 0) {
    const std::uint64_t free = r.line_mask[cp_][x_] & ~(b0_ | b1_);
    for (std::uint64_t m = free; m; m &= m - 1) actions.push_back(std::countr_zero(m));
    if (actions.empty()) actions.push_back(r.pass_action);
  } else if (cp_ == kChancePlayerId) {
    for (int i = 0; i < r.n; ++i) actions.push_back(i);
  }
  return actions;
}

std::vector<std::pair<Action, double>> DiceState::ChanceOutcomes() const {
  std::vector<std::pair<Action, double>> outcomes;
  if (cp_ != kChancePlayerId) return outcomes;
  const double p = 1.0 / rules_->n;
  for (int i = 0; i < rules_->n; ++i) outcomes.emplace_back(i, p);
  return outcomes;
}

void DiceState::DoApplyAction(Action action) {
  const Rules& r = *rules_;
  games::CheckApplicable(*this, action);
  if (cp_ == kChancePlayerId) {
    cp_ = x_;
    x_ = static_cast<int>(action);
    return;
  }
  const int player = cp_;
  if (action != r.pass_action) {
    std::uint64_t& own = player == 0 ? b0_ : b1_;
    own |= std::uint64_t{1} << action;
    for (std::uint64_t m : r.wins[action]) {
      if ((own & m) == m) {
        cp_ = kTerminalPlayerId;
        x_ = player == 0 ? 1 : -1;
        return;
      }
    }
    if ((b0_ | b1_) == r.full) {
      cp_ = kTerminalPlayerId;
      x_ = 0;
      return;
    }
  }
  cp_ = kChancePlayerId;
  x_ = 1 - player;
}

void DiceState::UndoAction(Player player, Action action) {
  PopHistory();
  if (player == kChancePlayerId) {
    x_ = cp_;  // the roller
    cp_ = kChancePlayerId;
    return;
  }
  if (action != rules_->pass_action) {
    (player == 0 ? b0_ : b1_) &= ~(std::uint64_t{1} << action);
  }
  cp_ = player;
  x_ = static_cast<int>(history_.back().action);  // the roll that chose the line
}

std::vector<double> DiceState::Returns() const {
  return games::ZeroSumReturns(cp_ == kTerminalPlayerId ? x_ : 0);
}

std::string DiceState::ActionToString(Player player, Action action) const {
  const Rules& r = *rules_;
  if (player == kChancePlayerId) {
    // The roller is known only before the roll.
    std::string kind = "line";
    if (cp_ == kChancePlayerId) kind = x_ == 0 ? "column" : "row";
    return "roll " + kind + " " + std::to_string(action);
  }
  if (action == r.pass_action) return PlayerMark(player) + " pass";
  return PlayerMark(player) + "(" + std::to_string(action / r.n) + "," +
         std::to_string(action % r.n) + ")";
}

std::string DiceState::BoardString() const {
  const int n = rules_->n;
  std::string out;
  for (int i = 0; i < n; ++i) {
    if (i) out += '\n';
    for (int j = 0; j < n; ++j) {
      const int c = i * n + j;
      out += games::Bit(b0_, c) ? 'x' : games::Bit(b1_, c) ? 'o' : '.';
    }
  }
  return out;
}

std::string DiceState::StatusString() const {
  if (cp_ == kTerminalPlayerId) return x_ == 1 ? "x won" : x_ == -1 ? "o won" : "draw";
  if (cp_ == kChancePlayerId) {
    return PlayerMark(x_) + " to roll a " + (x_ == 0 ? "column" : "row");
  }
  return PlayerMark(cp_) + " to move on " + (cp_ == 0 ? "column " : "row ") + std::to_string(x_);
}

std::string DiceState::ToString() const { return BoardString() + "\n" + StatusString(); }

void DiceState::ObservationTensor(Player player, absl::Span<float> values) const {
  const Rules& r = *rules_;
  std::fill(values.begin(), values.end(), 0.0f);
  // Pieces: board planes (empty, x, o) of n x n, player (2), line (n).
  for (int c = 0; c < r.cells; ++c) {
    const int plane = games::Bit(b0_, c) ? 1 : games::Bit(b1_, c) ? 2 : 0;
    values[plane * r.cells + c] = 1.0f;
  }
  const int player_at = 3 * r.cells, line_at = player_at + 2;
  if (cp_ >= 0) {
    values[player_at + cp_] = 1.0f;
    values[line_at + x_] = 1.0f;
  } else if (cp_ == kChancePlayerId) {
    values[player_at + x_] = 1.0f;
  }
}

std::string DiceState::SamplingText() const {
  return "(DiceRules," + std::to_string(b0_) + "," + std::to_string(b1_) + "," +
         std::to_string(cp_) + "," + std::to_string(x_) + ")";
}

}  // namespace starspiel::dice
