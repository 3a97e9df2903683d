// The restorers of field_undo.h. Each saves every field its game's
// DoApplyAction writes (read from OpenSpiel 2.0.2's sources); the searcher
// checks each one against clones along lines of play before it trusts it
// (Searcher::CheckUndo), and the engines' equal node counts check it again.
// The fields are private in OpenSpiel's headers; they are read with access
// control lifted, which changes no layout (as in fast_keys.cc).
#include "bots/native/field_undo.h"

#include <array>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <vector>

#include "bots/native/openspiel_internals.h"

namespace starspiel {
namespace {

// The base State's history and move number are protected: reached through
// pointers to members named from a derived class (spiel.h was read before
// access control was lifted).
struct StateFields : open_spiel::State {
  static constexpr auto kHistory = &StateFields::history_;
  static constexpr auto kMoveNumber = &StateFields::move_number_;
};

// A record vector cut back to its saved length: a restore follows the restores of every
// later move, so this pops one record or none (no resize: its growth path is not
// inlined, and records may have no default constructor).
template <class T>
void CutTo(std::vector<T>& records, std::size_t size) {
  while (records.size() > size) records.pop_back();
}

// The snapshot's bytes as the game's `Fields`, written and read in place (no copy through
// a local): an aggregate of trivially copyable members is an implicit-lifetime type,
// which a byte array may hold. StoreIn also saves the base State's history length and
// move number, LoadFrom writes them back.
template <class Fields>
Fields& StoreIn(const open_spiel::State& state, Snapshot* snapshot) {
  static_assert(std::is_trivially_copyable_v<Fields> && std::is_aggregate_v<Fields> &&
                sizeof(Fields) <= sizeof(Snapshot::fields) && alignof(Fields) <= 8);
  snapshot->history_size = (state.*StateFields::kHistory).size();
  snapshot->move_number = state.*StateFields::kMoveNumber;
  return *std::launder(reinterpret_cast<Fields*>(snapshot->fields));
}

template <class Fields>
const Fields& LoadFrom(open_spiel::State* state, const Snapshot& snapshot) {
  CutTo(state->*StateFields::kHistory, snapshot.history_size);
  state->*StateFields::kMoveNumber = snapshot.move_number;
  return *std::launder(reinterpret_cast<const Fields*>(snapshot.fields));
}

// What State::ApplyAction adds after the game's DoApplyAction: the move in the history,
// and one more move number.
__attribute__((always_inline)) inline void RecordMove(open_spiel::State* state,
                                                      open_spiel::Player player,
                                                      open_spiel::Action action) {
  (state->*StateFields::kHistory).push_back({player, action});
  ++(state->*StateFields::kMoveNumber);
}

// ------------------------------------------------------------------- pig

constexpr std::size_t kMaxPigPlayers = 10;  // pig's own limit on players

struct PigFields {
  int total_moves, cur_player, turn_player, turn_total;
  std::array<int, kMaxPigPlayers> scores;
};

bool PigApplies(const open_spiel::State& state) {
  if (typeid(state) != typeid(open_spiel::pig::PigState)) return false;
  return static_cast<const open_spiel::pig::PigState&>(state).scores_.size() <= kMaxPigPlayers;
}

void PigSave(const open_spiel::State& state, Snapshot* snapshot) {
  const auto& pig = static_cast<const open_spiel::pig::PigState&>(state);
  PigFields& fields = StoreIn<PigFields>(state, snapshot);
  fields.total_moves = pig.total_moves_;
  fields.cur_player = pig.cur_player_;
  fields.turn_player = pig.turn_player_;
  fields.turn_total = pig.turn_total_;
  std::copy(pig.scores_.begin(), pig.scores_.end(), fields.scores.begin());
}

void PigRestore(open_spiel::State* state, const Snapshot& snapshot) {
  auto& pig = static_cast<open_spiel::pig::PigState&>(*state);
  const PigFields& fields = LoadFrom<PigFields>(state, snapshot);
  pig.total_moves_ = fields.total_moves;
  pig.cur_player_ = fields.cur_player;
  pig.turn_player_ = fields.turn_player;
  pig.turn_total_ = fields.turn_total;
  std::copy(fields.scores.begin(), fields.scores.begin() + pig.scores_.size(), pig.scores_.begin());
}

// ------------------------------------------------------- einstein_wurfelt_nicht

namespace ewn = open_spiel::einstein_wurfelt_nicht;

// The scalar fields every EinStein move may change, saved and restored alike by
// the whole-state snapshot and by a move's delta.
struct EinsteinScalars {
  int cur_player, prev_player, winner, turns, die_roll;
  std::array<int, 2> cubes;

  void ReadFrom(const ewn::EinsteinWurfeltNichtState& s) {
    cur_player = s.cur_player_;
    prev_player = s.prev_player_;
    winner = s.winner_;
    turns = s.turns_;
    die_roll = s.die_roll_;
    cubes = s.cubes_;
  }
  void WriteTo(ewn::EinsteinWurfeltNichtState& s) const {
    s.cur_player_ = cur_player;
    s.prev_player_ = prev_player;
    s.winner_ = winner;
    s.turns_ = turns;
    s.die_roll_ = die_roll;
    s.cubes_ = cubes;
  }
};

struct EinsteinFields {
  EinsteinScalars scalars;
  int total_moves;
  std::array<ewn::Cube, ewn::k2dMaxBoardSize> board;
  std::size_t turn_info_size;
};

bool EinsteinApplies(const open_spiel::State& state) {
  return typeid(state) == typeid(ewn::EinsteinWurfeltNichtState);
}

void EinsteinSave(const open_spiel::State& state, Snapshot* snapshot) {
  const auto& s = static_cast<const ewn::EinsteinWurfeltNichtState&>(state);
  EinsteinFields& fields = StoreIn<EinsteinFields>(state, snapshot);
  fields.scalars.ReadFrom(s);
  fields.total_moves = s.total_moves_;
  fields.board = s.board_;
  fields.turn_info_size = s.turn_history_info_.size();
}

void EinsteinRestore(open_spiel::State* state, const Snapshot& snapshot) {
  auto& s = static_cast<ewn::EinsteinWurfeltNichtState&>(*state);
  const EinsteinFields& fields = LoadFrom<EinsteinFields>(state, snapshot);
  fields.scalars.WriteTo(s);
  s.total_moves_ = fields.total_moves;
  s.board_ = fields.board;
  CutTo(s.turn_history_info_, fields.turn_info_size);
}

// What one of EinsteinApply's moves changes: the scalar fields, the two cells a
// decision writes (-1 for a die roll) and the length of turn_history_info_.
struct EinsteinDelta {
  EinsteinScalars scalars;
  int from, to;
  ewn::Cube from_cube, to_cube;
  std::size_t turn_info_size;
};

__attribute__((always_inline)) inline void SaveEinsteinDelta(const open_spiel::State& state,
                                                             int from, int to, Snapshot* snapshot) {
  const auto& s = static_cast<const ewn::EinsteinWurfeltNichtState&>(state);
  EinsteinDelta& delta = StoreIn<EinsteinDelta>(state, snapshot);
  delta.scalars.ReadFrom(s);
  delta.from = from;
  delta.to = to;
  if (from >= 0) {
    delta.from_cube = s.board_[from];
    delta.to_cube = s.board_[to];
  }
  delta.turn_info_size = s.turn_history_info_.size();
}

void EinsteinUndo(open_spiel::State* state, const Snapshot& snapshot) {
  auto& s = static_cast<ewn::EinsteinWurfeltNichtState&>(*state);
  const EinsteinDelta& delta = LoadFrom<EinsteinDelta>(state, snapshot);
  delta.scalars.WriteTo(s);
  if (delta.from >= 0) {
    s.board_[delta.from] = delta.from_cube;
    s.board_[delta.to] = delta.to_cube;
  }
  CutTo(s.turn_history_info_, delta.turn_info_size);
}

// EinsteinWurfeltNichtState::DoApplyAction for a decision or a die roll (OpenSpiel 2.0.2), then
// State::ApplyAction's history and move number: the move unranked without
// UnrankActionMixedBase's vectors (a fifth of a search's instructions).
// With `snapshot`, what the move changes is saved there first (EinsteinDelta).
bool EinsteinApplySaving(open_spiel::State* state, open_spiel::Action action, Snapshot* snapshot) {
  auto& s = static_cast<ewn::EinsteinWurfeltNichtState&>(*state);
  // EinsteinWurfeltNichtState::IsTerminal, inline (a virtual call at every move).
  if (s.winner_ >= 0 || s.cubes_[0] == 0 || s.cubes_[1] == 0 || action < 0) return false;
  if (s.cur_player_ == open_spiel::kChancePlayerId) {
    // A die roll; the two setups (turns_ -1 and 0) and odd actions are left to the game.
    if (s.turns_ < 1 || action > 5) return false;
    if (snapshot != nullptr) SaveEinsteinDelta(*state, -1, -1, snapshot);
    s.turn_history_info_.push_back(ewn::TurnHistoryInfo(open_spiel::kChancePlayerId, s.prev_player_,
                                                        s.die_roll_, static_cast<int>(action),
                                                        ewn::Cube{ewn::Color::kEmpty, -1}));
    s.cur_player_ = 1 - s.prev_player_;
    s.prev_player_ = s.cur_player_;
    s.die_roll_ = static_cast<int>(action) + 1;
    ++s.turns_;
    RecordMove(state, open_spiel::kChancePlayerId, action);
    return true;
  }
  if (s.cur_player_ < 0 || s.die_roll_ < 1 || s.die_roll_ > 6) {
    return false;  // the game's own checks speak for these
  }
  static constexpr int kDirections = 6;
  static constexpr std::array<int, kDirections> kRowOffsets = {1, 1, 0, -1, -1, 0};
  static constexpr std::array<int, kDirections> kColOffsets = {1, 0, 1, 0, -1, -1};
  // RankActionMixedBase over (rows, columns, directions, capture).
  const bool capture = action % 2 == 1;
  const int dir = static_cast<int>(action / 2 % kDirections);
  const std::int64_t from = action / (2 * kDirections);
  const int r1 = static_cast<int>(from / s.cols_), c1 = static_cast<int>(from % s.cols_);
  const int r2 = r1 + kRowOffsets[dir], c2 = c1 + kColOffsets[dir];
  if (r1 >= s.rows_ || r2 < 0 || r2 >= s.rows_ || c2 < 0 || c2 >= s.cols_) return false;
  const open_spiel::Player player = s.cur_player_;
  if (snapshot != nullptr) {
    SaveEinsteinDelta(*state, r1 * s.cols_ + c1, r2 * s.cols_ + c2, snapshot);
  }
  ewn::Cube& target = s.board_[r2 * s.cols_ + c2];
  if (target.color == ewn::Color::kBlack) {
    --s.cubes_[ewn::kBlackPlayerId];
  } else if (target.color == ewn::Color::kWhite) {
    --s.cubes_[ewn::kWhitePlayerId];
  }
  const ewn::Cube captured = capture ? target : ewn::Cube{ewn::Color::kEmpty, -1};
  s.turn_history_info_.push_back(ewn::TurnHistoryInfo(s.cur_player_, s.prev_player_, s.die_roll_,
                                                      static_cast<int>(action), captured));
  target = s.board_[r1 * s.cols_ + c1];
  s.board_[r1 * s.cols_ + c1] = ewn::Cube{ewn::Color::kEmpty, -1};
  if ((s.cur_player_ == 0 && r2 == s.rows_ - 1 && c2 == s.cols_ - 1) ||
      s.cubes_[ewn::kWhitePlayerId] == 0) {
    s.winner_ = 0;
  } else if ((s.cur_player_ == 1 && r2 == 0 && c2 == 0) || s.cubes_[ewn::kBlackPlayerId] == 0) {
    s.winner_ = 1;
  }
  s.cur_player_ = open_spiel::kChancePlayerId;
  ++s.turns_;
  RecordMove(state, player, action);
  return true;
}

bool EinsteinApply(open_spiel::State* state, open_spiel::Action action) {
  return EinsteinApplySaving(state, action, nullptr);
}

bool SameEinsteinFields(const open_spiel::State& a, const open_spiel::State& b) {
  const auto& x = static_cast<const ewn::EinsteinWurfeltNichtState&>(a);
  const auto& y = static_cast<const ewn::EinsteinWurfeltNichtState&>(b);
  auto same_cube = [](const ewn::Cube& p, const ewn::Cube& q) {
    return p.color == q.color && p.value == q.value;
  };
  for (std::size_t i = 0; i < x.board_.size(); ++i) {
    if (!same_cube(x.board_[i], y.board_[i])) return false;
  }
  if (x.turn_history_info_.size() != y.turn_history_info_.size()) return false;
  for (std::size_t i = 0; i < x.turn_history_info_.size(); ++i) {
    const ewn::TurnHistoryInfo& p = x.turn_history_info_[i];
    const ewn::TurnHistoryInfo& q = y.turn_history_info_[i];
    if (p.player != q.player || p.prev_player != q.prev_player || p.die_roll_ != q.die_roll_ ||
        p.action != q.action || !same_cube(p.captured_cube, q.captured_cube)) {
      return false;
    }
  }
  return x.cur_player_ == y.cur_player_ && x.prev_player_ == y.prev_player_ &&
         x.winner_ == y.winner_ && x.total_moves_ == y.total_moves_ && x.turns_ == y.turns_ &&
         x.cubes_ == y.cubes_ && x.rows_ == y.rows_ && x.cols_ == y.cols_ &&
         x.die_roll_ == y.die_roll_;
}

// ------------------------------------------------------------- backgammon

namespace bg = open_spiel::backgammon;

constexpr std::size_t kMaxDice = 4;

struct BackgammonFields {
  int cur_player, prev_player, turns, x_turns, o_turns;
  bool double_turn;
  int dice_count;
  std::array<int, kMaxDice> dice;
  std::array<int, bg::kNumPlayers> bar, scores;
  std::array<std::array<int, bg::kNumPoints>, bg::kNumPlayers> board;
  std::size_t turn_info_size;
};

bool BackgammonApplies(const open_spiel::State& state) {
  if (typeid(state) != typeid(bg::BackgammonState)) return false;
  const auto& s = static_cast<const bg::BackgammonState&>(state);
  if (s.dice_.size() > kMaxDice || s.bar_.size() != bg::kNumPlayers ||
      s.scores_.size() != bg::kNumPlayers || s.board_.size() != bg::kNumPlayers) {
    return false;
  }
  for (const std::vector<int>& points : s.board_) {
    if (points.size() != bg::kNumPoints) return false;
  }
  return true;
}

void BackgammonSave(const open_spiel::State& state, Snapshot* snapshot) {
  const auto& s = static_cast<const bg::BackgammonState&>(state);
  BackgammonFields& fields = StoreIn<BackgammonFields>(state, snapshot);
  fields.cur_player = s.cur_player_;
  fields.prev_player = s.prev_player_;
  fields.turns = s.turns_;
  fields.x_turns = s.x_turns_;
  fields.o_turns = s.o_turns_;
  fields.double_turn = s.double_turn_;
  fields.dice_count = static_cast<int>(s.dice_.size());
  std::copy(s.dice_.begin(), s.dice_.end(), fields.dice.begin());
  std::copy(s.bar_.begin(), s.bar_.end(), fields.bar.begin());
  std::copy(s.scores_.begin(), s.scores_.end(), fields.scores.begin());
  for (int p = 0; p < bg::kNumPlayers; ++p) {
    std::copy(s.board_[p].begin(), s.board_[p].end(), fields.board[p].begin());
  }
  fields.turn_info_size = s.turn_history_info_.size();
}

void BackgammonRestore(open_spiel::State* state, const Snapshot& snapshot) {
  auto& s = static_cast<bg::BackgammonState&>(*state);
  const BackgammonFields& fields = LoadFrom<BackgammonFields>(state, snapshot);
  s.cur_player_ = fields.cur_player;
  s.prev_player_ = fields.prev_player;
  s.turns_ = fields.turns;
  s.x_turns_ = fields.x_turns;
  s.o_turns_ = fields.o_turns;
  s.double_turn_ = fields.double_turn;
  s.dice_.assign(fields.dice.begin(), fields.dice.begin() + fields.dice_count);
  std::copy(fields.bar.begin(), fields.bar.end(), s.bar_.begin());
  std::copy(fields.scores.begin(), fields.scores.end(), s.scores_.begin());
  for (int p = 0; p < bg::kNumPlayers; ++p) {
    std::copy(fields.board[p].begin(), fields.board[p].end(), s.board_[p].begin());
  }
  CutTo(s.turn_history_info_, fields.turn_info_size);
}

// ------------------------------------------------------------------ catch

struct CatchFields {
  bool initialized;
  int ball_row, ball_col, paddle_col;
};

bool CatchApplies(const open_spiel::State& state) {
  return typeid(state) == typeid(open_spiel::catch_::CatchState);
}

void CatchSave(const open_spiel::State& state, Snapshot* snapshot) {
  const auto& s = static_cast<const open_spiel::catch_::CatchState&>(state);
  StoreIn<CatchFields>(state, snapshot) = {s.initialized_, s.ball_row_, s.ball_col_, s.paddle_col_};
}

void CatchRestore(open_spiel::State* state, const Snapshot& snapshot) {
  auto& s = static_cast<open_spiel::catch_::CatchState&>(*state);
  const CatchFields& fields = LoadFrom<CatchFields>(state, snapshot);
  s.initialized_ = fields.initialized;
  s.ball_row_ = fields.ball_row;
  s.ball_col_ = fields.ball_col;
  s.paddle_col_ = fields.paddle_col;
}

// ------------------------------------------------------------------- 2048

namespace tfe = open_spiel::twenty_forty_eight;

constexpr int kCells2048 = tfe::kRows * tfe::kColumns;
static_assert(tfe::kRows == 4 && tfe::kColumns == 4, "Game2048Apply's lines are those of 4x4");

struct Game2048Fields {
  int current_player, total_score, action_score, total_actions;
  bool extra_chance_turn;
  std::array<tfe::Tile, kCells2048> board;
};

bool Game2048Applies(const open_spiel::State& state) {
  if (typeid(state) != typeid(tfe::TwentyFortyEightState)) return false;
  return static_cast<const tfe::TwentyFortyEightState&>(state).board_.size() == kCells2048;
}

void Game2048Save(const open_spiel::State& state, Snapshot* snapshot) {
  const auto& s = static_cast<const tfe::TwentyFortyEightState&>(state);
  Game2048Fields& fields = StoreIn<Game2048Fields>(state, snapshot);
  fields.current_player = s.current_player_;
  fields.total_score = s.total_score_;
  fields.action_score = s.action_score_;
  fields.total_actions = s.total_actions_;
  fields.extra_chance_turn = s.extra_chance_turn_;
  std::copy(s.board_.begin(), s.board_.end(), fields.board.begin());
}

void Game2048Restore(open_spiel::State* state, const Snapshot& snapshot) {
  auto& s = static_cast<tfe::TwentyFortyEightState&>(*state);
  const Game2048Fields& fields = LoadFrom<Game2048Fields>(state, snapshot);
  s.current_player_ = fields.current_player;
  s.total_score_ = fields.total_score;
  s.action_score_ = fields.action_score;
  s.total_actions_ = fields.total_actions;
  s.extra_chance_turn_ = fields.extra_chance_turn;
  std::copy(fields.board.begin(), fields.board.end(), s.board_.begin());
}

// TwentyFortyEightState::DoApplyAction (OpenSpiel 2.0.2), then State::ApplyAction's history
// and move number, without the two board scans for IsTerminal() that CurrentPlayer() and
// IsChanceNode() make there: 43% of a 2048 search's instructions. The state is not
// terminal (field_undo.h), so the player to move is current_player_.
bool Game2048Apply(open_spiel::State* state, open_spiel::Action action) {
  auto& s = static_cast<tfe::TwentyFortyEightState&>(*state);
  const open_spiel::Player player = s.current_player_;
  std::vector<tfe::Tile>& board = s.board_;
  if (player == open_spiel::kChancePlayerId) {
    if (action < 0 || action > tfe::kNoCellAvailableAction) return false;
    if (!s.extra_chance_turn_) s.current_player_ = 0;
    s.extra_chance_turn_ = false;
    if (action != tfe::kNoCellAvailableAction) {
      // UnrankActionMixedBase over (rows, columns, is_four).
      const bool is_four = action % 2 == 1;
      const int cell = static_cast<int>(action / 2);
      board[cell] = tfe::Tile(is_four ? tfe::kChanceTiles[1] : tfe::kChanceTiles[0], false);
    }
  } else {
    if (player != 0 || action < tfe::kMoveUp || action > tfe::kMoveLeft) return false;
    // 2048.cc moves each tile, from the side the move goes to, as far as the empty cells
    // let it, and merges it into the next tile if that is equal and not merged by this
    // move. Lines never meet, so each line is slid on its own: its tiles in order from
    // that side, each merged into the last one placed when equal and not yet merged.
    // kLines[move][line][i]: the cell i places from the side the move goes to.
    static constexpr int kLines[4][4][4] = {
        {{0, 4, 8, 12}, {1, 5, 9, 13}, {2, 6, 10, 14}, {3, 7, 11, 15}},  // up
        {{3, 2, 1, 0}, {7, 6, 5, 4}, {11, 10, 9, 8}, {15, 14, 13, 12}},  // right
        {{12, 8, 4, 0}, {13, 9, 5, 1}, {14, 10, 6, 2}, {15, 11, 7, 3}},  // down
        {{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}, {12, 13, 14, 15}},  // left
    };
    for (const tfe::Tile& tile : board) {
      if (tile.value < 0) return false;  // never dealt; the game's own rules speak for it
    }
    int score = 0;
    bool changed = false;
    for (const auto& line : kLines[action]) {
      int placed[4];
      bool merged[4];
      int count = 0;
      for (int cell : line) {
        const int value = board[cell].value;
        if (value == 0) continue;
        if (count > 0 && placed[count - 1] == value && !merged[count - 1]) {
          placed[count - 1] = 2 * value;
          merged[count - 1] = true;
          score += 2 * value;
        } else {
          placed[count] = value;
          merged[count] = false;
          ++count;
        }
      }
      for (int i = 0; i < 4; ++i) {
        const tfe::Tile tile = i < count ? tfe::Tile(placed[i], merged[i]) : tfe::Tile(0, false);
        changed = changed || board[line[i]].value != tile.value;
        board[line[i]] = tile;
      }
    }
    s.action_score_ = score;
    if (changed) s.current_player_ = open_spiel::kChancePlayerId;
    s.total_score_ += s.action_score_;
    ++s.total_actions_;
  }
  RecordMove(state, player, action);
  return true;
}

bool SameGame2048Fields(const open_spiel::State& a, const open_spiel::State& b) {
  const auto& x = static_cast<const tfe::TwentyFortyEightState&>(a);
  const auto& y = static_cast<const tfe::TwentyFortyEightState&>(b);
  for (int i = 0; i < kCells2048; ++i) {
    if (x.board_[i].value != y.board_[i].value || x.board_[i].is_merged != y.board_[i].is_merged) {
      return false;
    }
  }
  return x.current_player_ == y.current_player_ && x.total_score_ == y.total_score_ &&
         x.action_score_ == y.action_score_ && x.total_actions_ == y.total_actions_ &&
         x.extra_chance_turn_ == y.extra_chance_turn_;
}

constexpr std::array<FieldRestorer, 5> kRestorers = {{
    {"backgammon", BackgammonApplies, BackgammonSave, BackgammonRestore, nullptr, nullptr, nullptr},
    {"pig", PigApplies, PigSave, PigRestore, nullptr, nullptr, nullptr},
    {"einstein_wurfelt_nicht", EinsteinApplies, EinsteinSave, EinsteinRestore, EinsteinApply,
     EinsteinApplySaving, EinsteinUndo},
    {"catch", CatchApplies, CatchSave, CatchRestore, nullptr, nullptr, nullptr},
    {"2048", Game2048Applies, Game2048Save, Game2048Restore, Game2048Apply, nullptr, nullptr},
}};

// The game's own fields equal, where ToString() does not show them all.
bool SameFields(const FieldRestorer& restorer, const open_spiel::State& a,
                const open_spiel::State& b) {
  const std::string game = restorer.game;
  if (game == "einstein_wurfelt_nicht") return SameEinsteinFields(a, b);
  if (game == "2048") return SameGame2048Fields(a, b);
  return true;
}

}  // namespace

std::vector<open_spiel::Action> FastApplyMismatches(const FieldRestorer& restorer,
                                                    const open_spiel::State& state) {
  std::vector<open_spiel::Action> mismatches;
  if (restorer.apply == nullptr || state.IsTerminal()) return mismatches;
  for (open_spiel::Action action : state.LegalActions()) {
    std::unique_ptr<open_spiel::State> fast = state.Clone();
    std::unique_ptr<open_spiel::State> slow = state.Clone();
    const bool applied = restorer.apply(fast.get(), action);
    slow->ApplyAction(action);
    if (!applied) fast->ApplyAction(action);
    const bool same = fast->History() == slow->History() &&
                      fast->MoveNumber() == slow->MoveNumber() &&
                      fast->ToString() == slow->ToString() && SameFields(restorer, *fast, *slow);
    bool undone = true;
    if (restorer.apply_saving != nullptr) {
      // The same move through SaveAndApply, then taken back.
      std::unique_ptr<open_spiel::State> moved = state.Clone();
      Snapshot snapshot;
      SaveAndApply(restorer, moved.get(), action, &snapshot);
      undone = moved->History() == slow->History() && moved->ToString() == slow->ToString() &&
               SameFields(restorer, *moved, *slow);
      RestoreFrom(restorer, moved.get(), snapshot);
      undone = undone && moved->History() == state.History() &&
               moved->MoveNumber() == state.MoveNumber() && moved->ToString() == state.ToString() &&
               SameFields(restorer, *moved, state);
    }
    if (!same || !undone || (!applied && !state.IsChanceNode())) mismatches.push_back(action);
  }
  return mismatches;
}

const FieldRestorer* FindFieldRestorer(const std::string& game, const open_spiel::State& state) {
  for (const FieldRestorer& restorer : kRestorers) {
    if (game == restorer.game && restorer.applies(state)) return &restorer;
  }
  return nullptr;
}

}  // namespace starspiel
