// In-place search for games whose UndoAction is missing or unsound in OpenSpiel
// 2.0.2 (the adapters say which).
//
// Cloning a state copies its whole history, and the ApplyAction after the
// clone copies it again as the vector grows: in some games that was most of a
// node's cost. Here the fields an ApplyAction can change are saved before it and
// written back after, so the searcher applies and restores instead of
// cloning. The states visited are the same, so node counts do not move. The
// restorers themselves are in the games' adapters (adapters/registry.h), written
// with field_lists.h; this file holds what every game's restorer shares.
#ifndef STARSPIEL_BOTS_NATIVE_FIELD_UNDO_H_
#define STARSPIEL_BOTS_NATIVE_FIELD_UNDO_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "open_spiel/spiel.h"

namespace starspiel {

// What a restorer saves: the base State's history length and move number, and
// the game's own fields in `fields` (trivially copyable structs, field_lists.h).
struct Snapshot {
  std::size_t history_size = 0;
  int move_number = 0;
  bool delta = false;  // the fields are the restorer's apply_saving delta, for its undo
  alignas(8) unsigned char fields[512];
};

struct FieldRestorer {
  bool (*applies)(const open_spiel::State& state);
  void (*save)(const open_spiel::State& state, Snapshot* snapshot);
  // Writes the saved fields back; the history is cut to its saved length.
  void (*restore)(open_spiel::State* state, const Snapshot& snapshot);
  // Applies a move as the game's ApplyAction does (the same fields, history and move
  // number), without its allocations; false, the state untouched, where it does not
  // (moves it leaves to the game), and the caller applies the move itself. Called on
  // non-terminal states only: the searcher moves from no other, and a game's terminal test
  // (a scan of the board) is what its apply exists to skip. nullptr where the game has none.
  bool (*apply)(open_spiel::State* state, open_spiel::Action action);
  // `apply`, saving in the snapshot only what the move changes (a few fields where `save`
  // copies them all); false, the state and snapshot untouched, where `apply` would be.
  // `undo` writes that back. nullptr where the game has none.
  bool (*apply_saving)(open_spiel::State* state, open_spiel::Action action, Snapshot* snapshot);
  void (*undo)(open_spiel::State* state, const Snapshot& snapshot);
  // Whether two states of the game are equal in every field `save` saves (and more): for
  // the tests' checks (FastApplyMismatches, FastRestoreMismatches).
  bool (*same)(const open_spiel::State& a, const open_spiel::State& b);
};

// The restorer's apply where there is one, else the game's ApplyAction.
inline void ApplyWith(const FieldRestorer* restorer, open_spiel::State* state,
                      open_spiel::Action action) {
  if (restorer == nullptr || restorer->apply == nullptr || !restorer->apply(state, action)) {
    state->ApplyAction(action);
  }
}

// Applies `action`, saving in `snapshot` what RestoreFrom needs to take it back: the
// restorer's delta where it has one for this move, else every field (save).
inline void SaveAndApply(const FieldRestorer& restorer, open_spiel::State* state,
                         open_spiel::Action action, Snapshot* snapshot) {
  if (restorer.apply_saving != nullptr && restorer.apply_saving(state, action, snapshot)) {
    snapshot->delta = true;
    return;
  }
  snapshot->delta = false;
  restorer.save(*state, snapshot);
  ApplyWith(&restorer, state, action);
}

// Takes back the move SaveAndApply made (every move applied after it taken back first).
inline void RestoreFrom(const FieldRestorer& restorer, open_spiel::State* state,
                        const Snapshot& snapshot) {
  if (snapshot.delta) {
    restorer.undo(state, snapshot);
  } else {
    restorer.restore(state, snapshot);
  }
}

// The moves at `state` after which the restorer's apply (and apply_saving) and the game's
// ApplyAction leave states that differ in any field (the game's own, history, move
// number), or after which apply_saving's undo does not give `state` back; empty where
// they all agree. For tests: tests/test_native_moves.py.
std::vector<open_spiel::Action> FastApplyMismatches(const FieldRestorer& restorer,
                                                    const open_spiel::State& state);

// The moves at `state` (a decision's or a chance node's) after which the restorer's save
// and restore, or SaveAndApply and RestoreFrom, do not give the game's own child and then
// `state` back in every field the restorer knows, the history and the move number; also
// for every move after them. Empty where they all agree. For tests:
// tests/test_native_fields.py.
std::vector<open_spiel::Action> FastRestoreMismatches(const FieldRestorer& restorer,
                                                      const open_spiel::State& state);

// The restorer for `game`'s states (its adapter's, adapters/registry.cc), or nullptr where it has
// none, `state` is not of the class it was written for (a Python twin, say), or the fast paths that
// read OpenSpiel's private fields are off (internals_gate.h).
const FieldRestorer* FindFieldRestorer(const std::string& game, const open_spiel::State& state);

}  // namespace starspiel

#endif  // STARSPIEL_BOTS_NATIVE_FIELD_UNDO_H_
