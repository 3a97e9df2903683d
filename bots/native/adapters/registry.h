// Per-game fast paths of the native search, one adapter per game, found by the game's
// short name: the generic search (search.cc, keys.cc, field_undo.cc) names no game. A
// game's adapter file (bots/native/adapters/<game>.cc) holds all of its fast paths (move
// generation, the player to move, undo by field restore, table keys, and the private
// members they read) and registers them at load time; adding a game's fast path touches
// that file and nothing in the search.
//
// Every fast path gives what the game's public State API gives, faster (checked against
// that generic path by tests/test_native_moves.py, tests/test_native_keys.py and the
// search's own undo check); one that reads OpenSpiel's private fields is off for an
// open_spiel it was not built for (internals_gate.h).
#ifndef STARSPIEL_BOTS_NATIVE_ADAPTERS_REGISTRY_H_
#define STARSPIEL_BOTS_NATIVE_ADAPTERS_REGISTRY_H_

#include <string>

#include "bots/native/fast_moves.h"
#include "bots/native/field_undo.h"

namespace starspiel {

struct GameAdapter {
  FastMoves moves = nullptr;    // LegalActions() at a decision node
  FastPlayer player = nullptr;  // CurrentPlayer()
  // `moves` and `player` read OpenSpiel's private fields: used only where FieldPathsOn().
  bool reads_private_fields = false;
  // ApplyAction/UndoAction were checked by hand over whole games: the search may undo
  // moves (after its own short check, search.cc UndoWorks).
  bool undo_checked = false;
  // Undo by saving and restoring the fields a move changes (field_undo.h), for games
  // whose UndoAction is missing or unsound; it reads OpenSpiel's private fields, so it
  // is used only where FieldPathsOn().
  const FieldRestorer* restorer = nullptr;
};

// Registers `game`'s adapter (once per game: a second registration is an error).
bool RegisterGameAdapter(const std::string& game, GameAdapter adapter);

// `game`'s adapter, or nullptr where it has none.
const GameAdapter* FindGameAdapter(const std::string& game);

}  // namespace starspiel

#endif  // STARSPIEL_BOTS_NATIVE_ADAPTERS_REGISTRY_H_
