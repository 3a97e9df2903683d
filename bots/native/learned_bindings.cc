// bots._native.LearnedModel: a learned evaluator's native twin, built from its model
// file's metadata and arrays (bots/evaluators/learned.py's native_model() makes one);
// the searcher and the fair MCTS take a copy of it (CopyLearnedModel).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "bots/native/bindings.h"
#include "bots/native/evaluators/learned.h"
#include "open_spiel/spiel.h"

namespace py = pybind11;

namespace starspiel {
namespace {

// The model file's integer arrays (the "metadata" entry, if given, is the JSON string's
// array and skipped); any other non-integer array is refused.
ModelArrays ToModelArrays(const py::dict& arrays) {
  ModelArrays result;
  for (auto item : arrays) {
    const auto name = item.first.cast<std::string>();
    if (name == "metadata") continue;
    auto array = py::array::ensure(item.second);
    if (!array) throw py::value_error("learned model: the array '" + name + "' is not an array");
    const py::dtype dtype = array.dtype();
    if (dtype.kind() != 'i') {
      throw py::value_error("learned model: the array '" + name + "' is " +
                            py::str(dtype).cast<std::string>() + ", not a signed integer array");
    }
    ModelArray& out = result[name];
    out.dtype = "int" + std::to_string(8 * dtype.itemsize());
    for (py::ssize_t d = 0; d < array.ndim(); ++d) out.shape.push_back(array.shape(d));
    // Widening a signed integer array to int64 is exact.
    auto wide = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(array);
    out.values.assign(wide.data(), wide.data() + wide.size());
  }
  return result;
}

const open_spiel::State& StateOf(const LearnedModel& model, py::handle state) {
  const auto* cpp_state = state.cast<const open_spiel::State*>();
  model.CheckGame(*cpp_state->GetGame());
  return *cpp_state;
}

}  // namespace

std::unique_ptr<Evaluator> CopyLearnedModel(py::handle model, const open_spiel::Game& game) {
  const auto& learned = model.cast<const LearnedModel&>();
  learned.CheckGame(game);
  return std::make_unique<LearnedModel>(learned);
}

void BindLearned(py::module_& m) {
  py::class_<LearnedModel, std::shared_ptr<LearnedModel>>(
      m, "LearnedModel",
      "A learned evaluator's native twin: integer inference of its quantised network and its "
      "head, bit for bit the values of the Python inference.")
      .def(py::init([](const std::string& metadata, const py::dict& arrays) {
             return std::make_shared<LearnedModel>(metadata, ToModelArrays(arrays));
           }),
           py::arg("metadata"), py::arg("arrays"),
           "From a model file's metadata (its JSON string) and arrays (name -> numpy array); "
           "ValueError if they do not describe a model the engine can run.")
      .def(
          "value",
          [](LearnedModel& model, py::handle state, int player) {
            const open_spiel::State& s = StateOf(model, state);
            if (player < 0 || player >= model.num_players()) {
              throw py::value_error("player " + std::to_string(player) + " out of range");
            }
            return model.Value(s, player);
          },
          py::arg("state"), py::arg("player"),
          "The value of `state` for `player` (a terminal state's returns).")
      .def(
          "values",
          [](LearnedModel& model, py::handle state) {
            const open_spiel::State& s = StateOf(model, state);
            if (s.IsTerminal()) return s.Returns();
            std::vector<double> values(model.num_players());
            model.NonTerminalValues(s, &values);
            return values;
          },
          py::arg("state"), "Every player's value of `state` (a terminal state's returns).")
      .def(
          "outputs",
          [](LearnedModel& model, py::handle state) {
            std::vector<double> outputs;
            model.Outputs(StateOf(model, state), &outputs);
            return outputs;
          },
          py::arg("state"), "The network's outputs for `state`, before the head (for tests).")
      .def(
          "leaf_seconds",
          [](LearnedModel& model, const py::list& states, int repeats, bool observation_only) {
            std::vector<const open_spiel::State*> cpp_states;
            for (py::handle state : states) {
              const open_spiel::State& s = StateOf(model, state);
              if (s.IsTerminal()) throw py::value_error("leaf_seconds takes non-terminal states");
              cpp_states.push_back(&s);
            }
            double sink = 0.0;
            const std::clock_t start = std::clock();  // this process's CPU time
            for (int r = 0; r < repeats; ++r) {
              for (const open_spiel::State* s : cpp_states) {
                if (observation_only) {
                  model.Observe(*s);
                } else {
                  sink += model.NonTerminalValue(*s, 0);
                }
              }
            }
            const double seconds = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
            return py::make_tuple(seconds, sink);
          },
          py::arg("states"), py::arg("repeats"), py::arg("observation_only") = false,
          "(CPU seconds, sum of values) of `repeats` passes of NonTerminalValue(state, 0), as "
          "the search calls it, over the non-terminal `states` (or of reading their "
          "observations only), for experiments/benchmark/learned_speed.py.")
      .def_property_readonly("game", &LearnedModel::game)
      .def_property_readonly("num_players", &LearnedModel::num_players)
      .def_property_readonly("bounds", [](const LearnedModel& model) {
        return py::make_tuple(model.lower_bound(), model.upper_bound());
      });
}

}  // namespace starspiel
