// The generic gate to OpenSpiel's private and protected members: the technique, the
// base State's members, and the open_spiel release the per-game members were checked
// against. Each game's own members are named, with their types, in its adapter
// (bots/native/adapters/<game>.cc, or <game>_fields.h where its evaluator reads them too).
//
// The fast paths re-implement parts of a game's rules on its fields. They are checked
// against the public State API (tests/test_native_moves.py, test_native_keys.py,
// test_native_fields.py) and switched off at run time for any other open_spiel
// (internals_gate.h), where the generic path runs. docs/guide/engines.md, "Moving to a
// new open_spiel release", says what to do when open_spiel changes.
//
// Access is granted by the one technique the standard defines for it: names in an
// explicit instantiation are not access-checked ([temp.spec.general]), so instantiating
// Expose with a pointer to a private member defines a friend function that returns that
// pointer. Each pointer is then a compile-time constant (`state.*kPigScores` compiles to
// the same load as a member access). Everything here is in an unnamed namespace: each
// translation unit that includes this file instantiates Expose with its own tag types,
// so no explicit instantiation appears twice in the program. Include this file only
// from .cc files (or from a game's _fields.h, itself included only from .cc files), and
// use STARSPIEL_OPENSPIEL_MEMBER inside namespace starspiel's unnamed namespace.
#ifndef STARSPIEL_BOTS_NATIVE_OPENSPIEL_INTERNALS_H_
#define STARSPIEL_BOTS_NATIVE_OPENSPIEL_INTERNALS_H_

#include <array>
#include <memory>
#include <type_traits>
#include <vector>

#include "open_spiel/spiel.h"

namespace starspiel {

// The open_spiel release whose members (here and in the adapters), and whose rules the fast paths
// re-implement, were checked. With any other release the fast paths are off (internals_gate.cc).
inline constexpr char kInternalsOpenSpielVersion[] = "2.0.2";

namespace {

template <class Tag, auto kMember>
struct Expose {
  friend constexpr auto PointerTo(Tag) { return kMember; }
};

// `name`: a constant pointer to member `member` of `Class`, of type `Type Class::*` (a
// function type for a member function); a compile error where open_spiel changed either.
#define STARSPIEL_OPENSPIEL_MEMBER(name, Class, member, ...) \
  struct name##Tag {                                         \
    friend constexpr auto PointerTo(name##Tag);              \
  };                                                         \
  template struct Expose<name##Tag, &Class::member>;         \
  constexpr std::type_identity_t<__VA_ARGS__> Class::*name = PointerTo(name##Tag{})

// State (protected): the moves played and the move number.
STARSPIEL_OPENSPIEL_MEMBER(kStateHistory, open_spiel::State, history_,
                           std::vector<open_spiel::State::PlayerAction>);
STARSPIEL_OPENSPIEL_MEMBER(kStateMoveNumber, open_spiel::State, move_number_, int);
STARSPIEL_OPENSPIEL_MEMBER(kStateGame, open_spiel::State, game_,
                           const std::shared_ptr<const open_spiel::Game>);

}  // namespace
}  // namespace starspiel

#endif  // STARSPIEL_BOTS_NATIVE_OPENSPIEL_INTERNALS_H_
