#include "bots/native/mcms_draws.h"

#include <algorithm>
#include <unordered_map>

#include "games/native/splitmix.h"

namespace starspiel {

std::vector<std::pair<open_spiel::Action, double>> McmsDrawOutcomes(
    const std::vector<std::pair<open_spiel::Action, double>>& outcomes, int samples,
    std::uint64_t seed, std::string_view canonical_text) {
  std::vector<double> weights;
  weights.reserve(outcomes.size());
  for (const auto& [action, prob] : outcomes) weights.push_back(prob);
  const std::vector<int> drawn =
      splitmix::SplitMix64::Seeded(seed, canonical_text).Choices(weights, samples);
  // Counts by action in order of first draw, as Python's dict keeps them.
  std::vector<std::pair<open_spiel::Action, int>> counts;
  std::unordered_map<open_spiel::Action, std::size_t> slot;
  for (const int index : drawn) {
    const open_spiel::Action action = outcomes[index].first;
    const auto [it, added] = slot.emplace(action, counts.size());
    if (added) {
      counts.emplace_back(action, 1);
    } else {
      ++counts[it->second].second;
    }
  }
  // Stable, as Python's sorted: equal counts keep their first-draw order.
  std::stable_sort(counts.begin(), counts.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::vector<std::pair<open_spiel::Action, double>> merged;
  merged.reserve(counts.size());
  for (const auto& [action, count] : counts) {
    merged.emplace_back(action, static_cast<double>(count) / static_cast<double>(samples));
  }
  return merged;
}

}  // namespace starspiel
