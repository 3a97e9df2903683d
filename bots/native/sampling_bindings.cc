// Test hooks for the random generator (games/native/splitmix.h) and MCMS's draws:
// tests/test_native_sampling.py compares each with games/splitmix.py and bots/mcms.py.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "bots/native/bindings.h"
#include "bots/native/mcms_draws.h"
#include "games/native/splitmix.h"

namespace py = pybind11;

namespace starspiel {

void BindSampling(py::module_& m) {
  using splitmix::SplitMix64;
  m.def(
      "splitmix_next64",
      [](std::uint64_t state, int n) {
        SplitMix64 random(state);
        std::vector<std::uint64_t> values(n);
        for (auto& value : values) value = random.Next64();
        return values;
      },
      py::arg("state"), py::arg("n"), "The first n outputs of SplitMix64(state) (for tests).");
  m.def(
      "splitmix_seed_state",
      [](std::uint64_t seed, const std::string& key) {
        return splitmix::SeedState(seed, splitmix::Fnv1a64(key));
      },
      py::arg("seed"), py::arg("key"), "games.splitmix.seed_state(seed, key) (for tests).");
  m.def(
      "fnv1a64", [](const py::bytes& data) { return splitmix::Fnv1a64(std::string(data)); },
      py::arg("data"), "games.splitmix.fnv1a64(data) (for tests).");
  m.def(
      "splitmix_random",
      [](std::uint64_t seed, const std::string& key, int n) {
        SplitMix64 random = SplitMix64::Seeded(seed, key);
        std::vector<double> values(n);
        for (double& value : values) value = random.Random();
        return values;
      },
      py::arg("seed"), py::arg("key"), py::arg("n"),
      "[SplitMix64.seeded(seed, key).random() for _ in range(n)] (for tests).");
  m.def(
      "splitmix_below",
      [](std::uint64_t seed, const std::string& key, std::uint64_t bound, int n) {
        SplitMix64 random = SplitMix64::Seeded(seed, key);
        std::vector<std::uint64_t> values(n);
        for (auto& value : values) value = random.Below(bound);
        return values;
      },
      py::arg("seed"), py::arg("key"), py::arg("bound"), py::arg("n"),
      "[SplitMix64.seeded(seed, key).below(bound) for _ in range(n)] (for tests).");
  m.def(
      "splitmix_shuffle",
      [](std::uint64_t seed, const std::string& key, int n) {
        std::vector<int> items(n);
        std::iota(items.begin(), items.end(), 0);
        SplitMix64::Seeded(seed, key).Shuffle(items);
        return items;
      },
      py::arg("seed"), py::arg("key"), py::arg("n"),
      "SplitMix64.seeded(seed, key).shuffle(list(range(n))) (for tests).");
  m.def(
      "splitmix_choices",
      [](std::uint64_t seed, const std::string& key, const std::vector<double>& weights, int k) {
        return SplitMix64::Seeded(seed, key).Choices(weights, k);
      },
      py::arg("seed"), py::arg("key"), py::arg("weights"), py::arg("k"),
      "SplitMix64.seeded(seed, key).choices(weights, k) (for tests).");
  m.def(
      "mcms_draw_outcomes",
      [](const std::vector<std::pair<std::int64_t, double>>& outcomes, int samples,
         std::uint64_t seed, const std::string& canonical_text) {
        return McmsDrawOutcomes(outcomes, samples, seed, canonical_text);
      },
      py::arg("outcomes"), py::arg("samples"), py::arg("seed"), py::arg("canonical_text"),
      "bots.mcms.draw_outcomes(outcomes, samples, sampling_seed(seed, key)) (for tests).");
}

}  // namespace starspiel
