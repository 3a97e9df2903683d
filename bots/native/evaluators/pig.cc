// Native twin of bots/evaluators/pig.py (PigEvaluator).
//
// The Python evaluator tabulates, once per game parameters, the static
// start-of-turn values F and each score pair's within-turn tables (V, roll);
// a leaf value is one table lookup. This file recomputes those tables with
// the same floating-point operations in the same order, so the leaf values
// are bit-identical, and reads scores, turn total and turn player from the
// C++ state instead of parsing str(state). With more than two players every
// pair of players is rated by those tables and the races are combined by
// evaluators::PairwiseWinValues, as PigEvaluator._values does.
#include "open_spiel/games/pig/pig.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "bots/native/evaluator.h"
#include "bots/native/evaluators/common.h"
#include "open_spiel/spiel.h"

namespace starspiel {
namespace {

using evaluators::kShrink;

struct Gain {
  int points;
  double probability;
};

// _pig_points_per_turn: expected points banked per turn under the best
// "hold at H" policy, H = 1..100.
double PointsPerTurn(int dice, bool piglet) {
  std::vector<Gain> outcomes;  // the non-bust outcomes, in Python's order
  if (piglet) {
    outcomes.push_back({1, 1.0 - 1.0 / dice});
  } else {
    for (int k = 2; k <= dice; ++k) outcomes.push_back({k, 1.0 / dice});
  }
  double best = 0.0;
  std::vector<double> f;
  for (int hold = 1; hold <= 100; ++hold) {
    const int top = hold + dice + 1;
    f.assign(top + 1, 0.0);
    for (int t = top; t >= 0; --t) {
      if (t >= hold) {
        f[t] = static_cast<double>(t);
      } else {
        double sum = 0.0;  // Python's sum(): left to right from 0
        for (const Gain& g : outcomes) {
          sum += g.probability * f[std::min(t + g.points, top)];
        }
        f[t] = sum;
      }
    }
    if (f[0] > best) best = f[0];  // max(best, f[0])
  }
  return best;
}

// Every table of one set of game parameters (Python's _SHARED_TABLES entry).
class PigTables {
 public:
  PigTables(int win_score, int dice, bool piglet) : w_(win_score), p_bust_(1.0 / dice) {
    if (piglet) {
      gains_.push_back({1, 1.0 - 1.0 / dice});
    } else {
      for (int k = 2; k <= dice; ++k) gains_.push_back({k, 1.0 / dice});
    }
    max_gain_ = 0;
    for (const Gain& g : gains_) max_gain_ = std::max(max_gain_, g.points);
    const double e = PointsPerTurn(dice, piglet);
    static_.resize((w_ + 1) * (w_ + 1));
    for (int a = 0; a <= w_; ++a) {
      for (int b = 0; b <= w_; ++b) {
        static_[a * (w_ + 1) + b] = StartOfTurn((w_ - a) / e, (w_ - b) / e + 0.5);
      }
    }
    // Table of (mine, theirs) at offset_[mine] + theirs * Length(mine).
    offset_.resize(w_ + 1);
    size_t total = 0;
    for (int mine = 0; mine <= w_; ++mine) {
      offset_[mine] = total;
      total += static_cast<size_t>(w_ + 1) * Length(mine);
    }
    value_.resize(total);
    roll_.resize(total);
    for (int mine = 0; mine <= w_; ++mine) {
      for (int theirs = 0; theirs <= w_; ++theirs) {
        const size_t at = offset_[mine] + theirs * Length(mine);
        Turn(mine, theirs, &value_[at], &roll_[at]);
      }
    }
  }

  // Python's _value for the turn player's scores (mine, theirs) and turn
  // total t, at a chance node (rolling) or a decision node.
  double Value(int mine, int theirs, int t, bool rolling) const {
    if (mine > w_ || theirs > w_) return Fallback(mine, theirs, t, rolling);
    const int length = Length(mine);
    const size_t at = offset_[mine] + theirs * length;
    const double* table = rolling ? &roll_[at] : &value_[at];
    return table[std::min(t, length - 1)];
  }

  // F of a player about to start its turn with score `mover` against
  // `other`, scores clipped at w (Python's static[min(a, w)][min(b, w)]).
  double StartOfTurnValue(int mover, int other) const {
    return Static(std::min(mover, w_), std::min(other, w_));
  }

 private:
  static double StartOfTurn(double t_mover, double t_other) {
    const double spread = 0.75 * std::sqrt(2.0 * (t_mover + t_other + 1.0));
    return kShrink * std::erf((t_other - t_mover) / spread);
  }

  // The table length of a score `mine` <= w: w - mine + max_gain + 1.
  int Length(int mine) const { return w_ - mine + max_gain_ + 1; }

  double Static(int theirs, int score) const { return static_[theirs * (w_ + 1) + score]; }

  // PigEvaluator._turn: fills value[0..size) and roll[0..size), size =
  // max(w - mine, 0) + max_gain + 1.
  void Turn(int mine, int theirs, double* value, double* roll) const {
    const int f_theirs = std::min(theirs, w_);
    const int top = std::max(w_ - mine, 0);
    const int size = top + max_gain_ + 1;
    const double bust = -p_bust_ * Static(f_theirs, std::min(mine, w_));
    for (int t = size - 1; t >= 0; --t) {
      const double hold = -Static(f_theirs, std::min(mine + t, w_));
      if (t >= top) {
        value[t] = roll[t] = hold;
        continue;
      }
      double r = bust;
      for (const Gain& g : gains_) r += g.probability * value[t + g.points];
      roll[t] = r;
      value[t] = hold > r ? hold : r;
    }
  }

  // Scores beyond w (Python's self._turn fallback; not reached by
  // non-terminal states of OpenSpiel's pig).
  double Fallback(int mine, int theirs, int t, bool rolling) const {
    const int size = std::max(w_ - mine, 0) + max_gain_ + 1;
    std::vector<double> value(size), roll(size);
    Turn(mine, theirs, value.data(), roll.data());
    return (rolling ? roll : value)[std::min(t, size - 1)];
  }

  int w_;
  double p_bust_;
  std::vector<Gain> gains_;
  int max_gain_;
  std::vector<double> static_;  // F[a][b], row-major
  std::vector<size_t> offset_;
  std::vector<double> value_;
  std::vector<double> roll_;
};

// Tables shared by every evaluator of the same parameters, built once.
std::shared_ptr<const PigTables> SharedTables(int win_score, int dice, bool piglet) {
  static std::mutex mutex;
  static auto* cache = new std::map<std::tuple<int, int, bool>, std::shared_ptr<const PigTables>>();
  std::lock_guard<std::mutex> lock(mutex);
  auto key = std::make_tuple(win_score, dice, piglet);
  auto it = cache->find(key);
  if (it != cache->end()) return it->second;
  auto tables = std::make_shared<const PigTables>(win_score, dice, piglet);
  cache->emplace(key, tables);
  return tables;
}

class PigEvaluator : public Evaluator {
 public:
  PigEvaluator(std::shared_ptr<const PigTables> tables, bool piglet, int num_players)
      : tables_(std::move(tables)), piglet_(piglet), num_players_(num_players) {}

  double Value(const open_spiel::State& state, int player) override {
    if (state.IsTerminal()) return evaluators::TerminalValue(state, player);
    const Turn turn = TurnOf(state);
    if (num_players_ > 2) return Values(turn)[player];
    const int mine = turn.pig->score(turn.player);
    const int theirs = turn.pig->score(1 - turn.player);
    double v = tables_->Value(mine, theirs, turn.total, turn.rolling);
    if (turn.player == 1) v = -v;
    return player == 1 ? -v : v;
  }

  void NonTerminalValues(const open_spiel::State& state, std::vector<double>* values) override {
    if (num_players_ <= 2) return Evaluator::NonTerminalValues(state, values);
    *values = Values(TurnOf(state));
  }

 private:
  // Whose turn it is, with how many points at stake and whether the dice are rolling.
  struct Turn {
    const open_spiel::pig::PigState* pig;
    int player;
    int total;
    bool rolling;
  };

  Turn TurnOf(const open_spiel::State& state) const {
    const auto& pig = evaluators::StateAs<open_spiel::pig::PigState>(state, "PigEvaluator");
    const auto& history = pig.FullHistory();
    const bool rolling = pig.IsChanceNode();
    // At a chance node the turn player is the one who just chose to roll.
    const int turn_player = rolling ? history.back().player : pig.CurrentPlayer();
    // The turn total: the dice added since the turn began (a hold, a bust,
    // or the start of the game ends the walk back).
    int turn_total = 0;
    for (auto it = history.rbegin(); it != history.rend(); ++it) {
      if (it->player == open_spiel::kChancePlayerId) {
        if (it->action == 0) break;  // bust
        turn_total += piglet_ ? 1 : static_cast<int>(it->action) + 1;
      } else if (it->action == 1) {
        break;  // hold
      }
    }
    return {&pig, turn_player, turn_total, rolling};
  }

  // PigEvaluator._values: every pair's race, the turn player c's from its
  // turn tables, two others' from F of the one who moves first after c.
  std::vector<double> Values(const Turn& turn) const {
    const open_spiel::pig::PigState& pig = *turn.pig;
    const int c = turn.player, t = turn.total;
    const bool rolling = turn.rolling;
    const int n = num_players_;
    const int mine = pig.score(c);
    std::vector<double> pairs;
    pairs.reserve(n * (n - 1) / 2);
    for (int i = 0; i < n; ++i) {
      for (int j = i + 1; j < n; ++j) {
        double v;
        if (i == c) {
          v = tables_->Value(mine, pig.score(j), t, rolling);
        } else if (j == c) {
          v = -tables_->Value(mine, pig.score(i), t, rolling);
        } else if ((i - c + n) % n < (j - c + n) % n) {
          v = tables_->StartOfTurnValue(pig.score(i), pig.score(j));
        } else {
          v = -tables_->StartOfTurnValue(pig.score(j), pig.score(i));
        }
        pairs.push_back(v);
      }
    }
    return evaluators::PairwiseWinValues(pairs, n, n - 1);
  }

  std::shared_ptr<const PigTables> tables_;
  bool piglet_;
  int num_players_;
};

std::unique_ptr<Evaluator> MakePigEvaluator(const open_spiel::Game& game) {
  evaluators::CheckGameName(game, "pig", "PigEvaluator");
  const open_spiel::GameParameters params = game.GetParameters();
  const int win_score = evaluators::IntParameter(params, "winscore", 100);
  const int dice = evaluators::IntParameter(params, "diceoutcomes", 6);
  const bool piglet = evaluators::BoolParameter(params, "piglet", false);
  return std::make_unique<PigEvaluator>(SharedTables(win_score, dice, piglet), piglet,
                                        game.NumPlayers());
}

const bool kRegistered = RegisterEvaluator("pig", MakePigEvaluator);

}  // namespace
}  // namespace starspiel
