// The pieces of the bots._native module, each bound from its own file.
#ifndef STARSPIEL_BOTS_NATIVE_BINDINGS_H_
#define STARSPIEL_BOTS_NATIVE_BINDINGS_H_

#include <pybind11/pybind11.h>

#include <memory>

#include "bots/native/evaluator.h"
#include "open_spiel/spiel.h"

namespace starspiel {

void BindSearch(pybind11::module_& m);     // search_bindings.cc
void BindSampling(pybind11::module_& m);   // sampling_bindings.cc: MCMS draws, the generator
void BindBaselines(pybind11::module_& m);  // baselines.cc: OpenSpiel's expectiminimax, the floor
void BindMctsEvaluator(pybind11::module_& m);  // mcts_evaluator.cc: the fair MCTS's leaves
void BindLearned(pybind11::module_& m);        // learned_bindings.cc: LearnedModel
void BindTdTrainer(pybind11::module_& m);      // learning/td_bindings.cc: TdTrainer

// A copy of the bots._native.LearnedModel `model` for one searcher or MCTS bot (the
// weights shared, its own scratch); std::invalid_argument unless it is `game`'s model.
std::unique_ptr<Evaluator> CopyLearnedModel(pybind11::handle model, const open_spiel::Game& game);

}  // namespace starspiel

#endif  // STARSPIEL_BOTS_NATIVE_BINDINGS_H_
