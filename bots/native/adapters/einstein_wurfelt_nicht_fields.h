// The private members of OpenSpiel's einstein_wurfelt_nicht that its adapter
// (einstein_wurfelt_nicht.cc) and its evaluator read (openspiel_internals.h says how).
// Include only from .cc files.
#ifndef STARSPIEL_BOTS_NATIVE_ADAPTERS_EINSTEIN_WURFELT_NICHT_FIELDS_H_
#define STARSPIEL_BOTS_NATIVE_ADAPTERS_EINSTEIN_WURFELT_NICHT_FIELDS_H_

#include <array>
#include <vector>

#include "bots/native/openspiel_internals.h"
#include "open_spiel/games/einstein_wurfelt_nicht/einstein_wurfelt_nicht.h"

namespace starspiel {
namespace {

namespace ewn = open_spiel::einstein_wurfelt_nicht;

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

}  // namespace
}  // namespace starspiel

#endif  // STARSPIEL_BOTS_NATIVE_ADAPTERS_EINSTEIN_WURFELT_NICHT_FIELDS_H_
