// Shared pieces of the C++ twins of the custom games in games/*.py.
//
// Each twin must behave exactly as its Python game (rules, strings, tensors,
// parameter errors), so the helpers here reproduce games/_common.py's
// GameType and its parameter checks, messages included.
#ifndef STARSPIEL_GAMES_NATIVE_COMMON_H_
#define STARSPIEL_GAMES_NATIVE_COMMON_H_

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "open_spiel/spiel.h"

namespace starspiel::games {

// The GameType of games/_common.py's chance_game_type: zero-sum, sequential,
// perfect information, explicit chance, terminal rewards, min_players to
// max_players players. is_concrete stays false, as pyspiel.GameType leaves it
// for the Python games.
open_spiel::GameType ChanceGameType(const std::string& short_name, const std::string& long_name,
                                    const open_spiel::GameParameters& parameters,
                                    int min_players = 2, int max_players = 2);

// The Python games' refusal of an action: std::invalid_argument (pybind11
// raises ValueError) saying the state is terminal, or listing the legal
// actions. Out of line and cold: the callers' checks stay a few instructions.
[[noreturn]] void ThrowNotApplicable(open_spiel::Action action, bool terminal,
                                     const std::vector<open_spiel::Action>& legal);

// Throws as ThrowNotApplicable unless `action` is legal in `state`.
inline void CheckApplicable(const open_spiel::State& state, open_spiel::Action action) {
  if (state.IsTerminal()) ThrowNotApplicable(action, true, {});
  const std::vector<open_spiel::Action> legal = state.LegalActions();
  if (std::find(legal.begin(), legal.end(), action) == legal.end()) {
    ThrowNotApplicable(action, false, legal);
  }
}

// The parameters with the defaults of `spec` filled in (the Python games pass
// them all to pyspiel.Game, so str(game) lists every parameter). An unknown
// parameter throws std::invalid_argument (pybind11 raises ValueError) with
// _common.check_known's message.
open_spiel::GameParameters FullParameters(const open_spiel::GameParameters& given,
                                          const open_spiel::GameParameters& spec,
                                          const std::string& game);

// An int parameter in [lo, hi] (hi absent: unbounded), else
// std::invalid_argument with _common.check_int's message.
int CheckInt(const open_spiel::GameParameters& params, const std::string& name, std::int64_t lo,
             std::optional<std::int64_t> hi, const std::string& game,
             const std::string& extra = "");

// Python's repr() of an ASCII str.
std::string Repr(const std::string& text);

// The State members every custom game shares, for its concrete class `Derived`: the
// Python games' info-state observer (IIGObserverForPublicInfoGame) prints the history,
// their observation string is the state's string, and a clone copies the position.
template <typename Derived>
class CustomState : public open_spiel::State {
 public:
  using open_spiel::State::State;

  std::string InformationStateString(open_spiel::Player player) const override {
    return HistoryString();
  }
  std::string ObservationString(open_spiel::Player player) const override { return ToString(); }
  std::unique_ptr<open_spiel::State> Clone() const override {
    return std::make_unique<Derived>(static_cast<const Derived&>(*this));
  }

 protected:
  // The bookkeeping every UndoAction starts with (State::UndoAction's).
  void PopHistory() {
    history_.pop_back();
    --move_number_;
  }
};

// A CustomState whose player to move is a field, cp_ (open_spiel::kTerminalPlayerId at the
// end), starting at `kFirst`.
template <typename Derived, int kFirst>
class TurnState : public CustomState<Derived> {
 public:
  using CustomState<Derived>::CustomState;

  open_spiel::Player CurrentPlayer() const override { return cp_; }
  bool IsTerminal() const override { return cp_ == open_spiel::kTerminalPlayerId; }

 protected:
  int cp_ = kFirst;
};

// The returns of a two-player zero-sum game that player 0 ended with `result` (+1 a win,
// -1 a loss, 0 a draw), as the Python games return them (no -0.0).
inline std::vector<double> ZeroSumReturns(int result) {
  if (result == 1) return {1.0, -1.0};
  if (result == -1) return {-1.0, 1.0};
  return {0.0, 0.0};
}

// Cell i of a bit board.
inline bool Bit(std::uint64_t mask, int i) { return (mask >> i) & 1; }

}  // namespace starspiel::games

#endif  // STARSPIEL_GAMES_NATIVE_COMMON_H_
