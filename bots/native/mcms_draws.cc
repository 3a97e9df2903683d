// MCMS's draws: the seed and generator of bots/mcms.py, from bots/native/sampling.h.
#include "bots/native/mcms_draws.h"

#include "bots/native/sampling.h"

namespace starspiel {

std::vector<std::pair<open_spiel::Action, double>> McmsDrawOutcomes(
    const std::vector<std::pair<open_spiel::Action, double>>& outcomes, int samples,
    std::uint64_t seed, const std::string& canonical_text) {
  std::vector<std::pair<std::int64_t, double>> given(outcomes.begin(), outcomes.end());
  auto drawn = DrawOutcomes(given, samples, SamplingSeed(seed, canonical_text));
  return {drawn.begin(), drawn.end()};
}

}  // namespace starspiel
