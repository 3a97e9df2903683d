// The native search bots as OpenSpiel bots: bots/search_bot.py's SearchBot
// over starspiel::Searcher, registered in OpenSpiel's bot registry as
// starspiel_expectiminimax, starspiel_star1, starspiel_star2,
// starspiel_chanceprobcut and starspiel_mcms, so
//   pyspiel.load_bot("starspiel_star2", game, player, {"max_depth": 3})
// (or open_spiel::LoadBot in C++) returns a bot that plays without Python.
//
// Parameters are make_bot's (bots/factory.py), with the same defaults and the
// same per-game defaults (GAME_DEFAULTS), so a registered bot searches exactly
// like make_bot(name, game, player, engine="native") with a native evaluator:
//   max_depth (int >= 1), time_limit (seconds > 0; 1.0 when neither is given),
//   tt_size (int >= 0, default 100000), seed (int >= 0: the random fallback
//   move, and MCMS's draws), move_ordering, partial_iteration, deeper_cutoffs,
//   static_ordering (bools), history_min_depth (int >= 1, default 2),
//   evaluator (a native evaluator name, "default" or "zero"; default: the
//   game's native evaluator if registered, else "midpoint");
//   star2 and mcms: probing_factor (int >= 0), probing ("cyclic" or
//   "sequential"); star2 and chanceprobcut: reachable_probes (bool);
//   chanceprobcut: R (int >= 1; default 2 where calibrated, else the smallest),
//   t (> 0, default 1.5), calibration (a JSON file; default the committed
//   bots/calibrations/ file that bots/calibration.py would pick);
//   mcms: samples (int >= 1, default 5).
// Leaves are valued by native evaluators only: on a game without one (a custom
// game whose evaluator is written in Python) the default is the midpoint, where
// make_bot would call the Python evaluator. Games written in Python play, with
// Python in their moves (their states are Python objects).
// A bad parameter is a SpielFatalError (pyspiel.SpielError in Python) naming
// the parameter and what is accepted.
//
// StepVerbose's text reports the search: "depth=3 value=0.25 nodes=1234 ...".
#ifndef STARSPIEL_BOTS_NATIVE_BOT_H_
#define STARSPIEL_BOTS_NATIVE_BOT_H_

#include <memory>
#include <string>
#include <vector>

#include "open_spiel/game_parameters.h"
#include "open_spiel/spiel.h"
#include "open_spiel/spiel_bots.h"

namespace starspiel {

// What registered names start with; the rest is make_bot's bot name.
inline constexpr char kBotPrefix[] = "starspiel_";

// make_bot's search bot names, registered as kBotPrefix + name.
const std::vector<std::string>& NativeBotAlgorithms();

// The bot `algorithm` (one of NativeBotAlgorithms()) for `player`; a bad
// parameter or an unsupported game is a SpielFatalError.
std::unique_ptr<open_spiel::Bot> MakeNativeSearchBot(const std::string& algorithm,
                                                     std::shared_ptr<const open_spiel::Game> game,
                                                     open_spiel::Player player,
                                                     const open_spiel::GameParameters& params);

}  // namespace starspiel

#endif  // STARSPIEL_BOTS_NATIVE_BOT_H_
