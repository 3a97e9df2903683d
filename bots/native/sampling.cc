#include "bots/native/sampling.h"

#include <algorithm>
#include <unordered_map>

#include "bots/native/blake2b.h"

namespace starspiel {

std::vector<std::uint32_t> SamplingSeed(std::uint64_t seed, std::string_view canonical_text) {
  const std::uint64_t digest = Blake2b64(canonical_text);
  // FromWords drops the high zero words, as CPython keys with the int's significant words.
  return {static_cast<std::uint32_t>(digest), static_cast<std::uint32_t>(digest >> 32),
          static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)};
}

pyrandom::Random SamplingRandom(std::uint64_t seed, std::string_view canonical_text) {
  return pyrandom::Random::FromWords(SamplingSeed(seed, canonical_text));
}

std::vector<std::pair<std::int64_t, double>> DrawOutcomes(
    const std::vector<std::pair<std::int64_t, double>>& outcomes, int samples,
    const std::vector<std::uint32_t>& seed_words) {
  pyrandom::Random random = pyrandom::Random::FromWords(seed_words);
  return DrawOutcomes(outcomes, samples, random);
}

std::vector<std::pair<std::int64_t, double>> DrawOutcomes(
    const std::vector<std::pair<std::int64_t, double>>& outcomes, int samples,
    pyrandom::Random& random) {
  std::vector<double> weights;
  weights.reserve(outcomes.size());
  for (const auto& [action, prob] : outcomes) weights.push_back(prob);
  const std::vector<int> drawn = random.Choices(weights, samples);
  // Counts by action in order of first draw, as Python's dict keeps them.
  std::vector<std::pair<std::int64_t, int>> counts;
  std::unordered_map<std::int64_t, std::size_t> slot;
  for (int index : drawn) {
    const std::int64_t action = outcomes[index].first;
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
  std::vector<std::pair<std::int64_t, double>> merged;
  merged.reserve(counts.size());
  for (const auto& [action, count] : counts) {
    merged.emplace_back(action, static_cast<double>(count) / static_cast<double>(samples));
  }
  return merged;
}

}  // namespace starspiel
