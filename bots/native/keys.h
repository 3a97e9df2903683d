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

namespace digest_detail {

constexpr Key kModulus = (static_cast<Key>(1) << 127) - 1;
// bots/keys.py's DIGEST_MULTIPLIER, 0x20ED522615E56B36218A9C69723E4FFD.
constexpr Key kMultiplier =
    (static_cast<Key>(0x20ED522615E56B36ULL) << 64) | static_cast<Key>(0x218A9C69723E4FFDULL);

inline Key Fold(Key x) { return (x & kModulus) + (x >> 127); }

// a * b mod 2^127 - 1 for a, b < 2^127, from four 64-bit partial products.
inline Key MulMod(Key a, Key b) {
  using U64 = std::uint64_t;
  const U64 a0 = static_cast<U64>(a), a1 = static_cast<U64>(a >> 64);
  const U64 b0 = static_cast<U64>(b), b1 = static_cast<U64>(b >> 64);
  const Key p0 = static_cast<Key>(a0) * b0;
  const Key mid = static_cast<Key>(a0) * b1 + static_cast<Key>(a1) * b0;  // < 2^128
  const Key p3 = static_cast<Key>(a1) * b1;
  const Key low = p0 + (mid << 64);
  const Key carry = low < p0 ? 1 : 0;
  const Key high = p3 + (mid >> 64) + carry;  // product = high * 2^128 + low
  // 2^127 = 1 and 2^128 = 2 modulo 2^127 - 1.
  Key r = Fold(Fold(low));
  Key h = Fold(Fold(high << 1));
  r = Fold(r + h);
  if (r >= kModulus) r -= kModulus;
  return r;
}

}  // namespace digest_detail

// bots/keys.py's DIGEST_MULTIPLIER and DIGEST_MODULUS = 2^127 - 1; inline, as
// it runs several times for every node keyed.
// mirrors: bots/keys.py extend_digest
inline Key ExtendDigest(Key digest, std::uint64_t value) {
  Key r = digest_detail::MulMod(digest, digest_detail::kMultiplier) + static_cast<Key>(value) + 1;
  r = digest_detail::Fold(r);
  if (r >= digest_detail::kModulus) r -= digest_detail::kModulus;
  return r;
}

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
  // when their texts are (the game's adapter, bots/native/adapters/), and the states it applies to.
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

// bots/keys.py's string_key, (current player, str(state)): its table text, and its text
// as canonical_text prints it (MCMS's sampling seed). For the games' adapters.
std::string PlayerAndString(const open_spiel::State& state);
std::string PlayerAndStringText(const open_spiel::State& state);

}  // namespace starspiel

#endif  // STARSPIEL_BOTS_NATIVE_KEYS_H_
