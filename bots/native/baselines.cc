// The C++ baselines the benchmark measures the native engine against: OpenSpiel's
// own ExpectiminimaxSearch (prunes nothing) and the per-node floor, a plain
// expectimax over the same states calling the same native evaluator.
#include <pybind11/pybind11.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <tuple>

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

// Binds `name`(game, state, depth, evaluator, player): the native evaluator made, then
// `search(game, state, evaluator, depth, player)` run with the GIL released and timed;
// the function returns search's three figures and the seconds.
template <class Search>
void BindBaseline(py::module_& m, const char* name, Search search, const char* doc) {
  m.def(
      name,
      [search](py::handle game, py::handle state, int depth, const std::string& evaluator,
               int player) {
        const auto* cpp_game = game.cast<const open_spiel::Game*>();
        const auto* cpp_state = state.cast<const open_spiel::State*>();
        std::unique_ptr<Evaluator> native = MakeEvaluator(evaluator, *cpp_game);
        std::tuple<double, std::int64_t, std::int64_t> figures;
        double seconds;
        {
          py::gil_scoped_release released;
          const auto start = std::chrono::steady_clock::now();
          figures = search(*cpp_game, *cpp_state, *native, depth, player);
          seconds = Seconds(start);
        }
        return py::make_tuple(std::get<0>(figures), std::get<1>(figures), std::get<2>(figures),
                              seconds);
      },
      py::arg("game"), py::arg("state"), py::arg("depth"), py::arg("evaluator"), py::arg("player"),
      doc);
}

}  // namespace

void BindBaselines(py::module_& m) {
  BindBaseline(
      m, "openspiel_expectiminimax",
      [](const open_spiel::Game& game, const open_spiel::State& state, Evaluator& evaluator,
         int depth, int player) {
        std::int64_t calls = 0;
        const std::pair<double, open_spiel::Action> result =
            open_spiel::algorithms::ExpectiminimaxSearch(
                game, &state,
                [&evaluator, &calls, player](const open_spiel::State& s) {
                  ++calls;
                  return evaluator.Value(s, player);
                },
                depth, player);
        return std::tuple<double, std::int64_t, std::int64_t>(result.first, result.second, calls);
      },
      "OpenSpiel's C++ ExpectiminimaxSearch with a native evaluator: (value, action, "
      "evaluator calls, seconds).");
  BindBaseline(
      m, "plain_expectimax",
      [](const open_spiel::Game&, const open_spiel::State& state, Evaluator& evaluator, int depth,
         int player) {
        PlainExpectimax search(evaluator, player);
        const double value = search.Value(state, depth);
        return std::tuple<double, std::int64_t, std::int64_t>(value, search.nodes,
                                                              search.evaluations);
      },
      "The per-node floor: a plain C++ expectimax with a native evaluator: (value, nodes, "
      "evaluations, seconds).");
}

}  // namespace starspiel
