// ballard_tree's fast paths for the native search (registry.h): move generation, the
// player to move, and undo (checked by hand over whole games).
#include "bots/native/adapters/registry.h"

namespace starspiel {
namespace {

const bool kRegistered = RegisterGameAdapter(
    "ballard_tree",
    {.moves = BallardLegalActions, .player = BallardCurrentPlayer, .undo_checked = true});

}  // namespace
}  // namespace starspiel
