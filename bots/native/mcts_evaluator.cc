// The fair MCTS's leaf evaluator: a native heuristic behind OpenSpiel's MCTS
// Evaluator interface, so algorithms::MCTSBot values its leaves with the same
// numbers the search bots use, at C++ speed (bots/mcts.py builds the bot).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bots/native/bindings.h"
#include "bots/native/evaluator.h"
#include "bots/native/evaluators/learned.h"
#include "open_spiel/algorithms/mcts.h"
#include "open_spiel/spiel.h"

namespace py = pybind11;

namespace starspiel {
namespace {

class HeuristicMctsEvaluator : public open_spiel::algorithms::Evaluator {
 public:
  HeuristicMctsEvaluator(std::unique_ptr<starspiel::Evaluator> heuristic, int num_players)
      : heuristic_(std::move(heuristic)), num_players_(num_players) {}

  // MCTS calls this on non-terminal leaves only (terminal ones take Returns()),
  // but a terminal state still gets its true returns, as the Python twin does.
  std::vector<double> Evaluate(const open_spiel::State& state) override {
    if (state.IsTerminal()) return state.Returns();
    std::vector<double> values(num_players_);
    heuristic_->NonTerminalValues(state, &values);  // once for all players (a network's)
    return values;
  }

  // Uniform over legal moves; a chance node's prior is its distribution, which
  // MCTS samples from (as OpenSpiel's RandomRolloutEvaluator does).
  open_spiel::ActionsAndProbs Prior(const open_spiel::State& state) override {
    if (state.IsChanceNode()) return state.ChanceOutcomes();
    const std::vector<open_spiel::Action> actions = state.LegalActions();
    open_spiel::ActionsAndProbs prior;
    prior.reserve(actions.size());
    const double p = actions.empty() ? 0.0 : 1.0 / static_cast<double>(actions.size());
    for (open_spiel::Action a : actions) prior.emplace_back(a, p);
    return prior;
  }

 private:
  std::unique_ptr<starspiel::Evaluator> heuristic_;
  int num_players_;
};

}  // namespace

void BindMctsEvaluator(py::module_& m) {
  m.def(
      "mcts_evaluator",
      [](const std::string& name,
         py::handle game) -> std::shared_ptr<open_spiel::algorithms::Evaluator> {
        const auto* cpp_game = game.cast<const open_spiel::Game*>();
        return std::make_shared<HeuristicMctsEvaluator>(MakeEvaluator(name, *cpp_game),
                                                        cpp_game->NumPlayers());
      },
      py::arg("name"), py::arg("game"),
      "OpenSpiel's MCTS Evaluator over the native heuristic `name` (a pyspiel.Evaluator).");
  m.def(
      "mcts_evaluator",
      [](const LearnedModel& model,
         py::handle game) -> std::shared_ptr<open_spiel::algorithms::Evaluator> {
        const auto* cpp_game = game.cast<const open_spiel::Game*>();
        model.CheckGame(*cpp_game);
        return std::make_shared<HeuristicMctsEvaluator>(std::make_unique<LearnedModel>(model),
                                                        cpp_game->NumPlayers());
      },
      py::arg("model"), py::arg("game"),
      "OpenSpiel's MCTS Evaluator over a copy of the native model `model` (a LearnedModel).");
}

}  // namespace starspiel
