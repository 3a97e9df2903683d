// The C++ baselines the benchmark measures the native engine against: OpenSpiel's
// own ExpectiminimaxSearch (prunes nothing) and the per-node floor, a plain
// expectimax over the same states calling the same native evaluator.
#include <pybind11/pybind11.h>

#include <chrono>
#include <memory>

#include "bots/native/bindings.h"
#include "bots/native/evaluator.h"
#include "open_spiel/algorithms/minimax.h"
#include "open_spiel/spiel.h"

namespace py = pybind11;

namespace starspiel {
namespace {

double Seconds(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// OpenSpiel's _expectiminimax, with a node counter: one Child() and one
// LegalActions()/ChanceOutcomes() per node, the evaluator at depth 0.
class PlainExpectimax {
 public:
  PlainExpectimax(Evaluator& evaluator, int player) : evaluator_(evaluator), player_(player) {}

  double Value(const open_spiel::State& state, int depth) {
    ++nodes;
    if (state.IsTerminal()) return state.PlayerReturn(player_);
    if (depth == 0) {
      ++evaluations;
      return evaluator_.Value(state, player_);
    }
    if (state.IsChanceNode()) {
      double value = 0.0;
      for (const auto& [action, prob] : state.ChanceOutcomes()) {
        value += prob * Value(*state.Child(action), depth);
      }
      return value;
    }
    const bool maximize = state.CurrentPlayer() == player_;
    double best = maximize ? -1e300 : 1e300;
    for (open_spiel::Action action : state.LegalActions()) {
      const double value = Value(*state.Child(action), depth - 1);
      if (maximize ? value > best : value < best) best = value;
    }
    return best;
  }

  std::int64_t nodes = 0;
  std::int64_t evaluations = 0;

 private:
  Evaluator& evaluator_;
  int player_;
};

}  // namespace

void BindBaselines(py::module_& m) {
  m.def(
      "openspiel_expectiminimax",
      [](py::handle game, py::handle state, int depth, const std::string& evaluator, int player) {
        const auto* cpp_game = game.cast<const open_spiel::Game*>();
        const auto* cpp_state = state.cast<const open_spiel::State*>();
        std::unique_ptr<Evaluator> native = MakeEvaluator(evaluator, *cpp_game);
        std::int64_t calls = 0;
        std::pair<double, open_spiel::Action> result;
        double seconds;
        {
          py::gil_scoped_release released;
          const auto start = std::chrono::steady_clock::now();
          result = open_spiel::algorithms::ExpectiminimaxSearch(
              *cpp_game, cpp_state,
              [&native, &calls, player](const open_spiel::State& s) {
                ++calls;
                return native->Value(s, player);
              },
              depth, player);
          seconds = Seconds(start);
        }
        return py::make_tuple(result.first, result.second, calls, seconds);
      },
      py::arg("game"), py::arg("state"), py::arg("depth"), py::arg("evaluator"), py::arg("player"),
      "OpenSpiel's C++ ExpectiminimaxSearch with a native evaluator: (value, action, "
      "evaluator calls, seconds).");
  m.def(
      "plain_expectimax",
      [](py::handle game, py::handle state, int depth, const std::string& evaluator, int player) {
        const auto* cpp_game = game.cast<const open_spiel::Game*>();
        const auto* cpp_state = state.cast<const open_spiel::State*>();
        std::unique_ptr<Evaluator> native = MakeEvaluator(evaluator, *cpp_game);
        PlainExpectimax search(*native, player);
        double value, seconds;
        {
          py::gil_scoped_release released;
          const auto start = std::chrono::steady_clock::now();
          value = search.Value(*cpp_state, depth);
          seconds = Seconds(start);
        }
        return py::make_tuple(value, search.nodes, search.evaluations, seconds);
      },
      py::arg("game"), py::arg("state"), py::arg("depth"), py::arg("evaluator"), py::arg("player"),
      "The per-node floor: a plain C++ expectimax with a native evaluator: (value, nodes, "
      "evaluations, seconds).");
}

}  // namespace starspiel
