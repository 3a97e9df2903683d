// The native search bots in OpenSpiel's bot registry (see bot.h): the C++
// twin of bots/search_bot.py's SearchBot and of bots/factory.py's parameter
// handling for the search bots.
#include "bots/native/bot.h"

#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <exception>
#include <fstream>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <typeinfo>
#include <utility>
#include <vector>

#include "bots/native/evaluator.h"
#include "bots/native/keys.h"
#include "bots/native/search.h"
#include "nlohmann/json.hpp"
#include "open_spiel/spiel_utils.h"

namespace starspiel {
namespace {

using open_spiel::Action;
using open_spiel::GameParameter;
using open_spiel::GameParameters;
using open_spiel::GameType;

// bots/factory.py's and bots/search_bot.py's defaults.
constexpr double kDefaultTimeLimit = 1.0;
constexpr int kDefaultTtSize = 100000;
constexpr int kDefaultHistoryMinDepth = 2;
constexpr double kDefaultT = 1.5;
constexpr int kDefaultSamples = 5;
constexpr int kDefaultDepthCap = 100;  // deepest iteration under a time limit

// make_bot's accepted parameters per bot (bots/factory.py _accepted), plus
// engine, which a spec copied from make_bot may carry.
const std::set<std::string>& AcceptedParams(const std::string& algorithm) {
  static const auto* accepted = [] {
    const std::set<std::string> search = {
        "max_depth",         "time_limit",     "evaluator",
        "tt_size",           "seed",           "move_ordering",
        "partial_iteration", "deeper_cutoffs", "history_min_depth",
        "static_ordering",   "engine"};
    auto with = [&search](std::initializer_list<std::string> extra) {
      std::set<std::string> names = search;
      names.insert(extra);
      return names;
    };
    return new std::map<std::string, std::set<std::string>>{
        {"expectiminimax", search},
        {"star1", search},
        {"star2", with({"probing_factor", "probing", "reachable_probes"})},
        {"chanceprobcut", with({"R", "t", "calibration", "reachable_probes"})},
        {"mcms", with({"probing_factor", "probing", "reachable_probes", "samples"})},
    };
  }();
  return accepted->at(algorithm);
}

// bots/factory.py's GAME_DEFAULTS, entry for entry: where another setting made
// a bot reach its depths sooner in that game (docs/benchmark.md), so that the
// registered bot is make_bot's bot. Keep the two tables in step
// (tests/test_native_bot_registry.py compares node counts game by game).
GameParameters GameDefaults(const std::string& algorithm, const std::string& game) {
  const bool dice_like = game == "dice" || game == "einstein_wurfelt_nicht";
  if (algorithm == "star2") {
    if (game == "pig") return {{"reachable_probes", GameParameter(true)}};
    if (game == "backgammon") return {{"static_ordering", GameParameter(true)}};
    if (dice_like) return {{"history_min_depth", GameParameter(1)}};
  } else if (algorithm == "chanceprobcut") {
    if (game == "pig") {
      return {{"reachable_probes", GameParameter(true)}, {"t", GameParameter(0.5)}};
    }
    if (dice_like) return {{"history_min_depth", GameParameter(1)}, {"t", GameParameter(0.5)}};
  }
  return {};
}

std::string Join(const std::vector<std::string>& items, const std::string& separator) {
  std::string joined;
  for (const std::string& item : items) joined += (joined.empty() ? "" : separator) + item;
  return joined;
}

// Python's repr() of a float (shortest round trip, ".0" on integral values),
// as Python prints parameters in messages and calibration file names.
std::string PythonFloat(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[64];
  const auto [end, error] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  std::string text(buffer, error == std::errc() ? end : buffer);
  if (text.find_first_of(".en") == std::string::npos) text += ".0";
  return text;
}

// A bound as make_bot prints it: 0, not 0.0.
std::string PythonNumber(double value) {
  if (value == std::floor(value) && std::abs(value) < 1e15) {
    return std::to_string(static_cast<std::int64_t>(value));
  }
  return PythonFloat(value);
}

// str() of the Python value a GameParameter stands for.
std::string PythonStr(const GameParameter& value) {
  switch (value.type()) {
    case GameParameter::Type::kBool:
      return value.bool_value() ? "True" : "False";
    case GameParameter::Type::kDouble:
      return PythonFloat(value.double_value());
    default:
      return value.ToString();
  }
}

std::string Described(const GameParameter& value) {
  switch (value.type()) {
    case GameParameter::Type::kInt:
      return value.ToString() + " (an integer)";
    case GameParameter::Type::kDouble:
      return PythonFloat(value.double_value()) + " (a number)";
    case GameParameter::Type::kBool:
      return PythonStr(value) + " (a bool)";
    case GameParameter::Type::kString:
      return "'" + value.string_value() + "' (a string)";
    default:
      return value.ToString();
  }
}

// A bot's parameters: make_bot's checks, with SpielFatalError for ValueError.
class Params {
 public:
  Params(std::string bot, GameParameters values)
      : bot_(std::move(bot)), values_(std::move(values)) {}

  [[noreturn]] void Fail(const std::string& message) const {
    open_spiel::SpielFatalError(bot_ + ": " + message);
  }

  const GameParameter* Find(const std::string& name) const {
    auto it = values_.find(name);
    return it == values_.end() ? nullptr : &it->second;
  }

  std::optional<int> OptionalInt(const std::string& name, int minimum) const {
    const GameParameter* value = Find(name);
    if (value == nullptr) return std::nullopt;
    if (!value->has_int_value() || value->int_value() < minimum) {
      Fail(name + " must be an integer >= " + std::to_string(minimum) + ", got " +
           Described(*value));
    }
    return value->int_value();
  }

  int Int(const std::string& name, int fallback, int minimum) const {
    return OptionalInt(name, minimum).value_or(fallback);
  }

  // A number: an int or a double parameter (time_limit=1 is one second).
  std::optional<double> OptionalNumber(const std::string& name, double minimum) const {
    const GameParameter* value = Find(name);
    if (value == nullptr) return std::nullopt;
    double number = 0.0;
    if (value->has_int_value()) {
      number = value->int_value();
    } else if (value->has_double_value()) {
      number = value->double_value();
    } else {
      number = std::nan("");
    }
    if (!(number >= minimum)) {
      Fail(name + " must be a number >= " + PythonNumber(minimum) + ", got " + Described(*value));
    }
    return number;
  }

  bool Bool(const std::string& name, bool fallback) const {
    const GameParameter* value = Find(name);
    if (value == nullptr) return fallback;
    if (!value->has_bool_value()) {
      Fail(name + " must be true or false, got " + Described(*value));
    }
    return value->bool_value();
  }

  std::optional<std::string> OptionalString(const std::string& name) const {
    const GameParameter* value = Find(name);
    if (value == nullptr) return std::nullopt;
    if (!value->has_string_value()) Fail(name + " must be a string, got " + Described(*value));
    return value->string_value();
  }

  std::string Choice(const std::string& name, const std::vector<std::string>& accepted,
                     const std::string& fallback) const {
    const std::string choice = OptionalString(name).value_or(fallback);
    if (std::find(accepted.begin(), accepted.end(), choice) == accepted.end()) {
      Fail("unknown " + name + " '" + choice + "'; accepted: " + Join(accepted, ", "));
    }
    return choice;
  }

  const GameParameters& values() const { return values_; }

 private:
  std::string bot_;
  GameParameters values_;
};

// bots/factory.py check_game_supported: the reasons the searches cannot model
// the game (empty where they can).
std::vector<std::string> UnsupportedReasons(const open_spiel::Game& game) {
  const GameType& type = game.GetType();
  std::vector<std::string> reasons;
  if (type.dynamics != GameType::Dynamics::kSequential) {
    reasons.push_back("it has simultaneous moves");
  }
  if (type.information != GameType::Information::kPerfectInformation) {
    reasons.push_back("it has imperfect information");
  }
  if (game.NumPlayers() > 2) {
    reasons.push_back("it has " + std::to_string(game.NumPlayers()) + " players");
  }
  if (game.NumPlayers() == 2 && type.utility != GameType::Utility::kZeroSum &&
      type.utility != GameType::Utility::kConstantSum) {
    reasons.push_back("it is a two-player general-sum game");
  }
  if (type.chance_mode == GameType::ChanceMode::kSampledStochastic) {
    reasons.push_back("its chance outcomes are sampled, not enumerable");
  }
  return reasons;
}

// ----------------------------------------------------------------- evaluator

struct ResolvedEvaluator {
  std::string name;
  std::shared_ptr<Evaluator> evaluator;
};

// make_evaluator's names over the native registry: "default" (or no
// parameter) is the game's evaluator where one is registered under its short
// name and accepts the game, else the midpoint; "zero" is the midpoint; a
// game's name must be this game's.
ResolvedEvaluator ResolveEvaluator(const Params& params, const open_spiel::Game& game) {
  const std::string short_name = game.GetType().short_name;
  const std::string spec = params.OptionalString("evaluator").value_or("default");
  const std::vector<std::string> names = EvaluatorNames();
  auto registered = [&names](const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  auto accepted = [&names]() {
    return "'default', 'zero' or a native evaluator: " + Join(names, ", ") +
           " (a Python evaluator needs bots.make_bot)";
  };
  if (spec == "default") {
    if (registered(short_name)) {
      try {
        return {short_name, MakeEvaluator(short_name, game)};
      } catch (const std::exception&) {
        // As default_evaluator: a heuristic that refuses the game's
        // parameters leaves the midpoint.
      }
    }
    return {"midpoint", MakeEvaluator("midpoint", game)};
  }
  const std::string name = spec == "zero" ? "midpoint" : spec;
  if (!registered(name)) params.Fail("unknown evaluator '" + spec + "'; accepted: " + accepted());
  if (name != "midpoint" && name != short_name) {
    params.Fail("evaluator '" + name + "' is for game '" + name + "', not for '" + short_name +
                "'; accepted: " + accepted());
  }
  try {
    return {name, MakeEvaluator(name, game)};
  } catch (const std::exception& error) {
    params.Fail("evaluator '" + name + "' refuses game '" + game.ToString() + "': " + error.what());
  }
}

// search_bounds for the built-in evaluators: their declared bounds, which are
// game_value_bounds (bots/evaluators/api.py) except where an evaluator
// declares tighter ones.
std::pair<double, double> EvaluatorBounds(const std::string& evaluator,
                                          const open_spiel::Game& game) {
  // bots/evaluators/maedn.py: its values stay in (-1, 1), tighter than +-3.
  if (evaluator == "maedn") return {-1.0, 1.0};
  const double low = game.MinUtility();
  double high = game.MaxUtility();
  // 2048's max_utility is exceeded by real games; every cell's merges bound it.
  if (game.GetType().short_name == "2048") high = 16.0 * high;
  return {low, high};
}

// --------------------------------------------------------------- calibration

// This extension's folder (bots/), where bots/calibration.py's CALIBRATION_DIR
// lives: the committed calibrations ship beside the module.
std::string ModuleDirectory() {
  Dl_info info;
  if (dladdr(reinterpret_cast<const void*>(&ModuleDirectory), &info) == 0 ||
      info.dli_fname == nullptr) {
    return ".";
  }
  const std::string path = info.dli_fname;
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

// bots/calibration.py canonical_game_string and calibration_filename.
std::string CalibrationFilename(const open_spiel::Game& game) {
  std::string text = game.GetType().short_name + "(";
  bool first = true;
  for (const auto& [key, value] : game.GetParameters()) {  // std::map: sorted keys
    text += (first ? "" : ",") + key + "=" + PythonStr(value);
    first = false;
  }
  text += ")";
  std::string name;
  bool gap = false;
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      if (gap && !name.empty()) name += '_';
      name += c;
      gap = false;
    } else {
      gap = true;  // a run of other characters is one "_", none at either end
    }
  }
  return name + ".json";
}

std::string CalibrationCommand(const open_spiel::Game& game) {
  return "python -m experiments.probcut.calibrate --game='" + game.ToString() +
         "' --depths=2,3,4 --reduction=1";
}

bool IsFinite(double x) { return std::isfinite(x); }

// bots/calibration.py probcut_settings (mover-relative models on), into the
// engine's options.
void LoadProbCut(const Params& params, const open_spiel::Game& game, std::optional<int> reduction,
                 double t, SearchOptions& options) {
  const std::string path =
      params.OptionalString("calibration")
          .value_or(ModuleDirectory() + "/calibrations/" + CalibrationFilename(game));
  std::ifstream file(path);
  if (!file) {
    params.Fail("no ChanceProbCut calibration for game '" + game.ToString() + "' (looked for " +
                path + "); make one with: " + CalibrationCommand(game) +
                "  or pass calibration=<file> to the bot");
  }
  nlohmann::json data;
  try {
    data = nlohmann::json::parse(file);
  } catch (const nlohmann::json::exception& error) {
    params.Fail("calibration file " + path + " is not valid JSON: " + error.what());
  }
  if (!data.is_object() || !data.contains("models") || !data["models"].is_array()) {
    params.Fail("calibration file " + path + " has no 'models' list");
  }
  const nlohmann::json& models = data["models"];
  auto number = [](const nlohmann::json& entry, const char* key) -> std::optional<double> {
    if (!entry.is_object() || !entry.contains(key) || !entry[key].is_number()) return std::nullopt;
    return entry[key].get<double>();
  };
  if (!reduction.has_value()) {
    // R=2 where calibrated: shallow and deep searches end on the same player's move.
    std::set<int> available;
    for (const auto& entry : models) {
      const int r = static_cast<int>(number(entry, "reduction").value_or(0));
      if (r != 0) available.insert(r);
    }
    reduction = available.count(2) ? 2 : (available.empty() ? 1 : *available.begin());
  }
  if (data.contains("game") && data["game"].is_string()) {
    const std::string stored = data["game"].get<std::string>();
    if (stored.substr(0, stored.find('(')) != game.GetType().short_name) {
      params.Fail("calibration file " + path + " is for game '" + stored + "', not '" +
                  game.ToString() + "'; make one with: " + CalibrationCommand(game));
    }
  }
  std::map<int, ProbCutModel> chosen;
  std::set<int> reductions;
  for (const auto& entry : models) {
    const auto depth = number(entry, "depth"), r = number(entry, "reduction");
    const auto a = number(entry, "a"), b = number(entry, "b"), sigma = number(entry, "sigma");
    if (!depth || !r || !a || !b || !sigma) {
      params.Fail("calibration file " + path + ": model " + entry.dump() +
                  " needs numeric depth, reduction, a, b and sigma");
    }
    if (!IsFinite(*a) || !IsFinite(*b) || !IsFinite(*sigma) || *sigma < 0) {
      params.Fail("calibration file " + path + ": model for depth " +
                  std::to_string(static_cast<int>(*depth)) + ", R=" +
                  std::to_string(static_cast<int>(*r)) + " needs finite a, b and sigma >= 0");
    }
    reductions.insert(static_cast<int>(*r));
    if (static_cast<int>(*r) != *reduction) continue;
    ProbCutModel model;
    model.a = *a;
    model.b = *b;
    model.sigma = *sigma;
    // An unusable mover-relative model is ignored, as bots/calibration.py does.
    if (entry.contains("mover_relative") && entry["mover_relative"].is_object()) {
      const nlohmann::json& mover = entry["mover_relative"];
      const auto ma = number(mover, "a"), mb = number(mover, "b"), ms = number(mover, "sigma");
      if (ma && mb && ms && IsFinite(*ma) && IsFinite(*mb) && IsFinite(*ms) && *ms >= 0) {
        model.has_mover = true;
        model.mover_a = *ma;
        model.mover_b = *mb;
        model.mover_sigma = *ms;
      }
    }
    chosen[static_cast<int>(*depth)] = model;
  }
  if (chosen.empty()) {
    std::vector<std::string> available;
    for (int r : reductions) available.push_back(std::to_string(r));
    params.Fail("calibration for '" + game.ToString() + "' has no models for R=" +
                std::to_string(*reduction) + " (available: [" + Join(available, ", ") +
                "]); make one with: python -m experiments.probcut.calibrate --game='" +
                game.ToString() + "' --reduction=" + std::to_string(*reduction));
  }
  if (!(t > 0)) params.Fail("ChanceProbCut confidence t must be > 0, got " + PythonFloat(t));
  options.probcut_reduction = *reduction;
  options.probcut_t = t;
  options.probcut_models = std::move(chosen);
}

// ---------------------------------------------------------------------- bot

// numpy's legacy np.random.RandomState(seed).choice(n): MT19937 seeded by
// init_genrand (what std::mt19937(seed) does) and masked rejection, so the
// fallback move is the Python bot's for the same seed.
class LegacyNumpyRandom {
 public:
  explicit LegacyNumpyRandom(std::uint32_t seed) : mt_(seed) {}

  std::size_t Below(std::size_t n) {
    const std::uint64_t range = n - 1;
    if (range == 0) return 0;
    std::uint64_t mask = range;
    for (int shift = 1; shift < 64; shift *= 2) mask |= mask >> shift;
    for (;;) {
      const std::uint64_t value = static_cast<std::uint64_t>(mt_()) & mask;
      if (value <= range) return static_cast<std::size_t>(value);
    }
  }

 private:
  std::mt19937 mt_;
};

std::uint32_t SeedOrRandom(std::optional<int> seed) {
  if (seed.has_value()) return static_cast<std::uint32_t>(*seed);
  return std::random_device()();
}

// What one step found: SearchBot.last_search's scalars.
struct Report {
  double value = 0.0;
  bool has_value = false;
  Action action = open_spiel::kInvalidAction;
  int depth = 0;
  double time = 0.0;
  bool completed = false;
  std::optional<int> partial_depth;
  int iterations = 0;
};

class NativeSearchBot : public open_spiel::Bot {
 public:
  NativeSearchBot(std::string name, open_spiel::Player player, std::unique_ptr<Searcher> searcher,
                  std::optional<int> max_depth, std::optional<double> time_limit,
                  std::optional<int> seed, bool partial_iteration)
      : name_(std::move(name)),
        player_(player),
        searcher_(std::move(searcher)),
        max_depth_(max_depth),
        time_limit_(time_limit),
        partial_iteration_(partial_iteration),
        rng_(SeedOrRandom(seed)) {}

  Action Step(const open_spiel::State& state) override { return Run(state).action; }

  std::pair<Action, std::string> StepVerbose(const open_spiel::State& state) override {
    const Report report = Run(state);
    return {report.action, Describe(report)};
  }

  bool ProvidesPolicy() override { return true; }
  open_spiel::ActionsAndProbs GetPolicy(const open_spiel::State& state) override {
    return {{Step(state), 1.0}};
  }
  std::pair<open_spiel::ActionsAndProbs, Action> StepWithPolicy(
      const open_spiel::State& state) override {
    const Action action = Step(state);
    return {{{action, 1.0}}, action};
  }

  // The bot keeps nothing per game but its table, which stays valid.
  void Restart() override {}
  void RestartAt(const open_spiel::State& state) override {}

 private:
  Report Run(const open_spiel::State& state) {
    if (state.IsTerminal() || state.IsChanceNode()) {
      open_spiel::SpielFatalError(name_ +
                                  ": step() needs a decision node of the bot's player, got a " +
                                  (state.IsTerminal() ? "terminal" : "chance") + " state");
    }
    if (state.CurrentPlayer() != player_) {
      open_spiel::SpielFatalError(name_ + ": bot plays player " + std::to_string(player_) +
                                  " but it is player " + std::to_string(state.CurrentPlayer()) +
                                  "'s turn");
    }
    Report report;
    try {
      report = time_limit_.has_value() ? IterativeDeepening(state, *time_limit_)
                                       : FixedDepth(state, *max_depth_);
    } catch (const std::exception& error) {
      searcher_->set_deadline(0.0);
      // A leaf value out of bounds: Python's LeafValueOutOfBounds, a SpielError here.
      open_spiel::SpielFatalError(name_ + ": " + error.what());
    }
    return report;
  }

  Report FixedDepth(const open_spiel::State& state, int depth) {
    searcher_->ResetStats();
    searcher_->set_deadline(0.0);
    const double start = MonotonicSeconds();
    const RootResult result = searcher_->Search(state, depth, {}, nullptr);
    Report report;
    report.value = result.value;
    report.has_value = true;
    report.action = result.action != kNoMove ? result.action : Fallback(state);
    report.depth = depth;
    report.completed = true;
    report.iterations = 1;
    report.time = MonotonicSeconds() - start;
    return report;
  }

  // SearchBot._iterative_deepening: deepen from 1 until the deadline, each
  // iteration searching the previous best move first.
  Report IterativeDeepening(const open_spiel::State& state, double time_limit) {
    searcher_->ResetStats();
    const double start = MonotonicSeconds();
    searcher_->set_deadline(start + time_limit);
    const int cap = max_depth_.value_or(kDefaultDepthCap);
    Report report;
    bool has_action = false;
    std::vector<std::int64_t> order;
    for (int target = 1; target <= cap; ++target) {
      const std::int64_t evaluations_before = searcher_->stats().evaluations;
      const std::int64_t hits_before = searcher_->stats().tt_hits;
      RootResult partial;
      RootResult result;
      try {
        result = searcher_->Search(state, target, order, &partial);
      } catch (const SearchTimeout&) {
        // partial holds a move only once the previous best (searched first)
        // is complete, so its best is sound at this depth.
        if (partial.has_partial && (!has_action || partial_iteration_)) {
          report.value = partial.partial_value;
          report.has_value = true;
          report.action = partial.partial_action;
          has_action = true;
          report.partial_depth = target;
        }
        break;
      }
      report.value = result.value;
      report.has_value = true;
      has_action = result.action != kNoMove;
      report.action = result.action;
      report.depth = target;
      ++report.iterations;
      order.clear();
      if (has_action) order.push_back(result.action);
      if (target == cap) report.completed = true;
      if (searcher_->stats().evaluations == evaluations_before &&
          searcher_->stats().tt_hits == hits_before) {
        report.completed = true;  // every leaf was terminal: deeper search cannot differ
        break;
      }
    }
    searcher_->set_deadline(0.0);
    if (!has_action) report.action = Fallback(state);
    report.time = MonotonicSeconds() - start;
    return report;
  }

  // A seeded random legal move, when not even one root move was searched.
  Action Fallback(const open_spiel::State& state) {
    const std::vector<Action> legal = state.LegalActions();
    return legal[rng_.Below(legal.size())];
  }

  std::string Describe(const Report& report) const {
    const Stats& s = searcher_->stats();
    std::ostringstream text;
    text.precision(17);
    text << "action=" << report.action << " value=";
    if (report.has_value) {
      text << report.value;
    } else {
      text << "none";
    }
    text << " depth=" << report.depth << " completed=" << (report.completed ? 1 : 0)
         << " partial_depth="
         << (report.partial_depth ? std::to_string(*report.partial_depth) : "none")
         << " iterations=" << report.iterations << " time=" << report.time << " nodes=" << s.nodes
         << " leaves=" << s.leaves << " evaluations=" << s.evaluations
         << " probe_nodes=" << s.probe_nodes << " tt_hits=" << s.tt_hits
         << " cutoffs_alpha_beta=" << s.cutoffs_alpha_beta << " cutoffs_star1=" << s.cutoffs_star1
         << " cutoffs_star2_probe=" << s.cutoffs_star2_probe
         << " cutoffs_probcut=" << s.cutoffs_probcut << " probcut_nodes=" << s.probcut_nodes
         << " probcut_researches=" << s.probcut_researches << " probe_reuses=" << s.probe_reuses
         << " sampled_chance_nodes=" << s.sampled_chance_nodes
         << " samples_drawn=" << s.samples_drawn << " sample_reuses=" << s.sample_reuses;
    return text.str();
  }

  std::string name_;
  open_spiel::Player player_;
  std::unique_ptr<Searcher> searcher_;
  std::optional<int> max_depth_;
  std::optional<double> time_limit_;
  bool partial_iteration_;
  LegacyNumpyRandom rng_;
};

class NativeBotFactory : public open_spiel::BotFactory {
 public:
  explicit NativeBotFactory(std::string algorithm) : algorithm_(std::move(algorithm)) {}

  bool CanPlayGame(const open_spiel::Game& game, open_spiel::Player player) const override {
    return UnsupportedReasons(game).empty() && player >= 0 && player < game.NumPlayers();
  }

  std::unique_ptr<open_spiel::Bot> Create(std::shared_ptr<const open_spiel::Game> game,
                                          open_spiel::Player player,
                                          const GameParameters& params) const override {
    return MakeNativeSearchBot(algorithm_, std::move(game), player, params);
  }

 private:
  std::string algorithm_;
};

// One registration per bot; the extension's static initializers run when
// bots._native is loaded, into pyspiel.so's registry (its symbols are global).
const open_spiel::BotRegisterer kRegisterExpectiminimax(
    "starspiel_expectiminimax", std::make_unique<NativeBotFactory>("expectiminimax"));
const open_spiel::BotRegisterer kRegisterStar1("starspiel_star1",
                                               std::make_unique<NativeBotFactory>("star1"));
const open_spiel::BotRegisterer kRegisterStar2("starspiel_star2",
                                               std::make_unique<NativeBotFactory>("star2"));
const open_spiel::BotRegisterer kRegisterChanceProbCut(
    "starspiel_chanceprobcut", std::make_unique<NativeBotFactory>("chanceprobcut"));
const open_spiel::BotRegisterer kRegisterMcms("starspiel_mcms",
                                              std::make_unique<NativeBotFactory>("mcms"));

}  // namespace

const std::vector<std::string>& NativeBotAlgorithms() {
  static const auto* algorithms =
      new std::vector<std::string>{"expectiminimax", "star1", "star2", "chanceprobcut", "mcms"};
  return *algorithms;
}

std::unique_ptr<open_spiel::Bot> MakeNativeSearchBot(const std::string& algorithm,
                                                     std::shared_ptr<const open_spiel::Game> game,
                                                     open_spiel::Player player,
                                                     const GameParameters& given) {
  const std::string bot = kBotPrefix + algorithm;
  const auto& algorithms = NativeBotAlgorithms();
  if (std::find(algorithms.begin(), algorithms.end(), algorithm) == algorithms.end()) {
    open_spiel::SpielFatalError("unknown native search bot '" + algorithm +
                                "'; accepted: " + Join(algorithms, ", "));
  }
  if (game == nullptr) open_spiel::SpielFatalError(bot + ": needs a game");
  // make_bot's order: unknown parameters, the player, the game, then values.
  const std::set<std::string>& accepted = AcceptedParams(algorithm);
  std::vector<std::string> unknown;
  for (const auto& [name, value] : given) {
    // LoadBot("starspiel_star2(max_depth=3)") passes the bot's name as "name".
    if (!accepted.count(name) && name != "name") unknown.push_back(name);
  }
  if (!unknown.empty()) {
    open_spiel::SpielFatalError(
        "unknown parameter(s) " + Join(unknown, ", ") + " for bot '" + bot +
        "'; accepted: " + Join(std::vector<std::string>(accepted.begin(), accepted.end()), ", "));
  }
  if (player < 0 || player >= game->NumPlayers()) {
    open_spiel::SpielFatalError(bot + ": player_id must be in 0.." +
                                std::to_string(game->NumPlayers() - 1) + " for '" +
                                game->ToString() + "', got " + std::to_string(player));
  }
  const std::vector<std::string> reasons = UnsupportedReasons(*game);
  if (!reasons.empty()) {
    open_spiel::SpielFatalError(
        bot + " bots cannot play '" + game->ToString() + "': " + Join(reasons, "; ") +
        ". Accepted: sequential perfect-information games with one player, or two players "
        "and zero-sum utilities, and explicit (or no) chance");
  }
  const std::string short_name = game->GetType().short_name;
  GameParameters merged = GameDefaults(algorithm, short_name);
  for (const auto& [name, value] : given) {
    if (name != "name") merged.insert_or_assign(name, value);
  }
  const Params params(bot, std::move(merged));

  const std::optional<int> max_depth = params.OptionalInt("max_depth", 1);
  std::optional<double> time_limit = params.OptionalNumber("time_limit", 0.0);
  if (time_limit.has_value() && !(*time_limit > 0)) {
    params.Fail("time_limit must be > 0 seconds or none, got " + PythonFloat(*time_limit));
  }
  if (!max_depth.has_value() && !time_limit.has_value()) time_limit = kDefaultTimeLimit;
  const std::optional<int> seed = params.OptionalInt("seed", 0);
  const std::string engine = params.Choice("engine", {"auto", "native"}, "native");
  (void)engine;  // this bot is the native engine; engine=python needs bots.make_bot

  SearchOptions options;
  options.algorithm = algorithm;
  options.player = player;
  options.tt_size = params.Int("tt_size", kDefaultTtSize, 0);
  options.move_ordering = params.Bool("move_ordering", true);
  const bool partial_iteration = params.Bool("partial_iteration", true);
  options.deeper_cutoffs = params.Bool("deeper_cutoffs", false);
  options.history_min_depth = params.Int("history_min_depth", kDefaultHistoryMinDepth, 1);
  options.static_ordering = params.Bool("static_ordering", false);
  options.reachable_probes = params.Bool("reachable_probes", false);
  // bots/search.py _probing_factor: star2, chanceprobcut and mcms (star2 on
  // sampled chance nodes) probe one successor per child unless told otherwise.
  const bool probes = algorithm == "star2" || algorithm == "chanceprobcut" || algorithm == "mcms";
  options.probing_factor = params.Int("probing_factor", probes ? 1 : 0, 0);
  options.probing = params.Choice("probing", {"cyclic", "sequential"}, "cyclic") == "sequential"
                        ? Probing::kSequential
                        : Probing::kCyclic;
  if (algorithm == "chanceprobcut") {
    const std::optional<int> reduction = params.OptionalInt("R", 1);
    const double t = params.OptionalNumber("t", 0.0).value_or(kDefaultT);
    LoadProbCut(params, *game, reduction, t, options);
  }
  if (algorithm == "mcms") {
    options.samples = params.Int("samples", kDefaultSamples, 1);
    options.sampling_seed = static_cast<std::uint64_t>(seed.value_or(0));
  }
  const ResolvedEvaluator evaluator = ResolveEvaluator(params, *game);
  std::tie(options.lower_bound, options.upper_bound) = EvaluatorBounds(evaluator.name, *game);
  // bots/native_search.py's choice: the game's text scheme, else history
  // digests for C++ games and (history, player, text) keys for games written in
  // Python (their C++ side is pyspiel's PyGame; Python runs in their moves anyway).
  if (FindKeyScheme(short_name) != nullptr) {
    options.key_kind = KeyKind::kScheme;
  } else if (const open_spiel::Game& base = *game;
             std::string(typeid(base).name()).find("PyGame") != std::string::npos) {
    options.key_kind = KeyKind::kPythonState;
  } else {
    options.key_kind = KeyKind::kDigest;
  }

  std::shared_ptr<Evaluator> leaf_evaluator = evaluator.evaluator;
  LeafFunction leaf = [leaf_evaluator](const open_spiel::State& state, int p) {
    return leaf_evaluator->NonTerminalValue(state, p);
  };
  auto searcher = std::make_unique<Searcher>(game, std::move(options), std::move(leaf),
                                             "'" + evaluator.name + "' (native)");
  return std::make_unique<NativeSearchBot>(bot, player, std::move(searcher), max_depth, time_limit,
                                           seed, partial_iteration);
}

}  // namespace starspiel
