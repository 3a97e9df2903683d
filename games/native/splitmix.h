// The one random generator of both engines: SplitMix64 seeded by (seed, key), the
// C++ twin of games/splitmix.py (its docstrings and docs/guide/random_numbers.md define it).
// Ballard's random trees and MCMS's draws use it, so both engines build the same
// trees and draw the same outcomes.
#ifndef STARSPIEL_GAMES_NATIVE_SPLITMIX_H_
#define STARSPIEL_GAMES_NATIVE_SPLITMIX_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

namespace starspiel::splitmix {

inline constexpr std::uint64_t kGamma = 0x9E3779B97F4A7C15ULL;
inline constexpr std::uint64_t kMix1 = 0xBF58476D1CE4E5B9ULL;
inline constexpr std::uint64_t kMix2 = 0x94D049BB133111EBULL;
inline constexpr std::uint64_t kFnvOffset = 0xCBF29CE484222325ULL;
inline constexpr std::uint64_t kFnvPrime = 0x100000001B3ULL;

// SplitMix64's output function (a bijection of 64-bit words).
inline std::uint64_t Mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * kMix1;
  z = (z ^ (z >> 27)) * kMix2;
  return z ^ (z >> 31);
}

// FNV-1a 64, streamed: Fnv1a64(Fnv1a64(kFnvOffset, a), b) hashes a then b.
inline std::uint64_t Fnv1a64(std::uint64_t h, std::string_view bytes) {
  for (const char c : bytes) h = (h ^ static_cast<unsigned char>(c)) * kFnvPrime;
  return h;
}
inline std::uint64_t Fnv1a64(std::string_view bytes) { return Fnv1a64(kFnvOffset, bytes); }

// The initial state of (seed, key) from the key's FNV-1a hash: hash ^ Mix64(seed + gamma).
inline std::uint64_t SeedState(std::uint64_t seed, std::uint64_t key_hash) {
  return key_hash ^ Mix64(seed + kGamma);
}

class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t state) : state_(state) {}
  // The generator of (seed, key), key in UTF-8 (games/splitmix.py SplitMix64.seeded).
  static SplitMix64 Seeded(std::uint64_t seed, std::string_view key) {
    return SplitMix64(SeedState(seed, Fnv1a64(key)));
  }

  std::uint64_t Next64() {
    state_ += kGamma;
    return Mix64(state_);
  }
  // A uniform double in [0, 1): the top 53 bits times 2^-53.
  double Random() { return static_cast<double>(Next64() >> 11) * 0x1.0p-53; }
  // An unbiased integer in [0, n), n >= 1: Lemire's multiply-shift with rejection.
  std::uint64_t Below(std::uint64_t n) {
    unsigned __int128 m = static_cast<unsigned __int128>(Next64()) * n;
    auto low = static_cast<std::uint64_t>(m);
    if (low < n) {
      const std::uint64_t threshold = (0 - n) % n;  // 2^64 mod n
      while (low < threshold) {
        m = static_cast<unsigned __int128>(Next64()) * n;
        low = static_cast<std::uint64_t>(m);
      }
    }
    return static_cast<std::uint64_t>(m >> 64);
  }
  // Fisher-Yates: for i from size-1 down to 1, swap i with Below(i + 1).
  template <class T>
  void Shuffle(T* items, std::size_t size) {
    for (std::size_t i = size; i-- > 1;) {
      using std::swap;
      swap(items[i], items[Below(i + 1)]);
    }
  }
  template <class T>
  void Shuffle(std::vector<T>& items) {
    Shuffle(items.data(), items.size());
  }
  // `k` indices drawn with replacement, index i with probability weights[i] / total:
  // cumulative weights summed left to right, then for each draw the first i whose
  // cumulative weight exceeds Random() * total (at most the last index). Throws
  // std::invalid_argument unless the total is positive and finite.
  std::vector<int> Choices(const std::vector<double>& weights, int k) {
    std::vector<double> cumulative;
    cumulative.reserve(weights.size());
    double total = 0.0;
    for (const double weight : weights) {
      total += weight;
      cumulative.push_back(total);
    }
    if (cumulative.empty() || !(total > 0.0) || std::isinf(total)) {
      throw std::invalid_argument("choices needs weights with a positive finite total");
    }
    const auto last = cumulative.end() - 1;
    std::vector<int> drawn(k);
    for (int& index : drawn) {
      const double target = Random() * total;
      index =
          static_cast<int>(std::upper_bound(cumulative.begin(), last, target) - cumulative.begin());
    }
    return drawn;
  }

 private:
  std::uint64_t state_;
};

}  // namespace starspiel::splitmix

#endif  // STARSPIEL_GAMES_NATIVE_SPLITMIX_H_
