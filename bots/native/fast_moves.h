// Move generation faster than a game's own LegalActions(), with the same result.
#ifndef STARSPIEL_BOTS_NATIVE_FAST_MOVES_H_
#define STARSPIEL_BOTS_NATIVE_FAST_MOVES_H_

#include <string>
#include <vector>

#include "open_spiel/spiel.h"

namespace starspiel {

// A game's LegalActions() at a decision node, into `actions`; false (and `actions`
// untouched) for states of another class, chance nodes and terminals. The state may
// change while moves are tried; it is restored before the function returns.
using FastMoves = bool (*)(open_spiel::State& state, std::vector<open_spiel::Action>* actions);

bool BackgammonLegalActions(open_spiel::State& state, std::vector<open_spiel::Action>* actions);
bool EinsteinLegalActions(open_spiel::State& state, std::vector<open_spiel::Action>* actions);
bool CatchLegalActions(open_spiel::State& state, std::vector<open_spiel::Action>* actions);
bool Game2048LegalActions(open_spiel::State& state, std::vector<open_spiel::Action>* actions);
bool BallardLegalActions(open_spiel::State& state, std::vector<open_spiel::Action>* actions);

// The generator for `game` (a short name), or nullptr where the game has none or its
// generator reads OpenSpiel's private fields and they are off (internals_gate.h).
FastMoves FastMovesFor(const std::string& game);

// A game's CurrentPlayer(), the same value for less: 2048's tests the board for an end
// (a scan of every cell and its neighbours) at every call, four to seven times a node;
// EinStein's is two virtual calls; ballard_tree's a virtual call, several times a node. States of
// another class get their own CurrentPlayer().
using FastPlayer = open_spiel::Player (*)(const open_spiel::State& state);

open_spiel::Player Game2048CurrentPlayer(const open_spiel::State& state);
open_spiel::Player EinsteinCurrentPlayer(const open_spiel::State& state);
open_spiel::Player BallardCurrentPlayer(const open_spiel::State& state);

// The function for `game` (a short name), or nullptr where the game's own is used (as
// where it reads OpenSpiel's private fields and they are off, internals_gate.h).
FastPlayer FastPlayerFor(const std::string& game);

}  // namespace starspiel

#endif  // STARSPIEL_BOTS_NATIVE_FAST_MOVES_H_
