// The switch of internals_gate.h. The engine is built against the open_spiel installed
// (setup.py passes its version as STARSPIEL_OPEN_SPIEL_VERSION, and bots/native_engine.py
// refuses a build made against another); the fast paths are on only where that is the
// release openspiel_internals.h was checked against.
#include "bots/native/internals_gate.h"

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <string>

#include "bots/native/openspiel_internals.h"

#ifndef STARSPIEL_OPEN_SPIEL_VERSION
#define STARSPIEL_OPEN_SPIEL_VERSION "unknown"
#endif

namespace starspiel {
namespace {

struct Gate {
  std::atomic<bool> on{false};
  std::mutex mutex;
  std::string problem;  // guarded by mutex

  void Configure(const std::string& built_against, bool wanted) {
    std::string why;
    if (built_against != kInternalsOpenSpielVersion) {
      why = "the native engine was built against open_spiel " + built_against +
            ", but its fast paths read the private fields of open_spiel " +
            kInternalsOpenSpielVersion +
            ": they are off, and every game runs through OpenSpiel's public State API "
            "(the same results, slower; docs/guide/engines.md, \"Moving to a new open_spiel "
            "release\")";
    }
    std::lock_guard<std::mutex> lock(mutex);
    problem = why;
    on = wanted && why.empty();
  }
};

Gate& TheGate() {
  static Gate* gate = [] {
    auto* made = new Gate();  // never destroyed: searchers may read it at exit
    const char* setting = std::getenv("STARSPIEL_FIELD_PATHS");
    const bool wanted = setting == nullptr || std::string(setting) != "off";
    made->Configure(STARSPIEL_OPEN_SPIEL_VERSION, wanted);
    return made;
  }();
  return *gate;
}

}  // namespace

bool FieldPathsOn() { return TheGate().on.load(std::memory_order_relaxed); }

std::string FieldPathsProblem() {
  Gate& gate = TheGate();
  std::lock_guard<std::mutex> lock(gate.mutex);
  return gate.problem;
}

void ConfigureFieldPaths(const std::string& built_against, bool wanted) {
  TheGate().Configure(built_against, wanted);
}

std::string FieldPathsCheckedVersion() { return kInternalsOpenSpielVersion; }

std::string BuiltOpenSpielVersion() { return STARSPIEL_OPEN_SPIEL_VERSION; }

}  // namespace starspiel
