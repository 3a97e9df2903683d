// Whether the fast paths that read OpenSpiel's private members (openspiel_internals.h)
// run. They re-implement parts of the rules of one open_spiel release; with any other,
// or when switched off, the engine plays every game through the public State API (the
// generic path), which gives the same values and node counts, only slower.
#ifndef STARSPIEL_BOTS_NATIVE_INTERNALS_GATE_H_
#define STARSPIEL_BOTS_NATIVE_INTERNALS_GATE_H_

#include <string>

namespace starspiel {

// True where the engine was built against the open_spiel release the fast paths were
// checked for and they are not switched off (STARSPIEL_FIELD_PATHS=off, or
// ConfigureFieldPaths). Read when a searcher, an evaluator or a key is made.
bool FieldPathsOn();

// Why the fast paths are off against another open_spiel (one line for the user), or ""
// (on, or switched off on purpose).
std::string FieldPathsProblem();

// Decides again as for an engine built against open_spiel `built_against`, with the fast
// paths wanted or not: for tests, and for users who want the generic path. Searchers
// and evaluators made before keep what they chose.
void ConfigureFieldPaths(const std::string& built_against, bool wanted);

// The open_spiel release the fast paths name the members of (kInternalsOpenSpielVersion)
// and the one the engine was built against (STARSPIEL_OPEN_SPIEL_VERSION).
std::string FieldPathsCheckedVersion();
std::string BuiltOpenSpielVersion();

}  // namespace starspiel

#endif  // STARSPIEL_BOTS_NATIVE_INTERNALS_GATE_H_
