// The private members of OpenSpiel's 2048 that its adapter (game_2048.cc) and its
// evaluator read (openspiel_internals.h says how). Include only from .cc files.
#ifndef STARSPIEL_BOTS_NATIVE_ADAPTERS_GAME_2048_FIELDS_H_
#define STARSPIEL_BOTS_NATIVE_ADAPTERS_GAME_2048_FIELDS_H_

#include <vector>

#include "bots/native/openspiel_internals.h"
// 2048.h declares `const int max_tile() const`, which -Wextra flags.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-qualifiers"
#include "open_spiel/games/twenty_forty_eight/2048.h"
#pragma GCC diagnostic pop

namespace starspiel {
namespace {

namespace tfe = open_spiel::twenty_forty_eight;

// 2048 (its game, for the end test, is State's game_)
STARSPIEL_OPENSPIEL_MEMBER(k2048CurrentPlayer, tfe::TwentyFortyEightState, current_player_,
                           open_spiel::Player);
STARSPIEL_OPENSPIEL_MEMBER(k2048Board, tfe::TwentyFortyEightState, board_, std::vector<tfe::Tile>);
STARSPIEL_OPENSPIEL_MEMBER(k2048ExtraChanceTurn, tfe::TwentyFortyEightState, extra_chance_turn_,
                           bool);
STARSPIEL_OPENSPIEL_MEMBER(k2048TotalScore, tfe::TwentyFortyEightState, total_score_, int);
STARSPIEL_OPENSPIEL_MEMBER(k2048ActionScore, tfe::TwentyFortyEightState, action_score_, int);
STARSPIEL_OPENSPIEL_MEMBER(k2048TotalActions, tfe::TwentyFortyEightState, total_actions_, int);

}  // namespace
}  // namespace starspiel

#endif  // STARSPIEL_BOTS_NATIVE_ADAPTERS_GAME_2048_FIELDS_H_
