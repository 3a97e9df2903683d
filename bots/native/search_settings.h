// Generated from bots/options.py by `python -m bots.native_header`: do not edit.
// Every setting the native engine reads, as X(C++ type, name) in the order of
// bots.options.native_setting_types(): search.h declares SearchOptions' members
// from it and search_bindings.cc reads each from Python's settings dict; their
// meanings are the table's.
#ifndef STARSPIEL_BOTS_NATIVE_SEARCH_SETTINGS_H_
#define STARSPIEL_BOTS_NATIVE_SEARCH_SETTINGS_H_

// clang-format off
#define STARSPIEL_SEARCH_SETTINGS(X) \
  X(std::int64_t, tt_size)            \
  X(bool, move_ordering)              \
  X(int, history_min_depth)           \
  X(bool, static_ordering)            \
  X(int, probing_factor)              \
  X(Probing, probing)                 \
  X(Multiplayer, multiplayer)         \
  X(bool, reuse_probes)               \
  X(bool, deeper_cutoffs)             \
  X(bool, reachable_probes)           \
  X(std::string, algorithm)           \
  X(int, player)                      \
  X(double, lower_bound)              \
  X(double, upper_bound)              \
  X(KeyKind, key_kind)                \
  X(TextFunction, key_text)           \
  X(TextFunction, sampling_text)      \
  X(bool, use_undo)                   \
  X(int, probcut_reduction)           \
  X(double, probcut_t)                \
  X(ProbCutModels, probcut_models)    \
  X(int, samples)                     \
  X(std::vector<double>, maxn_bounds) \
  X(std::vector<double>, maxn_sum)    \
  X(std::uint64_t, sampling_seed)
// clang-format on

#endif  // STARSPIEL_BOTS_NATIVE_SEARCH_SETTINGS_H_
