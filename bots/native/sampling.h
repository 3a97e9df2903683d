// MCMS's sampling of chance outcomes (bots/mcms.py's sampling_seed and
// draw_outcomes), reproduced bit for bit: a node draws the same outcomes in
// the native engine as in the Python one.
#ifndef STARSPIEL_BOTS_NATIVE_SAMPLING_H_
#define STARSPIEL_BOTS_NATIVE_SAMPLING_H_

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "bots/native/pyrandom.h"

namespace starspiel {

// sampling_seed(seed, key) = (seed << 64) | blake2b8(canonical_text(key)) as
// little-endian 32-bit words (the key of pyrandom::Random::FromWords).
std::vector<std::uint32_t> SamplingSeed(std::uint64_t seed, std::string_view canonical_text);

// random.Random(sampling_seed(seed, key)) for the key whose canonical text is given.
pyrandom::Random SamplingRandom(std::uint64_t seed, std::string_view canonical_text);

// draw_outcomes(outcomes, samples, seed): `samples` draws with replacement by
// random.Random(seed).choices(actions, weights=probs), merged to
// (action, count / samples), most drawn first, ties in order of first draw.
// `seed_words` is the seed int's little-endian 32-bit words (SamplingSeed).
std::vector<std::pair<std::int64_t, double>> DrawOutcomes(
    const std::vector<std::pair<std::int64_t, double>>& outcomes, int samples,
    const std::vector<std::uint32_t>& seed_words);

// The same with a generator seeded already (consumed by the draws).
std::vector<std::pair<std::int64_t, double>> DrawOutcomes(
    const std::vector<std::pair<std::int64_t, double>>& outcomes, int samples,
    pyrandom::Random& random);

}  // namespace starspiel

#endif  // STARSPIEL_BOTS_NATIVE_SAMPLING_H_
