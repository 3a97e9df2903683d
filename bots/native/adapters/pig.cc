// pig's fast paths for the native search (registry.h): its table key from its fields.
#include "bots/native/keys.h"

namespace starspiel {

// fast_keys.cc
Key PigFieldsKey(const open_spiel::State& state);
bool IsPigState(const open_spiel::State& state);

namespace {

// bots/keys.py pig_key: the bare string (it prints the player and a pending roll); MCMS
// seeds its draws with (player, string).
const bool kRegistered =
    RegisterKeyScheme("pig", {[](const open_spiel::State& s) { return s.ToString(); },
                              PlayerAndStringText, PigFieldsKey, IsPigState});

}  // namespace
}  // namespace starspiel
