// Native twin of bots/evaluators/ballard_tree.py (BallardEvaluator) and the
// transposition keys of the C++ Ballard tree (games/native/ballard_tree.h).
#include "games/native/ballard_tree.h"

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <typeinfo>

#include "bots/native/evaluator.h"
#include "bots/native/evaluators/common.h"
#include "bots/native/keys.h"
#include "open_spiel/spiel.h"

namespace starspiel::ballard_tree {
namespace {

// The twin of BallardEvaluator: the arc sum so far, exact at leaves.
class BallardEvaluator : public Evaluator {
 public:
  double Value(const open_spiel::State& state, int player) override {
    const auto& s = static_cast<const BallardState&>(state);
    if (s.IsTerminal()) return s.PlayerReturn(player);
    const double v = static_cast<double>(s.value());
    return player == 1 ? -v : v;
  }
};

const bool kEvaluatorRegistered = evaluators::RegisterGameEvaluator<BallardGame>(
    kShortName, [](const BallardGame&) { return std::make_unique<BallardEvaluator>(); });

const bool kKeysRegistered = RegisterKeyScheme(
    kShortName,
    KeyScheme{
        // The string prints the path (which determines the value): the position.
        [](const open_spiel::State& state) { return state.ToString(); },
        [](const open_spiel::State& state) {
          return static_cast<const BallardState&>(state).SamplingText();
        },
        // The same partition from the path alone (the value and the node kind follow
        // from it), without building the string.
        [](const open_spiel::State& state) {
          Key key = 0xBA11;
          for (int arc : static_cast<const BallardState&>(state).path()) {
            key = ExtendDigest(key, static_cast<std::uint64_t>(arc));
          }
          return key;
        },
        [](const open_spiel::State& state) { return typeid(state) == typeid(BallardState); }});

}  // namespace
}  // namespace starspiel::ballard_tree
