// Transposition-table keys of the native engine: the twins of bots/keys.py.
//
// The engine keys a state by 128 bits: the history digest of bots/keys.py
// (the same number), or, for games keyed by text, a polynomial hash of the
// text modulo 2^127 - 1 with the same multiplier (two different texts of
// length <= n collide for at most n of the 2^127 - 1 multipliers). Two states
// share a key exactly when their Python keys are equal, up to that chance.
#ifndef STARSPIEL_BOTS_NATIVE_KEYS_H_
#define STARSPIEL_BOTS_NATIVE_KEYS_H_

#include <cstdint>
#include <functional>
#include <string>

#include "open_spiel/spiel.h"

namespace starspiel {

using Key = unsigned __int128;

// bots/keys.py's DIGEST_MULTIPLIER and DIGEST_MODULUS = 2^127 - 1.
Key ExtendDigest(Key digest, std::uint64_t value);
Key HistoryDigest(const std::vector<open_spiel::Action>& history);
Key TextKey(const std::string& text);

// How a game's states are keyed, registered by game short name.
struct KeyScheme {
  // Text that is equal for two states exactly when their bots/keys.py keys
  // are equal. Games without a scheme are keyed by their history digest.
  std::function<std::string(const open_spiel::State&)> text;
  // bots/mcms.py's canonical_text(sampling_key(state)): seeds MCMS's draws.
  std::function<std::string(const open_spiel::State&)> sampling_text;
  // Optional: the key computed without the text, equal for two states exactly
  // when their texts are (fast_keys.cc), and the states it applies to.
  std::function<Key(const open_spiel::State&)> fields_key;
  std::function<bool(const open_spiel::State&)> fields_apply;
};

// Key of `state` under `scheme`: from its fields where the scheme has them.
inline Key SchemeKey(const KeyScheme& scheme, const open_spiel::State& state) {
  if (scheme.fields_key) return scheme.fields_key(state);
  return TextKey(scheme.text(state));
}

bool RegisterKeyScheme(const std::string& short_name, KeyScheme scheme);
// The game's scheme, or nullptr (history digests).
const KeyScheme* FindKeyScheme(const std::string& short_name);

// Python's repr() of an ASCII str, as canonical_text prints strings.
std::string PythonRepr(const std::string& text);

}  // namespace starspiel

#endif  // STARSPIEL_BOTS_NATIVE_KEYS_H_
