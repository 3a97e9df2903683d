#include "bots/native/mcms_draws.h"

#include <stdexcept>

namespace starspiel {

std::vector<std::pair<open_spiel::Action, double>> McmsDrawOutcomes(
    const std::vector<std::pair<open_spiel::Action, double>>& outcomes, int samples,
    std::uint64_t seed, const std::string& canonical_text) {
  throw std::runtime_error("MCMS draws are not in the native engine yet");
}

}  // namespace starspiel
