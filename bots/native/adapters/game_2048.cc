// 2048's fast paths for the native search (registry.h): move generation, the player to
// move, and moves applied and undone by field restore (its private members:
// game_2048_fields.h).
#include <array>
#include <cstddef>
#include <typeinfo>
#include <vector>

#include "bots/native/adapters/game_2048_fields.h"
#include "bots/native/adapters/registry.h"
#include "bots/native/field_lists.h"

namespace starspiel {
namespace {

// TwentyFortyEightState::IsTerminal (OpenSpiel 2.0.2): the longest game played, the
// target tile reached, or a full board with no two equal neighbours. It stops at the
// first empty cell where OpenSpiel's tests every cell's four neighbours.
bool Game2048Ended(const tfe::TwentyFortyEightState& s) {
  const auto& game = static_cast<const tfe::TwentyFortyEightGame&>(*(s.*kStateGame));
  if (s.MoveNumber() >= game.MaxGameLength()) return true;
  const int target = game.max_tile();
  bool empty = false;
  for (const tfe::Tile& tile : s.*k2048Board) {
    if (tile.value == target) return true;
    empty = empty || tile.value == 0;
  }
  if (empty) return false;
  for (int r = 0; r < tfe::kRows; ++r) {
    for (int c = 0; c < tfe::kColumns; ++c) {
      const int value = (s.*k2048Board)[r * tfe::kColumns + c].value;
      if (c + 1 < tfe::kColumns && (s.*k2048Board)[r * tfe::kColumns + c + 1].value == value)
        return false;
      if (r + 1 < tfe::kRows && (s.*k2048Board)[(r + 1) * tfe::kColumns + c].value == value)
        return false;
    }
  }
  return true;
}

bool Is2048State(const open_spiel::State& state) {
  return typeid(state) == typeid(tfe::TwentyFortyEightState) &&
         (static_cast<const tfe::TwentyFortyEightState&>(state).*k2048Board).size() ==
             static_cast<std::size_t>(tfe::kRows * tfe::kColumns);
}

open_spiel::Player Game2048CurrentPlayer(const open_spiel::State& state) {
  if (!Is2048State(state)) return state.CurrentPlayer();
  const auto& s = static_cast<const tfe::TwentyFortyEightState&>(state);
  return Game2048Ended(s) ? open_spiel::kTerminalPlayerId : s.*k2048CurrentPlayer;
}

bool Game2048LegalActions(open_spiel::State& state, std::vector<open_spiel::Action>* actions) {
  if (!Is2048State(state)) return false;
  const auto& s = static_cast<const tfe::TwentyFortyEightState&>(state);
  if (s.*k2048CurrentPlayer != 0 || Game2048Ended(s)) return false;
  // DoesActionChangeBoard: a tile moves when the next cell that way is empty, or merges
  // when it holds an equal tile not flagged merged (the flags of the last move stand).
  static constexpr int kRowSteps[4] = {-1, 0, 1, 0};  // up, right, down, left
  static constexpr int kColumnSteps[4] = {0, 1, 0, -1};
  actions->clear();
  for (int move = tfe::kMoveUp; move <= tfe::kMoveLeft; ++move) {
    bool changes = false;
    for (int r = 0; r < tfe::kRows && !changes; ++r) {
      for (int c = 0; c < tfe::kColumns && !changes; ++c) {
        const int value = (s.*k2048Board)[r * tfe::kColumns + c].value;
        const int nr = r + kRowSteps[move], nc = c + kColumnSteps[move];
        if (value <= 0 || nr < 0 || nr >= tfe::kRows || nc < 0 || nc >= tfe::kColumns) continue;
        const tfe::Tile& next = (s.*k2048Board)[nr * tfe::kColumns + nc];
        changes = next.value == 0 || (next.value == value && !next.is_merged);
      }
    }
    if (changes) actions->push_back(move);
  }
  return true;
}

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

constexpr FieldRestorer kGame2048Restorer = {.applies = Game2048Applies,
                                             .save = Game2048FieldList::Save,
                                             .restore = Game2048FieldList::Restore,
                                             .apply = Game2048Apply,
                                             .same = Game2048FieldList::Same};

const bool kRegistered = RegisterGameAdapter("2048", {.moves = Game2048LegalActions,
                                                      .player = Game2048CurrentPlayer,
                                                      .reads_private_fields = true,
                                                      .restorer = &kGame2048Restorer});

}  // namespace
}  // namespace starspiel
