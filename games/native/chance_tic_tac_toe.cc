#include "games/native/chance_tic_tac_toe.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <stdexcept>

#include "games/native/common.h"

namespace starspiel::chance_tic_tac_toe {
namespace {

using open_spiel::Action;
using open_spiel::kChancePlayerId;
using open_spiel::kTerminalPlayerId;
using open_spiel::Player;

constexpr int kFull = 0x1FF;
constexpr char kLongName[] = "Tic-tac-toe with random blocked squares";

std::shared_ptr<const open_spiel::Game> Factory(const open_spiel::GameParameters& params) {
  return std::make_shared<ChanceTTTGame>(params);
}

const open_spiel::GameRegisterer kRegisterer(games::ChanceGameType(kShortName, kLongName, {}),
                                             Factory);

const open_spiel::RegisterSingleTensorObserver kObserver(kShortName);

bool Wins(int stones, int cell) {
  for (int m : kLines) {
    if (games::Bit(m, cell) && (stones & m) == m) return true;
  }
  return false;
}

std::string Cell(int cell) {
  return "(" + std::to_string(cell / 3) + "," + std::to_string(cell % 3) + ")";
}

}  // namespace

ChanceTTTGame::ChanceTTTGame(const open_spiel::GameParameters& params)
    : Game(games::ChanceGameType(kShortName, kLongName, {}),
           games::FullParameters(params, {}, kShortName)) {}

std::unique_ptr<open_spiel::State> ChanceTTTGame::NewInitialState() const {
  return std::make_unique<ChanceTTTState>(shared_from_this());
}

int ChanceTTTState::Empty() const { return kFull & ~(x_ | o_ | b_); }

std::vector<Action> ChanceTTTState::LegalActions() const {
  std::vector<Action> actions;
  if (cp_ == kTerminalPlayerId) return actions;
  for (int m = Empty(); m; m &= m - 1) actions.push_back(std::countr_zero(unsigned(m)));
  if (cp_ == kChancePlayerId) actions.push_back(kNoBlock);
  return actions;
}

std::vector<std::pair<Action, double>> ChanceTTTState::ChanceOutcomes() const {
  std::vector<std::pair<Action, double>> outcomes;
  if (cp_ != kChancePlayerId) return outcomes;
  const int empty = Empty();
  const double p = 0.5 / std::popcount(unsigned(empty));
  for (int m = empty; m; m &= m - 1) outcomes.emplace_back(std::countr_zero(unsigned(m)), p);
  outcomes.emplace_back(kNoBlock, 0.5);
  return outcomes;
}

void ChanceTTTState::DoApplyAction(Action action) {
  games::CheckApplicable(*this, action);
  if (cp_ == kChancePlayerId) {
    if (action != kNoBlock) b_ |= 1 << action;
    if ((x_ | o_ | b_) == kFull) {  // the block took the last square
      cp_ = kTerminalPlayerId;
      nxt_ = 0;
    } else {
      cp_ = nxt_;
      nxt_ = 0;
    }
    return;
  }
  const int player = cp_;
  int& own = player == 0 ? x_ : o_;
  own |= 1 << action;
  if (Wins(own, static_cast<int>(action))) {
    cp_ = kTerminalPlayerId;
    nxt_ = player == 0 ? 1 : -1;
  } else if ((x_ | o_ | b_) == kFull) {
    cp_ = kTerminalPlayerId;
    nxt_ = 0;
  } else {
    cp_ = kChancePlayerId;
    nxt_ = 1 - player;
  }
}

void ChanceTTTState::UndoAction(Player player, Action action) {
  PopHistory();
  if (player == kChancePlayerId) {
    if (action != kNoBlock) b_ &= ~(1 << action);
    cp_ = kChancePlayerId;
    // x moves first and the players alternate: the stone count names who is next.
    nxt_ = std::popcount(unsigned(x_ | o_)) % 2;
    return;
  }
  (player == 0 ? x_ : o_) &= ~(1 << action);
  cp_ = player;
  nxt_ = 0;
}

std::vector<double> ChanceTTTState::Returns() const {
  return games::ZeroSumReturns(cp_ == kTerminalPlayerId ? nxt_ : 0);
}

std::string ChanceTTTState::ActionToString(Player player, Action action) const {
  if (player == kChancePlayerId) {
    return action == kNoBlock ? "no block" : "block" + Cell(static_cast<int>(action));
  }
  return (player == 0 ? "x" : "o") + Cell(static_cast<int>(action));
}

std::string ChanceTTTState::ToString() const {
  std::string out;
  for (int c = 0; c < 9; ++c) {
    if (c && c % 3 == 0) out += '\n';
    out += games::Bit(x_, c) ? 'x' : games::Bit(o_, c) ? 'o' : games::Bit(b_, c) ? '#' : '.';
  }
  out += '\n';
  if (cp_ == kTerminalPlayerId) {
    out += nxt_ == 1 ? "x won" : nxt_ == -1 ? "o won" : "draw";
  } else if (cp_ == kChancePlayerId) {
    out += std::string("chance (block?), then ") + (nxt_ == 0 ? "x" : "o") + " to move";
  } else {
    out += std::string(cp_ == 0 ? "x" : "o") + " to move";
  }
  return out;
}

void ChanceTTTState::ObservationTensor(Player player, absl::Span<float> values) const {
  std::fill(values.begin(), values.end(), 0.0f);
  // Pieces: planes (empty, x, o, blocked) of 3 x 3, player to move next (2), chance (1).
  for (int c = 0; c < 9; ++c) {
    const int plane = games::Bit(x_, c) ? 1 : games::Bit(o_, c) ? 2 : games::Bit(b_, c) ? 3 : 0;
    values[plane * 9 + c] = 1.0f;
  }
  if (cp_ >= 0) {
    values[36 + cp_] = 1.0f;
  } else if (cp_ == kChancePlayerId) {
    values[36 + nxt_] = 1.0f;
    values[38] = 1.0f;
  }
}

std::string ChanceTTTState::SamplingText() const {
  return "(" + std::to_string(x_) + "," + std::to_string(o_) + "," + std::to_string(b_) + "," +
         std::to_string(cp_) + "," + std::to_string(nxt_) + ")";
}

}  // namespace starspiel::chance_tic_tac_toe
