// catch's fast paths for the native search (registry.h): move generation, undo by
// field restore, its table key from its fields, and the private members they read.
#include "open_spiel/games/catch/catch.h"

#include <cstdint>
#include <string>
#include <typeinfo>
#include <vector>

#include "bots/native/adapters/registry.h"
#include "bots/native/field_lists.h"
#include "bots/native/internals_gate.h"
#include "bots/native/keys.h"
#include "bots/native/openspiel_internals.h"

namespace starspiel {
namespace {

// catch
STARSPIEL_OPENSPIEL_MEMBER(kCatchInitialized, open_spiel::catch_::CatchState, initialized_, bool);
STARSPIEL_OPENSPIEL_MEMBER(kCatchBallRow, open_spiel::catch_::CatchState, ball_row_, int);
STARSPIEL_OPENSPIEL_MEMBER(kCatchBallCol, open_spiel::catch_::CatchState, ball_col_, int);
STARSPIEL_OPENSPIEL_MEMBER(kCatchPaddleCol, open_spiel::catch_::CatchState, paddle_col_, int);

// bots/keys.py string_key for catch: (player, str(state)). The board string shows
// the ball and the paddle, so it and the player follow from these four fields,
// packed (the top bit set, which no digest has).
Key CatchFieldsKey(const open_spiel::State& state) {
  const auto& c = static_cast<const open_spiel::catch_::CatchState&>(state);
  constexpr int kBits = 21;  // each field + 1 (they start at -1)
  auto fits = [](int value) { return value >= -1 && value < (1 << kBits) - 1; };
  if (!fits(c.*kCatchBallRow) || !fits(c.*kCatchBallCol) || !fits(c.*kCatchPaddleCol)) {
    return TextKey(std::to_string(state.CurrentPlayer()) + '|' + state.ToString());
  }
  auto field = [](int value) { return static_cast<std::uint64_t>(value + 1); };
  const std::uint64_t low = field(c.*kCatchBallRow) << (2 * kBits) |
                            field(c.*kCatchBallCol) << kBits | field(c.*kCatchPaddleCol);
  const std::uint64_t high = (c.*kCatchInitialized ? 1 : 0) | std::uint64_t{1} << 63;
  return static_cast<Key>(high) << 64 | low;
}

bool IsCatchState(const open_spiel::State& state) {
  return FieldPathsOn() && typeid(state) == typeid(open_spiel::catch_::CatchState);
}

bool CatchLegalActions(open_spiel::State& state, std::vector<open_spiel::Action>* actions) {
  namespace ct = open_spiel::catch_;
  if (typeid(state) != typeid(ct::CatchState)) return false;
  const auto& s = static_cast<const ct::CatchState&>(state);
  if (!(s.*kCatchInitialized) || s.IsTerminal()) return false;
  actions->assign({ct::kLeft, ct::kStay, ct::kRight});
  return true;
}

struct CatchFields {
  bool initialized;
  int ball_row, ball_col, paddle_col;
};

bool CatchApplies(const open_spiel::State& state) {
  return typeid(state) == typeid(open_spiel::catch_::CatchState);
}

using CatchFieldList = FieldList<open_spiel::catch_::CatchState, CatchFields,
                                 FieldPair<kCatchInitialized, &CatchFields::initialized>,
                                 FieldPair<kCatchBallRow, &CatchFields::ball_row>,
                                 FieldPair<kCatchBallCol, &CatchFields::ball_col>,
                                 FieldPair<kCatchPaddleCol, &CatchFields::paddle_col>>;

constexpr FieldRestorer kCatchRestorer = {.applies = CatchApplies,
                                          .save = CatchFieldList::Save,
                                          .restore = CatchFieldList::Restore,
                                          .same = CatchFieldList::Same};

const bool kRegistered =
    RegisterGameAdapter(
        "catch",
        {.moves = CatchLegalActions, .reads_private_fields = true, .restorer = &kCatchRestorer}) &&
    RegisterKeyScheme("catch",
                      {PlayerAndString, PlayerAndStringText, CatchFieldsKey, IsCatchState});

}  // namespace
}  // namespace starspiel
