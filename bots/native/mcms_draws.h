// MCMS's draws (bots/mcms.py draw_outcomes with sampling_seed(seed, key)).
#ifndef STARSPIEL_BOTS_NATIVE_MCMS_DRAWS_H_
#define STARSPIEL_BOTS_NATIVE_MCMS_DRAWS_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "open_spiel/spiel.h"

namespace starspiel {

// `samples` draws with replacement from `outcomes`, seeded as bots/mcms.py
// seeds them: random.Random((seed << 64) | blake2b8(canonical_text)).
std::vector<std::pair<open_spiel::Action, double>> McmsDrawOutcomes(
    const std::vector<std::pair<open_spiel::Action, double>>& outcomes, int samples,
    std::uint64_t seed, const std::string& canonical_text);

}  // namespace starspiel

#endif  // STARSPIEL_BOTS_NATIVE_MCMS_DRAWS_H_
