// ballard_tree's fast paths for the native search (registry.h): move generation, the player
// to move, undo (checked by hand over whole games) and its table keys.
#include "games/native/ballard_tree.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <typeinfo>
#include <vector>

#include "bots/native/adapters/registry.h"
#include "bots/native/keys.h"
#include "open_spiel/spiel.h"

namespace starspiel::ballard_tree {
namespace {

open_spiel::Player BallardCurrentPlayer(const open_spiel::State& state) {
  if (typeid(state) != typeid(BallardState)) return state.CurrentPlayer();
  return static_cast<const BallardState&>(state).BallardState::CurrentPlayer();
}

bool BallardLegalActions(open_spiel::State& state, std::vector<open_spiel::Action>* actions) {
  if (typeid(state) != typeid(BallardState)) return false;
  const auto& s = static_cast<const BallardState&>(state);
  if (s.BallardState::CurrentPlayer() < 0) return false;  // chance or terminal
  // Every node has the actions 0..n-1, into the caller's vector (no allocation).
  actions->resize(s.rules().n());
  for (std::size_t i = 0; i < actions->size(); ++i)
    (*actions)[i] = static_cast<open_spiel::Action>(i);
  return true;
}

const bool kRegistered = RegisterGameAdapter(
    "ballard_tree",
    {.moves = BallardLegalActions, .player = BallardCurrentPlayer, .undo_checked = true});

const bool kKeysRegistered = RegisterKeyScheme(
    "ballard_tree",
    KeyScheme{
        // The string prints the path (which determines the value): the position.
        [](const open_spiel::State& state) { return state.ToString(); },
        [](const open_spiel::State& state) {
          return static_cast<const BallardState&>(state).SamplingText();
        },
        // The same partition from the path alone (the value and the node kind follow
        // from it), without building the string.
        [](const open_spiel::State& state) {
          Key key = 0xBA11;
          for (int arc : static_cast<const BallardState&>(state).path()) {
            key = ExtendDigest(key, static_cast<std::uint64_t>(arc));
          }
          return key;
        },
        [](const open_spiel::State& state) { return typeid(state) == typeid(BallardState); }});

}  // namespace
}  // namespace starspiel::ballard_tree
