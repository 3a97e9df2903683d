#include "games/native/ballard_tree.h"

#include <sys/mman.h>

#include <algorithm>
#include <new>
#include <stdexcept>

#include "games/native/common.h"
#include "games/native/splitmix.h"

namespace starspiel::ballard_tree {
namespace {

using open_spiel::Action;
using open_spiel::GameParameter;
using open_spiel::kChancePlayerId;
using open_spiel::kTerminalPlayerId;
using open_spiel::Player;

constexpr char kLongName[] = "Ballard's *-complete n-ary test tree";
// Dense arc tables: up to this many arcs (bytes) per level, for n whose arcs fit in
// an int8 (|arc| <= n - 1).
constexpr std::uint64_t kDenseLevelBytes = std::uint64_t{1} << 28;
constexpr int kDenseMaxN = 127;

const open_spiel::GameParameters& Spec() {
  static const auto* spec = new open_spiel::GameParameters{
      {"n", GameParameter(4)},
      {"plies", GameParameter(2)},
      {"order", GameParameter(std::string("best"))},
      {"seed", GameParameter(0)},
      {"final_chance", GameParameter(false)},
  };
  return *spec;
}

std::shared_ptr<const open_spiel::Game> Factory(const open_spiel::GameParameters& params) {
  return std::make_shared<BallardGame>(params);
}

const open_spiel::GameRegisterer kRegisterer(games::ChanceGameType(kShortName, kLongName, Spec()),
                                             Factory);

const open_spiel::RegisterSingleTensorObserver kObserver(kShortName);

// Chance arc values, ascending: -n/2..-1, 1..n/2 (even n), else with 0.
std::vector<int> ChanceArcs(int n) {
  const int h = n / 2;
  std::vector<int> arcs;
  for (int v = -h; v <= h; ++v) {
    if (v != 0 || n % 2 == 1) arcs.push_back(v);
  }
  return arcs;
}

std::string JoinPath(const std::vector<int>& path) {
  std::string out;
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (i) out += ',';
    out += std::to_string(path[i]);
  }
  return out;
}

// Zeroed memory from the kernel, touched only where written.
void* MapZeroed(std::size_t bytes) {
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  madvise(p, bytes, MADV_HUGEPAGE);  // a hint: ignored where huge pages are off
#endif
  return p;
}

}  // namespace

Rules::Rules(int n, int plies, bool random_order, int seed, bool final_chance)
    : n_(n),
      plies_(plies),
      random_order_(random_order),
      seed_(static_cast<std::uint64_t>(static_cast<std::int64_t>(seed))),
      final_chance_(final_chance),
      depth_(2 * plies - 1 + (final_chance ? 1 : 0)) {
  for (int j = 0; j < depth_; ++j) {
    std::vector<int> arcs;
    if (j % 2 == 0) {
      const bool is_max = (j / 2) % 2 == 0;
      players_.push_back(is_max ? 0 : 1);
      for (int i = 0; i < n; ++i) arcs.push_back(is_max ? -i : i);
    } else {
      players_.push_back(kChancePlayerId);
      const bool parent_is_max = ((j - 1) / 2) % 2 == 0;
      arcs = ChanceArcs(n);
      if (!parent_is_max) std::reverse(arcs.begin(), arcs.end());
    }
    leaf_min_ += *std::min_element(arcs.begin(), arcs.end());
    leaf_max_ += *std::max_element(arcs.begin(), arcs.end());
    level_arcs_.push_back(std::move(arcs));
  }
  players_.push_back(kTerminalPlayerId);
  dense_.resize(depth_);
  if (!random_order_ || n > kDenseMaxN) return;
  std::uint64_t nodes = 1;  // at this level
  for (int level = 0; level < depth_; ++level) {
    if (nodes > kDenseLevelBytes / n) break;  // and deeper levels are larger still
    const std::uint64_t families = level == 0 ? 1 : nodes / n;
    DenseLevel& table = dense_[level];
    const std::size_t arc_bytes = nodes * n;
    const std::size_t flag_bytes = families * sizeof(std::atomic<std::uint8_t>);
    table.arcs = {static_cast<std::int8_t*>(MapZeroed(arc_bytes)), DenseLevel::Unmap{arc_bytes}};
    table.filled = {static_cast<std::atomic<std::uint8_t>*>(MapZeroed(flag_bytes)),
                    DenseLevel::Unmap{flag_bytes}};
    dense_levels_ = level + 1;
    nodes *= n;
  }
}

void Rules::DenseLevel::Unmap::operator()(void* p) const { munmap(p, bytes); }

void Rules::FillFamily(const std::vector<int>& path, std::uint64_t index) const {
  const int level = static_cast<int>(path.size());
  const std::uint64_t family = level == 0 ? 0 : index / n_;
  const DenseLevel& table = dense_[level];
  std::lock_guard<std::mutex> lock(mutex_);
  if (table.filled[family].load(std::memory_order_relaxed)) return;
  // The node and its siblings: the parent's path with each last action. Their keys
  // share the parent's path and a comma, hashed once.
  std::vector<int> parent(path.begin(), path.end() - (level == 0 ? 0 : 1));
  const std::string prefix = JoinPath(parent) + (level >= 2 ? "," : "");
  const std::uint64_t prefix_hash = splitmix::Fnv1a64(prefix);
  const int siblings = level == 0 ? 1 : n_;
  std::int8_t* out = table.arcs.get() + family * siblings * n_;
  std::vector<int> arcs;
  for (int a = 0; a < siblings; ++a) {
    const std::uint64_t hash =
        level == 0 ? prefix_hash : splitmix::Fnv1a64(prefix_hash, std::to_string(a));
    arcs = level_arcs_[level];
    splitmix::SplitMix64(splitmix::SeedState(seed_, hash)).Shuffle(arcs);
    for (int i = 0; i < n_; ++i) out[a * n_ + i] = static_cast<std::int8_t>(arcs[i]);
  }
  table.filled[family].store(1, std::memory_order_release);
}

int Rules::Arc(const std::vector<int>& path, std::uint64_t index, int action) const {
  if (!random_order_) return level_arcs_[path.size()][action];
  const DenseLevel& table = dense_[path.size()];
  if (!table.arcs) return ArcsAt(path)[action];
  const std::uint64_t family = path.empty() ? 0 : index / n_;
  if (!table.filled[family].load(std::memory_order_acquire)) FillFamily(path, index);
  return table.arcs[index * n_ + action];
}

std::vector<int> Rules::ArcsAt(const std::vector<int>& path) const {
  std::vector<int> arcs = level_arcs_[path.size()];
  if (random_order_) splitmix::SplitMix64::Seeded(seed_, JoinPath(path)).Shuffle(arcs);
  return arcs;
}

int Rules::Arc(const std::vector<int>& path, int action) const {
  std::uint64_t index = 0;
  for (int a : path) index = index * n_ + a;
  return Arc(path, index, action);
}

BallardGame::BallardGame(const open_spiel::GameParameters& params)
    : Game(games::ChanceGameType(kShortName, kLongName, Spec()),
           games::FullParameters(params, Spec(), kShortName)) {
  const open_spiel::GameParameters full = GetParameters();
  // Checked in the Python game's order, with its messages.
  const int n = games::CheckInt(full, "n", 2, std::nullopt, kShortName, " (branching factor)");
  const int plies =
      games::CheckInt(full, "plies", 1, std::nullopt, kShortName, " (decision levels)");
  const int seed = games::CheckInt(full, "seed", INT64_MIN, INT64_MAX, kShortName);
  const GameParameter& order = full.at("order");
  const bool known_order = order.has_string_value() &&
                           (order.string_value() == "best" || order.string_value() == "random");
  if (!known_order) {
    const std::string shown =
        order.has_string_value() ? games::Repr(order.string_value()) : order.ToString();
    throw std::invalid_argument(std::string(kShortName) + ": parameter order=" + shown +
                                " is not accepted; accepted: ['best', 'random']");
  }
  const GameParameter& final_chance = full.at("final_chance");
  if (!final_chance.has_bool_value()) {
    throw std::invalid_argument(std::string(kShortName) + ": parameter final_chance=" +
                                final_chance.ToString() + " must be a bool (true/false)");
  }
  rules_ = std::make_shared<const Rules>(n, plies, order.string_value() == "random", seed,
                                         final_chance.bool_value());
}

double BallardGame::MinUtility() const {
  return static_cast<double>(std::min(rules_->leaf_min(), -rules_->leaf_max()));
}

double BallardGame::MaxUtility() const {
  return static_cast<double>(std::max(rules_->leaf_max(), -rules_->leaf_min()));
}

std::unique_ptr<open_spiel::State> BallardGame::NewInitialState() const {
  return std::make_unique<BallardState>(shared_from_this());
}

BallardState::BallardState(std::shared_ptr<const open_spiel::Game> game)
    : CustomState(game), rules_(static_cast<const BallardGame&>(*game).rules()) {}

std::vector<Action> BallardState::LegalActions() const {
  std::vector<Action> actions;
  if (IsTerminal()) return actions;
  for (int i = 0; i < rules_->n(); ++i) actions.push_back(i);
  return actions;
}

std::vector<std::pair<Action, double>> BallardState::ChanceOutcomes() const {
  std::vector<std::pair<Action, double>> outcomes;
  if (CurrentPlayer() != kChancePlayerId) return outcomes;
  const double p = 1.0 / rules_->n();
  for (int i = 0; i < rules_->n(); ++i) outcomes.emplace_back(i, p);
  return outcomes;
}

namespace {

// The errors, out of line: the checks stay a few instructions in the searcher's loop.
[[noreturn]] __attribute__((noinline, cold)) void ThrowIllegal(Action action, bool terminal,
                                                               int n) {
  std::vector<Action> legal;
  if (!terminal) {
    for (int a = 0; a < n; ++a) legal.push_back(a);
  }
  games::ThrowNotApplicable(action, terminal, legal);
}

[[noreturn]] __attribute__((noinline, cold)) void ThrowNoPlayer(Player player) {
  throw std::invalid_argument("ballard_tree has players 0 and 1, not " + std::to_string(player));
}

}  // namespace

void BallardState::DoApplyAction(Action action) {
  const bool terminal = static_cast<int>(path_.size()) == rules_->depth();  // IsTerminal()
  if (terminal || action < 0 || action >= rules_->n()) {
    ThrowIllegal(action, terminal, rules_->n());
  }
  const int arc = rules_->Arc(path_, index_, family(), static_cast<int>(action));
  value_ += arc;
  steps_.push_back({index_, arc});
  path_.push_back(static_cast<int>(action));
  if (static_cast<int>(path_.size()) < rules_->dense_levels()) {
    index_ = index_ * rules_->n() + action;
  }
}

void BallardState::UndoAction(Player player, Action action) {
  PopHistory();
  path_.pop_back();
  index_ = steps_.back().index;
  value_ -= steps_.back().arc;
  steps_.pop_back();
}

std::vector<double> BallardState::Returns() const {
  if (!IsTerminal()) return {0.0, 0.0};
  const double v = static_cast<double>(value_);
  return {v, -v};
}

double BallardState::PlayerReturn(Player player) const {
  if (player != 0 && player != 1) ThrowNoPlayer(player);
  if (static_cast<int>(path_.size()) != rules_->depth()) return 0.0;  // !IsTerminal()
  const double v = static_cast<double>(value_);
  return player == 0 ? v : -v;
}

std::string BallardState::ActionToString(Player player, Action action) const {
  const std::string kind = player == 0                 ? "max"
                           : player == 1               ? "min"
                           : player == kChancePlayerId ? "chance"
                                                       : "?";
  std::string text = kind + " " + std::to_string(action);
  if (!IsTerminal() && action >= 0 && action < rules_->n()) {
    const int arc = rules_->Arc(path_, static_cast<int>(action));
    text += " (arc " + std::string(arc >= 0 ? "+" : "") + std::to_string(arc) + ")";
  }
  return text;
}

std::string BallardState::ToString() const {
  const Player player = CurrentPlayer();
  const std::string kind = player == 0                 ? "max"
                           : player == 1               ? "min"
                           : player == kChancePlayerId ? "chance"
                                                       : "leaf";
  return "path=" + JoinPath(path_) + " value=" + std::to_string(value_) + " node=" + kind;
}

void BallardState::ObservationTensor(Player player, absl::Span<float> values) const {
  std::fill(values.begin(), values.end(), 0.0f);
  // Pieces: one-hot action per level of the path (depth x n), one-hot depth (depth + 1).
  const int n = rules_->n();
  for (std::size_t j = 0; j < path_.size(); ++j) values[j * n + path_[j]] = 1.0f;
  values[rules_->depth() * n + path_.size()] = 1.0f;
}

std::string BallardState::SamplingText() const {
  return "(BallardRules,(" + JoinPath(path_) + ")," + std::to_string(value_) + ")";
}

}  // namespace starspiel::ballard_tree
