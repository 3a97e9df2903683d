// The native Searcher as bots._native.Searcher; bots/native_searcher.py wraps it
// in the Python Searcher's interface.
#include <Python.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bots/native/bindings.h"
#include "bots/native/evaluator.h"
#include "bots/native/fast_moves.h"
#include "bots/native/field_undo.h"
#include "bots/native/internals_gate.h"
#include "bots/native/search.h"

namespace py = pybind11;

namespace starspiel {
namespace {

// Python's float(x): a numpy scalar, an int or a float.
double ToDouble(const py::handle& value) {
  return py::float_(py::reinterpret_borrow<py::object>(value)).cast<double>();
}

// A user's Python evaluator, called back with a clone of the C++ state (it may
// keep the object it is given).
LeafFunction PythonLeaf(py::object evaluator) {
  py::object player_value = py::getattr(evaluator, "player_value", py::none());
  if (!player_value.is_none() && PyCallable_Check(player_value.ptr())) {
    return [player_value](const open_spiel::State& state, int player) {
      py::object wrapped = py::cast(state.Clone());
      return ToDouble(player_value(wrapped, player));
    };
  }
  py::object evaluate = evaluator.attr("evaluate");
  return [evaluate](const open_spiel::State& state, int player) {
    py::object wrapped = py::cast(state.Clone());
    py::object values = evaluate(wrapped);
    return ToDouble(values[py::int_(player)]);
  };
}

// max^n's leaf vector from one evaluate() call of a user's Python evaluator.
LeafVectorFunction PythonLeafVector(py::object evaluator) {
  py::object evaluate = evaluator.attr("evaluate");
  return [evaluate](const open_spiel::State& state, std::vector<double>* values) {
    py::object wrapped = py::cast(state.Clone());
    py::object result = evaluate(wrapped);
    for (std::size_t p = 0; p < values->size(); ++p) {
      (*values)[p] = ToDouble(result[py::int_(p)]);
    }
  };
}

// Each reads one setting into its SearchOptions member, by the member's type.
template <class T>
void ReadSetting(const py::handle& value, T* member) {
  *member = value.cast<T>();
}

// A choice by its name in `names`, listed in the enum's order.
template <class Enum, std::size_t N>
void ReadChoice(const py::handle& value, const char* const (&names)[N], Enum* member) {
  const auto name = value.cast<std::string>();
  for (std::size_t i = 0; i < N; ++i) {
    if (name == names[i]) {
      *member = static_cast<Enum>(i);
      return;
    }
  }
  throw py::value_error("unknown native setting value '" + name + "'");
}

void ReadSetting(const py::handle& value, KeyKind* member) {
  ReadChoice(value, kKeyKindNames, member);
}

void ReadSetting(const py::handle& value, Probing* member) {
  ReadChoice(value, kProbingNames, member);
}

void ReadSetting(const py::handle& value, Multiplayer* member) {
  ReadChoice(value, kMultiplayerNames, member);
}

// A Python function of a state (none: no function). A Python game's state is a
// Python object: the cast finds it, no copy.
void ReadSetting(const py::handle& value, TextFunction* member) {
  if (value.is_none()) return;
  auto function = py::reinterpret_borrow<py::object>(value);
  *member = [function](const open_spiel::State& state) {
    return function(py::cast(&state, py::return_value_policy::reference)).cast<std::string>();
  };
}

// ChanceProbCut's models by depth: [a, b, sigma] or [a, b, sigma, mover a, b, sigma].
void ReadSetting(const py::handle& value, ProbCutModels* member) {
  for (auto item : value.cast<py::dict>()) {
    const auto fields = item.second.cast<std::vector<double>>();
    ProbCutModel model;
    model.a = fields.at(0);
    model.b = fields.at(1);
    model.sigma = fields.at(2);
    if (fields.size() == 6) {
      model.has_mover = true;
      model.mover_a = fields[3];
      model.mover_b = fields[4];
      model.mover_sigma = fields[5];
    }
    (*member)[item.first.cast<int>()] = model;
  }
}

std::vector<std::string> SettingNames() {
#define STARSPIEL_SETTING_NAME(type, name) #name,
  return {STARSPIEL_SEARCH_SETTINGS(STARSPIEL_SETTING_NAME)};
#undef STARSPIEL_SETTING_NAME
}

std::vector<std::string> CounterNames() {
#define STARSPIEL_COUNTER_NAME(name) #name,
  return {STARSPIEL_SEARCH_COUNTERS(STARSPIEL_COUNTER_NAME)};
#undef STARSPIEL_COUNTER_NAME
}

// The options from bots/native_searcher.py's settings dict: every setting, nothing else.
SearchOptions ReadOptions(const py::dict& settings) {
  const std::vector<std::string> names = SettingNames();
  for (auto item : settings) {
    const auto name = item.first.cast<std::string>();
    if (std::find(names.begin(), names.end(), name) == names.end()) {
      throw py::value_error("unknown native setting '" + name + "'");
    }
  }
  SearchOptions o;
#define STARSPIEL_READ_SETTING(type, name)                         \
  if (!settings.contains(#name)) {                                 \
    throw py::value_error("the native settings lack '" #name "'"); \
  }                                                                \
  ReadSetting(py::object(settings[#name]), &o.name);
  STARSPIEL_SEARCH_SETTINGS(STARSPIEL_READ_SETTING)
#undef STARSPIEL_READ_SETTING
  return o;
}

class PySearcher {
 public:
  // The leaves: the native evaluator `native_evaluator` (a name), else the native model
  // `native_model` (a bots._native.LearnedModel, copied), else `evaluator` called back.
  PySearcher(py::object game, const py::dict& options, py::object evaluator,
             const std::string& native_evaluator, const std::string& evaluator_name,
             bool release_gil, py::object native_model)
      : release_gil_(release_gil) {
    auto cpp_game = game.cast<std::shared_ptr<const open_spiel::Game>>();
    SearchOptions o = ReadOptions(options);
    LeafFunction leaf;
    LeafVectorFunction leaf_vector;
    if (!native_evaluator.empty() || !native_model.is_none()) {
      std::shared_ptr<Evaluator> native = native_evaluator.empty()
                                              ? CopyLearnedModel(native_model, *cpp_game)
                                              : MakeEvaluator(native_evaluator, *cpp_game);
      leaf = [native](const open_spiel::State& state, int player) {
        return native->NonTerminalValue(state, player);
      };
      leaf_vector = [native](const open_spiel::State& state, std::vector<double>* values) {
        native->NonTerminalValues(state, values);
      };
    } else {
      leaf = PythonLeaf(evaluator);
      leaf_vector = PythonLeafVector(evaluator);
      release_gil_ = false;
    }
    searcher_ = std::make_unique<Searcher>(cpp_game, std::move(o), std::move(leaf), evaluator_name);
    if (leaf_vector) searcher_->set_leaf_vector(std::move(leaf_vector));
    searcher_->set_interrupt_check([this]() { CheckSignals(); });
    game_ = std::move(game);  // keeps a Python-registered game alive
  }

  // (status, value, action, partial, values) with status "done" or "timeout"; partial is
  // (value, action, values); values is max^n's root vector ([] under paranoid).
  py::tuple Search(py::handle state, int depth, const std::vector<std::int64_t>& root_order,
                   double deadline) {
    const auto* cpp_state = state.cast<const open_spiel::State*>();
    searcher_->set_deadline(deadline);
    RootResult partial;
    RootResult result;
    bool timed_out = false;
    {
      std::optional<py::gil_scoped_release> released;
      if (release_gil_) released.emplace();
      try {
        result = searcher_->Search(*cpp_state, depth, root_order, &partial);
      } catch (const SearchTimeout&) {
        timed_out = true;
      }
    }
    py::object partial_move = py::none();
    if (partial.has_partial) {
      partial_move =
          py::make_tuple(partial.partial_value, partial.partial_action, partial.partial_values);
    }
    py::object action = result.action == kNoMove ? py::none() : py::cast(result.action);
    return py::make_tuple(timed_out ? "timeout" : "done", result.value, action, partial_move,
                          result.values);
  }

  py::dict StatsDict() const {
    const Stats& s = searcher_->stats();
    py::dict d;
#define STARSPIEL_STAT_ITEM(name) d[#name] = s.name;
    STARSPIEL_SEARCH_COUNTERS(STARSPIEL_STAT_ITEM)
#undef STARSPIEL_STAT_ITEM
    return d;
  }

  void ResetStats() { searcher_->ResetStats(); }
  std::int64_t nodes() const { return searcher_->stats().nodes; }
  std::int64_t evaluations() const { return searcher_->stats().evaluations; }
  std::int64_t tt_hits() const { return searcher_->stats().tt_hits; }
  std::int64_t table_size() const { return searcher_->table_size(); }
  std::int64_t leaf_store_size() const { return searcher_->leaf_store_size(); }
  std::int64_t table_bytes() const { return searcher_->table_bytes(); }
  bool releases_gil() const { return release_gil_; }
  bool searches_in_place() const { return searcher_->searches_in_place(); }

 private:
  // Ctrl-C: Python's signal handlers run here, and their exception ends the search.
  void CheckSignals() {
    if (release_gil_) {
      py::gil_scoped_acquire acquire;
      if (PyErr_CheckSignals() != 0) throw py::error_already_set();
    } else if (PyErr_CheckSignals() != 0) {
      throw py::error_already_set();
    }
  }

  bool release_gil_;
  py::object game_;
  std::unique_ptr<Searcher> searcher_;
};

// Binds `name`(state) for tests: `probe(state, its game's short name)`, None where the
// probe gives nothing.
template <class Probe>
void BindStateProbe(py::module_& m, const char* name, Probe probe, const char* doc) {
  m.def(
      name,
      [probe](py::handle state) -> py::object {
        const auto* cpp_state = state.cast<const open_spiel::State*>();
        auto result = probe(*cpp_state, cpp_state->GetGame()->GetType().short_name);
        if (!result) return py::none();
        return py::cast(*result);
      },
      py::arg("state"), doc);
}

}  // namespace

void BindSearch(py::module_& m) {
  py::register_exception<LeafValueOutOfBounds>(m, "LeafValueOutOfBounds", PyExc_ValueError);
  py::class_<PySearcher>(m, "Searcher")
      .def(py::init<py::object, const py::dict&, py::object, const std::string&, const std::string&,
                    bool, py::object>(),
           py::arg("game"), py::arg("options"), py::arg("evaluator"), py::arg("native_evaluator"),
           py::arg("evaluator_name"), py::arg("release_gil"), py::arg("native_model") = py::none())
      .def("search", &PySearcher::Search, py::arg("state"), py::arg("depth"), py::arg("root_order"),
           py::arg("deadline"))
      .def("stats", &PySearcher::StatsDict)
      .def("reset_stats", &PySearcher::ResetStats)
      .def_property_readonly("nodes", &PySearcher::nodes)
      .def_property_readonly("evaluations", &PySearcher::evaluations)
      .def_property_readonly("tt_hits", &PySearcher::tt_hits)
      .def_property_readonly("table_size", &PySearcher::table_size)
      .def_property_readonly("leaf_store_size", &PySearcher::leaf_store_size)
      .def_property_readonly("table_bytes", &PySearcher::table_bytes)
      .def_property_readonly("releases_gil", &PySearcher::releases_gil)
      .def_property_readonly("searches_in_place", &PySearcher::searches_in_place);
  m.def(
      "state_key",
      [](py::handle state, bool from_fields) {
        const auto* cpp_state = state.cast<const open_spiel::State*>();
        const KeyScheme* scheme = FindKeyScheme(cpp_state->GetGame()->GetType().short_name);
        Key key;
        if (scheme == nullptr) {
          key = HistoryDigest(cpp_state->History());
        } else if (from_fields && scheme->fields_key && scheme->fields_apply(*cpp_state)) {
          key = scheme->fields_key(*cpp_state);
        } else {
          key = TextKey(scheme->text(*cpp_state));
        }
        const py::int_ high(static_cast<std::uint64_t>(key >> 64));
        const py::int_ low(static_cast<std::uint64_t>(key));
        return (high.attr("__lshift__")(64)).attr("__or__")(low);
      },
      py::arg("state"), py::arg("from_fields") = true,
      "The native engine's table key of a state (from its fields where the game has them).");
  BindStateProbe(
      m, "fast_legal_actions",
      [](const open_spiel::State& state,
         const std::string& game) -> std::optional<std::vector<open_spiel::Action>> {
        std::unique_ptr<open_spiel::State> copy = state.Clone();
        const FastMoves moves = FastMovesFor(game);
        std::vector<open_spiel::Action> actions;
        if (moves == nullptr || !moves(*copy, &actions)) return std::nullopt;
        return actions;
      },
      "The native engine's own move list for a state (None where the game's LegalActions() "
      "is used), for tests.");
  BindStateProbe(
      m, "fast_current_player",
      [](const open_spiel::State& state,
         const std::string& game) -> std::optional<open_spiel::Player> {
        const FastPlayer player = FastPlayerFor(game);
        if (player == nullptr) return std::nullopt;
        return player(state);
      },
      "The native engine's own CurrentPlayer() for a state (None where the game's is used), "
      "for tests.");
  BindStateProbe(
      m, "fast_apply_mismatches",
      [](const open_spiel::State& state,
         const std::string& game) -> std::optional<std::vector<open_spiel::Action>> {
        const FieldRestorer* restorer = FindFieldRestorer(game, state);
        if (restorer == nullptr || restorer->apply == nullptr) return std::nullopt;
        return FastApplyMismatches(*restorer, state);
      },
      "The moves at a state whose application by the engine differs from the game's "
      "ApplyAction in any field (None where the engine has no apply of its own), for tests.");
  BindStateProbe(
      m, "fast_restore_mismatches",
      [](const open_spiel::State& state,
         const std::string& game) -> std::optional<std::vector<open_spiel::Action>> {
        const FieldRestorer* restorer = FindFieldRestorer(game, state);
        if (restorer == nullptr) return std::nullopt;
        return FastRestoreMismatches(*restorer, state);
      },
      "The moves at a state after which the engine's field restorer does not give back the "
      "game's child and then the state (None where the engine has no restorer), for tests.");
  m.def(
      "fast_paths",
      [](py::handle state) {
        const auto* cpp_state = state.cast<const open_spiel::State*>();
        const std::string game = cpp_state->GetGame()->GetType().short_name;
        std::vector<std::string> paths;
        const FieldRestorer* restorer = FindFieldRestorer(game, *cpp_state);
        if (restorer != nullptr) paths.push_back("restore");
        if (restorer != nullptr && restorer->apply != nullptr) paths.push_back("apply");
        if (FastMovesFor(game) != nullptr) paths.push_back("moves");
        if (FastPlayerFor(game) != nullptr) paths.push_back("player");
        const KeyScheme* scheme = FindKeyScheme(game);
        if (scheme != nullptr && scheme->fields_key && scheme->fields_apply(*cpp_state)) {
          paths.push_back("key");
        }
        return paths;
      },
      py::arg("state"),
      "The engine's own ways through a state's game instead of the public State API: "
      "restore, apply, moves, player, key (for tests).");
  m.def("field_paths", &FieldPathsOn,
        "Whether the fast paths that read OpenSpiel's private fields run (internals_gate.h); "
        "searchers and evaluators made from now on follow it.");
  m.def(
      "field_paths_problem",
      []() -> py::object {
        const std::string problem = FieldPathsProblem();
        if (problem.empty()) return py::none();
        return py::str(problem);
      },
      "Why those fast paths are off against another open_spiel (one line), or None.");
  m.def("configure_field_paths", &ConfigureFieldPaths, py::arg("open_spiel_version"),
        py::arg("wanted"),
        "Decides again whether those fast paths run, as for an engine built against "
        "`open_spiel_version`, and only if `wanted` (for tests; STARSPIEL_FIELD_PATHS=off "
        "turns them off at import).");
  m.attr("FIELD_PATHS_OPEN_SPIEL_VERSION") = FieldPathsCheckedVersion();
  m.def("setting_names", &SettingNames,
        "The names the settings dict of Searcher must hold (bots/options.py declares them).");
  m.def("counter_names", &CounterNames,
        "The counters of Searcher.stats(), in order (bots/counters.py declares them).");
  m.def("monotonic_seconds", &MonotonicSeconds,
        "CLOCK_MONOTONIC seconds, the clock of time.perf_counter() and of the deadline.");
}

}  // namespace starspiel
