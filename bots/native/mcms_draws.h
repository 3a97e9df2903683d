// MCMS's draws (bots/mcms.py draw_outcomes with sampling_seed(seed, key)).
#ifndef STARSPIEL_BOTS_NATIVE_MCMS_DRAWS_H_
#define STARSPIEL_BOTS_NATIVE_MCMS_DRAWS_H_

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "open_spiel/spiel.h"

namespace starspiel {

// `samples` draws with replacement from `outcomes` by SplitMix64::Seeded(seed,
// canonical_text).Choices (games/native/splitmix.h), merged to (action, count /
// samples), most drawn first, ties in order of first draw.
// mirrors: bots/mcms.py draw_outcomes
std::vector<std::pair<open_spiel::Action, double>> McmsDrawOutcomes(
    const std::vector<std::pair<open_spiel::Action, double>>& outcomes, int samples,
    std::uint64_t seed, std::string_view canonical_text);

}  // namespace starspiel

#endif  // STARSPIEL_BOTS_NATIVE_MCMS_DRAWS_H_
