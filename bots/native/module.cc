// bots._native: the native engine's Python module (loaded by bots/native_engine.py).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bots/native/bindings.h"
#include "bots/native/evaluator.h"
#include "games/native/build_info.h"
#include "open_spiel/spiel.h"

namespace py = pybind11;

PYBIND11_MODULE(_native, m) {
  m.doc() = "starspiel's native search engine (C++ over open_spiel::State)";
  m.attr("SOURCE_DIGEST") = STARSPIEL_SOURCE_DIGEST;
  m.attr("OPEN_SPIEL_VERSION") = STARSPIEL_OPEN_SPIEL_VERSION;
  m.def("evaluator_names", &starspiel::EvaluatorNames,
        "Names of the native evaluators (the Python classes' native_name).");
  m.def(
      "evaluator_value",
      [](const std::string& name, py::handle game, py::handle state, int player) {
        const auto* cpp_game = game.cast<const open_spiel::Game*>();
        const auto* cpp_state = state.cast<const open_spiel::State*>();
        return starspiel::MakeEvaluator(name, *cpp_game)->Value(*cpp_state, player);
      },
      "The native evaluator `name`'s value of `state` for `player` (for tests).");
  starspiel::BindLearned(m);
  starspiel::BindTdTrainer(m);
  starspiel::BindSearch(m);
  starspiel::BindSampling(m);
  starspiel::BindBaselines(m);
  starspiel::BindMctsEvaluator(m);
}
