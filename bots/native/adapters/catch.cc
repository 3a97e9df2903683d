// catch's fast paths for the native search (registry.h): move generation and its table
// key from its fields.
#include "bots/native/adapters/registry.h"
#include "bots/native/keys.h"

namespace starspiel {

// fast_keys.cc
Key CatchFieldsKey(const open_spiel::State& state);
bool IsCatchState(const open_spiel::State& state);

namespace {

const bool kRegistered =
    RegisterGameAdapter("catch", {.moves = CatchLegalActions, .reads_private_fields = true}) &&
    RegisterKeyScheme("catch",
                      {PlayerAndString, PlayerAndStringText, CatchFieldsKey, IsCatchState});

}  // namespace
}  // namespace starspiel
