// The adapter registry (registry.h), and the generic lookups the search uses.
#include "bots/native/adapters/registry.h"

#include <map>
#include <mutex>
#include <stdexcept>

#include "bots/native/internals_gate.h"

namespace starspiel {
namespace {

std::map<std::string, GameAdapter>& Adapters() {
  static auto* adapters = new std::map<std::string, GameAdapter>();
  return *adapters;
}

std::mutex& AdaptersMutex() {
  static auto* mutex = new std::mutex();
  return *mutex;
}

}  // namespace

bool RegisterGameAdapter(const std::string& game, GameAdapter adapter) {
  std::lock_guard<std::mutex> lock(AdaptersMutex());
  if (!Adapters().emplace(game, adapter).second) {
    throw std::logic_error("a second native adapter registered for " + game);
  }
  return true;
}

const GameAdapter* FindGameAdapter(const std::string& game) {
  std::lock_guard<std::mutex> lock(AdaptersMutex());
  auto it = Adapters().find(game);
  return it == Adapters().end() ? nullptr : &it->second;
}

FastMoves FastMovesFor(const std::string& game) {
  const GameAdapter* adapter = FindGameAdapter(game);
  if (adapter == nullptr || (adapter->reads_private_fields && !FieldPathsOn())) return nullptr;
  return adapter->moves;
}

FastPlayer FastPlayerFor(const std::string& game) {
  const GameAdapter* adapter = FindGameAdapter(game);
  if (adapter == nullptr || (adapter->reads_private_fields && !FieldPathsOn())) return nullptr;
  return adapter->player;
}

const FieldRestorer* FindFieldRestorer(const std::string& game, const open_spiel::State& state) {
  if (!FieldPathsOn()) return nullptr;
  const GameAdapter* adapter = FindGameAdapter(game);
  if (adapter == nullptr || adapter->restorer == nullptr) return nullptr;
  return adapter->restorer->applies(state) ? adapter->restorer : nullptr;
}

}  // namespace starspiel
