// What setup.py compiles into both extensions (games._native_games, bots._native): the
// digest of the native sources and the open_spiel they were built against, read by
// games/native_games.py to refuse a stale or mismatched build.
#ifndef STARSPIEL_GAMES_NATIVE_BUILD_INFO_H_
#define STARSPIEL_GAMES_NATIVE_BUILD_INFO_H_

#ifndef STARSPIEL_SOURCE_DIGEST
#define STARSPIEL_SOURCE_DIGEST "unknown"
#endif
#ifndef STARSPIEL_OPEN_SPIEL_VERSION
#define STARSPIEL_OPEN_SPIEL_VERSION "unknown"
#endif

#endif  // STARSPIEL_GAMES_NATIVE_BUILD_INFO_H_
