// cant_stop's fast paths for the native search (registry.h): its table keys.
#include "games/native/cant_stop.h"

#include <string>

#include "bots/native/adapters/registry.h"
#include "bots/native/keys.h"
#include "open_spiel/spiel.h"

namespace starspiel::cant_stop {
namespace {

const bool kKeysRegistered =
    RegisterKeyScheme("cant_stop",
                      KeyScheme{// The string prints every field of the position.
                                [](const open_spiel::State& state) { return state.ToString(); },
                                [](const open_spiel::State& state) {
                                  return static_cast<const CantStopState&>(state).SamplingText();
                                }});

}  // namespace
}  // namespace starspiel::cant_stop
