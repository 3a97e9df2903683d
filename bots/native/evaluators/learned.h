// Native twin of a learned evaluator (bots/learned/, bots/evaluators/learned.py).
//
// A model file's metadata (a JSON string) and arrays describe an MLP or an
// n-tuple network with quantised integer weights; the specification of issue 79,
// which bots/learned/ implements in numpy, fixes every operation. The
// integer sums are exact in any order, and the few floating-point operations
// (input scaling and rounding, a multiplication by a power of two, the head's
// clamps and one division) are done in the spec's order, so the values equal
// the Python inference's bit for bit and node counts agree between engines.
//
// The weights are immutable and shared between copies; each copy owns its
// scratch buffers, so the hot path allocates nothing and a copy per searcher
// (or per thread) is cheap.
#ifndef STARSPIEL_BOTS_NATIVE_EVALUATORS_LEARNED_H_
#define STARSPIEL_BOTS_NATIVE_EVALUATORS_LEARNED_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bots/native/evaluator.h"
#include "bots/native/evaluators/learned_encodings.h"
#include "open_spiel/spiel.h"

namespace starspiel {

// One array of a model file as the loader hands it over: numpy's dtype name
// ("int16", "int32", "int64"), its shape, and its values (row-major) widened to int64.
struct ModelArray {
  std::string dtype;
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> values;
};

using ModelArrays = std::map<std::string, ModelArray>;

struct LearnedWeights;  // the parsed, checked model (learned.cc)

class LearnedModel : public Evaluator {
 public:
  // Throws std::invalid_argument naming what is wrong: malformed JSON, an unknown
  // family, encoding or head, a missing array, a wrong dtype or shape.
  LearnedModel(const std::string& metadata, const ModelArrays& arrays);
  // A copy shares the weights and owns its scratch buffers (and its hand evaluator).

  // Throws std::invalid_argument unless `game` is the model's game or its twin (its short
  // name up to a python_ prefix, players and observation size): the engine checks once
  // what the hot path assumes.
  void CheckGame(const open_spiel::Game& game) const;

  double Value(const open_spiel::State& state, int player) override;
  double NonTerminalValue(const open_spiel::State& state, int player) override;
  void NonTerminalValues(const open_spiel::State& state, std::vector<double>* values) override;

  // The network's outputs `out` for a state (before the head), into `outputs`.
  void Outputs(const open_spiel::State& state, std::vector<double>* outputs);

  // Reads the state's observation_tensor(0) into the model's buffer: the part of a leaf's
  // cost the network cannot save (experiments/benchmark/learned_speed.py's floor).
  void Observe(const open_spiel::State& state);

  const std::string& game() const;  // the game's string, as loaded from the metadata
  int num_players() const;
  int num_outputs() const;
  // The bounds of the values of non-terminal states (the head's (L, U)).
  double lower_bound() const;
  double upper_bound() const;

 private:
  // Fills out_ from the state's observation (and, for observation_hand, its hand values;
  // those of a terminal state are its returns where `may_be_terminal`).
  void Forward(const open_spiel::State& state, bool may_be_terminal = false);
  void ForwardMlp();
  void ForwardNtuple();
  // The head applied to out_: every player's value into values_.
  void Head(const open_spiel::State& state);

  std::shared_ptr<const LearnedWeights> weights_;
  std::vector<float> observation_;
  int mover_ = -1;      // observation_mover: the one-hot's player, -1 for none (or no one-hot)
  HandEvaluator hand_;  // observation_hand: the game's hand evaluator, one per copy
  std::vector<std::int32_t> hand_inputs_;  // observation_hand: its values, quantised
  std::vector<std::int32_t> cells_;  // n-tuple: the encoding's cells (the MLP's q stay inline)
  std::vector<std::int64_t> sums_;   // one layer's accumulators
  std::vector<std::int32_t> activations_;
  std::vector<std::int32_t> next_activations_;
  std::vector<double> out_;
  std::vector<double> values_;
};

}  // namespace starspiel

#endif  // STARSPIEL_BOTS_NATIVE_EVALUATORS_LEARNED_H_
