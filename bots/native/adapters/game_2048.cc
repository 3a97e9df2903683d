// 2048's fast paths for the native search (registry.h): move generation and the player
// to move.
#include "bots/native/adapters/registry.h"

namespace starspiel {
namespace {

const bool kRegistered = RegisterGameAdapter(
    "2048",
    {.moves = Game2048LegalActions, .player = Game2048CurrentPlayer, .reads_private_fields = true});

}  // namespace
}  // namespace starspiel
