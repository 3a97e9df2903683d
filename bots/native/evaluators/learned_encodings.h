// The encodings of issue 79's learned models that do not depend on the quantisation:
// the mover of observation_mover, and the cells of log2_cells and plane_cells, all
// read from observation_tensor(0). Shared by the integer inference (learned.cc) and
// the native TD trainer (bots/native/learning/), so both read a state alike
// (bots/learned/encodings.py is the Python twin).
#ifndef STARSPIEL_BOTS_NATIVE_EVALUATORS_LEARNED_ENCODINGS_H_
#define STARSPIEL_BOTS_NATIVE_EVALUATORS_LEARNED_ENCODINGS_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "open_spiel/spiel.h"

namespace starspiel {

// observation_tensor(0) into `observation` (its size): zeroed first, as a fresh
// Python tensor is, since games may write only the set entries.
inline void ReadObservation(const open_spiel::State& state, std::vector<float>* observation) {
  std::fill(observation->begin(), observation->end(), 0.0f);
  state.ObservationTensor(0, absl::MakeSpan(*observation));
}

// observation_mover's mover: who moves at a decision node; at a chance node the player
// of the last decision before it (bots/learned/encodings.py mover); -1 if none came before.
inline int Mover(const open_spiel::State& state) {
  const open_spiel::Player player = state.CurrentPlayer();
  if (player >= 0) return player;
  const std::vector<open_spiel::State::PlayerAction>& history = state.FullHistory();
  for (auto it = history.rbegin(); it != history.rend(); ++it) {
    if (it->player >= 0) return it->player;
  }
  return -1;
}

// log2_cells: 0 for an empty cell, else floor(log2 x) (tiles are powers of two), at
// most values - 1.
inline void Log2Cells(const float* x, int cells, int values, std::int32_t* out) {
  const std::int32_t last = values - 1;
  for (int i = 0; i < cells; ++i) {
    const std::int32_t c = x[i] == 0.0f ? 0 : std::ilogb(x[i]);
    out[i] = std::min(c, last);
  }
}

// plane_cells: x as (planes, cells) row-major; 1 + the first plane set at the cell, 0 if
// none, at most values - 1.
inline void PlaneCells(const float* x, int planes, int cells, int values, std::int32_t* out) {
  std::fill(out, out + cells, 0);
  for (int p = planes - 1; p >= 0; --p) {
    const float* plane = x + static_cast<std::size_t>(p) * cells;
    for (int i = 0; i < cells; ++i) {
      if (plane[i] != 0.0f) out[i] = p + 1;
    }
  }
  const std::int32_t last = values - 1;
  for (int i = 0; i < cells; ++i) out[i] = std::min(out[i], last);
}

}  // namespace starspiel

#endif  // STARSPIEL_BOTS_NATIVE_EVALUATORS_LEARNED_ENCODINGS_H_
