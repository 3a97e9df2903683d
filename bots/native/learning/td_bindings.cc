// bots._native.TdTrainer: the native TD trainer (td_trainer.h) for experiments.learn
// (experiments/learn/native.py builds one from a run's configuration). The weights are the
// caller's numpy float64 arrays, read and written in place (no copies), with the GIL
// released while games are played and learned.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bots/native/bindings.h"
#include "bots/native/learning/td_trainer.h"
#include "open_spiel/spiel.h"

namespace py = pybind11;

namespace starspiel {
namespace {

using learning::Params;
using learning::TdOptions;
using learning::TdTrainer;
using learning::Trajectory;

// Pointers into the arrays of `params` (the model's params(), in order), after checking
// that each is a C-contiguous float64 array of the size the model needs, and writeable
// unless `read_only` (play only reads: Ray's store hands out read-only arrays).
Params ParamsOf(const TdTrainer& trainer, const py::list& params, bool read_only = false) {
  const std::vector<std::int64_t>& sizes = trainer.param_sizes();
  if (params.size() != sizes.size()) {
    throw py::value_error("TdTrainer: " + std::to_string(params.size()) +
                          " parameter arrays given, the model has " + std::to_string(sizes.size()));
  }
  Params pointers;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (!py::isinstance<py::array>(params[i])) {
      throw py::value_error("TdTrainer: parameter " + std::to_string(i) + " is not an array");
    }
    auto array = params[i].cast<py::array>();
    // (array_t's isinstance: an equivalent dtype, not the same dtype object.)
    if (!py::isinstance<py::array_t<double, py::array::c_style>>(array) ||
        (!read_only && !array.writeable()) || array.size() != sizes[i]) {
      throw py::value_error("TdTrainer: parameter " + std::to_string(i) + " must be a " +
                            (read_only ? "" : "writeable ") + "C-contiguous float64 array of " +
                            std::to_string(sizes[i]) + " elements (used in place)");
    }
    // Play (read_only) never writes through the pointer.
    pointers.push_back(const_cast<double*>(static_cast<const double*>(array.data())));
  }
  return pointers;
}

TdOptions Options(double alpha, double td_lambda, double epsilon, int max_moves,
                  std::uint64_t seed) {
  TdOptions options;
  options.alpha = alpha;
  options.lambda = td_lambda;
  options.epsilon = epsilon;
  options.max_moves = max_moves;
  options.seed = seed;
  return options;
}

std::shared_ptr<const open_spiel::Game> GameOf(py::handle game) {
  return game.cast<std::shared_ptr<const open_spiel::Game>>();
}

// (features (T, d) float64, returns (T,), final_return, cut_off, moves, actions (int64)).
py::tuple TrajectoryTuple(Trajectory&& trajectory, int width) {
  const auto length = static_cast<py::ssize_t>(trajectory.returns.size());
  py::array_t<double> features({length, static_cast<py::ssize_t>(width)});
  std::copy(trajectory.features.begin(), trajectory.features.end(), features.mutable_data());
  py::array_t<double> returns(length);
  std::copy(trajectory.returns.begin(), trajectory.returns.end(), returns.mutable_data());
  py::array_t<std::int64_t> actions(static_cast<py::ssize_t>(trajectory.actions.size()));
  std::copy(trajectory.actions.begin(), trajectory.actions.end(), actions.mutable_data());
  return py::make_tuple(features, returns, trajectory.final_return, trajectory.cut_off,
                        trajectory.moves, actions);
}

// A trajectory from any object with features (T, d), returns (T,), final_return, cut_off
// (selfplay.Trajectory).
Trajectory TrajectoryOf(py::handle object, int width) {
  Trajectory trajectory;
  auto features = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(
      object.attr("features"));
  auto returns = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(
      object.attr("returns"));
  if (!features || !returns || returns.ndim() != 1 ||
      features.size() != returns.size() * static_cast<py::ssize_t>(width)) {
    throw py::value_error("TdTrainer.learn: a trajectory needs features (T, " +
                          std::to_string(width) + ") and returns (T,)");
  }
  trajectory.features.assign(features.data(), features.data() + features.size());
  trajectory.returns.assign(returns.data(), returns.data() + returns.size());
  trajectory.final_return = object.attr("final_return").cast<double>();
  trajectory.cut_off = object.attr("cut_off").cast<bool>();
  return trajectory;
}

std::vector<std::int64_t> Int64s(const py::handle& object) {
  auto array = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(object);
  if (!array) throw py::value_error("TdTrainer.ntuple: expected an integer array");
  return {array.data(), array.data() + array.size()};
}

}  // namespace

void BindTdTrainer(py::module_& m) {
  py::class_<TdTrainer>(m, "TdTrainer",
                        "Native self-play and TD updates of experiments.learn on the model's "
                        "numpy float64 weights, updated in place (td_trainer.h).")
      .def_static(
          "mlp",
          [](py::handle game, std::vector<int> sizes, int scale_log2, const std::string& encoding,
             double alpha, double td_lambda, double epsilon, int max_moves, std::uint64_t seed) {
            return TdTrainer::Mlp(GameOf(game), std::move(sizes), scale_log2,
                                  learning::EncodingNamed(encoding),
                                  Options(alpha, td_lambda, epsilon, max_moves, seed));
          },
          py::arg("game"), py::arg("sizes"), py::arg("scale_log2"), py::arg("encoding"),
          py::arg("alpha"), py::arg("td_lambda"), py::arg("epsilon"), py::arg("max_moves"),
          py::arg("seed"),
          "An MLP of layer sizes [inputs, hidden..., 1], out = y * 2**scale_log2, reading "
          "'observation', 'observation_mover' or 'observation_hand'.")
      .def_static(
          "ntuple",
          [](py::handle game, py::handle placements, py::handle placement_tables,
             py::handle lut_offsets, int values, const std::string& encoding, int planes,
             double alpha, double epsilon, int max_moves, std::uint64_t seed) {
            auto rows =
                py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(
                    placements);
            if (!rows || rows.ndim() != 2) {
              throw py::value_error("TdTrainer.ntuple: placements must be (P, kmax)");
            }
            const std::vector<std::int64_t> tables = Int64s(placement_tables);
            const std::vector<std::int64_t> offsets = Int64s(lut_offsets);
            const auto count = static_cast<std::size_t>(rows.shape(0));
            const auto kmax = static_cast<std::size_t>(rows.shape(1));
            if (tables.size() != count || offsets.empty()) {
              throw py::value_error("TdTrainer.ntuple: one table per placement, and offsets");
            }
            learning::NtupleLayout layout;
            layout.values = values;
            layout.planes = planes;
            layout.lut_size = offsets.back();
            layout.placement_start.push_back(0);
            for (std::size_t p = 0; p < count; ++p) {
              for (std::size_t j = 0; j < kmax; ++j) {
                const std::int64_t cell = rows.at(p, j);
                if (cell < 0) break;
                layout.placement_cells.push_back(static_cast<std::int32_t>(cell));
              }
              layout.placement_start.push_back(
                  static_cast<std::int32_t>(layout.placement_cells.size()));
              const std::int64_t table = tables[p];
              if (table < 0 || table + 1 >= static_cast<std::int64_t>(offsets.size())) {
                throw py::value_error("TdTrainer.ntuple: a placement's table is out of range");
              }
              layout.placement_base.push_back(offsets[table]);
            }
            return TdTrainer::Ntuple(GameOf(game), std::move(layout),
                                     learning::EncodingNamed(encoding),
                                     Options(alpha, 0.0, epsilon, max_moves, seed));
          },
          py::arg("game"), py::arg("placements"), py::arg("placement_tables"),
          py::arg("lut_offsets"), py::arg("values"), py::arg("encoding"), py::arg("planes"),
          py::arg("alpha"), py::arg("epsilon"), py::arg("max_moves"), py::arg("seed"),
          "An n-tuple network (FloatNTuple's placements, tables and offsets), TD(0), reading "
          "'log2_cells' or 'plane_cells' (with `planes`).")
      .def_property_readonly("num_features", &TdTrainer::num_features)
      .def(
          "play",
          [](const TdTrainer& trainer, const py::list& params, std::int64_t game_index) {
            const Params pointers = ParamsOf(trainer, params, /*read_only=*/true);
            Trajectory trajectory;
            {
              py::gil_scoped_release released;
              trajectory = trainer.Play(pointers, game_index);
            }
            return TrajectoryTuple(std::move(trajectory), trainer.num_features());
          },
          py::arg("params"), py::arg("game_index"),
          "Game `game_index` with the weights fixed: (features (T, d), returns_0 (T,), "
          "final_return, cut_off, moves, actions applied).")
      .def(
          "learn",
          [](const TdTrainer& trainer, const py::list& params, const py::list& trajectories) {
            const Params pointers = ParamsOf(trainer, params);
            std::vector<Trajectory> all;
            for (py::handle object : trajectories) {
              all.push_back(TrajectoryOf(object, trainer.num_features()));
            }
            double squared = 0.0;
            std::int64_t steps = 0;
            {
              py::gil_scoped_release released;
              for (const Trajectory& trajectory : all) {
                squared += trainer.Learn(pointers, trajectory);
                steps += static_cast<std::int64_t>(trajectory.returns.size());
              }
            }
            return py::make_tuple(squared, steps);
          },
          py::arg("params"), py::arg("trajectories"),
          "The TD updates of `trajectories` (selfplay.Trajectory) in order, in place: (sum of "
          "squared TD errors, afterstates).")
      .def(
          "play_and_learn",
          [](const TdTrainer& trainer, const py::list& params, std::int64_t first_game,
             std::int64_t count, int workers) {
            const Params pointers = ParamsOf(trainer, params);
            std::pair<double, std::int64_t> result;
            {
              py::gil_scoped_release released;
              result = trainer.PlayAndLearn(pointers, first_game, count, workers);
            }
            return py::make_tuple(result.first, result.second);
          },
          py::arg("params"), py::arg("first_game"), py::arg("count"), py::arg("workers"),
          "Games first_game.. in batches of `workers` played on `workers` threads with the "
          "batch's starting weights, then learned in game order: (sum of squared TD errors, "
          "afterstates).");
}

}  // namespace starspiel
