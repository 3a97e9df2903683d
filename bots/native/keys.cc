// Keys as bots/keys.py builds them, as 128-bit numbers (see keys.h).
#include "bots/native/keys.h"

#include <cstring>
#include <map>
#include <mutex>

namespace starspiel {
namespace {

std::map<std::string, KeyScheme>& Schemes() {
  static auto* schemes = new std::map<std::string, KeyScheme>();
  return *schemes;
}

std::mutex& SchemesMutex() {
  static auto* mutex = new std::mutex();
  return *mutex;
}

}  // namespace

// mirrors: bots/keys.py history_digest
Key HistoryDigest(const std::vector<open_spiel::Action>& history) {
  Key digest = 0;
  for (open_spiel::Action action : history) digest = ExtendDigest(digest, action);
  return digest;
}

Key TextKey(const std::string& text) {
  // Eight bytes per coefficient, then the length: injective, so two texts
  // collide only for the few multipliers that are roots of their difference.
  Key digest = 0;
  const std::size_t size = text.size();
  std::size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    std::uint64_t chunk;
    std::memcpy(&chunk, text.data() + i, 8);
    digest = ExtendDigest(digest, chunk);
  }
  if (i < size) {
    std::uint64_t chunk = 0;
    std::memcpy(&chunk, text.data() + i, size - i);
    digest = ExtendDigest(digest, chunk);
  }
  return ExtendDigest(digest, size);
}

bool RegisterKeyScheme(const std::string& short_name, KeyScheme scheme) {
  std::lock_guard<std::mutex> lock(SchemesMutex());
  Schemes()[short_name] = std::move(scheme);
  return true;
}

const KeyScheme* FindKeyScheme(const std::string& short_name) {
  std::lock_guard<std::mutex> lock(SchemesMutex());
  auto it = Schemes().find(short_name);
  return it == Schemes().end() ? nullptr : &it->second;
}

std::string PythonRepr(const std::string& text) {
  const bool has_single = text.find('\'') != std::string::npos;
  const bool has_double = text.find('"') != std::string::npos;
  const char quote = has_single && !has_double ? '"' : '\'';
  std::string out(1, quote);
  static const char* kHex = "0123456789abcdef";
  for (unsigned char c : text) {
    if (c == static_cast<unsigned char>(quote) || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  out += quote;
  return out;
}

// bots/keys.py's string_key: (current player, str(state)).
std::string PlayerAndString(const open_spiel::State& state) {
  return std::to_string(state.CurrentPlayer()) + '|' + state.ToString();
}

std::string PlayerAndStringText(const open_spiel::State& state) {
  return "(" + std::to_string(state.CurrentPlayer()) + "," + PythonRepr(state.ToString()) + ")";
}

}  // namespace starspiel
