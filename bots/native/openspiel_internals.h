// OpenSpiel's game headers with access control lifted, for the few places that
// read or restore a game's own fields (fast_keys.cc, fast_moves.cc,
// field_undo.cc). Lifting access changes no layout; the fields are those of the
// open_spiel wheel the extension is built against (pinned in pyproject.toml,
// checked at import). spiel.h is read first, with its access intact, so State's
// own protected members stay protected (field_undo.cc reaches them through
// pointers to members). Include this after every other header.
#ifndef STARSPIEL_BOTS_NATIVE_OPENSPIEL_INTERNALS_H_
#define STARSPIEL_BOTS_NATIVE_OPENSPIEL_INTERNALS_H_

#include "open_spiel/spiel.h"

#define private public
#define protected public
#include "open_spiel/games/backgammon/backgammon.h"
#include "open_spiel/games/catch/catch.h"
#include "open_spiel/games/einstein_wurfelt_nicht/einstein_wurfelt_nicht.h"
#include "open_spiel/games/pig/pig.h"
// 2048.h declares `const int max_tile() const`, which -Wextra flags.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-qualifiers"
#include "open_spiel/games/twenty_forty_eight/2048.h"
#pragma GCC diagnostic pop
#undef protected
#undef private

#endif  // STARSPIEL_BOTS_NATIVE_OPENSPIEL_INTERNALS_H_
