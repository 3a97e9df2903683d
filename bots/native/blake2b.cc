#include "bots/native/blake2b.h"

#include <bit>
#include <cstddef>
#include <cstring>
#include <stdexcept>

namespace starspiel {
namespace {

// BLAKE2b's IV is SHA-512's initial hash value.
constexpr std::uint64_t kIv[8] = {
    0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
    0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
};

// The message word permutations of RFC 7693 section 2.7; rounds 10 and 11 reuse rows 0 and 1.
constexpr std::uint8_t kSigma[10][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
};

constexpr std::size_t kBlockBytes = 128;

void Mix(std::uint64_t v[16], int a, int b, int c, int d, std::uint64_t x, std::uint64_t y) {
  v[a] = v[a] + v[b] + x;
  v[d] = std::rotr(v[d] ^ v[a], 32);
  v[c] = v[c] + v[d];
  v[b] = std::rotr(v[b] ^ v[c], 24);
  v[a] = v[a] + v[b] + y;
  v[d] = std::rotr(v[d] ^ v[a], 16);
  v[c] = v[c] + v[d];
  v[b] = std::rotr(v[b] ^ v[c], 63);
}

// The compression function F; `bytes_so_far` counts the input up to the end of
// this block (a 128-bit counter whose high half is zero here).
void Compress(std::uint64_t h[8], const std::uint8_t block[kBlockBytes], std::uint64_t bytes_so_far,
              bool last) {
  std::uint64_t m[16];
  for (int i = 0; i < 16; ++i) {
    std::uint64_t word = 0;
    for (int b = 7; b >= 0; --b) word = (word << 8) | block[8 * i + b];  // little-endian
    m[i] = word;
  }
  std::uint64_t v[16];
  for (int i = 0; i < 8; ++i) {
    v[i] = h[i];
    v[i + 8] = kIv[i];
  }
  v[12] ^= bytes_so_far;
  if (last) v[14] = ~v[14];
  for (int round = 0; round < 12; ++round) {
    const std::uint8_t* s = kSigma[round % 10];
    Mix(v, 0, 4, 8, 12, m[s[0]], m[s[1]]);
    Mix(v, 1, 5, 9, 13, m[s[2]], m[s[3]]);
    Mix(v, 2, 6, 10, 14, m[s[4]], m[s[5]]);
    Mix(v, 3, 7, 11, 15, m[s[6]], m[s[7]]);
    Mix(v, 0, 5, 10, 15, m[s[8]], m[s[9]]);
    Mix(v, 1, 6, 11, 12, m[s[10]], m[s[11]]);
    Mix(v, 2, 7, 8, 13, m[s[12]], m[s[13]]);
    Mix(v, 3, 4, 9, 14, m[s[14]], m[s[15]]);
  }
  for (int i = 0; i < 8; ++i) h[i] ^= v[i] ^ v[i + 8];
}

}  // namespace

std::vector<std::uint8_t> Blake2b(std::string_view data, int digest_size) {
  if (digest_size < 1 || digest_size > 64) {
    throw std::invalid_argument("blake2b: digest_size must be in [1, 64]");
  }
  std::uint64_t h[8];
  for (int i = 0; i < 8; ++i) h[i] = kIv[i];
  // Parameter block: depth 1, fanout 1, no key, the digest size.
  h[0] ^= 0x01010000ULL ^ static_cast<std::uint64_t>(digest_size);
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(data.data());
  const std::size_t size = data.size();
  std::size_t done = 0;
  // Every full block but the last is compressed as not final; the last block
  // (possibly partial, or empty for empty input) is zero-padded and final.
  while (size - done > kBlockBytes) {
    done += kBlockBytes;
    Compress(h, bytes + done - kBlockBytes, done, false);
  }
  std::uint8_t last[kBlockBytes] = {};
  if (size > done) std::memcpy(last, bytes + done, size - done);
  Compress(h, last, size, true);
  std::vector<std::uint8_t> digest(digest_size);
  for (int i = 0; i < digest_size; ++i) digest[i] = static_cast<std::uint8_t>(h[i / 8] >> (8 * (i % 8)));
  return digest;
}

std::uint64_t Blake2b64(std::string_view data) {
  const std::vector<std::uint8_t> digest = Blake2b(data, 8);
  std::uint64_t value = 0;
  for (int i = 7; i >= 0; --i) value = (value << 8) | digest[i];
  return value;
}

}  // namespace starspiel
