#include "games/native/cant_stop.h"

#include <algorithm>
#include <bitset>
#include <map>
#include <stdexcept>

#include "games/native/common.h"

namespace starspiel::cant_stop {
namespace {

using open_spiel::Action;
using open_spiel::kChancePlayerId;
using open_spiel::kTerminalPlayerId;
using open_spiel::Player;

constexpr char kLongName[] = "Can't Stop (Sid Sackson)";

const open_spiel::GameParameters& Spec() {
  static const auto* spec = new open_spiel::GameParameters{
      {"players", open_spiel::GameParameter(2)}, {"horizon", open_spiel::GameParameter(1000)}};
  return *spec;
}

// games/cant_stop.py's game type: 2 to 4 players.
open_spiel::GameType MakeGameType() {
  return games::ChanceGameType(kShortName, kLongName, Spec(), /*min_players=*/2, kMaxPlayers);
}

std::shared_ptr<const open_spiel::Game> Factory(const open_spiel::GameParameters& params) {
  return std::make_shared<CantStopGame>(params);
}

const open_spiel::GameRegisterer kRegisterer(MakeGameType(), Factory);

const open_spiel::RegisterSingleTensorObserver kObserver(kShortName);

// The pair action of column indices i <= j: 13 + the pair's index in (i, j) order.
struct PairTable {
  PairTable() {
    int k = kPairBase;
    for (int i = 0; i < kColumns; ++i) {
      for (int j = i; j < kColumns; ++j) {
        action[i][j] = k;
        columns[k - kPairBase] = {i, j};
        ++k;
      }
    }
  }
  std::array<std::array<int, kColumns>, kColumns> action{};
  std::array<std::array<int, 2>, kNumActions - kPairBase> columns{};
};

const PairTable& Pairs() {
  static const PairTable* table = new PairTable();
  return *table;
}

// The three pairings of each roll, as column indices: (a+b, c+d), (a+c, b+d), (a+d, b+c).
const std::array<std::array<std::array<int, 2>, 3>, kNumRolls>& Pairings() {
  static const auto* pairings = [] {
    auto* out = new std::array<std::array<std::array<int, 2>, 3>, kNumRolls>();
    for (int r = 0; r < kNumRolls; ++r) {
      const auto& d = Rolls()[r];
      (*out)[r] = {{{d[0] + d[1] - 2, d[2] + d[3] - 2},
                    {d[0] + d[2] - 2, d[1] + d[3] - 2},
                    {d[0] + d[3] - 2, d[1] + d[2] - 2}}};
    }
    return out;
  }();
  return *pairings;
}

// The column indices a move advances, one entry per step.
std::vector<int> ActionColumns(Action action) {
  if (action < kPairBase) return {static_cast<int>(action) - kFirstColumn};
  const auto& pair = Pairs().columns[action - kPairBase];
  return {pair[0], pair[1]};
}

std::string RollText(int roll) {
  const auto& d = Rolls()[roll];
  return std::to_string(d[0]) + " " + std::to_string(d[1]) + " " + std::to_string(d[2]) + " " +
         std::to_string(d[3]);
}

// Python's f"{label:<8}" followed by f"{v:>3}" for each value.
std::string Line(const std::string& label, const std::array<std::string, kColumns>& values) {
  std::string out = label;
  out.resize(std::max<size_t>(8, label.size()), ' ');
  for (const std::string& v : values) {
    if (v.size() < 3) out.append(3 - v.size(), ' ');
    out += v;
  }
  return out;
}

std::array<std::string, kColumns> Texts(const std::array<int, kColumns>& values) {
  std::array<std::string, kColumns> out;
  for (int c = 0; c < kColumns; ++c) out[c] = std::to_string(values[c]);
  return out;
}

}  // namespace

const std::array<std::array<int, 4>, kNumRolls>& Rolls() {
  static const auto* rolls = [] {
    auto* out = new std::array<std::array<int, 4>, kNumRolls>();
    int r = 0;
    for (int a = 1; a <= 6; ++a) {
      for (int b = a; b <= 6; ++b) {
        for (int c = b; c <= 6; ++c) {
          for (int d = c; d <= 6; ++d) (*out)[r++] = {a, b, c, d};
        }
      }
    }
    return out;
  }();
  return *rolls;
}

const std::array<double, kNumRolls>& RollProbabilities() {
  static const auto* probabilities = [] {
    std::map<std::array<int, 4>, int> counts;
    for (int a = 1; a <= 6; ++a) {
      for (int b = 1; b <= 6; ++b) {
        for (int c = 1; c <= 6; ++c) {
          for (int d = 1; d <= 6; ++d) {
            std::array<int, 4> key = {a, b, c, d};
            std::sort(key.begin(), key.end());
            ++counts[key];
          }
        }
      }
    }
    auto* out = new std::array<double, kNumRolls>();
    for (int r = 0; r < kNumRolls; ++r) (*out)[r] = counts[Rolls()[r]] / 1296.0;
    return out;
  }();
  return *probabilities;
}

CantStopGame::CantStopGame(const open_spiel::GameParameters& params)
    : Game(MakeGameType(), games::FullParameters(params, Spec(), kShortName)) {
  const open_spiel::GameParameters full = GetParameters();
  players_ = games::CheckInt(full, "players", 2, kMaxPlayers, kShortName);
  horizon_ = games::CheckInt(full, "horizon", 1, 10000, kShortName, " (turns before a draw)");
}

std::unique_ptr<open_spiel::State> CantStopGame::NewInitialState() const {
  return std::make_unique<CantStopState>(shared_from_this());
}

CantStopState::CantStopState(std::shared_ptr<const open_spiel::Game> game)
    : CustomState(game),
      players_(game->NumPlayers()),
      horizon_(static_cast<const CantStopGame&>(*game).horizon()) {}

Player CantStopState::CurrentPlayer() const {
  if (phase_ == kToRoll) return kChancePlayerId;
  return phase_ == kOver ? kTerminalPlayerId : mover_;
}

bool CantStopState::Closed(int c) const {
  for (int p = 0; p < players_; ++p) {
    if (progress_[p][c] == kHeights[c]) return true;
  }
  return false;
}

std::vector<Action> CantStopState::Moves(int roll) const {
  const auto& own = progress_[mover_];
  int free = kRunners;
  for (int r : runners_) free -= r ? 1 : 0;
  std::array<bool, kColumns> closed;
  for (int c = 0; c < kColumns; ++c) closed[c] = Closed(c);
  std::bitset<kNumActions> found;
  const auto& pair = Pairs().action;
  for (const auto& [s, t] : Pairings()[roll]) {
    const int room_s = closed[s] ? 0 : kHeights[s] - own[s] - runners_[s];
    const bool usable_s = room_s > 0 && (runners_[s] > 0 || free > 0);
    if (s == t) {
      if (usable_s) found.set(room_s >= 2 ? pair[s][s] : kFirstColumn + s);
      continue;
    }
    const int room_t = closed[t] ? 0 : kHeights[t] - own[t] - runners_[t];
    const bool usable_t = room_t > 0 && (runners_[t] > 0 || free > 0);
    if (usable_s && usable_t) {
      if (runners_[s] || runners_[t] || free >= 2) {
        found.set(pair[std::min(s, t)][std::max(s, t)]);
      } else {  // one runner left for two new columns: the mover picks one
        found.set(kFirstColumn + s);
        found.set(kFirstColumn + t);
      }
    } else if (usable_s) {
      found.set(kFirstColumn + s);
    } else if (usable_t) {
      found.set(kFirstColumn + t);
    }
  }
  std::vector<Action> moves;
  for (int a = 0; a < kNumActions; ++a) {
    if (found[a]) moves.push_back(a);
  }
  return moves;
}

std::vector<Action> CantStopState::LegalActions() const {
  switch (phase_) {
    case kToMove:
      return Moves(roll_);
    case kRollOrStop:
      return {kRoll, kStop};
    case kBusted:
      return {kStop};
    case kToRoll: {
      std::vector<Action> actions(kNumRolls);
      for (int r = 0; r < kNumRolls; ++r) actions[r] = r;
      return actions;
    }
    default:
      return {};
  }
}

std::vector<std::pair<Action, double>> CantStopState::ChanceOutcomes() const {
  std::vector<std::pair<Action, double>> outcomes;
  if (phase_ != kToRoll) return outcomes;
  outcomes.reserve(kNumRolls);
  for (int r = 0; r < kNumRolls; ++r) outcomes.emplace_back(r, RollProbabilities()[r]);
  return outcomes;
}

void CantStopState::EndTurn() {
  runners_.fill(0);
  roll_ = -1;
  ++turns_;
  if (turns_ >= horizon_) {
    mover_ = -1;
    phase_ = kOver;
    return;
  }
  mover_ = (mover_ + 1) % players_;
  phase_ = kToRoll;
}

void CantStopState::DoApplyAction(Action action) {
  games::CheckApplicable(*this, action);
  if (phase_ == kToRoll) {
    if (Moves(static_cast<int>(action)).empty()) {
      // Bust: the runners are lost; the mover's forced stop ends the turn.
      runners_.fill(0);
      phase_ = kBusted;
    } else {
      phase_ = kToMove;
      roll_ = static_cast<int>(action);
    }
    return;
  }
  if (phase_ == kToMove) {
    for (int c : ActionColumns(action)) ++runners_[c];
    phase_ = kRollOrStop;
    roll_ = -1;
    return;
  }
  if (phase_ == kBusted) {
    EndTurn();
    return;
  }
  if (action == kRoll) {
    phase_ = kToRoll;
    return;
  }
  // Stop: bank the runners; a column topped is won and others' markers leave it.
  auto& own = progress_[mover_];
  int won = 0;
  for (int c = 0; c < kColumns; ++c) {
    own[c] += runners_[c];
    if (runners_[c] && own[c] == kHeights[c]) {
      for (int p = 0; p < players_; ++p) {
        if (p != mover_) progress_[p][c] = 0;
      }
    }
    won += own[c] == kHeights[c] ? 1 : 0;
  }
  if (won >= kColumnsToWin) {
    runners_.fill(0);
    ++turns_;
    phase_ = kOver;
    return;
  }
  EndTurn();
}

std::vector<double> CantStopState::Returns() const {
  std::vector<double> returns(players_, 0.0);
  if (phase_ != kOver || mover_ < 0) return returns;
  const double loss = -1.0 / (players_ - 1);
  for (int p = 0; p < players_; ++p) returns[p] = p == mover_ ? 1.0 : loss;
  return returns;
}

std::string CantStopState::ActionToString(Player player, Action action) const {
  if (player == kChancePlayerId) return "roll " + RollText(static_cast<int>(action));
  if (action == kRoll) return "roll";
  if (action == kStop) return "stop";
  std::string out = "advance";
  for (int c : ActionColumns(action)) out += " " + std::to_string(c + kFirstColumn);
  return out;
}

std::string CantStopState::ToString() const {
  std::string out = "turn " + std::to_string(turns_) + ": ";
  const std::string player = "player " + std::to_string(mover_);
  switch (phase_) {
    case kToRoll:
      out += player + " to roll";
      break;
    case kToMove:
      out += player + " rolled " + RollText(roll_) + ", to move";
      break;
    case kRollOrStop:
      out += player + " to roll or stop";
      break;
    case kBusted:
      out += player + " busted, to stop";
      break;
    default:
      out += mover_ >= 0 ? player + " won" : "draw at the horizon";
  }
  std::array<int, kColumns> columns;
  for (int c = 0; c < kColumns; ++c) columns[c] = c + kFirstColumn;
  out += "\n" + Line("column", Texts(columns));
  out += "\n" + Line("height", Texts(kHeights));
  for (int p = 0; p < players_; ++p) {
    out += "\n" + Line("p" + std::to_string(p), Texts(progress_[p]));
  }
  std::array<std::string, kColumns> marks;
  for (int c = 0; c < kColumns; ++c) {
    const int banked = mover_ >= 0 ? progress_[mover_][c] : 0;
    marks[c] = runners_[c] ? std::to_string(banked + runners_[c]) : ".";
  }
  out += "\n" + Line("runners", marks);
  return out;
}

void CantStopState::ObservationTensor(Player player, absl::Span<float> values) const {
  std::fill(values.begin(), values.end(), 0.0f);
  // Pieces: progress (players x 11), runners (11), mover (players), phase (4), dice (6).
  int at = 0;
  for (int p = 0; p < players_; ++p) {
    for (int c = 0; c < kColumns; ++c) values[at++] = static_cast<float>(progress_[p][c]);
  }
  for (int c = 0; c < kColumns; ++c) values[at++] = static_cast<float>(runners_[c]);
  const int mover_at = at, phase_at = mover_at + players_, dice_at = phase_at + 4;
  if (phase_ != kOver) {
    values[mover_at + mover_] = 1.0f;
    values[phase_at + phase_] = 1.0f;
  }
  if (phase_ == kToMove) {
    for (int face : Rolls()[roll_]) values[dice_at + face - 1] += 1.0f;
  }
}

std::string CantStopState::SamplingText() const {
  auto tuple = [](const std::array<int, kColumns>& values) {
    std::string out = "(";
    for (int c = 0; c < kColumns; ++c) out += (c ? "," : "") + std::to_string(values[c]);
    return out + ")";
  };
  std::string out = "(CantStopRules,(";
  for (int p = 0; p < players_; ++p) out += (p ? "," : "") + tuple(progress_[p]);
  out += ")," + tuple(runners_) + "," + std::to_string(mover_) + "," + std::to_string(phase_) +
         "," + std::to_string(roll_) + "," + std::to_string(turns_) + ")";
  return out;
}

}  // namespace starspiel::cant_stop
