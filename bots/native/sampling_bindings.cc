// Test hooks for MCMS's sampling and the reproduction of Python's random module:
// tests/test_native_sampling.py compares each with the real Python.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "bots/native/bindings.h"
#include "bots/native/blake2b.h"
#include "bots/native/pyrandom.h"
#include "bots/native/sampling.h"

namespace py = pybind11;

namespace starspiel {
namespace {

using pyrandom::Random;

// abs(value)'s little-endian 32-bit words: pybind11 casts no int wider than 64
// bits, so Python spells the int out as bytes.
std::vector<std::uint32_t> IntWords(const py::int_& value) {
  const py::object n = py::module_::import("builtins").attr("abs")(value);
  const auto bits = n.attr("bit_length")().cast<std::size_t>();
  const std::size_t size = std::max<std::size_t>(4, (bits + 31) / 32 * 4);
  const auto bytes = n.attr("to_bytes")(size, "little").cast<std::string>();
  std::vector<std::uint32_t> words(size / 4, 0);
  for (std::size_t i = 0; i < size; ++i) {
    const auto byte = static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i]));
    words[i / 4] |= byte << (8 * (i % 4));
  }
  return words;
}

py::int_ WordsInt(const std::vector<std::uint32_t>& words) {
  std::string bytes;
  for (std::uint32_t word : words) {
    for (int b = 0; b < 4; ++b) bytes.push_back(static_cast<char>(word >> (8 * b)));
  }
  return py::int_(
      py::module_::import("builtins").attr("int").attr("from_bytes")(py::bytes(bytes), "little"));
}

// random.Random(seed) for a seed that is an int (any size) or a str.
Random Seeded(const py::object& seed) {
  if (py::isinstance<py::str>(seed)) return Random::FromString(seed.cast<std::string>());
  if (py::isinstance<py::int_>(seed)) return Random::FromWords(IntWords(seed.cast<py::int_>()));
  throw py::type_error("seed must be an int or a str");
}

py::bytes Bytes(const std::vector<std::uint8_t>& data) {
  return py::bytes(reinterpret_cast<const char*>(data.data()), data.size());
}

}  // namespace

void BindSampling(py::module_& m) {
  m.def(
      "py_random_floats",
      [](const py::object& seed, int n) {
        Random random = Seeded(seed);
        std::vector<double> values(n);
        for (double& value : values) value = random.Random01();
        return values;
      },
      py::arg("seed"), py::arg("n"),
      "[random.Random(seed).random() for _ in range(n)], seed an int or a str (for tests).");
  m.def(
      "py_random_floats_u64",
      [](std::uint64_t seed, int n) {
        Random random = Random::FromInt(seed);
        std::vector<double> values(n);
        for (double& value : values) value = random.Random01();
        return values;
      },
      py::arg("seed"), py::arg("n"), "py_random_floats through Random::FromInt (for tests).");
  m.def(
      "py_random_from_string",
      [](const std::string& text, int n) {
        Random random = Random::FromString(text);
        std::vector<double> values(n);
        for (double& value : values) value = random.Random01();
        return values;
      },
      py::arg("text"), py::arg("n"), "py_random_floats through Random::FromString (for tests).");
  m.def(
      "py_getrandbits",
      [](const py::object& seed, int k, int n) {
        Random random = Seeded(seed);
        std::vector<std::uint64_t> values(n);
        for (auto& value : values) value = random.GetRandBits(k);
        return values;
      },
      py::arg("seed"), py::arg("k"), py::arg("n"),
      "[random.Random(seed).getrandbits(k) for _ in range(n)] (for tests).");
  m.def(
      "py_randbelow",
      [](const py::object& seed, std::uint64_t bound, int n) {
        Random random = Seeded(seed);
        std::vector<std::uint64_t> values(n);
        for (auto& value : values) value = random.RandBelow(bound);
        return values;
      },
      py::arg("seed"), py::arg("bound"), py::arg("n"),
      "[random.Random(seed)._randbelow(bound) for _ in range(n)] (for tests).");
  m.def(
      "py_shuffle",
      [](const py::object& seed, int n) {
        Random random = Seeded(seed);
        std::vector<int> items(n);
        std::iota(items.begin(), items.end(), 0);
        random.Shuffle(items);
        return items;
      },
      py::arg("seed"), py::arg("n"), "random.Random(seed).shuffle(list(range(n))) (for tests).");
  m.def(
      "py_shuffled_ranges",
      [](const std::vector<std::string>& texts, int n) {
        std::vector<int> flat(texts.size() * static_cast<std::size_t>(n));
        pyrandom::ShuffledRanges(texts, n, flat.data());
        std::vector<std::vector<int>> perms;
        for (std::size_t t = 0; t < texts.size(); ++t) {
          perms.emplace_back(flat.begin() + t * n, flat.begin() + (t + 1) * n);
        }
        return perms;
      },
      py::arg("texts"), py::arg("n"),
      "[random.Random(t).shuffle(list(range(n))) result for t in texts], seeded side by side "
      "(for tests).");
  m.def(
      "py_choices",
      [](const py::object& seed, const std::vector<double>& weights, int k) {
        return Seeded(seed).Choices(weights, k);
      },
      py::arg("seed"), py::arg("weights"), py::arg("k"),
      "random.Random(seed).choices(range(len(weights)), weights=weights, k=k) (for tests).");
  m.def(
      "py_choices_uniform",
      [](const py::object& seed, int n, int k) { return Seeded(seed).ChoicesUniform(n, k); },
      py::arg("seed"), py::arg("n"), py::arg("k"),
      "random.Random(seed).choices(range(n), k=k) (for tests).");
  m.def(
      "sha512",
      [](const py::bytes& data) {
        const auto digest = pyrandom::Sha512(std::string(data));
        return Bytes({digest.begin(), digest.end()});
      },
      py::arg("data"), "hashlib.sha512(data).digest() (for tests).");
  m.def(
      "blake2b",
      [](const py::bytes& data, int digest_size) {
        return Bytes(Blake2b(std::string(data), digest_size));
      },
      py::arg("data"), py::arg("digest_size"),
      "hashlib.blake2b(data, digest_size=digest_size).digest() (for tests).");
  m.def(
      "blake2b8", [](const py::bytes& data) { return Bytes(Blake2b(std::string(data), 8)); },
      py::arg("data"), "hashlib.blake2b(data, digest_size=8).digest() (for tests).");
  m.def(
      "mcms_sampling_seed",
      [](std::uint64_t seed, const std::string& canonical_text) {
        return WordsInt(SamplingSeed(seed, canonical_text));
      },
      py::arg("seed"), py::arg("canonical_text"),
      "bots.mcms.sampling_seed(seed, key) for the key of that canonical text (for tests).");
  m.def(
      "mcms_draw_outcomes",
      [](const std::vector<std::pair<std::int64_t, double>>& outcomes, int samples,
         std::uint64_t seed, const std::string& canonical_text) {
        return DrawOutcomes(outcomes, samples, SamplingSeed(seed, canonical_text));
      },
      py::arg("outcomes"), py::arg("samples"), py::arg("seed"), py::arg("canonical_text"),
      "bots.mcms.draw_outcomes(outcomes, samples, sampling_seed(seed, key)) (for tests).");
  m.def(
      "mcms_draw_outcomes_seeded",
      [](const std::vector<std::pair<std::int64_t, double>>& outcomes, int samples,
         const py::int_& seed) { return DrawOutcomes(outcomes, samples, IntWords(seed)); },
      py::arg("outcomes"), py::arg("samples"), py::arg("seed"),
      "bots.mcms.draw_outcomes(outcomes, samples, seed) for any int seed (for tests).");
}

}  // namespace starspiel
