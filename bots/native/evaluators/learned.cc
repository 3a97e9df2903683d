// Native twin of a learned evaluator: integer inference of a quantised MLP or
// n-tuple network, and the heads, in the operations of issue 79's
// specification (see learned.h). Not registered by name: a model is data, so
// bots._native.LearnedModel builds one from a model file's contents.
#include "bots/native/evaluators/learned.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "bots/native/evaluators/learned_encodings.h"
#include "nlohmann/json.hpp"
#include "open_spiel/spiel.h"

namespace starspiel {

enum class Family { kMlp, kNtuple };
enum class Encoding { kObservation, kObservationMover, kObservationHand, kLog2Cells, kPlaneCells };
enum class Head { kZeroSum, kOnePlayer, kWinShares };

// One MLP layer: w (n_in, n_out) row-major, b (n_out).
struct MlpLayer {
  int n_in = 0;
  int n_out = 0;
  std::vector<std::int16_t> w;
  std::vector<std::int64_t> b;
};

struct LearnedWeights {
  std::string game;  // the game's string and short name
  std::string short_name;
  Family family = Family::kMlp;
  Encoding encoding = Encoding::kObservation;
  Head head = Head::kZeroSum;
  int observation_size = 0;
  int mover_inputs = 0;  // observation_mover: one input per player after the observation
  int hand_inputs = 0;   // observation_hand: one more per player, the hand evaluator's values
  std::shared_ptr<const open_spiel::Game> hand_game;  // observation_hand: the game it rates
  int planes = 1;  // plane_cells: the observation as (planes, cells)
  int cells = 0;   // n-tuple: the board cells the encoding gives
  int values = 0;  // n-tuple: the values a cell takes (V)
  int input_shift = 0;
  int weight_shift = 0;
  int activation_shift = 0;
  int output_shift = 0;
  std::vector<MlpLayer> layers;  // the hidden layers, then the output layer
  // n-tuple: placement p reads cells placement_cells[placement_start[p]..placement_start[p+1])
  // into the table at luts[placement_base[p]].
  std::vector<std::int32_t> luts;
  std::vector<std::int32_t> placement_cells;
  std::vector<std::int32_t> placement_start;
  std::vector<std::int64_t> placement_base;
  int num_players = 0;
  int num_outputs = 0;
  double lower = 0.0;  // the head's (L, U)
  double upper = 0.0;
  double loser = 0.0;         // win_shares: a loser's return
  double shrunk_lower = 0.0;  // zero_sum: 0.99 * L, 0.99 * U
  double shrunk_upper = 0.0;
};

namespace {

using Json = nlohmann::json;

[[noreturn]] void Fail(const std::string& what) {
  throw std::invalid_argument("learned model: " + what);
}

const Json& Field(const Json& object, const char* key, const char* where) {
  if (!object.is_object() || !object.contains(key)) {
    Fail(std::string(where) + " has no '" + key + "'");
  }
  return object.at(key);
}

std::string StringField(const Json& object, const char* key, const char* where) {
  const Json& value = Field(object, key, where);
  if (!value.is_string()) Fail(std::string(where) + "'s '" + key + "' is not a string");
  return value.get<std::string>();
}

int IntField(const Json& object, const char* key, const char* where) {
  const Json& value = Field(object, key, where);
  if (!value.is_number_integer()) {
    Fail(std::string(where) + "'s '" + key + "' is not an integer");
  }
  const auto v = value.get<std::int64_t>();
  if (v < -1000000 || v > 1000000) Fail(std::string(where) + "'s '" + key + "' is out of range");
  return static_cast<int>(v);
}

template <class Enum>
Enum Choice(const std::string& value, const char* what,
            const std::vector<std::pair<const char*, Enum>>& choices) {
  std::string names;
  for (const auto& [name, choice] : choices) {
    if (value == name) return choice;
    names += names.empty() ? name : std::string(", ") + name;
  }
  Fail("unknown " + std::string(what) + " '" + value + "' (known: " + names + ")");
}

std::string ShapeText(const std::vector<std::int64_t>& shape) {
  std::string text = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    text += (i ? ", " : "") + std::to_string(shape[i]);
  }
  return text + (shape.size() == 1 ? ",)" : ")");
}

// The array `name` of `dtype`, of `rank` dimensions (its shape is checked by the caller).
const ModelArray& Array(const ModelArrays& arrays, const std::string& name, const char* dtype,
                        std::size_t rank) {
  auto it = arrays.find(name);
  if (it == arrays.end()) Fail("the array '" + name + "' is missing");
  const ModelArray& array = it->second;
  if (array.dtype != dtype) {
    Fail("the array '" + name + "' is " + array.dtype + ", not " + dtype);
  }
  std::int64_t size = 1;
  for (std::int64_t d : array.shape) size *= d;
  if (array.shape.size() != rank || size != static_cast<std::int64_t>(array.values.size())) {
    Fail("the array '" + name + "' has shape " + ShapeText(array.shape) + ", expected " +
         std::to_string(rank) + " dimensions");
  }
  return array;
}

void CheckShift(int shift, const char* name) {
  if (shift < 0 || shift > 62)
    Fail(std::string(name) + " " + std::to_string(shift) + " not in [0, 62]");
}

void ReadMlp(const Json& quantisation, const ModelArrays& arrays, LearnedWeights* w) {
  w->input_shift = IntField(quantisation, "input_shift", "quantisation");
  w->weight_shift = IntField(quantisation, "weight_shift", "quantisation");
  w->activation_shift = IntField(quantisation, "activation_shift", "quantisation");
  CheckShift(w->input_shift, "input_shift");
  CheckShift(w->weight_shift, "weight_shift");
  if (w->activation_shift < 0 || w->activation_shift > 30) {
    Fail("activation_shift " + std::to_string(w->activation_shift) + " not in [0, 30]");
  }
  int n_in = w->observation_size + w->mover_inputs + w->hand_inputs;
  for (int l = 0; arrays.count("w" + std::to_string(l)); ++l) {
    const std::string wn = "w" + std::to_string(l), bn = "b" + std::to_string(l);
    const ModelArray& wa = Array(arrays, wn, "int16", 2);
    const ModelArray& ba = Array(arrays, bn, "int64", 1);
    if (wa.shape[0] != n_in) {
      Fail("the array '" + wn + "' has shape " + ShapeText(wa.shape) + ": its layer reads " +
           std::to_string(n_in) + " inputs");
    }
    if (ba.shape[0] != wa.shape[1]) {
      Fail("the array '" + bn + "' has shape " + ShapeText(ba.shape) + ", expected (" +
           std::to_string(wa.shape[1]) + ",)");
    }
    MlpLayer layer;
    layer.n_in = static_cast<int>(wa.shape[0]);
    layer.n_out = static_cast<int>(wa.shape[1]);
    layer.w.assign(wa.values.begin(), wa.values.end());
    layer.b = ba.values;
    w->layers.push_back(std::move(layer));
    n_in = w->layers.back().n_out;
  }
  if (w->layers.empty()) Fail("the array 'w0' is missing");
  if (w->layers.size() > 1 && w->input_shift + w->weight_shift < w->activation_shift) {
    Fail("input_shift + weight_shift < activation_shift");
  }
  if (n_in != w->num_outputs) {
    Fail("the output layer has " + std::to_string(n_in) + " outputs, its head needs " +
         std::to_string(w->num_outputs));
  }
}

void ReadNtuple(const ModelArrays& arrays, LearnedWeights* w) {
  if (w->values < 2 || w->values > 1 << 20) Fail("architecture.values must be in [2, 2**20]");
  if (w->num_outputs != 1) Fail("an n-tuple network has one output, its head needs more");
  const ModelArray& luts = Array(arrays, "luts", "int32", 1);
  const ModelArray& offsets = Array(arrays, "lut_offsets", "int64", 1);
  const ModelArray& placements = Array(arrays, "placements", "int32", 2);
  const ModelArray& tables = Array(arrays, "placement_tables", "int32", 1);
  const std::int64_t num_tables = offsets.shape[0] - 1;
  if (num_tables < 0 || offsets.values.front() != 0 ||
      offsets.values.back() != static_cast<std::int64_t>(luts.values.size())) {
    Fail("lut_offsets must run from 0 to the size of luts");
  }
  for (std::int64_t t = 0; t < num_tables; ++t) {
    if (offsets.values[t + 1] < offsets.values[t]) Fail("lut_offsets must not decrease");
  }
  const std::int64_t count = placements.shape[0], kmax = placements.shape[1];
  if (tables.shape[0] != count) {
    Fail("placement_tables has shape " + ShapeText(tables.shape) + ", expected (" +
         std::to_string(count) + ",)");
  }
  w->luts.assign(luts.values.begin(), luts.values.end());
  w->placement_start.push_back(0);
  for (std::int64_t p = 0; p < count; ++p) {
    const std::int64_t t = tables.values[p];
    if (t < 0 || t >= num_tables) Fail("placement " + std::to_string(p) + " reads no table");
    std::int64_t size = 1;
    int k = 0;
    for (; k < kmax && placements.values[p * kmax + k] >= 0; ++k) {
      const std::int64_t cell = placements.values[p * kmax + k];
      if (cell >= w->cells) {
        Fail("placement " + std::to_string(p) + " reads cell " + std::to_string(cell) + " of " +
             std::to_string(w->cells));
      }
      w->placement_cells.push_back(static_cast<std::int32_t>(cell));
      if (size > std::numeric_limits<std::int64_t>::max() / w->values) Fail("a tuple is too long");
      size *= w->values;
    }
    for (int j = k; j < kmax; ++j) {
      if (placements.values[p * kmax + j] != -1) {
        Fail("placement " + std::to_string(p) + " is not padded with -1 at its end");
      }
    }
    if (offsets.values[t + 1] - offsets.values[t] != size) {
      Fail("table " + std::to_string(t) + " has " +
           std::to_string(offsets.values[t + 1] - offsets.values[t]) + " entries, placement " +
           std::to_string(p) + " needs values ** " + std::to_string(k) + " = " +
           std::to_string(size));
    }
    w->placement_start.push_back(static_cast<std::int32_t>(w->placement_cells.size()));
    w->placement_base.push_back(offsets.values[t]);
  }
}

std::shared_ptr<const LearnedWeights> ReadModel(const std::string& metadata,
                                                const ModelArrays& arrays) {
  Json meta;
  try {
    meta = Json::parse(metadata);
  } catch (const Json::exception& error) {
    Fail(std::string("the metadata is not JSON: ") + error.what());
  }
  if (!meta.is_object()) Fail("the metadata is not a JSON object");
  auto w = std::make_shared<LearnedWeights>();
  try {
    const std::string game_string = StringField(meta, "game", "metadata");
    std::shared_ptr<const open_spiel::Game> game = open_spiel::LoadGame(game_string);
    w->game = game->ToString();
    w->short_name = game->GetType().short_name;
    w->num_players = game->NumPlayers();
    w->observation_size = game->ObservationTensorSize();
    w->family = Choice<Family>(StringField(meta, "family", "metadata"), "family",
                               {{"mlp", Family::kMlp}, {"ntuple", Family::kNtuple}});
    w->encoding = Choice<Encoding>(StringField(meta, "encoding", "metadata"), "encoding",
                                   {{"observation", Encoding::kObservation},
                                    {"observation_mover", Encoding::kObservationMover},
                                    {"observation_hand", Encoding::kObservationHand},
                                    {"log2_cells", Encoding::kLog2Cells},
                                    {"plane_cells", Encoding::kPlaneCells}});
    w->head = Choice<Head>(StringField(meta, "head", "metadata"), "head",
                           {{"zero_sum", Head::kZeroSum},
                            {"one_player", Head::kOnePlayer},
                            {"win_shares", Head::kWinShares}});
    const Json& architecture = Field(meta, "architecture", "metadata");
    const Json& quantisation = Field(meta, "quantisation", "metadata");
    w->output_shift = IntField(quantisation, "output_shift", "quantisation");
    if (w->output_shift < -1000 || w->output_shift > 1000) Fail("output_shift out of range");

    w->lower = game->MinUtility();
    w->upper = game->MaxUtility();
    switch (w->head) {
      case Head::kZeroSum:
        if (w->num_players != 2) Fail("the zero_sum head needs a two-player game");
        w->num_outputs = 1;
        break;
      case Head::kOnePlayer:
        if (w->num_players != 1) Fail("the one_player head needs a one-player game");
        // bots.evaluators.game_value_bounds: 2048's proven score bound.
        if (game->GetType().short_name == "2048") w->upper = 16.0 * w->upper;
        w->num_outputs = 1;
        break;
      case Head::kWinShares: {
        // bots/learned/heads.py loser_return: a loser's return, (utility_sum - U) / (N - 1).
        const absl::optional<double> sum = game->UtilitySum();
        if (!sum.has_value() || w->num_players < 2) {
          Fail("the win_shares head needs a constant-sum game of two or more players");
        }
        w->loser = (*sum - w->upper) / (w->num_players - 1);
        if (!(w->lower <= w->loser && w->loser <= w->upper)) {
          Fail("the win_shares head needs a losers' return within the game's utilities");
        }
        w->num_outputs = w->num_players;
        break;
      }
    }
    w->shrunk_lower = 0.99 * w->lower;
    w->shrunk_upper = 0.99 * w->upper;

    if (w->family == Family::kMlp) {
      if (w->encoding != Encoding::kObservation && w->encoding != Encoding::kObservationMover &&
          w->encoding != Encoding::kObservationHand) {
        Fail("an MLP reads the observation, observation_mover or observation_hand encoding");
      }
      if (w->encoding != Encoding::kObservation) w->mover_inputs = w->num_players;
      if (w->encoding == Encoding::kObservationHand) {
        w->hand_inputs = w->num_players;
        w->hand_game = game;
      }
      ReadMlp(quantisation, arrays, w.get());
    } else {
      if (w->encoding == Encoding::kObservation || w->encoding == Encoding::kObservationMover ||
          w->encoding == Encoding::kObservationHand) {
        Fail("an n-tuple network reads log2_cells or plane_cells");
      }
      w->cells = w->observation_size;
      if (w->encoding == Encoding::kPlaneCells) {
        w->planes = IntField(Field(meta, "encoding_args", "metadata"), "planes", "encoding_args");
        if (w->planes <= 0 || w->observation_size % w->planes != 0) {
          Fail("encoding_args.planes = " + std::to_string(w->planes) +
               " does not divide the observation size " + std::to_string(w->observation_size));
        }
        w->cells = w->observation_size / w->planes;
      }
      w->values = IntField(architecture, "values", "architecture");
      ReadNtuple(arrays, w.get());
    }
  } catch (const Json::exception& error) {
    Fail(std::string("bad metadata: ") + error.what());
  }
  return w;
}

}  // namespace

LearnedModel::LearnedModel(const std::string& metadata, const ModelArrays& arrays)
    : weights_(ReadModel(metadata, arrays)) {
  const LearnedWeights& w = *weights_;
  observation_.assign(w.observation_size, 0.0f);
  cells_.assign(w.cells, 0);
  std::size_t widest = w.num_outputs;
  for (const MlpLayer& layer : w.layers) widest = std::max<std::size_t>(widest, layer.n_out);
  sums_.assign(widest, 0);
  activations_.assign(widest, 0);
  next_activations_.assign(widest, 0);
  out_.assign(w.num_outputs, 0.0);
  values_.assign(w.num_players, 0.0);
  if (w.hand_inputs > 0) {
    try {
      hand_ = HandEvaluator(w.hand_game);
    } catch (const std::invalid_argument& error) {
      Fail(error.what());
    }
    hand_inputs_.assign(w.hand_inputs, 0);
  }
}

namespace {

// A game's name without the prefix of its Python twin (python_cant_stop: OpenSpiel's
// convention): a model of either evaluates both.
std::string Untwinned(const std::string& name) {
  return name.rfind("python_", 0) == 0 ? name.substr(7) : name;
}

}  // namespace

void LearnedModel::CheckGame(const open_spiel::Game& game) const {
  const LearnedWeights& w = *weights_;
  if (Untwinned(game.GetType().short_name) != Untwinned(w.short_name) ||
      game.NumPlayers() != w.num_players || game.ObservationTensorSize() != w.observation_size) {
    Fail("a model of '" + w.game + "' cannot evaluate states of '" + game.ToString() + "'");
  }
}

const std::string& LearnedModel::game() const { return weights_->game; }
int LearnedModel::num_players() const { return weights_->num_players; }
int LearnedModel::num_outputs() const { return weights_->num_outputs; }
double LearnedModel::lower_bound() const { return weights_->lower; }
double LearnedModel::upper_bound() const { return weights_->upper; }

void LearnedModel::ForwardMlp() {
  const LearnedWeights& w = *weights_;
  const std::size_t layers = w.layers.size();
  const double input_scale = std::ldexp(1.0, w.input_shift);
  const std::int32_t top = std::int32_t{1} << w.activation_shift;
  // Layer 0, sparse: only the rows of non-zero inputs.
  const MlpLayer& first = w.layers[0];
  const int n0 = first.n_out;
  std::int64_t* sums = sums_.data();
  std::copy(first.b.begin(), first.b.end(), sums);
  const std::int16_t* row = first.w.data();
  const int row_mover = w.observation_size + mover_;
  for (int i = 0; i < w.observation_size; ++i, row += n0) {
    if (observation_[i] == 0.0f) continue;  // q = 0 (most inputs of a board's encoding)
    double x = std::nearbyint(static_cast<double>(observation_[i]) * input_scale);
    x = std::min(std::max(x, -32767.0), 32767.0);
    const std::int64_t q = static_cast<std::int32_t>(x);
    if (q == 0) continue;
    for (int j = 0; j < n0; ++j) sums[j] += q * row[j];
  }
  if (mover_ >= 0) {  // observation_mover: the one-hot's 1.0, quantised, on the mover's row
    const std::int64_t q = std::min<std::int64_t>(std::int64_t{1} << w.input_shift, 32767);
    const std::int16_t* mover_row = first.w.data() + static_cast<std::size_t>(row_mover) * n0;
    for (int j = 0; j < n0; ++j) sums[j] += q * mover_row[j];
  }
  // observation_hand: the hand evaluator's values, quantised as the observation is.
  const std::int16_t* hand_rows =
      first.w.data() + static_cast<std::size_t>(w.observation_size + w.mover_inputs) * n0;
  for (int p = 0; p < w.hand_inputs; ++p, hand_rows += n0) {
    const std::int64_t q = hand_inputs_[p];
    if (q == 0) continue;
    for (int j = 0; j < n0; ++j) sums[j] += q * hand_rows[j];
  }
  if (layers == 1) {  // a linear model: the output layer read q
    for (int k = 0; k < n0; ++k) {
      out_[k] = std::ldexp(static_cast<double>(sums[k]), -w.output_shift);
    }
    return;
  }
  const int first_shift = w.input_shift + w.weight_shift - w.activation_shift;
  std::int32_t* a = activations_.data();
  for (int j = 0; j < n0; ++j) {
    a[j] = static_cast<std::int32_t>(
        std::min<std::int64_t>(std::max<std::int64_t>(sums[j] >> first_shift, 0), top));
  }
  for (std::size_t l = 1; l < layers; ++l) {
    const MlpLayer& layer = w.layers[l];
    const int n_out = layer.n_out;
    std::copy(layer.b.begin(), layer.b.end(), sums);
    const std::int16_t* r = layer.w.data();
    for (int i = 0; i < layer.n_in; ++i, r += n_out) {
      const std::int64_t ai = a[i];
      if (ai == 0) continue;
      for (int j = 0; j < n_out; ++j) sums[j] += ai * r[j];
    }
    if (l + 1 == layers) {
      for (int k = 0; k < n_out; ++k) {
        out_[k] = std::ldexp(static_cast<double>(sums[k]), -w.output_shift);
      }
      return;
    }
    std::int32_t* next = next_activations_.data();
    for (int j = 0; j < n_out; ++j) {
      next[j] = static_cast<std::int32_t>(
          std::min<std::int64_t>(std::max<std::int64_t>(sums[j] >> w.weight_shift, 0), top));
    }
    std::swap(activations_, next_activations_);
    a = activations_.data();
  }
}

void LearnedModel::ForwardNtuple() {
  const LearnedWeights& w = *weights_;
  std::int32_t* cells = cells_.data();
  if (w.encoding == Encoding::kLog2Cells) {
    Log2Cells(observation_.data(), w.cells, w.values, cells);
  } else {
    PlaneCells(observation_.data(), w.planes, w.cells, w.values, cells);
  }
  const std::int64_t v = w.values;
  const std::int32_t* at = w.placement_cells.data();
  const std::size_t count = w.placement_base.size();
  std::int64_t o = 0;
  for (std::size_t p = 0; p < count; ++p) {
    const std::int32_t* end = w.placement_cells.data() + w.placement_start[p + 1];
    std::int64_t index = 0;
    for (; at < end; ++at) index = index * v + cells[*at];
    o += w.luts[w.placement_base[p] + index];
  }
  out_[0] = std::ldexp(static_cast<double>(o), -w.output_shift);
}

void LearnedModel::Observe(const open_spiel::State& state) {
  ReadObservation(state, &observation_);
}

void LearnedModel::Forward(const open_spiel::State& state, bool may_be_terminal) {
  Observe(state);
  mover_ = weights_->mover_inputs > 0 ? Mover(state) : -1;
  if (weights_->hand_inputs > 0) {
    // A terminal state's hand values are its returns (as the Python evaluate's); the
    // search asks for non-terminal states only, so only Outputs (tests) checks.
    if (may_be_terminal && state.IsTerminal()) {
      const std::vector<double> returns = state.Returns();
      for (int p = 0; p < weights_->hand_inputs; ++p) {
        hand_inputs_[p] = QuantisedInput(returns[p], weights_->input_shift);
      }
    } else {
      const std::vector<double>& hand = hand_.Evaluate(state);
      for (int p = 0; p < weights_->hand_inputs; ++p) {
        hand_inputs_[p] = QuantisedInput(hand[p], weights_->input_shift);
      }
    }
  }

  if (weights_->family == Family::kMlp) {
    ForwardMlp();
  } else {
    ForwardNtuple();
  }
}

void LearnedModel::Head(const open_spiel::State& state) {
  const LearnedWeights& w = *weights_;
  switch (w.head) {
    case Head::kZeroSum: {
      const double v = std::min(std::max(out_[0], w.shrunk_lower), w.shrunk_upper);
      values_[0] = v;
      values_[1] = -v;
      return;
    }
    case Head::kOnePlayer: {
      const double returns = state.Returns()[0];
      values_[0] = std::min(std::max(returns + out_[0], w.lower), w.upper);
      return;
    }
    case Head::kWinShares: {
      const int n = w.num_players;
      const double tiny = std::ldexp(1.0, -20);
      // s_k kept in values_, then turned into the values in place.
      double total = 0.0;
      for (int k = 0; k < n; ++k) {
        values_[k] = std::max(out_[k], 0.0) + tiny;
        total = k == 0 ? values_[0] : total + values_[k];
      }
      const double span = w.upper - w.loser;
      for (int k = 0; k < n; ++k) values_[k] = w.loser + span * (values_[k] / total);
      return;
    }
  }
}

void LearnedModel::Outputs(const open_spiel::State& state, std::vector<double>* outputs) {
  Forward(state, /*may_be_terminal=*/true);
  *outputs = out_;
}

double LearnedModel::Value(const open_spiel::State& state, int player) {
  if (state.IsTerminal()) return state.Returns()[player];
  return NonTerminalValue(state, player);
}

double LearnedModel::NonTerminalValue(const open_spiel::State& state, int player) {
  Forward(state);
  Head(state);
  return values_[player];
}

void LearnedModel::NonTerminalValues(const open_spiel::State& state, std::vector<double>* values) {
  Forward(state);
  Head(state);
  std::copy(values_.begin(), values_.end(), values->begin());
}

}  // namespace starspiel
