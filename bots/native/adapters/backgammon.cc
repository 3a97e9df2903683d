// backgammon's fast paths for the native search (registry.h): move generation and its
// table key from its fields.
#include "bots/native/adapters/registry.h"
#include "bots/native/keys.h"

namespace starspiel {

// fast_keys.cc
Key BackgammonFieldsKey(const open_spiel::State& state);
bool IsBackgammonState(const open_spiel::State& state);

namespace {

const bool kRegistered = RegisterGameAdapter("backgammon", {.moves = BackgammonLegalActions,
                                                            .reads_private_fields = true}) &&
                         RegisterKeyScheme("backgammon", {PlayerAndString, PlayerAndStringText,
                                                          BackgammonFieldsKey, IsBackgammonState});

}  // namespace
}  // namespace starspiel
