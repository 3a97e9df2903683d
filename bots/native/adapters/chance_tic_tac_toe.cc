// chance_tic_tac_toe's fast paths for the native search (registry.h): undo (checked
// by hand over whole games) and its table keys.
#include "games/native/chance_tic_tac_toe.h"

#include <string>

#include "bots/native/adapters/registry.h"
#include "bots/native/keys.h"
#include "open_spiel/spiel.h"

namespace starspiel::chance_tic_tac_toe {
namespace {

const bool kRegistered = RegisterGameAdapter("chance_tic_tac_toe", {.undo_checked = true});

const bool kKeysRegistered = RegisterKeyScheme(
    "chance_tic_tac_toe",
    KeyScheme{// The string prints every field of the position: board, blocks, player, result.
              [](const open_spiel::State& state) { return state.ToString(); },
              [](const open_spiel::State& state) {
                return static_cast<const ChanceTTTState&>(state).SamplingText();
              }});

}  // namespace
}  // namespace starspiel::chance_tic_tac_toe
