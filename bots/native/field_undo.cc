// The restorers of field_undo.h. Each saves every field its game's
// DoApplyAction writes (read from OpenSpiel 2.0.2's sources); the searcher
// checks each one against clones along lines of play before it trusts it
// (Searcher::CheckUndo), and the engines' equal node counts check it again.
// The fields are private in OpenSpiel's headers: they are named in
// openspiel_internals.h, and the restorers are off for any other open_spiel
// (internals_gate.h).
#include "bots/native/field_undo.h"

#include <array>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <vector>

#include "bots/native/internals_gate.h"
#include "bots/native/openspiel_internals.h"

namespace starspiel {
namespace {

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
  snapshot->history_size = (state.*kStateHistory).size();
  snapshot->move_number = state.*kStateMoveNumber;
  return *std::launder(reinterpret_cast<Fields*>(snapshot->fields));
}

template <class Fields>
const Fields& LoadFrom(open_spiel::State* state, const Snapshot& snapshot) {
  CutTo(state->*kStateHistory, snapshot.history_size);
  state->*kStateMoveNumber = snapshot.move_number;
  return *std::launder(reinterpret_cast<const Fields*>(snapshot.fields));
}

// What State::ApplyAction adds after the game's DoApplyAction: the move in the history,
// and one more move number.
__attribute__((always_inline)) inline void RecordMove(open_spiel::State* state,
                                                      open_spiel::Player player,
                                                      open_spiel::Action action) {
  (state->*kStateHistory).push_back({player, action});
  ++(state->*kStateMoveNumber);
}

// A game's saved fields written once, as a list of (state member, Fields member) pairs
// (FieldPair), from which its save, its restore and its field comparison are all made.
template <auto kMember, auto kSaved>
struct FieldPair {
  template <class GameState, class Fields>
  static void Save(const GameState& state, Fields& fields) {
    SaveField(state.*kMember, fields.*kSaved);
  }
  template <class GameState, class Fields>
  static void Restore(GameState& state, const Fields& fields) {
    RestoreField(state.*kMember, fields.*kSaved);
  }
  template <class GameState>
  static bool Same(const GameState& a, const GameState& b) {
    return SameField(a.*kMember, b.*kMember);
  }

 private:
  template <class T>
  static void SaveField(const T& field, T& saved) {
    saved = field;
  }
  template <class T, std::size_t N>
  static void SaveField(const std::vector<T>& field, std::array<T, N>& saved) {
    std::copy(field.begin(), field.end(), saved.begin());
  }
  template <class T>
  static void RestoreField(T& field, const T& saved) {
    field = saved;
  }
  template <class T, std::size_t N>
  static void RestoreField(std::vector<T>& field, const std::array<T, N>& saved) {
    std::copy(saved.begin(), saved.begin() + field.size(), field.begin());
  }
  template <class T>
  static bool SameField(const T& a, const T& b) {
    if constexpr (std::is_class_v<T> && requires { a.value; }) {
      return a.value == b.value && a.is_merged == b.is_merged;  // 2048's tiles
    } else {
      return a == b;
    }
  }
  template <class T>
  static bool SameField(const std::vector<T>& a, const std::vector<T>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (!SameField(a[i], b[i])) return false;
    }
    return true;
  }
};

template <class GameState, class Fields, class... Pairs>
struct FieldList {
  static void Save(const open_spiel::State& state, Snapshot* snapshot) {
    const auto& s = static_cast<const GameState&>(state);
    Fields& fields = StoreIn<Fields>(state, snapshot);
    (Pairs::Save(s, fields), ...);
  }
  static void Restore(open_spiel::State* state, const Snapshot& snapshot) {
    auto& s = static_cast<GameState&>(*state);
    const Fields& fields = LoadFrom<Fields>(state, snapshot);
    (Pairs::Restore(s, fields), ...);
  }
  static bool Same(const open_spiel::State& a, const open_spiel::State& b) {
    const auto& x = static_cast<const GameState&>(a);
    const auto& y = static_cast<const GameState&>(b);
    return (Pairs::Same(x, y) && ...);
  }
};

// ------------------------------------------------------------------- pig

constexpr std::size_t kMaxPigPlayers = 10;  // pig's own limit on players

struct PigFields {
  int total_moves, cur_player, turn_player, turn_total;
  std::array<int, kMaxPigPlayers> scores;
};

bool PigApplies(const open_spiel::State& state) {
  if (typeid(state) != typeid(open_spiel::pig::PigState)) return false;
  return (static_cast<const open_spiel::pig::PigState&>(state).*kPigScores).size() <=
         kMaxPigPlayers;
}

using PigFieldList = FieldList<
    open_spiel::pig::PigState, PigFields, FieldPair<kPigTotalMoves, &PigFields::total_moves>,
    FieldPair<kPigCurPlayer, &PigFields::cur_player>,
    FieldPair<kPigTurnPlayer, &PigFields::turn_player>,
    FieldPair<kPigTurnTotal, &PigFields::turn_total>, FieldPair<kPigScores, &PigFields::scores>>;

// ------------------------------------------------------- einstein_wurfelt_nicht

namespace ewn = open_spiel::einstein_wurfelt_nicht;

// The scalar fields every EinStein move may change, saved and restored alike by
// the whole-state snapshot and by a move's delta.
struct EinsteinScalars {
  int cur_player, prev_player, winner, turns, die_roll;
  std::array<int, 2> cubes;

  void ReadFrom(const ewn::EinsteinWurfeltNichtState& s) {
    cur_player = s.*kEwnCurPlayer;
    prev_player = s.*kEwnPrevPlayer;
    winner = s.*kEwnWinner;
    turns = s.*kEwnTurns;
    die_roll = s.*kEwnDieRoll;
    cubes = s.*kEwnCubes;
  }
  void WriteTo(ewn::EinsteinWurfeltNichtState& s) const {
    s.*kEwnCurPlayer = cur_player;
    s.*kEwnPrevPlayer = prev_player;
    s.*kEwnWinner = winner;
    s.*kEwnTurns = turns;
    s.*kEwnDieRoll = die_roll;
    s.*kEwnCubes = cubes;
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
  fields.total_moves = s.*kEwnTotalMoves;
  fields.board = s.*kEwnBoard;
  fields.turn_info_size = (s.*kEwnTurnHistoryInfo).size();
}

void EinsteinRestore(open_spiel::State* state, const Snapshot& snapshot) {
  auto& s = static_cast<ewn::EinsteinWurfeltNichtState&>(*state);
  const EinsteinFields& fields = LoadFrom<EinsteinFields>(state, snapshot);
  fields.scalars.WriteTo(s);
  s.*kEwnTotalMoves = fields.total_moves;
  s.*kEwnBoard = fields.board;
  CutTo(s.*kEwnTurnHistoryInfo, fields.turn_info_size);
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
    delta.from_cube = (s.*kEwnBoard)[from];
    delta.to_cube = (s.*kEwnBoard)[to];
  }
  delta.turn_info_size = (s.*kEwnTurnHistoryInfo).size();
}

void EinsteinUndo(open_spiel::State* state, const Snapshot& snapshot) {
  auto& s = static_cast<ewn::EinsteinWurfeltNichtState&>(*state);
  const EinsteinDelta& delta = LoadFrom<EinsteinDelta>(state, snapshot);
  delta.scalars.WriteTo(s);
  if (delta.from >= 0) {
    (s.*kEwnBoard)[delta.from] = delta.from_cube;
    (s.*kEwnBoard)[delta.to] = delta.to_cube;
  }
  CutTo(s.*kEwnTurnHistoryInfo, delta.turn_info_size);
}

// EinsteinWurfeltNichtState::DoApplyAction for a decision or a die roll (OpenSpiel 2.0.2), then
// State::ApplyAction's history and move number: the move unranked without
// UnrankActionMixedBase's vectors (a fifth of a search's instructions).
// With `snapshot`, what the move changes is saved there first (EinsteinDelta).
bool EinsteinApplySaving(open_spiel::State* state, open_spiel::Action action, Snapshot* snapshot) {
  auto& s = static_cast<ewn::EinsteinWurfeltNichtState&>(*state);
  // EinsteinWurfeltNichtState::IsTerminal, inline (a virtual call at every move).
  if (s.*kEwnWinner >= 0 || (s.*kEwnCubes)[0] == 0 || (s.*kEwnCubes)[1] == 0 || action < 0)
    return false;
  if (s.*kEwnCurPlayer == open_spiel::kChancePlayerId) {
    // A die roll; the two setups (turns_ -1 and 0) and odd actions are left to the game.
    if (s.*kEwnTurns < 1 || action > 5) return false;
    if (snapshot != nullptr) SaveEinsteinDelta(*state, -1, -1, snapshot);
    (s.*kEwnTurnHistoryInfo)
        .push_back(ewn::TurnHistoryInfo(open_spiel::kChancePlayerId, s.*kEwnPrevPlayer,
                                        s.*kEwnDieRoll, static_cast<int>(action),
                                        ewn::Cube{ewn::Color::kEmpty, -1}));
    s.*kEwnCurPlayer = 1 - (s.*kEwnPrevPlayer);
    s.*kEwnPrevPlayer = s.*kEwnCurPlayer;
    s.*kEwnDieRoll = static_cast<int>(action) + 1;
    ++(s.*kEwnTurns);
    RecordMove(state, open_spiel::kChancePlayerId, action);
    return true;
  }
  if (s.*kEwnCurPlayer < 0 || s.*kEwnDieRoll < 1 || s.*kEwnDieRoll > 6) {
    return false;  // the game's own checks speak for these
  }
  static constexpr int kDirections = 6;
  static constexpr std::array<int, kDirections> kRowOffsets = {1, 1, 0, -1, -1, 0};
  static constexpr std::array<int, kDirections> kColOffsets = {1, 0, 1, 0, -1, -1};
  // RankActionMixedBase over (rows, columns, directions, capture).
  const bool capture = action % 2 == 1;
  const int dir = static_cast<int>(action / 2 % kDirections);
  const std::int64_t from = action / (2 * kDirections);
  const int r1 = static_cast<int>(from / (s.*kEwnCols)),
            c1 = static_cast<int>(from % (s.*kEwnCols));
  const int r2 = r1 + kRowOffsets[dir], c2 = c1 + kColOffsets[dir];
  if (r1 >= s.*kEwnRows || r2 < 0 || r2 >= s.*kEwnRows || c2 < 0 || c2 >= s.*kEwnCols) return false;
  const open_spiel::Player player = s.*kEwnCurPlayer;
  if (snapshot != nullptr) {
    SaveEinsteinDelta(*state, r1 * (s.*kEwnCols) + c1, r2 * (s.*kEwnCols) + c2, snapshot);
  }
  ewn::Cube& target = (s.*kEwnBoard)[r2 * (s.*kEwnCols) + c2];
  if (target.color == ewn::Color::kBlack) {
    --(s.*kEwnCubes)[ewn::kBlackPlayerId];
  } else if (target.color == ewn::Color::kWhite) {
    --(s.*kEwnCubes)[ewn::kWhitePlayerId];
  }
  const ewn::Cube captured = capture ? target : ewn::Cube{ewn::Color::kEmpty, -1};
  (s.*kEwnTurnHistoryInfo)
      .push_back(ewn::TurnHistoryInfo(s.*kEwnCurPlayer, s.*kEwnPrevPlayer, s.*kEwnDieRoll,
                                      static_cast<int>(action), captured));
  target = (s.*kEwnBoard)[r1 * (s.*kEwnCols) + c1];
  (s.*kEwnBoard)[r1 * (s.*kEwnCols) + c1] = ewn::Cube{ewn::Color::kEmpty, -1};
  if ((s.*kEwnCurPlayer == 0 && r2 == s.*kEwnRows - 1 && c2 == s.*kEwnCols - 1) ||
      (s.*kEwnCubes)[ewn::kWhitePlayerId] == 0) {
    s.*kEwnWinner = 0;
  } else if ((s.*kEwnCurPlayer == 1 && r2 == 0 && c2 == 0) ||
             (s.*kEwnCubes)[ewn::kBlackPlayerId] == 0) {
    s.*kEwnWinner = 1;
  }
  s.*kEwnCurPlayer = open_spiel::kChancePlayerId;
  ++(s.*kEwnTurns);
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
  for (std::size_t i = 0; i < (x.*kEwnBoard).size(); ++i) {
    if (!same_cube((x.*kEwnBoard)[i], (y.*kEwnBoard)[i])) return false;
  }
  if ((x.*kEwnTurnHistoryInfo).size() != (y.*kEwnTurnHistoryInfo).size()) return false;
  for (std::size_t i = 0; i < (x.*kEwnTurnHistoryInfo).size(); ++i) {
    const ewn::TurnHistoryInfo& p = (x.*kEwnTurnHistoryInfo)[i];
    const ewn::TurnHistoryInfo& q = (y.*kEwnTurnHistoryInfo)[i];
    if (p.player != q.player || p.prev_player != q.prev_player || p.die_roll_ != q.die_roll_ ||
        p.action != q.action || !same_cube(p.captured_cube, q.captured_cube)) {
      return false;
    }
  }
  return x.*kEwnCurPlayer == y.*kEwnCurPlayer && x.*kEwnPrevPlayer == y.*kEwnPrevPlayer &&
         x.*kEwnWinner == y.*kEwnWinner && x.*kEwnTotalMoves == y.*kEwnTotalMoves &&
         x.*kEwnTurns == y.*kEwnTurns && x.*kEwnCubes == y.*kEwnCubes &&
         x.*kEwnRows == y.*kEwnRows && x.*kEwnCols == y.*kEwnCols &&
         x.*kEwnDieRoll == y.*kEwnDieRoll;
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
  if ((s.*kBgDice).size() > kMaxDice || (s.*kBgBar).size() != bg::kNumPlayers ||
      (s.*kBgScores).size() != bg::kNumPlayers || (s.*kBgBoard).size() != bg::kNumPlayers) {
    return false;
  }
  for (const std::vector<int>& points : s.*kBgBoard) {
    if (points.size() != bg::kNumPoints) return false;
  }
  return true;
}

void BackgammonSave(const open_spiel::State& state, Snapshot* snapshot) {
  const auto& s = static_cast<const bg::BackgammonState&>(state);
  BackgammonFields& fields = StoreIn<BackgammonFields>(state, snapshot);
  fields.cur_player = s.*kBgCurPlayer;
  fields.prev_player = s.*kBgPrevPlayer;
  fields.turns = s.*kBgTurns;
  fields.x_turns = s.*kBgXTurns;
  fields.o_turns = s.*kBgOTurns;
  fields.double_turn = s.*kBgDoubleTurn;
  fields.dice_count = static_cast<int>((s.*kBgDice).size());
  std::copy((s.*kBgDice).begin(), (s.*kBgDice).end(), fields.dice.begin());
  std::copy((s.*kBgBar).begin(), (s.*kBgBar).end(), fields.bar.begin());
  std::copy((s.*kBgScores).begin(), (s.*kBgScores).end(), fields.scores.begin());
  for (int p = 0; p < bg::kNumPlayers; ++p) {
    std::copy((s.*kBgBoard)[p].begin(), (s.*kBgBoard)[p].end(), fields.board[p].begin());
  }
  fields.turn_info_size = (s.*kBgTurnHistoryInfo).size();
}

void BackgammonRestore(open_spiel::State* state, const Snapshot& snapshot) {
  auto& s = static_cast<bg::BackgammonState&>(*state);
  const BackgammonFields& fields = LoadFrom<BackgammonFields>(state, snapshot);
  s.*kBgCurPlayer = fields.cur_player;
  s.*kBgPrevPlayer = fields.prev_player;
  s.*kBgTurns = fields.turns;
  s.*kBgXTurns = fields.x_turns;
  s.*kBgOTurns = fields.o_turns;
  s.*kBgDoubleTurn = fields.double_turn;
  (s.*kBgDice).assign(fields.dice.begin(), fields.dice.begin() + fields.dice_count);
  std::copy(fields.bar.begin(), fields.bar.end(), (s.*kBgBar).begin());
  std::copy(fields.scores.begin(), fields.scores.end(), (s.*kBgScores).begin());
  for (int p = 0; p < bg::kNumPlayers; ++p) {
    std::copy(fields.board[p].begin(), fields.board[p].end(), (s.*kBgBoard)[p].begin());
  }
  CutTo(s.*kBgTurnHistoryInfo, fields.turn_info_size);
}

bool SameBackgammonFields(const open_spiel::State& a, const open_spiel::State& b) {
  const auto& x = static_cast<const bg::BackgammonState&>(a);
  const auto& y = static_cast<const bg::BackgammonState&>(b);
  const std::vector<bg::TurnHistoryInfo>& p = x.*kBgTurnHistoryInfo;
  const std::vector<bg::TurnHistoryInfo>& q = y.*kBgTurnHistoryInfo;
  if (p.size() != q.size()) return false;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p[i].player != q[i].player || p[i].prev_player != q[i].prev_player ||
        p[i].dice != q[i].dice || p[i].action != q[i].action ||
        p[i].double_turn != q[i].double_turn || p[i].first_move_hit != q[i].first_move_hit ||
        p[i].second_move_hit != q[i].second_move_hit) {
      return false;
    }
  }
  return x.*kBgCurPlayer == y.*kBgCurPlayer && x.*kBgPrevPlayer == y.*kBgPrevPlayer &&
         x.*kBgTurns == y.*kBgTurns && x.*kBgXTurns == y.*kBgXTurns &&
         x.*kBgOTurns == y.*kBgOTurns && x.*kBgDoubleTurn == y.*kBgDoubleTurn &&
         x.*kBgDice == y.*kBgDice && x.*kBgBar == y.*kBgBar && x.*kBgScores == y.*kBgScores &&
         x.*kBgBoard == y.*kBgBoard;
}

// ------------------------------------------------------------------ catch

struct CatchFields {
  bool initialized;
  int ball_row, ball_col, paddle_col;
};

bool CatchApplies(const open_spiel::State& state) {
  return typeid(state) == typeid(open_spiel::catch_::CatchState);
}

using CatchFieldList = FieldList<open_spiel::catch_::CatchState, CatchFields,
                                 FieldPair<kCatchInitialized, &CatchFields::initialized>,
                                 FieldPair<kCatchBallRow, &CatchFields::ball_row>,
                                 FieldPair<kCatchBallCol, &CatchFields::ball_col>,
                                 FieldPair<kCatchPaddleCol, &CatchFields::paddle_col>>;

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
  return (static_cast<const tfe::TwentyFortyEightState&>(state).*k2048Board).size() == kCells2048;
}

using Game2048FieldList =
    FieldList<tfe::TwentyFortyEightState, Game2048Fields,
              FieldPair<k2048CurrentPlayer, &Game2048Fields::current_player>,
              FieldPair<k2048TotalScore, &Game2048Fields::total_score>,
              FieldPair<k2048ActionScore, &Game2048Fields::action_score>,
              FieldPair<k2048TotalActions, &Game2048Fields::total_actions>,
              FieldPair<k2048ExtraChanceTurn, &Game2048Fields::extra_chance_turn>,
              FieldPair<k2048Board, &Game2048Fields::board>>;

// TwentyFortyEightState::DoApplyAction (OpenSpiel 2.0.2), then State::ApplyAction's history
// and move number, without the two board scans for IsTerminal() that CurrentPlayer() and
// IsChanceNode() make there: 43% of a 2048 search's instructions. The state is not
// terminal (field_undo.h), so the player to move is current_player_.
bool Game2048Apply(open_spiel::State* state, open_spiel::Action action) {
  auto& s = static_cast<tfe::TwentyFortyEightState&>(*state);
  const open_spiel::Player player = s.*k2048CurrentPlayer;
  std::vector<tfe::Tile>& board = s.*k2048Board;
  if (player == open_spiel::kChancePlayerId) {
    if (action < 0 || action > tfe::kNoCellAvailableAction) return false;
    if (!(s.*k2048ExtraChanceTurn)) s.*k2048CurrentPlayer = 0;
    s.*k2048ExtraChanceTurn = false;
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
    s.*k2048ActionScore = score;
    if (changed) s.*k2048CurrentPlayer = open_spiel::kChancePlayerId;
    s.*k2048TotalScore += s.*k2048ActionScore;
    ++(s.*k2048TotalActions);
  }
  RecordMove(state, player, action);
  return true;
}

constexpr std::array<FieldRestorer, 5> kRestorers = {{
    {"backgammon", BackgammonApplies, BackgammonSave, BackgammonRestore, nullptr, nullptr, nullptr,
     SameBackgammonFields},
    {"pig", PigApplies, PigFieldList::Save, PigFieldList::Restore, nullptr, nullptr, nullptr,
     PigFieldList::Same},
    {"einstein_wurfelt_nicht", EinsteinApplies, EinsteinSave, EinsteinRestore, EinsteinApply,
     EinsteinApplySaving, EinsteinUndo, SameEinsteinFields},
    {"catch", CatchApplies, CatchFieldList::Save, CatchFieldList::Restore, nullptr, nullptr,
     nullptr, CatchFieldList::Same},
    {"2048", Game2048Applies, Game2048FieldList::Save, Game2048FieldList::Restore, Game2048Apply,
     nullptr, nullptr, Game2048FieldList::Same},
}};

// The game's own fields equal (every one its restorer saves, and more), and the base
// State's history and move number.
bool SameFields(const FieldRestorer& restorer, const open_spiel::State& a,
                const open_spiel::State& b) {
  if (a.History() != b.History() || a.MoveNumber() != b.MoveNumber()) return false;
  return restorer.same(a, b);
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

std::vector<open_spiel::Action> FastRestoreMismatches(const FieldRestorer& restorer,
                                                      const open_spiel::State& state) {
  std::vector<open_spiel::Action> mismatches;
  if (state.IsTerminal()) return mismatches;
  // `moved` after SaveAndApply of `action` equals the game's child, and after RestoreFrom
  // the state before; then the same for each move after it (a restore follows the restores
  // of every later move).
  auto round_trip = [&restorer](open_spiel::State* moved, open_spiel::Action action) {
    std::unique_ptr<open_spiel::State> before = moved->Clone();
    std::unique_ptr<open_spiel::State> child = moved->Child(action);
    Snapshot snapshot;
    SaveAndApply(restorer, moved, action, &snapshot);
    bool same = SameFields(restorer, *moved, *child) && moved->ToString() == child->ToString();
    RestoreFrom(restorer, moved, snapshot);
    return same && SameFields(restorer, *moved, *before) && moved->ToString() == before->ToString();
  };
  for (open_spiel::Action action : state.LegalActions()) {
    std::unique_ptr<open_spiel::State> moved = state.Clone();
    // The whole snapshot (save, restore), which SaveAndApply falls back to.
    Snapshot snapshot;
    restorer.save(*moved, &snapshot);
    ApplyWith(&restorer, moved.get(), action);
    bool same = SameFields(restorer, *moved, *state.Child(action));
    restorer.restore(moved.get(), snapshot);
    same = same && SameFields(restorer, *moved, state) && moved->ToString() == state.ToString();
    same = same && round_trip(moved.get(), action);
    Snapshot outer;
    SaveAndApply(restorer, moved.get(), action, &outer);
    if (!moved->IsTerminal()) {
      for (open_spiel::Action next : moved->LegalActions()) {
        same = same && round_trip(moved.get(), next);
      }
    }
    RestoreFrom(restorer, moved.get(), outer);
    same = same && SameFields(restorer, *moved, state);
    if (!same) mismatches.push_back(action);
  }
  return mismatches;
}

const FieldRestorer* FindFieldRestorer(const std::string& game, const open_spiel::State& state) {
  if (!FieldPathsOn()) return nullptr;
  for (const FieldRestorer& restorer : kRestorers) {
    if (game == restorer.game && restorer.applies(state)) return &restorer;
  }
  return nullptr;
}

}  // namespace starspiel
