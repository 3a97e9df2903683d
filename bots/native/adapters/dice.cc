// dice's fast paths for the native search (registry.h): undo (checked by hand over whole
// games) and its table keys.
#include "games/native/dice.h"

#include <cstdint>
#include <string>
#include <typeinfo>

#include "bots/native/adapters/registry.h"
#include "bots/native/keys.h"
#include "open_spiel/spiel.h"

namespace starspiel::dice {
namespace {

const bool kRegistered = RegisterGameAdapter("dice", {.undo_checked = true});

const bool kKeysRegistered = RegisterKeyScheme(
    "dice",
    KeyScheme{// The string prints every field of the position: board, player, line.
              [](const open_spiel::State& state) { return state.ToString(); },
              [](const open_spiel::State& state) {
                return static_cast<const DiceState&>(state).SamplingText();
              },
              // The same partition from the position's fields, without building the string.
              [](const open_spiel::State& state) {
                const auto& dice = static_cast<const DiceState&>(state);
                Key key = ExtendDigest(0xD1CE, dice.x_stones());
                key = ExtendDigest(key, dice.o_stones());
                const auto player = static_cast<std::uint32_t>(dice.CurrentPlayer() + 8);
                return ExtendDigest(key, static_cast<std::uint64_t>(player) << 32 |
                                             static_cast<std::uint32_t>(dice.aux()));
              },
              [](const open_spiel::State& state) { return typeid(state) == typeid(DiceState); }});

}  // namespace
}  // namespace starspiel::dice
