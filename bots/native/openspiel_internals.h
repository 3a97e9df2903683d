// Every private or protected member of OpenSpiel that the engine's fast paths use, each
// named once, and the open_spiel release they were checked against.
//
// The fast paths (field_undo.cc: undo by restoring fields, fast_moves.cc: move lists
// and players, fast_keys.cc: table keys from fields, and the 2048 and EinStein
// evaluators) re-implement parts of a game's rules on its fields. They are checked
// against the public State API (tests/test_native_moves.py, test_native_keys.py,
// test_native_fields.py) and switched off at run time for any other open_spiel
// (internals_gate.h), where the generic path runs. docs/guide/engines.md, "Moving to a
// new open_spiel release", says what to do when open_spiel changes.
//
// Access is granted by the one technique the standard defines for it: names in an
// explicit instantiation are not access-checked ([temp.spec.general]), so instantiating
// Expose with a pointer to a private member defines a friend function that returns that
// pointer. Each pointer is then a compile-time constant (`state.*kPigScores` compiles to
// the same load as a member access). Everything here is in an unnamed namespace: each
// translation unit that includes this file instantiates Expose with its own tag types,
// so no explicit instantiation appears twice in the program. Include this file only
// from .cc files.
#ifndef STARSPIEL_BOTS_NATIVE_OPENSPIEL_INTERNALS_H_
#define STARSPIEL_BOTS_NATIVE_OPENSPIEL_INTERNALS_H_

#include <array>
#include <memory>
#include <type_traits>
#include <vector>

#include "open_spiel/games/backgammon/backgammon.h"
#include "open_spiel/games/catch/catch.h"
#include "open_spiel/games/einstein_wurfelt_nicht/einstein_wurfelt_nicht.h"
#include "open_spiel/games/pig/pig.h"
#include "open_spiel/spiel.h"
// 2048.h declares `const int max_tile() const`, which -Wextra flags.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-qualifiers"
#include "open_spiel/games/twenty_forty_eight/2048.h"
#pragma GCC diagnostic pop

namespace starspiel {

// The open_spiel release whose members below, and whose rules the fast paths re-implement,
// were checked. With any other release the fast paths are off (internals_gate.cc).
inline constexpr char kInternalsOpenSpielVersion[] = "2.0.2";

namespace {

namespace bg = open_spiel::backgammon;
namespace ewn = open_spiel::einstein_wurfelt_nicht;
namespace tfe = open_spiel::twenty_forty_eight;

template <class Tag, auto kMember>
struct Expose {
  friend constexpr auto PointerTo(Tag) { return kMember; }
};

// `name`: a constant pointer to member `member` of `Class`, of type `Type Class::*` (a
// function type for a member function); a compile error where open_spiel changed either.
#define STARSPIEL_OPENSPIEL_MEMBER(name, Class, member, ...) \
  struct name##Tag {                                         \
    friend constexpr auto PointerTo(name##Tag);              \
  };                                                         \
  template struct Expose<name##Tag, &Class::member>;         \
  constexpr std::type_identity_t<__VA_ARGS__> Class::*name = PointerTo(name##Tag{})

// State (protected): the moves played and the move number.
STARSPIEL_OPENSPIEL_MEMBER(kStateHistory, open_spiel::State, history_,
                           std::vector<open_spiel::State::PlayerAction>);
STARSPIEL_OPENSPIEL_MEMBER(kStateMoveNumber, open_spiel::State, move_number_, int);
STARSPIEL_OPENSPIEL_MEMBER(kStateGame, open_spiel::State, game_,
                           const std::shared_ptr<const open_spiel::Game>);

// pig
STARSPIEL_OPENSPIEL_MEMBER(kPigTotalMoves, open_spiel::pig::PigState, total_moves_, int);
STARSPIEL_OPENSPIEL_MEMBER(kPigCurPlayer, open_spiel::pig::PigState, cur_player_,
                           open_spiel::Player);
STARSPIEL_OPENSPIEL_MEMBER(kPigTurnPlayer, open_spiel::pig::PigState, turn_player_, int);
STARSPIEL_OPENSPIEL_MEMBER(kPigScores, open_spiel::pig::PigState, scores_, std::vector<int>);
STARSPIEL_OPENSPIEL_MEMBER(kPigTurnTotal, open_spiel::pig::PigState, turn_total_, int);

// catch
STARSPIEL_OPENSPIEL_MEMBER(kCatchInitialized, open_spiel::catch_::CatchState, initialized_, bool);
STARSPIEL_OPENSPIEL_MEMBER(kCatchBallRow, open_spiel::catch_::CatchState, ball_row_, int);
STARSPIEL_OPENSPIEL_MEMBER(kCatchBallCol, open_spiel::catch_::CatchState, ball_col_, int);
STARSPIEL_OPENSPIEL_MEMBER(kCatchPaddleCol, open_spiel::catch_::CatchState, paddle_col_, int);

// einstein_wurfelt_nicht
STARSPIEL_OPENSPIEL_MEMBER(kEwnCurPlayer, ewn::EinsteinWurfeltNichtState, cur_player_,
                           open_spiel::Player);
STARSPIEL_OPENSPIEL_MEMBER(kEwnPrevPlayer, ewn::EinsteinWurfeltNichtState, prev_player_,
                           open_spiel::Player);
STARSPIEL_OPENSPIEL_MEMBER(kEwnWinner, ewn::EinsteinWurfeltNichtState, winner_, int);
STARSPIEL_OPENSPIEL_MEMBER(kEwnTotalMoves, ewn::EinsteinWurfeltNichtState, total_moves_, int);
STARSPIEL_OPENSPIEL_MEMBER(kEwnTurns, ewn::EinsteinWurfeltNichtState, turns_, int);
STARSPIEL_OPENSPIEL_MEMBER(kEwnCubes, ewn::EinsteinWurfeltNichtState, cubes_, std::array<int, 2>);
STARSPIEL_OPENSPIEL_MEMBER(kEwnRows, ewn::EinsteinWurfeltNichtState, rows_, int);
STARSPIEL_OPENSPIEL_MEMBER(kEwnCols, ewn::EinsteinWurfeltNichtState, cols_, int);
STARSPIEL_OPENSPIEL_MEMBER(kEwnDieRoll, ewn::EinsteinWurfeltNichtState, die_roll_, int);
STARSPIEL_OPENSPIEL_MEMBER(kEwnBoard, ewn::EinsteinWurfeltNichtState, board_,
                           std::array<ewn::Cube, ewn::k2dMaxBoardSize>);
STARSPIEL_OPENSPIEL_MEMBER(kEwnTurnHistoryInfo, ewn::EinsteinWurfeltNichtState, turn_history_info_,
                           std::vector<ewn::TurnHistoryInfo>);

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

// 2048 (its game, for the end test, is State's game_)
STARSPIEL_OPENSPIEL_MEMBER(k2048CurrentPlayer, tfe::TwentyFortyEightState, current_player_,
                           open_spiel::Player);
STARSPIEL_OPENSPIEL_MEMBER(k2048Board, tfe::TwentyFortyEightState, board_, std::vector<tfe::Tile>);
STARSPIEL_OPENSPIEL_MEMBER(k2048ExtraChanceTurn, tfe::TwentyFortyEightState, extra_chance_turn_,
                           bool);
STARSPIEL_OPENSPIEL_MEMBER(k2048TotalScore, tfe::TwentyFortyEightState, total_score_, int);
STARSPIEL_OPENSPIEL_MEMBER(k2048ActionScore, tfe::TwentyFortyEightState, action_score_, int);
STARSPIEL_OPENSPIEL_MEMBER(k2048TotalActions, tfe::TwentyFortyEightState, total_actions_, int);

#undef STARSPIEL_OPENSPIEL_MEMBER

}  // namespace
}  // namespace starspiel

#endif  // STARSPIEL_BOTS_NATIVE_OPENSPIEL_INTERNALS_H_
