// OpenSpiel's bot registry entries starspiel_<name>, one per bots.make_bot name:
// each builds the Python bot that bots.make_bot(name, game, player, **params)
// builds and plays through it, so
//   pyspiel.load_bot("starspiel_star2", game, player, {"max_depth": 3})
// (or open_spiel::LoadBot in C++) is make_bot's bot, parameters, per-game
// defaults, evaluator and errors included. This file only translates: every
// rule lives in bots/factory.py.
#include <Python.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "open_spiel/game_parameters.h"
#include "open_spiel/spiel.h"
#include "open_spiel/spiel_bots.h"
#include "open_spiel/spiel_utils.h"

namespace py = pybind11;

namespace starspiel {
namespace {

using open_spiel::Action;
using open_spiel::ActionsAndProbs;
using open_spiel::GameParameter;
using open_spiel::Player;
using open_spiel::State;

// The Python value of a parameter, typed as in a spec string (bots/spec.py):
// a string is read by parse_value, so "none" is None, as in "star2(max_depth=none)".
py::object ToPython(const GameParameter& value) {
  switch (value.type()) {
    case GameParameter::Type::kInt:
      return py::int_(value.int_value());
    case GameParameter::Type::kDouble:
      return py::float_(value.double_value());
    case GameParameter::Type::kBool:
      return py::bool_(value.bool_value());
    default:  // a string, or a nested spec such as evaluator=rollout(n=2)
      return py::module_::import("bots.spec").attr("parse_value")(value.ToString());
  }
}

// A Python bot as a C++ one. Calls go through the bot's C++ virtuals (pyspiel's
// trampoline takes the GIL and calls Python), so Python and C++ bots both work.
class PythonBot : public open_spiel::Bot {
 public:
  explicit PythonBot(py::object bot)
      : bot_(bot.cast<open_spiel::Bot*>()), object_(std::move(bot)) {}
  ~PythonBot() override {
    if (!Py_IsInitialized()) {
      object_.release();  // the interpreter is gone, and the bot with it
      return;
    }
    py::gil_scoped_acquire gil;
    object_ = py::object();
  }

  Action Step(const State& state) override { return bot_->Step(state); }
  // pyspiel's trampoline has no step_verbose: call Python's (Bot's default is Step's move).
  std::pair<Action, std::string> StepVerbose(const State& state) override {
    py::gil_scoped_acquire gil;
    py::object result =
        object_.attr("step_verbose")(py::cast(state, py::return_value_policy::reference));
    return result.cast<std::pair<Action, std::string>>();
  }
  std::pair<ActionsAndProbs, Action> StepWithPolicy(const State& state) override {
    return bot_->StepWithPolicy(state);
  }
  bool ProvidesPolicy() override { return bot_->ProvidesPolicy(); }
  ActionsAndProbs GetPolicy(const State& state) override { return bot_->GetPolicy(state); }
  void Restart() override { bot_->Restart(); }
  void RestartAt(const State& state) override { bot_->RestartAt(state); }
  void InformAction(const State& state, Player player, Action action) override {
    bot_->InformAction(state, player, action);
  }
  void InformActions(const State& state, const std::vector<Action>& actions) override {
    bot_->InformActions(state, actions);
  }
  bool ProvidesForceAction() override { return bot_->ProvidesForceAction(); }
  void ForceAction(const State& state, Action action) override { bot_->ForceAction(state, action); }

 private:
  open_spiel::Bot* bot_;  // the C++ side of object_
  py::object object_;
};

// make_bot(name, game, player, **params), or null with what it raised in `error`.
std::unique_ptr<open_spiel::Bot> MakeBot(const std::string& name,
                                         std::shared_ptr<const open_spiel::Game> game,
                                         Player player, const open_spiel::GameParameters& params,
                                         std::string& error) {
  py::gil_scoped_acquire gil;
  try {
    py::dict kwargs;
    for (const auto& [key, value] : params) {
      // LoadBot("starspiel_star2(max_depth=3)") passes the bot's name too.
      if (key != "name") kwargs[py::str(key)] = ToPython(value);
    }
    py::object make_bot = py::module_::import("bots.factory").attr("make_bot");
    return std::make_unique<PythonBot>(make_bot(name, std::move(game), player, **kwargs));
  } catch (py::error_already_set& raised) {
    error = py::str(raised.value());
    return nullptr;
  }
}

class PythonBotFactory : public open_spiel::BotFactory {
 public:
  explicit PythonBotFactory(std::string name) : name_(std::move(name)) {}

  // bots.factory.can_play_game: from the GameType, as OpenSpiel's own factories answer;
  // it builds no bot (no search, calibration fit or playout).
  bool CanPlayGame(const open_spiel::Game& game, Player player) const override {
    py::gil_scoped_acquire gil;
    try {
      py::object can_play = py::module_::import("bots.factory").attr("can_play_game");
      return can_play(name_, game.shared_from_this(), player).cast<bool>();
    } catch (py::error_already_set&) {
      return false;
    }
  }

  // make_bot's error is a SpielFatalError (pyspiel.SpielError in Python).
  std::unique_ptr<open_spiel::Bot> Create(std::shared_ptr<const open_spiel::Game> game,
                                          Player player,
                                          const open_spiel::GameParameters& params) const override {
    std::string error;
    std::unique_ptr<open_spiel::Bot> bot = MakeBot(name_, std::move(game), player, params, error);
    if (bot == nullptr) open_spiel::SpielFatalError("starspiel_" + name_ + ": " + error);
    return bot;
  }

 private:
  std::string name_;
};

// bots.factory.BOT_NAMES (tests/test_native_bot_registry.py compares them),
// registered when bots._native is loaded, into pyspiel's registry.
const bool kRegistered = [] {
  for (const char* name :
       {"expectiminimax", "star1", "star2", "chanceprobcut", "mcms", "mcts", "random", "gnubg"}) {
    open_spiel::BotRegisterer::RegisterBot(std::string("starspiel_") + name,
                                           std::make_unique<PythonBotFactory>(name));
  }
  return true;
}();

}  // namespace
}  // namespace starspiel
