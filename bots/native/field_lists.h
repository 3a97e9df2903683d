// The templates a game's field restorer (field_undo.h) is written with, in its adapter
// (bots/native/adapters/<game>.cc): the snapshot's bytes as the game's Fields, the base
// State's history and move number saved and written back, and a game's saved fields
// written once as a list of (state member, Fields member) pairs. Include only from .cc
// files (openspiel_internals.h).
#ifndef STARSPIEL_BOTS_NATIVE_FIELD_LISTS_H_
#define STARSPIEL_BOTS_NATIVE_FIELD_LISTS_H_

#include <algorithm>
#include <array>
#include <cstddef>
#include <new>
#include <type_traits>
#include <vector>

#include "bots/native/field_undo.h"
#include "bots/native/openspiel_internals.h"
#include "open_spiel/spiel.h"

namespace starspiel {
namespace {

// A record vector cut back to its saved length: a restore follows the restores of every
// later move, so this pops one record or none (no resize: its growth path is not
// inlined, and records may have no default constructor).
template <class T>
void CutTo(std::vector<T>& records, std::size_t size) {
  while (records.size() > size) records.pop_back();
}

// The snapshot's bytes as the game's `Fields`, written and read in place (no copy through
// a local): an aggregate of trivially copyable members is an implicit-lifetime type,
// which a byte array may hold. StoreIn also saves the base State's history length and
// move number, LoadFrom writes them back.
template <class Fields>
Fields& StoreIn(const open_spiel::State& state, Snapshot* snapshot) {
  static_assert(std::is_trivially_copyable_v<Fields> && std::is_aggregate_v<Fields> &&
                sizeof(Fields) <= sizeof(Snapshot::fields) && alignof(Fields) <= 8);
  snapshot->history_size = (state.*kStateHistory).size();
  snapshot->move_number = state.*kStateMoveNumber;
  return *std::launder(reinterpret_cast<Fields*>(snapshot->fields));
}

template <class Fields>
const Fields& LoadFrom(open_spiel::State* state, const Snapshot& snapshot) {
  CutTo(state->*kStateHistory, snapshot.history_size);
  state->*kStateMoveNumber = snapshot.move_number;
  return *std::launder(reinterpret_cast<const Fields*>(snapshot.fields));
}

// What State::ApplyAction adds after the game's DoApplyAction: the move in the history,
// and one more move number.
__attribute__((always_inline)) inline void RecordMove(open_spiel::State* state,
                                                      open_spiel::Player player,
                                                      open_spiel::Action action) {
  (state->*kStateHistory).push_back({player, action});
  ++(state->*kStateMoveNumber);
}

// A game's saved fields written once, as a list of (state member, Fields member) pairs
// (FieldPair), from which its save, its restore and its field comparison are all made.
template <auto kMember, auto kSaved>
struct FieldPair {
  template <class GameState, class Fields>
  static void Save(const GameState& state, Fields& fields) {
    SaveField(state.*kMember, fields.*kSaved);
  }
  template <class GameState, class Fields>
  static void Restore(GameState& state, const Fields& fields) {
    RestoreField(state.*kMember, fields.*kSaved);
  }
  template <class GameState>
  static bool Same(const GameState& a, const GameState& b) {
    return SameField(a.*kMember, b.*kMember);
  }

 private:
  template <class T>
  static void SaveField(const T& field, T& saved) {
    saved = field;
  }
  template <class T, std::size_t N>
  static void SaveField(const std::vector<T>& field, std::array<T, N>& saved) {
    std::copy(field.begin(), field.end(), saved.begin());
  }
  template <class T>
  static void RestoreField(T& field, const T& saved) {
    field = saved;
  }
  template <class T, std::size_t N>
  static void RestoreField(std::vector<T>& field, const std::array<T, N>& saved) {
    std::copy(saved.begin(), saved.begin() + field.size(), field.begin());
  }
  template <class T>
  static bool SameField(const T& a, const T& b) {
    if constexpr (std::is_class_v<T> && requires { a.value; }) {
      return a.value == b.value &&
             a.is_merged == b.is_merged;  // tiles: a value and a merge flag, no operator==
    } else {
      return a == b;
    }
  }
  template <class T>
  static bool SameField(const std::vector<T>& a, const std::vector<T>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (!SameField(a[i], b[i])) return false;
    }
    return true;
  }
};

template <class GameState, class Fields, class... Pairs>
struct FieldList {
  static void Save(const open_spiel::State& state, Snapshot* snapshot) {
    const auto& s = static_cast<const GameState&>(state);
    Fields& fields = StoreIn<Fields>(state, snapshot);
    (Pairs::Save(s, fields), ...);
  }
  static void Restore(open_spiel::State* state, const Snapshot& snapshot) {
    auto& s = static_cast<GameState&>(*state);
    const Fields& fields = LoadFrom<Fields>(state, snapshot);
    (Pairs::Restore(s, fields), ...);
  }
  static bool Same(const open_spiel::State& a, const open_spiel::State& b) {
    const auto& x = static_cast<const GameState&>(a);
    const auto& y = static_cast<const GameState&>(b);
    return (Pairs::Same(x, y) && ...);
  }
};

}  // namespace
}  // namespace starspiel

#endif  // STARSPIEL_BOTS_NATIVE_FIELD_LISTS_H_
