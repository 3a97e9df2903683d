// The native TD trainer of experiments.learn (issue 79): self-play over OpenSpiel's C++
// states and the TD update, twins of experiments/learn/selfplay.py's play_game (greedy
// over afterstates) and td_update (TD(lambda) for MLPs, TD(0) for n-tuple networks).
//
// The float weights are not owned here: they are the numpy float64 arrays of the Python
// model's params() (W0, b0, ..., W_H, b_H; or the n-tuple luts), read and updated in place
// through raw pointers, so the Python trainer's checkpoints stay as they are. Playing only
// reads them (any number of threads at once); learning writes them (one thread).
//
// Game g draws its chance outcomes and exploration from SplitMix64 seeded by (seed, g), so
// a game depends only on the weights, the seed and g; a batch of W games played with the
// batch's starting weights and learned in game order gives the same model however the
// games were spread over threads (or Ray tasks).
#ifndef STARSPIEL_BOTS_NATIVE_LEARNING_TD_TRAINER_H_
#define STARSPIEL_BOTS_NATIVE_LEARNING_TD_TRAINER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "open_spiel/spiel.h"

namespace starspiel::learning {

enum class FeatureEncoding {
  kObservation,
  kObservationMover,
  kObservationHand,
  kLog2Cells,
  kPlaneCells
};

// FeatureEncoding from its name in the spec ("observation", ...); std::invalid_argument else.
FeatureEncoding EncodingNamed(const std::string& name);

struct TdOptions {
  double alpha = 0.01;
  double lambda = 0.7;  // MLPs only: n-tuple networks learn with TD(0)
  double epsilon = 0.0;
  int max_moves = 2000;
  std::uint64_t seed = 0;
};

// The model's parameter arrays in params() order, each row-major float64.
using Params = std::vector<double*>;

// One self-play game: the features of the afterstates it recorded (rows of num_features),
// returns_0 at each, how it ended, and every action applied (chance ones included).
struct Trajectory {
  std::vector<double> features;
  std::vector<double> returns;
  double final_return = 0.0;  // returns_0 of the terminal state (0 when cut off)
  bool cut_off = false;
  int moves = 0;
  std::vector<open_spiel::Action> actions;
};

// An n-tuple network's layout: placement p reads the cells placement_cells[
// placement_start[p] .. placement_start[p + 1]) (first cell most significant) into the
// table starting at luts[placement_base[p]]; luts has lut_size entries.
struct NtupleLayout {
  std::vector<std::int32_t> placement_cells;
  std::vector<std::int32_t> placement_start;
  std::vector<std::int64_t> placement_base;
  std::int64_t lut_size = 0;
  int values = 0;
  int planes = 1;  // plane_cells: the observation as (planes, cells)
};

class TdTrainer {
 public:
  // An MLP of layer sizes {n_in, hidden..., 1} and output scale 2**scale_log2, reading the
  // observation, observation_mover or observation_hand encoding.
  static std::unique_ptr<TdTrainer> Mlp(std::shared_ptr<const open_spiel::Game> game,
                                        std::vector<int> sizes, int scale_log2,
                                        FeatureEncoding encoding, TdOptions options);
  // An n-tuple network reading log2_cells or plane_cells.
  static std::unique_ptr<TdTrainer> Ntuple(std::shared_ptr<const open_spiel::Game> game,
                                           NtupleLayout layout, FeatureEncoding encoding,
                                           TdOptions options);

  int num_features() const { return num_features_; }
  // The element count of each parameter array, in params() order (the bindings check it).
  const std::vector<std::int64_t>& param_sizes() const { return param_sizes_; }

  // Plays game `game_index` with the weights fixed (reads them only; thread-safe).
  Trajectory Play(const Params& params, std::int64_t game_index) const;
  // The TD update along one trajectory with the current weights; the sum of squared TD
  // errors. Writes the weights: one caller at a time.
  double Learn(const Params& params, const Trajectory& trajectory) const;
  // Games first .. first + count - 1 in batches of `workers` games, each batch played on
  // `workers` threads with the weights at its start, then learned in game order.
  // Returns (sum of squared TD errors, afterstates recorded).
  std::pair<double, std::int64_t> PlayAndLearn(const Params& params, std::int64_t first,
                                               std::int64_t count, int workers) const;

 private:
  struct Workspace;
  TdTrainer(std::shared_ptr<const open_spiel::Game> game, FeatureEncoding encoding,
            TdOptions options);

  // The features of `state` into `out` (num_features_ values).
  void Encode(const open_spiel::State& state, Workspace& ws, double* out) const;
  // The model's `out` for one row of features.
  double Output(const Params& params, const double* x, Workspace& ws) const;
  double MlpOutput(const Params& params, const double* x, std::vector<std::vector<double>>& hidden,
                   std::vector<std::vector<double>>* masks = nullptr) const;
  double NtupleOutput(const Params& params, const double* x) const;
  double LearnMlp(const Params& params, const Trajectory& trajectory, int steps) const;
  double LearnNtuple(const Params& params, const Trajectory& trajectory, int steps) const;

  std::shared_ptr<const open_spiel::Game> game_;
  FeatureEncoding encoding_;
  TdOptions options_;
  bool ntuple_ = false;
  int observation_size_ = 0;
  int num_players_ = 0;
  int num_features_ = 0;
  std::vector<std::int64_t> param_sizes_;
  // MLP
  std::vector<int> sizes_;
  double scale_ = 1.0;
  // n-tuple
  NtupleLayout layout_;
};

}  // namespace starspiel::learning

#endif  // STARSPIEL_BOTS_NATIVE_LEARNING_TD_TRAINER_H_
