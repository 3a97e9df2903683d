// CPython 3.11's random.Random (MT19937) and SHA-512, reproduced bit for bit so
// the native engine draws the same chance outcomes as the Python engine (MCMS).
#ifndef STARSPIEL_BOTS_NATIVE_PYRANDOM_H_
#define STARSPIEL_BOTS_NATIVE_PYRANDOM_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace starspiel::pyrandom {

// hashlib.sha512(data).digest(); random.Random(str) seeds from it.
std::array<std::uint8_t, 64> Sha512(std::string_view data);

// The little-endian 32-bit words of the non-negative int whose big-endian bytes
// are `bytes` (int.from_bytes(bytes, "big")), without high zero words; [0] for 0.
std::vector<std::uint32_t> WordsFromBigEndian(const std::uint8_t* bytes, std::size_t size);

// random.Random(text).shuffle(list(range(n))) for each text, written to
// out[t * n + i]. The same permutations as Random::FromString(text).Shuffle, but
// up to 48 seedings run side by side (six interleaved chains of eight lanes):
// each is a chain of 1,247 dependent steps, and a Ballard tree needs one per
// interior node. Keys of different lengths may share a call.
void ShuffledRanges(const std::string_view* texts, std::size_t count, int n, int* out);
void ShuffledRanges(const std::vector<std::string>& texts, int n, int* out);

// CPython's random.Random: the same stream of numbers for the same seed.
class Random {
 public:
  // random.Random(n) for the int n >= 0 whose little-endian 32-bit words are
  // `key`. High zero words are dropped (CPython keys with the int's significant
  // words only); an empty key or all zeros is the int 0 (key [0]).
  static Random FromWords(const std::vector<std::uint32_t>& key);
  static Random FromInt(std::uint64_t seed);          // random.Random(seed)
  static Random FromString(const std::string& text);  // random.Random(text), version 2

  std::uint32_t GenRandUint32();  // the next raw MT19937 output
  double Random01();              // random.random()
  // random.getrandbits(k) for 0 <= k <= 64 (k = 0 is 0 and draws nothing).
  std::uint64_t GetRandBits(int k);
  // random._randbelow(n) for n >= 1: getrandbits(n.bit_length()) until < n.
  std::uint64_t RandBelow(std::uint64_t n);
  // random.shuffle(x).
  template <class T>
  void Shuffle(std::vector<T>& x);
  // random.choices(range(n), weights=weights, k=k) with n = weights.size().
  // Throws std::invalid_argument where Python raises (no weights, total <= 0
  // or not finite).
  std::vector<int> Choices(const std::vector<double>& weights, int k);
  // random.choices(range(n), k=k): no weights, floor(random() * n).
  std::vector<int> ChoicesUniform(int n, int k);

 private:
  static constexpr int kN = 624;
  Random() = default;
  void InitGenRand(std::uint32_t s);
  void InitByArray(const std::vector<std::uint32_t>& key);
  void Twist();

  std::array<std::uint32_t, kN> mt_{};
  int mti_ = kN + 1;
};

template <class T>
void Random::Shuffle(std::vector<T>& x) {
  // From the last position down to 1, swap with a uniform earlier-or-same one.
  for (std::size_t i = x.size(); i-- > 1;) {
    const auto j = static_cast<std::size_t>(RandBelow(i + 1));
    using std::swap;
    swap(x[i], x[j]);
  }
}

}  // namespace starspiel::pyrandom

#endif  // STARSPIEL_BOTS_NATIVE_PYRANDOM_H_
