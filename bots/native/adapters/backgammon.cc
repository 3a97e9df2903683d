// backgammon's fast paths for the native search (registry.h): move generation, undo by
// field restore, its table key from its fields, and the private members they read.
#include "open_spiel/games/backgammon/backgammon.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <typeinfo>
#include <vector>

#include "bots/native/adapters/registry.h"
#include "bots/native/field_lists.h"
#include "bots/native/internals_gate.h"
#include "bots/native/keys.h"
#include "bots/native/openspiel_internals.h"

namespace starspiel {
namespace {

namespace bg = open_spiel::backgammon;

// backgammon
STARSPIEL_OPENSPIEL_MEMBER(kBgCurPlayer, bg::BackgammonState, cur_player_, open_spiel::Player);
STARSPIEL_OPENSPIEL_MEMBER(kBgPrevPlayer, bg::BackgammonState, prev_player_, open_spiel::Player);
STARSPIEL_OPENSPIEL_MEMBER(kBgTurns, bg::BackgammonState, turns_, int);
STARSPIEL_OPENSPIEL_MEMBER(kBgXTurns, bg::BackgammonState, x_turns_, int);
STARSPIEL_OPENSPIEL_MEMBER(kBgOTurns, bg::BackgammonState, o_turns_, int);
STARSPIEL_OPENSPIEL_MEMBER(kBgDoubleTurn, bg::BackgammonState, double_turn_, bool);
STARSPIEL_OPENSPIEL_MEMBER(kBgDice, bg::BackgammonState, dice_, std::vector<int>);
STARSPIEL_OPENSPIEL_MEMBER(kBgBar, bg::BackgammonState, bar_, std::vector<int>);
STARSPIEL_OPENSPIEL_MEMBER(kBgScores, bg::BackgammonState, scores_, std::vector<int>);
STARSPIEL_OPENSPIEL_MEMBER(kBgBoard, bg::BackgammonState, board_, std::vector<std::vector<int>>);
STARSPIEL_OPENSPIEL_MEMBER(kBgTurnHistoryInfo, bg::BackgammonState, turn_history_info_,
                           std::vector<bg::TurnHistoryInfo>);
STARSPIEL_OPENSPIEL_MEMBER(kBgAllInHome, bg::BackgammonState, AllInHome, bool(int) const);
STARSPIEL_OPENSPIEL_MEMBER(kBgUsableDiceOutcome, bg::BackgammonState, UsableDiceOutcome,
                           bool(int) const);
STARSPIEL_OPENSPIEL_MEMBER(kBgPositionFromBar, bg::BackgammonState, PositionFromBar,
                           int(int, int) const);
STARSPIEL_OPENSPIEL_MEMBER(kBgPositionFrom, bg::BackgammonState, PositionFrom,
                           int(int, int, int) const);
STARSPIEL_OPENSPIEL_MEMBER(kBgNumOppCheckers, bg::BackgammonState, NumOppCheckers,
                           int(int, int) const);
STARSPIEL_OPENSPIEL_MEMBER(kBgFurthestCheckerInHome, bg::BackgammonState, FurthestCheckerInHome,
                           int(int) const);
STARSPIEL_OPENSPIEL_MEMBER(kBgApplyCheckerMove, bg::BackgammonState, ApplyCheckerMove,
                           bool(int, const bg::CheckerMove&));
STARSPIEL_OPENSPIEL_MEMBER(kBgUndoCheckerMove, bg::BackgammonState, UndoCheckerMove,
                           void(int, const bg::CheckerMove&));

// bots/keys.py string_key for backgammon: (player, str(state)). The string
// draws each point's checkers for the player X if X has any there, else for O
// (a count from 1 to 15 drawn distinctly), then prints the turn, the previous
// player, the extra-turn flag, the dice (used ones marked), the bar and the
// scores.
Key BackgammonFieldsKey(const open_spiel::State& state) {
  namespace bg = open_spiel::backgammon;
  const auto& game = static_cast<const bg::BackgammonState&>(state);
  Key key = 0xBAC6;
  auto packed = [](std::int64_t a, std::int64_t b) {
    return static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32 |
           static_cast<std::uint32_t>(b);
  };
  key = ExtendDigest(key, packed(state.CurrentPlayer(), game.*kBgCurPlayer));
  key = ExtendDigest(key, packed(game.*kBgPrevPlayer, game.*kBgDoubleTurn ? 1 : 0));
  std::uint64_t dice = (game.*kBgDice).size();
  for (std::size_t i = 0; i < (game.*kBgDice).size() && i < 2; ++i) {
    dice = dice << 16 | static_cast<std::uint16_t>((game.*kBgDice)[i]);
  }
  key = ExtendDigest(key, dice);
  key = ExtendDigest(key, packed((game.*kBgBar)[bg::kXPlayerId], (game.*kBgBar)[bg::kOPlayerId]));
  key = ExtendDigest(key,
                     packed((game.*kBgScores)[bg::kXPlayerId], (game.*kBgScores)[bg::kOPlayerId]));
  std::uint64_t word = 0;
  int points = 0;
  for (int pos = 0; pos < 24; ++pos) {
    const int x = (game.*kBgBoard)[bg::kXPlayerId][pos];
    const int o = (game.*kBgBoard)[bg::kOPlayerId][pos];
    // What the string shows of the point: X's count, else O's, else nothing.
    const std::uint64_t code = x > 0 ? static_cast<std::uint64_t>(x) : o > 0 ? 128 + o : 0;
    word = word << 8 | (code & 0xFF);
    if (++points == 8) {
      key = ExtendDigest(key, word);
      word = 0;
      points = 0;
    }
  }
  return key;
}

bool IsBackgammonState(const open_spiel::State& state) {
  return FieldPathsOn() && typeid(state) == typeid(open_spiel::backgammon::BackgammonState);
}

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

constexpr FieldRestorer kBackgammonRestorer = {.applies = BackgammonApplies,
                                               .save = BackgammonSave,
                                               .restore = BackgammonRestore,
                                               .same = SameBackgammonFields};

const bool kRegistered = RegisterGameAdapter("backgammon", {.moves = BackgammonLegalActions,
                                                            .reads_private_fields = true,
                                                            .restorer = &kBackgammonRestorer}) &&
                         RegisterKeyScheme("backgammon", {PlayerAndString, PlayerAndStringText,
                                                          BackgammonFieldsKey, IsBackgammonState});

}  // namespace
}  // namespace starspiel
