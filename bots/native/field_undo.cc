// The generic checks of field_undo.h's restorers. Each game's restorer lives in its
// adapter (bots/native/adapters/<game>.cc, written with field_lists.h) and saves every
// field its game's DoApplyAction writes; the searcher checks each one against clones
// along lines of play before it trusts it (Searcher::CheckUndo), and the engines' equal
// node counts check it again.
#include "bots/native/field_undo.h"

#include <memory>
#include <vector>

namespace starspiel {
namespace {

// The game's own fields equal (every one its restorer saves, and more), and the base
// State's history and move number.
bool SameFields(const FieldRestorer& restorer, const open_spiel::State& a,
                const open_spiel::State& b) {
  if (a.History() != b.History() || a.MoveNumber() != b.MoveNumber()) return false;
  return restorer.same(a, b);
}

}  // namespace

std::vector<open_spiel::Action> FastApplyMismatches(const FieldRestorer& restorer,
                                                    const open_spiel::State& state) {
  std::vector<open_spiel::Action> mismatches;
  if (restorer.apply == nullptr || state.IsTerminal()) return mismatches;
  for (open_spiel::Action action : state.LegalActions()) {
    std::unique_ptr<open_spiel::State> fast = state.Clone();
    std::unique_ptr<open_spiel::State> slow = state.Clone();
    const bool applied = restorer.apply(fast.get(), action);
    slow->ApplyAction(action);
    if (!applied) fast->ApplyAction(action);
    const bool same = fast->History() == slow->History() &&
                      fast->MoveNumber() == slow->MoveNumber() &&
                      fast->ToString() == slow->ToString() && SameFields(restorer, *fast, *slow);
    bool undone = true;
    if (restorer.apply_saving != nullptr) {
      // The same move through SaveAndApply, then taken back.
      std::unique_ptr<open_spiel::State> moved = state.Clone();
      Snapshot snapshot;
      SaveAndApply(restorer, moved.get(), action, &snapshot);
      undone = moved->History() == slow->History() && moved->ToString() == slow->ToString() &&
               SameFields(restorer, *moved, *slow);
      RestoreFrom(restorer, moved.get(), snapshot);
      undone = undone && moved->History() == state.History() &&
               moved->MoveNumber() == state.MoveNumber() && moved->ToString() == state.ToString() &&
               SameFields(restorer, *moved, state);
    }
    if (!same || !undone || (!applied && !state.IsChanceNode())) mismatches.push_back(action);
  }
  return mismatches;
}

std::vector<open_spiel::Action> FastRestoreMismatches(const FieldRestorer& restorer,
                                                      const open_spiel::State& state) {
  std::vector<open_spiel::Action> mismatches;
  if (state.IsTerminal()) return mismatches;
  // `moved` after SaveAndApply of `action` equals the game's child, and after RestoreFrom
  // the state before; then the same for each move after it (a restore follows the restores
  // of every later move).
  auto round_trip = [&restorer](open_spiel::State* moved, open_spiel::Action action) {
    std::unique_ptr<open_spiel::State> before = moved->Clone();
    std::unique_ptr<open_spiel::State> child = moved->Child(action);
    Snapshot snapshot;
    SaveAndApply(restorer, moved, action, &snapshot);
    bool same = SameFields(restorer, *moved, *child) && moved->ToString() == child->ToString();
    RestoreFrom(restorer, moved, snapshot);
    return same && SameFields(restorer, *moved, *before) && moved->ToString() == before->ToString();
  };
  for (open_spiel::Action action : state.LegalActions()) {
    std::unique_ptr<open_spiel::State> moved = state.Clone();
    // The whole snapshot (save, restore), which SaveAndApply falls back to.
    Snapshot snapshot;
    restorer.save(*moved, &snapshot);
    ApplyWith(&restorer, moved.get(), action);
    bool same = SameFields(restorer, *moved, *state.Child(action));
    restorer.restore(moved.get(), snapshot);
    same = same && SameFields(restorer, *moved, state) && moved->ToString() == state.ToString();
    same = same && round_trip(moved.get(), action);
    Snapshot outer;
    SaveAndApply(restorer, moved.get(), action, &outer);
    if (!moved->IsTerminal()) {
      for (open_spiel::Action next : moved->LegalActions()) {
        same = same && round_trip(moved.get(), next);
      }
    }
    RestoreFrom(restorer, moved.get(), outer);
    same = same && SameFields(restorer, *moved, state);
    if (!same) mismatches.push_back(action);
  }
  return mismatches;
}

}  // namespace starspiel
