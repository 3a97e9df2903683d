// einstein_wurfelt_nicht's fast paths for the native search (registry.h): move
// generation, the player to move and its table key from its fields. Not its undo: after
// some undos its later moves differ from a clone's (OpenSpiel 2.0.2).
#include "bots/native/adapters/registry.h"
#include "bots/native/keys.h"

namespace starspiel {

// fast_keys.cc
Key EinsteinFieldsKey(const open_spiel::State& state);
bool IsEinsteinState(const open_spiel::State& state);

namespace {

// bots/keys.py's einstein_key: (player, str(state), move_number % 4, die).
std::string EinsteinText(const open_spiel::State& state) {
  const int player = state.CurrentPlayer();
  const long die = player >= 0 ? static_cast<long>(state.History().back()) : -1;
  return std::to_string(player) + '|' + std::to_string(state.MoveNumber() % 4) + '|' +
         std::to_string(die) + '|' + state.ToString();
}

std::string EinsteinSamplingText(const open_spiel::State& state) {
  const int player = state.CurrentPlayer();
  const long die = player >= 0 ? static_cast<long>(state.History().back()) : -1;
  return "(" + std::to_string(player) + "," + PythonRepr(state.ToString()) + "," +
         std::to_string(state.MoveNumber() % 4) + "," + std::to_string(die) + ")";
}

const bool kRegistered =
    RegisterGameAdapter("einstein_wurfelt_nicht", {.moves = EinsteinLegalActions,
                                                   .player = EinsteinCurrentPlayer,
                                                   .reads_private_fields = true}) &&
    RegisterKeyScheme("einstein_wurfelt_nicht",
                      {EinsteinText, EinsteinSamplingText, EinsteinFieldsKey, IsEinsteinState});

}  // namespace
}  // namespace starspiel
