// Backgammon's legal actions, the list OpenSpiel's LegalActions() returns, without
// its clone of the state (which copies the history) and its sets of move
// sequences: 80% of a native backgammon search went there. The same two-level
// enumeration on the state itself, with the game's own checker-move helpers, and
// each move applied and undone as OpenSpiel's RecLegalMoves does on its clone.
// tests/test_native_moves.py compares the lists along random games.
#include "bots/native/fast_moves.h"

#include <algorithm>
#include <typeinfo>
#include <vector>

#include "open_spiel/spiel.h"

#define private public
#define protected public
#include "open_spiel/games/backgammon/backgammon.h"
#undef protected
#undef private

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
  if (s.bar_[player] > 0) {
    for (int outcome : s.dice_) {
      if (!s.UsableDiceOutcome(outcome)) continue;
      const int pos = s.PositionFromBar(player, outcome);
      if (s.NumOppCheckers(player, pos) <= 1) {
        AddMove({bg::kBarPos, outcome, s.NumOppCheckers(player, pos) == 1}, moves, &count);
      }
    }
    return count;
  }
  const bool all_in_home = s.AllInHome(player);
  for (int i = 0; i < bg::kNumPoints; ++i) {
    if (s.board_[player][i] <= 0) continue;
    for (int outcome : s.dice_) {
      if (!s.UsableDiceOutcome(outcome)) continue;
      const int pos = s.PositionFrom(player, i, outcome);
      if (pos == bg::kScorePos && all_in_home) {
        // Bearing off: from exactly the distance off, or from the furthest checker.
        const bool exact = (player == bg::kXPlayerId && i + outcome == 24) ||
                           (player == bg::kOPlayerId && i - outcome == -1);
        if (exact || i == s.FurthestCheckerInHome(player)) {
          AddMove({i, outcome, false}, moves, &count);
        }
      } else if (pos != bg::kScorePos && s.NumOppCheckers(player, pos) <= 1) {
        AddMove({i, outcome, s.NumOppCheckers(player, pos) == 1}, moves, &count);
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
  const int player = s.cur_player_;
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
    s.ApplyCheckerMove(player, move);
    const int seconds = CheckerMoves(s, player, second);
    s.UndoCheckerMove(player, move);
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

}  // namespace starspiel
