#include "bots/native/pyrandom.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <utility>

namespace starspiel::pyrandom {
namespace {

// SHA-512 (FIPS 180-4): the first 64 bits of the fractional parts of the cube
// roots of the first 80 primes.
constexpr std::uint64_t kSha512K[80] = {
    0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL, 0xe9b5dba58189dbbcULL,
    0x3956c25bf348b538ULL, 0x59f111f1b605d019ULL, 0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL,
    0xd807aa98a3030242ULL, 0x12835b0145706fbeULL, 0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL,
    0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL, 0xc19bf174cf692694ULL,
    0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL, 0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL,
    0x2de92c6f592b0275ULL, 0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL,
    0x983e5152ee66dfabULL, 0xa831c66d2db43210ULL, 0xb00327c898fb213fULL, 0xbf597fc7beef0ee4ULL,
    0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL, 0x06ca6351e003826fULL, 0x142929670a0e6e70ULL,
    0x27b70a8546d22ffcULL, 0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL, 0x53380d139d95b3dfULL,
    0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL, 0x92722c851482353bULL,
    0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL, 0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL,
    0xd192e819d6ef5218ULL, 0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL,
    0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL, 0x2748774cdf8eeb99ULL, 0x34b0bcb5e19b48a8ULL,
    0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL, 0x5b9cca4f7763e373ULL, 0x682e6ff3d6b2b8a3ULL,
    0x748f82ee5defb2fcULL, 0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
    0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL, 0xc67178f2e372532bULL,
    0xca273eceea26619cULL, 0xd186b8c721c0c207ULL, 0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL,
    0x06f067aa72176fbaULL, 0x0a637dc5a2c898a6ULL, 0x113f9804bef90daeULL, 0x1b710b35131c471bULL,
    0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL, 0x431d67c49c100d4cULL,
    0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL, 0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL,
};

// The first 64 bits of the fractional parts of the square roots of the first 8 primes.
constexpr std::uint64_t kSha512Init[8] = {
    0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
    0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
};

// SHA-512's compression of one block whose 16 big-endian words are w[0..15], for a
// word type W: std::uint64_t, or a vector of them (one message per lane).
template <class W>
__attribute__((always_inline)) inline void Sha512Compress(W state[8], W w[80]) {
  auto rotr = [](W x, int r) -> W { return (x >> r) | (x << (64 - r)); };
  for (int t = 16; t < 80; ++t) {
    const W s0 = rotr(w[t - 15], 1) ^ rotr(w[t - 15], 8) ^ (w[t - 15] >> 7);
    const W s1 = rotr(w[t - 2], 19) ^ rotr(w[t - 2], 61) ^ (w[t - 2] >> 6);
    w[t] = w[t - 16] + s0 + w[t - 7] + s1;
  }
  W a = state[0], b = state[1], c = state[2], d = state[3];
  W e = state[4], f = state[5], g = state[6], h = state[7];
  for (int t = 0; t < 80; ++t) {
    const W sum1 = rotr(e, 14) ^ rotr(e, 18) ^ rotr(e, 41);
    const W choose = (e & f) ^ (~e & g);
    const W t1 = h + sum1 + choose + kSha512K[t] + w[t];
    const W sum0 = rotr(a, 28) ^ rotr(a, 34) ^ rotr(a, 39);
    const W majority = (a & b) ^ (a & c) ^ (b & c);
    const W t2 = sum0 + majority;
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  state[0] += a;
  state[1] += b;
  state[2] += c;
  state[3] += d;
  state[4] += e;
  state[5] += f;
  state[6] += g;
  state[7] += h;
}

void Sha512Block(std::uint64_t state[8], const std::uint8_t* block) {
  std::uint64_t w[80];
  for (int t = 0; t < 16; ++t) {
    std::uint64_t word = 0;
    for (int b = 0; b < 8; ++b) word = (word << 8) | block[8 * t + b];  // big-endian
    w[t] = word;
  }
  Sha512Compress(state, w);
}

// MT19937's parameters.
constexpr int kM = 397;
constexpr std::uint32_t kMatrixA = 0x9908b0dfU;
constexpr std::uint32_t kUpperMask = 0x80000000U;
constexpr std::uint32_t kLowerMask = 0x7fffffffU;

}  // namespace

std::array<std::uint8_t, 64> Sha512(std::string_view data) {
  std::uint64_t state[8];
  for (int i = 0; i < 8; ++i) state[i] = kSha512Init[i];
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(data.data());
  const std::size_t size = data.size();
  std::size_t done = 0;
  for (; size - done >= 128; done += 128) Sha512Block(state, bytes + done);
  // Padding: 0x80, zeros, then the length in bits as a 128-bit big-endian number
  // (the high 64 bits are zero for any string that fits in memory).
  std::uint8_t tail[256] = {};
  const std::size_t rest = size - done;
  for (std::size_t i = 0; i < rest; ++i) tail[i] = bytes[done + i];
  tail[rest] = 0x80;
  const std::size_t tail_size = rest + 1 + 16 <= 128 ? 128 : 256;
  const std::uint64_t bits = static_cast<std::uint64_t>(size) * 8;
  for (int b = 0; b < 8; ++b) tail[tail_size - 1 - b] = static_cast<std::uint8_t>(bits >> (8 * b));
  for (std::size_t i = 0; i < tail_size; i += 128) Sha512Block(state, tail + i);
  std::array<std::uint8_t, 64> digest;
  for (int i = 0; i < 8; ++i) {
    for (int b = 0; b < 8; ++b) {
      digest[8 * i + b] = static_cast<std::uint8_t>(state[i] >> (56 - 8 * b));  // big-endian
    }
  }
  return digest;
}

namespace {

constexpr int kShaLanes = 4;
using Vec64 = std::uint64_t __attribute__((vector_size(8 * kShaLanes)));

// Sha512Block for kShaLanes one-block messages at once (w: each lane's 16 words).
__attribute__((target_clones("avx2", "default"))) void Sha512BlockLanes(Vec64* state,
                                                                        const Vec64* message) {
  Vec64 w[80];
  for (int t = 0; t < 16; ++t) w[t] = message[t];
  Sha512Compress(state, w);
}

// The longest message that pads into one block: 0x80 and the 16-byte length follow.
constexpr std::size_t kOneBlock = 128 - 1 - 16;

// SHA-512's eight state words (the digest, big-endian word by word) of each text;
// texts of one block run kShaLanes at a time, straight from their bytes.
void Sha512States(const std::string_view* texts, std::size_t count, std::uint64_t (*states)[8]) {
  std::size_t pending[kShaLanes];
  int lanes = 0;
  Vec64 message[16] = {};
  auto flush = [&] {
    Vec64 state[8];
    for (int i = 0; i < 8; ++i) state[i] = Vec64{} + kSha512Init[i];
    Sha512BlockLanes(state, message);
    for (int l = 0; l < lanes; ++l) {
      for (int i = 0; i < 8; ++i) states[pending[l]][i] = state[i][l];
    }
    lanes = 0;
  };
  for (std::size_t t = 0; t < count; ++t) {
    const std::string_view text = texts[t];
    if (text.size() > kOneBlock) {
      const std::array<std::uint8_t, 64> digest = Sha512(text);
      for (int i = 0; i < 8; ++i) {
        std::uint64_t word = 0;
        for (int b = 0; b < 8; ++b) word = (word << 8) | digest[8 * i + b];
        states[t][i] = word;
      }
      continue;
    }
    std::uint8_t block[128] = {};
    std::memcpy(block, text.data(), text.size());
    block[text.size()] = 0x80;
    const std::uint64_t bits = static_cast<std::uint64_t>(text.size()) * 8;
    for (int b = 0; b < 8; ++b) block[127 - b] = static_cast<std::uint8_t>(bits >> (8 * b));
    for (int i = 0; i < 16; ++i) {
      std::uint64_t word;
      std::memcpy(&word, block + 8 * i, 8);
      if constexpr (std::endian::native == std::endian::little) word = __builtin_bswap64(word);
      message[i][lanes] = word;
    }
    pending[lanes++] = t;
    if (lanes == kShaLanes) flush();
  }
  if (lanes > 0) flush();
}

}  // namespace

std::vector<std::uint32_t> WordsFromBigEndian(const std::uint8_t* bytes, std::size_t size) {
  std::vector<std::uint32_t> words((size + 3) / 4, 0);
  for (std::size_t i = 0; i < size; ++i) {
    const std::size_t from_low = size - 1 - i;  // the byte's place from the least significant
    words[from_low / 4] |= static_cast<std::uint32_t>(bytes[i]) << (8 * (from_low % 4));
  }
  while (words.size() > 1 && words.back() == 0) words.pop_back();
  if (words.empty()) words.push_back(0);
  return words;
}

Random Random::FromWords(const std::vector<std::uint32_t>& key) {
  // CPython keys init_by_array with the int's significant words only, so
  // [x, 0] must seed as [x]: trim before keying.
  std::vector<std::uint32_t> trimmed = key;
  while (trimmed.size() > 1 && trimmed.back() == 0) trimmed.pop_back();
  if (trimmed.empty()) trimmed.push_back(0);
  Random random;
  random.InitByArray(trimmed);
  return random;
}

Random Random::FromInt(std::uint64_t seed) {
  return FromWords({static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)});
}

Random Random::FromString(const std::string& text) {
  // Version 2 seeding: int.from_bytes(text.encode() + sha512(text.encode()).digest()), big-endian.
  const std::array<std::uint8_t, 64> digest = Sha512(text);
  std::vector<std::uint8_t> bytes(text.begin(), text.end());
  bytes.insert(bytes.end(), digest.begin(), digest.end());
  return FromWords(WordsFromBigEndian(bytes.data(), bytes.size()));
}

void Random::InitGenRand(std::uint32_t s) {
  mt_[0] = s;
  for (int i = 1; i < kN; ++i) {
    mt_[i] = 1812433253U * (mt_[i - 1] ^ (mt_[i - 1] >> 30)) + static_cast<std::uint32_t>(i);
  }
  mti_ = kN;
}

void Random::InitByArray(const std::vector<std::uint32_t>& key) {
  InitGenRand(19650218U);
  const std::size_t key_length = key.size();
  int i = 1;
  std::size_t j = 0;
  for (std::size_t k = std::max<std::size_t>(kN, key_length); k > 0; --k) {
    mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1664525U)) + key[j] +
             static_cast<std::uint32_t>(j);
    ++i;
    ++j;
    if (i >= kN) {
      mt_[0] = mt_[kN - 1];
      i = 1;
    }
    if (j >= key_length) j = 0;
  }
  for (int k = kN - 1; k > 0; --k) {
    mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1566083941U)) -
             static_cast<std::uint32_t>(i);
    ++i;
    if (i >= kN) {
      mt_[0] = mt_[kN - 1];
      i = 1;
    }
  }
  mt_[0] = 0x80000000U;  // a non-zero state whatever the key
}

void Random::Twist() {
  auto mix = [](std::uint32_t upper, std::uint32_t lower) {
    const std::uint32_t y = (upper & kUpperMask) | (lower & kLowerMask);
    return (y >> 1) ^ ((y & 1U) ? kMatrixA : 0U);
  };
  int kk = 0;
  for (; kk < kN - kM; ++kk) mt_[kk] = mt_[kk + kM] ^ mix(mt_[kk], mt_[kk + 1]);
  for (; kk < kN - 1; ++kk) mt_[kk] = mt_[kk + (kM - kN)] ^ mix(mt_[kk], mt_[kk + 1]);
  mt_[kN - 1] = mt_[kM - 1] ^ mix(mt_[kN - 1], mt_[0]);
  mti_ = 0;
}

std::uint32_t Random::GenRandUint32() {
  if (mti_ >= kN) Twist();
  std::uint32_t y = mt_[mti_++];
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680U;
  y ^= (y << 15) & 0xefc60000U;
  y ^= y >> 18;
  return y;
}

double Random::Random01() {
  // 27 high bits then 26 high bits: a multiple of 2^-53 in [0, 1).
  const std::uint32_t a = GenRandUint32() >> 5;
  const std::uint32_t b = GenRandUint32() >> 6;
  return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

std::uint64_t Random::GetRandBits(int k) {
  if (k < 0 || k > 64) throw std::invalid_argument("getrandbits: k must be in [0, 64]");
  if (k == 0) return 0;
  if (k <= 32) return GenRandUint32() >> (32 - k);
  // Wider: 32-bit words filled least significant first, the last one truncated.
  const std::uint64_t low = GenRandUint32();
  const std::uint64_t high = GenRandUint32() >> (64 - k);
  return (high << 32) | low;
}

std::uint64_t Random::RandBelow(std::uint64_t n) {
  if (n == 0) throw std::invalid_argument("randbelow: n must be >= 1");
  const int k = static_cast<int>(std::bit_width(n));  // n.bit_length(), not (n - 1)'s: n may be 1
  std::uint64_t r = GetRandBits(k);
  while (r >= n) r = GetRandBits(k);
  return r;
}

std::vector<int> Random::Choices(const std::vector<double>& weights, int k) {
  const int n = static_cast<int>(weights.size());
  if (n == 0) throw std::invalid_argument("choices: no weights");
  std::vector<double> cumulative(n);
  double sum = 0.0;
  for (int i = 0; i < n; ++i) cumulative[i] = sum = (i == 0 ? weights[0] : sum + weights[i]);
  const double total = cumulative.back() + 0.0;
  if (total <= 0.0) throw std::invalid_argument("Total of weights must be greater than zero");
  if (!std::isfinite(total)) throw std::invalid_argument("Total of weights must be finite");
  std::vector<int> drawn;
  drawn.reserve(std::max(k, 0));
  for (int draw = 0; draw < k; ++draw) {
    // bisect_right(cumulative, x, 0, n - 1): the last index is never probed.
    const double x = Random01() * total;
    int lo = 0, hi = n - 1;
    while (lo < hi) {
      const int mid = (lo + hi) / 2;
      if (x < cumulative[mid]) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    drawn.push_back(lo);
  }
  return drawn;
}

namespace {

constexpr int kLanes = 8;
constexpr int kWords = 624;  // MT19937's state
// Outputs that need no twist beyond the first kWords - kM words' own.
constexpr int kLazyWords = kWords - kM;
// Chains of kLanes seedings interleaved in one loop: each seeding is a chain of
// 1,247 dependent steps (a multiply among them), so one chain alone waits on
// latency (vpmulld's), until about four chains keep the multiplier busy. A
// Ballard family of 20 fills three chains, or four when the siblings' keys come
// in two lengths (last numbers of one and two digits); two families, six.
constexpr int kMaxChains = 6;

// Eight lanes of 32-bit words in one value (GCC's vector extension: one AVX2
// register, or two SSE ones in the default clone).
using Vec = std::uint32_t __attribute__((vector_size(4 * kLanes)));

// init_genrand(19650218): where every init_by_array starts.
const std::array<std::uint32_t, kWords>& GenRandStart() {
  static const std::array<std::uint32_t, kWords> start = [] {
    std::array<std::uint32_t, kWords> mt{};
    mt[0] = 19650218U;
    for (int i = 1; i < kWords; ++i) {
      mt[i] = 1812433253U * (mt[i - 1] ^ (mt[i - 1] >> 30)) + static_cast<std::uint32_t>(i);
    }
    return mt;
  }();
  return start;
}

// One thread's working memory for up to kMaxChains chains (lane l of chain c).
struct ChainScratch {
  Vec pattern[kMaxChains][kWords];  // key[j] + j, j < the chain's key length
  Vec mt[kWords][kMaxChains];       // the seeded states
  // The shuffles' first draws (DrawSwaps): at word w lane l swaps x[swap_i[w]]
  // and x[swap_j[w]], for its first used[l] words; left[l] is its i after them.
  Vec swap_i[kLazyWords][kMaxChains];
  Vec swap_j[kLazyWords][kMaxChains];
  Vec used[kMaxChains];
  Vec left[kMaxChains];
};

// init_by_array for C chains of keys, chain c's keys all `lengths[c]` <= kWords
// words long; the chains' steps interleave.
template <int C>
__attribute__((always_inline)) inline void InitByArrayChains(ChainScratch& s, const int* lengths) {
  const std::array<std::uint32_t, kWords>& start = GenRandStart();
  Vec prev[C];
  const Vec* key[C];
  const Vec* key_end[C];
#pragma GCC unroll 8
  for (int c = 0; c < C; ++c) {
    prev[c] = Vec{} + start[0];
    key[c] = s.pattern[c];
    key_end[c] = s.pattern[c] + lengths[c];
  }
  // kWords steps from mt[1]: the first kWords - 1 read init_genrand's words, the
  // last (i back at 1) the word the first one wrote.
  for (int i = 1; i < kWords; ++i) {
    const Vec word = Vec{} + start[i];
#pragma GCC unroll 8
    for (int c = 0; c < C; ++c) {
      prev[c] = (word ^ ((prev[c] ^ (prev[c] >> 30)) * 1664525U)) + *key[c];
      s.mt[i][c] = prev[c];
      const Vec* next = key[c] + 1;
      key[c] = next == key_end[c] ? s.pattern[c] : next;
    }
  }
#pragma GCC unroll 8
  for (int c = 0; c < C; ++c) {
    prev[c] = (s.mt[1][c] ^ ((prev[c] ^ (prev[c] >> 30)) * 1664525U)) + *key[c];
    s.mt[1][c] = prev[c];
  }
  // Then kWords - 1 steps from mt[2], wrapping once more to mt[1] (mt[0] is
  // overwritten below, so the wrap's copy into it is left out).
  for (int i = 2; i < kWords; ++i) {
#pragma GCC unroll 8
    for (int c = 0; c < C; ++c) {
      prev[c] = (s.mt[i][c] ^ ((prev[c] ^ (prev[c] >> 30)) * 1566083941U)) -
                static_cast<std::uint32_t>(i);
      s.mt[i][c] = prev[c];
    }
  }
#pragma GCC unroll 8
  for (int c = 0; c < C; ++c) {
    s.mt[1][c] = (s.mt[1][c] ^ ((prev[c] ^ (prev[c] >> 30)) * 1566083941U)) - 1U;
    s.mt[0][c] = Vec{} + 0x80000000U;  // a non-zero state whatever the key
  }
}

// random.shuffle(list(range(n))) draws for every lane of the C seeded chains, in
// vector form: for i from n - 1 down to 1 it swaps x[i] with x[j], j the top k
// bits of the next output (k = the bit length of i + 1), drawn again while j > i.
// Word w (< count <= kLazyWords, each needing only mt[w], mt[w + 1] and
// mt[w + kM]) gives the pair (i, j), j = i when rejected (a no-op swap); the
// words stop early once every lane is done. 1 <= n - 1 < 2^24: 32 - k comes
// from the exponent of i + 1 as a float.
template <int C>
__attribute__((always_inline)) inline void DrawSwaps(ChainScratch& s, int count, int n) {
  using Signed = std::int32_t __attribute__((vector_size(4 * kLanes)));
  using Float = float __attribute__((vector_size(4 * kLanes)));
  Vec i[C], used[C];
#pragma GCC unroll 8
  for (int c = 0; c < C; ++c) {
    i[c] = Vec{} + static_cast<std::uint32_t>(n - 1);
    used[c] = Vec{};
  }
  for (int w = 0; w < count; ++w) {
    Vec drawing = Vec{};
#pragma GCC unroll 8
    for (int c = 0; c < C; ++c) {
      const Vec y = (s.mt[w][c] & kUpperMask) | (s.mt[w + 1][c] & kLowerMask);
      Vec v = s.mt[w + kM][c] ^ (y >> 1) ^ ((Vec{} - (y & 1U)) & kMatrixA);
      v ^= v >> 11;
      v ^= (v << 7) & 0x9d2c5680U;
      v ^= (v << 15) & 0xefc60000U;
      v ^= v >> 18;
      const Float bound = __builtin_convertvector(reinterpret_cast<Signed>(i[c] + 1U), Float);
      const Vec shift = 158U - (reinterpret_cast<Vec>(bound) >> 23);  // 127 + 31 - exponent
      const Vec r = v >> shift;
      const Vec active = reinterpret_cast<Vec>(i[c] != 0U);
      const Vec accept = reinterpret_cast<Vec>(r <= i[c]) & active;
      s.swap_i[w][c] = i[c];
      s.swap_j[w][c] = i[c] ^ ((r ^ i[c]) & accept);
      used[c] -= active;
      i[c] += accept;  // all ones: minus one
      drawing |= i[c];
    }
    if (w % 8 == 7) {
      std::uint64_t halves[kLanes / 2];
      std::memcpy(halves, &drawing, sizeof(halves));
      if ((halves[0] | halves[1] | halves[2] | halves[3]) == 0) break;
    }
  }
#pragma GCC unroll 8
  for (int c = 0; c < C; ++c) {
    s.used[c] = used[c];
    s.left[c] = i[c];
  }
}

__attribute__((target_clones("avx2", "default"))) void SeedChains(ChainScratch& s, int chains,
                                                                  const int* lengths, int draws,
                                                                  int n) {
  switch (chains) {
    case 1:
      InitByArrayChains<1>(s, lengths);
      DrawSwaps<1>(s, draws, n);
      break;
    case 2:
      InitByArrayChains<2>(s, lengths);
      DrawSwaps<2>(s, draws, n);
      break;
    case 3:
      InitByArrayChains<3>(s, lengths);
      DrawSwaps<3>(s, draws, n);
      break;
    case 4:
      InitByArrayChains<4>(s, lengths);
      DrawSwaps<4>(s, draws, n);
      break;
    case 5:
      InitByArrayChains<5>(s, lengths);
      DrawSwaps<5>(s, draws, n);
      break;
    default:
      static_assert(kMaxChains == 6);
      InitByArrayChains<6>(s, lengths);
      DrawSwaps<6>(s, draws, n);
      break;
  }
}

// Output k < kLazyWords of lane l of chain c, from the state (past the vector ones).
std::uint32_t LazyOutput(const ChainScratch& s, int k, int c, int l) {
  const std::uint32_t y = (s.mt[k][c][l] & kUpperMask) | (s.mt[k + 1][c][l] & kLowerMask);
  std::uint32_t v = s.mt[k + kM][c][l] ^ (y >> 1) ^ ((y & 1U) ? kMatrixA : 0U);
  v ^= v >> 11;
  v ^= (v << 7) & 0x9d2c5680U;
  v ^= (v << 15) & 0xefc60000U;
  v ^= v >> 18;
  return v;
}

// random.shuffle(list(range(n))) for lane l of chain c, from its DrawSwaps pairs
// and then its further lazy words; false if it needs more than those (the caller
// then seeds that text the ordinary way).
bool ShuffleLane(const ChainScratch& s, int c, int l, int n, int* out) {
  for (int i = 0; i < n; ++i) out[i] = i;
  const int used = static_cast<int>(s.used[c][l]);
  for (int w = 0; w < used; ++w) {
    const std::uint32_t a = s.swap_i[w][c][l];
    const std::uint32_t b = s.swap_j[w][c][l];
    const int x = out[a];
    out[a] = out[b];
    out[b] = x;
  }
  int word = used;
  for (int i = static_cast<int>(s.left[c][l]); i >= 1; --i) {
    const std::uint32_t bound = static_cast<std::uint32_t>(i) + 1;
    const int shift = __builtin_clz(bound);
    std::uint32_t r;
    do {
      if (word >= kLazyWords) return false;
      r = LazyOutput(s, word++, c, l) >> shift;
    } while (r >= bound);
    std::swap(out[i], out[r]);
  }
  return true;
}

// The words of a version-2 string seed, int.from_bytes(text + digest, "big"),
// little-endian without high zero words, written to key; returns their count.
// key holds (text.size() + 3) / 4 + 16 words.
int SeedKey(std::string_view text, const std::uint64_t digest[8], std::uint32_t* key) {
  for (int i = 0; i < 8; ++i) {
    key[2 * i] = static_cast<std::uint32_t>(digest[7 - i]);
    key[2 * i + 1] = static_cast<std::uint32_t>(digest[7 - i] >> 32);
  }
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(text.data());
  int length = 16;
  std::size_t end = text.size();
  for (; end >= 4; end -= 4) {
    std::uint32_t word;
    std::memcpy(&word, bytes + end - 4, 4);
    if constexpr (std::endian::native == std::endian::little) word = __builtin_bswap32(word);
    key[length++] = word;
  }
  if (end > 0) {
    std::uint32_t word = 0;
    for (std::size_t b = 0; b < end; ++b) word = (word << 8) | bytes[b];
    key[length++] = word;
  }
  while (length > 1 && key[length - 1] == 0) --length;
  return length;
}

// Per-thread buffers, kept between calls.
struct Scratch {
  std::unique_ptr<ChainScratch> chains = std::make_unique<ChainScratch>();
  std::vector<std::array<std::uint64_t, 8>> digests;
  std::vector<std::uint32_t> keys;                   // each text's key words, one after another
  std::vector<std::size_t> key_start;                // where each text's key starts in keys
  std::vector<std::pair<int, std::uint32_t>> order;  // (key length, text) by length
};

}  // namespace

void ShuffledRanges(const std::string_view* texts, std::size_t count, int n, int* out) {
  thread_local Scratch scratch;
  Scratch& sc = scratch;
  ChainScratch& s = *sc.chains;
  sc.digests.resize(count);
  Sha512States(texts, count, reinterpret_cast<std::uint64_t(*)[8]>(sc.digests.data()));
  // The keys (text + SHA-512, as int words); the lanes of one chain share a key length.
  sc.key_start.resize(count + 1);
  std::size_t total = 0;
  for (std::size_t t = 0; t < count; ++t) {
    sc.key_start[t] = total;
    total += (texts[t].size() + 3) / 4 + 16;
  }
  sc.key_start[count] = total;
  sc.keys.resize(total);
  sc.order.clear();
  for (std::size_t t = 0; t < count; ++t) {
    const int length = SeedKey(texts[t], sc.digests[t].data(), sc.keys.data() + sc.key_start[t]);
    sc.order.emplace_back(length, static_cast<std::uint32_t>(t));
  }
  std::sort(sc.order.begin(), sc.order.end());  // by length, then by text: stable
  auto fallback = [&](std::size_t t) {
    int* items = out + t * n;
    std::vector<int> shuffled(n);
    for (int i = 0; i < n; ++i) shuffled[i] = i;
    Random::FromString(std::string(texts[t])).Shuffle(shuffled);
    std::copy(shuffled.begin(), shuffled.end(), items);
  };
  // Words drawn in vector form: a little more than a shuffle of n uses on average
  // (under 1.5 a draw), the rest one at a time when a lane needs them.
  const bool vector_draws = n >= 2 && n <= (1 << 24);
  const int draws = vector_draws ? std::min(kLazyWords, (3 * n / 2 + 8 + 7) / 8 * 8) : 0;
  const int first_i = std::max(n, 1);  // DrawSwaps' i + 1 when it draws nothing
  std::size_t first = 0;
  while (first < sc.order.size() && sc.order[first].first <= kWords) {
    int chains = 0;
    int lengths[kMaxChains];
    std::size_t members[kMaxChains][kLanes];
    int lanes[kMaxChains];
    while (chains < kMaxChains && first < sc.order.size() && sc.order[first].first <= kWords) {
      const int length = sc.order[first].first;
      int l = 0;
      while (l < kLanes && first < sc.order.size() && sc.order[first].first == length) {
        members[chains][l++] = sc.order[first++].second;
      }
      // Idle lanes keep whatever they held: their outcomes are not read.
      for (int m = 0; m < l; ++m) {
        const std::uint32_t* key = sc.keys.data() + sc.key_start[members[chains][m]];
        for (int j = 0; j < length; ++j) {
          s.pattern[chains][j][m] = key[j] + static_cast<std::uint32_t>(j);
        }
      }
      lengths[chains] = length;
      lanes[chains] = l;
      ++chains;
    }
    SeedChains(s, chains, lengths, draws, first_i);
    for (int c = 0; c < chains; ++c) {
      for (int l = 0; l < lanes[c]; ++l) {
        const std::size_t t = members[c][l];
        if (!ShuffleLane(s, c, l, n, out + t * n)) fallback(t);
      }
    }
  }
  // Keys longer than the state: init_by_array then runs longer than the lanes do.
  for (; first < sc.order.size(); ++first) fallback(sc.order[first].second);
}

void ShuffledRanges(const std::vector<std::string>& texts, int n, int* out) {
  std::vector<std::string_view> views(texts.begin(), texts.end());
  ShuffledRanges(views.data(), views.size(), n, out);
}

std::vector<int> Random::ChoicesUniform(int n, int k) {
  std::vector<int> drawn;
  drawn.reserve(std::max(k, 0));
  if (n <= 0 && k > 0) throw std::invalid_argument("choices: empty population");
  const double size = n;
  for (int draw = 0; draw < k; ++draw) {
    drawn.push_back(static_cast<int>(std::floor(Random01() * size)));
  }
  return drawn;
}

}  // namespace starspiel::pyrandom
