// Legal actions, the lists OpenSpiel's LegalActions() returns, made without its
// allocations. Backgammon's clones the state (copying the history) and collects
// move sequences in sets: 80% of a native backgammon search went there. Here the
// same two-level enumeration runs on the state itself, with the game's own
// checker-move helpers, each move applied and undone as OpenSpiel's RecLegalMoves
// does on its clone. EinStein's builds vectors of vectors for at most two cubes:
// a quarter of a native search. catch's allocates its three moves at every node.
// The private members are named in openspiel_internals.h; these generators are off
// for any other open_spiel (internals_gate.h). tests/test_native_moves.py compares the
// lists along random games.
#include "bots/native/fast_moves.h"

#include <algorithm>
#include <string>
#include <typeinfo>
#include <utility>
#include <vector>

#include "bots/native/internals_gate.h"
#include "bots/native/openspiel_internals.h"
#include "games/native/ballard_tree.h"
#include "open_spiel/spiel.h"

namespace starspiel {
namespace {

namespace bg = open_spiel::backgammon;

// A move of LegalCheckerMoves's set: equal pos and num are one move there (its
// operator< compares nothing else), so they are kept once here too.
struct Move {
  int pos, num;
  bool hit;
};
constexpr int kMaxMoves = 2 * (bg::kNumPoints + 1);

void AddMove(Move move, Move* moves, int* count) {
  for (int i = 0; i < *count; ++i) {
    if (moves[i].pos == move.pos && moves[i].num == move.num) return;
  }
  moves[(*count)++] = move;
}

// BackgammonState::LegalCheckerMoves, into an array.
int CheckerMoves(const bg::BackgammonState& s, int player, Move* moves) {
  int count = 0;
  if ((s.*kBgBar)[player] > 0) {
    for (int outcome : s.*kBgDice) {
      if (!(s.*kBgUsableDiceOutcome)(outcome)) continue;
      const int pos = (s.*kBgPositionFromBar)(player, outcome);
      if ((s.*kBgNumOppCheckers)(player, pos) <= 1) {
        AddMove({bg::kBarPos, outcome, (s.*kBgNumOppCheckers)(player, pos) == 1}, moves, &count);
      }
    }
    return count;
  }
  const bool all_in_home = (s.*kBgAllInHome)(player);
  for (int i = 0; i < bg::kNumPoints; ++i) {
    if ((s.*kBgBoard)[player][i] <= 0) continue;
    for (int outcome : s.*kBgDice) {
      if (!(s.*kBgUsableDiceOutcome)(outcome)) continue;
      const int pos = (s.*kBgPositionFrom)(player, i, outcome);
      if (pos == bg::kScorePos && all_in_home) {
        // Bearing off: from exactly the distance off, or from the furthest checker.
        const bool exact = (player == bg::kXPlayerId && i + outcome == 24) ||
                           (player == bg::kOPlayerId && i - outcome == -1);
        if (exact || i == (s.*kBgFurthestCheckerInHome)(player)) {
          AddMove({i, outcome, false}, moves, &count);
        }
      } else if (pos != bg::kScorePos && (s.*kBgNumOppCheckers)(player, pos) <= 1) {
        AddMove({i, outcome, (s.*kBgNumOppCheckers)(player, pos) == 1}, moves, &count);
      }
    }
  }
  return count;
}

bg::CheckerMove Checker(const Move& move) { return bg::CheckerMove(move.pos, move.num, move.hit); }

}  // namespace

bool BackgammonLegalActions(open_spiel::State& state, std::vector<open_spiel::Action>* actions) {
  if (typeid(state) != typeid(bg::BackgammonState)) return false;
  auto& s = static_cast<bg::BackgammonState&>(state);
  if (s.IsChanceNode() || s.IsTerminal()) return false;
  const int player = s.*kBgCurPlayer;
  Move first[kMaxMoves];
  const int firsts = CheckerMoves(s, player, first);
  actions->clear();
  std::vector<bg::CheckerMove> sequence;
  sequence.reserve(2);
  if (firsts == 0) {  // passing is always legal
    sequence.assign(2, bg::CheckerMove(bg::kPassPos, -1, false));
    actions->push_back(s.CheckerMovesToSpielMove(sequence));
    return true;
  }
  // Both dice where any two moves can be played; else the larger die's single moves.
  Move second[kMaxMoves];
  bool pairs = false;
  int max_roll = -1;
  for (int i = 0; i < firsts; ++i) {
    const bg::CheckerMove move = Checker(first[i]);
    (s.*kBgApplyCheckerMove)(player, move);
    const int seconds = CheckerMoves(s, player, second);
    (s.*kBgUndoCheckerMove)(player, move);
    if (seconds == 0) {
      max_roll = std::max(max_roll, first[i].num);
      continue;
    }
    pairs = true;
    for (int j = 0; j < seconds; ++j) {
      sequence.assign({move, Checker(second[j])});
      actions->push_back(s.CheckerMovesToSpielMove(sequence));
    }
  }
  if (!pairs) {
    for (int i = 0; i < firsts; ++i) {
      if (first[i].num != max_roll) continue;
      sequence.assign({Checker(first[i])});
      actions->push_back(s.CheckerMovesToSpielMove(sequence));
    }
  }
  std::sort(actions->begin(), actions->end());
  return true;
}

bool EinsteinLegalActions(open_spiel::State& state, std::vector<open_spiel::Action>* actions) {
  namespace ewn = open_spiel::einstein_wurfelt_nicht;
  if (typeid(state) != typeid(ewn::EinsteinWurfeltNichtState)) return false;
  const auto& s = static_cast<const ewn::EinsteinWurfeltNichtState&>(state);
  const open_spiel::Player player = EinsteinCurrentPlayer(state);  // no virtual calls
  if (player == open_spiel::kChancePlayerId || player == open_spiel::kTerminalPlayerId) {
    return false;
  }
  const auto color = static_cast<ewn::Color>(player);
  // AvailableCubesPosition: the cube showing the die, else the nearest value below
  // it and the nearest above it, in board order.
  struct Place {
    int value, row, col;
  };
  Place lowest{0, 0, 0}, highest{7, 0, 0};
  Place exact{-1, 0, 0};
  for (int r = 0; r < s.*kEwnRows && exact.value < 0; ++r) {
    for (int c = 0; c < s.*kEwnCols; ++c) {
      const ewn::Cube& cube = (s.*kEwnBoard)[r * (s.*kEwnCols) + c];
      if (cube.color != color) continue;
      if (cube.value == s.*kEwnDieRoll) {
        exact = {cube.value, r, c};
        break;
      }
      if (cube.value > lowest.value && cube.value < s.*kEwnDieRoll) {
        lowest = {cube.value, r, c};
      } else if (cube.value < highest.value && cube.value > s.*kEwnDieRoll) {
        highest = {cube.value, r, c};
      }
    }
  }
  Place cubes[2];
  int count = 0;
  if (exact.value >= 0) {
    cubes[count++] = exact;
  } else {
    if (lowest.value > 0) cubes[count++] = lowest;
    if (highest.value < 7) cubes[count++] = highest;
    if (count == 2 &&
        std::make_pair(cubes[1].row, cubes[1].col) < std::make_pair(cubes[0].row, cubes[0].col)) {
      std::swap(cubes[0], cubes[1]);
    }
  }
  // Each cube's three forward directions (black's first three, white's last).
  static constexpr int kDirections = 6;
  static constexpr int kRowOffsets[kDirections] = {1, 1, 0, -1, -1, 0};
  static constexpr int kColOffsets[kDirections] = {1, 0, 1, 0, -1, -1};
  actions->clear();
  actions->reserve(kDirections / 2 * 2);  // one allocation for a new list, none for a reused one
  for (int i = 0; i < count; ++i) {
    for (int o = 0; o < kDirections / 2; ++o) {
      const int dir = player * kDirections / 2 + o;
      const int rp = cubes[i].row + kRowOffsets[dir];
      const int cp = cubes[i].col + kColOffsets[dir];
      if (rp < 0 || rp >= s.*kEwnRows || cp < 0 || cp >= s.*kEwnCols) continue;
      const bool capture = (s.*kEwnBoard)[rp * (s.*kEwnCols) + cp].color != ewn::Color::kEmpty;
      // RankActionMixedBase over (rows, columns, directions, capture).
      actions->push_back(((cubes[i].row * (s.*kEwnCols) + cubes[i].col) * kDirections + dir) * 2 +
                         (capture ? 1 : 0));
    }
  }
  return true;
}

bool CatchLegalActions(open_spiel::State& state, std::vector<open_spiel::Action>* actions) {
  namespace ct = open_spiel::catch_;
  if (typeid(state) != typeid(ct::CatchState)) return false;
  const auto& s = static_cast<const ct::CatchState&>(state);
  if (!(s.*kCatchInitialized) || s.IsTerminal()) return false;
  actions->assign({ct::kLeft, ct::kStay, ct::kRight});
  return true;
}

namespace {

namespace tfe = open_spiel::twenty_forty_eight;

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

}  // namespace

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

open_spiel::Player EinsteinCurrentPlayer(const open_spiel::State& state) {
  namespace ewn = open_spiel::einstein_wurfelt_nicht;
  if (typeid(state) != typeid(ewn::EinsteinWurfeltNichtState)) return state.CurrentPlayer();
  const auto& s = static_cast<const ewn::EinsteinWurfeltNichtState&>(state);
  // EinsteinWurfeltNichtState::IsTerminal, inline.
  const bool ended = s.*kEwnWinner >= 0 || (s.*kEwnCubes)[0] == 0 || (s.*kEwnCubes)[1] == 0;
  return ended ? open_spiel::kTerminalPlayerId : s.*kEwnCurPlayer;
}

open_spiel::Player BallardCurrentPlayer(const open_spiel::State& state) {
  if (typeid(state) != typeid(ballard_tree::BallardState)) return state.CurrentPlayer();
  return static_cast<const ballard_tree::BallardState&>(state).BallardState::CurrentPlayer();
}

bool BallardLegalActions(open_spiel::State& state, std::vector<open_spiel::Action>* actions) {
  if (typeid(state) != typeid(ballard_tree::BallardState)) return false;
  const auto& s = static_cast<const ballard_tree::BallardState&>(state);
  if (s.BallardState::CurrentPlayer() < 0) return false;  // chance or terminal
  // Every node has the actions 0..n-1, into the caller's vector (no allocation).
  actions->resize(s.rules().n());
  for (std::size_t i = 0; i < actions->size(); ++i)
    (*actions)[i] = static_cast<open_spiel::Action>(i);
  return true;
}

}  // namespace starspiel
