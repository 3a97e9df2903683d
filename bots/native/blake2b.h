// BLAKE2b (RFC 7693), unkeyed: hashlib.blake2b(data, digest_size=n). MCMS seeds
// a chance node's draws from the 8-byte digest of its key's canonical text.
#ifndef STARSPIEL_BOTS_NATIVE_BLAKE2B_H_
#define STARSPIEL_BOTS_NATIVE_BLAKE2B_H_

#include <cstdint>
#include <string_view>
#include <vector>

namespace starspiel {

// hashlib.blake2b(data, digest_size=digest_size).digest(), 1 <= digest_size <= 64.
std::vector<std::uint8_t> Blake2b(std::string_view data, int digest_size);

// int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "little").
std::uint64_t Blake2b64(std::string_view data);

}  // namespace starspiel

#endif  // STARSPIEL_BOTS_NATIVE_BLAKE2B_H_
