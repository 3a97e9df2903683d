// The native TD trainer (td_trainer.h): self-play games and TD updates in the
// operations of experiments/learn/selfplay.py, in double precision.
#include "bots/native/learning/td_trainer.h"

#include <algorithm>
#include <cstdint>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "bots/native/evaluators/learned_encodings.h"
#include "games/native/splitmix.h"
#include "open_spiel/spiel.h"

namespace starspiel::learning {

FeatureEncoding EncodingNamed(const std::string& name) {
  if (name == "observation") return FeatureEncoding::kObservation;
  if (name == "observation_mover") return FeatureEncoding::kObservationMover;
  if (name == "observation_hand") return FeatureEncoding::kObservationHand;
  if (name == "log2_cells") return FeatureEncoding::kLog2Cells;
  if (name == "plane_cells") return FeatureEncoding::kPlaneCells;
  throw std::invalid_argument("unknown encoding '" + name +
                              "' (known: observation, observation_mover, observation_hand, "
                              "log2_cells, plane_cells)");
}

// One game's scratch: allocated once per game, reused at every node.
struct TdTrainer::Workspace {
  std::vector<float> observation;
  std::vector<std::int32_t> cells;
  std::vector<double> current;  // the features of the child being looked at
  std::vector<double> best;     // the features of the best child so far
  std::vector<std::vector<double>> hidden;
  std::vector<double> cumulative;  // a chance node's cumulative probabilities
  HandEvaluator hand;              // observation_hand: the game's hand evaluator
};

TdTrainer::TdTrainer(std::shared_ptr<const open_spiel::Game> game, FeatureEncoding encoding,
                     TdOptions options)
    : game_(std::move(game)), encoding_(encoding), options_(options) {
  observation_size_ = game_->ObservationTensorSize();
  num_players_ = game_->NumPlayers();
}

std::unique_ptr<TdTrainer> TdTrainer::Mlp(std::shared_ptr<const open_spiel::Game> game,
                                          std::vector<int> sizes, int scale_log2,
                                          FeatureEncoding encoding, TdOptions options) {
  if (encoding != FeatureEncoding::kObservation && encoding != FeatureEncoding::kObservationMover &&
      encoding != FeatureEncoding::kObservationHand) {
    throw std::invalid_argument(
        "an MLP reads the observation, observation_mover or observation_hand encoding");
  }
  // observation_hand: refused here, not in a worker, when the game has no hand evaluator.
  if (encoding == FeatureEncoding::kObservationHand) HandEvaluator check(game);
  std::unique_ptr<TdTrainer> t(new TdTrainer(std::move(game), encoding, options));
  const int extra = encoding == FeatureEncoding::kObservationMover  ? t->num_players_
                    : encoding == FeatureEncoding::kObservationHand ? 2 * t->num_players_
                                                                    : 0;
  t->num_features_ = t->observation_size_ + extra;
  if (sizes.size() < 2 || sizes.front() != t->num_features_ || sizes.back() != 1 ||
      *std::min_element(sizes.begin(), sizes.end()) < 1) {
    throw std::invalid_argument("MLP sizes must be {" + std::to_string(t->num_features_) +
                                " inputs, hidden layers..., 1 output}");
  }
  for (std::size_t l = 0; l + 1 < sizes.size(); ++l) {
    t->param_sizes_.push_back(static_cast<std::int64_t>(sizes[l]) * sizes[l + 1]);
    t->param_sizes_.push_back(sizes[l + 1]);
  }
  t->sizes_ = std::move(sizes);
  t->scale_ = std::ldexp(1.0, scale_log2);
  return t;
}

std::unique_ptr<TdTrainer> TdTrainer::Ntuple(std::shared_ptr<const open_spiel::Game> game,
                                             NtupleLayout layout, FeatureEncoding encoding,
                                             TdOptions options) {
  if (encoding != FeatureEncoding::kLog2Cells && encoding != FeatureEncoding::kPlaneCells) {
    throw std::invalid_argument("an n-tuple network reads log2_cells or plane_cells");
  }
  std::unique_ptr<TdTrainer> t(new TdTrainer(std::move(game), encoding, options));
  if (encoding == FeatureEncoding::kLog2Cells) layout.planes = 1;
  if (layout.planes < 1 || t->observation_size_ % layout.planes != 0) {
    throw std::invalid_argument("planes must divide the observation size");
  }
  t->num_features_ = t->observation_size_ / layout.planes;
  const std::size_t count = layout.placement_base.size();
  if (layout.placement_start.size() != count + 1 || layout.values < 2) {
    throw std::invalid_argument("malformed n-tuple layout");
  }
  for (std::size_t p = 0; p < count; ++p) {
    std::int64_t size = 1;
    for (std::int32_t i = layout.placement_start[p]; i < layout.placement_start[p + 1]; ++i) {
      const std::int32_t cell = layout.placement_cells[i];
      if (cell < 0 || cell >= t->num_features_) throw std::invalid_argument("bad placement cell");
      size *= layout.values;
    }
    if (layout.placement_base[p] < 0 || layout.placement_base[p] + size > layout.lut_size) {
      throw std::invalid_argument("a placement reads past the tables");
    }
  }
  t->param_sizes_ = {layout.lut_size};
  t->layout_ = std::move(layout);
  t->ntuple_ = true;
  return t;
}

void TdTrainer::Encode(const open_spiel::State& state, Workspace& ws, double* out) const {
  ReadObservation(state, &ws.observation);
  const float* x = ws.observation.data();
  switch (encoding_) {
    case FeatureEncoding::kObservation:
    case FeatureEncoding::kObservationMover:
    case FeatureEncoding::kObservationHand: {
      for (int i = 0; i < observation_size_; ++i) out[i] = static_cast<double>(x[i]);
      if (encoding_ != FeatureEncoding::kObservation) {
        std::fill(out + observation_size_, out + num_features_, 0.0);
        const int mover = Mover(state);
        if (mover >= 0) out[observation_size_ + mover] = 1.0;
      }
      if (encoding_ == FeatureEncoding::kObservationHand) {  // the hand values, as floats
        const std::vector<double>& hand = ws.hand.Evaluate(state);
        std::copy(hand.begin(), hand.end(), out + observation_size_ + num_players_);
      }
      return;
    }
    case FeatureEncoding::kLog2Cells:
      Log2Cells(x, num_features_, layout_.values, ws.cells.data());
      break;
    case FeatureEncoding::kPlaneCells:
      PlaneCells(x, layout_.planes, num_features_, layout_.values, ws.cells.data());
      break;
  }
  for (int i = 0; i < num_features_; ++i) out[i] = static_cast<double>(ws.cells[i]);
}

double TdTrainer::Output(const Params& params, const double* x, Workspace& ws) const {
  return ntuple_ ? NtupleOutput(params, x) : MlpOutput(params, x, ws.hidden);
}

// h = clip(x W + b, 0, 1) per hidden layer, out = (h W_H + b_H) * 2**s; zero inputs skipped
// (observations are sparse, and so are clipped activations). hidden[l] receives layer l's
// activations and, where given, (*masks)[l] 1.0 where 0 < pre < 1 (the gradient's path).
double TdTrainer::MlpOutput(const Params& params, const double* x,
                            std::vector<std::vector<double>>& hidden,
                            std::vector<std::vector<double>>* masks) const {
  const std::size_t hidden_layers = sizes_.size() - 2;
  const double* in = x;
  for (std::size_t l = 0; l < hidden_layers; ++l) {
    const int n_in = sizes_[l];
    const int n_out = sizes_[l + 1];
    const double* w = params[2 * l];
    const double* b = params[2 * l + 1];
    double* acc = hidden[l].data();
    std::fill(acc, acc + n_out, 0.0);
    for (int i = 0; i < n_in; ++i) {
      const double xi = in[i];
      if (xi == 0.0) continue;
      const double* row = w + static_cast<std::size_t>(i) * n_out;
      for (int j = 0; j < n_out; ++j) acc[j] += xi * row[j];
    }
    for (int j = 0; j < n_out; ++j) {
      const double pre = acc[j] + b[j];
      if (masks != nullptr) (*masks)[l][j] = pre > 0.0 && pre < 1.0 ? 1.0 : 0.0;
      acc[j] = std::min(std::max(pre, 0.0), 1.0);
    }
    in = acc;
  }
  const int n = sizes_[hidden_layers];
  const double* w = params[2 * hidden_layers];
  double y = 0.0;
  for (int i = 0; i < n; ++i) y += in[i] * w[i];
  return (y + params[2 * hidden_layers + 1][0]) * scale_;
}

namespace {

// numpy's sum of a contiguous float64 array (its pairwise summation, 8 partial sums in a
// block of up to 128), so that an n-tuple value adds up as numpy's luts[indices].sum().
double NumpySum(const double* a, std::size_t n) {
  if (n < 8) {
    double sum = 0.0;
    for (std::size_t i = 0; i < n; ++i) sum += a[i];
    return sum;
  }
  if (n <= 128) {
    double r[8];
    for (int j = 0; j < 8; ++j) r[j] = a[j];
    std::size_t i = 8;
    for (; i < n - (n % 8); i += 8) {
      for (int j = 0; j < 8; ++j) r[j] += a[i + j];
    }
    double sum = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) sum += a[i];
    return sum;
  }
  std::size_t half = n / 2;
  half -= half % 8;
  return NumpySum(a, half) + NumpySum(a + half, n - half);
}

}  // namespace

double TdTrainer::NtupleOutput(const Params& params, const double* x) const {
  const double* luts = params[0];
  const std::int64_t v = layout_.values;
  double sum = 0.0;
  const std::size_t count = layout_.placement_base.size();
  for (std::size_t p = 0; p < count; ++p) {
    std::int64_t index = 0;
    for (std::int32_t i = layout_.placement_start[p]; i < layout_.placement_start[p + 1]; ++i) {
      index = index * v + static_cast<std::int64_t>(x[layout_.placement_cells[i]]);
    }
    sum += luts[layout_.placement_base[p] + index];
  }
  return sum;
}

Trajectory TdTrainer::Play(const Params& params, std::int64_t game_index) const {
  Workspace ws;
  ws.observation.assign(observation_size_, 0.0f);
  ws.cells.assign(num_features_, 0);
  ws.current.assign(num_features_, 0.0);
  ws.best.assign(num_features_, 0.0);
  if (encoding_ == FeatureEncoding::kObservationHand) ws.hand = HandEvaluator(game_);
  if (!ntuple_) {
    for (std::size_t l = 1; l + 1 < sizes_.size(); ++l) ws.hidden.emplace_back(sizes_[l]);
  }
  auto rng = splitmix::SplitMix64::Seeded(options_.seed,
                                          "experiments.learn/game/" + std::to_string(game_index));
  Trajectory trajectory;
  std::unique_ptr<open_spiel::State> state = game_->NewInitialState();
  while (!state->IsTerminal()) {
    if (state->IsChanceNode()) {
      // One uniform draw against the cumulative probabilities (selfplay.sample_chance).
      const std::vector<std::pair<open_spiel::Action, double>> outcomes = state->ChanceOutcomes();
      ws.cumulative.clear();
      double total = 0.0;
      for (const auto& outcome : outcomes) {
        total += outcome.second;
        ws.cumulative.push_back(total);
      }
      const double target = rng.Random() * total;
      std::size_t index = std::upper_bound(ws.cumulative.begin(), ws.cumulative.end(), target) -
                          ws.cumulative.begin();
      index = std::min(index, outcomes.size() - 1);
      trajectory.actions.push_back(outcomes[index].first);
      state->ApplyAction(outcomes[index].first);
      continue;
    }
    if (trajectory.moves >= options_.max_moves) {
      trajectory.cut_off = true;
      break;
    }
    const int mover = state->CurrentPlayer();
    const std::vector<open_spiel::Action> legal = state->LegalActions();
    const bool explore = options_.epsilon > 0 && rng.Random() < options_.epsilon;
    std::unique_ptr<open_spiel::State> chosen;
    open_spiel::Action action = open_spiel::kInvalidAction;
    if (explore) {
      action = legal[rng.Below(legal.size())];
      chosen = state->Child(action);
      if (!chosen->IsTerminal()) Encode(*chosen, ws, ws.best.data());
    } else {
      // Greedy over afterstates: total = returns_0 + out (out of non-terminal children
      // only); player 1 minimises, everyone else maximises; the first best on ties.
      double best = 0.0;
      for (const open_spiel::Action a : legal) {
        std::unique_ptr<open_spiel::State> child = state->Child(a);
        double total = child->Returns()[0];
        if (!child->IsTerminal()) {
          Encode(*child, ws, ws.current.data());
          total += Output(params, ws.current.data(), ws);
        }
        if (chosen == nullptr || (mover == 1 ? total < best : total > best)) {
          best = total;
          chosen = std::move(child);
          action = a;
          std::swap(ws.current, ws.best);
        }
      }
    }
    if (!chosen->IsTerminal()) {
      trajectory.features.insert(trajectory.features.end(), ws.best.begin(), ws.best.end());
      trajectory.returns.push_back(chosen->Returns()[0]);
    }
    trajectory.actions.push_back(action);
    state = std::move(chosen);
    ++trajectory.moves;
  }
  trajectory.final_return = state->IsTerminal() ? state->Returns()[0] : 0.0;
  return trajectory;
}

double TdTrainer::Learn(const Params& params, const Trajectory& trajectory) const {
  const int length = static_cast<int>(trajectory.returns.size());
  if (trajectory.features.size() != static_cast<std::size_t>(length) * num_features_) {
    throw std::invalid_argument("a trajectory's features are not (steps, " +
                                std::to_string(num_features_) + ")");
  }
  const int steps = trajectory.cut_off ? length - 1 : length;
  if (steps <= 0) return 0.0;
  return ntuple_ ? LearnNtuple(params, trajectory, steps) : LearnMlp(params, trajectory, steps);
}

// selfplay.td_update for the MLP: online TD(lambda), step t's target from the weights after
// step t-1's update; per parameter, in params() order: the trace decays, adds the gradient,
// and the weights move by alpha * delta / scale**2 times the trace.
double TdTrainer::LearnMlp(const Params& params, const Trajectory& trajectory, int steps) const {
  const std::size_t hidden_layers = sizes_.size() - 2;
  const int d = num_features_;
  const double* r = trajectory.returns.data();
  const int length = static_cast<int>(trajectory.returns.size());
  const double lambda = options_.lambda;
  std::vector<std::vector<double>> traces;
  for (const std::int64_t size : param_sizes_) traces.emplace_back(size, 0.0);
  // A row of W0 whose input was zero at every step so far has a zero trace and moves not.
  std::vector<char> live_rows(d, 0);
  std::vector<std::vector<double>> hidden(hidden_layers);  // hidden[l]: hidden layer l
  std::vector<std::vector<double>> masks(hidden_layers);   // 1.0 where 0 < pre < 1
  std::vector<std::vector<double>> deltas(hidden_layers);  // d out / d pre, per hidden layer
  for (std::size_t l = 0; l < hidden_layers; ++l) {
    hidden[l].assign(sizes_[l + 1], 0.0);
    masks[l].assign(sizes_[l + 1], 0.0);
    deltas[l].assign(sizes_[l + 1], 0.0);
  }
  Workspace ws;
  for (std::size_t l = 1; l + 1 < sizes_.size(); ++l) ws.hidden.emplace_back(sizes_[l]);
  std::vector<double> back(*std::max_element(sizes_.begin(), sizes_.end()), 0.0);
  const int last = sizes_[hidden_layers];
  const double* w_out = params[2 * hidden_layers];
  double squared = 0.0;
  for (int t = 0; t < steps; ++t) {
    const double* x = trajectory.features.data() + static_cast<std::size_t>(t) * d;
    // Forward, keeping what the gradient needs.
    const double value = MlpOutput(params, x, hidden, &masks);
    double target;
    if (t + 1 < length) {
      target = r[t + 1] + MlpOutput(params, x + d, ws.hidden) - r[t];
    } else {
      target = trajectory.final_return - r[t];
    }
    const double delta = target - value;
    squared += delta * delta;
    const double step = options_.alpha * delta / (scale_ * scale_);
    // Backward with the weights before this step's update: d out / d pre of each layer.
    for (int i = 0; i < last; ++i) back[i] = w_out[i] * scale_;
    for (std::size_t index = hidden_layers; index-- > 0;) {
      const int n_in = sizes_[index];
      const int n_out = sizes_[index + 1];
      for (int j = 0; j < n_out; ++j) deltas[index][j] = back[j] * masks[index][j];
      if (index == 0) break;
      const double* w = params[2 * index];
      for (int i = 0; i < n_in; ++i) {
        const double* row = w + static_cast<std::size_t>(i) * n_out;
        double sum = 0.0;
        for (int j = 0; j < n_out; ++j) sum += row[j] * deltas[index][j];
        back[i] = sum;
      }
    }
    // The updates, in params() order.
    for (std::size_t l = 0; l < hidden_layers; ++l) {
      const int n_in = sizes_[l];
      const int n_out = sizes_[l + 1];
      const double* h = l == 0 ? x : hidden[l - 1].data();
      const double* g = deltas[l].data();
      double* w = params[2 * l];
      double* trace = traces[2 * l].data();
      for (int i = 0; i < n_in; ++i) {
        const double hi = h[i];
        if (l == 0) {
          if (hi != 0.0) live_rows[i] = 1;
          if (!live_rows[i]) continue;  // trace and gradient zero: nothing moves
        }
        double* tr = trace + static_cast<std::size_t>(i) * n_out;
        double* wr = w + static_cast<std::size_t>(i) * n_out;
        if (hi == 0.0) {
          for (int j = 0; j < n_out; ++j) {
            tr[j] = tr[j] * lambda;
            wr[j] = wr[j] + step * tr[j];
          }
        } else {
          for (int j = 0; j < n_out; ++j) {
            tr[j] = tr[j] * lambda;
            tr[j] = tr[j] + hi * g[j];
            wr[j] = wr[j] + step * tr[j];
          }
        }
      }
      double* b = params[2 * l + 1];
      double* trb = traces[2 * l + 1].data();
      for (int j = 0; j < n_out; ++j) {
        trb[j] = trb[j] * lambda;
        trb[j] = trb[j] + g[j];
        b[j] = b[j] + step * trb[j];
      }
    }
    const double* h = hidden[hidden_layers - 1].data();
    double* w = params[2 * hidden_layers];
    double* tr = traces[2 * hidden_layers].data();
    for (int i = 0; i < last; ++i) {
      tr[i] = tr[i] * lambda;
      tr[i] = tr[i] + h[i] * scale_;
      w[i] = w[i] + step * tr[i];
    }
    double* b = params[2 * hidden_layers + 1];
    double* trb = traces[2 * hidden_layers + 1].data();
    trb[0] = trb[0] * lambda;
    trb[0] = trb[0] + scale_;
    b[0] = b[0] + step * trb[0];
  }
  return squared;
}

// selfplay._td0_ntuple: TD(0) on afterstates; every table entry a placement read moves by
// alpha * delta (twice if two placements read it, as np.add.at does).
double TdTrainer::LearnNtuple(const Params& params, const Trajectory& trajectory, int steps) const {
  double* luts = params[0];
  const int d = num_features_;
  const double* r = trajectory.returns.data();
  const int length = static_cast<int>(trajectory.returns.size());
  const std::size_t count = layout_.placement_base.size();
  const std::int64_t v = layout_.values;
  std::vector<std::int64_t> now(count), next(count);
  std::vector<double> read(count);
  auto indices = [&](int t, std::vector<std::int64_t>& out) {
    const double* x = trajectory.features.data() + static_cast<std::size_t>(t) * d;
    for (std::size_t p = 0; p < count; ++p) {
      std::int64_t index = 0;
      for (std::int32_t i = layout_.placement_start[p]; i < layout_.placement_start[p + 1]; ++i) {
        index = index * v + static_cast<std::int64_t>(x[layout_.placement_cells[i]]);
      }
      out[p] = layout_.placement_base[p] + index;
    }
  };
  auto sum = [&](const std::vector<std::int64_t>& at) {
    for (std::size_t p = 0; p < count; ++p) read[p] = luts[at[p]];
    return NumpySum(read.data(), count);
  };
  double squared = 0.0;
  indices(0, now);
  for (int t = 0; t < steps; ++t) {
    const double value = sum(now);
    double target;
    if (t + 1 < length) {
      indices(t + 1, next);
      target = r[t + 1] + sum(next) - r[t];
    } else {
      target = trajectory.final_return - r[t];
    }
    const double delta = target - value;
    squared += delta * delta;
    const double change = options_.alpha * delta;
    for (std::size_t p = 0; p < count; ++p) luts[now[p]] += change;
    std::swap(now, next);
  }
  return squared;
}

std::pair<double, std::int64_t> TdTrainer::PlayAndLearn(const Params& params, std::int64_t first,
                                                        std::int64_t count, int workers) const {
  if (workers < 1) throw std::invalid_argument("workers must be at least 1");
  std::vector<Trajectory> batch(workers);
  double squared = 0.0;
  std::int64_t steps = 0;
  for (std::int64_t done = 0; done < count;) {
    const int n = static_cast<int>(std::min<std::int64_t>(workers, count - done));
    const std::int64_t start = first + done;
    if (n == 1) {
      batch[0] = Play(params, start);
    } else {
      std::vector<std::exception_ptr> errors(n);
      std::vector<std::thread> threads;
      for (int k = 1; k < n; ++k) {
        threads.emplace_back([&, k]() {
          try {
            batch[k] = Play(params, start + k);
          } catch (...) {
            errors[k] = std::current_exception();
          }
        });
      }
      try {
        batch[0] = Play(params, start);
      } catch (...) {
        errors[0] = std::current_exception();
      }
      for (std::thread& thread : threads) thread.join();
      for (const std::exception_ptr& error : errors) {
        if (error) std::rethrow_exception(error);
      }
    }
    for (int k = 0; k < n; ++k) {
      squared += Learn(params, batch[k]);
      steps += static_cast<std::int64_t>(batch[k].returns.size());
    }
    done += n;
  }
  return {squared, steps};
}

}  // namespace starspiel::learning
